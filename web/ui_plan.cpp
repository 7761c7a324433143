// ui_plan.cpp — the layout search in the page (issue 10): run it in slices with a progress bar, show the
// best layouts with their step-time breakdowns and memory, adopt one into the scenario with one click.
#include <imgui.h>

#include <cstdio>

#include "app.h"
#include "format.h"
#include "plan.h"

namespace gpucost::app {
namespace {

constexpr std::int64_t kLayoutsPerFrame = 20000;  // ~2-3 ms per frame natively, a few in WebAssembly
constexpr int kTopPlans = 10;

const char* RecomputeName(Recompute r) {
  switch (r) {
    case Recompute::kNone: return "none";
    case Recompute::kSelective: return "selective";
    case Recompute::kFull: return "full";
  }
  return "";
}

}  // namespace

void AppStartPlanSearch(AppState& app) {
  if (!app.plan.search) app.plan.search = std::make_unique<PlanSearch>();
  app.plan.error = PlanBegin(app.scenario, app.plan.objective_cost ? PlanObjective::kCost : PlanObjective::kTime,
                             kTopPlans, app.plan.search.get());
  app.plan.running = app.plan.error.empty();
  app.plan.for_evaluation = app.evaluations;
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

void PlanTable(AppState& app) {
  const PlanSearch& s = *app.plan.search;
  if (!ImGui::BeginTable("plans", 13, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  for (const char* h : {"#", "TP", "PP", "DP", "micro", "interleave", "recompute", "SP", "ZeRO", "step s",
                        "MFU / HFU", "memory GB", "job cost"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (int i = 0; i < s.count; ++i) {
    const PlanEntry& e = s.best[i];
    const Layout& l = e.layout;
    ImGui::TableNextRow();
    ImGui::PushID(i);
    ImGui::TableNextColumn();
    if (ImGui::SmallButton("Adopt")) {
      const double given_mfu = app.scenario.cluster.mfu;
      const bool cleared = AdoptLayout(l, &app.scenario);
      AppScenarioEdited(app);
      char note[160];
      std::snprintf(note, sizeof note, "Adopted layout #%d: the job now runs at its predicted step (MFU %s)%s", i + 1,
                    FormatPercent(e.step.mfu).c_str(), cleared ? "; the given cluster.mfu was cleared" : "");
      app.notice = note;
      if (cleared) app.notice += " (was " + FormatPercent(given_mfu) + ")";
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Apply this layout to the scenario (parallel.*); the job then runs at this layout's "
                        "predicted step time (a given cluster.mfu is cleared)");
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.tensor));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.pipeline));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.data));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.micro_batch));
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.interleave));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(RecomputeName(l.recompute));
    ImGui::TableNextColumn(); ImGui::TextUnformatted(l.sequence_parallel ? "yes" : "no");
    ImGui::TableNextColumn(); ImGui::Text("%lld", static_cast<long long>(l.zero_stage));
    ImGui::TableNextColumn(); ImGui::Text("%.3f", e.step.seconds);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("compute %.3f s, memory-bound %.3f s, recompute %.3f s, exposed comm %.3f s "
                        "(TP %.3f, PP %.3f, DP %.3f), bubble %.3f s, optimizer %.3f s",
                        e.step.compute_seconds, e.step.memory_bound_seconds, e.step.recompute_seconds,
                        e.step.exposed_comm_seconds, e.step.tp_comm_seconds, e.step.pp_comm_seconds,
                        e.step.dp_comm_seconds, e.step.bubble_seconds, e.step.optimizer_seconds);
    ImGui::TableNextColumn();
    ImGui::Text("%s / %s%s", FormatPercent(e.step.mfu).c_str(), FormatPercent(e.step.hfu).c_str(),
                e.step.beyond_evidence ? " (!)" : "");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Model band MFU %s - %s (the step-time model's error on published runs).%s",
                        FormatPercent(e.step.mfu_low).c_str(), FormatPercent(e.step.mfu_high).c_str(),
                        e.step.beyond_evidence
                            ? (" (!) Above the best MFU measured on this GPU class (" +
                               FormatPercent(e.step.best_measured_mfu) + "): ranked as if it ran at that MFU.").c_str()
                            : "");
    ImGui::TableNextColumn(); ImGui::Text("%.1f / %.0f", e.memory.total_bytes() / 1e9, e.memory.device_bytes / 1e9);
    ImGui::TableNextColumn(); ImGui::TextUnformatted(FormatDisplayMoney(app.result, e.job_usd).c_str());
    ImGui::PopID();
  }
  ImGui::EndTable();
}

}  // namespace

void DrawPlan(AppState& app) {
  if (Kind(app.scenario) == WorkloadKind::kInference) return DrawServingPlan(app);  // issue 17
  StepSearch(app);
  ImGui::TextWrapped("Search tensor, pipeline and data parallel degrees, micro-batch, interleaving, recompute, "
                     "sequence parallelism and ZeRO stage for cluster.gpus and parallel.global_batch; layouts "
                     "that do not fit in memory are dropped. MFU counts model FLOPs (6ND + attention); HFU adds "
                     "recompute.");
  ImGui::Checkbox("Rank by cost per completed job", &app.plan.objective_cost);
  ImGui::SameLine();
  if (app.plan.running) {
    if (ImGui::Button("Cancel")) app.plan.running = false;
  } else if (ImGui::Button("Search layouts")) {
    AppStartPlanSearch(app);
  }
  if (!app.plan.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", app.plan.error.c_str());
    return;
  }
  if (!app.plan.search) return;
  const PlanSearch& s = *app.plan.search;
  char progress[96];
  std::snprintf(progress, sizeof progress, "%lld layouts evaluated, %lld fit", static_cast<long long>(s.evaluated),
                static_cast<long long>(s.fitting));
  ImGui::ProgressBar(s.done ? 1.0f : 0.5f, ImVec2(-1, 0), progress);
  if (app.plan.for_evaluation != app.evaluations && !app.plan.running)
    ImGui::TextDisabled("The scenario changed since this search: search again to update.");
  if (s.done && s.count == 0) ImGui::TextUnformatted("No layout fits in memory at this GPU count and batch.");
  if (s.count > 0) PlanTable(app);
}

}  // namespace gpucost::app
