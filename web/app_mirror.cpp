// app_mirror.cpp — the result as HTML text, mirrored into a visually hidden element of the page (index.html
// #text-mirror): the canvas is pixels, this is what screen readers, browser translation, text selection and
// find-in-page see. The same figures as ui_results.cpp draws, formatted by the same functions.
#include <cstdio>

#include "app.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/inference_json.h"

namespace gpucost::app {
namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Cell(const char* tag, const std::string& text) { return "<" + std::string(tag) + ">" + Escape(text) + "</" + tag + ">"; }

std::string WarningsHtml(const Result& r) {
  if (r.warnings.count == 0) return "";
  std::string html = Cell("h2", Tr("eval.warnings")) + "<ul>";
  for (int i = 0; i < r.warnings.count; ++i) html += Cell("li", r.warnings.Text(i, CurrentLanguage()));
  return html + "</ul>";
}

// An inference result: cost per request and per million tokens, latency against the target, where the money goes
// (the serving bill's parts, in its order and names), warnings.
std::string ServingMirror(const Result& r) {
  const InferenceResult& ir = r.inference;
  auto small = [&r](double usd) { return FormatSmallMoney(usd * r.display_per_usd, r.display_currency); };
  auto ms = [](double v) { return FormatDuration(v / 3.6e6); };
  std::string html = "<p>" + Escape(TrFormat("inference.per_request", {small(ir.usd_per_request)})) + "; " +
                     Escape(TrFormat("inference.per_m_output", {small(ir.usd_per_million_output_tokens)})) + "; " +
                     Escape(TrFormat("inference.per_m_input", {small(ir.usd_per_million_input_tokens)})) + ".</p>";
  html += "<p>" + Escape(Tr("inference.ttft")) + " P90 " + Escape(ms(ir.ttft_ms.p90)) + "; " + Escape(Tr("inference.tpot")) +
          " P90 " + Escape(ms(ir.tpot_ms.p90)) + "; " + Escape(Tr("inference.target")) + ": " +
          Escape(Tr(ir.slo_met ? "inference.target_met" : "inference.target_missed")) + ".</p>";
  html += "<h2>" + Escape(Tr("inference.money")) + ": " + Escape(FormatDisplayMoney(r, r.expected_usd)) + "</h2><table>";
  for (int p : kInferencePartOrder) {
    if (r.cost_usd.part[p] == 0) continue;
    html += "<tr>" + Cell("th", InferencePartLabel(p)) + Cell("td", FormatDisplayMoney(r, r.cost_usd.part[p])) +
            Cell("td", FormatPercent(r.expected_usd > 0 ? r.cost_usd.part[p] / r.expected_usd : 0)) + "</tr>";
  }
  html += "</table>";
  return html + WarningsHtml(r);
}

}  // namespace

std::string AppTextMirror(const AppState& app) {
  const Result& r = app.result;
  std::string html = "<h1>gpucost: " + Escape(ScenarioLabel(app.scenario)) + "</h1>";
  if (!r.ok) {
    html += Cell("p", Tr("results.cannot_evaluate")) + "<ul>";
    for (const InputError& e : app.problems) html += Cell("li", e.Text(CurrentLanguage()));
    return html + "</ul>";
  }
  // A job that cannot run as described has no price, here as on the canvas (BlockedHeadline).
  const BlockingState b = FindBlockingState(app.scenario, r);
  if (b.blocked)
    return html + Cell("p", Tr(NotPricedKey(b))) +
           Cell("p", b.reason_message.Text(CurrentLanguage())) + Cell("p", TrFormat("results.fix", {b.fix_message.Text(CurrentLanguage())}));
  if (r.inference.present) return html + ServingMirror(r);  // an inference scenario (issue 17)
  html += Cell("p", TrFormat("mirror.summary", {FormatDisplayMoney(r, r.expected_usd), FormatDuration(r.expected_hours),
                                                FormatPercent(r.goodput), FormatDisplayMoney(r, r.usd_per_billion_tokens)}));
  const McState& mc = app.charts.mc;
  if (mc.have_summary && !mc.stale)
    html += Cell("p", TrFormat("mirror.spread", {std::to_string(mc.summary.trials), FormatDisplayMoney(r, mc.summary.cost_usd.p50),
                                                 FormatDisplayMoney(r, mc.summary.cost_usd.p90), FormatDuration(mc.summary.time_hours.p50),
                                                 FormatDuration(mc.summary.time_hours.p90)}));
  html += "<table>" + Cell("caption", Tr("mirror.caption")) + "<tr><th></th>" + Cell("th", Tr("results.normal_run")) +
          Cell("th", Tr("results.with_failures")) + Cell("th", Tr("results.failures_add")) + "</tr>";
  html += "<tr>" + Cell("th", Tr("results.time")) + Cell("td", FormatDuration(r.normal_run_hours)) + Cell("td", FormatDuration(r.expected_hours)) +
          Cell("td", FormatDuration(FailuresAddOf(r).hours)) + "</tr>";
  html += "<tr>" + Cell("th", Tr("results.cost")) + Cell("td", FormatDisplayMoney(r, r.normal_run_usd)) +
          Cell("td", FormatDisplayMoney(r, r.expected_usd)) + Cell("td", FormatDisplayMoney(r, FailuresAddOf(r).usd)) +
          "</tr></table>";
  html += Cell("h2", std::string(Tr("results.where_money")) + ": " + FormatDisplayMoney(r, r.expected_usd)) + "<table>";
  for (int p = 0; p < kPartCount; ++p) {
    if (r.cost_usd.part[p] == 0) continue;
    html += "<tr>" + Cell("th", PartLabelOf(r, p)) + Cell("td", FormatDisplayMoney(r, r.cost_usd.part[p])) +
            Cell("td", FormatPercent(r.expected_usd > 0 ? r.cost_usd.part[p] / r.expected_usd : 0)) + "</tr>";
  }
  html += "</table>" + Cell("h2", std::string(Tr("results.where_time")) + ": " + FormatDuration(r.expected_hours)) + "<table>";
  for (int p = 0; p < kPartCount; ++p) {
    if (r.time_hours.part[p] == 0) continue;
    html += "<tr>" + Cell("th", PartLabelOf(r, p)) + Cell("td", FormatDuration(r.time_hours.part[p])) + "</tr>";
  }
  html += "</table>";
  return html + WarningsHtml(r);
}

const char* AppTextMirrorLang() { return LanguageCode(CurrentLanguage()); }

}  // namespace gpucost::app
