// ui_inference.cpp — the result of an inference scenario (workload.kind = inference; core/serving/inference.h):
// cost per request and per million tokens, latency percentiles against the target, load and capacity, the
// pools, where the money goes, and the cost-latency frontier as load rises (InferenceFrontier).
#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "app.h"
#include "documents/catalog.h"
#include "chart.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/inference_json.h"
#include "documents/evidence_band_json.h"

namespace gpucost::app {

std::string InferencePoolText(const InferencePool& p) {
  const GpuSpec* gpu = FindGpu(p.gpu_id);
  // "1 replica", never "1 replicas" (issue 30)
  return TrFormat(p.replicas == 1 ? "inference.pool_value_one" : "inference.pool_value", {std::to_string(p.replicas), std::to_string(p.tensor_parallel),
                                           gpu ? gpu->name : std::string(p.gpu_id), FormatPercent(p.utilization)});
}

namespace {

const ImVec4 kInferenceErrorColor(1.0f, 0.45f, 0.35f, 1.0f);
const ImVec4 kOkColor(0.5f, 0.85f, 0.55f, 1.0f);

// Money that may be a fraction of a cent (per request), in the result's display currency.
std::string SmallMoney(const Result& r, double usd) { return FormatSmallMoney(usd * r.display_per_usd, r.display_currency); }

std::string Ms(double ms) { return FormatDuration(ms / 3.6e6); }
std::string Percentiles(const LatencyMs& l) {
  return "P50 " + Ms(l.p50) + "  P90 " + Ms(l.p90) + "  P99 " + Ms(l.p99);
}
std::string MsValue(double ms) { return Ms(ms); }
// A tick of a chart's latency axis in its largest tick's unit ("0 ms" beside "50 ms", not "0 s").
std::string MsTick(double ms, double largest_ms) { return FormatDurationLike(ms / 3.6e6, largest_ms / 3.6e6); }

void Row(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", value.c_str());
}


void InferenceHeadline(AppState& app) {
  const Result& r = app.result;
  const InferenceResult& ir = r.inference;
  ImGui::SetWindowFontScale(1.35f);
  ImGui::TextUnformatted(TrFormat("inference.per_request", {SmallMoney(r, ir.usd_per_request)}).c_str());
  ImGui::SetWindowFontScale(1.0f);
  RecordRect(app, "headline");
  // Per million tokens two ways (issue 47): all-in (the whole bill over the output tokens) and the output tokens'
  // share of the bill under the split convention, with that share, so that neither reads as the other.
  const std::string all_in = TrFormat("inference.per_m_output_all_in", {SmallMoney(r, ir.usd_per_million_output_tokens_all_in)});
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(all_in.c_str());
  ImGui::PopTextWrapPos();
  RecordText(app, "per_m_output_all_in", all_in);
  ImGui::TextWrapped("%s  |  %s  |  %s", TrFormat("inference.per_m_output_split", {SmallMoney(r, ir.usd_per_million_output_tokens),
                                                                                  FormatPercent(ir.output_share_of_cost)}).c_str(),
                     TrFormat("inference.per_m_input", {SmallMoney(r, ir.usd_per_million_input_tokens)}).c_str(),
                     TrFormat("inference.per_hour", {SmallMoney(r, ir.usd_per_hour)}).c_str());
  if (EvidenceBandReady()) DrawHeadlineBand(app);  // the held-out error of similar served runs (issue 47)
  Hint(TrFormat("inference.period", {FormatDisplayMoney(r, r.expected_usd), FormatDuration(ir.hours),
                                                          FormatCount(ir.requests)}).c_str());
}

void Figures(AppState& app) {
  const Scenario& s = app.scenario;
  const Result& r = app.result;
  const InferenceResult& ir = r.inference;
  if (!ImGui::BeginTable("inference_figures", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 15);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  Row(Tr("inference.ttft"), Percentiles(ir.ttft_ms));
  Row(Tr("inference.tpot"), Percentiles(ir.tpot_ms));
  Row(Tr("inference.e2e"), Percentiles(ir.e2e_ms));
  std::string target = Tr("inference.target_none");
  if (s.inference.slo.ttft_ms > 0 || s.inference.slo.tpot_ms > 0) {
    target = "P" + std::to_string(s.inference.slo.percentile);
    if (s.inference.slo.ttft_ms > 0) target += " TTFT <= " + Ms(s.inference.slo.ttft_ms);
    if (s.inference.slo.tpot_ms > 0) target += " TPOT <= " + Ms(s.inference.slo.tpot_ms);
    target += std::string(": ") + Tr(ir.slo_met ? "inference.target_met" : "inference.target_missed");
  }
  Row(Tr("inference.target"), target);
  Row(Tr("inference.load"), TrFormat("inference.load_value", {FormatNumber(ir.requests_per_second, 4), FormatPercent(ir.utilization),
                                                                FormatNumber(ir.capacity_requests_per_second, 4),
                                                                FormatNumber(ir.peak_requests_per_second, 4)}));
  Row(Tr("inference.throughput"), TrFormat("inference.throughput_value", {FormatNumber(ir.output_tokens_per_second, 4),
                                                                            FormatNumber(ir.output_tokens_per_second_per_gpu, 4)}));
  if (ir.disaggregated) {
    Row(Tr("inference.prefill_pool"), InferencePoolText(ir.prefill));
    Row(Tr("inference.decode_pool"), InferencePoolText(ir.decode));
    Row(Tr("inference.kv_transfer"), Ms(ir.kv_transfer_ms));
  } else {
    Row(Tr("inference.pool"), InferencePoolText(ir.decode));
  }
  Row(Tr("inference.request_path"), Ms(ir.request_path_ms));
  Row(Tr("inference.kv_cache"), TrFormat("inference.kv_value", {FormatCount(ir.kv_bytes_per_token), std::to_string(ir.max_concurrency)}));
  ImGui::EndTable();
  if (!ir.fits)
    ImGui::TextColored(kInferenceErrorColor, "%s", TrFormat("inference.does_not_fit", {FormatGib(ir.weights_gb_per_gpu * 1e9, 3)}).c_str());
  else if (!ir.slo_met)
    ImGui::TextColored(kInferenceErrorColor, "%s", Tr("inference.target_missed"));
}


// What speculative decoding and prefix caching did (issue 47): the same service without each, from core
// (documents/inference_json.h ServingTechniques, the result document's inference.techniques), once per evaluation.
void Techniques(AppState& app) {
  InferencePageState& st = app.inference_page;
  if (st.techniques_for != app.evaluations) {
    st.techniques = ServingTechniques(app.scenario, app.result);
    st.techniques_for = app.evaluations;
  }
  const ServingTechniqueEffects& t = st.techniques;
  if (!t.speculative && !t.prefix_cache) return;
  const Result& r = app.result;
  const InferenceResult& ir = r.inference;
  ImGui::Spacing();
  ImGui::TextUnformatted(Tr("inference.techniques_title"));
  ImGui::PushTextWrapPos(0);
  std::string shown;
  if (t.speculative) {
    std::string line = TrFormat("inference.spec_line", {FormatNumber(t.draft_tokens_per_step, 3), FormatPercent(t.acceptance_rate),
                                                        FormatNumber(t.tokens_per_step, 3), Ms(ir.tpot_ms.p50)});
    if (t.without_speculation.ok)
      line += " " + TrFormat("inference.without", {Ms(t.without_speculation.tpot_ms_p50), SmallMoney(r, ir.usd_per_request),
                                                   SmallMoney(r, t.without_speculation.usd_per_request)});
    ImGui::TextUnformatted(("- " + line).c_str());
    shown += line + "\n";
  }
  if (t.prefix_cache) {
    std::string line = TrFormat("inference.prefix_line", {FormatCount(t.prefix_tokens), FormatPercent(t.prefix_cache_hit),
                                                          FormatPercent(t.prefill_saved_share), Ms(ir.ttft_ms.p50)});
    if (t.without_prefix_cache.ok)
      line += " " + TrFormat("inference.without", {Ms(t.without_prefix_cache.ttft_ms_p50), SmallMoney(r, ir.usd_per_request),
                                                        SmallMoney(r, t.without_prefix_cache.usd_per_request)});
    ImGui::TextUnformatted(("- " + line).c_str());
    shown += line + "\n";
  }
  ImGui::PopTextWrapPos();
  RecordText(app, "techniques", shown);
}

void Money(AppState& app) {
  const Result& r = app.result;
  constexpr int n = static_cast<int>(sizeof(kInferencePartOrder) / sizeof(kInferencePartOrder[0]));
  const char* labels[n];
  double values[n];
  int colors[n];
  for (int i = 0; i < n; ++i) {
    labels[i] = InferencePartLabel(kInferencePartOrder[i]);
    values[i] = r.cost_usd.part[kInferencePartOrder[i]] * r.display_per_usd;
    colors[i] = i;
  }
  ImGui::Spacing();
  ImGui::Text("%s: %s", Tr("inference.money"), FormatDisplayMoney(r, r.expected_usd).c_str());
  chart::DrawStackedBar("inference_money", values, labels, colors, n, ShortMoneyFormat(r),
                        ImGui::GetFrameHeight());
  RecordRect(app, "inference_money");
}

// The frontier, recomputed when the scenario was re-evaluated.
void Frontier(AppState& app) {
  InferencePageState& st = app.inference_page;
  const Scenario& s = app.scenario;
  if (st.for_evaluation != app.evaluations) {
    st.count = InferenceFrontier(s, kInferencePagePoints, st.points);
    st.for_evaluation = app.evaluations;
  }
  if (st.count < 2) return;
  const Result& r = app.result;
  // x: the latency whose target binds at full load (TPOT without a target), at the target's percentile.
  const InferenceFrontierPoint& last = st.points[st.count - 1];
  const double ttft_share = s.inference.slo.ttft_ms > 0 ? last.ttft_ms / s.inference.slo.ttft_ms : 0;
  const double tpot_share = s.inference.slo.tpot_ms > 0 ? last.tpot_ms / s.inference.slo.tpot_ms : 0;
  const bool ttft_axis = ttft_share > tpot_share;
  double xs[kInferencePagePoints], ys[kInferencePagePoints];
  for (int i = 0; i < st.count; ++i) {
    xs[i] = ttft_axis ? st.points[i].ttft_ms : st.points[i].tpot_ms;
    ys[i] = st.points[i].usd_per_million_output_tokens * r.display_per_usd;
  }
  const double target = ttft_axis ? s.inference.slo.ttft_ms : s.inference.slo.tpot_ms;
  const chart::Marker markers[] = {{target, Tr("inference.frontier_target"), chart::PaletteColor(5)}};
  const chart::Series series[] = {{Tr("inference.frontier_series"), xs, ys, st.count, chart::PaletteColor(2)}};
  double all_x[kInferencePagePoints + 1];
  std::copy(xs, xs + st.count, all_x);
  all_x[st.count] = target > 0 ? target : xs[0];
  char title[160];
  std::snprintf(title, sizeof title, "%s (%s P%lld)", Tr("inference.frontier_title"), ttft_axis ? "TTFT" : "TPOT",
                static_cast<long long>(s.inference.slo.percentile));
  ImGui::Spacing();
  std::string ticks;
  chart::DrawLineChart({"inference_frontier", title, chart::FitAxis(all_x, st.count + 1, false, false),
                        chart::FitAxis(ys, st.count, true, false), MsValue, ShortMoneyFormat(r), series, 1,
                        markers, target > 0 ? 1 : 0, MsTick, &ticks},
                       ImVec2(0, ImGui::GetTextLineHeight() * 14));
  RecordRect(app, "chart_inference_frontier");
  RecordText(app, "inference_frontier_ticks", ticks);
  ImGui::PushTextWrapPos(0);
  Hint(Tr("inference.frontier_note"));
  ImGui::PopTextWrapPos();
}

std::string HourValue(double h) { return FormatNumber(h, 2) + ":00"; }
std::string GpuValue(double g) { return FormatNumber(g, 3); }

// A day whose load changes by the hour (issue 28; core/serving/inference_day.h): the day's bill, autoscaled or fixed,
// beside the fixed fleet sized for the peak hour, a chart of the GPUs rented per hour and the hours as a table.
// Figures as the result holds them (gpucost eval --format json: inference.day).
void Day(AppState& app) {
  const Result& r = app.result;
  const ServingDay& d = r.inference.day;
  if (!d.present) return;
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextUnformatted(Tr(d.autoscaled ? "inference.day_title_autoscaled" : "inference.day_title_fixed"));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(TrFormat("inference.day_bill", {FormatDisplayMoney(r, d.usd), SmallMoney(r, d.usd_per_request),
                                                         FormatCount(d.requests), FormatPercent(d.attainment)}).c_str());
  ImGui::TextUnformatted(TrFormat("inference.day_fixed", {std::to_string(d.fixed_gpus), FormatDisplayMoney(r, d.fixed_usd),
                                                          SmallMoney(r, d.fixed_usd_per_request)}).c_str());
  if (d.autoscaled)
    ImGui::TextUnformatted(TrFormat("inference.day_scaling", {std::to_string(d.scale_events), FormatNumber(d.scale_up_minutes, 3),
                                                              FormatCount(d.cold_start_gpu_hours), FormatCount(d.scale_down_gpu_hours),
                                                              FormatCount(d.rounding_gpu_hours)}).c_str());
  if (d.autoscaled) Hint(Tr("inference.day_note"));
  ImGui::PopTextWrapPos();
  double hours[kLoadProfileHours], gpus[kLoadProfileHours];
  for (int h = 0; h < kLoadProfileHours; ++h) {
    hours[h] = h;
    gpus[h] = d.hour[h].gpus;
  }
  const chart::Series series[] = {{Tr("inference.day_gpus"), hours, gpus, kLoadProfileHours, chart::PaletteColor(2)}};
  chart::DrawLineChart({"inference_day", Tr("inference.day_chart"), chart::Axis{0, kLoadProfileHours - 1, false},
                        chart::FitAxis(gpus, kLoadProfileHours, false, true), HourValue, GpuValue, series, 1, nullptr, 0},
                       ImVec2(0, ImGui::GetTextLineHeight() * 12));
  RecordRect(app, "chart_inference_day");
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("inference_day_hours", 7, flags, ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 10))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const char* key : {"inference.day_col_hour", "inference.day_col_rate", "inference.day_col_replicas", "inference.day_col_gpus",
                          "inference.day_col_cost", "inference.day_col_latency", "inference.day_col_target"})
    ImGui::TableSetupColumn(Tr(key));
  ImGui::TableHeadersRow();
  for (int h = 0; h < kLoadProfileHours; ++h) {
    const ServingDayHour& hr = d.hour[h];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%02d:00", h);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatNumber(hr.requests_per_second, 3).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.inference.disaggregated ? (std::to_string(hr.prefill_replicas) + " + " + std::to_string(hr.replicas)).c_str()
                                                     : std::to_string(hr.replicas).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatNumber(hr.gpus, 3).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatDisplayMoney(r, hr.usd).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(("TTFT " + Ms(hr.ttft_ms) + "  TPOT " + Ms(hr.tpot_ms)).c_str());
    ImGui::TableNextColumn();
    if (hr.slo_met) ImGui::TextColored(kOkColor, "%s", Tr("inference.target_met"));
    else ImGui::TextColored(kInferenceErrorColor, "%s", Tr("inference.target_missed"));
  }
  ImGui::EndTable();
  RecordRect(app, "inference_day_hours");
}

// Fields a serving scenario does not read (inference.cpp): training's work, layout, checkpoints, tasks.
constexpr const char* kTrainingOnlyPrefixes[] = {
    "workload.tokens", "workload.flops", "workload.precision", "workload.seq_len", "workload.input_bytes",
    "workload.tasks", "workload.task_gpu_hours", "workload.gpus_per_task", "cluster.gpus", "cluster.mfu",
    "parallel.data_parallel", "parallel.pipeline", "parallel.zero", "parallel.micro", "parallel.global",
    "parallel.sequence", "parallel.recompute", "parallel.optimizer", "parallel.overlap", "parallel.single",
    "parallel.critical", "parallel.reference", "reliability.checkpoint", "reliability.async",
    "reliability.hot_spare", "reliability.failure_shape", "storage.read_gbps", "storage.checkpoint"};

}  // namespace

bool InferenceHidesField(const Scenario& s, const char* path) {
  if (Kind(s) != WorkloadKind::kInference) return false;
  // An autoscaled day loads each new replica's weights from storage (inference_day.h): its bandwidth is read.
  if (s.inference.load_profile.profile != 0 && std::strncmp(path, "storage.read_gbps", 17) == 0) return false;
  for (const char* prefix : kTrainingOnlyPrefixes)
    if (std::strncmp(path, prefix, std::strlen(prefix)) == 0 && std::strcmp(path, "cluster.gpus_per_node") != 0) return true;
  return false;
}

void DrawInferenceResults(AppState& app) {
  InferenceHeadline(app);
  ImGui::Spacing();
  Figures(app);
  Techniques(app);
  Money(app);
  Day(app);
  Frontier(app);
  DrawWarnings(app.result);
}

}  // namespace gpucost::app
