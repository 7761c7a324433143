// ui_presets.cpp — the presets menu in the header: ready-made scenarios (core/documents/presets.h), each citing its
// source in a tooltip. Loading one replaces the edited scenario; the pinned comparison is kept.
#include <imgui.h>

#include <algorithm>

#include "app.h"

namespace gpucost::app {
namespace {

// A preset's title in the page's language: the string table's preset.<id>.title where it has one, else the
// preset file's own (English) title.
const char* PresetTitle(const PresetInfo& p) {
  const std::string key = "preset." + p.id + ".title";
  return HasTranslation(CurrentLanguage(), key.c_str()) ? Tr(key.c_str()) : p.title.c_str();
}

// Its notes likewise: preset.<id>.notes, else the file's (English) notes.
const char* PresetNotes(const PresetInfo& p) {
  const std::string key = "preset." + p.id + ".notes";
  return HasTranslation(CurrentLanguage(), key.c_str()) ? Tr(key.c_str()) : p.notes.c_str();
}

}  // namespace

void DrawPresets(AppState& app) {
  const char* preview = Tr("presets.load");
  if (!app.preset_id.empty())
    for (const PresetInfo& p : AppPresets(app))
      if (p.id == app.preset_id) preview = PresetTitle(p);
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 22, ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 6));  // the language button beside it
  const bool open = ImGui::BeginCombo("##presets", preview);
  RecordRect(app, "presets");
  if (!open) return;
  const std::vector<PresetInfo>& presets = AppPresets(app);
  for (std::size_t i = 0; i < presets.size(); ++i) {
    const PresetInfo& p = presets[i];
    // A title wraps at the screen's width (a phone's list ran past its right edge).
    if (WrappedRow(app, "preset", "preset_text", static_cast<int>(i), p.id == app.preset_id, {{PresetTitle(p)}})) AppLoadPreset(app, p.id);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
      ImGui::TextUnformatted(TrFormat("ui.source", {p.source}).c_str());
      if (!p.notes.empty()) ImGui::TextDisabled("%s", PresetNotes(p));
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::EndCombo();
}

}  // namespace gpucost::app
