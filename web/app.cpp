// app.cpp — application state transitions (load, link, pin, refresh) and the frame layout.
#include "documents/open.h"
#include "app.h"

#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID (a click outside the field being typed in ends its edit); windows, draw lists

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "base/assets.h"
#include "documents/catalog.h"
#include "documents/compare_csv.h"
#include "documents/result_json.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "documents/actual.h"
#include "documents/import.h"
#include "documents/inference_views.h"
#include "documents/link.h"
#include "platform.h"
#include "documents/probe_suggestions.h"
#include "documents/pricing_json.h"
#include "version.h"

namespace gpucost::app {
namespace {

const char* const kViewNames[] = {"Results", "Compare", "Charts", "Share & files", "Layouts", "Sensitivity", "Fleet", "Evidence", "Plan vs actual"};
const char* const kModelLabels[] = {"on-demand", "spot", "reserved", "owned"};

std::string LinkFragment(const std::string& link) {
  const std::size_t hash = link.find('#');
  return hash == std::string::npos ? link : link.substr(hash + 1);
}

// The longest start of `text` that fits in `width` pixels, ending in "..." when cut: cut between characters (a cut
// inside a UTF-8 sequence drew "?", the Korean status line's "비?..").
std::string FitText(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::size_t n = text.size();
  const auto inside_character = [&text](std::size_t at) { return (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80; };
  while (n > 0 && (inside_character(n) || ImGui::CalcTextSize((text.substr(0, n) + "...").c_str()).x > width)) --n;
  return text.substr(0, n) + "...";
}

// The fields whose last typed value was refused, as the status line names them: "2 fields refused (previous value
// kept): GPUs, MFU" ("" when none). Each sits in red further down the editor, perhaps scrolled away.
std::string RefusedFieldsText(const AppState& app) {
  std::string names;
  int count = 0;
  for (std::size_t i = 0; i < app.edits.size() && i < FieldCount(); ++i) {
    if (!app.edits[i].rejected) continue;
    char label[96];
    FieldLabel(Fields()[i], label, sizeof label);
    names += (count++ ? ", " : "") + std::string(label);
  }
  return count ? TrFormat("status.refused", {std::to_string(count), names}) : "";
}

// One line under the header, always there: a message never pushes the layout down, and a long one ends in
// "..." with the whole text in its tooltip. A phone has two lines, and a tap there shows the whole text (no hover on a
// touch screen), another folds it back. Refused fields are said there until fixed (an error comes first).
void StatusLine(AppState& app) {
  const std::string refused = RefusedFieldsText(app);
  const bool is_error = !app.error.empty() || !refused.empty();
  std::string text = refused;
  if (!app.error.empty() || refused.empty()) {
    text = !app.error.empty() ? app.error : app.notice;  // as set: in the page's language, or English with its code
    if (const AppState::CodedStatus& r = !app.error.empty() ? app.error_coded : app.notice_coded; !r.message.empty()) {
      const std::string prefix = r.subject.empty() ? "" : r.subject + ": ";
      if (text == prefix + r.message.Text(Lang::kEn))  // still that message: render its code
        text = prefix + r.message.Text(CurrentLanguage());
    }
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const bool dismissable = !app.error.empty();
  const float dismiss = dismissable ? ImGui::CalcTextSize(Tr("ui.dismiss")).x + style.FramePadding.x * 2 + style.ItemSpacing.x : 0;
  const float width = ImGui::GetContentRegionAvail().x - dismiss;
  // A phone has two lines for it, always (the layout never moves unless the text is tapped open): a message wraps at
  // its spaces rather than being cut mid-instruction (issue 47); longer still, the second line ends in "...".
  const bool two_lines = AppNarrow(app);
  const bool open = two_lines && app.status_open && ImGui::CalcTextSize(text.c_str()).x > width;
  std::string first = text, second;
  if (two_lines && !open && ImGui::CalcTextSize(text.c_str()).x > width) {
    const char* begin = text.c_str();
    const char* brk = ImGui::GetFont()->CalcWordWrapPositionA(1.0f, begin, begin + text.size(), width);
    first.assign(begin, brk);
    second = FitText(std::string(brk + (*brk == ' ')), width);
  }
  const std::string shown = open ? text : two_lines ? first : FitText(text, width);
  const ImVec4 color = is_error ? ImVec4(1, 0.45f, 0.35f, 1) : ImVec4(0.5f, 0.85f, 0.55f, 1);
  ImGui::BeginGroup();
  ImGui::AlignTextToFramePadding();
  if (text.empty()) {
    ImGui::TextDisabled("%s", Tr("ui.ready"));
  } else if (open) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + width);
    ImGui::TextColored(color, "%s", text.c_str());
    ImGui::PopTextWrapPos();
  } else {
    ImGui::TextColored(color, "%s", shown.c_str());
  }
  RecordRect(app, "status");
  if (two_lines && !open) ImGui::TextColored(color, "%s", second.empty() ? " " : second.c_str());  // the second line, always there
  ImGui::EndGroup();
  if (!text.empty()) RecordText(app, "status_text", text);  // what it says, whole (tests: in the page's language)
  RecordText(app, "status_shown", text.empty() ? std::string(Tr("ui.ready")) : open ? text : two_lines ? first + "\n" + second : shown);
  const bool cut = open || (two_lines ? first + second : shown) != text;
  if (two_lines && cut && ImGui::IsItemHovered() && ImGui::IsMouseClicked(0)) app.status_open = !open;  // a tap
  else if (!cut) app.status_open = false;
  if (!two_lines && cut && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (dismissable) {
    ImGui::SameLine();
    if (ImGui::Button((std::string(Tr("ui.dismiss")) + "###dismiss").c_str())) app.error.clear();
  }
}

void DrawHeader(AppState& app) {
  ImGui::Text("gpucost %s", GPUCOST_VERSION);
  ImGui::SameLine();
  DrawLanguageSwitch(app);  // first after the name: visible at any width
  const std::string tagline = std::string("- ") + Tr("ui.tagline");
  const float preset_width = ImGui::GetFontSize() * 22;  // DrawPresets' combo
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(tagline.c_str()).x + preset_width) {
    ImGui::TextDisabled("%s", tagline.c_str());
    ImGui::SameLine();
  }
  DrawPresets(app);
  StatusLine(app);
}

// Whether `w` is `panel` or a child window inside it (a table that scrolls sideways, a nested panel); popups and
// tooltips are windows of their own.
bool InsidePanel(const ImGuiWindow* w, const ImGuiWindow* panel) {
  for (; w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr)
    if (w == panel) return true;
  return false;
}

// The right-most point drawn this frame, as shown (clipped), in `panel` from its draw list's index `from` on (after
// its own scrollbar) and in the child windows inside it. A rule across a whole window is left out: ImGui's Separator
// spans its window whatever the content's width.
float DrawnRight(const ImGuiWindow* panel, unsigned from) {
  const ImGuiContext& g = *GImGui;
  float right = panel->InnerRect.Min.x;
  for (const ImGuiWindow* w : g.Windows) {
    if (w->LastFrameActive != g.FrameCount || !InsidePanel(w, panel)) continue;
    const ImDrawList& list = *w->DrawList;
    for (const ImDrawCmd& cmd : list.CmdBuffer)
      for (unsigned i = std::max(cmd.IdxOffset, w == panel ? from : 0u); i + 3 <= cmd.IdxOffset + cmd.ElemCount; i += 3) {
        ImVec2 lo(FLT_MAX, FLT_MAX), hi(-FLT_MAX, -FLT_MAX);
        bool seen = false;
        for (unsigned k = i; k < i + 3; ++k) {
          const ImDrawVert& v = list.VtxBuffer[static_cast<int>(cmd.VtxOffset + list.IdxBuffer[static_cast<int>(k)])];
          seen = seen || (v.col & IM_COL32_A_MASK) != 0;
          lo = ImMin(lo, v.pos);
          hi = ImMax(hi, v.pos);
        }
        const bool shown = seen && hi.x > cmd.ClipRect.x && lo.x < cmd.ClipRect.z && hi.y > cmd.ClipRect.y && lo.y < cmd.ClipRect.w;
        const bool rule = hi.y - lo.y <= 4 && lo.x <= w->Pos.x + 1 && hi.x >= w->Pos.x + w->Size.x - 1;  // 1 px, smoothed
        if (shown && !rule) right = std::max(right, std::min(hi.x, cmd.ClipRect.z));
      }
  }
  return right;
}

// The current panel's content ends a gap before its right edge: the panels have no window padding of their own
// (the editor's border on a laptop gives it some), so a table's last column, a right-aligned figure, a legend's
// percentages, a wrapped line's last word or a section's header touched the vertical scrollbar, or the screen's edge
// on a phone. The gap is the spacing between items. Every width taken from the panel is narrowed: a table or child of width
// 0, GetContentRegionAvail(), an item of width -1, text wrapped at the edge, a collapsing header.
void EndContentBeforeEdge() {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  window->WorkRect.Max.x -= gap;
  window->ParentWorkRect.Max.x -= gap;
  window->ContentRegionRect.Max.x -= gap;
}

// Records for tests the current panel's inner rectangle, up to its vertical scrollbar (`inner_id`), and how far right
// its content was drawn from index `from` of its draw list on (`drawn_id`).
void RecordPanelEdge(AppState& app, const char* inner_id, const char* drawn_id, int from) {
  const ImGuiWindow* panel = ImGui::GetCurrentWindow();
  const ImRect inner = panel->InnerRect;
  RecordRectAt(app, inner_id, -1, inner.Min.x, inner.Min.y, inner.Max.x, inner.Max.y);
  RecordRectAt(app, drawn_id, -1, inner.Min.x, inner.Min.y, DrawnRight(panel, static_cast<unsigned>(from)), inner.Max.y);
}

// The editor's panel, its content a gap before its edge as the views' (tests: "editor_inner", "editor_drawn").
void DrawEditor(AppState& app, ImVec2 size, bool border) {
  ImGui::BeginChild("editor", size, border);
  EndContentBeforeEdge();
  const int from = ImGui::GetWindowDrawList()->IdxBuffer.Size;
  DrawScenarioEditor(app);
  RecordScroll(app, "editor");
  RecordPanelEdge(app, "editor_inner", "editor_drawn", from);
  ImGui::EndChild();
  RecordRect(app, "editor");
}

// A sideways swipe (or wheel) over the tab strip scrolls the tabs, as a phone's tab strips do: it is how a thumb
// reaches the tabs past the screen's edge (issue 47: it panned the whole page instead, which the page's window no
// longer does). ImGui 1.86's tab bar scrolls only by its arrows; its scroll position is set here directly.
void ScrollTabStrip() {
  ImGuiContext& g = *GImGui;
  ImGuiTabBar* bar = g.CurrentTabBar;
  if (!bar || g.IO.MouseWheelH == 0 || g.HoveredWindow != g.CurrentWindow ||
      !ImGui::IsMouseHoveringRect(bar->BarRect.Min, bar->BarRect.Max, false))
    return;
  const float step = std::floor(2 * ImGui::GetFontSize());  // ImGui's own horizontal wheel step (app_wheel.cpp)
  bar->ScrollingTarget = bar->ScrollingAnim = std::max(0.0f, bar->ScrollingTarget - g.IO.MouseWheelH * step);
}

// A view's panel (the child window under the tabs), its content a gap before its edge. Returns where its content
// starts in its draw list, for EndViewPanel. Tests read "view_window", the panel's inner rectangle ("view_inner": up
// to its vertical scrollbar) and how far right its content was drawn ("view_drawn").
int BeginViewPanel(AppState& app) {
  ImGui::BeginChild("view", ImVec2(0, 0), false);
  RecordWindow(app, "view_window");
  EndContentBeforeEdge();
  return ImGui::GetWindowDrawList()->IdxBuffer.Size;
}

void EndViewPanel(AppState& app, int from) {
  RecordScroll(app, "view");
  RecordPanelEdge(app, "view_inner", "view_drawn", from);
  ImGui::EndChild();
}

void DrawViews(AppState& app) {
  const bool narrow = AppNarrow(app);
  if (!ImGui::BeginTabBar("views", narrow ? ImGuiTabBarFlags_FittingPolicyScroll : 0)) return;
  ScrollTabStrip();
  if (narrow) {  // one column: the editor is a tab after the results (the headline comes first)
    const std::string results = std::string(Tr("view.0")) + "###view0";
    const bool open = ImGui::BeginTabItem(results.c_str(), nullptr, app.request_view == 0 ? ImGuiTabItemFlags_SetSelected : 0);
    RecordRect(app, "tab", 0);
    if (open) {
      app.view = View::kResults;
      RecordText(app, "shown_view", ViewName(app.view));  // what the last frame drew (tests: after a tap)
      const int from = BeginViewPanel(app);
      DrawResults(app);
      EndViewPanel(app, from);
      ImGui::EndTabItem();
    }
    const bool edit = ImGui::BeginTabItem((std::string(Tr("share.scenario")) + "###scenario_tab").c_str());
    RecordRect(app, "tab_editor");
    if (edit) {
      RecordText(app, "shown_view", "Scenario");
      DrawEditor(app, ImVec2(0, 0), false);
      ImGui::EndTabItem();
    }
  }
  for (int v = narrow ? 1 : 0; v < static_cast<int>(View::kCount); ++v) {
    const ImGuiTabItemFlags flags = app.request_view == v ? ImGuiTabItemFlags_SetSelected : 0;
    const std::string key = "view." + std::to_string(v);  // a view without a translation keeps its English name
    const std::string tab = std::string(HasTranslation(Lang::kEn, key.c_str()) ? Tr(key.c_str()) : kViewNames[v]) + "###view" +
                            std::to_string(v);
    const bool open = ImGui::BeginTabItem(tab.c_str(), nullptr, flags);
    RecordRect(app, "tab", v);
    if (!open) continue;
    app.view = static_cast<View>(v);
    RecordText(app, "shown_view", ViewName(app.view));
    const int from = BeginViewPanel(app);
    switch (app.view) {
      case View::kResults: DrawResults(app); break;
      case View::kCompare: DrawCompare(app); break;
      case View::kCharts: DrawCharts(app); break;
      case View::kPlan: DrawPlan(app); break;
      case View::kShare: DrawShare(app); break;
      case View::kSensitivity: DrawSensitivity(app); break;
      case View::kFleet: DrawFleet(app); break;
      case View::kEvidence: DrawEvidence(app); break;
      case View::kActual: DrawActual(app); break;
      case View::kCount: break;
    }
    EndViewPanel(app, from);
    ImGui::EndTabItem();
  }
  app.request_view = -1;
  ImGui::EndTabBar();
}

}  // namespace

const char* ViewName(View v) { return kViewNames[static_cast<int>(v)]; }

void AppInit(AppState& app) {
  SetAssetLoader(platform::DataFileNow);  // the files the page fetches rather than embeds (the offers)
  SetAssetProbe(platform::DataFileArrived);  // whether one has arrived (a tooltip's help: loading until then)
  app.scenario = DefaultScenario();
  app.edits.assign(FieldCount(), FieldEdit{});
  app.paste.assign(kPasteCapacity, '\0');
  app.dirty = true;
  app.link_stale = true;
  AppRefresh(app);
}

void AppRefresh(AppState& app) {
  if (app.edits.size() != FieldCount()) app.edits.assign(FieldCount(), FieldEdit{});
  if (app.dirty) {
    app.problems = ValidateScenario(app.scenario);
    app.result = app.problems.empty() ? Evaluate(app.scenario) : Result{};
    if (const std::string bad = NonFiniteResultPath(app.result); app.result.ok && !bad.empty()) {
      app.problems.push_back(CodedError("", OutOfRangeMessage(bad)));  // never shows inf or NaN as a result
      app.result = Result{};
    }
    ++app.evaluations;
    if (!app.preset_id.empty() && ScenarioToJson(app.scenario, false) != app.preset_json) app.preset_id.clear();
    app.charts.gpus.stale = app.charts.interval.stale = app.charts.mc.stale = true;
    if (app.charts.mc.run) app.charts.mc.run->Cancel();
    app.dirty = false;
    app.link_stale = true;
  }
  if (app.write_fragment) {  // the address bar follows the user's edits
    platform::SetUrlFragment(LinkFragment(AppLink(app)));
    app.write_fragment = false;
  }
}

const std::string& AppLink(AppState& app) {
  if (app.dirty) AppRefresh(app);
  if (app.link_stale) {
    LinkPayload payload{app.scenario, {}};
    for (const Pinned& p : app.pinned) payload.pinned.push_back(p.scenario);
    app.link = EncodeLink(payload, platform::PageAddress());
    app.link_stale = false;
  }
  return app.link;
}

void AppApplyUiScale(AppState& app, float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = std::round(13.0f * scale);
  // ImGui's own font draws "·" as one square pixel: the middle dot comes from the Korean fonts (which lay it at
  // their letters' middle), from ImGui's font only until one has arrived.
  static const ImWchar kLatin1[] = {0x20, 0xB6, 0xB8, 0xFF, 0}, kMiddleDot[] = {0xB7, 0xB7, 0};
  cfg.GlyphRanges = kLatin1;
  io.Fonts->AddFontDefault(&cfg);
  AppAddFonts(scale);  // Hangul, ₩ and "·", from the Korean fonts that have arrived (app_lang.cpp)
  cfg.MergeMode = true;
  cfg.GlyphRanges = kMiddleDot;
  io.Fonts->AddFontDefault(&cfg);
  io.Fonts->Build();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  app.ui_scale = scale;
}

const std::vector<PresetInfo>& AppPresets(AppState& app) {
  if (!app.presets_read) {
    app.presets = Presets();
    app.presets_read = true;
  }
  return app.presets;
}

void AppScenarioEdited(AppState& app) {
  app.dirty = true;
  app.write_fragment = true;
  app.notice.clear();
  app.error.clear();  // a successful action: an earlier error no longer stands in the status line
}


// An error for the status line: the English text in `error` (gpucost_error()), the code to render it.
const std::string& AppSetError(AppState& app, const std::string& subject, const Message& message) {
  const std::string text = message.Text(Lang::kEn);
  app.error = subject.empty() ? text : subject + ": " + text;
  app.error_coded = {subject, message};
  return app.error;
}

void AppSetNotice(AppState& app, const Message& message) {
  app.notice = message.Text(Lang::kEn);
  app.notice_coded = {"", message};
}

std::string AppLoadScenario(AppState& app, const std::string& json_text) {
  const ImportGuess guess = ClassifyImport(json_text);  // load() says what it got: a result is no scenario
  if (guess.kind != ImportKind::kScenario && guess.kind != ImportKind::kPreset) {
    const ImportMessage refusal = ImportRefusal(guess, ImportUse::kScenarioArgument);
    if (!refusal.empty()) return AppSetError(app, "", refusal);
  }
  ScenarioParse p = ParseScenarioOrPreset(json_text);  // a preset file (assets/presets/) opens too
  if (!p.ok()) {
    if (p.errors.size() == 1 && guess.kind == ImportKind::kScenario && p.errors.front().message.rfind("malformed JSON", 0) == 0) {
      if (!p.errors.front().coded.empty()) return AppSetError(app, "", p.errors.front().coded);
      app.error = p.errors.front().Text();  // broken JSON: the parser names the place
      return app.error;
    }
    return AppSetError(app, "", {"import.scenario_errors", {std::to_string(p.errors.size()), InputErrorParam(p.errors.front())}});
  }
  app.scenario = p.scenario;
  app.edits.assign(FieldCount(), FieldEdit{});
  app.error.clear();
  AppScenarioEdited(app);
  AppRefresh(app);
  return "";
}

std::string AppOpenLink(AppState& app, const std::string& link) {
  LinkPayload payload;
  std::vector<InputError> errors;
  if (!DecodeLink(link, &payload, &errors)) {
    const Message why = LinkErrorMessage(errors);
    return AppSetError(app, "", {"msg.app.bad_link", {MessageParam::From(why)}});
  }
  app.scenario = payload.scenario;
  app.pinned.clear();
  for (const Scenario& s : payload.pinned) app.pinned.push_back({s, ValidateScenario(s).empty() ? Evaluate(s) : Result{}, {}, {}, ""});
  // Serving options pinned before sharing: where their prices came from, as before (the link carries the scenarios).
  if (Comparison options; PinnedServingOptions(app.scenario, payload.pinned, &options))
    for (std::size_t i = 0; i < app.pinned.size(); ++i) {
      app.pinned[i].note = options.columns[i].note_message;
      app.pinned[i].label = options.columns[i].label_message;
      app.pinned[i].price_source = options.price_source;
    }
  app.edits.assign(FieldCount(), FieldEdit{});
  app.error.clear();
  app.notice = payload.version < 2 ? Tr("link.older_form") : "";
  app.dirty = true;
  AppRefresh(app);
  return "";
}

std::string AppApplyProbe(AppState& app, const std::string& json_text) {
  ProbeParse p = ParseProbeJson(json_text);
  if (!p.ok()) {
    return AppSetError(app, "", {"msg.app.probe_error", {InputErrorParam(p.errors.front())}});
  }
  if (p.report.gpu_status != "ok") {
    return AppSetError(app, "", {"msg.app.probe_no_gpu", {p.report.gpu_status, p.report.gpu_message}});
  }
  Scenario s = app.scenario;
  const std::vector<std::string> set = ApplyProbe(p.report, &s);
  if (!ValidateScenario(s).empty()) {
    return AppSetError(app, "", {"msg.app.probe_invalid", {InputErrorParam(ValidateScenario(s).front())}});
  }
  app.scenario = s;
  app.edits.assign(FieldCount(), FieldEdit{});
  app.error.clear();
  AppScenarioEdited(app);
  std::string fields;
  for (const std::string& f : set) {
    fields += (fields.empty() ? "" : ", ") + f;
    if (const FieldSpec* spec = FindField(f.c_str())) {
      FieldEdit& e = app.edits[static_cast<std::size_t>(spec - Fields())];
      e.measured = true;
      e.measured_value = GetNumber(app.scenario, *spec);
    }
  }
  app.measured_from = TrFormat("app.probe_from", {p.report.host.hostname, p.report.created_utc});
  const Message mismatch = ProbeGpuMismatchMessage(p.report, app.scenario);
  const bool peak = std::find(set.begin(), set.end(), "cluster.peak_tflops") != set.end();
  AppSetNotice(app, {"fmt.probe_notice",
                     {fields.empty() ? MessageParam::Key("app.probe_nothing") : MessageParam::Key("app.probe_applied", {fields}),
                      mismatch.empty() ? MessageParam("") : MessageParam::Key("fmt.paren", {MessageParam::From(mismatch)}),
                      peak ? MessageParam::Key("fmt.then", {MessageParam::From(ProbeImportNote(p.report, app.scenario))}) : MessageParam("")}});
  return "";
}

// A model shape edited while workload.params is the default or the previous shape's count, and the user has
// not typed a count: the count follows the shape (as when a file gives the shape without params), rather
// than a 7B count beside a 70B shape.
void AppFollowShape(AppState& app, const Scenario& before) {
  const FieldSpec* params = FindField("workload.params");
  if (app.edits[static_cast<std::size_t>(params - Fields())].touched) return;
  const double current = app.scenario.workload.params;
  if (!IsDefault(app.scenario, *params) && current != ParamsFromShape(before)) return;
  if (const double n = ParamsFromShape(app.scenario); n > 0) app.scenario.workload.params = n;
}

bool AppFieldMeasured(const AppState& app, std::size_t index) {
  if (index >= app.edits.size() || !app.edits[index].measured) return false;
  return GetNumber(app.scenario, Fields()[index]) == app.edits[index].measured_value;
}

std::string AppLoadPreset(AppState& app, const std::string& id) {
  Scenario s = app.scenario;
  std::string err;
  if (!LoadPreset(id, &s, &err)) {
    app.error = err;
    return err;
  }
  app.scenario = s;
  app.preset_id = id;
  app.preset_json = ScenarioToJson(s, false);
  app.edits.assign(FieldCount(), FieldEdit{});
  app.error.clear();
  AppScenarioEdited(app);
  AppSetNotice(app, {"msg.app.loaded_preset", {id}});
  return "";
}

std::string AppImportText(AppState& app, const std::string& name, const std::string& text) {
  if (IsRunInput(text)) return AppLoadRun(app, name, text);  // a run record or a training log: Plan vs actual
  const ImportGuess guess = ClassifyImport(text);  // say what it is, not one generic "bad link"
  if (const ImportMessage refusal = ImportRefusal(guess); !refusal.empty()) return AppSetError(app, name, refusal);
  std::string err;
  MessageParam what("");
  switch (guess.kind) {
    case ImportKind::kProbe:
      err = AppApplyProbe(app, text);
      if (err.empty()) return "";  // AppApplyProbe's notice says what was applied
      break;
    case ImportKind::kLink:
      err = AppOpenLink(app, text);
      what = app.pinned.empty() ? MessageParam::Key("msg.app.what_link")
                                : MessageParam::Key("msg.app.what_link_pinned", {std::to_string(app.pinned.size())});
      break;
    default:
      err = AppLoadScenario(app, text);
      what = MessageParam::Key(guess.kind == ImportKind::kPreset ? "msg.app.what_preset" : "msg.app.what_scenario");
      break;
  }
  if (!err.empty()) {
    if (!app.error_coded.message.empty() && app.error_coded.subject.empty() && app.error == err)
      app.error_coded.subject = name;  // refused with a code (a load, a link, a probe report): keep it, named after the file
    app.error = name + ": " + err;
    return app.error;
  }
  AppSetNotice(app, {"msg.app.loaded", {what, name}});
  app.write_fragment = true;
  app.link_stale = true;
  AppRefresh(app);
  return "";
}

bool AppPin(AppState& app) {
  AppRefresh(app);  // the column holds this scenario's result, never the one before an edit not yet evaluated
  if (app.pinned.size() >= kMaxPinned || !app.result.ok) return false;
  app.error.clear();
  app.pinned.push_back({app.scenario, app.result, {}, {}, ""});
  app.link_stale = app.write_fragment = true;
  return true;
}

bool AppHasUnsavedEdits(const AppState& app) {
  const std::string json = ScenarioToJson(app.scenario, false);
  if (json == ScenarioToJson(DefaultScenario(), false) || (!app.preset_id.empty() && json == app.preset_json)) return false;
  for (const Pinned& p : app.pinned)
    if (ScenarioToJson(p.scenario, false) == json) return false;
  return true;
}

void AppEditPinned(AppState& app, std::size_t index) {
  if (index >= app.pinned.size()) return;
  app.scenario = app.pinned[index].scenario;
  app.edits.assign(FieldCount(), FieldEdit{});
  AppScenarioEdited(app);
  AppSetNotice(app, {"msg.app.editing", {ScenarioLabel(app.scenario)}});
}

int AppPinPricingModels(AppState& app) {
  if (!app.result.ok) return 0;
  int pinned = 0;
  for (int m = 0; m < kModelCount && app.pinned.size() < kMaxPinned; ++m) {
    Scenario s = WithPricingModel(app.scenario, static_cast<PricingModel>(m));
    // The scenario's own name stays, with the model after it (issue 47: "h100-sxm x64 on-demand" replaced it, in
    // the columns, the CSV and the link); a scenario without a name is named by its GPUs and the model.
    const std::string name = app.scenario.name[0] ? std::string(app.scenario.name) + " (" + kModelLabels[m] + ")"
                                                  : std::string(s.cluster.gpu) + " x" + std::to_string(s.cluster.gpus) + " " + kModelLabels[m];
    std::snprintf(s.name, kNameCapacity, "%s", name.c_str());
    if (Utf8Length(s.name) > static_cast<long>(kNameMaxChars))  // a 200-character name: cut its end, keep the model
      std::snprintf(s.name, kNameCapacity, "%s", (ShortLabel(app.scenario.name, kNameMaxChars - 16) + " (" + kModelLabels[m] + ")").c_str());
    if (!ValidateScenario(s).empty()) continue;
    app.pinned.push_back({s, Evaluate(s), {}, {}, ""});
    ++pinned;
  }
  app.link_stale = app.write_fragment = true;
  return pinned;
}

void AppUnpin(AppState& app, std::size_t index) {
  if (index >= app.pinned.size()) return;
  app.pinned.erase(app.pinned.begin() + static_cast<std::ptrdiff_t>(index));
  app.link_stale = app.write_fragment = true;
}

// In documents and the notices' English text: the same in every language (the CLI's words).
std::string ScenarioLabel(const Scenario& s) { return ScenarioDisplayName(s, Lang::kEn); }

std::string PinnedLabel(const Pinned& p) {  // as shown: in the page's language ("h100-sxm 16장 온디맨드")
  if (!p.label.empty() && p.label.Text(Lang::kEn) == p.scenario.name) return p.label.Text(CurrentLanguage());
  return ScenarioDisplayName(p.scenario, CurrentLanguage());
}

std::string ShortLabel(const std::string& label, std::size_t max_chars) {
  std::size_t chars = 0, i = 0;
  for (; i < label.size(); ++i)
    if ((static_cast<unsigned char>(label[i]) & 0xC0) != 0x80 && chars++ == max_chars) break;
  return i < label.size() ? label.substr(0, i) + "..." : label;
}

std::string BatchSetNotice(std::int64_t batch_before, std::int64_t batch_after) {
  if (batch_before > 0 || batch_after <= 0) return "";
  return TrFormat("plan.batch_set", {FormatCount(static_cast<double>(batch_after))});
}

void Hint(const char* text) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", text);
  ImGui::PopTextWrapPos();
}

void SameLineIfRoom(const std::string& text) {
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(text.c_str()).x <
      ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine();
}

bool WrappedRow(AppState& app, const char* id, const char* text_id, int index, bool selected, const std::vector<RowLine>& lines) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // As wide as its widest line, at most what keeps the list on the screen: the screen less the list's padding, its
  // scrollbar and the screen's safe margins (a phone's list ran 591 px wide on a 390 px screen).
  const float limit = ImGui::GetIO().DisplaySize.x - 2 * (style.WindowPadding.x + style.DisplaySafeAreaPadding.x) - style.ScrollbarSize;
  float wrap = 1;
  for (const RowLine& l : lines) wrap = std::max(wrap, ImGui::CalcTextSize(l.text.c_str()).x);
  wrap = std::max(1.0f, std::min(wrap, limit));
  float height = 0, widest = 0;
  for (const RowLine& l : lines) {
    const ImVec2 size = ImGui::CalcTextSize(l.text.c_str(), nullptr, false, wrap);
    height += size.y;
    widest = std::max(widest, size.x);
  }
  // Where the Selectable puts its own label: its box reaches half the item spacing further left, past the list's clip
  // (text drawn at the box's edge lost its first glyph, "AWS" cut on every row).
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::PushID(index);
  const bool picked = ImGui::Selectable("##row", selected, ImGuiSelectableFlags_SpanAvailWidth, ImVec2(wrap, height));
  ImGui::PopID();
  RecordRect(app, id, index);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  float y = at.y;
  for (const RowLine& l : lines) {
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x, y), ImGui::GetColorU32(l.dimmed ? ImGuiCol_TextDisabled : ImGuiCol_Text),
                  l.text.c_str(), nullptr, wrap);
    y += ImGui::CalcTextSize(l.text.c_str(), nullptr, false, wrap).y;
  }
  RecordRectAt(app, text_id, index, at.x, at.y, at.x + widest, at.y + height);
  return picked;
}

bool WrappedCombo(AppState& app, const char* label, const char* text_id, const std::string& preview, int flags) {
  // As ImGui::BeginCombo (imgui_widgets.cpp) draws its box, but as tall as the wrapped preview.
  ImGuiContext& g = *GImGui;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return false;
  const ImGuiStyle& style = g.Style;
  const ImGuiID id = window->GetID(label);
  const float arrow = ImGui::GetFrameHeight();
  const float width = ImGui::CalcItemWidth();
  const float wrap = std::max(1.0f, width - arrow - style.FramePadding.x * 2);
  const ImVec2 text = ImGui::CalcTextSize(preview.c_str(), nullptr, false, wrap);
  const ImVec2 at = window->DC.CursorPos;
  const ImRect box(at, ImVec2(at.x + width, at.y + std::max(text.y, g.FontSize) + style.FramePadding.y * 2));
  ImGui::ItemSize(box, style.FramePadding.y);
  if (!ImGui::ItemAdd(box, id)) return false;
  bool hovered = false, held = false;
  const bool pressed = ImGui::ButtonBehavior(box, id, &hovered, &held);
  const ImGuiID popup = ImHashStr("##ComboPopup", 0, id);
  bool open = ImGui::IsPopupOpen(popup, ImGuiPopupFlags_None);
  if (pressed && !open) {
    ImGui::OpenPopupEx(popup, ImGuiPopupFlags_None);
    open = true;
  }
  const float value_right = std::max(box.Min.x, box.Max.x - arrow);
  ImDrawList* draw = window->DrawList;
  draw->AddRectFilled(box.Min, ImVec2(value_right, box.Max.y), ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg),
                      style.FrameRounding, ImDrawFlags_RoundCornersLeft);
  draw->AddRectFilled(ImVec2(value_right, box.Min.y), box.Max, ImGui::GetColorU32(open || hovered ? ImGuiCol_ButtonHovered : ImGuiCol_Button),
                      style.FrameRounding, ImDrawFlags_RoundCornersRight);
  ImGui::RenderArrow(draw, ImVec2(value_right + style.FramePadding.y, box.Min.y + style.FramePadding.y), ImGui::GetColorU32(ImGuiCol_Text),
                     ImGuiDir_Down, 1.0f);
  ImGui::RenderFrameBorder(box.Min, box.Max, style.FrameRounding);
  const ImVec2 text_at(box.Min.x + style.FramePadding.x, box.Min.y + style.FramePadding.y);
  draw->AddText(g.Font, g.FontSize, text_at, ImGui::GetColorU32(ImGuiCol_Text), preview.c_str(), nullptr, wrap);
  RecordRectAt(app, text_id, -1, text_at.x, text_at.y, text_at.x + text.x, text_at.y + text.y);
  RecordText(app, text_id, preview);
  return open && ImGui::BeginComboPopup(popup, box, flags);
}

bool DisplaysKrw(const Result& r) { return std::strcmp(r.display_currency, "KRW") == 0; }

namespace {
std::string FormatUsdShort(double v) { return FormatUsd(v); }
}  // namespace
MoneyFormat ShortMoneyFormat(const Result& r) { return DisplaysKrw(r) ? static_cast<MoneyFormat>(FormatKrwShort) : FormatUsdShort; }
namespace {
std::string FormatUsdDigits(double v, int significant) { return FormatUsd(v, significant); }
std::string FormatKrwDigits(double v, int significant) { return FormatKrwShort(v, significant); }
}  // namespace
DigitsMoneyFormat ShortMoneyDigits(const Result& r) { return DisplaysKrw(r) ? FormatKrwDigits : FormatUsdDigits; }

std::string FormatDisplayMoney(const Result& r, double usd) {  // core/base/format.h: ₩303,041,850 / 3억 304만 원
  return FormatMoney(usd * r.display_per_usd, r.display_currency);
}

namespace {
void StoreRect(AppState& app, const WidgetRect& rect) {  // replaces the rectangle of the same id and index
  for (WidgetRect& r : app.rects)
    if (r.index == rect.index && std::strcmp(r.id, rect.id) == 0) return void(r = rect);
  app.rects.push_back(rect);
}
}  // namespace

void RecordText(AppState& app, const char* id, const std::string& text) {
  for (DrawnText& t : app.texts)
    if (std::strcmp(t.id, id) == 0) {
      t.text = text;
      return;
    }
  app.texts.push_back({id, text});
}

void RecordRect(AppState& app, const char* id, int index, float content_width) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin(), clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  const bool clipped = a.x < clip_min.x - 1 || b.x > clip_max.x + 1 || content_width > b.x - a.x + 0.5f;
  StoreRect(app, {id, index, a.x, a.y, b.x, b.y, clipped});
}

float WidestWord(const std::string& text) {
  float widest = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find_first_of(" \n", start), text.size());
    if (end > start) widest = std::max(widest, ImGui::CalcTextSize(text.c_str() + start, text.c_str() + end).x);
    start = end + 1;
  }
  return widest;
}

void RecordCell(AppState& app, const char* id, int index, const std::string& text) {
  const ImGuiTable* table = ImGui::GetCurrentTable();
  const ImGuiTableColumn& column = table->Columns[table->CurrentColumn];
  if (column.IsVisibleX && column.ClipRect.Min.x <= column.MinX + 1 && column.ClipRect.Max.x >= column.MaxX - 1)
    RecordRect(app, id, index, WidestWord(text));
}

std::string HeaderToFit(const char* label, float body_width) {
  const std::string text = label;
  float best = ImGui::CalcTextSize(label).x;
  if (best <= body_width) return text;
  std::string two = text;
  for (std::size_t at = text.find(' '); at != std::string::npos; at = text.find(' ', at + 1)) {
    const float w = std::max(ImGui::CalcTextSize(label, label + at).x, ImGui::CalcTextSize(label + at + 1).x);
    if (w < best) {
      best = w;
      two = text.substr(0, at) + "\n" + text.substr(at + 1);
    }
  }
  return two;
}

void RecordWindow(AppState& app, const char* id) {
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  StoreRect(app, {id, -1, pos.x, pos.y, pos.x + size.x, pos.y + size.y, false});
}

void RecordRectAt(AppState& app, const char* id, int index, float x0, float y0, float x1, float y1, bool clipped) {
  StoreRect(app, {id, index, x0, y0, x1, y1, clipped});
}

bool AppNarrow(const AppState& app) {
  return ImGui::GetIO().DisplaySize.x / std::max(app.ui_scale, 0.5f) < kNarrowCssPx;
}

bool BeginFigureTable(const AppState& app, const char* id, int columns, int rows, int flags) {
  // A phone, or a panel narrower than a figure table needs (960x600 at 150%: the pricing table's amounts and 원
  // were cut): the columns keep their figures' widths and the table scrolls sideways (issue 30).
  const bool tight = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 9.5f * static_cast<float>(columns);
  if (!AppNarrow(app) && !tight) return ImGui::BeginTable(id, columns, flags);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float rows_height = (ImGui::GetTextLineHeight() + style.CellPadding.y * 2) * static_cast<float>(rows + 1);
  flags = (flags & ~ImGuiTableFlags_SizingMask_) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  return ImGui::BeginTable(id, columns, flags, ImVec2(0, SidewaysTableHeight(id, rows_height + style.ScrollbarSize)));
}

float SidewaysTableHeight(const char* id, float first) {
  // As tall as it drew itself the frame before: its rows, and the scrollbar only when it was shown (a phone whose
  // table fitted had an empty band under Total, kept for a bar never drawn).
  const ImGuiTable* last = ImGui::TableFindByID(ImGui::GetCurrentWindow()->GetID(id));
  if (!last || last->InnerWindow == last->OuterWindow) return first;
  return last->RowPosY2 - last->OuterRect.Min.y + (last->InnerWindow->ScrollbarX ? ImGui::GetStyle().ScrollbarSize : 0);
}

float BeginCellSpan(int last) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImGuiTableColumn& to = ImGui::GetCurrentTable()->Columns[last];
  const float saved = window->WorkRect.Max.x;
  window->WorkRect.Max.x = std::max(saved, to.WorkMaxX);  // SetNextItemWidth(-1), GetContentRegionAvail() reach it
  ImVec2 clip_max = window->DrawList->GetClipRectMax();
  clip_max.x = std::max(clip_max.x, to.ClipRect.Max.x);
  ImGui::PushClipRect(window->DrawList->GetClipRectMin(), clip_max, false);
  return saved;
}

void EndCellSpan(float saved_right) {
  ImGui::PopClipRect();
  ImGui::GetCurrentWindow()->WorkRect.Max.x = saved_right;
}

void NoteAcross(AppState& app, int last, const char* note, const char* id, int index) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float content_right = window->DC.CursorMaxPos.x;  // what sizes the column (ImGui's TableEndCell)
  const float saved = BeginCellSpan(last);
  Hint(note);
  RecordRect(app, id, index, WidestWord(note));
  EndCellSpan(saved);
  window->DC.CursorMaxPos.x = content_right;
}

void RecordScroll(AppState& app, const char* id) {
  const ScrollPos now{id, ImGui::GetScrollX(), ImGui::GetScrollY(), ImGui::GetScrollMaxX(), ImGui::GetScrollMaxY()};
  for (ScrollPos& p : app.scrolls)
    if (std::strcmp(p.id, id) == 0) {
      p = now;
      return;
    }
  app.scrolls.push_back(now);
}

namespace {

// A click outside the text field being typed in ends its edit before anything is drawn, so that every widget of the
// frame sees the click (issue 47: on a phone the tabs before the editor's, and any tab after typing, kept the old
// view until a second click). A click inside the field (the pointer was over it) moves its cursor as before.
void EndTextEditOnOutsideClick() {
  ImGuiContext& g = *GImGui;
  if (g.IO.MouseClicked[0] && g.ActiveId != 0 && g.InputTextState.ID == g.ActiveId && g.HoveredIdPreviousFrame != g.ActiveId)
    ImGui::ClearActiveID();
}

}  // namespace

void AppFrame(AppState& app) {
  EndTextEditOnOutsideClick();
  app.busy = false;  // panels doing sliced work set it again
  app.rects.clear();  // what this frame draws (a widget no longer drawn has no rectangle)
  std::string picked_name, picked_text;
  if (platform::TakePickedFile(&picked_name, &picked_text)) AppImportText(app, picked_name, picked_text);
  AppRefresh(app);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("gpucost", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoScrollWithMouse);  // its panels scroll; the page itself never pans (issue 47)
  DrawHeader(app);
  ImGui::Separator();
  if (AppNarrow(app)) {  // a phone: one column
    DrawViews(app);
  } else {
    // The editor on the left (its width follows the window, never so narrow that values are cut: 12 em of
    // names, 7 of units and at least 11 of values), the views on the right.
    const float avail = ImGui::GetContentRegionAvail().x, em = ImGui::GetFontSize();
    DrawEditor(app, ImVec2(std::min(std::max(em * 32, avail * 0.38f), avail * 0.6f), 0), true);
    ImGui::SameLine();
    ImGui::BeginChild("views", ImVec2(0, 0), false);
    DrawViews(app);
    ImGui::EndChild();
  }
  ImGui::End();
  AppRefresh(app);  // edits made this frame: evaluate now, so the next frame and the JS API see them
  AppFontsFollowText(app);
  ++app.frames;
}

}  // namespace gpucost::app
