// ui_results.cpp — the result of the edited scenario: headline figures, normal run vs failure-inclusive,
// where the time, GPU-hours and money go (named parts that sum to the totals), warnings.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app.h"
#include "chart.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/evidence_band_json.h"
#include "documents/plan_json.h"
#include "documents/vat.h"

namespace gpucost::app {
namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.35f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);

std::string FormatGpuHours(double v) { return FormatCount(v) + " " + Tr("unit.gpu_h"); }
std::string FormatResultHours(double v) { return FormatDuration(v); }

// One headline row: label and value whole (their columns fit them), the note wrapped in what is left; on a phone,
// where what is left is a few letters wide (words broke inside: "expecte d"), the note goes under the label, across
// the row. The label (a literal) names the row's rectangles for the clipping checks.
void Row(AppState& app, const char* label, const std::string& value, const char* note = "") {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(label);
  RecordRect(app, label, 0);
  const bool under = AppNarrow(app);
  if (under && *note) NoteAcross(app, 2, note, label, 2);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
  RecordRect(app, label, 1);
  ImGui::TableNextColumn();
  if (under) return;
  Hint(note);
  RecordRect(app, label, 2, WidestWord(note));  // a word broken inside its line reads as cut
}

// P50/P90 of cost and time beside the headline once a Monte Carlo run of this scenario has finished.
void HeadlineSpread(AppState& app) {
  const McState& mc = app.charts.mc;
  if (!mc.have_summary || mc.stale) return;
  const Result& r = app.result;
  const McSummary& m = mc.summary;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(TrFormat("results.spread", {std::to_string(m.trials), FormatDisplayMoney(r, m.cost_usd.p50),
                                                      FormatDisplayMoney(r, m.cost_usd.p90), FormatDuration(m.time_hours.p50),
                                                      FormatDuration(m.time_hours.p90)}).c_str());
  ImGui::PopTextWrapPos();
  RecordRect(app, "headline_spread");
}

// A job that cannot run as described: the reason and the fix in red, in place of a price. Returns true then.
}  // namespace

const char* NotPricedKey(const BlockingState& b) {
  return std::string(b.code) == "price_by_quote" ? "quote.not_priced" : "results.not_priced";
}

namespace {

bool BlockedHeadline(AppState& app) {
  const BlockingState b = FindBlockingState(app.scenario, app.result);
  if (!b.blocked) return false;
  ImGui::SetWindowFontScale(1.35f);
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(kErrorColor, "%s", Tr(NotPricedKey(b)));
  ImGui::PopTextWrapPos();
  ImGui::SetWindowFontScale(1.0f);
  RecordRect(app, "headline");
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(kErrorColor, "%s", b.reason_message.Text(CurrentLanguage()).c_str());
  ImGui::TextColored(kErrorColor, "%s", TrFormat("results.fix", {b.fix_message.Text(CurrentLanguage())}).c_str());
  ImGui::PopTextWrapPos();
  const Result& r = app.result;
  const bool here = r.memory_fit_at_gpus.found;  // a layout that fits on the cluster as it is (issue 47)
  const LayoutFit& fit = here ? r.memory_fit_at_gpus : r.memory_smallest_fit;
  if (std::string(b.code) == "memory_does_not_fit" && fit.found) {
    const std::string label = TrFormat(here ? "results.use_fit_here" : "results.use_smallest", {std::to_string(fit.layout.gpus())});
    if (ImGui::Button((label + "###use_smallest").c_str())) {
      const MemoryFix fix = ApplyMemoryFit(r, &app.scenario);  // core (documents/plan_json.h)
      AppScenarioEdited(app);
      app.notice = TrFormat("results.layout_applied", {std::to_string(fix.gpus)}) + (fix.mfu_cleared ? Tr("results.layout_mfu_cleared") : "");
    }
    RecordRect(app, "apply_fix");
  }
  return true;
}

}  // namespace

// The held-out error band of the published runs most like this scenario beside the headline (issue 46 found it: the
// result document's evidence_band, core's ResultEvidenceBand; issue 47 draws it): "Predicted MFU 38.2%; held-out
// error nearby: -8% .. +14% on 6 similar runs", or that no validated run is like it. Its callers draw it once its
// table has arrived (EvidenceBandReady), which the page fetches after its later code: not on the first frame.
GPUCOST_NOT_FIRST_FRAME void DrawHeadlineBand(AppState& app) {
  const Result& r = app.result;
  const EvidenceBand b = ResultEvidenceBand(app.scenario, r);
  if (!b.applies) return;
  const std::string line = r.inference.present ? EvidenceBandLine(b) : TrFormat("results.band", {FormatPercent(r.mfu), EvidenceBandText(b)});
  ImGui::PushTextWrapPos(0);
  if (b.unlike()) ImGui::TextColored(kWarnColor, "%s", line.c_str());
  else ImGui::TextUnformatted(line.c_str());
  ImGui::PopTextWrapPos();
  RecordRect(app, "headline_band");
  RecordText(app, "headline_band", line);
  if (ImGui::IsItemHovered()) {
    std::string runs;
    for (const std::string& id : b.run_ids) runs += (runs.empty() ? "" : ", ") + id;
    ImGui::SetTooltip("%s", b.unlike() ? Tr("band.tip_unlike") : TrFormat("band.tip", {runs}).c_str());
  }
}

namespace {

// The headline: cost per completed job, saying whether VAT is in it; with a tax rate, the invoice's three lines
// (공급가액 / 부가세 / 합계, core/documents/vat.h) follow, as the CLI prints them.
void Headline(AppState& app) {
  const Result& r = app.result;
  const VatLines vat = VatBreakdown(app.scenario, r);
  const std::string headline = TrFormat("results.headline", {FormatDisplayMoney(r, r.expected_usd), Tr(VatHeadlineKey(vat))});
  ImGui::SetWindowFontScale(1.35f);
  ImGui::PushTextWrapPos(0);  // a phone: the price and its VAT note wrap rather than run off the screen
  ImGui::TextUnformatted(headline.c_str());
  ImGui::PopTextWrapPos();
  ImGui::SetWindowFontScale(1.0f);
  RecordRect(app, "headline");
  RecordText(app, "headline", headline);
  if (DisplaysKrw(r) && CurrentLanguage() == Lang::kKo) {  // the exact amount beside 억/만 (under it on a phone)
    const std::string exact = "(" + FormatKrwGrouped(r.expected_usd * r.display_per_usd) + ")";
    SameLineIfRoom(exact);
    ImGui::TextDisabled("%s", exact.c_str());
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(TrFormat("results.subline", {FormatDuration(r.expected_hours), FormatPercent(r.goodput),
                                                      FormatDisplayMoney(r, r.usd_per_billion_tokens)}).c_str());
  ImGui::PopTextWrapPos();
  if (EvidenceBandReady()) DrawHeadlineBand(app);
  HeadlineSpread(app);
  // Half an em between the columns: a value never runs into its note ("$12.29 /GPU-h" beside "64 billed GPUs").
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(ImGui::GetFontSize() * 0.5f, ImGui::GetStyle().CellPadding.y));
  const bool table = ImGui::BeginTable("headline_table", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg);
  ImGui::PopStyleVar();
  if (!table) return;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthStretch);
  Row(app, Tr("eval.cost_per_job"), FormatDisplayMoney(r, r.expected_usd), Tr("results.cost_note"));
  if (vat.included()) {  // labels built here are not static: drawn without RecordRect
    std::string lines;
    const VatText t = VatLinesText(vat, r.display_per_usd, r.display_currency);  // adding up as shown (vat.h)
    for (const auto& [label, text] : {std::pair<std::string, std::string>{Tr("vat.supply"), t.supply},
                                      {TrFormat("vat.tax", {FormatPercent(vat.rate)}), t.vat},
                                      {Tr("vat.total"), t.total}}) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("  %s", label.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(text.c_str());
      ImGui::TableNextColumn();
      lines += label + " " + text + "\n";
    }
    RecordText(app, "vat_lines", lines);
  }
  if (r.finished_model.present)  // issue 50: the finished model beside the cost per run (job/program.h)
    Row(app, Tr("results.finished_model"), FormatDisplayMoney(r, r.finished_model.total_usd),
        TrFormat("results.finished_model_note", {FormatNumber(r.finished_model.abandoned_runs, 3)}).c_str());
  Row(app, Tr("results.finish_time"), FormatDuration(r.expected_hours), Tr("results.finish_note"));
  Row(app, Tr("eval.goodput"), FormatPercent(r.goodput), Tr("results.goodput_note"));
  Row(app, Tr("eval.cost_per_billion_tokens"), FormatDisplayMoney(r, r.usd_per_billion_tokens), "");
  char peak[32];
  std::snprintf(peak, sizeof peak, "%.4g", r.peak_tflops_per_gpu);
  Row(app, Tr("results.work"), FormatFlops(r.flops),
      TrFormat("results.work_note", {FormatPercent(r.mfu), Tr((std::string("mfu_source.") + MfuSourceName(r.mfu_source)).c_str()),
                                     peak}).c_str());
  Row(app, Tr("results.effective_price"), FormatDisplayMoney(r, r.usd_per_gpu_hour) + " /" + Tr("unit.gpu_h"),
      TrFormat("results.billed_gpus", {FormatCount(static_cast<double>(r.billed_gpus))}).c_str());
  if (r.tco.present) {  // owned hardware (issue 47): the cash to buy the servers, beside what the job bears
    const CapitalOutlay outlay = OwnedCapitalOutlay(app.scenario, r.tco, static_cast<double>(r.billed_gpus));
    Row(app, Tr("results.capital_outlay"), FormatDisplayMoney(r, outlay.usd),
        TrFormat("results.capital_outlay_note", {FormatCount(static_cast<double>(r.billed_gpus)), FormatDisplayMoney(r, outlay.vat_usd)}).c_str());
  }
  Row(app, Tr("eval.gpu_hours_billed"), FormatCount(r.billed_gpu_hours), "");
  Row(app, Tr("eval.interruptions"), FormatNumber(r.expected_interruptions, 3),
      TrFormat("results.cluster_mtbf", {r.cluster_mtbf_hours > 0 ? FormatDuration(r.cluster_mtbf_hours) : Tr("results.none")}).c_str());
  Row(app, Tr("results.checkpoint_interval_min"), FormatNumber(r.checkpoint_interval_minutes, 3),
      TrFormat("results.checkpoint_note", {FormatNumber(r.optimal_checkpoint_interval_minutes, 3),
                                           FormatNumber(r.checkpoint_write_minutes, 3)}).c_str());
  ImGui::EndTable();
}

void NormalVsExpected(AppState& app) {
  const Result& r = app.result;
  if (!ImGui::BeginTable("normal_vs_expected", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) return;
  // "Time" and "Cost" as wide as they are, the figures share the rest (on a phone a quarter of it broke "₩224,607,708").
  const float labels = std::max(ImGui::CalcTextSize(Tr("results.time")).x, ImGui::CalcTextSize(Tr("results.cost")).x);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, labels);
  for (int c = 1; c < 4; ++c) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);  // headers wrap in their columns rather than being cut
  for (const char* header : {"", Tr("results.normal_run"), Tr("results.with_failures"), Tr("results.failures_add")}) {
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(header);
    ImGui::PopTextWrapPos();
  }
  int cell = 0;
  // Wrapped at spaces in narrow columns, and checked for cuts; `then` (the share added) goes on its own line when
  // the two do not fit together, so that a figure is never broken inside ("+0./2%").
  auto text = [&](const std::string& t, const std::string& then = "") {
    ImGui::TableNextColumn();
    const bool apart = !then.empty() && ImGui::CalcTextSize((t + " " + then).c_str()).x > ImGui::GetContentRegionAvail().x;
    const std::string shown = then.empty() ? t : t + (apart ? "\n" : " ") + then;
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(shown.c_str());
    ImGui::PopTextWrapPos();
    RecordRect(app, "normal_vs_expected", cell++, WidestWord(shown));  // a figure broken inside reads as cut
  };
  // The figures are core's (FailuresAddOf, the result document's "failures_add"): the panel only formats them.
  const FailuresAdd fa = FailuresAddOf(r);
  auto row = [&](const char* label, double normal, double expected, double added, double share,
                 std::string (*fmt)(const Result&, double)) {
    ImGui::TableNextRow();
    text(label);
    text(fmt(r, normal));
    text(fmt(r, expected));
    char pct[32];
    std::snprintf(pct, sizeof pct, "(+%.1f%%)", 100 * share);
    text(fmt(r, added), pct);
  };
  row(Tr("results.time"), r.normal_run_hours, r.expected_hours, fa.hours, fa.hours_fraction,
      [](const Result&, double h) { return FormatDuration(h); });
  row(Tr("results.cost"), r.normal_run_usd, r.expected_usd, fa.usd, fa.usd_fraction, FormatDisplayMoney);
  ImGui::EndTable();
}

// Each part's colour: its rank among the parts the result shows anywhere (money, the finished model, GPU-hours,
// time), so that every part on screen has a colour of its own and keeps it from bar to bar (by the part's index,
// issue 50's parts had reused the first ones': stopped instances drew in recovery's pink).
void PartColors(const Result& r, int* colors) {
  int next = 0;
  for (int p = 0; p < kPartCount; ++p) {
    const bool shown = r.cost_usd.part[p] > 0 || r.gpu_hours.part[p] > 0 || r.time_hours.part[p] > 0 ||
                       (r.finished_model.present && r.finished_model.usd.part[p] > 0);
    colors[p] = shown ? next++ : p;
  }
}

// `total` as the headline writes it (the money's total in full, as the headline above it: "1,119만 8,513 원", not
// the bar's short "1,120만").
std::string Breakdown(const char* id, const char* title, const gpucost::Breakdown& b, const std::string& total,
                      const int* colors, chart::Formatter format, double scale = 1) {
  const char* labels[kPartCount];
  double values[kPartCount];
  for (int p = 0; p < kPartCount; ++p) {
    values[p] = b.part[p] * scale;
    labels[p] = values[p] > 0 ? PartLabel(p) : "";  // a part at 0 is not drawn: its name is not looked up (first load)
  }
  ImGui::Spacing();
  const std::string line = std::string(title) + ": " + total;
  ImGui::TextUnformatted(line.c_str());
  chart::DrawStackedBar(id, values, labels, colors, kPartCount, format, ImGui::GetFrameHeight());
  return line;
}

// Memory in GiB (2^30 bytes, base/numeric.h), as the datasheets' "80 GB" HBM is (issue 47: 80 GiB read as "85.9 GB"
// before); the capacity bar's labels take GiB.
std::string FormatGibLabel(double gib) { return FormatNumber(gib, 3) + " GiB"; }
std::string FormatSeconds(double s) { return FormatNumber(s, 3) + " s"; }

// Memory per GPU against the device's HBM (first pipeline stage), and the smallest layout that fits.
void MemoryFit(const Result& r) {
  if (!r.memory_present) return;
  const MemoryBreakdown& m = r.memory;
  const char* labels[] = {Tr("memory.weights"), Tr("memory.gradients"), Tr("memory.optimizer"), Tr("memory.gathered"),
                          Tr("memory.activations"), Tr("memory.overhead")};
  const double gib[] = {m.weights_bytes / kBytesPerGib, m.gradients_bytes / kBytesPerGib, m.optimizer_bytes / kBytesPerGib,
                        m.gathered_bytes / kBytesPerGib, m.activations_bytes / kBytesPerGib, m.overhead_bytes / kBytesPerGib};
  const int colors[] = {0, 1, 2, 3, 4, 7};
  ImGui::Spacing();
  const bool fits = m.fits();
  ImGui::PushTextWrapPos(0);  // a phone: the verdict goes to the next line and the note wraps, never cut (issue 30)
  ImGui::TextUnformatted(TrFormat("memory.title", {FormatGib(m.total_bytes(), 3), FormatGib(m.device_bytes, 3)}).c_str());
  const std::string verdict = fits ? TrFormat("memory.fits", {FormatGib(m.headroom_bytes(), 3)}) : std::string(Tr("memory.does_not_fit"));
  SameLineIfRoom(verdict);
  ImGui::TextColored(fits ? ImVec4(0.5f, 0.85f, 0.55f, 1) : kErrorColor, "%s", verdict.c_str());
  ImGui::PopTextWrapPos();
  chart::DrawCapacityBar("memory", gib, labels, colors, 6, m.device_bytes / kBytesPerGib, FormatGibLabel, ImGui::GetFrameHeight());
  if (!m.activations_known) {
    Hint(Tr("memory.activations_unknown"));
  }
  const LayoutFit& fit = r.memory_smallest_fit;
  if (!fits && fit.found) {
    ImGui::PushTextWrapPos(0);  // a phone: the layout's terms ran off the screen's edge
    ImGui::TextUnformatted(TrFormat("memory.smallest_fit", {std::to_string(fit.layout.gpus()), std::to_string(fit.layout.tensor),
                                                            std::to_string(fit.layout.pipeline), std::to_string(fit.layout.data),
                                                            std::to_string(fit.layout.zero_stage)}).c_str());
    ImGui::PopTextWrapPos();
  }
}

// Where one training step goes (step-time model), when the shape and layout are known.
void StepTimeParts(const Result& r) {
  const StepTime& st = r.step;
  if (!st.ok()) return;
  const char* labels[] = {Tr("step.compute"), Tr("step.memory_bound"), Tr("step.recompute"), Tr("step.tp_comm"),
                          Tr("step.pp_comm"), Tr("step.dp_comm"), Tr("step.bubble"), Tr("step.optimizer"),
                          Tr("step.ep_comm")};
  const double seconds[] = {st.compute_seconds, st.memory_bound_seconds, st.recompute_seconds, st.tp_comm_seconds,
                            st.pp_comm_seconds, st.dp_comm_seconds, st.bubble_seconds, st.optimizer_seconds,
                            st.ep_comm_seconds};
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0);  // a phone in Korean: "초당 토큰 2,923,455" ran off the screen
  ImGui::TextUnformatted(TrFormat("step.title", {FormatSeconds(st.seconds), FormatPercent(st.mfu), FormatPercent(st.hfu),
                                                 FormatCount(st.tokens_per_second)}).c_str());
  ImGui::PopTextWrapPos();
  chart::DrawStackedBar("step", seconds, labels, nullptr, 9, FormatSeconds, ImGui::GetFrameHeight());
}

void Problems(AppState& app) {
  ImGui::TextColored(kErrorColor, "%s", Tr("results.cannot_evaluate"));
  ImGui::PushTextWrapPos(0);
  std::string paths;  // for tests: which fields are asked for
  for (const InputError& e : app.problems) {
    ImGui::TextColored(kErrorColor, "- %s", e.Text(CurrentLanguage()).c_str());
    paths += (paths.empty() ? "" : ";") + e.path;
  }
  ImGui::PopTextWrapPos();
  RecordText(app, "problem_paths", paths);
}

}  // namespace

// What the model covers, said where the result is read (issue 50; the CLI's --help says the same).
static void ScopeNote() {
  ImGui::Spacing();
  // Below the results, off screen when the page opens: its text is looked up only once it can be seen, so it is
  // not in the first frame's strings (the first load). Until then, room of three lines.
  const float room = ImGui::GetTextLineHeightWithSpacing() * 3;
  if (!ImGui::IsRectVisible(ImVec2(ImGui::GetContentRegionAvail().x, room))) return ImGui::Dummy(ImVec2(0, room));
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", Tr("scope.not_modelled"));
  ImGui::PopTextWrapPos();
}

void DrawResultsOf(AppState& app);

void DrawResults(AppState& app) {
  DrawResultsOf(app);
  ScopeNote();
}

void DrawResultsOf(AppState& app) {
  const Result& r = app.result;
  if (!r.ok) {
    Problems(app);
    return;
  }
  if (r.inference.present && BlockedHeadline(app)) return DrawWarnings(r);  // a service that cannot run (issue 31)
  if (r.inference.present) return DrawInferenceResults(app);  // serving (ui_inference.cpp)
  if (BlockedHeadline(app)) {  // no price: what blocks it, and the details that explain it
    MemoryFit(r);
    StepTimeParts(r);
    DrawWarnings(r);
    return;
  }
  Headline(app);
  ImGui::Spacing();
  NormalVsExpected(app);
  int colors[kPartCount];
  PartColors(r, colors);
  RecordText(app, "where_money", Breakdown("money", Tr("results.where_money"), r.cost_usd,
                                            FormatDisplayMoney(r, r.expected_usd), colors, ShortMoneyFormat(r),
                                            r.display_per_usd));
  if (r.finished_model.present)
    Breakdown("finished_model", Tr("results.where_finished_model"), r.finished_model.usd,
              FormatDisplayMoney(r, r.finished_model.total_usd), colors, ShortMoneyFormat(r), r.display_per_usd);
  Breakdown("gpu_hours", Tr("results.where_gpu_hours"), r.gpu_hours, FormatGpuHours(r.billed_gpu_hours), colors,
            FormatGpuHours);
  Breakdown("time", Tr("results.where_time"), r.time_hours, FormatResultHours(r.expected_hours), colors,
            FormatResultHours);
  MemoryFit(r);
  StepTimeParts(r);
  DrawWarnings(r);
}

void DrawWarnings(const Result& r) {
  if (r.warnings.count == 0) return;
  ImGui::Spacing();
  ImGui::TextUnformatted(Tr("eval.warnings"));
  ImGui::PushTextWrapPos(0);
  for (int i = 0; i < r.warnings.count; ++i) ImGui::TextColored(kWarnColor, "- %s", r.warnings.Text(i, CurrentLanguage()).c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace gpucost::app
