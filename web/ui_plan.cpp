// ui_plan.cpp — the layout search in the page (issue 10): run it in slices with a progress bar, show the
// best layouts with their step-time breakdowns and memory, adopt one into the scenario with one click.
#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/plan_json.h"

namespace gpucost::app {
namespace {

constexpr std::int64_t kLayoutsPerFrame = 20000;  // ~2-3 ms per frame natively, a few in WebAssembly
constexpr int kTopPlans = 10;


}  // namespace

void AppStartPlanSearch(AppState& app) {
  if (!app.plan.search) app.plan.search = std::make_unique<PlanSearch>();
  app.plan.error = PlanBegin(app.scenario, app.plan.objective_cost ? PlanObjective::kCost : PlanObjective::kTime,
                             kTopPlans, app.plan.search.get());
  app.plan.running = app.plan.error.empty();
  app.plan.for_evaluation = app.evaluations;
}

void AppAdoptPlan(AppState& app, int index) {
  if (!app.plan.search || index < 0 || index >= app.plan.search->count) return;
  const PlanEntry& e = app.plan.search->best[index];
  const double given_mfu = app.scenario.cluster.mfu;
  const std::int64_t given_batch = app.scenario.parallel.global_batch;
  const bool cleared = AdoptLayout(e.layout, &app.scenario);
  AppScenarioEdited(app);
  AppRefresh(app);
  // What Adopt changed is what the search chose (the layout, and the MFU it predicts): the table still stands for
  // this scenario, so it is not called stale (issue 30: "changed since the search" right after Adopt).
  if (app.plan.for_evaluation >= 0) app.plan.for_evaluation = app.evaluations;
  app.notice = TrFormat("plan.adopted", {std::to_string(index + 1), FormatPercent(e.step.mfu)});
  if (cleared) app.notice += TrFormat("plan.mfu_cleared", {FormatPercent(given_mfu)});
  app.notice += BatchSetNotice(given_batch, app.scenario.parallel.global_batch);
}

namespace {

// One slice of the search per frame; prices the kept plans when it completes.
void StepSearch(AppState& app) {
  if (!app.plan.running) return;
  app.busy = true;
  if (PlanStep(app.plan.search.get(), kLayoutsPerFrame)) {
    PlanPriceJobs(app.scenario, app.plan.search.get());
    app.plan.running = false;
  }
}

// A figure of the table, recorded for tests as cut when its column is narrower than it (a phone squeezed them to
// one-character slivers); one scrolled out of the table's view is not cut.
void FigureCell(AppState& app, const char* id, int row, const char* text) {
  const float room = ImGui::GetContentRegionAvail().x;
  ImGui::TextUnformatted(text);
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  RecordRectAt(app, id, row, a.x, a.y, b.x, b.y, b.x - a.x > room + 0.5f);
}

void PlanTable(AppState& app) {
  const PlanSearch& s = *app.plan.search;
  // Thirteen columns: where they do not fit (a phone squeezed step time, MFU, memory and cost to one-character
  // slivers) they keep their widths and the table scrolls sideways, Adopt and the rank kept on the left.
  if (!BeginFigureTable(app, "plans", 13, s.count, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupScrollFreeze(1, 0);
  for (const char* h : {"#", "TP", "PP", "DP", Tr("plan.col_micro"), Tr("plan.col_interleave"), Tr("plan.col_recompute"),
                        "SP", "ZeRO", Tr("plan.col_step"), "MFU / HFU", Tr("plan.col_memory"), Tr("plan.col_job_cost")})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (int i = 0; i < s.count; ++i) {
    const PlanEntry& e = s.best[i];
    const Layout& l = e.layout;
    ImGui::TableNextRow();
    ImGui::PushID(i);
    ImGui::TableNextColumn();
    if (ImGui::SmallButton((std::string(Tr("plan.adopt")) + "###adopt").c_str())) AppAdoptPlan(app, i);
    RecordRect(app, "plan_adopt", i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("plan.adopt_tip"));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.tensor));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.pipeline));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.data));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.micro_batch));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.interleave));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(RecomputeLabel(l.recompute));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(Tr(l.sequence_parallel ? "ui.yes" : "ui.no"));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.zero_stage));
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", e.step.seconds);
    ImGui::TableNextColumn(); FigureCell(app, "plan_step", i, seconds);
    if (ImGui::IsItemHovered()) {
      std::vector<std::string> s3;  // each part in seconds, 3 decimals
      for (double v : {e.step.compute_seconds, e.step.memory_bound_seconds, e.step.recompute_seconds, e.step.exposed_comm_seconds,
                       e.step.tp_comm_seconds, e.step.pp_comm_seconds, e.step.dp_comm_seconds, e.step.bubble_seconds,
                       e.step.optimizer_seconds}) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", v);
        s3.push_back(buf);
      }
      ImGui::SetTooltip("%s", TrFormat("plan.step_tip", {s3[0], s3[1], s3[2], s3[3], s3[4], s3[5], s3[6], s3[7], s3[8]}).c_str());
    }
    ImGui::TableNextColumn();
    ImGui::Text("%s / %s%s", FormatPercent(e.step.mfu).c_str(), FormatPercent(e.step.hfu).c_str(),
                e.step.beyond_evidence ? " (!)" : "");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s%s", TrFormat("plan.mfu_tip", {FormatPercent(e.step.mfu_low), FormatPercent(e.step.mfu_high)}).c_str(),
                        e.step.beyond_evidence ? TrFormat("plan.beyond_evidence", {FormatPercent(e.step.best_measured_mfu)}).c_str() : "");
    ImGui::TableNextColumn(); ImGui::Text("%.1f / %.0f", e.memory.total_bytes() / 1073741824.0, e.memory.device_bytes / 1073741824.0);  // GiB, as the datasheet
    ImGui::TableNextColumn(); FigureCell(app, "plan_cost", i, FormatDisplayMoney(app.result, e.job_usd).c_str());
    ImGui::PopID();
  }
  ImGui::EndTable();
}

}  // namespace

void DrawPlan(AppState& app) {
  if (Kind(app.scenario) == WorkloadKind::kInference) return DrawServingPlan(app);  // issue 17
  StepSearch(app);
  ImGui::TextWrapped("%s", Tr("plan.intro"));
  ImGui::Checkbox((std::string(Tr("plan.rank_by_cost")) + "###rank_by_cost").c_str(), &app.plan.objective_cost);
  ImGui::SameLine();
  if (app.plan.running) {
    if (ImGui::Button((std::string(Tr("plan.cancel")) + "###cancel").c_str())) app.plan.running = false;
  } else if (ImGui::Button((std::string(Tr("plan.search")) + "###search").c_str())) {
    AppStartPlanSearch(app);
  }
  RecordRect(app, "plan_search");
  if (!app.plan.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", app.plan.error.Text(CurrentLanguage()).c_str());
    return;
  }
  if (!app.plan.search) return;
  const PlanSearch& s = *app.plan.search;
  const std::string progress = TrFormat("plan.progress", {std::to_string(s.evaluated), std::to_string(s.fitting)});
  ImGui::ProgressBar(s.done ? 1.0f : 0.5f, ImVec2(-1, 0), progress.c_str());
  if (app.plan.for_evaluation != app.evaluations && !app.plan.running) Hint(Tr("plan.stale"));
  if (s.done && s.count == 0) ImGui::TextUnformatted(Tr("plan.none_fit"));
  if (s.count > 0) PlanTable(app);
}

}  // namespace gpucost::app
