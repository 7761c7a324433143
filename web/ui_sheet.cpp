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
  // Not scrolling: the table is as tall as its rows, answers wrap within their column.
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("provider_sheet", columns, flags)) return;
  const float em = ImGui::GetFontSize();
  ImGui::TableSetupColumn("item", ImGuiTableColumnFlags_WidthFixed, em * 12);
  for (int c = 1; c < columns; ++c) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
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
  for (const SheetRow& row : doc.rows) {
    if (static_cast<int>(row.group) != group) {
      group = static_cast<int>(row.group);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", Tr(kGroupKeys[group]));
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const char* label = Tr(SheetLabelKey(row).c_str());
    ImGui::TextUnformatted(label);
    shown += label;
    for (const std::string& v : row.values) {
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0);  // the column's right edge
      if (v.empty()) ImGui::TextColored(kOpenColor, "%s", Tr("sheet.ask"));
      else ImGui::TextUnformatted(v.c_str());
      ImGui::PopTextWrapPos();
      shown += " | " + (v.empty() ? std::string(Tr("sheet.ask")) : v);
    }
    shown += "\n";
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  int security_rows = 0;
  for (const SheetRow& row : doc.rows) security_rows += row.group == SheetGroup::kSecurity;
  for (int open : doc.open_security_items) {
    ImGui::TableNextColumn();
    const std::string text = TrFormat("sheet.open_items", {std::to_string(open), std::to_string(security_rows)});
    if (open) ImGui::TextColored(kOpenColor, "%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
  }
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
