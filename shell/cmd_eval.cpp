// gpucost eval FILE|- [--format table|json|csv]
#include <cstdio>

#include <nlohmann/json.hpp>

#include "base/numeric.h"
#include "documents/field_edit.h"
#include "documents/open.h"
#include "cli.h"
#include "documents/result_json.h"
#include "documents/evidence_band_json.h"
#include "base/format.h"
#include "base/i18n.h"
#include "inference_cli.h"
#include "scenario/money_input.h"
#include "documents/vat.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kEvalOptions = {
    {"--format", true, "cli.opt.eval.format"},
    {"--probe", true, "cli.opt.eval.probe"},
    {"--set", true, "cli.opt.eval.set", true},
};

// --set "pricing.currency=KRW; pricing.owned.usd_per_kwh=₩120": each field as a person types it
// (money_input.h SetFieldFromText), in order; a conversion is said on stderr, a refusal stops with exit 2.
int ApplySets(const std::string& sets, Scenario* s) {
  for (std::string item : SplitList(sets, ';')) {
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      Error(TrFormat("cli.err.set_form", {item}));
      return kExitInvalid;
    }
    std::string path = item.substr(0, eq);
    while (!path.empty() && path.back() == ' ') path.pop_back();
    std::string label;
    Message note;
    if (const Message e = SetFieldProblem(s, path, item.substr(eq + 1), &label, &note); !e.empty()) {
      Error("--set: " + e.Text(CurrentLanguage()));
      return kExitInvalid;
    }
    if (!label.empty()) Error(path + ": " + label);
    if (!note.empty()) Error(note.Text(CurrentLanguage()));  // a switched pricing model: its price re-derived
  }
  for (const InputError& e : ValidateScenario(*s)) {
    Error("--set: " + e.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  return kExitOk;
}

void FlattenCsv(const nlohmann::json& j, const std::string& prefix, Table* t) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) FlattenCsv(*it, prefix.empty() ? it.key() : prefix + "." + it.key(), t);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) FlattenCsv(j[i], prefix + "." + std::to_string(i), t);
  } else {
    t->Row({prefix, j.is_string() ? j.get<std::string>() : j.dump()});
  }
}

// Measured scaling fit, batch-size effect and memory per GPU (issue 4), as rows of the summary table.
void PrintParallelismRows(const Result& r, Table* head) {
  if (r.scaling_present)
    head->Row({Tr("cli.eval.from_measured"),
               TrFormat("cli.eval.measured_fit", {ScalingLawName(r.scaling_fit.chosen), FormatPercent(r.scaling_at_gpus.efficiency)}) +
                   (r.scaling_at_gpus.extrapolated ? Tr("cli.eval.extrapolated") : "")});
  if (r.batch_size_token_factor != 1)
    head->Row({Tr("cli.eval.batch_factor"), TrFormat("cli.eval.batch_factor_value", {FormatNumber(r.batch_size_token_factor, 4)})});
  if (!r.memory_present) return;
  const MemoryBreakdown& m = r.memory;
  head->Row({Tr("cli.eval.memory_per_gpu"),
             TrFormat("cli.eval.memory_value", {FormatNumber(m.total_bytes() / kBytesPerGib, 4), FormatNumber(m.device_bytes / kBytesPerGib, 4)}) +
                 Tr(m.fits() ? "cli.eval.fits" : "cli.eval.does_not_fit")});
  head->Row({Tr("cli.eval.model_states"),
             TrFormat("cli.eval.model_states_value", {FormatNumber(m.model_states_bytes() / kBytesPerGib, 4), FormatNumber(m.weights_bytes / kBytesPerGib, 3),
                                                  FormatNumber(m.gradients_bytes / kBytesPerGib, 3), FormatNumber(m.optimizer_bytes / kBytesPerGib, 3)})});
  head->Row({Tr("cli.eval.activations"), m.activations_known ? FormatGib(m.activations_bytes)
                                                         : std::string(Tr("cli.eval.activations_unknown"))});
  head->Row({Tr("cli.eval.overhead"), FormatGib(m.overhead_bytes + m.gathered_bytes) +
                                      (m.gathered_bytes > 0 ? Tr("cli.eval.zero3_gathered") : "")});
}

// The headline cost says whether VAT is in it; with a tax rate, supply price, VAT and total follow (vat.h).
void PrintCostRows(const Scenario& s, const Result& r, Table* head) {
  const char* cur = r.display_currency;
  const double k = r.display_per_usd;
  const VatLines v = VatBreakdown(s, r);
  const BlockingState b = FindBlockingState(s, r);  // not priced: the reason is printed above the table
  const bool blocked = b.blocked;
  const std::string not_priced = Tr(std::string(b.code) == "price_by_quote" ? "quote.not_priced" : "results.not_priced");
  head->Row({std::string(Tr("eval.cost_per_job")) + " (" + Tr(VatHeadlineKey(v)) + ")",
             blocked ? not_priced : FormatMoney(r.expected_usd * k, cur)});
  if (v.included() && !blocked) {  // to the won or the cent, adding up as shown (vat.h)
    const VatText t = VatLinesText(v, k, cur);
    head->Row({std::string("  ") + Tr("vat.supply"), t.supply});
    head->Row({std::string("  ") + TrFormat("vat.tax", {FormatPercent(v.rate)}), t.vat});
    head->Row({std::string("  ") + Tr("vat.total"), t.total});
  }
  if (!blocked) head->Row({Tr("cli.eval.if_nothing_fails"), FormatMoney(r.normal_run_usd * k, cur)});
}

void PrintTable(const Scenario& s, const Result& r) {
  if (r.inference.present) return PrintInferenceTable(s, r);  // serving (cmd_inference.cpp)
  const char* cur = r.display_currency;
  const double k = r.display_per_usd;
  std::printf("%s\n", s.name[0] ? TerminalSafe(s.name).c_str() : Tr("cli.eval.scenario"));
  const BlockingState blocked = FindBlockingState(s, r);
  if (blocked.blocked)
    std::printf("\n! %s\n  %s\n\n", TerminalSafe(blocked.reason_message.Text(CurrentLanguage())).c_str(),
                TerminalSafe(TrFormat("results.fix", {blocked.fix_message.Text(CurrentLanguage())})).c_str());
  Table head;
  head.Row({"", ""});
  PrintCostRows(s, r, &head);
  // A job that cannot run as described is never priced (issue 45): as the page, no time, GPU-hours or money of the
  // job, only what blocks it and the details that explain it (a new user saw 2.58e+15 years and a cost per billion
  // tokens under "not priced").
  if (!blocked.blocked) {
    head.Row({Tr("eval.expected_time"), FormatDuration(r.expected_hours)});
    head.Row({Tr("cli.eval.ideal_time"), FormatDuration(r.ideal_hours)});
    head.Row({Tr("eval.goodput"), FormatPercent(r.goodput)});
    head.Row({Tr("eval.gpu_hours_billed"), FormatCount(r.billed_gpu_hours)});
    if (r.tokens > 0) head.Row({Tr("eval.cost_per_billion_tokens"), FormatMoney(r.usd_per_billion_tokens * k, cur)});
  }
  head.Row({Tr("eval.mfu"), FormatPercent(r.mfu) + " (" +
                                Tr((std::string("mfu_source.") + MfuSourceName(r.mfu_source)).c_str()) + ")"});
  if (r.step.ok())  // steptime.h: one global batch, its parts, and MFU/HFU from the model shape and layout
    head.Row({Tr("cli.eval.step_time"),
              TrFormat("cli.eval.step_time_value",
                       {FormatNumber(r.step.seconds, 4), FormatNumber(r.step.compute_seconds + r.step.memory_bound_seconds, 3),
                        FormatNumber(r.step.recompute_seconds, 3), FormatNumber(r.step.exposed_comm_seconds, 3),
                        FormatNumber(r.step.bubble_seconds, 3), FormatPercent(r.step.hfu)})});
  // Issue 46: the held-out error of the published runs most like this scenario, beside the predicted step.
  if (const EvidenceBand band = ResultEvidenceBand(s, r); band.applies)
    head.Row({Tr("band.label"), EvidenceBandText(band)});
  PrintParallelismRows(r, &head);
  head.Row({Tr("eval.interruptions"), FormatNumber(r.expected_interruptions, 3)});
  head.Row({Tr("cli.eval.checkpoint_interval"),
            TrFormat("cli.eval.checkpoint_interval_value", {FormatNumber(r.checkpoint_interval_minutes, 3),
                                                        FormatNumber(r.optimal_checkpoint_interval_minutes, 3),
                                                        FormatNumber(r.young_checkpoint_interval_minutes, 3)})});
  head.Print(stdout);
  if (blocked.blocked) {
    if (r.warnings.count) std::printf("\n%s\n", Tr("eval.warnings"));
    for (int i = 0; i < r.warnings.count; ++i) std::printf("  ! %s\n", TerminalSafe(r.warnings.Text(i, CurrentLanguage())).c_str());
    return;
  }
  std::printf("\n%s\n", Tr("cli.eval.where_it_goes"));
  Table t;
  t.Row({Tr("cli.eval.col_part"), Tr("cli.eval.col_hours"), Tr("cli.eval.col_gpu_hours"), std::string(cur), Tr("cli.eval.col_share")});
  t.Rule();
  for (int p = 0; p < kPartCount; ++p) {
    if (r.time_hours.part[p] == 0 && r.gpu_hours.part[p] == 0 && r.cost_usd.part[p] == 0) continue;
    t.Row({PartLabel(p), FormatNumber(r.time_hours.part[p], 4), FormatCount(r.gpu_hours.part[p]),
           FormatMoney(r.cost_usd.part[p] * k, cur),
           FormatPercent(r.expected_usd > 0 ? r.cost_usd.part[p] / r.expected_usd : 0)});
  }
  t.Rule();
  t.Row({Tr("cli.eval.total"), FormatNumber(r.expected_hours, 4), FormatCount(r.billed_gpu_hours), FormatMoney(r.expected_usd * k, cur),
         "100.0%"});
  t.Print(stdout);
  if (r.finished_model.present) {  // issue 50: the finished model beside the cost per run (job/program.h)
    const FinishedModel& f = r.finished_model;
    std::printf("\n%s\n", TrFormat("cli.eval.finished_model",
                                    {FormatMoney(f.total_usd * k, cur), FormatMoney(r.expected_usd * k, cur),
                                     FormatMoney(f.usd.part[kPartExperiments] * k, cur),
                                     FormatMoney(f.usd.part[kPartAbandonedRuns] * k, cur), FormatNumber(f.abandoned_runs, 3),
                                     FormatMoney(f.evaluation_usd * k, cur)}).c_str());
  }
  if (r.warnings.count) std::printf("\n%s\n", Tr("eval.warnings"));
  for (int i = 0; i < r.warnings.count; ++i) std::printf("  ! %s\n", TerminalSafe(r.warnings.Text(i, CurrentLanguage())).c_str());
}

}  // namespace

int RunEval(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kEvalOptions, &args, "eval")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost eval FILE|- [--format table|json|csv] [--probe REPORT] [--set PATH=VALUE;...]",
               "cli.help.eval", kEvalOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(TrFormat("cli.err.one_scenario", {"eval"}));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  if (args.Has("--set"))
    if (int rc = ApplySets(args.Get("--set"), &s)) return rc;
  if (args.Has("--probe"))
    if (int rc = ApplyProbeFile(args.Get("--probe"), &s)) return rc;
  Result r;
  if (int rc = EvaluateForOutput(InputName(args.positional[0]), s, &r)) return rc;
  if (format == Format::kJson) {
    std::printf("%s\n", ResultToJson(s, r).c_str());
  } else if (format == Format::kCsv) {
    Table t;
    t.Row({"field", "value"});
    FlattenCsv(nlohmann::json::parse(ResultToJson(s, r, -1)), "", &t);
    t.PrintCsv(stdout);
  } else {
    PrintTable(s, r);
  }
  return kExitOk;
}

}  // namespace gpucost::cli
