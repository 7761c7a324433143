// ui_charts.cpp — charts of the edited scenario:
//   cost and time vs GPU count (log axis) with the cheapest count and the sweet spot,
//   cost vs checkpoint interval with the optimum (Daly) and the current interval,
//   the Monte Carlo histograms of cost and time with P50/P90,
//   buy vs cloud: owned cost per useful GPU-hour against the cloud price, with the break-even utilisation,
//   the scaling fit over measured throughput points.
// Sweeps and the simulation run in slices across frames (app.busy keeps frames coming) with progress bars.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "documents/open.h"
#include "app.h"
#include "chart.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "documents/montecarlo_json.h"
#include "base/i18n.h"
#include "documents/sweep_json.h"
#include "documents/pricing_json.h"

namespace gpucost::app {
namespace {

constexpr double kMaxGpus = 10000000;
constexpr int kIntervalSteps = 16;       // the interval sweep spans optimum / 2^(16/4) .. x 2^(16/4)

std::string FormatGpus(double v) { return FormatCount(v); }
std::string FormatHours(double v) { return FormatDuration(v); }
std::string FormatMinutes(double v) { return TrFormat("chart.minutes", {std::fabs(v) >= 1000 ? FormatCount(v) : FormatNumber(v, 3)}); }
std::string FormatPct(double v) { return FormatPercent(v); }
std::string FormatTokensPerS(double v) { return FormatCount(v); }

void ResetSweep(Sweep& sw) {
  sw.x.clear();
  sw.money.clear();
  sw.hours.clear();
  sw.points.clear();
  sw.done = 0;
  sw.stale = false;
}

void AddPoint(Sweep& sw, const Scenario& p, double x) {
  if (!ValidateScenario(p).empty()) return;
  sw.points.push_back(p);
  sw.x.push_back(x);
}

void BuildIntervalSweep(const Scenario& s, const Result& r, Sweep& sw) {
  ResetSweep(sw);
  const double optimum = r.optimal_checkpoint_interval_minutes;
  if (!(optimum > 0)) return;
  for (int k = -kIntervalSteps; k <= kIntervalSteps; ++k) {
    Scenario p = s;
    p.reliability.checkpoint_interval_minutes = optimum * std::pow(2.0, k / 4.0);
    AddPoint(sw, p, p.reliability.checkpoint_interval_minutes);
  }
}

void Advance(Sweep& sw) {
  for (int i = 0; i < kSweepPointsPerFrame && sw.done < sw.points.size(); ++i, ++sw.done) {
    const Result r = Evaluate(sw.points[sw.done]);
    const bool finite = r.ok && !r.never_finishes && std::isfinite(r.expected_usd);
    sw.money.push_back(finite ? r.expected_usd * r.display_per_usd : NAN);
    sw.hours.push_back(finite ? r.expected_hours : NAN);
  }
}

bool Progress(const Sweep& sw, const char* what) {
  if (!sw.Running()) return false;
  const std::string text = TrFormat("chart.points_progress", {what, std::to_string(sw.done), std::to_string(sw.points.size())});
  ImGui::ProgressBar(static_cast<float>(sw.Progress()), ImVec2(-1, 0), text.c_str());
  return true;
}

// Starts the GPU-count sweep of the edited scenario (core/explore/sweep.h, the options of `gpucost sweep --gpus`).
void StartGpuSweep(AppState& app) {
  GpuSweepState& g = app.charts.gpus;
  if (!g.run) g.run = std::make_unique<SweepRun>();
  SweepBegin(app.scenario, SweepOptions(), g.run.get());
  g.stale = false;
}

// Infeasible counts, grouped by reason: "8, 16 GPUs: does not fit in GPU memory".
void GpuSweepGaps(const SweepResult& r) {
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const char* reason = r.points[i].infeasible_key;
    if (r.points[i].feasible) continue;
    bool first = true;
    for (std::size_t j = 0; j < i; ++j) first = first && (r.points[j].feasible || std::strcmp(r.points[j].infeasible_key, reason) != 0);
    if (!first) continue;
    std::string counts;
    for (std::size_t j = i; j < r.points.size(); ++j)
      if (!r.points[j].feasible && std::strcmp(r.points[j].infeasible_key, reason) == 0)
        counts += (counts.empty() ? "" : ", ") + FormatCount(static_cast<double>(r.points[j].gpus));
    Hint(TrFormat("chart.gap", {counts, Tr(reason)}).c_str());
  }
}

void GpuCharts(AppState& app) {
  GpuSweepState& g = app.charts.gpus;
  if (g.stale) StartGpuSweep(app);
  SweepRun& run = *g.run;
  if (!run.done) {
    SweepStep(&run, kSweepPointsPerFrame);
    const std::string text = TrFormat("chart.points_progress", {Tr("chart.gpu_sweep"), std::to_string(run.result.points.size()),
                                                                 std::to_string(run.count)});
    ImGui::ProgressBar(static_cast<float>(run.Progress()), ImVec2(-1, 0), text.c_str());
    app.busy = true;
    return;
  }
  const SweepResult& r = run.result;
  const int n = static_cast<int>(r.points.size());
  if (n == 0) return;
  std::vector<double> x(n), money(n), hours(n);
  for (int i = 0; i < n; ++i) {
    const SweepPoint& p = r.points[i];
    x[i] = static_cast<double>(p.gpus);
    money[i] = p.feasible ? p.expected_cost : NAN;  // infeasible: a gap, with its reason below
    hours[i] = p.feasible ? p.expected_hours : NAN;
  }
  const float height = ImGui::GetTextLineHeight() * 14;
  chart::Marker markers[3];
  int marker_count = 0;
  const std::string current = TrFormat("chart.marker_now", {FormatCount(static_cast<double>(app.scenario.cluster.gpus))});
  markers[marker_count++] = {static_cast<double>(app.scenario.cluster.gpus), current.c_str(), IM_COL32(200, 200, 200, 255)};
  const std::string sweet = r.sweet_spot >= 0 ? TrFormat("chart.marker_sweet", {FormatCount(x[r.sweet_spot])}) : "";
  if (r.sweet_spot >= 0) markers[marker_count++] = {x[r.sweet_spot], sweet.c_str(), chart::PaletteColor(2)};
  const std::string cheapest = r.cheapest >= 0 ? TrFormat("chart.marker_cheapest", {FormatCount(x[r.cheapest])}) : "";
  if (r.cheapest >= 0) markers[marker_count++] = {x[r.cheapest], cheapest.c_str(), chart::PaletteColor(1)};
  const chart::Axis xa = chart::FitAxis(x.data(), n, true, false);
  const chart::Series cost{Tr("chart.cost_per_job_series"), x.data(), money.data(), n, chart::PaletteColor(0)};
  chart::DrawLineChart({"cost_vs_gpus", Tr("chart.cost_vs_gpus"), xa, chart::FitAxis(money.data(), n, false, true),
                        FormatGpus, ShortMoneyFormat(app.result), &cost, 1, markers, marker_count},
                       ImVec2(0, height));
  RecordRect(app, "chart_cost_vs_gpus");
  const chart::Series time{Tr("chart.expected_time_series"), x.data(), hours.data(), n, chart::PaletteColor(5)};
  chart::Axis time_axis = chart::FitAxis(hours.data(), n, true, false);
  time_axis.unit = chart::kEachTickDuration;  // "10 days / 100 days / 10 years", not 100 h or a tenth of a year (issue 30)
  chart::DrawLineChart({"time_vs_gpus", Tr("chart.time_vs_gpus"), xa, time_axis,
                        FormatGpus, FormatHours, &time, 1, markers, marker_count},
                       ImVec2(0, height));
  if (r.cheapest < 0) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", Tr("chart.none_feasible"));
  GpuSweepGaps(r);
  if (r.single_node_mfu > 0)
    Hint(TrFormat("chart.mfu_scaled", {FormatCount(static_cast<double>(app.scenario.cluster.gpus)),
                                                             FormatPercent(r.single_node_mfu)}).c_str());
  if (r.flat_mfu)
    Hint(Tr("chart.mfu_flat"));
  Hint(TrFormat("chart.sweet_spot", {FormatNumber(kSweetSpotSlack * 100, 3)}).c_str());
}

void IntervalChart(AppState& app) {
  ChartsState& c = app.charts;
  const Result& r = app.result;
  if (c.interval.stale) BuildIntervalSweep(app.scenario, r, c.interval);
  Advance(c.interval);
  if (Progress(c.interval, Tr("chart.interval_sweep"))) {
    app.busy = true;
    return;
  }
  if (c.interval.x.empty()) {
    Hint(Tr("chart.no_interval"));
    return;
  }
  const std::string optimum = TrFormat("chart.marker_optimum", {FormatMinutes(r.optimal_checkpoint_interval_minutes)});
  const std::string current = TrFormat("chart.marker_now", {FormatMinutes(r.checkpoint_interval_minutes)});
  const chart::Marker markers[] = {{r.optimal_checkpoint_interval_minutes, optimum.c_str(), chart::PaletteColor(2)},
                                   {r.checkpoint_interval_minutes, current.c_str(), IM_COL32(200, 200, 200, 255)}};
  const int n = static_cast<int>(c.interval.x.size());
  const chart::Series cost{Tr("chart.cost_per_job_series"), c.interval.x.data(), c.interval.money.data(), n,
                           chart::PaletteColor(0)};
  chart::DrawLineChart({"cost_vs_interval", Tr("chart.cost_vs_interval"),
                        chart::FitAxis(c.interval.x.data(), n, true, false),
                        chart::FitAxis(c.interval.money.data(), n, false, false), FormatMinutes,
                        ShortMoneyFormat(r), &cost, 1, markers, 2},
                       ImVec2(0, ImGui::GetTextLineHeight() * 14));
  RecordRect(app, "chart_cost_vs_interval");
}

void StartMonteCarlo(AppState& app) {
  McState& mc = app.charts.mc;
  mc.run = std::make_unique<MonteCarlo>(app.scenario, kMcSeed, mc.trials);
  mc.stale = false;
  mc.have_summary = false;
  mc.error = mc.run->ok() ? Message{} : mc.run->error_message();
  if (!mc.run->ok()) mc.run.reset();
}

// Runs trials for about kMcSliceSeconds, then returns to draw the frame.
void AdvanceMonteCarlo(AppState& app) {
  McState& mc = app.charts.mc;
  if (!mc.run) return;
  const auto start = std::chrono::steady_clock::now();
  std::int64_t batch = 8;
  while (!mc.run->done()) {
    mc.run->Run(batch);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > kMcSliceSeconds) break;
    batch = std::min<std::int64_t>(batch * 2, 4096);
  }
  if (mc.run->done()) {
    if (!mc.run->cancelled() && mc.run->completed() > 0) {
      mc.summary = mc.run->Summary();
      mc.have_summary = true;
    }
    mc.run.reset();
  } else {
    app.busy = true;
  }
}

// The ids one Monte Carlo histogram records for tests (static strings): the chart, its plot area, its bars and
// marker labels (by index), its x tick labels as drawn ('|'-joined) and its note.
struct McChartIds {
  const char* chart;
  const char* plot;
  const char* bar;
  const char* label;
  const char* ticks;
  const char* note;
};
constexpr McChartIds kMcCostIds{"chart_mc_cost", "mc_cost_plot", "mc_cost_bar", "mc_cost_label", "mc_cost_ticks", "mc_cost_note"};
constexpr McChartIds kMcTimeIds{"chart_mc_time", "mc_time_plot", "mc_time_bar", "mc_time_label", "mc_time_ticks", "mc_time_note"};

// One histogram (axis P0.5..P99.5, core McHistogram) with P50, P90 and the closed form beside their lines, and
// its note (outliers in the end bins); a spread below the axis resolution is said in words instead of drawn.
// words: a value in full (the note); format: tick labels with digits; scale: the display rate (1 for time).
void Histogram(AppState& app, const McChartIds& ids, const char* title, const McHistogram& h, const McStats& st,
               double expected, std::int64_t trials, chart::DigitsFormatter format,
               const std::function<std::string(double)>& words, double scale) {
  const std::string note = McHistogramNote(h, trials, scale, words);
  RecordText(app, ids.note, note);
  if (!h.resolved) {
    RecordText(app, ids.ticks, "");
    ImGui::TextUnformatted(title);
    ImGui::TextWrapped("%s", note.c_str());
    RecordRect(app, ids.chart);
    return;
  }
  double counts[kMcHistogramBins];
  for (int i = 0; i < kMcHistogramBins; ++i) counts[i] = static_cast<double>(h.counts[i]);
  const double percentiles[] = {st.p50 * scale, st.p90 * scale};
  const int digits = st.p90 > st.p50 ? chart::TickDigits(percentiles, 2, format) : 3;  // P50 and P90 read apart
  const std::string p50 = "P50 " + format(st.p50 * scale, digits), p90 = "P90 " + format(st.p90 * scale, digits);
  const std::string mean = TrFormat("chart.mc_closed_form", {format(expected * scale, digits)});
  const chart::Marker markers[] = {{st.p50 * scale, p50.c_str(), chart::PaletteColor(2)},
                                   {st.p90 * scale, p90.c_str(), chart::PaletteColor(5)},
                                   {expected * scale, mean.c_str(), IM_COL32(200, 200, 200, 255)}};
  chart::HistogramDrawn drawn;
  chart::DrawHistogram(ids.chart, title, counts, kMcHistogramBins, h.lo * scale, h.hi * scale, format, markers, 3,
                       ImVec2(0, ImGui::GetTextLineHeight() * 14), &drawn);
  RecordRect(app, ids.chart);
  RecordRectAt(app, ids.plot, -1, drawn.plot_min.x, drawn.plot_min.y, drawn.plot_max.x, drawn.plot_max.y);
  for (int i = 0; i < drawn.bars; ++i)
    RecordRectAt(app, ids.bar, i, drawn.bar_min[i].x, drawn.bar_min[i].y, drawn.bar_max[i].x, drawn.bar_max[i].y);
  for (int i = 0; i < drawn.labels; ++i)
    RecordRectAt(app, ids.label, i, drawn.label_min[i].x, drawn.label_min[i].y, drawn.label_max[i].x,
                 drawn.label_max[i].y);
  RecordText(app, ids.ticks, drawn.tick_labels);
  if (!note.empty()) {  // wrapped at spaces on a narrow screen, never cut (issue 30)
    Hint(note.c_str());
  }
}

std::string HoursDigits(double v, int significant) { return FormatDuration(v, significant); }

void MonteCarloCharts(AppState& app) {
  McState& mc = app.charts.mc;
  ImGui::TextWrapped("%s", Tr("chart.mc_title"));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::InputInt((std::string(Tr("chart.trials")) + "###trials").c_str(), &mc.trials, 0, 0)) mc.trials = std::clamp(mc.trials, 100, 200000);
  ImGui::SameLine();
  if (mc.run) {
    if (ImGui::Button((std::string(Tr("chart.cancel")) + "###mc").c_str())) mc.run->Cancel();
  } else if (ImGui::Button((std::string(Tr(mc.have_summary ? "chart.run_again" : "chart.run")) + "###mc").c_str())) {
    StartMonteCarlo(app);
  }
  RecordRect(app, "mc_run");
  if (!mc.run && mc.stale && mc.auto_start && app.result.ok) StartMonteCarlo(app);
  AdvanceMonteCarlo(app);
  if (mc.run) {
    const std::string text = TrFormat("chart.mc_progress", {FormatCount(static_cast<double>(mc.run->completed())),
                                                            FormatCount(static_cast<double>(mc.run->trials()))});
    ImGui::ProgressBar(static_cast<float>(mc.run->progress()), ImVec2(-1, 0), text.c_str());
    return;
  }
  if (!mc.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", mc.error.Text(CurrentLanguage()).c_str());
  if (!mc.have_summary) return;
  const McSummary& s = mc.summary;
  const Result& r = app.result;
  // Trials, then cost and time: each part whole on its line (a phone wraps between them, never inside a figure).
  ImGui::TextUnformatted(TrFormat("chart.mc_summary", {FormatCount(static_cast<double>(s.trials)), std::to_string(s.seed),
                                                       mc.stale ? Tr("chart.mc_stale") : ""}).c_str());
  const std::string cost = TrFormat("chart.mc_summary_cost", {FormatDisplayMoney(r, s.cost_usd.p50), FormatDisplayMoney(r, s.cost_usd.p90)});
  const std::string time = TrFormat("chart.mc_summary_time", {FormatDuration(s.time_hours.p50), FormatDuration(s.time_hours.p90)});
  ImGui::TextUnformatted(cost.c_str());
  SameLineIfRoom(time);
  ImGui::TextUnformatted(time.c_str());
  // The median and the mean are different questions: the closed form is an expectation (a mean), so it is set
  // beside the simulated mean, and the note says why the median can sit on either side of it (issue 30).
  const std::string means = TrFormat("chart.mc_means", {FormatDisplayMoney(r, s.cost_usd.mean), FormatDisplayMoney(r, s.closed_form_usd)});
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(means.c_str());
  RecordText(app, "mc_means", means);
  Hint(Tr("chart.mc_median_note"));
  RecordText(app, "mc_median_note", Tr("chart.mc_median_note"));
  ImGui::PopTextWrapPos();
  const char* currency = r.display_currency;
  Histogram(app, kMcCostIds, Tr("chart.mc_cost"), s.cost_hist, s.cost_usd, s.closed_form_usd, s.trials,
            ShortMoneyDigits(r), [currency](double v) { return FormatMoney(v, currency); }, r.display_per_usd);
  Histogram(app, kMcTimeIds, Tr("chart.mc_time"), s.time_hist, s.time_hours, s.closed_form_hours, s.trials,
            HoursDigits, [](double v) { return FormatDuration(v); }, 1);
}

void BuyVsCloudChart(AppState& app) {
  // Against the scenario's own cloud price (the on-demand anchor of gpucost pricing), in its currency: core's curve
  // (BuyVsCloudCurve, the pricing document's "buy_vs_cloud"), only scaled to the display currency here.
  const BuyVsCloud b = BuyVsCloudCurve(app.scenario);
  const TcoResult& t = b.tco;
  const double k = app.result.display_per_usd;
  constexpr int kPoints = kBuyVsCloudPoints;
  double u[kPoints], own[kPoints], cloud[kPoints];
  for (int i = 0; i < kPoints; ++i) {
    u[i] = b.utilization[i];
    own[i] = b.owned_usd_per_gpu_hour[i] * k;
    cloud[i] = b.cloud_usd_per_gpu_hour * k;
  }
  struct {
    double utilization, compare_usd_per_gpu_hour;
  } owned{b.current_utilization, b.cloud_usd_per_gpu_hour};
  char be[64], now[64];
  std::snprintf(be, sizeof be, "%s", TrFormat("chart.break_even", {FormatPercent(t.break_even_utilization)}).c_str());
  std::snprintf(now, sizeof now, "%s", TrFormat("chart.now", {FormatPercent(owned.utilization)}).c_str());
  const chart::Marker markers[] = {{t.break_even_utilization, be, chart::PaletteColor(2)},
                                   {owned.utilization, now, IM_COL32(200, 200, 200, 255)}};
  const chart::Series series[] = {{Tr("chart.owned_series"), u, own, kPoints, chart::PaletteColor(1)},
                                  {Tr("chart.cloud_series"), u, cloud, kPoints, chart::PaletteColor(0)}};
  double ys[2 * kPoints];
  std::copy(own, own + kPoints, ys);
  std::copy(cloud, cloud + kPoints, ys + kPoints);
  chart::DrawLineChart({"buy_vs_cloud", Tr(DisplaysKrw(app.result) ? "chart.buy_vs_cloud_krw" : "chart.buy_vs_cloud"),
                        chart::Axis{0, 1, false}, chart::FitAxis(ys, 2 * kPoints, true, false), FormatPct,
                        ShortMoneyFormat(app.result), series, 2, markers,
                        t.break_even_utilization <= 1 ? 2 : 1},
                       ImVec2(0, ImGui::GetTextLineHeight() * 14));
  RecordRect(app, "chart_buy_vs_cloud");
  const std::string verdict = t.break_even_months > 0 ? TrFormat("chart.pays_back", {FormatNumber(t.break_even_months, 3)})
                                                      : std::string(Tr("chart.renting_cheaper"));
  ImGui::TextWrapped("%s", TrFormat("chart.owning", {FormatDisplayMoney(app.result, t.usd_per_gpu_hour), FormatPercent(owned.utilization),
                                                     FormatDisplayMoney(app.result, t.usd_per_gpu_year),
                                                     FormatDisplayMoney(app.result, owned.compare_usd_per_gpu_hour), verdict}).c_str());
  // What the servers cost and draw, and where those figures come from (issue 25: the GPU's own catalog entry).
  const std::string capex_key = std::string("chart.capex_") + t.source.capex_basis;
  ImGui::TextWrapped("%s", TrFormat(capex_key.c_str(), {FormatDisplayMoney(app.result, t.capex_usd_per_gpu),
                                                        FormatNumber(t.power_kw_per_gpu, 3), t.source.capex_source}).c_str());
}

void ScalingPointsEditor(AppState& app) {
  ScalingInputs& sc = app.scenario.scaling;
  for (int i = 0; i < sc.point_count; ++i) {
    ImGui::PushID(i);
    long long gpus = sc.points[i].gpus;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::InputScalar((std::string(Tr("chart.gpus")) + "###gpus").c_str(), ImGuiDataType_S64, &gpus) && gpus >= 1 && gpus <= static_cast<long long>(kMaxGpus)) {
      sc.points[i].gpus = gpus;
      AppScenarioEdited(app);
    }
    ImGui::SameLine();
    double tps = sc.points[i].tokens_per_second;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::InputDouble((std::string(Tr("chart.tokens_per_s")) + "###tps").c_str(), &tps, 0, 0, "%.6g") && tps > 0 && std::isfinite(tps)) {
      sc.points[i].tokens_per_second = tps;
      AppScenarioEdited(app);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton((std::string(Tr("chart.remove")) + "###remove").c_str())) {
      for (int j = i; j + 1 < sc.point_count; ++j) sc.points[j] = sc.points[j + 1];
      --sc.point_count;
      AppScenarioEdited(app);
    }
    ImGui::PopID();
  }
  ImGui::BeginDisabled(sc.point_count >= kMaxScalingPoints);
  if (ImGui::SmallButton((std::string(Tr("chart.add_point")) + "###add_point").c_str())) {
    ScalingPointInputs next{8, 1e5};  // a first point to overwrite with a measurement
    if (sc.point_count > 0) {
      const ScalingPointInputs& last = sc.points[sc.point_count - 1];
      next = {last.gpus * 2, last.tokens_per_second * 1.8};
    }
    sc.points[sc.point_count++] = next;
    AppScenarioEdited(app);
  }
  ImGui::EndDisabled();
}

void ScalingChart(AppState& app) {
  ImGui::TextUnformatted(Tr("chart.scaling_title"));
  ScalingPointsEditor(app);
  const ScalingInputs& sc = app.scenario.scaling;
  if (sc.point_count == 0) return;
  const ScalingFit fit = FitScaling(sc.points, sc.point_count);
  if (!fit.ok()) {
    Hint(Tr(ScalingFitErrorKey(fit.error)));
    return;
  }
  double mx[kMaxScalingPoints], my[kMaxScalingPoints];
  for (int i = 0; i < sc.point_count; ++i) mx[i] = static_cast<double>(sc.points[i].gpus), my[i] = sc.points[i].tokens_per_second;
  constexpr int kCurve = 24;
  double cx[kCurve], amdahl[kCurve], usl[kCurve], linear[kCurve];
  const chart::Axis x{std::max(1.0, fit.min_gpus / 2), std::max(fit.max_gpus * 16, static_cast<double>(app.scenario.cluster.gpus) * 2), true};
  for (int i = 0; i < kCurve; ++i) {
    cx[i] = chart::FromUnit(x, i / (kCurve - 1.0));
    amdahl[i] = fit.amdahl.valid ? fit.amdahl.Throughput(cx[i]) : NAN;
    usl[i] = fit.usl.valid ? fit.usl.Throughput(cx[i]) : NAN;
    linear[i] = fit.best().lambda_tokens_per_s * cx[i];
  }
  const chart::Series series[] = {{Tr("chart.series_measured"), mx, my, sc.point_count, chart::PaletteColor(3)},
                                  {"Amdahl", cx, amdahl, kCurve, chart::PaletteColor(0)},
                                  {"USL", cx, usl, kCurve, chart::PaletteColor(1)},
                                  {Tr("chart.series_linear"), cx, linear, kCurve, chart::PaletteColor(7)}};
  const std::string now = TrFormat("chart.marker_now", {FormatCount(static_cast<double>(app.scenario.cluster.gpus))});
  const chart::Marker marker{static_cast<double>(app.scenario.cluster.gpus), now.c_str(), IM_COL32(200, 200, 200, 255)};
  double ys[kMaxScalingPoints + 2 * kCurve];
  std::copy(my, my + sc.point_count, ys);
  std::copy(amdahl, amdahl + kCurve, ys + sc.point_count);
  std::copy(usl, usl + kCurve, ys + sc.point_count + kCurve);
  chart::DrawLineChart({"scaling_fit", Tr("chart.scaling_chart"), x,
                        chart::FitAxis(ys, sc.point_count + 2 * kCurve, true, false), FormatGpus, FormatTokensPerS, series,
                        fit.usl.valid ? 4 : 3, &marker, 1},
                       ImVec2(0, ImGui::GetTextLineHeight() * 14));
  Hint(TrFormat("chart.scaling_chosen", {ScalingLawName(fit.chosen), FormatNumber(fit.best().sigma, 3),
                                         FormatNumber(fit.best().kappa, 3), FormatPercent(fit.best().rms_relative_error)}) +
       (fit.superlinear ? Tr("chart.superlinear") : ""));
}

}  // namespace

void DrawCharts(AppState& app) {
  if (!app.result.ok) {
    Hint(Tr("chart.invalid"));
    return;
  }
  if (Kind(app.scenario) == WorkloadKind::kInference) return DrawServingCharts(app);  // issue 17
  GpuCharts(app);
  ImGui::Separator();
  IntervalChart(app);
  ImGui::Separator();
  MonteCarloCharts(app);
  ImGui::Separator();
  BuyVsCloudChart(app);
  ImGui::Separator();
  ScalingChart(app);
}

}  // namespace gpucost::app
