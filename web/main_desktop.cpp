// main_desktop.cpp — gpucost-gui: the page's UI in a native window (GLFW + OpenGL 3.3 + Dear ImGui), run by
// `gpucost gui`. Same AppState and panels as the browser; platform_native.cpp is the host (clipboard through
// GLFW, downloads written to the working directory, files opened by dropping them on the window).
//
//   gpucost-gui [FILE | LINK] [--size WxH] [--frames N] [--screenshot FILE.ppm] [--print-result]
//
// FILE is a scenario, a share link or a probe report (as the page's import); LINK a share link (#s=...).
// --frames N quits after N frames (scripts, tests under Xvfb); --screenshot writes the last frame as a binary
// PPM; --print-result prints the result JSON (the same document as `gpucost eval --format json`) on exit.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app.h"
#include "platform_native.h"
#include "documents/result_json.h"

namespace {

struct Options {
  std::string input;
  int width = 1280, height = 800;
  long frames = -1;  // -1: until the window is closed
  std::string screenshot;
  bool print_result = false;
};

const char kUsage[] =
    "usage: gpucost-gui [FILE | LINK] [--size WxH] [--frames N] [--screenshot FILE.ppm] [--print-result]\n"
    "  FILE            a scenario, share link or probe report to open (as the page's Upload)\n"
    "  --size WxH      window size in screen coordinates (default 1280x800)\n"
    "  --frames N      quit after N frames (scripts and tests)\n"
    "  --screenshot F  write the last frame to F as a binary PPM image\n"
    "  --print-result  print the result JSON on exit (as gpucost eval --format json)\n"
    "Drop a scenario, link or probe report file on the window to open it.\n";

// Returns 0 to run, or the exit code (usage errors: 2).
int ParseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return -1;
    } else if (a == "--size" && has_value) {
      if (std::sscanf(argv[++i], "%dx%d", &o->width, &o->height) != 2 || o->width < 320 || o->height < 240 ||
          o->width > 16384 || o->height > 16384) {
        std::fprintf(stderr, "gpucost-gui: --size must be WxH between 320x240 and 16384x16384, got %s\n", argv[i]);
        return 2;
      }
    } else if (a == "--frames" && has_value) {
      char* end = nullptr;
      o->frames = std::strtol(argv[++i], &end, 10);
      if (!end || *end || o->frames < 1 || o->frames > 1000000) {
        std::fprintf(stderr, "gpucost-gui: --frames must be an integer in [1, 1000000], got %s\n", argv[i]);
        return 2;
      }
    } else if (a == "--screenshot" && has_value) {
      o->screenshot = argv[++i];
    } else if (a == "--print-result") {
      o->print_result = true;
    } else if (a.rfind("--", 0) != 0 && o->input.empty()) {
      o->input = a;
    } else {
      std::fprintf(stderr, "gpucost-gui: unknown or incomplete option %s\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  return 0;
}

// Any input since the last frame: the loop draws until ImGui has settled, then waits for the next event.
bool g_input = true;

// Registered before ImGui's GLFW backend, which installs its own and calls these first.
void InstallInputWatch(GLFWwindow* w) {
  glfwSetCursorPosCallback(w, [](GLFWwindow*, double, double) { g_input = true; });
  glfwSetMouseButtonCallback(w, [](GLFWwindow*, int, int, int) { g_input = true; });
  glfwSetScrollCallback(w, [](GLFWwindow*, double, double) { g_input = true; });
  glfwSetKeyCallback(w, [](GLFWwindow*, int, int, int, int) { g_input = true; });
  glfwSetCharCallback(w, [](GLFWwindow*, unsigned) { g_input = true; });
  glfwSetWindowFocusCallback(w, [](GLFWwindow*, int) { g_input = true; });
  glfwSetFramebufferSizeCallback(w, [](GLFWwindow*, int, int) { g_input = true; });
  // Dropped files open like the page's Upload (read here, imported by the next frame).
  glfwSetDropCallback(w, [](GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i) {
      std::string text;
      if (gpucost::platform::NativeReadFile(paths[i], &text)) gpucost::platform::NativeQueuePickedFile(paths[i], text);
    }
    g_input = true;
  });
}

bool WritePpm(const std::string& path, int width, int height) {
  std::vector<unsigned char> rgb(static_cast<std::size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::fprintf(f, "P6\n%d %d\n255\n", width, height);
  for (int y = height - 1; y >= 0; --y)  // GL rows run bottom-up
    std::fwrite(rgb.data() + static_cast<std::size_t>(y) * width * 3, 1, static_cast<std::size_t>(width) * 3, f);
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (const int code = ParseOptions(argc, argv, &opt)) return code < 0 ? 0 : code;
  gpucost::app::AppState app;
  gpucost::app::AppInit(app);
  if (!opt.input.empty()) {
    std::string text = opt.input;  // a share link given directly
    const bool is_link = opt.input.find("#s=") != std::string::npos || opt.input.rfind("s=", 0) == 0;
    if (!is_link && !gpucost::platform::NativeReadFile(opt.input, &text)) {
      std::fprintf(stderr, "gpucost-gui: cannot read %s\n", opt.input.c_str());
      return 1;
    }
    const std::string err = gpucost::app::AppImportText(app, opt.input, text);
    if (!err.empty()) std::fprintf(stderr, "gpucost-gui: %s\n", err.c_str());  // shown in the window too
  }
  if (!std::getenv("GPUCOST_DOWNLOAD_DIR")) setenv("GPUCOST_DOWNLOAD_DIR", ".", 0);  // Export writes here

  glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); });
  if (!glfwInit()) {
    std::fprintf(stderr, "gpucost-gui: no display (GLFW could not start); the command-line tool needs none\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "gpucost", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "gpucost-gui: could not open an OpenGL 3.3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  InstallInputWatch(window);
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 150");

  float scale = 0;
  int quiet_frames = 0;  // frames drawn since the last input
  int picks_seen = 0;
  gpucost::app::PressHold press;  // a press that came with a move waits a frame (app_touch.cpp PressForFrame)
  while (!glfwWindowShouldClose(window) && (opt.frames < 0 || app.frames < opt.frames)) {
    // Idle: wait for input instead of redrawing (sliced work keeps app.busy set and the loop running);
    // the timeout lets hover tooltips appear.
    if (quiet_frames > 3 && !app.busy && !app.dirty && opt.frames < 0) glfwWaitEventsTimeout(0.5);
    else glfwPollEvents();
    quiet_frames = g_input ? 0 : quiet_frames + 1;
    g_input = false;
    if (gpucost::platform::NativeRecorded().picks_requested != picks_seen) {  // "Upload...": no file dialog here
      picks_seen = gpucost::platform::NativeRecorded().picks_requested;
      app.notice = "Drop a scenario, link or probe report file on this window to open it";
    }
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window, &sx, &sy);
    if (sx != scale) {
      scale = sx;
      gpucost::app::AppApplyUiScale(app, scale);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.MouseDown[0] = gpucost::app::PressForFrame(press, io.MousePos.x, io.MousePos.y, io.MouseDown[0]);
    if (press.held) quiet_frames = 0;  // the press plays in the next frame
    ImGui::NewFrame();
    gpucost::app::AppFrame(app);
    ImGui::Render();
    int fb_width = 0, fb_height = 0;
    glfwGetFramebufferSize(window, &fb_width, &fb_height);
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(0.08f, 0.09f, 0.11f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const bool last = opt.frames > 0 && app.frames >= opt.frames;
    if (last && !opt.screenshot.empty() && !WritePpm(opt.screenshot, fb_width, fb_height))
      std::fprintf(stderr, "gpucost-gui: cannot write %s\n", opt.screenshot.c_str());
    glfwSwapBuffers(window);
  }
  if (opt.print_result) {
    gpucost::app::AppRefresh(app);
    std::printf("%s\n", gpucost::ResultToJson(app.scenario, app.result).c_str());
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
