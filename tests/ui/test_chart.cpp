// The chart module's scale math (web/chart.h): mapping, axis fitting, ticks, hover lookup.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "chart.h"
#include "base/format.h"

using gpucost::chart::Axis;
using gpucost::chart::FitAxis;
using gpucost::chart::FromUnit;
using gpucost::chart::NearestIndex;
using gpucost::chart::Ticks;
using gpucost::chart::ToUnit;

TEST_CASE("linear and log axes map values to [0, 1] and back") {
  const Axis lin{10, 20, false};
  CHECK(ToUnit(lin, 10) == doctest::Approx(0));
  CHECK(ToUnit(lin, 15) == doctest::Approx(0.5));
  CHECK(ToUnit(lin, 25) == doctest::Approx(1.5));  // not clamped
  const Axis log{1, 1000, true};
  CHECK(ToUnit(log, 10) == doctest::Approx(1.0 / 3));
  CHECK(ToUnit(log, 1000) == doctest::Approx(1));
  for (double v : {1.5, 7.0, 333.0}) {
    CHECK(FromUnit(lin, ToUnit(lin, v)) == doctest::Approx(v));
    CHECK(FromUnit(log, ToUnit(log, v)) == doctest::Approx(v));
  }
}

TEST_CASE("FitAxis covers every finite value with nice bounds") {
  const double values[] = {3.2, NAN, 7.9, INFINITY};
  const Axis with_zero = FitAxis(values, 4, false, true);
  CHECK(with_zero.min == 0);
  CHECK(with_zero.max == doctest::Approx(8));
  const Axis tight = FitAxis(values, 4, false, false);
  CHECK(tight.min <= 3.2);
  CHECK(tight.min > 2);
  CHECK(tight.max >= 7.9);
  const double spread[] = {3, 4500, -1, 0};  // log: non-positive values ignored
  const Axis log = FitAxis(spread, 4, true, false);  // the 1-2-5 steps just outside the data
  CHECK(log.min == doctest::Approx(2));
  CHECK(log.max == doctest::Approx(5000));
  const double gpus[] = {4, 8192};
  const Axis gpu_axis = FitAxis(gpus, 2, true, false);
  CHECK(gpu_axis.min == doctest::Approx(2));
  CHECK(gpu_axis.max == doctest::Approx(10000));
  const double decades[] = {10, 1000};
  const Axis exact = FitAxis(decades, 2, true, false);
  CHECK(exact.min == doctest::Approx(10));
  CHECK(exact.max == doctest::Approx(1000));
  const double one[] = {5};
  const Axis degenerate = FitAxis(one, 1, false, false);
  CHECK(degenerate.min < 5);
  CHECK(degenerate.max > 5);
  const double exact_decade[] = {100};
  const Axis decade = FitAxis(exact_decade, 1, true, false);
  CHECK(decade.min < decade.max);
  const Axis empty = FitAxis(values + 1, 1, false, false);  // only NaN
  CHECK(empty.min == 0);
  CHECK(empty.max == 1);
}

TEST_CASE("ticks fall on 1-2-5 steps (linear) and decades (log)") {
  double t[16];
  REQUIRE(Ticks(Axis{0, 10, false}, 5, t, 16) == 6);
  for (int i = 0; i < 6; ++i) CHECK(t[i] == doctest::Approx(2.0 * i));
  REQUIRE(Ticks(Axis{-0.3, 0.3, false}, 6, t, 16) == 7);
  CHECK(t[3] == 0);  // exactly zero, not -5.55e-17
  REQUIRE(Ticks(Axis{1, 10000, true}, 5, t, 16) == 5);
  CHECK(t[0] == doctest::Approx(1));
  CHECK(t[4] == doctest::Approx(10000));
  // Two decade ticks or fewer: 1, 2, 5 per decade.
  REQUIRE(Ticks(Axis{2, 50, true}, 5, t, 16) == 5);  // 2 5 10 20 50
  CHECK(t[1] == doctest::Approx(5));
  CHECK(t[4] == doctest::Approx(50));
  REQUIRE(Ticks(Axis{10, 1000, true}, 5, t, 16) == 3);  // three decade ticks: decades only
  CHECK(Ticks(Axis{0, 10, false}, 5, t, 3) == 3);  // capacity respected
  CHECK(Ticks(Axis{1, 1, false}, 5, t, 16) == 0);  // empty range
}

TEST_CASE("NearestIndex finds the point under the mouse") {
  const double xs[] = {8, 16, 32, 64, 128};
  const Axis x{8, 128, true};
  CHECK(NearestIndex(x, xs, 5, 0.0) == 0);
  CHECK(NearestIndex(x, xs, 5, 0.49) == 2);
  CHECK(NearestIndex(x, xs, 5, 2.0) == 4);
  CHECK(NearestIndex(x, xs, 0, 0.5) == -1);
}

namespace {
std::string Days(double hours, int digits) { return gpucost::FormatDuration(hours, digits); }
std::string Usd(double usd, int digits) { return gpucost::FormatUsd(usd, digits); }
}  // namespace

TEST_CASE("tick labels: the fewest digits at which every tick reads differently (one rule for every axis)") {
  using gpucost::chart::TickDigits;
  // The Monte Carlo time axis seen on the page: 10.70..10.78 days read "10.7 days" three times at 3 digits.
  const Axis days{10.70 * 24, 10.78 * 24, false};
  double ticks[16];
  const int n = Ticks(days, 6, ticks, 16);
  REQUIRE(n >= 3);
  CHECK(Days(ticks[0], 3) == Days(ticks[1], 3));  // the bug: three digits are not enough here
  const int digits = TickDigits(ticks, n, Days);
  CHECK(digits == 4);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) CHECK(Days(ticks[i], digits) != Days(ticks[j], digits));
  CHECK(Days(ticks[1], digits).size() == std::string("10.71 days").size());  // one digit more, no more
  // Wide axes keep three digits; money in millions gains digits as the axis narrows.
  const double wide[] = {0, 100, 200, 300};
  CHECK(TickDigits(wide, 4, Usd) == 3);
  const double millions[] = {1.231e6, 1.232e6, 1.233e6};
  CHECK(TickDigits(millions, 3, Usd) == 4);
  CHECK(Usd(millions[1], 4) == "$1.232M");
  const double thousands[] = {7901.2, 7901.4, 7901.6};
  CHECK(TickDigits(thousands, 3, Usd) == 5);
  CHECK(Usd(thousands[1], 5) == "$7,901.4");
  // Every digit asked for is shown, so the labels of one axis line up: $3.30M beside $3.32M, 37.0 beside 37.2 days.
  CHECK(Usd(3.3e6, 3) == "$3.30M");
  CHECK(Usd(100e6, 3) == "$100M");
  CHECK(Days(37 * 24, 3) == "37.0 days");
  const double same[] = {5, 5};  // no count of digits tells equal values apart: the cap, not a loop
  CHECK(TickDigits(same, 2, Usd) == 12);
}

TEST_CASE("marker labels sit beside their lines and never overlap one another") {
  using gpucost::chart::PlaceLabels;
  const float right = 400, pad = 4;
  // P50 and P90 close together and the closed form near the right edge.
  const float anchor[] = {200, 210, 395};
  const float width[] = {80, 80, 90};
  float x[3];
  int row[3];
  const int rows = PlaceLabels(anchor, width, 3, right, pad, x, row);
  CHECK(x[0] == doctest::Approx(204));             // just right of its line
  CHECK(x[2] + width[2] == doctest::Approx(391));  // ends left of its line at the edge
  for (int i = 0; i < 3; ++i) {
    CHECK(x[i] + width[i] <= right);
    for (int j = 0; j < i; ++j)
      if (row[i] == row[j]) CHECK((x[i] >= x[j] + width[j] || x[j] >= x[i] + width[i]));
  }
  CHECK(row[0] != row[1]);  // they would overlap in one row
  CHECK(rows == 2);         // the third, pulled left of its line, fits after the first in its row
  CHECK(row[2] == 0);
  const float apart[] = {10, 200};
  CHECK(PlaceLabels(apart, width, 2, right, pad, x, row) == 1);  // far apart: one row
  CHECK(PlaceLabels(apart, width, 0, right, pad, x, row) == 0);
}

// Issue 30: an axis of hours labelled in days ticks on round numbers of days ("5 days / 50 days / 500 days"), not
// on round hours ("4.17 days / 41.7 days / 417 days").
TEST_CASE("an hours axis ticks on round numbers of the unit its labels use") {
  for (bool log : {true, false}) {
    CAPTURE(log);
    Axis hours{100, 12000, log};
    hours.unit = gpucost::chart::DurationUnitHours(hours.max);
    CHECK(hours.unit == 24);
    double ticks[16];
    const int n = Ticks(hours, 5, ticks, 16);
    REQUIRE(n >= 2);
    for (int i = 0; i < n; ++i) {
      const std::string label = gpucost::FormatDuration(ticks[i]);
      CAPTURE(label);
      // The number in the label has at most one significant digit (1, 2, 5 x 10^k days, or a linear step's
      // round multiple), never "4.17".
      const double days = ticks[i] / 24;
      const double scale = std::pow(10.0, std::floor(std::log10(days)));
      CHECK(std::fabs(days / scale - std::round(days / scale)) < 1e-9);
      CHECK(label.find('.') == std::string::npos);
    }
  }
  CHECK(gpucost::chart::DurationUnitHours(30) == 1);
  CHECK(gpucost::chart::DurationUnitHours(0.5) == doctest::Approx(1.0 / 60));
  CHECK(gpucost::chart::DurationUnitHours(24 * 800) == 24 * 365);
}

// Issue 30, on a phone in Korean: a log axis of 3.65 days to 10 years ticked on decades of years read
// "3.65일 / 36.5일 / 365일 / 10년". Each tick is now a round number in its own label's unit.
TEST_CASE("a log axis of hours from days to years ticks on round numbers of each label's unit") {
  for (const Axis& base : {Axis{87.6, 87600, true}, Axis{0.5, 2000, true}, Axis{100, 12000, true}, Axis{0.01, 1e6, true}}) {
    Axis hours = base;
    hours.unit = gpucost::chart::kEachTickDuration;
    CAPTURE(hours.min);
    CAPTURE(hours.max);
    double ticks[32];
    const int n = Ticks(hours, 5, ticks, 32);
    REQUIRE(n >= 2);
    for (int i = 0; i < n; ++i) {
      if (i > 0) CHECK(ticks[i] > ticks[i - 1]);
      CHECK(ticks[i] >= hours.min * (1 - 1e-9));
      CHECK(ticks[i] <= hours.max * (1 + 1e-9));
      if (ticks[i] == 0) continue;
      const double in_unit = ticks[i] / gpucost::chart::DurationUnitHours(ticks[i]);
      const double scale = std::pow(10.0, std::floor(std::log10(in_unit)));
      CAPTURE(gpucost::FormatDuration(ticks[i]));
      CHECK(std::fabs(in_unit / scale - std::round(in_unit / scale)) < 1e-9);  // 1, 2, 5 x 10^k of its unit
      CHECK(gpucost::FormatDuration(ticks[i]).find('.') == std::string::npos);
    }
  }
}

TEST_CASE("waterfall: each step runs from the total before it to the one after; the last bar is the sum") {
  using gpucost::chart::WaterfallBar;
  // Plan $1,600; compute +400, failures +48, checkpoints 0, idle +32, a saving of -80: actual $2,000.
  const double deltas[] = {400, 48, 0, 32, -80};
  WaterfallBar bars[gpucost::chart::kMaxWaterfallBars];
  REQUIRE(gpucost::chart::WaterfallLayout(1600, deltas, 5, bars) == 7);
  CHECK(bars[0].low == 0);
  CHECK(bars[0].high == 1600);
  CHECK(bars[0].kind == gpucost::chart::kWaterfallTotal);
  CHECK(bars[1].low == 1600);
  CHECK(bars[1].high == 2000);
  CHECK(bars[1].kind == gpucost::chart::kWaterfallUp);
  CHECK(bars[2].low == 2000);
  CHECK(bars[2].high == 2048);
  CHECK(bars[3].low == 2048);
  CHECK(bars[3].high == 2048);  // nothing moved: a bar of no length where the total stands
  CHECK(bars[5].low == 2000);   // the saving runs down from 2,080 to 2,000
  CHECK(bars[5].high == 2080);
  CHECK(bars[5].kind == gpucost::chart::kWaterfallDown);
  CHECK(bars[6].high == 2000);
  CHECK(bars[6].kind == gpucost::chart::kWaterfallTotal);
}

TEST_CASE("waterfall axis: from 0 when the steps are large, zoomed (and marked cut) when they are slivers") {
  using gpucost::chart::WaterfallBar;
  WaterfallBar bars[gpucost::chart::kMaxWaterfallBars];
  bool cut = true;
  const double big[] = {400, 48, 32};  // +30%: the totals' lengths compare on an axis from 0
  int n = gpucost::chart::WaterfallLayout(1600, big, 3, bars);
  Axis a = gpucost::chart::WaterfallAxis(bars, n, &cut);
  CHECK(!cut);
  CHECK(a.min == 0);
  CHECK(a.max >= 2080);
  const double small[] = {12000, -3000, 1500};  // +1% of $1.23M: zoomed to 1.23M..1.25M
  n = gpucost::chart::WaterfallLayout(1230000, small, 3, bars);
  a = gpucost::chart::WaterfallAxis(bars, n, &cut);
  CHECK(cut);
  CHECK(a.min > 1100000);
  CHECK(a.min <= 1230000);
  CHECK(a.max >= 1242000);
  CHECK(a.max < 1300000);
  const double loss[] = {-5000};  // a plan of $1,000 and a credit: the actual below 0 stays on the axis
  n = gpucost::chart::WaterfallLayout(1000, loss, 1, bars);
  a = gpucost::chart::WaterfallAxis(bars, n, &cut);
  CHECK(!cut);
  CHECK(a.min <= -4000);
  CHECK(a.max >= 1000);
}

TEST_CASE("waterfall bars in pixels: a sliver of a step stands about its span and passes neither total by more than 1 px") {
  using gpucost::chart::kWaterfallMinBarPx;
  using gpucost::chart::WaterfallBarPixels;
  float x0 = 0, x1 = 0;
  WaterfallBarPixels(100, 140, true, &x0, &x1);  // a step wide enough: drawn as it is
  CHECK(x0 == 100);
  CHECK(x1 == 140);
  // A step of 0.3 px (a cut's worth on a wide axis) from the running total at 500: drawn 2 px wide about 500.15, so
  // the next bar (starting at 500.3) and the actual total's end stay within 1 px of its ends (1440x900: the last step
  // had ended 1.7 px past the actual total when the bar grew to the right only).
  WaterfallBarPixels(500, 500.3f, true, &x0, &x1);
  CHECK(x1 - x0 == doctest::Approx(kWaterfallMinBarPx));
  CHECK((x0 + x1) * 0.5f == doctest::Approx(500.15));
  CHECK(std::fabs(x0 - 500.0f) <= kWaterfallMinBarPx * 0.5f);
  CHECK(std::fabs(x1 - 500.3f) <= kWaterfallMinBarPx * 0.5f);
  WaterfallBarPixels(300, 300, false, &x0, &x1);  // a total of nothing: shown from where it starts
  CHECK(x0 == 300);
  CHECK(x1 == 300 + kWaterfallMinBarPx);
}
