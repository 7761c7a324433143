// The one number formatter (core/base/format.h), used by the page and the CLI.
#include <doctest/doctest.h>

#include <cstdlib>

#include "base/format.h"

using namespace gpucost;

TEST_CASE("format: thousands separators from four digits") {
  CHECK(FormatUsd(7901) == "$7,901");
  CHECK(FormatUsd(12383) == "$12,383");
  CHECK(FormatUsd(999.7) == "$1,000");  // rounds into four digits: grouped too
  CHECK(FormatUsd(999) == "$999");
  CHECK(FormatUsd(-7901) == "-$7,901");
  CHECK(FormatUsd(-2.5e6) == "-$2.5M");
  CHECK(FormatUsd(0.42) == "$0.42");
  CHECK(FormatUsd(1.234e6) == "$1.23M");
  CHECK(FormatCount(1234) == "1,234");
  CHECK(FormatMoney(7901, "USD") == "$7,901");
}

TEST_CASE("format: counts and FLOPs never in exponent form (issue 30)") {
  CHECK(FormatCount(186880) == "186,880");
  CHECK(FormatCount(2.5e15) == "2,500,000,000,000,000");
  CHECK(FormatFlops(4.2e28) == "42,000 YFLOP");  // was "4.2e+04 YFLOP"
  CHECK(FormatFlops(8.4e23) == "840 ZFLOP");
  CHECK(FormatFlops(1.5e24) == "1.5 YFLOP");
}

TEST_CASE("format: short durations say ms, never a long decimal of seconds") {
  CHECK(FormatDuration(0.000369 / 3600) == "0.369 ms");
  CHECK(FormatDuration(2.5 / 3600) == "2.5 s");
  CHECK(FormatDuration(1e-9 / 3600) == "under 0.001 ms");
  CHECK(FormatDuration(0) == "0 s");
  CHECK(FormatDuration(65.6) == "2.73 days");
}

// A chart axis's ticks in one unit, its largest tick's (a new user read "0 s ... 50 ms" under the serving chart).
TEST_CASE("format: durations like another one, in its unit") {
  const double ms = 1 / 3600e3;  // hours
  CHECK(FormatDurationLike(0, 200 * ms) == "0 ms");
  CHECK(FormatDurationLike(50 * ms, 200 * ms) == "50 ms");
  CHECK(FormatDurationLike(500 * ms, 1500 * ms) == "0.5 s");
  CHECK(FormatDurationLike(1500 * ms, 1500 * ms) == "1.5 s");
  CHECK(FormatDurationLike(30.0 / 60, 2) == "0.5 h");
  CHECK(FormatDurationLike(0.0005 * ms, 0.002 * ms) == "0.0005 ms");  // below a microsecond: still a number
  CHECK(FormatDurationLike(50 * ms, 0) == FormatDuration(50 * ms));  // nothing to be like: its own unit
  for (double like : {0.003 * ms, 7 * ms, 2.5 / 3600, 3.0 / 60, 5.0, 100.0, 24.0 * 900})
    CHECK(FormatDurationLike(like, like) == FormatDuration(like));  // the largest tick reads as it always did
}

// A range message's bounds as people type them and the parser reads them back: grouped below a trillion, the short
// exponent form above it (the walk-through saw "<= 1e+15" and "<= 1000000000000" in one editor).
// 2026-12-07's walk-through: a money axis read "$0.00" under "$100 / $200 / $300" (cents only on zero).
TEST_CASE("format: a money tick at zero is \"$0\" beside its neighbours' digits") {
  CHECK(FormatUsd(0, 3) == "$0");
  CHECK(FormatUsd(100, 3) == "$100");
  CHECK(FormatUsd(3.3e6, 3) == "$3.30M");
  CHECK(FormatUsd(0.0) == "$0.00");  // a figure (not a tick) keeps its cents
}

TEST_CASE("range bounds: grouped below 1e12, short exponent above, each reads back exactly") {
  CHECK(FormatBound(1000000) == "1,000,000");
  CHECK(FormatBound(999999999999) == "999,999,999,999");
  CHECK(FormatBound(1e12) == "1e12");
  CHECK(FormatBound(1e15) == "1e15");
  CHECK(FormatBound(2.5e17) == "2.5e17");
  CHECK(FormatBound(0.25) == "0.25");
  for (double v : {1e12, 1e15, 2.5e17, 1.2345678901234e20, 1e300})
    CHECK(std::strtod(FormatBound(v).c_str(), nullptr) == v);
}
