// ui_fleet.cpp — the fleet (commitment) planner over months (core/explore/fleet.h, the document of `gpucost fleet`): a
// demand profile around the edited scenario (its GPUs as the baseline, an optional burst), its on-demand,
// spot, commitment and ownership prices; the cost-minimising commitments and the hybrid plan.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "documents/fleet_json.h"
#include "app.h"
#include "base/format.h"
#include "documents/pricing_json.h"
#include "scenario/money_input.h"
#include "scenario/quantity.h"

namespace gpucost::app {
namespace {

// The view's inputs, read as the editor reads its fields (quantity.h: "2k", "1,000", "1.5M"; money_input.h: money
// in the scenario's currency, "₩700,000" or "70만 원" in a won scenario, converted at its dated rate). They are not
// scenario fields (no ref): a spec gives each its kind and the range the fleet document allows.
constexpr FieldSpec FleetSpec(const char* id, FieldKind kind, double lo, double hi, const char* unit) {
  return {id, kind, nullptr, 0, nullptr, lo, hi, false, false, nullptr, unit, nullptr};  // ids and unit codes, no text
}
const FieldSpec kMonths = FleetSpec("months", FieldKind::kInteger, 1, kMaxFleetMonths, "months");
const FieldSpec kBaseline = FleetSpec("baseline", FieldKind::kNumber, 0, kMaxFleetGpus, "GPUs");
const FieldSpec kBurst = FleetSpec("burst", FieldKind::kNumber, 0, kMaxFleetGpus, "GPUs");
const FieldSpec kFromMonth = FleetSpec("from_month", FieldKind::kInteger, 1, kMaxFleetMonths, "month");
const FieldSpec kForMonths = FleetSpec("for_months", FieldKind::kInteger, 0, kMaxFleetMonths, "months");
const FieldSpec kTransferOut = FleetSpec("transfer_out", FieldKind::kNumber, 0, 1e6, "GB/GPU-hour");
const FieldSpec kTransferIn = FleetSpec("transfer_in", FieldKind::kNumber, 0, 1e12, "GB");
const FieldSpec kIngress = FleetSpec("ingress", FieldKind::kNumber, 0, 1e3, "USD/GB");  // the document's range
const FieldSpec kMigration = FleetSpec("migration", FieldKind::kNumber, 0, 1e12, "USD");

bool IsMoney(const FieldSpec& f) { return FieldMoneyUnit(f) != MoneyUnit::kNone; }

// The value as the input shows it: money in the scenario's currency, the rest as the editor writes a quantity.
std::string Shown(const AppState& app, const FieldSpec& f, double v) {
  return IsMoney(f) ? FormatShownMoney(app.scenario, f, v) : FormatFieldValue(f, v);
}

// The input's name, a money input's with its unit in the scenario's currency ("migration per move (KRW)").
MessageParam InputName(const AppState& app, const char* key, const FieldSpec& f) {
  if (!IsMoney(f)) return MessageParam::Key(key);
  return MessageParam::Key(key, {ShownUnit(app.scenario, f)});
}

// One input: applied as typed, or refused with a message naming it while the value it held when editing began is
// kept (never a silent change; keystrokes apply as they make a value, as in the editor).
template <typename T>
void ProfileInput(AppState& app, const char* key, const FieldSpec& f, T* value, float width) {
  FleetState& st = app.fleet;
  const MessageParam name = InputName(app, key, f);
  char text[64];
  std::snprintf(text, sizeof text, "%s", Shown(app, f, static_cast<double>(*value)).c_str());
  ImGui::SetNextItemWidth(width);
  const std::string label = RenderParam(CurrentLanguage(), name) + "###" + f.path;
  const bool changed = ImGui::InputText(label.c_str(), text, sizeof text, ImGuiInputTextFlags_AutoSelectAll);
  if (ImGui::IsItemActivated()) st.value_at_start = static_cast<double>(*value);
  const ImVec2 at = ImGui::GetItemRectMin();  // the input's frame, without its label on the right
  RecordRectAt(app, f.path, -1, at.x, at.y, at.x + width, ImGui::GetItemRectMax().y);
  RecordText(app, f.path, text);  // what the input shows (tests)
  if (!changed) return;
  double v = 0;
  Message why;
  std::string conversion;
  if (IsMoney(f)) {
    const MoneyTyped money = ParseMoneyField(app.scenario, f, text);
    why = money.error_message;
    v = money.stored;
    conversion = money.label;
  } else {
    why = FieldInputProblem(f, text, &v);
  }
  if (why.empty()) {
    if (static_cast<double>(*value) != v) st.stale = true;
    *value = static_cast<T>(v);
    st.input_error.clear();
    st.input_error_message = {};
    if (!conversion.empty()) app.notice = conversion;  // "₩700,000 = $486.45 at ₩1,439/$ (date)", as the editor says
    return;
  }
  if (static_cast<double>(*value) != st.value_at_start) {  // a prefix applied on the way ("2" of "2x") is taken back
    *value = static_cast<T>(st.value_at_start);
    st.stale = true;
  }
  st.input_error_message = {"fleet.refused", {name, MessageParam::From(why), Shown(app, f, st.value_at_start)}};
  st.input_error = st.input_error_message.Text(Lang::kEn);
}

void PlanTable(const AppState& app, const FleetResult& r) {
  // Columns as wide as their figures; a narrow screen scrolls the table sideways instead of cutting them.
  int rows = 1;  // the total
  for (int i = 0; i < kFleetPartCount; ++i)
    rows += r.all_on_demand.usd[i] != 0 || r.cloud.usd[i] != 0 || r.hybrid.usd[i] != 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float height = (ImGui::GetTextLineHeight() + style.CellPadding.y * 2) * (rows + 1) + style.ScrollbarSize;
  if (!ImGui::BeginTable("fleet_parts", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                               ImGuiTableFlags_ScrollX, ImVec2(0, SidewaysTableHeight("fleet_parts", height))))
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

// A tree node whose label wraps at the panel's edge: ImGui's is one line ("Priced otherwise than the billing engine
// prices a job" ran off a phone's screen). The arrow is the node (`id` draws no label); a click on the label beside
// it opens or closes it as well.
bool WrappedTreeNode(const char* id, const char* label) {
  const ImGuiID key = ImGui::GetID(id);
  const bool open = ImGui::TreeNode(id);
  ImGui::SameLine();
  ImGui::TextWrapped("%s", label);
  if (ImGui::IsItemClicked()) ImGui::GetStateStorage()->SetInt(key, open ? 0 : 1);
  return open;
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
                                               st.migration_usd_per_move, st.ingress_usd_per_gb});
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
  ProfileInput(app, "fleet.months", kMonths, &st.months, w);
  same_line();
  ProfileInput(app, "fleet.baseline", kBaseline, &st.baseline_gpus, w);
  ProfileInput(app, "fleet.burst", kBurst, &st.burst_gpus, w);
  same_line();
  ProfileInput(app, "fleet.from_month", kFromMonth, &st.burst_start_month, w);
  same_line();
  ProfileInput(app, "fleet.for_months", kForMonths, &st.burst_months, w);
  // Issue 50: the hybrid's moves between its owned site and the cloud.
  ProfileInput(app, "fleet.transfer_out", kTransferOut, &st.transfer_gb_out_per_gpu_hour, w);
  same_line();
  ProfileInput(app, "fleet.transfer_in", kTransferIn, &st.transfer_gb_in_per_move, w);
  ProfileInput(app, "fleet.ingress", kIngress, &st.ingress_usd_per_gb, w);
  same_line();
  ProfileInput(app, "fleet.migration", kMigration, &st.migration_usd_per_move, w);
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
  // What the transfer inputs are priced at: the egress the fleet document carries (the scenario's field), the ingress above.
  if (const FieldSpec* egress = FindField("storage.usd_per_gb_egress")) {
    const auto money = [&app](const FieldSpec& f, double v) { return FormatShownMoney(app.scenario, f, v) + " " + ShownUnit(app.scenario, f); };
    const std::string prices = TrFormat("fleet.transfer_prices", {money(*egress, st.inputs.egress_usd_per_gb), money(kIngress, st.inputs.ingress_usd_per_gb)});
    ImGui::TextDisabled("%s", prices.c_str());
    RecordText(app, "fleet_transfer_prices", prices);
  }
  // A hybrid that owns nothing (core's plan: owning is not cheaper) makes the transfer inputs change nothing: said.
  bool transfer_not_worth = false;
  for (int i = 0; i < r.notes.count; ++i) transfer_not_worth = transfer_not_worth || !std::strcmp(r.notes.code[i], "hybrid_transfer_not_worth");
  const bool owns_nothing = st.inputs.plan_hybrid && r.hybrid.owned_gpus == 0 && !transfer_not_worth;
  if (owns_nothing)
    ImGui::TextUnformatted(TrFormat("fleet.hybrid_owns_nothing", {FormatDisplayMoney(app.result, r.owned_usd_per_held_gpu_hour)}).c_str());
  RecordText(app, "fleet_owns_nothing", owns_nothing ? "1" : "");
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
  RecordText(app, "fleet_differences", r.differences.count ? Tr("fleet.differences") : "");
  const bool differences = r.differences.count && WrappedTreeNode("##fleet_differences", Tr("fleet.differences"));
  if (r.differences.count) RecordRect(app, "fleet_differences");  // its label
  if (differences) {
    for (int i = 0; i < r.differences.count; ++i) ImGui::TextWrapped("- %s", r.differences.Text(i, CurrentLanguage()).c_str());
    ImGui::TreePop();
  }
  ImGui::PopTextWrapPos();
}

}  // namespace gpucost::app
