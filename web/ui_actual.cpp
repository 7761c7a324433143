// ui_actual.cpp — Plan vs actual (issue 49): a run record or a training log, dropped on the page, picked or pasted,
// set against the edited scenario: where the money went against the plan as a waterfall from plan to actual, the
// variance part by part with why each moved, and the plan calibrated with what the run measured (the document of
// `gpucost actual SCENARIO RUN`, core/documents/actual.h, drawn from the same structures). Its strings are not in the
// page's first load (they are in the tables' second part, i18n/<lang>-more.json: core/base/i18n.h).
#include <imgui.h>

#include <cmath>
#include <string>

#include "app.h"
#include "app_actual.h"
#include "base/format.h"
#include "base/i18n.h"
#include "chart.h"
#include "documents/actual.h"
#include "platform.h"

namespace gpucost::app {
namespace {

constexpr std::size_t kActualPasteCapacity = 1u << 20;
constexpr ImGuiTableFlags kActualTable = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;

ActualState& State(AppState& app) {
  if (!app.actual) app.actual = std::make_shared<ActualState>();
  return *app.actual;
}

double Usd(std::int64_t cents) { return static_cast<double>(cents) / 100; }

// A step of the waterfall, signed, in the display currency (the chart's values are already in it).
std::string SignedUsdShort(double v) { return (v >= 0 ? "+" : "-") + FormatUsd(std::fabs(v)); }
std::string SignedKrwShort(double v) { return (v >= 0 ? "+" : "-") + FormatKrwShort(std::fabs(v)); }

std::string Signed(const AppState& app, double usd) { return (usd >= 0 ? "+" : "-") + FormatDisplayMoney(app.result, std::fabs(usd)); }

const char* PartLabelOf(int part) { return Tr(("actual.part." + std::string(VariancePartName(part))).c_str()); }

void Heading(const char* text) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextUnformatted(text);
}

void Wrapped(const std::string& text) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
}

// Open, paste, clear: where a run comes in (a file dropped anywhere on the page comes here too).
void DrawActualInput(AppState& app) {
  ActualState& st = State(app);
  Wrapped(Tr("actual.view.intro"));
  if (ImGui::Button((std::string(Tr("actual.view.open")) + "###actual_open").c_str()))
    platform::PickFile(".json,.log,.txt,application/json,text/plain");
  RecordRect(app, "actual_open");
  if (st.paste.empty()) st.paste.assign(kActualPasteCapacity, '\0');
  ImGui::InputTextMultiline("##actual_paste", st.paste.data(), st.paste.size(),
                            ImVec2(-1, ImGui::GetTextLineHeight() * (AppNarrow(app) ? 4 : 3)));
  RecordRect(app, "actual_paste");
  if (ImGui::Button((std::string(Tr("actual.view.read_pasted")) + "###actual_read").c_str()) && st.paste[0]) {
    AppLoadRun(app, Tr(Lang::kEn, "msg.app.pasted_text"), st.paste.data());
    if (st.input.ok) st.paste[0] = '\0';
  }
  RecordRect(app, "actual_read");
  if (!st.run_text.empty()) {
    ImGui::SameLine();
    if (ImGui::Button((std::string(Tr("actual.view.clear")) + "###actual_clear").c_str())) {
      app.actual.reset();
      return;
    }
  }
  Hint(Tr("actual.view.drop_hint"));
}

// What the log said and what it did not (a record's source, when a log reader made it).
void DrawActualRead(AppState& app) {
  const ActualState& st = *app.actual;
  const RunSource& src = st.input.record.source;
  const std::string title = src.present() ? TrFormat("actual.view.read_log", {st.run_name, Tr(("log.format." + src.format).c_str())})
                                          : TrFormat("actual.view.read_record", {st.run_name});
  RecordText(app, "actual_read_title", title);
  if (!src.present()) {
    Wrapped(title);
    return;
  }
  if (!ImGui::CollapsingHeader((title + "###actual_read_header").c_str())) return;
  for (const Message& m : src.read) Wrapped("+ " + m.Text(CurrentLanguage()));
  for (const Message& m : src.not_read) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    Wrapped("- " + m.Text(CurrentLanguage()));
    ImGui::PopStyleColor();
  }
}

void DrawActualHeadline(AppState& app, const ActualDoc& d) {
  const double planned = Usd(d.planned_cents), actual = Usd(d.actual_cents), delta = actual - planned;
  const std::string text = TrFormat(d.actual_is_invoice ? "actual.view.headline_invoice" : "actual.view.headline",
                                    {FormatDisplayMoney(app.result, planned), FormatDisplayMoney(app.result, actual), Signed(app, delta),
                                     planned > 0 ? FormatSignedPercent(delta / planned) : std::string("-")});
  Wrapped(text);
  RecordText(app, "actual_headline", text);
}

// From plan to actual: the planned total, each part's step, the actual total (web/chart.h DrawWaterfall).
void DrawActualWaterfall(AppState& app, const ActualDoc& d) {
  const double k = app.result.display_per_usd;  // the chart's amounts in the display currency
  double deltas[chart::kMaxWaterfallBars];
  const char* labels[chart::kMaxWaterfallBars];
  int steps = 0;
  labels[0] = Tr("actual.view.plan_bar");
  for (const VarianceRow& v : d.variance) {
    if (steps + 2 >= chart::kMaxWaterfallBars) break;
    deltas[steps] = Usd(v.delta_cents()) * k;
    labels[++steps] = PartLabelOf(v.part);
  }
  labels[steps + 1] = Tr(d.actual_is_invoice ? "actual.view.actual_invoice_bar" : "actual.view.actual_bar");
  chart::WaterfallBar bars[chart::kMaxWaterfallBars];
  const int count = chart::WaterfallLayout(Usd(d.planned_cents) * k, deltas, steps, bars);
  const chart::WaterfallSpec spec{"actual_waterfall", Tr("actual.view.waterfall_title"), labels, bars, count,
                                  ShortMoneyFormat(app.result), DisplaysKrw(app.result) ? SignedKrwShort : SignedUsdShort};
  chart::WaterfallDrawn drawn;
  chart::DrawWaterfall(spec, 0, &drawn);
  RecordRect(app, "actual_waterfall");
  for (int i = 0; i < drawn.bars; ++i)
    RecordRectAt(app, "actual_bar", i, drawn.bar_min[i].x, drawn.bar_min[i].y, drawn.bar_max[i].x, drawn.bar_max[i].y);
}

// The parts: planned, actual, difference, and why each moved (the document's words, in the page's language).
void DrawActualVariance(AppState& app, const ActualDoc& d) {
  Heading(Tr("actual.view.parts_title"));
  const int rows = static_cast<int>(d.variance.size()) + 1;
  if (BeginFigureTable(app, "actual_parts", 4, rows, kActualTable)) {
    for (const char* h : {"actual.col_part", "actual.col_planned", "actual.col_actual", "actual.col_delta"})
      ImGui::TableSetupColumn(Tr(h), ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    const auto row = [&app](const char* label, double planned, double actual) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(label);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDisplayMoney(app.result, planned).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDisplayMoney(app.result, actual).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(Signed(app, actual - planned).c_str());
    };
    for (const VarianceRow& v : d.variance) row(PartLabelOf(v.part), Usd(v.planned_cents), Usd(v.actual_cents));
    row(Tr("actual.total"), Usd(d.planned_cents), Usd(d.actual_cents));
    ImGui::EndTable();
    RecordRect(app, "actual_parts");
  }
  for (const VarianceRow& v : d.variance) Wrapped(std::string(PartLabelOf(v.part)) + ": " + v.why.Text(CurrentLanguage()));
}

// What the next plan should assume: each measured figure in place of the assumed one, the MTBF's credible interval
// and the prior's weight, the next job priced with them, and the button that adopts them.
void DrawActualCalibration(AppState& app, const ActualDoc& d) {
  const ActualCalibration& c = d.calibrated;
  Heading(Tr("actual.view.calibrated_title"));
  if (State(app).adopted) {  // once per run: its failures are in the plan's MTBF already
    Hint(Tr("actual.view.already_adopted"));
    RecordText(app, "actual_calibration", Tr("actual.view.already_adopted"));
    return;
  }
  if (c.changes.empty()) Hint(Tr("actual.view.nothing_measured"));
  for (const CalibratedChange& ch : c.changes)
    Wrapped(TrFormat("actual.view.change", {ch.field, FormatNumber(ch.planned, 5), FormatNumber(ch.calibrated, 5), ch.why.Text(CurrentLanguage())}));
  if (c.mtbf_updated)
    Wrapped(TrFormat(c.mtbf.prior_failures > 0 ? "actual.mtbf_interval" : "actual.view.mtbf_interval_no_prior",
                     {FormatPercent(kMtbfCredibleLevel), FormatCount(std::round(c.mtbf.low_hours)), FormatCount(std::round(c.mtbf.high_hours)),
                      FormatNumber(c.mtbf.prior_failures, 3), FormatCount(c.mtbf.prior_gpu_hours), FormatPercent(c.mtbf.prior_share)}));
  if (!c.ok) {
    Hint(Tr("actual.next_job_none"));
    return;
  }
  const std::string next = TrFormat("actual.next_job", {FormatDisplayMoney(app.result, c.next_job_usd), FormatDisplayMoney(app.result, c.plan_usd)});
  Wrapped(next);
  RecordText(app, "actual_next_job", next);
  const bool any = !c.changes.empty();
  if (!any) ImGui::BeginDisabled();
  if (ImGui::Button((std::string(Tr("actual.view.adopt")) + "###actual_adopt").c_str())) AppAdoptCalibrated(app);
  if (!any) ImGui::EndDisabled();
  RecordRect(app, "actual_adopt");
}

void DrawActualNotes(const ActualDoc& d) {
  if (d.notes.empty()) return;
  Heading(Tr("actual.view.notes_title"));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.35f, 1));
  for (const ActualNote& n : d.notes) Wrapped("- " + n.message.Text(CurrentLanguage()));
  ImGui::PopStyleColor();
}

}  // namespace

std::string AppLoadRun(AppState& app, const std::string& name, const std::string& text) {
  ActualState& st = State(app);
  RunInput input = ReadRunInput(text, name);
  app.request_view = static_cast<int>(View::kActual);
  app.busy = true;
  if (!input.ok) {  // the run kept so far stays; the status line says why this one was refused
    const Message why = input.refusal_path.empty() ? input.refusal : Message{"actual.view.run_field", {input.refusal_path, MessageParam::From(input.refusal)}};
    return AppSetError(app, name, why);
  }
  st.run_name = name;
  st.run_text = text;
  st.adopted = false;
  st.input = std::move(input);
  st.for_evaluation = -1;
  app.error.clear();
  const RunSource& src = st.input.record.source;
  AppSetNotice(app, {"msg.app.loaded", {MessageParam::Key(src.present() ? "actual.view.what_log" : "actual.view.what_run"), name}});
  return "";
}

bool AppUpdateActual(AppState& app) {
  ActualState& st = State(app);
  AppRefresh(app);
  if (!st.input.ok) return false;
  if (st.for_evaluation != app.evaluations) {
    st.for_evaluation = app.evaluations;
    st.document.clear();
    st.doc = app.problems.empty() ? CompareActual(app.scenario, st.input.record) : ActualDoc{};
    if (st.doc.ok) st.document = ActualToJson(app.scenario, st.doc);
  }
  return st.doc.ok;
}

void AppAdoptCalibrated(AppState& app) {
  if (!app.actual || !app.actual->doc.ok || !app.actual->doc.calibrated.ok) return;
  const ActualCalibration& c = app.actual->doc.calibrated;
  std::string what;
  for (const CalibratedChange& ch : c.changes) what += (what.empty() ? "" : ", ") + std::string(ch.field) + " " + FormatNumber(ch.calibrated, 5);
  app.scenario = c.scenario;
  app.actual->adopted = true;
  app.edits.assign(FieldCount(), FieldEdit{});
  AppScenarioEdited(app);
  AppRefresh(app);
  AppSetNotice(app, {"actual.view.adopted", {what}});
}

void DrawActual(AppState& app) {
  DrawActualInput(app);
  if (!app.actual || !app.actual->input.ok) {
    Hint(Tr("actual.view.no_run"));
    return;
  }
  DrawActualRead(app);
  if (!app.problems.empty()) {
    Hint(Tr("actual.view.plan_invalid"));
    return;
  }
  if (!AppUpdateActual(app)) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", app.actual->doc.error.Text(CurrentLanguage()).c_str());
    return;
  }
  const ActualDoc& d = app.actual->doc;
  DrawActualHeadline(app, d);
  DrawActualWaterfall(app, d);
  DrawActualVariance(app, d);
  DrawActualCalibration(app, d);
  DrawActualNotes(d);
}

}  // namespace gpucost::app
