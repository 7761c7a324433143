// ui_sensitivity.cpp — the tornado: which inputs move the cost per completed job the most (core/explore/sensitivity.h,
// the document of `gpucost sensitivity`). Costs in the scenario's currency; bars scaled to the widest swing.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "documents/sensitivity_json.h"
#include "app.h"
#include "base/format.h"
#include "base/i18n.h"
#include "scenario/money_input.h"
#include "scenario/quantity.h"

namespace gpucost::app {
namespace {

// An amount already in the display currency (serving: per million tokens or per request, to the cent or below).
std::string Amount(const AppState& app, double v) {
  if (app.sensitivity.result.serving) return FormatSmallMoney(v, app.result.display_currency);
  return DisplaysKrw(app.result) ? FormatKrwShort(v) : FormatUsd(v);
}

void Bar(double low, double high, double base, double lo_all, double hi_all) {
  const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const double span = hi_all > lo_all ? hi_all - lo_all : 1;
  auto x = [&](double v) { return at.x + static_cast<float>((v - lo_all) / span) * width; };
  const float x0 = x(std::min(low, high)), x1 = std::max(x(std::max(low, high)), x0 + 1);
  draw->AddRectFilled(ImVec2(x0, at.y + 2), ImVec2(x1, at.y + height - 2), IM_COL32(90, 150, 230, 255));
  draw->AddLine(ImVec2(x(base), at.y), ImVec2(x(base), at.y + height), IM_COL32(220, 220, 220, 255));
  ImGui::Dummy(ImVec2(width, height));
}

}  // namespace

void AppUpdateSensitivity(AppState& app) {
  SensitivityState& st = app.sensitivity;
  if (st.for_evaluation == app.evaluations) return;
  st.for_evaluation = app.evaluations;
  st.document.clear();
  if (!app.result.ok) return;
  st.result = AnalyzeSensitivity(app.scenario);
  if (st.result.ok) st.document = SensitivityToJson(st.result);
}

void DrawSensitivity(AppState& app) {
  if (!app.result.ok) {
    Hint(Tr("sens.invalid"));
    return;
  }
  AppUpdateSensitivity(app);
  const SensitivityResult& r = app.sensitivity.result;
  if (!r.ok) return;
  if (r.serving)  // an inference scenario: the cost per million output tokens (issue 17)
    ImGui::TextWrapped("%s", TrFormat("serving.sensitivity_intro", {Amount(app, r.base_cost), Amount(app, r.base_per_request)}).c_str());
  else
    ImGui::TextWrapped("%s", TrFormat("sens.intro", {Amount(app, r.base_cost)}).c_str());
  double lo = r.base_cost, hi = r.base_cost;
  for (const SensitivityInput& in : r.inputs) lo = std::min({lo, in.low_cost, in.high_cost}), hi = std::max({hi, in.low_cost, in.high_cost});
  const bool narrow = AppNarrow(app);
  if (!BeginFigureTable(app, "tornado", 6, static_cast<int>(r.inputs.size()), ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg))
    return;
  for (const char* h : {"sens.col_input", "sens.col_low_high", "sens.col_cost_low", "sens.col_cost_high", "sens.col_swing"})
    ImGui::TableSetupColumn(Tr(h), ImGuiTableColumnFlags_WidthFixed);
  if (narrow) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 8);  // the bars
  else ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.0f);  // the bars take the rest
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    const SensitivityInput& in = r.inputs[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    char label[128];  // the editor's name for the input, its path on hover (on a touch screen, under the table on a tap)
    if (const FieldSpec* f = FindField(in.path)) FieldLabel(*f, label, sizeof label);
    else std::snprintf(label, sizeof label, "%s", in.path);
    ImGui::TextUnformatted(label);
    RecordRect(app, "sens_input", static_cast<int>(i));
    if (app.touch && ImGui::IsItemClicked()) app.sensitivity.picked = app.sensitivity.picked == static_cast<int>(i) ? -1 : static_cast<int>(i);
    else if (!app.touch && ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", in.path, Tr(in.bound_key));
    ImGui::TableNextColumn();
    const std::string bounds = SensitivityBoundText(app.scenario, in, in.low_value) + " / " + SensitivityBoundText(app.scenario, in, in.high_value) + (in.clipped ? "*" : "");
    ImGui::TextUnformatted(bounds.c_str());
    if (i == 0) RecordText(app, "sens_bounds", bounds);
    if (const FieldSpec* f = FindField(in.path); f && FieldMoneyUnit(*f) != MoneyUnit::kNone) RecordText(app, "sens_money_bounds", bounds);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Amount(app, in.low_cost).c_str());
    if (r.serving && ImGui::IsItemHovered())  // serving: the cost per request beside the cost per token
      ImGui::SetTooltip("%s", TrFormat("inference.per_request", {Amount(app, in.low_per_request)}).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Amount(app, in.high_cost).c_str());
    if (r.serving && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", TrFormat("inference.per_request", {Amount(app, in.high_per_request)}).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Amount(app, in.swing).c_str());
    ImGui::TableNextColumn();
    Bar(in.low_cost, in.high_cost, r.base_cost, lo, hi);
  }
  ImGui::EndTable();
  RecordRect(app, "tornado");
  ImGui::PushTextWrapPos(0);
  if (const int picked = app.sensitivity.picked; app.touch && picked >= 0 && picked < static_cast<int>(r.inputs.size())) {
    ImGui::TextDisabled("%s: %s", r.inputs[static_cast<std::size_t>(picked)].path, Tr(r.inputs[static_cast<std::size_t>(picked)].bound_key));
    RecordRect(app, "sens_source");
  }
  const char* note = Tr(app.touch ? "sens.note_touch" : "sens.note");  // no hover on a touch screen
  Hint(note);
  RecordText(app, "sens_note", note);
  ImGui::PopTextWrapPos();
}

}  // namespace gpucost::app
