// fuzz_scenario — any bytes as a scenario document (as `gpucost eval FILE` reads them).
// Properties: no crash, hang, leak or undefined behaviour (ASan/UBSan); a rejected input has errors with
// messages; an accepted scenario serialises and parses back to the same scenario, evaluates, and its result
// document builds.
#include <cstdint>
#include <string>

#include "job/validate.h"
#include "cli.h"
#include "job/evaluate.h"
#include "fuzz_util.h"
#include "scenario/json_io.h"
#include "documents/presets.h"
#include "documents/result_json.h"

using namespace gpucost;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const ScenarioParse p = ParseScenarioOrPreset(text);
  if (!p.ok()) {
    fuzz::CheckErrors(p.errors);
    return 0;
  }
  const ScenarioParse again = ParseScenarioJson(ScenarioToJson(p.scenario));
  if (!again.ok()) fuzz::Violated("a valid scenario's JSON does not parse back");
  if (!fuzz::SameScenario(p.scenario, again.scenario)) fuzz::Violated("JSON round trip changed the scenario");
  const Result r = Evaluate(p.scenario);
  if (!r.ok) fuzz::Violated("a validated scenario cannot be evaluated");
  (void)ResultToJson(p.scenario, r);
  (void)NonFiniteResultPath(r);
  return 0;
}
