// app.h — the page's explicit application state and its frame function. No platform code here: the same
// AppFrame() runs in the browser (main_web.cpp), in a native window and in the windowless UI smoke test.
#pragma once
#include <string>

#include "result.h"
#include "scenario.h"

namespace gpucost::app {

struct AppState {
  Scenario scenario;       // what the user edits
  Result result;           // Evaluate(scenario), refreshed when dirty
  bool dirty = true;       // scenario changed since the last evaluation
  std::string error;       // message shown to the user ("" if none)
  long frames = 0;         // frames drawn
  float ui_scale = 1.0f;   // device pixels per CSS pixel
  bool busy = false;       // long work in progress: keep drawing frames
};

void AppInit(AppState& app);
// Draws one frame of UI (between ImGui::NewFrame() and ImGui::Render()).
void AppFrame(AppState& app);

// Replaces the scenario from JSON text. Returns "" or the error message (then the scenario is kept).
std::string AppLoadScenario(AppState& app, const std::string& json_text);
// Re-evaluates if the scenario changed.
void AppRefresh(AppState& app);

}  // namespace gpucost::app
