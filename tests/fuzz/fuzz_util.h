// fuzz_util.h — properties shared by the fuzz targets.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost::fuzz {

// Stops the run with a message: libFuzzer saves the input as a crash.
[[noreturn]] inline void Violated(const char* what) {
  std::fprintf(stderr, "fuzz property violated: %s\n", what);
  std::abort();
}

// Two scenarios hold the same value in every field of the table (-0 equals 0).
inline bool SameScenario(const Scenario& a, const Scenario& b) {
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (f.kind == FieldKind::kText ? std::strcmp(GetText(a, f), GetText(b, f)) != 0 : GetNumber(a, f) != GetNumber(b, f))
      return false;
  }
  return true;
}

// Every error carries a message.
inline void CheckErrors(const std::vector<InputError>& errors) {
  if (errors.empty()) Violated("rejected without an error");
  for (const InputError& e : errors)
    if (e.message.empty()) Violated("an error without a message");
}

}  // namespace gpucost::fuzz
