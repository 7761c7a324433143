// ui_compare.cpp — the comparison: pinned scenarios as columns, headline figures as rows, the cheapest and
// the fastest highlighted, ratios to the first column, CSV export (raw numbers in the model's units).
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "app.h"
#include "compare.h"
#include "format.h"
#include "link.h"
#include "platform.h"

namespace gpucost::app {
namespace {

struct Metric {
  const char* label;
  const char* csv_unit;
  double (*value)(const Pinned&);
  std::string (*format)(const Pinned&, double);
  int highlight;  // 0 none, 1 cheapest, 2 fastest
};

std::string Money(const Pinned& p, double usd) { return FormatDisplayMoney(p.result, usd); }
std::string Hours(const Pinned&, double h) { return FormatDuration(h); }
std::string Percent(const Pinned&, double f) { return FormatPercent(f); }
std::string Count(const Pinned&, double v) { return FormatCount(v); }

const Metric kMetrics[] = {
    {"Cost per completed job", "USD", [](const Pinned& p) { return p.result.expected_usd; }, Money, 1},
    {"Expected time", "hours", [](const Pinned& p) { return p.result.expected_hours; }, Hours, 2},
    {"Goodput", "fraction", [](const Pinned& p) { return p.result.goodput; }, Percent, 0},
    {"Cost per billion tokens", "USD", [](const Pinned& p) { return p.result.usd_per_billion_tokens; }, Money, 0},
    {"Normal run cost (nothing fails)", "USD", [](const Pinned& p) { return p.result.normal_run_usd; }, Money, 0},
    {"Normal run time", "hours", [](const Pinned& p) { return p.result.normal_run_hours; }, Hours, 0},
    {"Effective price per GPU-hour", "USD", [](const Pinned& p) { return p.result.usd_per_gpu_hour; }, Money, 0},
    {"Billed GPU-hours", "GPU-hours", [](const Pinned& p) { return p.result.billed_gpu_hours; }, Count, 0},
    {"GPUs", "GPUs", [](const Pinned& p) { return static_cast<double>(p.scenario.cluster.gpus); }, Count, 0},
    {"MFU", "fraction", [](const Pinned& p) { return p.result.mfu; }, Percent, 0},
    {"Expected interruptions", "count", [](const Pinned& p) { return p.result.expected_interruptions; }, Count, 0},
};

// The rows' labels on the page (i18n keys, in kMetrics order); the CSV keeps kMetrics' English labels as keys.
const char* const kMetricKeys[] = {"eval.cost_per_job", "eval.expected_time", "eval.goodput", "eval.cost_per_billion_tokens",
                                   "compare.normal_cost", "compare.normal_time", "compare.effective_price",
                                   "eval.gpu_hours_billed", "compare.gpus", "eval.mfu", "eval.interruptions"};
static_assert(sizeof kMetricKeys / sizeof kMetricKeys[0] == sizeof kMetrics / sizeof kMetrics[0], "one key per metric");

// Index of the pinned scenario with the lowest value of metric m, or -1.
int Best(const std::vector<Pinned>& pinned, const Metric& m) {
  int best = -1;
  for (std::size_t i = 0; i < pinned.size(); ++i)
    if (pinned[i].result.ok && (best < 0 || m.value(pinned[i]) < m.value(pinned[static_cast<std::size_t>(best)])))
      best = static_cast<int>(i);
  return best;
}

void Toolbar(AppState& app) {
  ImGui::BeginDisabled(!app.result.ok || app.pinned.size() >= kMaxPinned);
  if (ImGui::Button((std::string(Tr("compare.pin")) + "###pin").c_str())) AppPin(app);
  RecordRect(app, "pin");
  ImGui::SameLine();
  if (ImGui::Button((std::string(Tr("compare.pin_models")) + "###pin_models").c_str())) AppPinPricingModels(app);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("compare.pin_models_tip"));
  RecordRect(app, "pin_models");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(app.pinned.empty());
  if (ImGui::Button((std::string(Tr("compare.export_csv")) + "###export_csv").c_str())) {
    // With a UTF-8 byte order mark: Excel (Korean Windows above all) otherwise reads the file as the local code page.
    platform::DownloadFile("gpucost-comparison.csv", "\xEF\xBB\xBF" + CompareCsv(app), "text/csv;charset=utf-8");
    app.notice = TrFormat("compare.exported", {"gpucost-comparison.csv"});
  }
  RecordRect(app, "export_csv");
  ImGui::SameLine();
  if (ImGui::Button((std::string(Tr("compare.clear")) + "###clear").c_str())) {
    app.pinned.clear();
    app.link_stale = app.write_fragment = true;
  }
  ImGui::EndDisabled();
  // On the same line when it fits, else on its own (never clipped at the window's edge).
  const std::string status_text = TrFormat("compare.status", {std::to_string(app.pinned.size()), std::to_string(kMaxPinned)});
  const char* status = status_text.c_str();
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(status).x) ImGui::NewLine();
  ImGui::TextDisabled("%s", status);
}

void ColumnHeader(AppState& app, std::size_t i) {
  ImGui::TableNextColumn();
  ImGui::PushID(static_cast<int>(i));
  ImGui::PushTextWrapPos(0);
  const std::string label = ScenarioLabel(app.pinned[i].scenario);
  ImGui::TextUnformatted(ShortLabel(label, 40).c_str());
  if (label.size() > 40 && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::SmallButton((std::string(Tr("compare.edit")) + "###edit").c_str())) {
    if (AppHasUnsavedEdits(app)) app.confirm_edit_column = static_cast<int>(i);  // ask first (ConfirmEdit)
    else AppEditPinned(app, i);
  }
  RecordRect(app, "edit_pinned", static_cast<int>(i));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("compare.edit_tip"));
  ImGui::SameLine();
  if (ImGui::SmallButton((std::string(Tr("compare.remove")) + "###remove").c_str())) AppUnpin(app, i);
  RecordRect(app, "unpin", static_cast<int>(i));
  ImGui::PopID();
}

// "Edit" on a column while the editor holds unpinned edits: replace them, pin them first, or cancel.
void ConfirmEdit(AppState& app) {
  if (app.confirm_edit_column < 0) return;
  if (static_cast<std::size_t>(app.confirm_edit_column) >= app.pinned.size()) {
    app.confirm_edit_column = -1;
    return;
  }
  const std::string title = std::string(Tr("compare.replace_title")) + "###replace_edited";
  ImGui::OpenPopup(title.c_str());
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const std::size_t column = static_cast<std::size_t>(app.confirm_edit_column);
  ImGui::TextUnformatted(TrFormat("compare.editor_holds", {ScenarioLabel(app.scenario)}).c_str());
  ImGui::TextUnformatted(TrFormat("compare.load_into", {ScenarioLabel(app.pinned[column].scenario)}).c_str());
  const bool can_pin = app.pinned.size() < kMaxPinned && app.result.ok;
  ImGui::BeginDisabled(!can_pin);
  if (ImGui::Button((std::string(Tr("compare.pin_then_load")) + "###pin_then_load").c_str())) {
    AppPin(app);
    AppEditPinned(app, column);
    app.confirm_edit_column = -1;
  }
  ImGui::EndDisabled();
  RecordRect(app, "confirm_pin_then_edit");
  ImGui::SameLine();
  if (ImGui::Button((std::string(Tr("compare.replace_mine")) + "###replace_mine").c_str())) {
    AppEditPinned(app, column);
    app.confirm_edit_column = -1;
  }
  RecordRect(app, "confirm_replace");
  ImGui::SameLine();
  if (ImGui::Button((std::string(Tr("compare.cancel")) + "###cancel").c_str())) app.confirm_edit_column = -1;
  RecordRect(app, "confirm_cancel");
  if (app.confirm_edit_column < 0) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void MetricRow(const AppState& app, const Metric& m, const char* label) {
  const int best = m.highlight ? Best(app.pinned, m) : -1;
  const ImU32 best_color = m.highlight == 1 ? IM_COL32(40, 110, 60, 160) : IM_COL32(40, 80, 130, 160);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(label);
  const double first = app.pinned.front().result.ok ? m.value(app.pinned.front()) : NAN;
  for (std::size_t i = 0; i < app.pinned.size(); ++i) {
    ImGui::TableNextColumn();
    const Pinned& p = app.pinned[i];
    if (!p.result.ok) {
      ImGui::TextDisabled("%s", Tr("compare.invalid"));
      continue;
    }
    if (static_cast<int>(i) == best) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, best_color);
    const double v = m.value(p);
    ImGui::TextUnformatted(m.format(p, v).c_str());
    if (i > 0 && first > 0 && std::isfinite(v)) {
      ImGui::SameLine();
      ImGui::TextDisabled("x%.3g", v / first);
    }
  }
}

}  // namespace

std::string CompareCsv(const AppState& app) {
  std::string csv = "metric,unit";
  for (const Pinned& p : app.pinned) {
    std::string label = ScenarioLabel(p.scenario), quoted = "\"";
    for (char c : label) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    csv += "," + quoted + "\"";
  }
  csv += "\n";
  // Money in the pinned scenarios' currency when they share one, else USD (as gpucost compare).
  std::vector<CompareColumn> cols;
  for (const Pinned& p : app.pinned) cols.push_back({"", "", p.scenario, p.result});
  const Comparison c = CompareScenarios(std::move(cols));
  for (const Metric& m : kMetrics) {
    const bool money = m.format == Money;
    csv += std::string(m.label) + "," + (money ? c.currency : m.csv_unit);
    for (std::size_t i = 0; i < app.pinned.size(); ++i) {
      const Pinned& p = app.pinned[i];
      char cell[40] = "";
      if (p.result.ok) std::snprintf(cell, sizeof cell, "%.10g", money ? c.Money(i, m.value(p)) : m.value(p));
      csv += std::string(",") + cell;
    }
    csv += "\n";
  }
  return csv + ProviderSheetCsv(app);  // the provider sheet travels with the comparison
}

// The same job under the four pricing models (the document of `gpucost pricing`): a commitment pays its whole
// term unless other work uses it, so the totals here are what eval gives under each model.
void PricingModels(AppState& app) {
  AppUpdatePricing(app);
  const PricingComparison& c = app.pricing.comparison;
  if (!app.result.ok || !c.ok) return;
  if (!ImGui::CollapsingHeader((std::string(Tr("compare.pricing_title")) + "###pricing_models").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (!BeginFigureTable(app, "pricing_models", 6, kModelCount, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  for (const char* h : {"compare.col_model", "compare.col_price", "compare.col_job", "compare.col_term_tail", "compare.col_total",
                        "compare.col_vs_on_demand"})
    ImGui::TableSetupColumn(Tr(h));
  ImGui::TableHeadersRow();
  const char* const names[] = {"pricing.on-demand", "pricing.spot", "pricing.reserved", "pricing.owned"};
  for (int i = 0; i < kModelCount; ++i) {
    const ModelCost& m = c.models[i];
    const Result& r = m.result;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s%s", Tr(names[i]), i == c.cheapest ? Tr("compare.cheapest") : "");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", LocalizeMessage(m.risk).c_str());
    ImGui::TableNextColumn(); ImGui::TextUnformatted(FormatDisplayMoney(r, m.usd_per_gpu_hour).c_str());
    ImGui::TableNextColumn(); ImGui::TextUnformatted(FormatDisplayMoney(r, m.job_usd).c_str());
    ImGui::TableNextColumn(); ImGui::TextUnformatted(m.term_tail_usd > 0 ? FormatDisplayMoney(r, m.term_tail_usd).c_str() : "-");
    ImGui::TableNextColumn(); ImGui::TextUnformatted(FormatDisplayMoney(r, m.total_usd).c_str());
    ImGui::TableNextColumn(); ImGui::TextUnformatted(FormatPercent(m.ratio_to_on_demand).c_str());
  }
  ImGui::EndTable();
  RecordRect(app, "pricing_models");
}

void DrawCompare(AppState& app) {
  PricingModels(app);
  Toolbar(app);
  if (app.pinned.empty()) {
    ImGui::Spacing();
    ImGui::TextWrapped("%s", Tr("compare.empty_hint"));
    return;
  }
  const int columns = 1 + static_cast<int>(app.pinned.size());
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  // A height for its rows (a scrolling table otherwise takes the whole view and hides the provider sheet below).
  const float height = ImGui::GetTextLineHeightWithSpacing() * (sizeof kMetrics / sizeof kMetrics[0] + 6);
  if (!ImGui::BeginTable("compare", columns, flags, ImVec2(0, height))) return;
  ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 17);
  for (int c = 1; c < columns; ++c) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 11);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", Tr("compare.legend"));
  for (std::size_t i = 0; i < app.pinned.size(); ++i) ColumnHeader(app, i);
  if (!app.pinned.empty())  // a column may have been removed above
    for (std::size_t m = 0; m < sizeof kMetrics / sizeof kMetrics[0]; ++m) MetricRow(app, kMetrics[m], Tr(kMetricKeys[m]));
  ImGui::EndTable();
  DrawProviderSheet(app);
  ConfirmEdit(app);
}

}  // namespace gpucost::app
