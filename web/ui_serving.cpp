// ui_serving.cpp — the views of an inference scenario (issue 17), each the document of the CLI verb asking the
// same question, from the same core function:
//   Charts      the request simulation (SimulateInference, `gpucost mc`), after the words of why the GPU-count
//               sweep does not apply to serving (`gpucost sweep --gpus` refuses with the same words)
//   Layouts     the serving plan (PlanInference, `gpucost plan`): cheapest configurations, why the others lose
//   Fleet       why the fleet planner does not take a serving scenario (`gpucost fleet` says the same)
//   Compare     "Compare serving options" pins colocated H100, colocated A100 and the split (ServingOptions,
//               `gpucost compare --serving-options`)
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <string>

#include "documents/inference_sim_json.h"
#include "documents/inference_plan_json.h"
#include "app.h"
#include "documents/catalog.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/inference_views.h"

namespace gpucost::app {
namespace {

double SecondsNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const ImVec4 kServingErrorColor(1.0f, 0.45f, 0.35f, 1.0f);

std::string ServingMs(double ms) { return FormatDuration(ms / 3.6e6); }
std::string ServingSmallMoney(const Result& r, double usd) { return FormatSmallMoney(usd * r.display_per_usd, r.display_currency); }

void Wrapped(const char* text) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
}

// The refusal of a question serving has no answer to, in the words the CLI verb prints.
void Refusal(AppState& app, ServingQuestion q) {
  const char* text = Tr(ServingRefusalKey(q));
  Hint(text);
  RecordText(app, "serving_refusal", text);
}

// Percentiles as rows of (quantity, simulated or closed form): four columns, narrow enough for a phone.
void SimTable(const InferenceSimResult& r) {
  const float height = ImGui::GetTextLineHeightWithSpacing() * 7.5f;  // the first frame's guess: then as drawn
  if (!ImGui::BeginTable("serving_sim", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                               ImGuiTableFlags_ScrollX, ImVec2(0, SidewaysTableHeight("serving_sim", height))))
    return;
  for (const char* h : {"", "P50", "P90", "P99"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  auto row = [](const std::string& label, const LatencyMs& l) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label.c_str());
    for (double v : {l.p50, l.p90, l.p99}) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(ServingMs(v).c_str());
    }
  };
  const std::string simulated = std::string(" (") + Tr("serving.simulated") + ")";
  const std::string closed = std::string(" (") + Tr("serving.closed_form") + ")";
  row("TTFT" + simulated, r.ttft_ms);
  row("TTFT" + closed, r.closed_ttft_ms);
  row("TPOT" + simulated, r.tpot_ms);
  row("TPOT" + closed, r.closed_tpot_ms);
  row(Tr("inference.e2e") + simulated, r.e2e_ms);
  ImGui::EndTable();
}

constexpr int kPlanCells = 10;
using PlanCells = std::array<std::string, kPlanCells>;

// How wide a bordered table of fitted columns draws `cells` under `headers` (each as HeaderToFit puts it), with
// `extra` more (the Adopt column).
float FittedWidth(const std::vector<PlanCells>& cells, const char* const* headers, float extra) {
  const float pad = ImGui::GetStyle().CellPadding.x * 2 + 1;  // a cell's padding and its border
  float width = extra + 1;
  for (int k = 0; k < kPlanCells; ++k) {
    float body = 0;
    for (const PlanCells& row : cells) body = std::max(body, ImGui::CalcTextSize(row[k].c_str()).x);
    width += std::max(body, ImGui::CalcTextSize(HeaderToFit(headers[k], body).c_str()).x) + pad;
  }
  return width;
}

// The cheapest list's rows carry an Adopt button (adopt = true); the families' do not (most of them lose). A header
// wider than its column's cells takes two lines (HeaderToFit): at 1280x720 and 150% the Korean cheapest list then fits
// without scrolling sideways. Where the table is still wider than the view (English at 1280x720: 32-50 px) and a split's
// decode pool on a second line of its cell makes it fit, it goes there; else (a phone) the table scrolls sideways.
void PlanRows(AppState& app, const char* id, const std::vector<InferenceCandidate>& rows, bool adopt) {
  const Result& r = app.result;
  constexpr int kCells = kPlanCells;
  std::vector<PlanCells> cells;
  std::vector<std::string> two_lines;  // each row's pools with a split's decode pool on a line of its own
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const InferenceCandidate& c = rows[i];
    const std::string pre = std::to_string(c.prefill_replicas) + "x" + std::to_string(c.prefill_tp) + " " + c.prefill_gpu;
    const std::string dec = std::to_string(c.decode_replicas) + "x" + std::to_string(c.decode_tp) + " " + c.decode_gpu;
    const std::string mode = std::string(Tr(c.disaggregated ? "serving.mode_split" : "serving.mode_colocated")) + ": ";
    cells.push_back({std::to_string(i + 1), mode + (c.disaggregated ? pre + " : " + dec : dec),
                     ServingSmallMoney(r, c.usd_per_request), c.verdict_message.Text(CurrentLanguage()), ServingSmallMoney(r, c.usd_per_million_output_tokens),
                     std::to_string(c.gpus), ServingMs(c.ttft_ms), ServingMs(c.tpot_ms), std::to_string(c.max_batch),
                     ServingSmallMoney(r, c.usd_per_hour)});
    two_lines.push_back(c.disaggregated ? mode + pre + " :\n" + dec : cells.back()[1]);
  }
  // Adopt beside the number, then the money and the verdict: on a phone the rest scrolls sideways.
  const char* headers[kCells] = {"#", Tr("serving.plan_columns_pools"), Tr("serving.cost_per_request"), Tr("serving.plan_columns_verdict"),
                                 Tr("serving.per_m_output"), Tr("serving.gpus"), "TTFT", "TPOT", Tr("serving.plan_columns_cap"),
                                 Tr("serving.per_hour")};
  const ImGuiStyle& style = ImGui::GetStyle();
  const float adopt_width = adopt ? ImGui::CalcTextSize(Tr("plan.adopt")).x + style.FramePadding.x * 2 + style.CellPadding.x * 2 + 1 : 0;
  const float view = ImGui::GetContentRegionAvail().x;
  if (FittedWidth(cells, headers, adopt_width) > view) {
    std::vector<PlanCells> wrapped = cells;
    for (std::size_t i = 0; i < cells.size(); ++i) wrapped[i][1] = two_lines[i];
    if (FittedWidth(wrapped, headers, adopt_width) <= view) cells = std::move(wrapped);
  }
  if (!ImGui::BeginTable(id, adopt ? kCells + 1 : kCells, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                     ImGuiTableFlags_ScrollX,
                         ImVec2(0, SidewaysTableHeight(id, ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(rows.size()) + 3.5f)))))
    return;
  for (int k = 0; k < kCells; ++k) {
    float body = 0;
    for (const auto& row : cells) body = std::max(body, ImGui::CalcTextSize(row[k].c_str()).x);
    ImGui::TableSetupColumn(HeaderToFit(headers[k], body).c_str());
    if (k == 0 && adopt) ImGui::TableSetupColumn("");
  }
  ImGui::TableHeadersRow();
  int adopted = -1;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    ImGui::TableNextRow();
    for (int k = 0; k < kCells; ++k) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cells[i][k].c_str());
      if (k == 0 && adopt) {
        ImGui::TableNextColumn();
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::SmallButton((std::string(Tr("plan.adopt")) + "###serving_adopt").c_str())) adopted = static_cast<int>(i);
        if (i == 0) RecordRect(app, "serving_plan_adopt");
        ImGui::PopID();
      }
    }
  }
  RecordScroll(app, id);  // tests: how far it scrolls sideways
  ImGui::EndTable();
  if (adopted >= 0) AppAdoptServingPlan(app, adopted);  // after the table: the rows are the plan's, not a copy
}

// One frame's slice of sliced work (the plan's search, the request simulation): `run` steps of `chunk` until it is
// done or kServingPlanSliceSeconds have passed. True when done; else the next frame runs the next slice.
template <class Work>
bool RunSlice(AppState& app, Work& run, std::int64_t chunk) {
  const double start = SecondsNow();
  bool done = run.done();
  while (!done && SecondsNow() - start < kServingPlanSliceSeconds) done = run.Step(chunk);
  if (!done) app.busy = true;
  return done;
}

}  // namespace

void AppUpdateServingSim(AppState& app) {
  ServingViewsState& st = app.serving;
  if (st.sim_for != app.evaluations) {
    st.sim_for = app.evaluations;
    st.sim_document.clear();
    st.sim = InferenceSimResult{};
    st.sim_run.reset();
    if (!app.result.ok || Kind(app.scenario) != WorkloadKind::kInference) return;
    st.sim_run = std::make_unique<InferenceSimulation>(app.scenario, kServingPageRequests, kMcSeed, kServingPageMaxWork);
  }
  if (!st.sim_run || !RunSlice(app, *st.sim_run, 20000)) return;
  st.sim = st.sim_run->Finish();
  st.sim_run.reset();
  if (st.sim.ok) st.sim_document = InferenceSimToJson(app.scenario, st.sim);
}

void AppUpdateServingPlan(AppState& app) {
  ServingViewsState& st = app.serving;
  if (st.plan_for == app.evaluations) return AppStepServingPlan(app);
  st.plan_for = app.evaluations;
  st.plan_document.clear();
  st.plan_search.reset();
  if (!app.result.ok || Kind(app.scenario) != WorkloadKind::kInference) return;
  st.plan_search = std::make_unique<InferencePlanSearch>(app.scenario, kServingPlanTop);
  st.plan_started = SecondsNow();
  AppStepServingPlan(app);
}

void AppStepServingPlan(AppState& app) {
  ServingViewsState& st = app.serving;
  if (!st.plan_search || !RunSlice(app, *st.plan_search, 32)) return;
  st.plan = st.plan_search->Finish();
  st.plan.seconds = SecondsNow() - st.plan_started;
  st.plan_search.reset();
  if (st.plan.ok) st.plan_document = InferencePlanToJson(app.scenario, st.plan);
}

void AppAdoptServingPlan(AppState& app, int index) {
  ServingViewsState& st = app.serving;
  if (!st.plan.ok || index < 0 || index >= static_cast<int>(st.plan.best.size())) return;
  const InferenceCandidate c = st.plan.best[static_cast<std::size_t>(index)];
  const bool current = st.plan_for == app.evaluations;
  app.scenario = ApplyInferenceCandidate(app.scenario, c);
  AppScenarioEdited(app);
  AppRefresh(app);
  // What Adopt changed is what the search chose: the plan still stands for this scenario (as the layout plan's).
  if (current) st.plan_for = app.evaluations;
  app.notice = TrFormat("serving.plan_adopted", {std::to_string(index + 1), ServingSmallMoney(app.result, c.usd_per_request)});
}

int AppPinServingOptions(AppState& app) {
  Comparison c;
  Message error;
  if (!app.result.ok || !ServingOptions(app.scenario, &c, &error)) {
    AppSetError(app, "", error);
    return 0;
  }
  const std::size_t replaced = app.pinned.size();
  app.pinned.clear();
  for (CompareColumn& col : c.columns) app.pinned.push_back({col.scenario, col.result, col.note_message, col.label_message, c.price_source});
  app.notice = replaced > 0 ? TrFormat("serving.options_pinned", {std::to_string(c.columns.size()), std::to_string(replaced)})
                            : TrFormat("serving.options_pinned_new", {std::to_string(c.columns.size())});
  app.link_stale = app.write_fragment = true;
  return static_cast<int>(c.columns.size());
}

void DrawServingCharts(AppState& app) {
  Refusal(app, ServingQuestion::kGpuSweep);
  ImGui::Separator();
  AppUpdateServingSim(app);
  if (const InferenceSimulation* run = app.serving.sim_run.get()) {  // under way: how far
    ImGui::ProgressBar(static_cast<float>(run->progress()), ImVec2(-1, 0),
                       TrFormat("serving.sim_progress", {FormatPercent(run->progress())}).c_str());
    return;
  }
  const InferenceSimResult& r = app.serving.sim;
  if (!r.ok) {  // said in the page's language (the CLI refuses with the same words)
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(kServingErrorColor, "%s", r.error_message.Text(CurrentLanguage()).c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  const std::string title = TrFormat("serving.sim_title", {FormatCount(static_cast<double>(r.requests)), std::to_string(kMcSeed),
                                                           std::to_string(r.prefill_replicas), std::to_string(r.decode_replicas)});
  Wrapped(title.c_str());
  if (r.capped_requests || r.capped_replicas)  // bounded work (core/explore/inference_sim.h)
    Wrapped(TrFormat("sim.capped", {std::to_string(r.requests), std::to_string(r.requests_asked),
                                    std::to_string(r.simulated_prefill_replicas), std::to_string(r.simulated_decode_replicas)}).c_str());
  Hint(Tr("serving.sim_intro"));
  SimTable(r);
  RecordRect(app, "serving_sim");
  const InferenceInputs& in = app.scenario.inference;
  if (in.slo.ttft_ms > 0 || in.slo.tpot_ms > 0)
    Wrapped(TrFormat("serving.within", {FormatPercent(r.share_within_target), FormatPercent(r.share_ttft_within),
                                        FormatPercent(r.share_tpot_within)}).c_str());
  else
    Wrapped(Tr("serving.no_target"));
  Wrapped(TrFormat("serving.sim_batch", {FormatNumber(r.mean_batch, 4), FormatNumber(r.output_tokens_per_second, 4)}).c_str());
}

// The search runs when the view is first shown and on the button (not on every edit: the editor stays quick while
// the view is open); a plan of an earlier version of the scenario stays, marked as such.
void DrawServingPlan(AppState& app) {
  Wrapped(Tr("serving.plan_intro"));
  if (!app.result.ok) return;
  if (app.serving.plan_for < 0) AppUpdateServingPlan(app);
  else AppStepServingPlan(app);
  if (ImGui::Button((std::string(Tr("serving.plan_search")) + "###serving_plan_search").c_str())) AppUpdateServingPlan(app);
  RecordRect(app, "serving_plan_search");
  if (const InferencePlanSearch* search = app.serving.plan_search.get()) {  // under way: progress, not the old plan
    ImGui::ProgressBar(static_cast<float>(search->evaluated()) / static_cast<float>(std::max<std::int64_t>(1, search->total())),
                       ImVec2(-1, 0), TrFormat("serving.plan_progress", {FormatCount(static_cast<double>(search->evaluated())),
                                                                        FormatCount(static_cast<double>(search->total()))}).c_str());
    return;
  }
  if (app.serving.plan_for != app.evaluations) {
    ImGui::SameLine();
    Hint(Tr("serving.plan_stale"));
  }
  const InferencePlan& p = app.serving.plan;
  if (!p.ok) {
    ImGui::TextColored(kServingErrorColor, "%s", p.error_message.Text(CurrentLanguage()).c_str());
    return;
  }
  const std::string summary = TrFormat("serving.plan_summary", {FormatCount(static_cast<double>(p.evaluated)),
                                                                std::to_string(p.gpu_types), FormatDuration(p.seconds / 3600),
                                                                FormatCount(static_cast<double>(p.fitting)),
                                                                FormatCount(static_cast<double>(p.meeting))});
  Wrapped(summary.c_str());
  RecordText(app, "serving_plan_summary", summary);
  if (p.best.empty()) {
    Wrapped(Tr("serving.plan_none"));
  } else {
    Wrapped(Tr("serving.plan_best"));
    PlanRows(app, "serving_plan_best", p.best, true);
    RecordRect(app, "serving_plan_best");
    Wrapped(Tr("serving.plan_families"));
  }
  PlanRows(app, "serving_plan_families", p.families, false);
}

void DrawServingFleet(AppState& app) { Refusal(app, ServingQuestion::kFleet); }

}  // namespace gpucost::app
