// asserts.h — GPUCOST_ASSERT: invariants checked where they are made (STYLE.md 15; issue 45). The billing engine,
// evaluation, serving and the fleet planner assert what their totals must satisfy (parts sum, finite and
// non-negative figures, the tax identity, every GPU-hour counted once); the tests then aim at independent oracles.
//
//   On:  in the tests (tests/test_main.cpp and the law checker call SetAssertsOn(true)) and in the sanitize build
//        (compile definition GPUCOST_ASSERTS_ON: every program, the CLI and the fuzzers included).
//   Off: in release builds of the CLI: the condition is not evaluated (one load and branch per site), so the
//        benchmarks do not move. The WebAssembly build compiles them out (GPUCOST_ASSERTS_COMPILED_OUT: the page's
//        first load is measured in bytes); the native tests and the law checker exercise them.
// A failed assertion calls the handler (SetAssertHandler): by default it prints the site, the condition and what it
// protects to stderr and aborts; the tests throw instead, so doctest names the test case that broke it. Each site
// counts the times it was checked (AssertSitesChecked): the test program reports how many sites its cases reached.
#pragma once

#include <cmath>

namespace gpucost {

extern bool g_asserts_on;
#ifdef GPUCOST_ASSERTS_COMPILED_OUT
inline bool AssertsOn() { return false; }  // code guarded by it (a sum only an assert reads) is compiled out too
#else
inline bool AssertsOn() { return g_asserts_on; }
#endif
void SetAssertsOn(bool on);

using AssertHandler = void (*)(const char* file, int line, const char* condition, const char* what);
// The previous handler is returned (nullptr: the default, which prints and aborts).
AssertHandler SetAssertHandler(AssertHandler handler);
void AssertFailed(const char* file, int line, const char* condition, const char* what);

// One GPUCOST_ASSERT in the source: registered the first time it is checked.
struct AssertSite {
  const char* file;
  int line;
  long checks = 0;
  AssertSite* next = nullptr;
  AssertSite(const char* f, int l);
};
// Distinct sites checked at least once since the program started, and the first of them (a list through next).
int AssertSitesChecked();
const AssertSite* FirstAssertSite();

// The tests of GPUCOST_ASSERT allow an overflow: a figure beyond the model's numeric range (+infinity, e.g. an MFU of
// 1e-300) is not a broken invariant but a result the edge refuses (evaluate.h NonFiniteResultPath, exit 2). A NaN or
// a negative amount always fails.
//
// a = b within a relative tolerance of the larger (and an absolute one near zero): sums of many parts in doubles.
inline bool ApproxEqual(double a, double b, double rel = 1e-9, double abs = 1e-9) {
  if (std::isinf(a) || std::isinf(b)) return !std::isnan(a) && !std::isnan(b);
  return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b)) + abs;
}
// An amount a total may be made of: not NaN and not below zero.
inline bool AmountOk(double v) { return v >= 0; }

}  // namespace gpucost

#ifdef GPUCOST_ASSERTS_COMPILED_OUT
namespace gpucost {
constexpr bool kAssertsCompiled = false;
}
#define GPUCOST_ASSERT(condition, what) ((void)sizeof((condition) ? 1 : 0), (void)(what))  // unevaluated
#else
namespace gpucost {
constexpr bool kAssertsCompiled = true;
}
#define GPUCOST_ASSERT(condition, what)                                                          \
  do {                                                                                           \
    if (::gpucost::AssertsOn()) {                                                                \
      static ::gpucost::AssertSite gpucost_assert_site_(__FILE__, __LINE__);                     \
      ++gpucost_assert_site_.checks;                                                             \
      if (!(condition)) ::gpucost::AssertFailed(__FILE__, __LINE__, #condition, what);           \
    }                                                                                            \
  } while (0)
#endif
