// chart.cpp — scale math and ImGui draw-list charts (see chart.h).
#include "chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace gpucost::chart {
namespace {

constexpr double kTiny = 1e-300;

double NiceStep(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
}

ImU32 WithAlpha(ImU32 c, float alpha) {
  ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  v.w = alpha;
  return ImGui::ColorConvertFloat4ToU32(v);
}

struct Frame {
  ImVec2 min, max;  // plot area in screen pixels
  float X(const Axis& a, double v) const { return min.x + static_cast<float>(ToUnit(a, v)) * (max.x - min.x); }
  float Y(const Axis& a, double v) const { return max.y - static_cast<float>(ToUnit(a, v)) * (max.y - min.y); }
};

float WidestTick(const Axis& a, Formatter format) {
  double ticks[16];
  const int n = Ticks(a, 5, ticks, 16);
  float widest = 0;
  for (int i = 0; i < n; ++i) widest = std::max(widest, ImGui::CalcTextSize(format(ticks[i]).c_str()).x);
  return widest;
}

// fx_digits (when set) formats the x ticks by the one tick-label rule (TickDigits) instead of fx, fx_axis (when set)
// in the unit of the largest tick; the x labels drawn are appended to x_labels ('|'-joined) when it is set.
void DrawAxes(ImDrawList* dl, const Frame& f, const Axis& x, const Axis& y, Formatter fx, Formatter fy,
              DigitsFormatter fx_digits = nullptr, std::string* x_labels = nullptr, AxisFormatter fx_axis = nullptr) {
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.6f);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float line = ImGui::GetTextLineHeight();
  dl->AddRectFilled(f.min, f.max, ImGui::GetColorU32(ImGuiCol_FrameBg, 0.5f));
  double ticks[16];
  int n = Ticks(y, 5, ticks, 16);
  float last_label_y = INFINITY;  // labels that would overlap the one below are left out (the grid line stays)
  for (int i = 0; i < n; ++i) {
    const float py = f.Y(y, ticks[i]);
    dl->AddLine(ImVec2(f.min.x, py), ImVec2(f.max.x, py), grid);
    if (last_label_y - py < line) continue;
    last_label_y = py;
    const std::string label = fy(ticks[i]);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(f.min.x - w - line * 0.4f, py - line * 0.5f), text, label.c_str());
  }
  n = Ticks(x, 6, ticks, 16);
  const int digits = fx_digits ? TickDigits(ticks, n, fx_digits) : 0;
  double largest = 0;
  for (int i = 0; i < n; ++i) largest = std::max(largest, std::fabs(ticks[i]));
  float last_label_right = -INFINITY;
  for (int i = 0; i < n; ++i) {
    const float px = f.X(x, ticks[i]);
    dl->AddLine(ImVec2(px, f.min.y), ImVec2(px, f.max.y), grid);
    const std::string label = fx_digits ? fx_digits(ticks[i], digits) : fx_axis ? fx_axis(ticks[i], largest) : fx(ticks[i]);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    // Centred under its tick, but never past the plot's right edge (the last label was clipped).
    const float lx = std::min(px - w * 0.5f, f.max.x - w);
    if (lx < last_label_right + line * 0.5f) continue;
    last_label_right = lx + w;
    dl->AddText(ImVec2(lx, f.max.y + line * 0.25f), text, label.c_str());
    if (x_labels) *x_labels += (x_labels->empty() ? "" : "|") + label;
  }
  dl->AddRect(f.min, f.max, ImGui::GetColorU32(ImGuiCol_Border));
}

void DrawMarkers(ImDrawList* dl, const Frame& f, const Axis& x, const Marker* markers, int count) {
  const float line = ImGui::GetTextLineHeight();
  for (int i = 0; i < count; ++i) {
    const double u = ToUnit(x, markers[i].x);
    if (!(u >= 0 && u <= 1)) continue;
    const float px = f.X(x, markers[i].x);
    for (float py = f.min.y; py < f.max.y; py += line * 0.6f)  // dashed
      dl->AddLine(ImVec2(px, py), ImVec2(px, std::min(py + line * 0.35f, f.max.y)), markers[i].color, 2.0f);
    const float w = ImGui::CalcTextSize(markers[i].label).x;
    const float tx = px + w + line * 0.3f < f.max.x ? px + line * 0.3f : px - w - line * 0.3f;
    dl->AddText(ImVec2(tx, f.min.y + line * (0.2f + 1.1f * static_cast<float>(i))), markers[i].color,
                markers[i].label);
  }
}

void DrawSeries(ImDrawList* dl, const Frame& f, const LineChartSpec& spec) {
  const float radius = ImGui::GetTextLineHeight() * 0.18f;
  for (int s = 0; s < spec.series_count; ++s) {
    const Series& se = spec.series[s];
    bool have_prev = false;
    ImVec2 prev;
    for (int i = 0; i < se.n; ++i) {
      if (!std::isfinite(se.x[i]) || !std::isfinite(se.y[i]) || (spec.y.log && se.y[i] <= 0)) {
        have_prev = false;
        continue;
      }
      const ImVec2 p(f.X(spec.x, se.x[i]), f.Y(spec.y, se.y[i]));
      if (have_prev) dl->AddLine(prev, p, se.color, 2.0f);
      dl->AddCircleFilled(p, radius, se.color);
      prev = p;
      have_prev = true;
    }
  }
}

// The series' swatches and labels after the title, flowing onto further lines where the chart is narrow (a
// phone) rather than running past its edge. Returns the y below the last line.
float DrawLegend(ImDrawList* dl, ImVec2 at, float left, float right, const LineChartSpec& spec) {
  const float line = ImGui::GetTextLineHeight();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (int s = 0; s < spec.series_count; ++s) {
    const float width = line + ImGui::CalcTextSize(spec.series[s].label).x;
    if (at.x + width > right && at.x > left) {
      at.x = left;
      at.y += line;
    }
    dl->AddRectFilled(ImVec2(at.x, at.y + line * 0.3f), ImVec2(at.x + line * 0.8f, at.y + line * 0.7f),
                      spec.series[s].color);
    dl->AddText(ImVec2(at.x + line, at.y), text, spec.series[s].label);
    at.x += line * 0.6f + width;
  }
  return at.y + line;
}

void HoverReadout(ImDrawList* dl, const Frame& f, const LineChartSpec& spec) {
  if (spec.series_count == 0 || spec.series[0].n == 0) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const double t = (mouse.x - f.min.x) / std::max(1.0f, f.max.x - f.min.x);
  const int i = NearestIndex(spec.x, spec.series[0].x, spec.series[0].n, t);
  if (i < 0) return;
  const float px = f.X(spec.x, spec.series[0].x[i]);
  dl->AddLine(ImVec2(px, f.min.y), ImVec2(px, f.max.y), ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
  ImGui::BeginTooltip();
  ImGui::Text("%s", spec.format_x(spec.series[0].x[i]).c_str());
  for (int s = 0; s < spec.series_count; ++s)
    if (i < spec.series[s].n)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(spec.series[s].color), "%s: %s", spec.series[s].label,
                         spec.format_y(spec.series[s].y[i]).c_str());
  ImGui::EndTooltip();
}

}  // namespace

double ToUnit(const Axis& a, double v) {
  if (a.log) {
    const double lo = std::log10(std::max(a.min, kTiny)), hi = std::log10(std::max(a.max, kTiny));
    return (std::log10(std::max(v, kTiny)) - lo) / (hi - lo);
  }
  return (v - a.min) / (a.max - a.min);
}

double FromUnit(const Axis& a, double t) {
  if (a.log) {
    const double lo = std::log10(a.min), hi = std::log10(a.max);
    return std::pow(10.0, lo + t * (hi - lo));
  }
  return a.min + t * (a.max - a.min);
}

Axis FitAxis(const double* values, int n, bool log, bool include_zero) {
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(values[i]) || (log && values[i] <= 0)) continue;
    lo = std::min(lo, values[i]);
    hi = std::max(hi, values[i]);
  }
  Axis a;
  a.log = log;
  if (log) {  // bounds on the 1-2-5 steps just outside the data (not whole decades: no empty tenfold margins)
    if (!(lo <= hi)) return {1, 10, true};
    const double lo_decade = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
    a.min = lo_decade;
    for (double m : {5.0, 2.0})
      if (m * lo_decade <= lo * (1 + 1e-9)) {
        a.min = m * lo_decade;
        break;
      }
    const double hi_decade = std::pow(10.0, std::floor(std::log10(hi) - 1e-9));
    a.max = hi_decade * 10;
    for (double m : {1.0, 2.0, 5.0})
      if (m * hi_decade >= hi * (1 - 1e-9)) {
        a.max = m * hi_decade;
        break;
      }
    if (a.max <= a.min) a.max = a.min * 10;
    return a;
  }
  if (!(lo <= hi)) return {0, 1, false};
  if (include_zero) {
    lo = std::min(lo, 0.0);
    hi = std::max(hi, 0.0);
  }
  if (hi == lo) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    hi += pad;
    if (!(include_zero && lo == 0)) lo -= pad;
  }
  const double step = NiceStep((hi - lo) / 5);
  a.min = std::floor(lo / step + 1e-9) * step;
  a.max = std::ceil(hi / step - 1e-9) * step;
  return a;
}

double DurationUnitHours(double hours) {
  const double a = std::fabs(hours);  // FormatDuration's thresholds (core/base/format.cpp)
  if (a >= 24 * 365 * 2) return 24 * 365;
  if (a >= 48) return 24;
  if (a >= 1) return 1;
  if (a * 60 >= 1) return 1.0 / 60;
  return 1.0 / 3600;
}

int Ticks(const Axis& a, int target, double* out, int cap) {
  int n = 0;
  if (!(a.max > a.min) || cap <= 0) return 0;
  if (a.unit == kEachTickDuration) {  // each unit's round numbers that its labels use, merged in order
    std::vector<double> all;
    for (double unit : {1.0 / 3600, 1.0 / 60, 1.0, 24.0, 24.0 * 365}) {
      double in_unit[32];
      const int k = Ticks(Axis{a.min / unit, a.max / unit, a.log, 1}, target, in_unit, 32);
      for (int i = 0; i < k; ++i)
        if (DurationUnitHours(in_unit[i] * unit) == unit || in_unit[i] == 0) all.push_back(in_unit[i] * unit);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    for (double v : all)
      if (n < cap) out[n++] = v;
    return n;
  }
  if (a.unit > 0 && a.unit != 1) {  // round numbers of the unit, returned in the axis's own
    const Axis scaled{a.min / a.unit, a.max / a.unit, a.log, 1};
    n = Ticks(scaled, target, out, cap);
    for (int i = 0; i < n; ++i) out[i] *= a.unit;
    return n;
  }
  if (a.log) {
    const int d0 = static_cast<int>(std::ceil(std::log10(a.min) - 1e-9));
    const int d1 = static_cast<int>(std::floor(std::log10(a.max) + 1e-9));
    const bool fine = d1 - d0 < 2;  // 1-2-5 steps only when fewer than two decade ticks would show
    for (int d = d0 - 1; d <= d1 && n < cap; ++d) {
      for (double m : {1.0, 2.0, 5.0}) {
        if (m != 1.0 && !fine) continue;
        const double v = m * std::pow(10.0, d);
        if (v >= a.min * (1 - 1e-9) && v <= a.max * (1 + 1e-9) && n < cap) out[n++] = v;
      }
    }
    return n;
  }
  const double step = NiceStep((a.max - a.min) / std::max(1, target));
  const double first = std::ceil(a.min / step - 1e-9) * step;
  for (int i = 0; n < cap; ++i) {
    double v = first + i * step;
    if (v > a.max + step * 1e-9) break;
    if (std::fabs(v) < step * 1e-9) v = 0;
    out[n++] = v;
  }
  return n;
}

int TickDigits(const double* ticks, int n, DigitsFormatter format) {
  constexpr int kMinDigits = 3, kMaxDigits = 12;
  std::vector<std::string> labels(static_cast<std::size_t>(std::max(n, 0)));
  for (int digits = kMinDigits; digits < kMaxDigits; ++digits) {
    bool distinct = true;
    for (int i = 0; i < n && distinct; ++i) {
      labels[i] = format(ticks[i], digits);
      for (int j = 0; j < i && distinct; ++j) distinct = labels[j] != labels[i];
    }
    if (distinct) return digits;
  }
  return kMaxDigits;
}

int PlaceLabels(const float* anchor, const float* width, int n, float right, float pad, float* out_x, int* out_row) {
  std::vector<int> order(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return anchor[a] < anchor[b]; });
  std::vector<float> row_end;  // the right edge of the rightmost label in each row
  for (int i : order) {
    float x = anchor[i] + pad;
    if (x + width[i] > right) x = anchor[i] - pad - width[i];  // ends left of its line at the right edge
    std::size_t row = 0;
    while (row < row_end.size() && x < row_end[row] + pad) ++row;
    if (row == row_end.size()) row_end.push_back(0);
    row_end[row] = x + width[i];
    out_x[i] = x;
    out_row[i] = static_cast<int>(row);
  }
  return static_cast<int>(row_end.size());
}

int NearestIndex(const Axis& x, const double* xs, int n, double t) {
  int best = -1;
  double best_distance = INFINITY;
  for (int i = 0; i < n; ++i) {
    const double d = std::fabs(ToUnit(x, xs[i]) - t);
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return best;
}

namespace {
constexpr ImU32 kColors[] = {
      IM_COL32(86, 180, 233, 255), IM_COL32(230, 159, 0, 255),   IM_COL32(0, 158, 115, 255),
      IM_COL32(240, 228, 66, 255), IM_COL32(204, 121, 167, 255), IM_COL32(213, 94, 0, 255),
      IM_COL32(0, 114, 178, 255),  IM_COL32(170, 170, 170, 255), IM_COL32(140, 200, 120, 255),
      IM_COL32(250, 130, 130, 255), IM_COL32(160, 140, 230, 255), IM_COL32(120, 220, 220, 255),
      IM_COL32(200, 170, 110, 255), IM_COL32(230, 230, 230, 255), IM_COL32(255, 90, 160, 255),
      // Issue 50's parts: a finished model's result can show 16 or more parts at once.
      IM_COL32(176, 58, 46, 255),  IM_COL32(30, 120, 120, 255),  IM_COL32(160, 160, 40, 255),
      IM_COL32(255, 190, 140, 255), IM_COL32(100, 80, 200, 255)};
constexpr int kCount = sizeof(kColors) / sizeof(kColors[0]);
}  // namespace

ImU32 PaletteColor(int i) {
  return kColors[((i % kCount) + kCount) % kCount];
}

void DrawLineChart(const LineChartSpec& spec, ImVec2 size) {
  if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(spec.id, size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // A title wider than the chart (a phone) wraps, and the legend starts on the line below it.
  const ImVec2 title = ImGui::CalcTextSize(spec.title, nullptr, false, size.x);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), origin, ImGui::GetColorU32(ImGuiCol_Text), spec.title, nullptr, size.x);
  const bool wrapped = title.y > line * 1.5f;
  const ImVec2 legend_at = wrapped ? ImVec2(origin.x, origin.y + title.y) : ImVec2(origin.x + title.x + line * 1.5f, origin.y);
  const float legend_bottom = DrawLegend(dl, legend_at, origin.x, origin.x + size.x, spec);
  Frame f;
  f.min = ImVec2(origin.x + WidestTick(spec.y, spec.format_y) + line * 0.8f, legend_bottom + line * 0.6f);
  f.max = ImVec2(origin.x + size.x - line * 0.8f, origin.y + size.y - line * 1.5f);
  if (f.max.x - f.min.x < line * 4 || f.max.y - f.min.y < line * 2) return;  // too small to draw
  dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  if (spec.x_tick_labels) spec.x_tick_labels->clear();
  DrawAxes(dl, f, spec.x, spec.y, spec.format_x, spec.format_y, nullptr, spec.x_tick_labels, spec.format_x_ticks);
  dl->PushClipRect(f.min, f.max, true);
  DrawSeries(dl, f, spec);
  dl->PopClipRect();
  DrawMarkers(dl, f, spec.x, spec.markers, spec.marker_count);
  dl->PopClipRect();
  if (hovered) HoverReadout(dl, f, spec);
}

namespace {

void Legend(const double* values, const char* const* labels, const int* color_index, int n, double total,
            Formatter format) {
  if (!ImGui::BeginTable("legend", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("part", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthFixed);
  const float sq = ImGui::GetTextLineHeight() * 0.8f;
  for (int i = 0; i < n; ++i) {
    if (!(values[i] > 0)) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + sq * 0.15f), ImVec2(p.x + sq, p.y + sq * 1.15f),
                                              PaletteColor(color_index ? color_index[i] : i));
    ImGui::Dummy(ImVec2(sq, sq));
    ImGui::TableNextColumn();
    // The part's name wraps in its column (it stretches over what the amounts leave): a long Korean name on a phone
    // ran under the amount (issue 30).
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(labels[i]);
    ImGui::PopTextWrapPos();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format(values[i]).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%5.1f%%", 100.0 * values[i] / total);
  }
  ImGui::EndTable();
}

// capacity <= 0: the bar is the total.
void Bar(const char* id, const double* values, const char* const* labels, const int* color_index, int n,
         double capacity, Formatter format, float bar_height) {
  double total = 0;
  for (int i = 0; i < n; ++i)
    if (values[i] > 0) total += values[i];
  const double full = std::max(total, capacity);
  ImGui::PushID(id);
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 end(origin.x + width, origin.y + bar_height);
  ImGui::InvisibleButton("bar", ImVec2(width, bar_height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, end, ImGui::GetColorU32(ImGuiCol_FrameBg));
  float x = origin.x;
  for (int i = 0; i < n && full > 0; ++i) {
    if (!(values[i] > 0)) continue;
    const float w = static_cast<float>(values[i] / full) * width;
    dl->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, end.y), PaletteColor(color_index ? color_index[i] : i));
    const float mx = ImGui::GetIO().MousePos.x;
    if (hovered && mx >= x && mx < x + w)
      ImGui::SetTooltip("%s: %s (%.1f%%)", labels[i], format(values[i]).c_str(), 100.0 * values[i] / total);
    x += w;
  }
  if (capacity > 0) {
    const float cx = origin.x + static_cast<float>(capacity / full) * width;
    dl->AddLine(ImVec2(cx, origin.y - 3), ImVec2(cx, end.y + 3), ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
    if (total > capacity) dl->AddRect(origin, end, IM_COL32(255, 90, 70, 255), 0, 0, 2.0f);
  }
  if (total > 0) Legend(values, labels, color_index, n, total, format);
  ImGui::PopID();
}

}  // namespace

void DrawStackedBar(const char* id, const double* values, const char* const* labels, const int* color_index,
                    int n, Formatter format, float bar_height) {
  Bar(id, values, labels, color_index, n, 0, format, bar_height);
}

void DrawCapacityBar(const char* id, const double* values, const char* const* labels, const int* color_index,
                     int n, double capacity, Formatter format, float bar_height) {
  Bar(id, values, labels, color_index, n, capacity, format, bar_height);
}

void DrawHistogram(const char* id, const char* title, const double* counts, int bins, double x_min, double x_max,
                   DigitsFormatter format_x, const Marker* markers, int marker_count, ImVec2 size,
                   HistogramDrawn* drawn) {
  if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(origin, ImGui::GetColorU32(ImGuiCol_Text), title);
  bins = std::min(bins, kMaxHistogramBins);
  double peak = 0;
  for (int i = 0; i < bins; ++i) peak = std::max(peak, counts[i]);
  const Axis x{x_min, x_max > x_min ? x_max : x_min + 1, false};
  const Axis y = FitAxis(&peak, 1, false, true);
  const Formatter count_format = [](double v) { return std::to_string(static_cast<long long>(v)); };
  Frame f;
  f.min.x = origin.x + WidestTick(y, count_format) + line * 0.8f;
  f.max.x = origin.x + size.x - line * 0.8f;
  // The markers' labels in rows between the title and the plot, each beside its line.
  float anchor[kMaxHistogramMarkers], width[kMaxHistogramMarkers], label_x[kMaxHistogramMarkers];
  int row[kMaxHistogramMarkers], which[kMaxHistogramMarkers], shown = 0;
  for (int i = 0; i < std::min(marker_count, kMaxHistogramMarkers); ++i) {
    const double u = ToUnit(x, markers[i].x);
    if (!(u >= 0 && u <= 1)) continue;
    anchor[shown] = f.X(x, markers[i].x);
    width[shown] = ImGui::CalcTextSize(markers[i].label).x;
    which[shown++] = i;
  }
  const int rows = PlaceLabels(anchor, width, shown, f.max.x, line * 0.3f, label_x, row);
  const float labels_top = origin.y + line * 1.3f;
  f.min.y = labels_top + line * 1.1f * static_cast<float>(rows) + line * 0.3f;
  f.max.y = origin.y + size.y - line * 1.5f;
  if (drawn) *drawn = HistogramDrawn{};
  if (f.max.x - f.min.x < line * 4 || f.max.y - f.min.y < line * 2 || bins <= 0) return;
  DrawAxes(dl, f, x, y, nullptr, count_format, format_x, drawn ? &drawn->tick_labels : nullptr);
  const ImU32 color = WithAlpha(PaletteColor(0), 0.85f);
  const double bin_width = (x.max - x.min) / bins;
  for (int i = 0; i < bins; ++i) {
    const ImVec2 a(f.X(x, x.min + i * bin_width) + 1, counts[i] > 0 ? f.Y(y, counts[i]) : f.max.y);
    const ImVec2 b(f.X(x, x.min + (i + 1) * bin_width) - 1, f.max.y);
    if (counts[i] > 0) dl->AddRectFilled(a, b, color);
    if (drawn) drawn->bar_min[i] = a, drawn->bar_max[i] = b;
  }
  if (drawn) drawn->bars = bins, drawn->plot_min = f.min, drawn->plot_max = f.max;
  for (int k = 0; k < shown; ++k) {
    const Marker& m = markers[which[k]];
    const float top = labels_top + line * 1.1f * static_cast<float>(row[k]);
    for (float py = f.min.y; py < f.max.y; py += line * 0.6f)  // dashed, down the plot; the label above it
      dl->AddLine(ImVec2(anchor[k], py), ImVec2(anchor[k], std::min(py + line * 0.35f, f.max.y)), m.color, 2.0f);
    dl->AddText(ImVec2(label_x[k], top), m.color, m.label);
    if (drawn && drawn->labels < kMaxHistogramMarkers) {
      drawn->label_min[drawn->labels] = ImVec2(label_x[k], top);
      drawn->label_max[drawn->labels++] = ImVec2(label_x[k] + width[k], top + line);
    }
  }
}

// [waterfall] -------------------------------------------------------------------------------------------

int WaterfallLayout(double start, const double* deltas, int n, WaterfallBar* out) {
  n = std::max(0, std::min(n, kMaxWaterfallBars - 2));
  out[0] = {std::min(0.0, start), std::max(0.0, start), kWaterfallTotal};
  double total = start;
  for (int i = 0; i < n; ++i) {
    const double next = total + deltas[i];
    out[i + 1] = {std::min(total, next), std::max(total, next), deltas[i] > 0 ? kWaterfallUp : kWaterfallDown};
    total = next;
  }
  out[n + 1] = {std::min(0.0, total), std::max(0.0, total), kWaterfallTotal};
  return n + 2;
}

Axis WaterfallAxis(const WaterfallBar* bars, int count, bool* cut) {
  // The running totals: each step's two ends (the totals' far ends among them).
  double lo = INFINITY, hi = -INFINITY, top = 0;
  for (int i = 0; i < count; ++i) {
    const bool total = bars[i].kind == kWaterfallTotal;
    const double a = total ? (bars[i].high > 0 ? bars[i].high : bars[i].low) : bars[i].low;
    const double b = total ? a : bars[i].high;
    lo = std::min(lo, a), hi = std::max(hi, b), top = std::max(top, std::fabs(a));
  }
  *cut = false;
  if (!(hi >= lo)) return Axis{0, 1, false};
  // Steps that span less than a fifth of the largest total would be slivers on an axis from 0: zoom in.
  if (lo > 0 && hi - lo < 0.2 * top) {
    const double pad = std::max((hi - lo) * 0.15, top * 1e-6);
    const double values[] = {lo - pad, hi + pad};
    Axis a = FitAxis(values, 2, false, false);
    if (a.min > 0) {
      *cut = true;
      return a;
    }
  }
  const double values[] = {lo, hi};
  return FitAxis(values, 2, false, true);
}

void WaterfallBarPixels(float lo_px, float hi_px, bool step, float* x0, float* x1) {
  *x0 = lo_px, *x1 = hi_px;
  if (hi_px - lo_px >= kWaterfallMinBarPx) return;
  if (!step) {
    *x1 = lo_px + kWaterfallMinBarPx;
    return;
  }
  const float mid = (lo_px + hi_px) * 0.5f;
  *x0 = mid - kWaterfallMinBarPx * 0.5f, *x1 = mid + kWaterfallMinBarPx * 0.5f;
}

namespace {

ImU32 WaterfallColor(int kind) {
  return kind == kWaterfallUp ? IM_COL32(230, 110, 80, 255) : kind == kWaterfallDown ? IM_COL32(90, 190, 120, 255)
                                                                                     : PaletteColor(0);
}

// A cut bar's left end: a zigzag across it (the axis does not start at 0).
void DrawCut(ImDrawList* dl, float x, float y0, float y1) {
  const float w = (y1 - y0) * 0.25f;
  const ImU32 bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  dl->AddRectFilled(ImVec2(x + w * 0.6f, y0 - 1), ImVec2(x + w * 1.4f, y1 + 1), bg);
  dl->AddLine(ImVec2(x + w * 0.6f, y0), ImVec2(x + w * 1.0f, y1), ImGui::GetColorU32(ImGuiCol_Text), 1.5f);
  dl->AddLine(ImVec2(x + w * 1.0f, y0), ImVec2(x + w * 1.4f, y1), ImGui::GetColorU32(ImGuiCol_Text), 1.5f);
}

}  // namespace

void DrawWaterfall(const WaterfallSpec& spec, float width, WaterfallDrawn* drawn) {
  if (width <= 0) width = ImGui::GetContentRegionAvail().x;
  const int count = std::min(spec.count, kMaxWaterfallBars);
  const float line = ImGui::GetTextLineHeight();
  bool cut = false;
  const Axis axis = WaterfallAxis(spec.bars, count, &cut);
  // Labels on the left in a column at most 40% wide (wrapped there); rows as tall as their labels.
  float label_w = 0;
  for (int i = 0; i < count; ++i) label_w = std::max(label_w, ImGui::CalcTextSize(spec.labels[i]).x);
  label_w = std::min(label_w, width * 0.4f);
  float row_h[kMaxWaterfallBars], rows_h = 0;
  for (int i = 0; i < count; ++i) {
    row_h[i] = std::max(line * 1.7f, ImGui::CalcTextSize(spec.labels[i], nullptr, false, label_w).y + line * 0.5f);
    rows_h += row_h[i];
  }
  const ImVec2 title = ImGui::CalcTextSize(spec.title, nullptr, false, width);
  const float height = title.y + line * 0.5f + rows_h + line * 1.6f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(spec.id, ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), origin, ImGui::GetColorU32(ImGuiCol_Text), spec.title, nullptr, width);
  Frame f;
  f.min = ImVec2(origin.x + label_w + line * 0.8f, origin.y + title.y + line * 0.5f);
  f.max = ImVec2(origin.x + width - line * 0.5f, f.min.y + rows_h);
  if (drawn) *drawn = WaterfallDrawn{};
  if (f.max.x - f.min.x < line * 4) return;  // too narrow to draw
  // The axis at the bottom: grid lines through the rows, tick labels under them.
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.6f), muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  double ticks[16];
  const int nt = Ticks(axis, 4, ticks, 16);
  float last_right = -INFINITY;
  for (int i = 0; i < nt; ++i) {
    const float px = f.X(axis, ticks[i]);
    dl->AddLine(ImVec2(px, f.min.y), ImVec2(px, f.max.y), grid);
    const std::string label = spec.format(ticks[i]);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const float lx = std::min(std::max(px - w * 0.5f, f.min.x), f.max.x - w);
    if (lx < last_right + line * 0.5f) continue;
    last_right = lx + w;
    dl->AddText(ImVec2(lx, f.max.y + line * 0.25f), muted, label.c_str());
  }
  const float mx = ImGui::GetIO().MousePos.x, my = ImGui::GetIO().MousePos.y;
  float y = f.min.y;
  for (int i = 0; i < count; ++i) {
    const WaterfallBar& b = spec.bars[i];
    const bool total = b.kind == kWaterfallTotal;
    const float y0 = y + row_h[i] * 0.2f, y1 = y + row_h[i] * 0.8f;
    float x0 = 0, x1 = 0;  // a step of nothing still shows where it stands
    WaterfallBarPixels(total && cut ? f.min.x : f.X(axis, b.low), f.X(axis, b.high), !total, &x0, &x1);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(origin.x, y + (row_h[i] - ImGui::CalcTextSize(spec.labels[i], nullptr, false, label_w).y) * 0.5f),
                ImGui::GetColorU32(ImGuiCol_Text), spec.labels[i], nullptr, label_w);
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), WaterfallColor(b.kind));
    if (total && cut) DrawCut(dl, x0, y0, y1);
    // The connector to the next bar at the running total.
    if (i + 1 < count) {
      const double running = b.kind == kWaterfallDown ? b.low : b.high;
      const float cx = f.X(axis, total ? (b.high > 0 ? b.high : b.low) : running);
      dl->AddLine(ImVec2(cx, y1), ImVec2(cx, y + row_h[i] + row_h[i + 1] * 0.2f), muted, 1.0f);
    }
    // Its amount beside it: right of the bar where it fits, else left of it.
    const double amount = total ? (b.high > 0 ? b.high : b.low) : (b.kind == kWaterfallUp ? b.high - b.low : b.low - b.high);
    const std::string text = total ? spec.format(amount) : spec.format_step(amount);
    const float tw = ImGui::CalcTextSize(text.c_str()).x;
    const float tx = x1 + line * 0.3f + tw <= f.max.x ? x1 + line * 0.3f : std::max(f.min.x, x0 - line * 0.3f - tw);
    dl->AddText(ImVec2(tx, y + (row_h[i] - line) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    if (hovered && my >= y && my < y + row_h[i] && mx >= origin.x)
      ImGui::SetTooltip("%s: %s", spec.labels[i], text.c_str());
    if (drawn) drawn->bar_min[i] = ImVec2(x0, y0), drawn->bar_max[i] = ImVec2(x1, y1);
    y += row_h[i];
  }
  if (drawn) drawn->bars = count, drawn->cut = cut;
}

}  // namespace gpucost::chart
