// app.h — the page's explicit application state and its frame function. No platform code here: the same
// AppFrame() runs in the browser (main_web.cpp), in a native window and in the windowless UI smoke test.
// Host services (clipboard, downloads, file picking, URL fragment) go through platform.h.
//
// Panels: one file each, each a `void DrawX(AppState&)` over this state (no function statics):
//   ui_scenario.cpp  the editor, built from the field table (fields.h)
//   ui_results.cpp   headline figures, normal run vs failures, breakdowns, warnings
//   ui_compare.cpp   pinned scenarios as columns, CSV export
//   ui_charts.cpp    cost/time vs GPU count, cost vs checkpoint interval, buy vs cloud (sliced sweeps)
//   ui_presets.cpp   presets from the embedded assets
//   ui_share.cpp     share link, import/export, paste
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "documents/open.h"
#include "documents/compare.h"
#include "documents/inference_json.h"
#include "documents/result_json.h"
#include "scenario/fields.h"
#include "base/i18n.h"
#include "documents/import.h"
#include "scenario/json_io.h"
#include "documents/montecarlo_json.h"
#include "documents/catalog.h"
#include "documents/plan_json.h"
#include "documents/presets.h"
#include "documents/fleet_json.h"
#include "documents/inference_plan_json.h"
#include "documents/inference_sim_json.h"
#include "scenario/scenario.h"
#include "documents/sensitivity_json.h"
#include "documents/sweep_json.h"
#include "documents/pricing_json.h"
#include "documents/inference_json.h"

// What the first frame never runs (views other than Results, imports, the serving views): kept out of line so
// that the code split leaves it in app.deferred.wasm (scripts/split_wasm.py, docs/bundle-size.md) rather than
// link-time inlining folding it into the first frame's code.
#define GPUCOST_NOT_FIRST_FRAME __attribute__((noinline))

namespace gpucost::app {

enum class View : int { kResults = 0, kCompare, kCharts, kShare, kPlan, kSensitivity, kFleet, kEvidence, kActual, kCount };
const char* ViewName(View v);  // "Results", "Compare", ...

// The editor's memory of one field (index = the field's index in Fields()).
struct FieldEdit {
  bool rejected = false;  // the last value typed was out of range: shown with its error, not applied
  double typed = 0;       // that value
  bool touched = false;   // the user entered a value here since the scenario was loaded
  bool measured = false;  // set by a probe import (AppApplyProbe) to measured_value
  double measured_value = 0;
  std::string typed_text;  // what was typed when rejected (shown back as typed)
  std::string message;     // why it was rejected (ParseFieldInput), in English
  Message coded;           // the same as a key and parameters (shown in the page's language)
  bool editing = false;    // the field is being typed into; value_at_start is what it held before
  double value_at_start = 0;
  bool from_model = false;  // issue 18: filled by the model picker (ui_models.cpp) from workload.model
  bool error_shown = false;  // its error is drawn (and was scrolled into sight when it appeared while typing)
};

struct Pinned {
  Scenario scenario;
  Result result;
  Message note;   // where its prices come from (serving options; found again when a share link opens)
  Message label;  // its label as a key (serving options): shown in the page's language while the name is its English
  std::string price_source;  // the one source the serving options were priced from (issue 45): the comparison
                             // names it when every column shares it
};
// A pinned column's label as shown: its coded label in the page's language while the scenario's name is still that
// label's English text (issue 47), else ScenarioLabel.
std::string PinnedLabel(const Pinned& p);

// A sweep evaluated in slices across frames (a few points per frame, with a progress bar).
struct Sweep {
  std::vector<double> x, money, hours;  // x: GPUs or checkpoint interval (minutes); per completed job:
                                        // money in the display currency, hours of wall time
  std::vector<Scenario> points;       // the scenarios still to evaluate, in order of x
  std::size_t done = 0;               // points evaluated so far
  bool stale = true;                  // the scenario changed: rebuild before drawing
  bool Running() const { return !stale && done < points.size(); }
  double Progress() const { return points.empty() ? 1.0 : static_cast<double>(done) / points.size(); }
};

// The Monte Carlo simulation of the edited scenario, run in slices of about kMcSliceSeconds per frame.
struct McState {
  std::unique_ptr<MonteCarlo> run;  // in progress (or finished, until summarised)
  McSummary summary;                // of the last finished run
  bool have_summary = false;
  bool stale = true;                // the scenario changed since the last run
  bool auto_start = true;           // start when the charts are shown and the result is stale
  int trials = 2000;
  Message error;                    // why the run cannot start (shown in the page's language)
};
constexpr double kMcSliceSeconds = 0.012;
constexpr std::uint64_t kMcSeed = 1;

// The GPU-count sweep of core/explore/sweep.h (the document of `gpucost sweep --gpus`), run in slices.
struct GpuSweepState {
  std::unique_ptr<SweepRun> run;
  bool stale = true;
};

struct ChartsState {
  GpuSweepState gpus;       // cost and time vs GPU count
  Sweep interval;           // cost vs checkpoint interval
  McState mc;
};
constexpr int kSweepPointsPerFrame = 8;
constexpr std::size_t kPasteCapacity = 256 * 1024;

// Where a named widget was drawn in the last frame (device pixels): for tests and automation.
struct WidgetRect {
  const char* id = "";  // a string with static storage (a literal or a field path)
  int index = -1;       // for repeated widgets (pinned columns): which one
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool clipped = false;  // cut at the right: past its window's or cell's clip edge, or its text wider than it
};

// A scrolling panel's position in the last frame (device pixels): for tests and automation.
struct ScrollPos {
  const char* id = "";
  float x = 0, y = 0, max_x = 0, max_y = 0;
};

// The layout search (ui_plan.cpp), run in slices across frames.
struct PlanState {
  std::unique_ptr<PlanSearch> search;  // large fixed arrays: on the heap, created on first use
  Message error;                       // why the search cannot start (shown in the page's language)
  bool running = false;
  bool objective_cost = false;
  long for_evaluation = -1;  // app.evaluations when the search started
};

// Text drawn in the last frame under a name (for tests: what the page showed, e.g. the headline).
struct DrawnText {
  const char* id = "";  // static storage
  std::string text;
};

// The inference result's cost-latency frontier (ui_inference.cpp), recomputed when the scenario changes.
constexpr int kInferencePagePoints = 24;
struct InferencePageState {
  long for_evaluation = -1;  // app.evaluations it was computed for
  int count = 0;
  InferenceFrontierPoint points[kInferencePagePoints];
  ServingTechniqueEffects techniques;  // what speculation and prefix caching did (issue 47)
  long techniques_for = -1;
};

// The views of an inference scenario (ui_serving.cpp): the request simulation and the serving plan of the
// edited scenario, each computed once per evaluation, and their documents (gpucost mc / gpucost plan).
constexpr std::int64_t kServingPageRequests = 20000;  // simulated requests (gpucost mc --trials 20000 --seed 1)
// The page's work cap for that simulation (core/explore/inference_sim.h; issue 31): the presets' 20,000 requests of
// ~130 output tokens (2.6e6 request-steps) run whole; longer outputs simulate fewer requests, said on the page
// and in the document (gpucost mc --trials 20000 --seed 1 --max-work 3000000 gives the same document).
constexpr double kServingPageMaxWork = 3e6;
constexpr int kServingPlanTop = 10;                    // gpucost plan --top 10
struct ServingViewsState {
  InferenceSimResult sim;
  std::string sim_document;
  long sim_for = -1;   // app.evaluations it was computed for
  // The simulation under way (issue 31): kServingPlanSliceSeconds of it a frame, like the plan's search.
  std::unique_ptr<InferenceSimulation> sim_run;
  InferencePlan plan;  // plan.seconds: its wall time in this page, from the first slice to the last
  std::string plan_document;
  long plan_for = -1;
  // The search under way (issue 31: no frame blocked for more than 100 ms): kServingPlanSliceSeconds of search a frame.
  std::unique_ptr<InferencePlanSearch> plan_search;
  double plan_started = 0;  // Now() at its first slice
};
constexpr double kServingPlanSliceSeconds = 0.05;  // half the 100 ms frame budget: the rest draws (plan and simulation)

// The same job under the four pricing models (core/money/tco.h), shown in the Compare view.
struct PricingState {
  std::string document;      // PricingToJson, "" until computed
  PricingComparison comparison;
  long for_evaluation = -1;
};

// The sensitivity tornado of the edited scenario (ui_sensitivity.cpp): core's AnalyzeSensitivity document.
struct SensitivityState {
  std::string document;      // SensitivityToJson, "" until computed
  SensitivityResult result;
  long for_evaluation = -1;  // app.evaluations it was computed for
  int picked = -1;           // the input tapped on a touch screen: its bounds' source shown under the table
};

// The evidence view (ui_evidence.cpp): the published runs against the model, and where the edited scenario
// stands among them (core/evidence/evidence.h, the document of `gpucost catalog evidence SCENARIO`). The page fetches the
// runs when the view is first opened.
struct EvidenceState {
  bool requested = false;    // the validation files were asked for
  std::string document;      // EvidenceToJson for the scenario, "" until the runs are here
  long for_evaluation = -1;  // app.evaluations it was computed for
};

// The fleet (commitment) planner (ui_fleet.cpp): a demand profile around the edited scenario, planned by core.
struct FleetState {
  int months = 36;
  double baseline_gpus = 0;  // 0: the scenario's cluster.gpus
  double burst_gpus = 0;     // extra GPUs in the burst months
  int burst_start_month = 4, burst_months = 2;
  // Issue 50: moving between the owned site and the cloud in the hybrid plan (fleet.h hybrid_transfer).
  double transfer_gb_out_per_gpu_hour = 0, transfer_gb_in_per_move = 0, migration_usd_per_move = 0;
  double ingress_usd_per_gb = 0;  // the fleet's default (fleet.cpp): clouds charge nothing for data coming in
  double value_at_start = 0;      // the input being edited held this when editing began (a refusal puts it back)
  std::string document;      // FleetToJson, "" until computed
  FleetResult result;
  FleetInputs inputs;
  long for_evaluation = -1;
  bool stale = true;         // the profile changed
  std::string input_error;   // a profile input refused (unreadable or out of its range), in English; "" when none
  Message input_error_message;  // the same as a key and parameters (shown in the page's language)
};

// The Plan vs actual view's state (web/app_actual.h): made when a run first arrives or the view opens, and known
// here only by name, so that the first frame's code never holds what it takes to build or free one.
struct ActualState;

struct AppState {
  Scenario scenario;       // what the user edits
  Result result;           // Evaluate(scenario), refreshed when dirty
  std::vector<InputError> problems;  // ValidateScenario(scenario): shown inline and instead of the result
  bool dirty = true;       // scenario changed since the last evaluation
  bool link_stale = true;  // the share link needs rebuilding (scenario or pinned changed)
  bool write_fragment = false;  // put the link into the URL fragment (after the user changed something)
  std::string link;        // the share link of the scenario and the pinned comparison
  std::string error;       // message shown to the user ("" if none)
  std::string notice;      // a short confirmation ("Link copied", "Loaded scenario.json")
  // The error of the status line as a code (an import refused by what it is, a probe report or link refused):
  // the status line renders it in the page's language while `error` still holds its English text
  // (gpucost_error()) and equals subject + ": " + its English.
  struct CodedStatus {
    std::string subject;  // the file's name, or ""
    Message message;
  } error_coded, notice_coded;  // notice_coded: the same for `notice` (subject unused)
  std::string measured_from;  // the probe report the measured fields came from (host, date)
  // The quoted price typed for a price-by-quote offer (ui_offers.cpp; issue 16) and why it was refused.
  struct QuoteEdit {
    char text[64] = "";
    Message error;  // why the typed quote was refused (shown in the page's language)
  } quote;
  long frames = 0;         // frames drawn
  long evaluations = 0;    // Evaluate() calls for the edited scenario (only when it changed)
  float ui_scale = 1.0f;   // device pixels per CSS pixel
  bool busy = false;       // long work in progress: keep drawing frames
  View view = View::kResults;
  int request_view = -1;   // select this view in the next frame (from code)
  std::vector<FieldEdit> edits;
  std::vector<Pinned> pinned;
  ChartsState charts;
  PlanState plan;
  PricingState pricing;
  SensitivityState sensitivity;
  FleetState fleet;
  EvidenceState evidence;
  std::shared_ptr<ActualState> actual;  // the Plan vs actual view's run, once one arrives or the view opens
  std::vector<char> paste; // the paste box (a link, scenario JSON or a probe report), fixed capacity
  std::vector<PresetInfo> presets;  // the embedded presets: read on first use (AppPresets)
  bool presets_read = false;
  std::string preset_id;   // the preset last loaded ("" if none, or once the scenario no longer equals it)
  std::string preset_json; // that preset's scenario (ScenarioToJson), to tell when an edit departs from it
  std::vector<WidgetRect> rects;
  std::vector<ScrollPos> scrolls;  // RecordScroll
  std::vector<DrawnText> texts;    // RecordText()
  InferencePageState inference_page;  // workload.kind = inference (ui_inference.cpp)
  ServingViewsState serving;          // an inference scenario's views (ui_serving.cpp)
  int confirm_edit_column = -1;    // "Edit" on this pinned column waits for the user to confirm (unsaved edits)
  bool confirm_serving_options = false;  // "Compare serving options" waits: it would replace columns the user pinned
  // A touch screen (issue 47): no hover, so a field's meaning, default and source open under it when its name is
  // tapped (help_field: the field's index, -1 for none), and the hints say "tap" rather than "hover".
  bool touch = false;
  int help_field = -1;
  bool status_open = false;  // a phone's status line tapped open: its whole text, wrapped (a tap folds it back)
  int focus_field = -1;      // the field (index) that takes the keyboard in the next frame ("auto" just unticked)
};

void AppInit(AppState& app);
// Draws one frame of UI (between ImGui::NewFrame() and ImGui::Render()).
void AppFrame(AppState& app);

// Replaces the scenario from JSON text. Returns "" or the error message (then the scenario is kept).
std::string AppLoadScenario(AppState& app, const std::string& json_text);
// Sets the status line's error: `error` holds "subject: " + the English text, and the code renders it in the page's
// language. Returns `error`.
const std::string& AppSetError(AppState& app, const std::string& subject, const Message& message);
// Sets the status line's notice likewise (`notice` holds the English text, gpucost_notice()).
void AppSetNotice(AppState& app, const Message& message);
// Replaces the scenario and the pinned comparison from a share link (full URL, "#s=..." or "1.xxx").
// Returns "" or the error message (then everything is kept).
std::string AppOpenLink(AppState& app, const std::string& link);
// Loads a file's text: a share link, a scenario document or a probe report (applied to the scenario).
// Returns "" or the error (named after the file); on error everything is kept.
std::string AppImportText(AppState& app, const std::string& name, const std::string& text);
// Applies a probe report (schema gpucost/probe@1) to the scenario and marks the fields it set as measured.
// Returns "" or the error.
GPUCOST_NOT_FIRST_FRAME std::string AppApplyProbe(AppState& app, const std::string& json_text);
// After an edit of the scenario `before`: a model shape edited while workload.params is the default or the
// previous shape's count, and the user has not typed a count, brings the count along (ParamsFromShape).
void AppFollowShape(AppState& app, const Scenario& before);
// Field `index` holds the value a probe report measured (the editor marks it; an edit removes the mark).
bool AppFieldMeasured(const AppState& app, std::size_t index);
// Loads a preset by id. Returns "" or the error.
std::string AppLoadPreset(AppState& app, const std::string& id);
// Re-evaluates if the scenario changed; writes the URL fragment after an edit.
void AppRefresh(AppState& app);
// The share link, rebuilt if the scenario or the pinned set changed (built on demand: it costs a JSON encode).
const std::string& AppLink(AppState& app);
// Builds ImGui's font atlas and style for `scale` device pixels per logical pixel (crisp text at any
// devicePixelRatio or monitor scale). The caller then uploads the font texture to its renderer.
void AppApplyUiScale(AppState& app, float scale);
// The embedded presets, read on first use (parsing them is start-up time the first frame does not need).
const std::vector<PresetInfo>& AppPresets(AppState& app);
// The scenario was edited through the UI.
void AppScenarioEdited(AppState& app);

// Comparison: pin the current scenario as a column (at most kMaxPinned), remove one, CSV of the table.
bool AppPin(AppState& app);
// The edited scenario holds edits that would be lost if replaced: it is neither the defaults, nor the preset
// last loaded, nor one of the pinned columns.
bool AppHasUnsavedEdits(const AppState& app);
// Loads pinned column `index` into the editor (what "Edit" does once confirmed).
void AppEditPinned(AppState& app, std::size_t index);
void AppUnpin(AppState& app, std::size_t index);
// Pins the scenario re-priced under on-demand, spot, reserved and owned (tco.h). Returns how many were pinned.
int AppPinPricingModels(AppState& app);
std::string CompareCsv(const AppState& app);
// The pinned columns compared (core/documents/compare.h): what the Compare table, its CSV and view("compare") are made of.
Comparison AppComparison(const AppState& app);
// A short label of a scenario: its name, else "<gpu> x<gpus> <pricing model>".
std::string ScenarioLabel(const Scenario& s);
// `label` cut to at most `max_chars` characters (UTF-8 aware) with "..." (column headers; the full name in a tooltip).
std::string ShortLabel(const std::string& label, std::size_t max_chars);

// Money in the result's display currency, in the page's language (FormatMoney: "₩303,041,850", "3억 304만 원").
std::string FormatDisplayMoney(const Result& r, double usd);
// The short money formatter for the result's display currency (chart axes, bars): FormatKrwShort or FormatUsd.
using MoneyFormat = std::string (*)(double);
MoneyFormat ShortMoneyFormat(const Result& r);
// The same with a number of significant digits, for chart ticks that must differ (chart::TickDigits).
using DigitsMoneyFormat = std::string (*)(double, int);
DigitsMoneyFormat ShortMoneyDigits(const Result& r);
bool DisplaysKrw(const Result& r);
// A note in grey that wraps at spaces at the panel's (or table cell's) edge instead of running off it (a phone, a
// longer language: issue 30).
// A row of a list in a popup (the offers, the presets), its lines wrapped at the width that keeps the list on the
// screen and drawn where a Selectable's label starts. Records the row (`id`, index) and its text (`text_id`, index:
// as wide as its widest line). True when picked.
struct RowLine {
  std::string text;
  bool dimmed = false;
};
bool WrappedRow(AppState& app, const char* id, const char* text_id, int index, bool selected, const std::vector<RowLine>& lines);
// ImGui::BeginCombo whose closed box shows its preview whole: wrapped over as many lines as the box's width needs (a
// phone's offer picker cut both Samsung SDS offers to "Samsung SDS Samsung Cloud Platfo"), its arrow at the right.
// Records the preview's text and where it is drawn (`text_id`). True when open: then call ImGui::EndCombo().
bool WrappedCombo(AppState& app, const char* label, const char* text_id, const std::string& preview, int flags);
void Hint(const char* text);
// The held-out error band beside a headline (ui_results.cpp), drawn once documents' EvidenceBandReady() says its
// table is here.
void DrawHeadlineBand(AppState& app);
// Adopting a layout searched with the global batch on auto sets the batch the search ran at (one sequence per
// GPU), so that the result is the search's row: "; global batch set to 16 sequences ..." ("" when it was given).
std::string BatchSetNotice(std::int64_t batch_before, std::int64_t batch_after);
inline void Hint(const std::string& text) { Hint(text.c_str()); }
// SameLine() when `text` still fits beside the last item before the panel's edge, else it starts the next line: text
// set beside other text is never drawn past the edge (a phone, a longer language).
void SameLineIfRoom(const std::string& text);
// A serving pool as Results names it: "2 replicas x 8 NVIDIA H100 SXM5 80GB, 41.2% of capacity" ("1 replica").
std::string InferencePoolText(const InferencePool& pool);

// Remembers text drawn under `id` (static storage) for tests (window.gpucost.drawnText).
void RecordText(AppState& app, const char* id, const std::string& text);
// Remembers the last item's rectangle under `id` (static storage) and `index` (see WidgetRect). content_width:
// the width its text needs (0: the item is its text), to tell a value cut inside its frame.
void RecordRect(AppState& app, const char* id, int index = -1, float content_width = 0);
// The width of the widest word of `text` (between spaces and line breaks): the content_width of a wrapped text, whose
// rectangle is narrower than that only when a word did not fit its line and was broken inside ("expecte d").
float WidestWord(const std::string& text);
// In a table's cell: RecordRect of the wrapped `text` just drawn (its widest word its content width), when the cell is
// shown whole; a cell that a sideways-scrolling table shows in part is reached by scrolling, not cut.
void RecordCell(AppState& app, const char* id, int index, const std::string& text);
// A column header on two lines (at the space that makes it narrowest) when it is wider than the column's cells,
// `body_width`: the header no longer widens its column ("출력 토큰\n백만 개당" over "$51.59").
std::string HeaderToFit(const char* label, float body_width);
// A rectangle drawn inside a widget (a chart's bar or label), given in screen pixels: for tests, as RecordRect (cut
// when the caller says so).
void RecordRectAt(AppState& app, const char* id, int index, float x0, float y0, float x1, float y1, bool clipped = false);
void RecordWindow(AppState& app, const char* id);  // the current window's rectangle (tests: a view fits the screen)
// Below this width (CSS pixels) the page is one column: the headline first, the editor behind a tab.
constexpr float kNarrowCssPx = 700;
bool AppNarrow(const AppState& app);
// BeginTable for a table of figures: on a narrow screen (a phone) or in a panel narrower than its columns need, its
// columns keep the width of their figures and the table scrolls sideways (as tall as its rows, and its scrollbar
// when that is shown; `rows` sizes its first frame) instead of cutting them; elsewhere as given.
bool BeginFigureTable(const AppState& app, const char* id, int columns, int rows, int flags);
// The height to give BeginTable for a table that scrolls sideways (ImGuiTableFlags_ScrollX): what it drew the frame
// before, its rows and its scrollbar when shown; `first` (rows and a scrollbar) until it has been drawn.
float SidewaysTableHeight(const char* id, float first);
// In a table's cell: the widgets drawn until EndCellSpan reach over the row's next cells up to column `last` (the
// cell's content region and clip rectangle are widened to that column's). Returns what EndCellSpan restores.
float BeginCellSpan(int last);
void EndCellSpan(float saved_right);
// In a table's cell, under what it holds: `note` in grey, wrapped across the row's cells up to column `last`, and
// recorded under `id` and `index` (as RecordRect, its widest word its content width). The cell's column keeps the
// width of its own content (a phone's note under its row, ui_results.cpp).
void NoteAcross(AppState& app, int last, const char* note, const char* id, int index);

// Language of the page (app_lang.cpp): the user's stored choice, else the host's language; never part of the
// scenario. Korean glyphs come from fonts fetched on demand (platform.h FontBytes/RequestFont).
void AppInitLanguage(AppState& app);
void AppSetLanguage(AppState& app, Lang lang);  // switches now, remembers the choice, fetches the Korean font
void DrawLanguageSwitch(AppState& app);         // "한국어" / "English" button
// Adds the Korean fonts that have arrived to the atlas being built (AppApplyUiScale calls it).
void AppAddFonts(float scale);
// A string table fetched by the page has arrived (platform::RequestLanguageTable): install it, draw again.
void AppLanguageTablesArrived(AppState& app);
// Asks for the 2,350-syllable font when text on the page (scenario names) has Hangul the atlas cannot draw.
void AppFontsFollowText(AppState& app);
// Code points of `lang`'s string table (and ₩) that the current font atlas cannot draw, ascending.
std::vector<unsigned> AppMissingGlyphs(Lang lang);

// A browser wheel event (WheelEvent fields) and what it means to ImGui (app_wheel.cpp).
struct WheelInput {
  double delta_x = 0, delta_y = 0;  // as the browser reports them: positive = scroll right / down
  int delta_mode = 0;               // 0 pixels (CSS), 1 lines, 2 pages
  bool shift = false;
  double device_pixel_ratio = 1;
  double page_css_px = 0;           // the height of a "page" (the canvas), CSS pixels
  float font_px = 0;                // ImGui's font size, device pixels
};
struct WheelSteps {
  float vertical = 0, horizontal = 0;  // add to io.MouseWheel / io.MouseWheelH
};
constexpr double kWheelLineCssPx = 23;  // one "line": an editor row (13 px font + padding + spacing)
WheelSteps WheelToImGui(const WheelInput& in);

// One finger on a touch screen (app_touch.cpp): a drag scrolls the panel under the finger (as the wheel does,
// then with momentum), a tap clicks (a slider takes the tapped value). Coordinates in CSS pixels,
// times in milliseconds (performance.now()). The page calls TouchStart/Move/End from its touch events and
// TouchForFrame once per frame; the state lives here, not in the frame function.
enum class TouchMode : int { kIdle = 0, kPending, kScrolling, kMomentum };
struct TouchState {
  TouchMode mode = TouchMode::kIdle;
  double start_x = 0, start_y = 0, x = 0, y = 0, last_ms = 0, start_ms = 0;
  double vx = 0, vy = 0;            // finger velocity, CSS px per ms (smoothed)
  double pending_dx = 0, pending_dy = 0;  // finger movement not yet handed to a frame
  int tap_frames = 0;               // a tap still to play: 3 = hover frame next, 2 = press, 1 = release
  double tap_x = 0, tap_y = 0;
  bool pointer_from_touch = false;  // the last pointer was a finger: no hover once it is lifted
};
constexpr double kTouchSlopCssPx = 8;       // a finger that moves less than this is a tap
constexpr double kTouchMomentumMs = 325;    // momentum decays as exp(-t / this) (as iOS and Android lists do)
constexpr double kTouchStopPxPerMs = 0.03;  // slower than this: momentum ends
void TouchStart(TouchState& t, double x, double y, double ms);
void TouchMove(TouchState& t, double x, double y, double ms);
void TouchEnd(TouchState& t, double x, double y, double ms);
// What the next frame does with the pointer: `pointer` (where, and whether the button is down) or no pointer,
// and how far to scroll the panel under it (CSS pixels, positive = content moves up, as a WheelEvent's delta).
struct TouchFrame {
  bool own_pointer = false;  // the finger decides the pointer this frame (else the mouse does)
  bool has_pointer = false;  // false: no hover (finger lifted)
  double x = 0, y = 0;
  bool down = false;
  double scroll_dx = 0, scroll_dy = 0;
  bool wants_frames = false;  // momentum or a tap still playing: keep drawing
};
TouchFrame TouchForFrame(TouchState& t, double now_ms);

// A press that arrives with a pointer that moved since the last frame (a quick click, a tap, a pointer that jumped)
// waits one frame: ImGui sees the pointer over its target first, then the press (issue 47: a tab keeps an earlier
// item's hover for a frame, and a click on it right after typing elsewhere was lost). Called once a frame before
// ImGui's NewFrame with the pointer and button as the platform reports them; returns the button state to use.
struct PressHold {
  double x = -1e30, y = -1e30;  // the pointer in the last frame
  bool was_down = false;        // the button as reported in the last frame
  bool held = false;            // a press waits for this frame
};
bool PressForFrame(PressHold& h, double x, double y, bool down);

// Remembers the current window's scroll position under `id` (static storage).
void RecordScroll(AppState& app, const char* id);

// The result as HTML text for the page's visually hidden mirror (screen readers, translation, find in page):
// headline, normal run vs failures, where the money and time go, warnings (app_mirror.cpp). Its language code.
std::string AppTextMirror(const AppState& app);
const char* AppTextMirrorLang();

// Offers (ui_offers.cpp): apply a catalog offer (records pricing.offer); after the GPU changed, an offer for
// another GPU is cleared and the status line says the price is unconfirmed.
void AppApplyOffer(AppState& app, const Offer& offer);
void AppGpuChanged(AppState& app);
void DrawOfferPicker(AppState& app);

// The label of a field in the page's language ("field.<path>" in assets/i18n), else from its path:
// A field's unit in the page's language ("unitname.<unit>"), money in scenario s's currency ("원/kWh" in a KRW
// scenario) (ui_scenario.cpp; the editor and the Fleet view's inputs).
const char* ShownUnit(const FieldSpec& f);
std::string ShownUnit(const Scenario& s, const FieldSpec& f);
// "pricing.spot.notice_seconds" -> "spot notice seconds" (ui_scenario.cpp; the editor and the sensitivity rows).
void FieldLabel(const FieldSpec& f, char* buf, std::size_t cap);
// The words in place of a price for a job that cannot run as described (the headline and the text mirror).
const char* NotPricedKey(const BlockingState& b);

// Panels (one file each).
void DrawScenarioEditor(AppState& app);
void DrawResults(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawCompare(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawCharts(AppState& app);
void DrawPresets(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawShare(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawPlan(AppState& app);
// The provider comparison sheet under the comparison (ui_sheet.cpp), and its rows for the CSV export.
GPUCOST_NOT_FIRST_FRAME void DrawProviderSheet(AppState& app);
std::string ProviderSheetCsv(const AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawSensitivity(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawFleet(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawEvidence(AppState& app);
// The evidence document of the edited scenario, computed once the validation runs are here (fetched on the first
// call, installed when they arrive); false until then, or while the scenario is invalid.
GPUCOST_NOT_FIRST_FRAME bool AppUpdateEvidence(AppState& app);
// Plan vs actual (ui_actual.cpp, issue 49). AppLoadRun: a run record or a log handed to the page (dropped, picked,
// pasted) becomes the view's run; returns "" or the error (the run kept so far stays). AppUpdateActual: the document
// of the run against the edited scenario, computed when stale; false until a run and a valid scenario are
// here. AppAdoptCalibrated: the calibrated scenario into the editor (its Adopt button).
GPUCOST_NOT_FIRST_FRAME void DrawActual(AppState& app);
GPUCOST_NOT_FIRST_FRAME std::string AppLoadRun(AppState& app, const std::string& name, const std::string& text);
GPUCOST_NOT_FIRST_FRAME bool AppUpdateActual(AppState& app);
GPUCOST_NOT_FIRST_FRAME void AppAdoptCalibrated(AppState& app);
// Computes the sensitivity tornado / fleet plan of the edited scenario if stale (ui_sensitivity / ui_fleet).
void AppUpdateSensitivity(AppState& app);
void AppUpdatePricing(AppState& app);
void AppUpdateFleet(AppState& app);

// window.gpucost.view(name) / show(name) (app_views.cpp). Names: result, pricing, sweep, sensitivity, mc, plan,
// compare, fleet, evidence, actual. The document is the CLI's --format json for the same scenario and options, "" until the
// view's work has finished (or for an unknown name). show() opens the view and starts its computation;
// returns false for an unknown name.
GPUCOST_NOT_FIRST_FRAME std::string AppViewDocument(AppState& app, const std::string& name);
bool AppShowView(AppState& app, const std::string& name);
// Issue 18: the model picker (ui_models.cpp) and what it does: fills the shape from a model by name, marking
// those fields as from the model. Returns "" or an error naming the unknown id.
void DrawModelPicker(AppState& app);
GPUCOST_NOT_FIRST_FRAME std::string AppLoadModel(AppState& app, const std::string& id);
GPUCOST_NOT_FIRST_FRAME void DrawInferenceResults(AppState& app);
void DrawWarnings(const Result& r);  // ui_results.cpp: the result's warnings (training and serving)
// ui_inference.cpp; DrawResults calls it for inference scenarios
// An inference scenario's editor leaves out the fields only training uses (tokens, layout, checkpoints...).
bool InferenceHidesField(const Scenario& s, const char* path);
// The views of an inference scenario (ui_serving.cpp): Charts (the request simulation, after why the GPU-count
// sweep does not apply), Layouts (the serving plan), Fleet (why it does not apply); the Compare view's
// "Compare serving options" replaces the pinned columns with ServingOptions' three (returns how many).
GPUCOST_NOT_FIRST_FRAME void DrawServingCharts(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawServingPlan(AppState& app);
GPUCOST_NOT_FIRST_FRAME void DrawServingFleet(AppState& app);
void AppUpdateServingSim(AppState& app);  // starts the simulation of the edited scenario, or runs its next slice
void AppUpdateServingPlan(AppState& app);  // starts a search of the edited scenario (and runs its first slice)
void AppStepServingPlan(AppState& app);    // runs the search's next slice; keeps frames coming until it is done
GPUCOST_NOT_FIRST_FRAME int AppPinServingOptions(AppState& app);
// Adopts the serving plan's configuration `index` of its cheapest list (its Adopt button, issue 30): the mode, each
// pool's GPU, tensor parallelism and price and the batch cap go into the scenario (ApplyInferenceCandidate, as
// gpucost plan says to set them); the plan stays current.
GPUCOST_NOT_FIRST_FRAME void AppAdoptServingPlan(AppState& app, int index);
// Starts the layout search for the current scenario (what the Layouts view's button does).
void AppStartPlanSearch(AppState& app);
// Adopts the search's plan `index` (its Adopt button): the layout goes into the scenario; the table stays current.
GPUCOST_NOT_FIRST_FRAME void AppAdoptPlan(AppState& app, int index);

}  // namespace gpucost::app
