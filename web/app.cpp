#include "app.h"

#include <imgui.h>

#include "evaluate.h"
#include "format.h"
#include "json_io.h"
#include "version.h"

namespace gpucost::app {

void AppInit(AppState& app) {
  app.scenario = DefaultScenario();
  app.dirty = true;
  AppRefresh(app);
}

void AppRefresh(AppState& app) {
  if (!app.dirty) return;
  app.result = ValidateScenario(app.scenario).empty() ? Evaluate(app.scenario) : Result{};
  app.dirty = false;
}

std::string AppLoadScenario(AppState& app, const std::string& json_text) {
  ScenarioParse p = ParseScenarioJson(json_text);
  if (!p.ok()) {
    app.error = p.errors.front().Text();
    return app.error;
  }
  app.scenario = p.scenario;
  app.error.clear();
  app.dirty = true;
  AppRefresh(app);
  return "";
}

namespace {

void DrawHeader(AppState& app) {
  ImGui::Text("gpucost %s", GPUCOST_VERSION);
  ImGui::SameLine();
  ImGui::TextDisabled("- what a completed GPU training job really costs");
  if (!app.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", app.error.c_str());
}

void DrawHeadline(AppState& app) {
  const Result& r = app.result;
  if (!r.ok) {
    ImGui::TextUnformatted("The scenario is invalid.");
    return;
  }
  ImGui::Text("Cost per completed job: %s", FormatMoney(r.expected_usd * r.display_per_usd, r.display_currency).c_str());
  ImGui::Text("Expected time: %s (ideal %s)", FormatDuration(r.expected_hours).c_str(), FormatDuration(r.ideal_hours).c_str());
  ImGui::Text("Goodput: %s", FormatPercent(r.goodput).c_str());
}

}  // namespace

void AppFrame(AppState& app) {
  AppRefresh(app);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("gpucost", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus);
  DrawHeader(app);
  ImGui::Separator();
  DrawHeadline(app);
  ImGui::End();
  ++app.frames;
}

}  // namespace gpucost::app
