// chart.h — the page's charts, drawn with Dear ImGui draw lists (ImPlot is not available). Two halves:
//   * scale math (axes, ticks, mapping, nearest point): pure functions, tested in tests/ui/test_chart.cpp;
//   * drawing: a line chart (linear or log axes, several series, vertical markers, hover read-out), a
//     stacked bar with legend (breakdowns), a histogram (Monte Carlo) and a waterfall (plan versus actual). Each call draws one widget of the
//     given size at the cursor and takes no heap memory per frame.
#pragma once
#include <string>

#include <imgui.h>

namespace gpucost::chart {

using Formatter = std::string (*)(double);
// A tick label in the unit its axis's largest tick takes (FormatDurationLike): every tick of the axis in one unit.
using AxisFormatter = std::string (*)(double value, double largest_tick);
// A formatter with a number of significant digits (FormatDuration(v, digits), FormatUsd(v, digits)).
using DigitsFormatter = std::string (*)(double value, int significant);

struct Axis {
  double min = 0, max = 1;   // the visible range (log axes: both > 0)
  bool log = false;
  double unit = 1;           // ticks fall on round numbers of this unit (24 for hours labelled in days: issue 30);
                             // kEachTickDuration: hours, each tick a round number of the unit its own label uses
};
constexpr double kEachTickDuration = -1;

// The unit FormatDuration labels `hours` in, in hours (years, days, hours, minutes or seconds): an axis of hours
// takes it from its largest value, so its ticks read "10 days / 100 days", never "4.17 days / 41.7 days".
double DurationUnitHours(double hours);
// A log axis of hours can span days to years, whose labels change unit on the way ("10 days", "100 days",
// "10 years"): with unit = kEachTickDuration each tick is a round number in its own label's unit (never
// "36.5 days" for a tenth of a year).

// Position of v on the axis: 0 at min, 1 at max (not clamped). Log axes map log10(v).
double ToUnit(const Axis& a, double v);
// Inverse of ToUnit.
double FromUnit(const Axis& a, double t);

// An axis that shows every finite value in values[0..n) (log: every positive one) with a little margin,
// rounded outwards to nice numbers (linear: multiples of 1, 2 or 5 x 10^k; log: whole decades).
// include_zero (linear only) extends the range to 0. A degenerate range is widened so min < max.
Axis FitAxis(const double* values, int n, bool log, bool include_zero);

// Tick positions inside [min, max]: linear about `target` ticks at 1-2-5 steps; log at powers of ten
// (and 2x, 5x when there are few decades). Writes at most cap values; returns how many.
int Ticks(const Axis& a, int target, double* out, int cap);

// The one tick-label rule: the fewest significant digits, from 3 up to 12, at which format gives every tick in
// ticks[0..n) a different label ("10.70 days", "10.72 days", not "10.7 days" three times). 12 if none suffices.
int TickDigits(const double* ticks, int n, DigitsFormatter format);

// Labels beside their lines, never over each other: n labels of widths width[i] for lines at anchor[i] (pixels).
// Each starts pad right of its line, or ends pad left of it where it would pass `right`; one that would overlap
// a label already placed in its row goes to the next row. Writes left edges out_x[i] and rows out_row[i];
// returns the number of rows used (0 when n == 0).
int PlaceLabels(const float* anchor, const float* width, int n, float right, float pad, float* out_x, int* out_row);

// Index of the point whose x is nearest to unit position t along the axis, or -1 if n == 0.
int NearestIndex(const Axis& x, const double* xs, int n, double t);

// Colours: a small qualitative palette (Okabe-Ito, readable on the dark background).
ImU32 PaletteColor(int i);

struct Series {
  const char* label;
  const double* x;
  const double* y;
  int n;
  ImU32 color;
};

struct Marker {
  double x;
  const char* label;   // shown at the top of the line
  ImU32 color;
};

struct LineChartSpec {
  const char* id;
  const char* title;
  Axis x, y;
  Formatter format_x, format_y;
  const Series* series;
  int series_count;
  const Marker* markers;
  int marker_count;
  AxisFormatter format_x_ticks = nullptr;  // when set, the x ticks' labels (format_x still reads the hovered point)
  std::string* x_tick_labels = nullptr;    // when set: the x tick labels drawn, '|'-joined (tests)
};

// Draws a line chart with axes, grid, ticks, series with points, markers, a legend and a hover read-out
// (the nearest x, every series' y there). size in pixels (x <= 0: the available width).
void DrawLineChart(const LineChartSpec& spec, ImVec2 size);

// A horizontal stacked bar of values[0..n) (parts <= 0 are skipped) with a legend: colour, label, value
// (through format) and share of the total. Hovering a segment shows its label, value and share.
void DrawStackedBar(const char* id, const double* values, const char* const* labels, const int* color_index,
                    int n, Formatter format, float bar_height);

// The same bar against a capacity (e.g. memory per GPU vs the device's): the bar's full width is
// max(total, capacity), a line marks the capacity, and the bar is outlined red when the total exceeds it.
void DrawCapacityBar(const char* id, const double* values, const char* const* labels, const int* color_index,
                     int n, double capacity, Formatter format, float bar_height);

// Where DrawHistogram drew (screen pixels), for the page's tests: the plot area, each bin's bar (empty bins have
// a zero-height bar at the axis), each marker label, and the x tick labels as drawn, joined by '|'.
constexpr int kMaxHistogramBins = 64;
constexpr int kMaxHistogramMarkers = 4;
struct HistogramDrawn {
  ImVec2 plot_min, plot_max;
  int bars = 0;
  ImVec2 bar_min[kMaxHistogramBins], bar_max[kMaxHistogramBins];
  int labels = 0;
  ImVec2 label_min[kMaxHistogramMarkers], label_max[kMaxHistogramMarkers];
  std::string tick_labels;
};

// A histogram of counts[0..bins) (bins <= kMaxHistogramBins) over [x_min, x_max): the bins span the whole axis.
// The x tick labels follow TickDigits; the markers (e.g. P50, P90; at most kMaxHistogramMarkers) are dashed lines
// whose labels sit in rows above the plot, beside their lines (PlaceLabels), never over the bars.
void DrawHistogram(const char* id, const char* title, const double* counts, int bins, double x_min, double x_max,
                   DigitsFormatter format_x, const Marker* markers, int marker_count, ImVec2 size,
                   HistogramDrawn* drawn);

// A waterfall (plan versus actual, issue 49): a first total, the steps that move it, and the last total, one row
// each and horizontal (labels on the left, wrapped in their column, so that long part names read on a phone).
// The pure half: where each bar starts and ends, and the money axis.
struct WaterfallBar {
  double low = 0, high = 0;  // the bar's span on the money axis
  int kind = 0;              // kWaterfallTotal (drawn from the axis' start), kWaterfallUp or kWaterfallDown
};
constexpr int kWaterfallTotal = 0, kWaterfallUp = 1, kWaterfallDown = 2;
constexpr int kMaxWaterfallBars = 16;
// The bars of `start`, the n deltas in order (each from the running total before it to the one after), and the
// running total after the last: n + 2 bars into out (n + 2 <= kMaxWaterfallBars). Returns how many.
int WaterfallLayout(double start, const double* deltas, int n, WaterfallBar* out);
// The money axis: from 0 when the steps are a large part of the totals (the bars' lengths then compare); else zoomed
// to the running totals' range, rounded out to nice numbers, and *cut set (the totals' bars start at its left edge,
// drawn cut). Negative totals extend it below 0.
Axis WaterfallAxis(const WaterfallBar* bars, int count, bool* cut);

// A bar's ends in pixels from its span's ends on the axis (lo_px <= hi_px). A step narrower than kWaterfallMinBarPx is
// drawn that wide about its middle: it shows where it stands and passes neither running total by more than half of
// it (a bar grown to one side would end past the total after it). A total of nothing is that wide from its start.
constexpr float kWaterfallMinBarPx = 2.0f;
void WaterfallBarPixels(float lo_px, float hi_px, bool step, float* x0, float* x1);

struct WaterfallSpec {
  const char* id;
  const char* title;
  const char* const* labels;  // one per bar
  const WaterfallBar* bars;
  int count;
  Formatter format;           // a total's amount and the axis' ticks
  Formatter format_step;      // a step's signed amount ("+$400")
};
// Where DrawWaterfall drew (screen pixels), for the page's tests: each bar, the axis' cut.
struct WaterfallDrawn {
  int bars = 0;
  ImVec2 bar_min[kMaxWaterfallBars], bar_max[kMaxWaterfallBars];
  bool cut = false;
};
// Draws the waterfall at the cursor, `width` wide (<= 0: the available width); its height follows its rows.
void DrawWaterfall(const WaterfallSpec& spec, float width, WaterfallDrawn* drawn);

}  // namespace gpucost::chart
