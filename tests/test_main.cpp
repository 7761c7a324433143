// The core tests' main: doctest, with the core's invariants (GPUCOST_ASSERT, asserts.h) on. A failed assertion throws,
// so doctest names the test case whose scenario broke it. A full run (no filter) also says how many assertion sites
// its cases reached, and fails when fewer than kMinAssertSites were (issue 45: the asserts must be exercised).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "base/asserts.h"

namespace {

constexpr int kMinAssertSites = 40;

void ThrowOnAssert(const char* file, int line, const char* condition, const char* what) {
  throw std::logic_error(std::string("GPUCOST_ASSERT failed: ") + what + " (" + condition + ") at " + file + ":" +
                         std::to_string(line));
}

}  // namespace

int main(int argc, char** argv) {
  gpucost::SetAssertsOn(true);
  gpucost::SetAssertHandler(ThrowOnAssert);
  doctest::Context context(argc, argv);
  const int rc = context.run();
  if (context.shouldExit()) return rc;
  if (!gpucost::kAssertsCompiled) {  // the WebAssembly build (the page's bytes): the native run checks them
    std::printf("GPUCOST_ASSERT: compiled out in this build (skipped; the native tests check them)\n");
    return rc;
  }
  const int sites = gpucost::AssertSitesChecked();
  std::printf("GPUCOST_ASSERT: %d sites in core checked by these test cases\n", sites);
  if (argc == 1 && sites < kMinAssertSites) {
    std::printf("GPUCOST_ASSERT: fewer than %d sites checked: the invariants are not exercised\n", kMinAssertSites);
    return rc ? rc : 1;
  }
  return rc;
}
