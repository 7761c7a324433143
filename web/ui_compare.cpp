// ui_compare.cpp — the comparison: pinned scenarios as columns, headline figures as rows, the cheapest and
// the fastest highlighted, ratios to the first column, CSV export (raw numbers in the model's units).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "documents/pricing_json.h"
#include "app.h"
#include "documents/compare.h"
#include "documents/compare_csv.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/link.h"
#include "platform.h"
#include "base/text_safety.h"

namespace gpucost::app {
namespace {

bool AnyServing(const AppState& app) {
  for (const Pinned& p : app.pinned)
    if (p.result.inference.present) return true;
  return false;
}

// SameLine() when a button labelled `label` fits on the line, else a new line (a phone's toolbar wraps).
void SameLineIfFits(const std::string& label) {
  ImGui::SameLine();
  const float width = ImGui::CalcTextSize(label.c_str(), nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

void Toolbar(AppState& app) {
  ImGui::BeginDisabled(!app.result.ok || app.pinned.size() >= kMaxPinned);
  if (ImGui::Button((std::string(Tr("compare.pin")) + "###pin").c_str())) AppPin(app);
  RecordRect(app, "pin");
  const std::string pin_models = std::string(Tr("compare.pin_models")) + "###pin_models";
  SameLineIfFits(pin_models);
  if (ImGui::Button(pin_models.c_str())) AppPinPricingModels(app);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("compare.pin_models_tip"));
  RecordRect(app, "pin_models");
  ImGui::EndDisabled();
  if (Kind(app.scenario) == WorkloadKind::kInference) {  // colocated H100, colocated A100, the split (issue 17)
    const std::string options = std::string(Tr("serving.options")) + "###serving_options";
    SameLineIfFits(options);
    ImGui::BeginDisabled(!app.result.ok);  // replaces the pinned columns: never blocked by their number
    if (ImGui::Button(options.c_str())) {
      // Columns the user pinned (not an earlier set of serving options, which carry their coded labels) are asked
      // about before they are replaced (2026-12-07: two pinned columns vanished without a word).
      bool own = false;
      for (const Pinned& p : app.pinned) own = own || p.label.key.empty();
      if (own) app.confirm_serving_options = true;
      else AppPinServingOptions(app);
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {  // wrapped: a long sentence
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 32, ImGui::GetIO().DisplaySize.x * 0.8f));  // a phone too
      ImGui::TextUnformatted(Tr("serving.options_tip"));
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    RecordRect(app, "serving_options");
  }
  ImGui::BeginDisabled(app.pinned.empty());
  const std::string export_csv = std::string(Tr("compare.export_csv")) + "###export_csv";
  SameLineIfFits(export_csv);
  if (ImGui::Button(export_csv.c_str())) {
    // With a UTF-8 byte order mark: Excel (Korean Windows above all) otherwise reads the file as the local code page.
    platform::DownloadFile("gpucost-comparison.csv", CompareCsv(app), "text/csv;charset=utf-8");  // with its BOM
    app.notice = TrFormat("compare.exported", {"gpucost-comparison.csv"});
  }
  RecordRect(app, "export_csv");
  const std::string clear = std::string(Tr("compare.clear")) + "###clear";
  SameLineIfFits(clear);
  if (ImGui::Button(clear.c_str())) {
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

// A column's header wraps; a longer label (a serving option names two pools) is cut here, whole in a tooltip.
constexpr std::size_t kHeaderChars = 64;

void ColumnHeader(AppState& app, std::size_t i) {
  ImGui::TableNextColumn();
  ImGui::PushID(static_cast<int>(i));
  ImGui::PushTextWrapPos(0);
  const std::string label = PinnedLabel(app.pinned[i]);
  ImGui::TextUnformatted(ShortLabel(label, kHeaderChars).c_str());
  if (label.size() > kHeaderChars && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());
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
  ImGui::TextUnformatted(TrFormat("compare.editor_holds", {ScenarioDisplayName(app.scenario, CurrentLanguage())}).c_str());
  ImGui::TextUnformatted(TrFormat("compare.load_into", {PinnedLabel(app.pinned[column])}).c_str());
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

// "Compare serving options" while the user has pinned columns of their own: replace them, or cancel.
void ConfirmServingOptions(AppState& app) {
  if (!app.confirm_serving_options) return;
  const std::string title = std::string(Tr("serving.options_replace_title")) + "###replace_pins";
  ImGui::OpenPopup(title.c_str());
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const std::string asked = TrFormat("serving.options_replace", {std::to_string(app.pinned.size())});
  ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 30, ImGui::GetIO().DisplaySize.x * 0.8f));  // a phone too
  ImGui::TextUnformatted(asked.c_str());
  ImGui::PopTextWrapPos();
  RecordText(app, "confirm_serving_options", asked);
  if (ImGui::Button((std::string(Tr("serving.options_replace_yes")) + "###replace_pins_yes").c_str())) {
    AppPinServingOptions(app);
    app.confirm_serving_options = false;
  }
  RecordRect(app, "confirm_serving_options");
  ImGui::SameLine();
  if (ImGui::Button((std::string(Tr("compare.cancel")) + "###replace_pins_cancel").c_str())) app.confirm_serving_options = false;
  RecordRect(app, "cancel_serving_options");
  if (!app.confirm_serving_options) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

// A row of CompareTable: each cell as the core writes it (CompareCellOf, the CLI's table too), the marked cell, the
// ratio to the first column muted beside it (no arithmetic here).
void CompareTableRow(const AppState& app, const Comparison& c, const CompareRow& row) {
  const ImU32 mark_color = row.mark == CompareMark::kCheapest ? IM_COL32(40, 110, 60, 160) : IM_COL32(40, 80, 130, 160);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(Tr(row.key));
  for (std::size_t i = 0; i < app.pinned.size() && i < row.values.size(); ++i) {
    ImGui::TableNextColumn();
    const CompareCell cell = CompareCellOf(c, row, i);
    if (cell.muted) {
      ImGui::TextDisabled("%s", cell.text.c_str());
      continue;
    }
    if (row.mark != CompareMark::kNone && static_cast<int>(i) == row.marked)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, mark_color);
    ImGui::TextUnformatted(cell.text.c_str());
    if (!cell.ratio.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", cell.ratio.c_str());
    }
  }
}

}  // namespace

// The comparison as one CSV (core/documents/compare_csv.h): the same bytes as `gpucost compare --format csv`.
std::string CompareCsv(const AppState& app) { return ComparisonCsv(AppComparison(app), CurrentLanguage()); }

namespace {

const char* const kPricingTrainingColumns[] = {"compare.col_model", "compare.col_price", "compare.col_job", "compare.col_term_tail",
                                        "compare.col_total", "compare.col_vs_on_demand", "compare.col_finish_p90", "compare.col_p_miss",
                                        "compare.col_delay"};
const char* const kPricingServingColumns[] = {"compare.col_model", "compare.col_price", "compare.col_period", "compare.col_term_tail",
                                       "compare.col_total", "compare.col_vs_on_demand", "compare.col_per_request",
                                       "compare.col_per_m_output"};

// One pricing model's row as text: the columns both tables share, then a training job's schedule or a service's
// figures; a model that cannot be priced says why in place of the money (issue 45).
struct PricingRow {
  bool blocked = false;
  std::string cells[9];
  std::string tip;  // the name's tooltip: the model's capacity risk
};

PricingRow PricingModelCells(const PricingComparison& c, int i, bool serving) {
  const ModelCost& m = c.models[i];
  const Result& r = m.result;
  PricingRow row;
  row.cells[0] = std::string(Tr(PricingModelKey(m.model))) + (i == c.cheapest && !m.blocking.blocked ? Tr("compare.cheapest") : "");
  row.tip = m.risk_message.Text(CurrentLanguage());
  if (m.blocking.blocked) {
    row.blocked = true;
    row.cells[1] = m.blocking.reason_message.Text(CurrentLanguage());
    return row;
  }
  row.cells[1] = FormatDisplayMoney(r, m.usd_per_gpu_hour);
  row.cells[2] = FormatDisplayMoney(r, m.job_usd);
  row.cells[3] = m.term_tail_usd > 0 ? FormatDisplayMoney(r, m.term_tail_usd) : "-";
  row.cells[4] = FormatDisplayMoney(r, m.total_usd);
  row.cells[5] = FormatRatio(m.ratio_to_on_demand);
  if (serving) {  // a service (issue 47): what a request and a million output tokens cost under this model
    const InferenceResult& ir = r.inference;
    row.cells[6] = FormatSmallMoney(ir.usd_per_request * r.display_per_usd, r.display_currency);
    row.cells[7] = FormatSmallMoney(ir.usd_per_million_output_tokens_all_in * r.display_per_usd, r.display_currency);
    return row;
  }
  // Issue 29 (capacity.h): the wait for capacity and the run, the deadline and the delay cost.
  const ScheduleOutlook& o = r.schedule;
  row.cells[6] = FormatDuration(o.finish_p90_hours);
  row.cells[7] = o.deadline_given ? FormatPercent(o.p_miss_deadline) : "-";
  row.cells[8] = m.delay_usd > 0 ? FormatDisplayMoney(r, m.delay_usd) : "-";
  return row;
}

void PricingModelRow(const PricingRow& row, int columns) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(row.cells[0].c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.tip.c_str());
  for (int col = 1; col < columns; ++col) {
    ImGui::TableNextColumn();
    if (!row.blocked) ImGui::TextUnformatted(row.cells[col].c_str());
    else if (col == 1) ImGui::TextWrapped("%s", row.cells[1].c_str());
  }
}

// A header wider than its column's figures, in two lines broken at the space that makes the wider line narrowest
// (issue 47: "마감 초과 확률" was cut at the panel's right edge at 1280x720); else as it is.
std::string HeaderLines(const char* text, float figures) {
  const std::string t = text;
  if (ImGui::CalcTextSize(text).x <= figures) return t;
  std::size_t best = std::string::npos;
  float best_width = ImGui::CalcTextSize(text).x;
  for (std::size_t at = t.find(' '); at != std::string::npos; at = t.find(' ', at + 1)) {
    const float w = std::max(ImGui::CalcTextSize(t.c_str(), t.c_str() + at).x, ImGui::CalcTextSize(t.c_str() + at + 1).x);
    if (w < best_width) best = at, best_width = w;
  }
  return best == std::string::npos ? t : t.substr(0, best) + "\n" + t.substr(best + 1);
}

// The same job under the four pricing models (the document of `gpucost pricing`): a commitment pays its whole
// term unless other work uses it, so the totals here are what eval gives under each model. A service is shown in
// its own words (issue 47): the period's bill, per request and per million output tokens, and why spot costs what
// it does; a training job with when it finishes and the delay.
void PricingModels(AppState& app) {
  AppUpdatePricing(app);
  const PricingComparison& c = app.pricing.comparison;
  if (!app.result.ok || !c.ok) return;
  if (!ImGui::CollapsingHeader((std::string(Tr("compare.pricing_title")) + "###pricing_models").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  const bool serving = app.result.inference.present;
  const int columns = serving ? 8 : 9;
  // Each column as wide as its figures (its header in two lines when wider): the table fits the panel when their sum
  // does, stretched to it; else (a phone, a narrow panel) it keeps those widths and scrolls sideways.
  std::vector<PricingRow> rows;
  for (int i = 0; i < kModelCount; ++i) rows.push_back(PricingModelCells(c, i, serving));
  const ImGuiStyle& style = ImGui::GetStyle();
  std::string headers[9];
  float widths[9] = {}, need = 0, wrapped_row = 0;
  int header_lines = 1;
  for (int h = 0; h < columns; ++h) {
    float figures = 0;
    for (const PricingRow& row : rows)
      if (!row.blocked || h == 0) figures = std::max(figures, ImGui::CalcTextSize(row.cells[h].c_str()).x);
    headers[h] = HeaderLines(Tr((serving ? kPricingServingColumns : kPricingTrainingColumns)[h]), figures);
    if (headers[h].find('\n') != std::string::npos) header_lines = 2;
    widths[h] = std::max(figures, ImGui::CalcTextSize(headers[h].c_str()).x);
    need += widths[h] + style.CellPadding.x * 2 + 1;
  }
  // A model priced by quote says why in the price column: wide enough to read (on a phone it wrapped a word a line).
  for (const PricingRow& row : rows)
    if (row.blocked && widths[1] < ImGui::GetFontSize() * 16) {
      need += ImGui::GetFontSize() * 16 - widths[1];
      widths[1] = ImGui::GetFontSize() * 16;
    }
  const bool scroll = AppNarrow(app) || need > ImGui::GetContentRegionAvail().x;
  for (const PricingRow& row : rows)  // a blocked model's reason wraps in the price column
    if (row.blocked) wrapped_row += std::ceil(ImGui::CalcTextSize(row.cells[1].c_str()).x / std::max(1.0f, widths[1])) - 1;
  const float line = ImGui::GetTextLineHeight() + style.CellPadding.y * 2;
  const float height = line * static_cast<float>(kModelCount + 1) + ImGui::GetTextLineHeight() * (static_cast<float>(header_lines - 1) + wrapped_row) +
                       style.ScrollbarSize;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                (scroll ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchProp);
  if (!ImGui::BeginTable("pricing_models", columns, flags, ImVec2(0, scroll ? SidewaysTableHeight("pricing_models", height) : 0))) return;
  for (int h = 0; h < columns; ++h)
    ImGui::TableSetupColumn(headers[h].c_str(), scroll ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch, widths[h]);
  ImGui::TableHeadersRow();
  for (const PricingRow& row : rows) PricingModelRow(row, columns);
  ImGui::EndTable();
  RecordRect(app, "pricing_models");
  std::string notes;  // core's words (documents/pricing_json.h), in the page's language
  for (const Message& note : {PricingRateNote(c), ServingSpotNote(c)}) {
    if (note.empty()) continue;
    const std::string text = note.Text(CurrentLanguage());
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    notes += text + "\n";
  }
  RecordText(app, "pricing_notes", notes);
  if (app.touch)  // no hover on a touch screen: each model's capacity risk (the names' tooltips) in plain sight
    for (const ModelCost& m : c.models) Hint(std::string(Tr(PricingModelKey(m.model))) + ": " + m.risk_message.Text(CurrentLanguage()));
}

}  // namespace

static void CompareTableBody(AppState& app, int columns, const Comparison& c, const std::vector<CompareRow>& table, float metric,
                             float each) {
  ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthFixed, metric);
  for (int c = 1; c < columns; ++c) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, each);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableNextColumn();
  Hint(Tr("compare.legend"));
  for (std::size_t i = 0; i < app.pinned.size(); ++i) ColumnHeader(app, i);
  if (app.pinned.empty()) return;
  if (app.pinned.size() != c.columns.size()) {  // a column was removed above: the comparison of those left
    const Comparison now = AppComparison(app);
    for (const CompareRow& row : CompareTable(now)) CompareTableRow(app, now, row);
  } else {
    for (const CompareRow& row : table) CompareTableRow(app, c, row);
  }
  if (AnyServing(app)) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Tr("serving.prices"));
    for (const Pinned& p : app.pinned) {
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", p.note.empty() ? "-" : p.note.Text(CurrentLanguage()).c_str());
      ImGui::PopTextWrapPos();
    }
  }
  // The last row's last cell (tests: no empty band under it), never counted as cut: it may be scrolled sideways.
  RecordRectAt(app, "compare_end", -1, ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x,
               ImGui::GetItemRectMax().y);
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
  const Comparison c = AppComparison(app);
  const std::vector<CompareRow> table = CompareTable(c);
  // Its first frame guesses the rows' height (the header's names wrap, the price source takes lines), the frames after
  // are as tall as its rows were drawn (SidewaysTableHeight): the guess left an empty band under the last row.
  const std::size_t rows = table.size() + (AnyServing(app) ? 3 : 0);  // and the price source
  const float height = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(rows + 6);
  // A scrolling table scrolled out of sight is not begun (BeginTable false): the provider sheet below is drawn all
  // the same, or the view would lose its height for a frame and its scroll would snap to the top (issue 30).
  // The names' column as wide as its longest name (at most 17 em), the pinned columns at least 11 em and as wide as
  // the panel allows: four of them fit at 1280x720 (issue 47: the 4th was cut), more scroll sideways.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float em = ImGui::GetFontSize(), pad = style.CellPadding.x * 2 + 1;
  float names = ImGui::CalcTextSize(Tr("serving.prices")).x;
  for (const CompareRow& row : table) names = std::max(names, ImGui::CalcTextSize(Tr(row.key)).x);
  const float metric = std::clamp(names + em * 0.5f, em * 8, em * 17);
  const float room = ImGui::GetContentRegionAvail().x - metric - pad - style.ScrollbarSize;
  const float each = std::max(em * 11, room / static_cast<float>(columns - 1) - pad);
  if (ImGui::BeginTable("compare", columns, flags, ImVec2(0, SidewaysTableHeight("compare", height)))) {
    CompareTableBody(app, columns, c, table, metric, each);
    ImGui::EndTable();
    RecordRect(app, "compare_table");
  }
  DrawProviderSheet(app);
  ConfirmEdit(app);
  ConfirmServingOptions(app);
}

}  // namespace gpucost::app
