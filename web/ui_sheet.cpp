// ui_sheet.cpp — the provider comparison sheet under the Compare view (provider_sheet.h): the same facts for
// every pinned option, side by side; unanswered items read "ask the provider", and each column counts the
// security items still open (a domestic data location is necessary, not sufficient).
#include <imgui.h>

#include "app.h"
#include "documents/catalog.h"
#include "base/text_safety.h"

namespace gpucost::app {
namespace {

const ImVec4 kOpenColor(1.0f, 0.8f, 0.35f, 1.0f);
const char* const kGroupKeys[] = {"sheet.group_hardware", "sheet.group_terms", "sheet.group_security"};

std::vector<Scenario> Columns(const AppState& app) {
  std::vector<Scenario> columns;
  for (const Pinned& p : app.pinned) columns.push_back(p.scenario);
  return columns;
}

// A phone (issue 47): one option after another, each answer under its item, wrapped across the screen (side by side
// the columns were a syllable wide). Returns what it says, as the table records it.
std::string SheetList(AppState& app, const ProviderSheetDoc& doc) {
  std::string shown;
  for (std::size_t c = 0; c < app.pinned.size(); ++c) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(PinnedLabel(app.pinned[c]).c_str());
    int group = -1;
    for (const SheetRow& row : doc.rows) {
      if (static_cast<int>(row.group) != group) {
        group = static_cast<int>(row.group);
        ImGui::TextDisabled("%s", Tr(kGroupKeys[group]));
      }
      const std::string& v = row.values[c];
      const std::string line = std::string(Tr(SheetLabelKey(row).c_str())) + ": " + (v.empty() ? Tr("sheet.ask") : v);
      if (v.empty()) ImGui::TextColored(kOpenColor, "  %s", line.c_str());
      else ImGui::Text("  %s", line.c_str());
      shown += line + "\n";
    }
    int security_rows = 0;
    for (const SheetRow& row : doc.rows) security_rows += row.group == SheetGroup::kSecurity;
    const int open = doc.open_security_items[c];
    const std::string count = TrFormat("sheet.open_items", {std::to_string(open), std::to_string(security_rows)});
    if (open) ImGui::TextColored(kOpenColor, "%s", count.c_str());
    else ImGui::TextUnformatted(count.c_str());
    ImGui::PopTextWrapPos();
  }
  RecordRect(app, "provider_sheet_list");
  return shown;
}

}  // namespace

void DrawProviderSheet(AppState& app) {
  if (app.pinned.empty()) return;
  const ProviderSheetDoc doc = BuildProviderSheet(Columns(app), CurrentLanguage());  // offers' facts in Korean too
  ImGui::Spacing();
  ImGui::TextUnformatted(Tr("sheet.title"));
  RecordRect(app, "provider_sheet");
  ImGui::PushTextWrapPos(0);
  Hint(Tr("sheet.edit_hint"));
  ImGui::PopTextWrapPos();
  if (AppNarrow(app)) {
    RecordText(app, "provider_sheet", SheetList(app, doc));
    ImGui::PushTextWrapPos(0);
    Hint(Tr("sheet.domestic_note"));
    ImGui::PopTextWrapPos();
    return;
  }
  const int columns = 1 + static_cast<int>(app.pinned.size());
  // The options share the panel's width, answers wrapped within their column, the table as tall as its rows. Where
  // that leaves an option less than 10 em (4 pinned at 960x600 and 150%: "/GB-month" and "provider" broke inside),
  // each option keeps 10 em and they scroll sideways beside the items.
  const float em = ImGui::GetFontSize();
  const float option_width = em * 10;
  const bool sideways = ImGui::GetContentRegionAvail().x < em * 12 + option_width * static_cast<float>(app.pinned.size());
  ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (sideways) flags |= ImGuiTableFlags_ScrollX;
  const float first = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(doc.rows.size() + 12);
  if (!ImGui::BeginTable("provider_sheet", columns, flags, ImVec2(0, sideways ? SidewaysTableHeight("provider_sheet", first) : 0)))
    return;
  if (sideways) ImGui::TableSetupScrollFreeze(1, 0);
  ImGui::TableSetupColumn("item", ImGuiTableColumnFlags_WidthFixed, em * 12);
  // Equal shares: by their contents' widths (StretchProp) a column whose every cell wraps was given a letter's width.
  for (int c = 1; c < columns; ++c)
    ImGui::TableSetupColumn("", sideways ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            sideways ? option_width : 1.0f);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableNextColumn();
  for (const Pinned& p : app.pinned) {
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(ShortLabel(PinnedLabel(p), 40).c_str());
    ImGui::PopTextWrapPos();
  }
  int group = -1;
  std::string shown;  // for tests: what the sheet says, row by row
  int answers = 0;
  for (const SheetRow& row : doc.rows) {
    if (static_cast<int>(row.group) != group) {
      group = static_cast<int>(row.group);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      Hint(Tr(kGroupKeys[group]));  // wrapped in the item column ("Data location and secur" was cut)
      RecordCell(app, "sheet_group", group, Tr(kGroupKeys[group]));
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const char* label = Tr(SheetLabelKey(row).c_str());
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(label);
    ImGui::PopTextWrapPos();
    RecordCell(app, "sheet_item", static_cast<int>(&row - doc.rows.data()), label);
    shown += label;
    for (const std::string& v : row.values) {
      ImGui::TableNextColumn();
      const std::string answer = v.empty() ? std::string(Tr("sheet.ask")) : v;
      ImGui::PushTextWrapPos(0);  // the column's right edge
      if (v.empty()) ImGui::TextColored(kOpenColor, "%s", answer.c_str());
      else ImGui::TextUnformatted(answer.c_str());
      ImGui::PopTextWrapPos();
      RecordCell(app, "sheet_answer", answers++, answer);
      shown += " | " + answer;
    }
    shown += "\n";
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  int security_rows = 0;
  for (const SheetRow& row : doc.rows) security_rows += row.group == SheetGroup::kSecurity;
  for (std::size_t c = 0; c < doc.open_security_items.size(); ++c) {
    ImGui::TableNextColumn();
    const int open = doc.open_security_items[c];
    const std::string text = TrFormat("sheet.open_items", {std::to_string(open), std::to_string(security_rows)});
    ImGui::PushTextWrapPos(0);  // the column's right edge, as the answers above ("9 of 9 security ite" was cut)
    if (open) ImGui::TextColored(kOpenColor, "%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    RecordCell(app, "sheet_open_items", static_cast<int>(c), text);
  }
  if (sideways) RecordScroll(app, "provider_sheet");
  ImGui::EndTable();
  ImGui::PushTextWrapPos(0);
  Hint(Tr("sheet.domestic_note"));
  ImGui::PopTextWrapPos();
  RecordText(app, "provider_sheet", shown);
}

std::string ProviderSheetCsv(const AppState& app) {
  const ProviderSheetDoc doc = BuildProviderSheet(Columns(app));
  std::string csv;
  for (const SheetRow& row : doc.rows) {
    csv += CsvCell(row.key) + ",text";
    for (const std::string& v : row.values) csv += "," + CsvCell(v.empty() ? Tr("sheet.ask") : v);  // no formula (text_safety.h)
    csv += "\n";
  }
  return csv;
}

}  // namespace gpucost::app
