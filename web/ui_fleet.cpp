// ui_fleet.cpp — the fleet (commitment) planner over months (core/explore/fleet.h, the document of `gpucost fleet`): a
// demand profile around the edited scenario (its GPUs as the baseline, an optional burst), its on-demand,
// spot, commitment and ownership prices; the cost-minimising commitments and the hybrid plan.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <type_traits>

#include "documents/fleet_json.h"
#include "app.h"
#include "base/format.h"
#include "documents/pricing_json.h"

namespace gpucost::app {
namespace {

// One input of the demand profile: applied as typed, or refused with a message naming it and its range while
// the last good value is kept (never a silent clamp).
template <typename T>
void ProfileInput(AppState& app, const char* key, const char* id, T* value, T lo, T hi, float width,
                  const char* format = "%.0f") {
  FleetState& st = app.fleet;
  ImGui::SetNextItemWidth(width);
  T typed = *value;
  const std::string label = std::string(Tr(key)) + "###" + id;
  bool changed = false;
  if constexpr (std::is_same_v<T, int>) changed = ImGui::InputInt(label.c_str(), &typed, 0, 0);
  else changed = ImGui::InputDouble(label.c_str(), &typed, 0, 0, format);
  const ImVec2 at = ImGui::GetItemRectMin();  // the input's frame, without its label on the right
  RecordRectAt(app, id, -1, at.x, at.y, at.x + width, ImGui::GetItemRectMax().y);
  if (!changed) return;
  if (typed >= lo && typed <= hi) {
    *value = typed;
    st.stale = true;
    st.input_error.clear();
    return;
  }
  const auto count = [](T v) { return FormatCount(static_cast<double>(v)); };
  st.input_error_message = {"fleet.out_of_range", {MessageParam::Key(key), count(typed), count(lo), count(hi), count(*value)}};
  st.input_error = st.input_error_message.Text(Lang::kEn);
}

void PlanTable(const AppState& app, const FleetResult& r) {
  // Columns as wide as their figures; a narrow screen scrolls the table sideways instead of cutting them.
  int rows = 1;  // the total
  for (int i = 0; i < kFleetPartCount; ++i)
    rows += r.all_on_demand.usd[i] != 0 || r.cloud.usd[i] != 0 || r.hybrid.usd[i] != 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float height = (ImGui::GetTextLineHeight() + style.CellPadding.y * 2) * (rows + 1) + style.ScrollbarSize + 4;
  if (!ImGui::BeginTable("fleet_parts", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                               ImGuiTableFlags_ScrollX, ImVec2(0, height)))
    return;
  for (const char* h : {"fleet.col_part", "fleet.col_all_on_demand", "fleet.col_cloud", "fleet.col_hybrid"}) ImGui::TableSetupColumn(Tr(h));
  ImGui::TableHeadersRow();
  const FleetPlan* plans[] = {&r.all_on_demand, &r.cloud, &r.hybrid};
  for (int i = 0; i <= kFleetPartCount; ++i) {
    if (i < kFleetPartCount && r.all_on_demand.usd[i] == 0 && r.cloud.usd[i] == 0 && r.hybrid.usd[i] == 0) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(i < kFleetPartCount ? FleetPartLabel(i) : Tr("fleet.total"));
    for (const FleetPlan* p : plans) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDisplayMoney(app.result, i < kFleetPartCount ? p->usd[i] : p->total_usd).c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace

void AppUpdateFleet(AppState& app) {
  FleetState& st = app.fleet;
  if (!st.stale && st.for_evaluation == app.evaluations) return;
  st.stale = false;
  st.for_evaluation = app.evaluations;
  st.document.clear();
  if (!app.result.ok) return;
  st.inputs = FleetFromScenario(app.scenario, {st.months, st.baseline_gpus, st.burst_gpus, st.burst_start_month, st.burst_months,
                                               st.transfer_gb_out_per_gpu_hour, st.transfer_gb_in_per_move,
                                               st.migration_usd_per_move});
  st.result = PlanFleet(st.inputs);
  if (st.result.ok) st.document = FleetToJson(st.inputs, st.result);
}

void DrawFleet(AppState& app) {
  if (!app.result.ok) {
    Hint(Tr("fleet.invalid"));
    return;
  }
  if (Kind(app.scenario) == WorkloadKind::kInference) return DrawServingFleet(app);  // issue 17
  FleetState& st = app.fleet;
  ImGui::TextWrapped("%s", Tr("fleet.intro"));
  const float w = ImGui::GetFontSize() * 7;
  const auto same_line = [&app] { if (!AppNarrow(app)) ImGui::SameLine(); };  // a phone: one input per line
  ProfileInput(app, "fleet.months", "months", &st.months, 1, kMaxFleetMonths, w);
  same_line();
  ProfileInput(app, "fleet.baseline", "baseline", &st.baseline_gpus, 0.0, kMaxFleetGpus, w);
  ProfileInput(app, "fleet.burst", "burst", &st.burst_gpus, 0.0, kMaxFleetGpus, w);
  same_line();
  ProfileInput(app, "fleet.from_month", "from_month", &st.burst_start_month, 1, kMaxFleetMonths, w);
  same_line();
  ProfileInput(app, "fleet.for_months", "for_months", &st.burst_months, 0, kMaxFleetMonths, w);
  // Issue 50: the hybrid's moves between its owned site and the cloud (egress at storage.usd_per_gb_egress).
  ProfileInput(app, "fleet.transfer_out", "transfer_out", &st.transfer_gb_out_per_gpu_hour, 0.0, 1e6, w, "%.3g");
  same_line();
  ProfileInput(app, "fleet.transfer_in", "transfer_in", &st.transfer_gb_in_per_move, 0.0, 1e12, w, "%.6g");
  same_line();
  ProfileInput(app, "fleet.migration", "migration", &st.migration_usd_per_move, 0.0, 1e12, w, "%.6g");
  if (!st.input_error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", st.input_error_message.Text(CurrentLanguage()).c_str());
    ImGui::PopTextWrapPos();
  }
  RecordText(app, "fleet_input_error", st.input_error);  // "" once a value in range applied
  AppUpdateFleet(app);
  const FleetResult& r = st.result;
  if (!r.ok) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(TrFormat("fleet.demand", {FormatCount(r.demand_gpu_hours), FormatDisplayMoney(app.result, r.burst_usd_per_gpu_hour),
                                                   FormatPercent(r.spot_share_of_burst)}).c_str());
  ImGui::PopTextWrapPos();
  PlanTable(app, r);
  RecordRect(app, "fleet_table");
  if (r.all_on_demand.total_usd > 0)  // the shares are core's (the document's cloud_share_of_on_demand, ...)
    ImGui::TextUnformatted(TrFormat("fleet.ratio", {FormatPercent(r.cloud_share_of_on_demand), FormatPercent(r.hybrid_share_of_on_demand)}).c_str());
  for (int i = 0; i < st.inputs.commitment_count; ++i) {
    std::string levels;
    for (int k = 0; k < r.cloud.periods[i]; ++k) levels += (k ? ", " : "") + FormatCount(r.cloud.commit_gpus[i][k]);
    ImGui::TextUnformatted(TrFormat("fleet.commitment_levels", {RenderParam(CurrentLanguage(), CommitmentNameParam(st.inputs.commitments[i])),
                                                                levels.empty() ? Tr("fleet.none") : levels}).c_str());
  }
  ImGui::PushTextWrapPos(0);
  for (int i = 0; i < r.notes.count; ++i) ImGui::TextColored(ImVec4(1, 0.8f, 0.35f, 1), "- %s", r.notes.Text(i, CurrentLanguage()).c_str());
  if (r.differences.count && ImGui::TreeNode((std::string(Tr("cli.fleet.differences")) + "###fleet_differences").c_str())) {
    for (int i = 0; i < r.differences.count; ++i) ImGui::TextWrapped("- %s", r.differences.Text(i, CurrentLanguage()).c_str());
    ImGui::TreePop();
  }
  ImGui::PopTextWrapPos();
}

}  // namespace gpucost::app
