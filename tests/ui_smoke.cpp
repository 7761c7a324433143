// Runs the page's frame function for many frames without a window: ImGui 1.86 can NewFrame/Render with a
// built font atlas and no renderer backend. Fails on any ImGui assertion (they abort) or a frame that
// leaves the ImGui stack unbalanced.
#include <cstdio>
#include <cstring>

#include <imgui.h>

#include "app.h"

int main() {
  using namespace gpucost::app;
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1280, 800);
  unsigned char* pixels;
  int w, h;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  AppState app;
  AppInit(app);
  for (int frame = 0; frame < 120; ++frame) {
    io.DeltaTime = 1.0f / 60;
    io.MousePos = ImVec2(static_cast<float>(frame * 10 % 1280), static_cast<float>(frame * 7 % 800));
    io.MouseDown[0] = frame % 10 == 5;
    if (frame == 60) io.DisplaySize = ImVec2(640, 480);  // a resize
    ImGui::NewFrame();
    AppFrame(app);
    ImGui::Render();
  }
  const bool ok = app.frames == 120 && app.result.ok && ImGui::GetDrawData()->TotalVtxCount > 0;
  // A bad scenario keeps the last good one and shows the message.
  const std::string err = AppLoadScenario(app, "{\"cluster\": {\"gpus\": -1}}");
  const bool kept = !err.empty() && app.scenario.cluster.gpus == 64 && app.error == err;
  ImGui::DestroyContext();
  std::printf("ui_smoke: %ld frames, %s; bad input %s\n", app.frames, ok ? "ok" : "FAILED", kept ? "kept the last good scenario" : "FAILED");
  return ok && kept ? 0 : 1;
}
