// chart.h — the page's charts, drawn with Dear ImGui draw lists (ImPlot is not available). Two halves:
//   * scale math (axes, ticks, mapping, nearest point): pure functions, tested in tests/ui/test_chart.cpp;
//   * drawing: a line chart (linear or log axes, several series, vertical markers, hover read-out), a
//     stacked bar with legend (breakdowns) and a histogram (Monte Carlo). Each call draws one widget of the
//     given size at the cursor and takes no heap memory per frame.
#pragma once
#include <string>

#include <imgui.h>

namespace gpucost::chart {

using Formatter = std::string (*)(double);

struct Axis {
  double min = 0, max = 1;   // the visible range (log axes: both > 0)
  bool log = false;
};

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

// A histogram of counts[0..bins) over [x_min, x_max) with vertical markers (e.g. P50, P90).
void DrawHistogram(const char* id, const char* title, const double* counts, int bins, double x_min,
                   double x_max, Formatter format_x, const Marker* markers, int marker_count, ImVec2 size);

}  // namespace gpucost::chart
