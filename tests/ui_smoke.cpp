// Runs the page's frame function for many frames without a window: ImGui 1.86 can NewFrame/Render with a
// built font atlas and no renderer backend. Visits every view (with a pinned comparison, the sliced chart
// sweeps and the Monte Carlo run to completion), resizes, and fails on any ImGui assertion (they abort), a
// frame that leaves the ImGui stack unbalanced, or sliced work that never finishes.
#include <cstdio>
#include <cstring>

#include <imgui.h>

#include "app.h"
#include "app_actual.h"

namespace {

void RunFrame(gpucost::app::AppState& app, int frame) {
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = 1.0f / 60;
  io.MousePos = ImVec2(static_cast<float>(frame * 10 % 1280), static_cast<float>(frame * 7 % 800));
  io.MouseDown[0] = frame % 10 == 5;
  ImGui::NewFrame();
  gpucost::app::AppFrame(app);
  ImGui::Render();
}

}  // namespace

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
  int frame = 0;
  for (; frame < 120; ++frame) {
    if (frame % 30 == 0) app.request_view = frame / 30;  // results, compare, charts, share
    if (frame == 31) AppPin(app);
    if (frame == 60) io.DisplaySize = ImVec2(640, 480);  // a resize
    RunFrame(app, frame);
  }
  const bool ok = app.frames == 120 && app.result.ok && ImGui::GetDrawData()->TotalVtxCount > 0 && app.pinned.size() == 1;
  // The charts' sliced work (sweeps, Monte Carlo) finishes and the page goes idle.
  app.request_view = static_cast<int>(View::kCharts);
  io.DisplaySize = ImVec2(1280, 800);
  int work_frames = 0;
  for (RunFrame(app, frame++); app.busy && work_frames < 5000; ++work_frames) RunFrame(app, frame++);
  const bool finished = !app.busy && app.charts.mc.have_summary && app.charts.gpus.run && app.charts.gpus.run->done &&
                        !app.charts.gpus.run->result.points.empty();
  // The layout search runs in slices in the Layouts view and finds layouts that fit (GPT-3 175B shape).
  const std::string plan_err = AppLoadScenario(app,
      "{\"workload\": {\"params\": 175e9, \"layers\": 96, \"hidden\": 12288, \"heads\": 96, \"seq_len\": 2048,"
      " \"vocab\": 51200}, \"cluster\": {\"gpu\": \"a100-sxm-80gb\", \"gpus\": 64},"
      " \"parallel\": {\"global_batch\": 64}}");
  app.request_view = static_cast<int>(View::kPlan);
  AppStartPlanSearch(app);
  int plan_frames = 0;
  for (RunFrame(app, frame++); app.plan.running && plan_frames < 1000; ++plan_frames) RunFrame(app, frame++);
  const bool planned = plan_err.empty() && !app.plan.running && app.plan.error.empty() && app.plan.search &&
                       app.plan.search->done && app.plan.search->count > 0 && app.plan.search->best[0].job_usd > 0;
  std::printf("ui_smoke: layout search %s (%lld layouts, %d frames)\n", planned ? "ok" : "FAILED",
              app.plan.search ? static_cast<long long>(app.plan.search->evaluated) : 0LL, plan_frames);
  // An inference scenario (issue 17): its results with the cost-latency frontier, and every other view.
  const std::string inference_err = AppLoadPreset(app, "llama2-70b-split-h100-a100");
  int inference_frames = 0;
  for (int v = 0; v < static_cast<int>(View::kCount); ++v) {
    app.request_view = v;
    for (int i = 0; i < 3; ++i, ++inference_frames) RunFrame(app, frame++);
    for (; app.busy && inference_frames < 3000; ++inference_frames) RunFrame(app, frame++);
  }
  app.request_view = static_cast<int>(View::kResults);
  RunFrame(app, frame++);
  const bool inference_ok = inference_err.empty() && app.result.ok && app.result.inference.present &&
                            app.inference_page.count >= 2 && !app.busy;
  std::printf("ui_smoke: inference scenario %s (%d frames, frontier of %d points)\n", inference_ok ? "ok" : "FAILED",
              inference_frames, app.inference_page.count);
  // Plan vs actual (issue 49): a run record handed to the page opens its view, drawn wide and on a phone's width, with
  // its waterfall; Adopt puts the calibrated scenario in the editor.
  AppLoadScenario(app, "{\"workload\": {\"params\": 7e9, \"tokens\": 2e11}, \"cluster\": {\"gpus\": 64, \"mfu\": 0.4}}");
  const std::string run_err = AppImportText(app, "run.json",
      "{\"gpu\": \"h100-sxm\", \"gpus\": 64, \"wall_hours\": 120, \"tokens_per_second\": 500000,"
      " \"interruptions\": [{\"lost_hours\": 1, \"cause\": \"hardware\"}], \"checkpoints\": {\"count\": 50, \"write_seconds\": 30}}");
  int actual_frames = 0;
  for (const float width : {1280.0f, 390.0f}) {
    io.DisplaySize = ImVec2(width, 800);
    app.request_view = static_cast<int>(View::kActual);  // a phone's layout has its own tab bar
    for (int i = 0; i < 4; ++i, ++actual_frames) RunFrame(app, frame++);
  }
  bool waterfall = false;
  for (const WidgetRect& r : app.rects) waterfall = waterfall || std::strcmp(r.id, "actual_bar") == 0;
  const double mfu_before = app.scenario.cluster.mfu;
  AppAdoptCalibrated(app);
  RunFrame(app, frame++);
  const bool actual_ok = run_err.empty() && app.actual && app.actual->doc.ok && waterfall && app.scenario.cluster.mfu != mfu_before;
  std::printf("ui_smoke: plan vs actual %s (%d frames; run %s, document %s, waterfall %s)\n", actual_ok ? "ok" : "FAILED", actual_frames,
              run_err.empty() ? "read" : run_err.c_str(), app.actual && app.actual->doc.ok ? "made" : "missing", waterfall ? "drawn" : "missing");
  io.DisplaySize = ImVec2(1280, 800);
  AppLoadScenario(app, "{\"cluster\": {\"gpus\": 64}}");
  // A bad scenario keeps the last good one and shows the message.
  const long evaluations = app.evaluations;
  const std::string err = AppLoadScenario(app, "{\"cluster\": {\"gpus\": -1}}");
  const bool kept = !err.empty() && app.scenario.cluster.gpus == 64 && app.error == err && app.evaluations == evaluations;
  const bool all_ok = ok && finished && kept && planned && inference_ok && actual_ok;
  ImGui::DestroyContext();
  std::printf("ui_smoke: %ld frames, %s; sliced work %s after %d frames (Monte Carlo %lld trials); bad input %s\n",
              app.frames, ok ? "ok" : "FAILED", finished ? "finished" : "FAILED", work_frames,
              static_cast<long long>(app.charts.mc.summary.trials), kept ? "kept the last good scenario" : "FAILED");
  return all_ok ? 0 : 1;
}
