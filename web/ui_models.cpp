// ui_models.cpp — the model picker at the top of the scenario editor (issue 18): choosing a model by name
// (core/scenario/models.h, assets/models.json) fills the shape fields and workload.params from its published config
// and marks those fields as coming from the model; the picker then says which of them were changed since.
#include <imgui.h>

#include <cstring>
#include <string>

#include "app.h"
#include "scenario/fields.h"
#include "base/i18n.h"
#include "scenario/models.h"

namespace gpucost::app {

std::string AppLoadModel(AppState& app, const std::string& id) {
  const ModelSpec* m = FindModel(id.c_str());
  if (!m) return TrFormat(Lang::kEn, "msg.unknown_model", {id, ModelIds()});
  if (app.edits.size() != FieldCount()) app.edits.assign(FieldCount(), FieldEdit{});
  for (FieldEdit& e : app.edits) e.from_model = false;
  SetModelId(&app.scenario, *m);
  for (const ModelFieldValue& v : ModelFieldValues(*m)) {
    ApplyModelField(&app.scenario, v);
    const FieldSpec* f = FindField(v.path);
    if (!f) continue;
    FieldEdit& e = app.edits[static_cast<std::size_t>(f - Fields())];
    e = FieldEdit{};
    e.from_model = true;
  }
  AppScenarioEdited(app);
  return "";
}

namespace {

// The short names of fields filled from the model whose value the user has changed since.
std::string ChangedSince(const AppState& app, const ModelSpec& m, int* from_model) {
  std::string changed;
  *from_model = 0;
  for (const ModelFieldValue& v : ModelFieldValues(m)) {
    const FieldSpec* f = FindField(v.path);
    if (!f || app.edits.size() != FieldCount() || !app.edits[static_cast<std::size_t>(f - Fields())].from_model) continue;
    ++*from_model;
    if (GetNumber(app.scenario, *f) == v.value) continue;
    const char* dot = std::strchr(v.path, '.');
    changed += (changed.empty() ? "" : ", ") + std::string(dot ? dot + 1 : v.path);
  }
  return changed;
}

}  // namespace

void DrawModelPicker(AppState& app) {
  const ModelSpec* current = FindModel(app.scenario.arch.model);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr("models.label"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  const bool open = ImGui::BeginCombo("##model", current ? current->name.c_str() : Tr("models.none"));
  if (ImGui::IsItemHovered() && !open) ImGui::SetTooltip("%s", Tr("models.tooltip"));
  RecordRect(app, "model_picker");
  if (open) {
    for (std::size_t i = 0; i < ModelCount(); ++i) {
      const ModelSpec& m = Models()[i];
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::Selectable(m.name.c_str(), current == &m)) AppLoadModel(app, m.id);
      RecordRect(app, "model", static_cast<int>(i));
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
        ImGui::TextDisabled("%s", m.id.c_str());
        ImGui::TextUnformatted(TrFormat("models.source", {m.source}).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (!current) return;
  int from_model = 0;
  const std::string changed = ChangedSince(app, *current, &from_model);
  ImGui::PushTextWrapPos(0);
  if (from_model > 0) Hint(TrFormat("models.from", {std::to_string(from_model), current->name}).c_str());
  if (!changed.empty()) ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "%s", TrFormat("models.changed", {changed}).c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace gpucost::app
