// gpucost eval FILE|- [--format table|json|csv]
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "evaluate.h"
#include "format.h"
#include "result_json.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--format", true, "table (default), json or csv"},
    {"--probe", true, "apply a probe report (gpucost probe): measured GEMM, HBM, link, storage figures"},
};

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
    head->Row({"  from measured points", std::string(ScalingLawName(r.scaling_fit.chosen)) + " fit, " +
                                             FormatPercent(r.scaling_at_gpus.efficiency) + " scaling efficiency" +
                                             (r.scaling_at_gpus.extrapolated ? " (EXTRAPOLATED)" : "")});
  if (r.batch_size_token_factor != 1)
    head->Row({"Batch-size token factor", FormatNumber(r.batch_size_token_factor, 4) + "x tokens (McCandlish et al.)"});
  if (!r.memory_present) return;
  const MemoryBreakdown& m = r.memory;
  head->Row({"Memory per GPU", FormatNumber(m.total_bytes() / 1e9, 4) + " of " + FormatNumber(m.device_bytes / 1e9, 4) +
                                   " GB" + (m.fits() ? ", fits" : ", DOES NOT FIT")});
  head->Row({"  model states", FormatNumber(m.model_states_bytes() / 1e9, 4) + " GB (weights " +
                                   FormatNumber(m.weights_bytes / 1e9, 3) + ", gradients " +
                                   FormatNumber(m.gradients_bytes / 1e9, 3) + ", optimizer " +
                                   FormatNumber(m.optimizer_bytes / 1e9, 3) + ")"});
  head->Row({"  activations", m.activations_known ? FormatNumber(m.activations_bytes / 1e9, 4) + " GB"
                                                  : std::string("unknown (give layers, hidden, heads, seq_len, vocab)")});
  head->Row({"  overhead", FormatNumber((m.overhead_bytes + m.gathered_bytes) / 1e9, 4) + " GB" +
                               (m.gathered_bytes > 0 ? " (incl. ZeRO-3 gathered weights)" : "")});
}

void PrintTable(const Scenario& s, const Result& r) {
  const char* cur = r.display_currency;
  const double k = r.display_per_usd;
  std::printf("%s\n", s.name[0] ? s.name : "scenario");
  const BlockingState blocked = FindBlockingState(s, r);
  if (blocked.blocked) std::printf("\n! %s\n  Fix: %s\n\n", blocked.reason.c_str(), blocked.fix.c_str());
  Table head;
  head.Row({"", ""});
  head.Row({"Cost per completed job", blocked.blocked ? std::string("not priced: the job cannot run as described")
                                                      : FormatMoney(r.expected_usd * k, cur)});
  head.Row({"  if nothing fails", FormatMoney(r.normal_run_usd * k, cur)});
  head.Row({"Expected time", FormatDuration(r.expected_hours)});
  head.Row({"  ideal (compute only)", FormatDuration(r.ideal_hours)});
  head.Row({"Goodput", FormatPercent(r.goodput)});
  head.Row({"GPU-hours billed", FormatCount(r.billed_gpu_hours)});
  if (r.tokens > 0) head.Row({"Cost per billion tokens", FormatMoney(r.usd_per_billion_tokens * k, cur)});
  head.Row({"MFU", FormatPercent(r.mfu) + " (" + MfuSourceName(r.mfu_source) + ")"});
  if (r.step.ok())  // steptime.h: one global batch, its parts, and MFU/HFU from the model shape and layout
    head.Row({"Step time (predicted)", FormatNumber(r.step.seconds, 4) + " s: compute " +
                                          FormatNumber(r.step.compute_seconds + r.step.memory_bound_seconds, 3) +
                                          ", recompute " + FormatNumber(r.step.recompute_seconds, 3) + ", comm " +
                                          FormatNumber(r.step.exposed_comm_seconds, 3) + ", bubble " +
                                          FormatNumber(r.step.bubble_seconds, 3) + "; HFU " + FormatPercent(r.step.hfu)});
  PrintParallelismRows(r, &head);
  head.Row({"Expected interruptions", FormatNumber(r.expected_interruptions, 3)});
  head.Row({"Checkpoint interval", FormatNumber(r.checkpoint_interval_minutes, 3) + " min (optimum " +
                                        FormatNumber(r.optimal_checkpoint_interval_minutes, 3) + ", Young " +
                                        FormatNumber(r.young_checkpoint_interval_minutes, 3) + ")"});
  head.Print(stdout);
  std::printf("\nWhere the time, GPU-hours and money go\n");
  Table t;
  t.Row({"part", "hours", "GPU-hours", std::string(cur), "share"});
  t.Rule();
  for (int p = 0; p < kPartCount; ++p) {
    if (r.time_hours.part[p] == 0 && r.gpu_hours.part[p] == 0 && r.cost_usd.part[p] == 0) continue;
    t.Row({PartLabel(p), FormatNumber(r.time_hours.part[p], 4), FormatCount(r.gpu_hours.part[p]),
           FormatMoney(r.cost_usd.part[p] * k, cur),
           FormatPercent(r.expected_usd > 0 ? r.cost_usd.part[p] / r.expected_usd : 0)});
  }
  t.Rule();
  t.Row({"Total", FormatNumber(r.expected_hours, 4), FormatCount(r.billed_gpu_hours), FormatMoney(r.expected_usd * k, cur),
         "100.0%"});
  t.Print(stdout);
  if (r.warnings.count) std::printf("\nWarnings\n");
  for (int i = 0; i < r.warnings.count; ++i) std::printf("  ! %s\n", r.warnings.text[i]);
}

}  // namespace

int RunEval(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kOptions, &args, "eval")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost eval FILE|- [--format table|json|csv] [--probe REPORT]",
               "Evaluates a scenario: expected (failure-inclusive) and normal-run time and cost per completed\n"
               "job, and the named parts they are made of.", kOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error("eval: expected one scenario file (or - for standard input)");
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
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
