// main_web.cpp — the browser entry point: GLFW (Emscripten's built-in port) + WebGL2 + Dear ImGui (drawn by
// render_webgl.cpp), an idle-aware main loop, and the C functions behind window.gpucost (see index.html).
#include <emscripten.h>
#include <emscripten/html5.h>

#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "app.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "platform.h"
#include "render_webgl.h"
#include "documents/result_json.h"

namespace {

gpucost::app::AppState g_app;
GLFWwindow* g_window = nullptr;
// Frames follow every event until the page is idle: at least kMinWakeFrames after an input, then until two frames
// in a row draw exactly the same (ImGui lays out tables, wrapped text and tab bars over several frames; a loop
// that slept after a fixed count left a tapped tab's old content or a one-character-wide table on screen).
constexpr int kMinWakeFrames = 3;
constexpr int kMaxSettleFrames = 240;  // a UI that never settles (an animation) still lets the loop sleep
int g_wake_frames = kMinWakeFrames;    // frames still to draw whatever they show
int g_settle_frames = kMaxSettleFrames;  // frames left to settle in (0: idle)
int g_same_frames = 0;                 // consecutive frames that drew what the one before drew
std::uint64_t g_last_draw_hash = 0;
gpucost::app::TouchState g_touch;
bool g_touch_wants_frames = false;
gpucost::app::PressHold g_press;  // a press that came with a move waits a frame (app_touch.cpp PressForFrame)

void WakeUp() {
  g_wake_frames = std::max(g_wake_frames, kMinWakeFrames);
  g_settle_frames = kMaxSettleFrames;
  g_same_frames = 0;
}
double g_dpr = 0;           // device pixel ratio the fonts were built for
int g_width_px = 0, g_height_px = 0;
std::string g_out;          // backing store for strings returned to JavaScript

// ImGui 1.86 reads keys as "down during NewFrame()": a key pressed and released between two frames (a quick
// tap, a script, a test) would be lost, so such a release waits for the next frame. Issue 31: events after a
// waiting release must not overtake it where the order matters. A modifier's release (Ctrl, Shift, Alt, Super)
// holds back every event after it: a digit typed while Ctrl's release waited reached a frame that still saw
// Ctrl down, and InputText drops characters typed with Ctrl ("1864" after Ctrl+A stored 864). A second press of
// a key whose release waits holds back too (two quick Backspaces stay two). Other releases wait alone, so fast
// typing still goes in at once. Characters from the IME path join the same queue.
struct InputEvent {
  enum Kind { kKey, kChar, kText } kind;
  int key, scancode, action, mods;
  unsigned codepoint;
  std::string text;  // kText: UTF-8 committed by an input method
};
bool g_pressed_since_frame[GLFW_KEY_LAST + 1] = {};
bool g_release_waits[GLFW_KEY_LAST + 1] = {};
std::vector<InputEvent> g_releases;  // releases for after the next frame (they hold nothing back)
std::vector<InputEvent> g_waiting;   // in arrival order, behind a release or press that must wait for a frame

bool IsModifier(int key) {
  return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL || key == GLFW_KEY_LEFT_SHIFT ||
         key == GLFW_KEY_RIGHT_SHIFT || key == GLFW_KEY_LEFT_ALT || key == GLFW_KEY_RIGHT_ALT ||
         key == GLFW_KEY_LEFT_SUPER || key == GLFW_KEY_RIGHT_SUPER;
}

// Applies e now (or sets its release aside), or returns false when it and everything after it must wait.
bool ApplyInput(const InputEvent& e) {
  ImGuiIO& io = ImGui::GetIO();
  switch (e.kind) {
    case InputEvent::kKey: {
      const bool known = e.key >= 0 && e.key <= GLFW_KEY_LAST;
      if (known && e.action == GLFW_RELEASE && g_pressed_since_frame[e.key]) {
        if (IsModifier(e.key)) return false;
        g_release_waits[e.key] = true;
        g_releases.push_back(e);
        return true;
      }
      if (known && e.action != GLFW_RELEASE && g_release_waits[e.key]) return false;
      if (known && e.action == GLFW_PRESS) g_pressed_since_frame[e.key] = true;
      ImGui_ImplGlfw_KeyCallback(g_window, e.key, e.scancode, e.action, e.mods);
      return true;
    }
    case InputEvent::kChar: io.AddInputCharacter(e.codepoint); return true;
    case InputEvent::kText: io.AddInputCharactersUTF8(e.text.c_str()); return true;
  }
  return true;
}

void QueueInput(InputEvent e) {
  if (g_waiting.empty() && ApplyInput(e)) return;
  g_waiting.push_back(std::move(e));
}

void KeyCallback(GLFWwindow*, int key, int scancode, int action, int mods) {
  QueueInput({InputEvent::kKey, key, scancode, action, mods, 0, {}});
}
void CharCallback(GLFWwindow*, unsigned codepoint) { QueueInput({InputEvent::kChar, 0, 0, 0, 0, codepoint, {}}); }

// After a frame has seen the keys down: the set-aside releases go in (seen as up by the next frame), then the
// waiting events, in order, up to the next one that needs a frame of its own.
void ReleaseDeferredKeys() {
  std::fill(std::begin(g_pressed_since_frame), std::end(g_pressed_since_frame), false);
  std::fill(std::begin(g_release_waits), std::end(g_release_waits), false);
  if (g_releases.empty() && g_waiting.empty()) return;
  for (const InputEvent& e : g_releases) ImGui_ImplGlfw_KeyCallback(g_window, e.key, e.scancode, GLFW_RELEASE, e.mods);
  g_releases.clear();
  std::size_t applied = 0;
  while (applied < g_waiting.size() && ApplyInput(g_waiting[applied])) ++applied;
  g_waiting.erase(g_waiting.begin(), g_waiting.begin() + static_cast<std::ptrdiff_t>(applied));
  WakeUp();
}

EM_BOOL Wake(int, const void*, void*) {
  WakeUp();
  return EM_FALSE;  // do not consume: GLFW and the browser still see the event
}

// The wheel, as a normal page would scroll (app_wheel.cpp): Emscripten 3.1.6's GLFW reduces every event to
// +-1 "notch" with the wrong sign for ImGui and loses the delta mode, so its scroll callback is off and this
// handler feeds ImGui directly. Consumed: the page itself never scrolls.
void FeedWheel(double delta_x, double delta_y, int delta_mode, bool shift) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  gpucost::app::WheelInput in;
  in.delta_x = delta_x;
  in.delta_y = delta_y;
  in.delta_mode = delta_mode;
  in.shift = shift;
  in.device_pixel_ratio = g_dpr > 0 ? g_dpr : emscripten_get_device_pixel_ratio();
  in.page_css_px = css_h;
  ImGuiIO& io = ImGui::GetIO();
  in.font_px = io.Fonts->Fonts.Size > 0 ? io.Fonts->Fonts[0]->FontSize : 0;
  const gpucost::app::WheelSteps steps = gpucost::app::WheelToImGui(in);
  io.MouseWheel += steps.vertical;
  io.MouseWheelH += steps.horizontal;
}

EM_BOOL OnWheel(int, const EmscriptenWheelEvent* e, void*) {
  FeedWheel(e->deltaX, e->deltaY, static_cast<int>(e->deltaMode), e->mouse.shiftKey);
  WakeUp();
  return EM_TRUE;
}

// A mouse moved (or pressed): the mouse has the pointer again after a finger had it.
EM_BOOL OnMouse(int, const EmscriptenMouseEvent*, void*) {
  g_touch.pointer_from_touch = false;
  WakeUp();
  return EM_FALSE;
}

// The finger's part of the next frame (app_touch.cpp): pointer, button and scrolling, in ImGui's device pixels.
void ApplyTouch() {
  const gpucost::app::TouchFrame f = gpucost::app::TouchForFrame(g_touch, emscripten_get_now());
  g_touch_wants_frames = f.wants_frames;
  if (!f.own_pointer) return;
  ImGuiIO& io = ImGui::GetIO();
  const double dpr = g_dpr > 0 ? g_dpr : emscripten_get_device_pixel_ratio();
  io.MousePos = f.has_pointer ? ImVec2(static_cast<float>(f.x * dpr), static_cast<float>(f.y * dpr)) : ImVec2(-FLT_MAX, -FLT_MAX);
  for (bool& down : io.MouseDown) down = false;
  io.MouseDown[0] = f.down;
  if (f.scroll_dx != 0 || f.scroll_dy != 0) FeedWheel(f.scroll_dx, f.scroll_dy, 0, false);
}

// A cheap fingerprint of what a frame draws (vertices, indices, clip rectangles, textures): two equal in a row
// mean the layout has settled.
std::uint64_t DrawHash(const ImDrawData* d) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* p, std::size_t n) {
    const unsigned char* b = static_cast<const unsigned char*>(p);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, b + i, 8);
      h = (h ^ w) * 1099511628211ull;
    }
    for (; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  if (!d) return h;
  for (int n = 0; n < d->CmdListsCount; ++n) {
    const ImDrawList* l = d->CmdLists[n];
    mix(l->VtxBuffer.Data, static_cast<std::size_t>(l->VtxBuffer.Size) * sizeof(ImDrawVert));
    mix(l->IdxBuffer.Data, static_cast<std::size_t>(l->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : l->CmdBuffer) {
      mix(&c.ClipRect, sizeof c.ClipRect);
      mix(&c.ElemCount, sizeof c.ElemCount);
      const void* tex = c.TextureId;
      mix(&tex, sizeof tex);
    }
  }
  return h;
}

// clang-format off
EM_JS(void, gpucost_js_set_mirror, (const char* html, const char* lang), {
  var m = document.getElementById('text-mirror');
  if (!m) return;
  m.lang = UTF8ToString(lang);
  m.innerHTML = UTF8ToString(html);
});
// clang-format on

// The hidden text mirror of the result (index.html #text-mirror) follows each evaluation and Monte Carlo run.
long g_mirrored_evaluation = -1;  // what the mirror shows: this evaluation, with or without the spread
bool g_mirrored_spread = false;

void SyncTextMirror() {
  const bool spread = g_app.charts.mc.have_summary && !g_app.charts.mc.stale;
  if (g_app.evaluations == g_mirrored_evaluation && spread == g_mirrored_spread) return;
  g_mirrored_evaluation = g_app.evaluations;
  g_mirrored_spread = spread;
  gpucost_js_set_mirror(gpucost::app::AppTextMirror(g_app).c_str(), gpucost::app::AppTextMirrorLang());
}

void BuildFonts(float dpr) {
  gpucost::app::AppApplyUiScale(g_app, dpr);
  gpucost::web::RendererCreateFontTexture();
}

// Follows the canvas's CSS size and the device pixel ratio: the backbuffer is always in device pixels and
// ImGui works in device pixels too (the GLFW port reports the mouse in backbuffer pixels), so text is crisp.
void SyncCanvasSize() {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const double dpr = emscripten_get_device_pixel_ratio();
  const int w = static_cast<int>(std::lround(css_w * dpr)), h = static_cast<int>(std::lround(css_h * dpr));
  if (w > 0 && h > 0 && (w != g_width_px || h != g_height_px)) {
    g_width_px = w;
    g_height_px = h;
    // Not glfwSetWindowSize: Emscripten's GLFW requests fullscreen (and pointer lock) when the size equals
    // the screen's, which is exactly the case of a full-window canvas at devicePixelRatio 1.
    emscripten_set_canvas_element_size("#canvas", w, h);
    WakeUp();
  }
  if (dpr != g_dpr) {
    g_dpr = dpr;
    BuildFonts(static_cast<float>(dpr));
    WakeUp();
  }
}

// Korean input (index.html's hidden #ime-input): focused while ImGui wants text, placed at the text cursor so
// the IME's candidate window appears there; the committed text arrives through gpucost_ime_commit().
bool g_fonts_changed = false;  // a font arrived (gpucostFetchFont): rebuild the atlas before the next frame
bool g_strings_changed = false;  // a string table arrived (gpucostFetchStrings): install it
bool g_ime_focused = false;
EM_JS(void, gpucost_js_ime_focus, (int on), {
  var ime = document.getElementById('ime-input');
  if (!ime) return;
  if (on) ime.focus({preventScroll: true}); else if (document.activeElement === ime) { ime.blur(); Module.canvas.focus(); }
});
EM_JS(void, gpucost_js_ime_position, (int x, int y), {
  var ime = document.getElementById('ime-input'), d = window.devicePixelRatio || 1;
  if (ime) { ime.style.left = (x / d) + 'px'; ime.style.top = (y / d) + 'px'; }
});
void ImePosition(int x, int y) { gpucost_js_ime_position(x, y); }

void FollowTextInput() {
  const bool want = ImGui::GetIO().WantTextInput;
  if (want == g_ime_focused) return;
  g_ime_focused = want;
  gpucost_js_ime_focus(want ? 1 : 0);
}

// The code split (index.html): after the first frame the page fetches app.deferred.wasm in the background. A
// frame drawn while that fetch is under way could call a function the first frames never ran, which loads the
// same file a second time, synchronously (seen on the Korean page: app.deferred.wasm fetched twice). So the
// frames after the first wait for the fetch to settle (arrived or failed); what happens meanwhile (input, a
// resize, a font) is queued and drawn once it has. 1 while they must wait; starts the fetch if not yet asked, and
// the data files' fetches after the first frame even when a first frame loaded the module itself (a stale list):
// without them the string table's rest and the offers would wait until a lookup read them synchronously.
EM_JS(int, gpucost_js_deferred_pending, (), {
  if (typeof gpucostDeferred === 'undefined' || !Module.gpucostSplit) return 0;
  gpucostFetchDeferred();  // (each file once: gpucostFetchFile keeps its promise)
  return gpucostDeferred.requested && !gpucostDeferred.instance && !gpucostDeferred.failed ? 1 : 0;
});
bool g_deferred_settled = false;

void Frame() {
  if (g_app.frames > 0 && !g_deferred_settled) {
    if (gpucost_js_deferred_pending()) return;
    g_deferred_settled = true;
  }
  gpucost::web::RendererPoll();
  if (g_fonts_changed) {
    g_fonts_changed = false;
    BuildFonts(static_cast<float>(g_dpr > 0 ? g_dpr : emscripten_get_device_pixel_ratio()));
    WakeUp();
  }
  if (g_strings_changed) {
    g_strings_changed = false;
    gpucost::app::AppLanguageTablesArrived(g_app);
  }
  static bool renderer_error_shown = false;  // a failed shader program: say so once, where errors show
  if (!renderer_error_shown && *gpucost::web::RendererError()) {
    renderer_error_shown = true;
    g_app.error = gpucost::web::RendererError();
    WakeUp();
  }
  SyncCanvasSize();
  const bool settling = g_wake_frames > 0 || g_settle_frames > 0;
  if (!settling && !g_app.busy && !g_app.dirty && !g_touch_wants_frames) return;  // idle: draw nothing, burn nothing
  if (g_wake_frames > 0) --g_wake_frames;
  if (g_settle_frames > 0) --g_settle_frames;
  glfwPollEvents();
  ImGui_ImplGlfw_NewFrame();
  ApplyTouch();
  ImGuiIO& io = ImGui::GetIO();
  const bool held = g_press.held;
  io.MouseDown[0] = gpucost::app::PressForFrame(g_press, io.MousePos.x, io.MousePos.y, io.MouseDown[0]);
  if (g_press.held && !held) WakeUp();  // the press plays in the next frame
  io.DisplaySize = ImVec2(static_cast<float>(g_width_px), static_cast<float>(g_height_px));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  ImGui::NewFrame();
  gpucost::app::AppFrame(g_app);
  ImGui::Render();
  const std::uint64_t hash = DrawHash(ImGui::GetDrawData());
  g_same_frames = hash == g_last_draw_hash ? g_same_frames + 1 : 0;
  g_last_draw_hash = hash;
  if (g_wake_frames <= 0 && g_same_frames >= 2) g_settle_frames = 0;  // settled: the loop may sleep
  if (g_app.busy || g_app.dirty || g_touch_wants_frames) g_settle_frames = std::max(g_settle_frames, kMinWakeFrames);
  FollowTextInput();
  SyncTextMirror();
  ReleaseDeferredKeys();
  glViewport(0, 0, g_width_px, g_height_px);
  glClearColor(0.08f, 0.09f, 0.11f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  gpucost::web::RendererDraw(ImGui::GetDrawData(), g_width_px, g_height_px);
}

}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE long gpucost_frames() { return g_app.frames; }
// 1 while the main loop sleeps (everything drawn has settled and nothing is running), for tests.
EMSCRIPTEN_KEEPALIVE int gpucost_idle() {
  return g_wake_frames <= 0 && g_settle_frames <= 0 && !g_app.busy && !g_app.dirty && !g_touch_wants_frames ? 1 : 0;
}
// One finger (index.html's touch handler): kind 0 start, 1 move, 2 end or cancel; CSS pixels, ms.
EMSCRIPTEN_KEEPALIVE void gpucost_touch(int kind, double x, double y, double ms) {
  g_app.touch = true;  // a finger: no hover, help opens on a tap (issue 47)
  if (kind == 0) gpucost::app::TouchStart(g_touch, x, y, ms);
  else if (kind == 1) gpucost::app::TouchMove(g_touch, x, y, ms);
  else gpucost::app::TouchEnd(g_touch, x, y, ms);
  g_touch_wants_frames = true;
  WakeUp();
}
EMSCRIPTEN_KEEPALIVE void gpucost_wake() { WakeUp(); }
EMSCRIPTEN_KEEPALIVE const char* gpucost_scenario() {
  g_out = gpucost::ScenarioToJson(g_app.scenario, false);
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_result() {
  gpucost::app::AppRefresh(g_app);
  g_out = gpucost::ResultToJson(g_app.scenario, g_app.result);
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_load(const char* json_text) {
  g_out = gpucost::app::AppLoadScenario(g_app, json_text ? json_text : "");
  WakeUp();
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_error() { return g_app.error.c_str(); }
EMSCRIPTEN_KEEPALIVE const char* gpucost_notice() { return g_app.notice.c_str(); }
EMSCRIPTEN_KEEPALIVE const char* gpucost_link() {
  return gpucost::app::AppLink(g_app).c_str();
}
// Opens a share link (the page's hashchange handler). Returns "" or the error message.
EMSCRIPTEN_KEEPALIVE const char* gpucost_open_link(const char* link) {
  g_out = gpucost::app::AppOpenLink(g_app, link ? link : "");
  WakeUp();
  return g_out.c_str();
}
// "[issued,done]": when the first frame's draw calls were issued and when the GPU had finished them, in ms since
// navigation (-1 while not known yet). The browser tests report the second against the first-frame budget.
EMSCRIPTEN_KEEPALIVE const char* gpucost_first_frame_ms() {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%.1f,%.1f]", gpucost::web::RendererFirstFrameIssuedMs(),
                gpucost::web::RendererFirstFrameDoneMs());
  g_out = buf;
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE int gpucost_busy() { return g_app.busy ? 1 : 0; }
// window.gpucost.view(name): the JSON document of what that view shows (the CLI's --format json), "" until
// computed; show(name) opens the view and starts its computation (app_views.cpp).
EMSCRIPTEN_KEEPALIVE const char* gpucost_view(const char* name) {
  g_out = gpucost::app::AppViewDocument(g_app, name ? name : "");
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE int gpucost_show(const char* name) {
  const bool known = gpucost::app::AppShowView(g_app, name ? name : "");
  WakeUp();
  return known ? 1 : 0;
}
// Language and fonts (app_lang.cpp): window.gpucost.lang(), setLang(code), missingGlyphs(), fonts().
EMSCRIPTEN_KEEPALIVE void gpucost_fonts_changed() {
  g_fonts_changed = true;
  WakeUp();
}
EMSCRIPTEN_KEEPALIVE void gpucost_files_changed() { WakeUp(); }  // a data file arrived (the evidence view)
EMSCRIPTEN_KEEPALIVE void gpucost_strings_changed() {
  g_strings_changed = true;
  WakeUp();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_lang() { return gpucost::LanguageCode(gpucost::CurrentLanguage()); }
EMSCRIPTEN_KEEPALIVE const char* gpucost_set_lang(const char* code) {
  gpucost::Lang lang;
  if (!code || !gpucost::ParseLanguage(code, &lang)) return "unknown language (en or ko)";
  gpucost::app::AppSetLanguage(g_app, lang);
  WakeUp();
  return "";
}
// The keys looked up since recording began (the profile of the first frames), as a JSON array.
EMSCRIPTEN_KEEPALIVE const char* gpucost_looked_up_keys() {
  g_out = "[";
  for (const std::string& k : gpucost::LookedUpKeys()) g_out += (g_out.size() > 1 ? ",\"" : "\"") + k + "\"";
  g_out += "]";
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_missing_glyphs() {
  g_out = "[";
  for (unsigned cp : gpucost::app::AppMissingGlyphs(gpucost::CurrentLanguage()))
    g_out += (g_out.size() > 1 ? "," : "") + std::to_string(cp);
  g_out += "]";
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_fonts() {  // the fonts in the atlas, e.g. ["ProggyClean.ttf, 13px","ko-ui.ttf"]
  g_out = "[";
  for (const ImFontConfig& c : ImGui::GetIO().Fonts->ConfigData) g_out += std::string(g_out.size() > 1 ? "," : "") + "\"" + c.Name + "\"";
  g_out += "]";
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpucost_drawn_text(const char* id) {  // RecordText(), "" when none
  g_out.clear();
  for (const gpucost::app::DrawnText& t : g_app.texts)
    if (id && std::strcmp(t.id, id) == 0) g_out = t.text;
  return g_out.c_str();
}
// Text committed by an input method (or inserted without keys) into the active text field.
EMSCRIPTEN_KEEPALIVE void gpucost_ime_commit(const char* utf8) {
  if (utf8 && *utf8) QueueInput({InputEvent::kText, 0, 0, 0, 0, 0, utf8});  // in order with the keys
  WakeUp();
}
// Where a named widget was drawn in the last frame, "[x0,y0,x1,y1]" in device pixels, or "" (tests).
EMSCRIPTEN_KEEPALIVE const char* gpucost_widget_rect(const char* id, int index) {
  g_out.clear();
  for (const gpucost::app::WidgetRect& r : g_app.rects)
    if (r.index == index && id && std::strcmp(r.id, id) == 0) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "[%.1f,%.1f,%.1f,%.1f]", r.x0, r.y0, r.x1, r.y1);
      g_out = buf;
    }
  return g_out.c_str();
}

// The widgets drawn in the last frame that are cut at the right, '[["id",index,x0,x1],...]' (tests).
EMSCRIPTEN_KEEPALIVE const char* gpucost_clipped_widgets() {
  g_out = "[";
  for (const gpucost::app::WidgetRect& r : g_app.rects)
    if (r.clipped) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s[\"%s\",%d,%.1f,%.1f]", g_out.size() > 1 ? "," : "", r.id, r.index, r.x0, r.x1);
      g_out += buf;
    }
  g_out += "]";
  return g_out.c_str();
}
EMSCRIPTEN_KEEPALIVE int gpucost_widget_count() { return static_cast<int>(g_app.rects.size()); }

// Why the value last typed into a field was refused ("" when it was not): tests and automation.
EMSCRIPTEN_KEEPALIVE const char* gpucost_field_message(const char* path) {
  g_out.clear();
  const gpucost::FieldSpec* f = path ? gpucost::FindField(path) : nullptr;
  const std::size_t i = f ? static_cast<std::size_t>(f - gpucost::Fields()) : 0;
  if (f && i < g_app.edits.size() && g_app.edits[i].rejected) g_out = g_app.edits[i].message;
  return g_out.c_str();
}

// A scrolling panel's position in the last frame, "[x,y,max_x,max_y]" in device pixels, or "" (tests).
EMSCRIPTEN_KEEPALIVE const char* gpucost_scroll(const char* id) {
  g_out.clear();
  for (const gpucost::app::ScrollPos& p : g_app.scrolls)
    if (id && std::strcmp(p.id, id) == 0) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "[%.1f,%.1f,%.1f,%.1f]", p.x, p.y, p.max_x, p.max_y);
      g_out = buf;
    }
  return g_out.c_str();
}
}

int main() {
  // The first-frame profile (scripts/profile_first_frame.sh) records the string-table keys the page looks up.
  if (EM_ASM_INT({ return window.gpucostRecordKeys ? 1 : 0; })) gpucost::RecordKeyLookups(true);
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // ImGui needs no depth, stencil or alpha buffer; without them WebGL context creation is several times
  // faster under software GL (SwiftShader in headless Chromium: ~0.6 s instead of ~1.7 s).
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  g_window = glfwCreateWindow(1280, 800, "gpucost", nullptr, nullptr);
  if (!g_window) return 1;
  glfwMakeContextCurrent(g_window);
  if (!gpucost::web::RendererInit()) return 1;  // first: the GPU process compiles while the page works
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the browser
  ImGui::GetIO().BackendRendererName = "gpucost_webgl2";
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(g_window, true);
  glfwSetKeyCallback(g_window, KeyCallback);  // in front of ImGui's (see ReleaseDeferredKeys)
  glfwSetCharCallback(g_window, CharCallback);  // characters wait behind a deferred release (QueueInput)
  ImGui::GetIO().ImeSetInputScreenPosFn = ImePosition;
  gpucost::app::AppInit(g_app);
  g_app.touch = EM_ASM_INT({ return window.matchMedia && matchMedia('(pointer: coarse)').matches ? 1 : 0; }) != 0;  // a phone
  gpucost::app::AppInitLanguage(g_app);
  const std::string fragment = gpucost::platform::GetUrlFragment();
  if (fragment.rfind("s=", 0) == 0) gpucost::app::AppOpenLink(g_app, fragment);  // index.html#s=...
  emscripten_set_mousemove_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, OnMouse);
  emscripten_set_mousedown_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, OnMouse);
  emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, OnMouse);
  glfwSetScrollCallback(g_window, nullptr);  // OnWheel instead
  emscripten_set_wheel_callback("#canvas", nullptr, EM_FALSE, OnWheel);
  emscripten_set_keydown_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, reinterpret_cast<em_key_callback_func>(Wake));
  emscripten_set_keyup_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, reinterpret_cast<em_key_callback_func>(Wake));
  emscripten_set_keypress_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, reinterpret_cast<em_key_callback_func>(Wake));
  emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, reinterpret_cast<em_ui_callback_func>(Wake));
  Frame();  // the first frame now rather than at the next display refresh
  emscripten_set_main_loop(Frame, 0, false);
  return 0;
}
