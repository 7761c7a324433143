// gpucost plan FILE|- [--objective time|cost] [--top K] [--format table|json]
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "documents/catalog.h"
#include "cli.h"
#include "base/format.h"
#include "inference_cli.h"
#include "documents/plan_json.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kPlanOptions = {
    {"--objective", true, "cli.opt.plan.objective"},
    {"--top", true, "cli.opt.plan.top"},
    {"--format", true, "cli.opt.plan.format"},
};

std::string Seconds(double s) { return FormatDuration(s / 3600); }  // "0.369 ms", "1.2 s"

void PrintTable(const PlanSearch& p) {
  std::printf("%s\n\n", TrFormat("cli.plan.title", {std::to_string(p.evaluated), std::to_string(p.fitting), Seconds(p.seconds),
                                                   Tr(p.objective == PlanObjective::kCost ? "cli.plan.by_cost" : "cli.plan.by_time"),
                                                   std::to_string(p.gpus), std::to_string(p.base.global_batch)}).c_str());
  if (p.batch_auto) std::printf("%s\n\n", Tr("cli.plan.batch_auto"));
  Table t;
  t.Row({"#", "t", "p", "d", "mb", "v", Tr("cli.plan.col_recompute"), "sp", "zero", Tr("cli.plan.col_step"), Tr("cli.plan.col_compute"),
         Tr("cli.plan.col_recomp"), Tr("cli.plan.col_comm"), Tr("cli.plan.col_bubble"), "MFU", "HFU", Tr("cli.plan.col_memory"),
         Tr("cli.plan.col_job")});
  t.Rule();
  for (int i = 0; i < p.count; ++i) {
    const PlanEntry& e = p.best[i];
    const Layout& l = e.layout;
    const StepTime& s = e.step;
    t.Row({std::to_string(i + 1), std::to_string(l.tensor), std::to_string(l.pipeline), std::to_string(l.data),
           std::to_string(l.micro_batch), std::to_string(l.interleave), RecomputeLabel(l.recompute),
           Tr(l.sequence_parallel ? "ui.yes" : "ui.no"), std::to_string(l.zero_stage), Seconds(s.seconds),
           Seconds(s.compute_seconds + s.memory_bound_seconds), Seconds(s.recompute_seconds),
           Seconds(s.exposed_comm_seconds), Seconds(s.bubble_seconds),
           FormatPercent(s.mfu) + (s.beyond_evidence ? " (!)" : ""), FormatPercent(s.hfu),
           FormatNumber(e.memory.total_bytes() / 1073741824.0, 3) + " / " + FormatNumber(e.memory.device_bytes / 1073741824.0, 3),
           e.job_usd > 0 ? FormatMoney(e.job_cost, p.currency) : "-"});
  }
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.plan.legend"));
  bool doubted = false;
  for (int i = 0; i < p.count; ++i) doubted = doubted || p.best[i].step.beyond_evidence;
  if (p.count > 0)
    std::printf("%s\n", TrFormat("cli.plan.error_band", {FormatPercent(1 + kStepModelError.min) + " - " + FormatPercent(1 + kStepModelError.max),
                                                       FormatPercent(p.best[0].step.mfu_low), FormatPercent(p.best[0].step.mfu_high)}).c_str());
  if (doubted)
    std::printf("%s\n", TrFormat("cli.plan.beyond", {FormatPercent(p.best[0].step.best_measured_mfu)}).c_str());
}

}  // namespace

int RunPlan(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kPlanOptions, &args, "plan")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost plan FILE|- [--objective time|cost] [--top K] [--format table|json]",
               "cli.help.plan", kPlanOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(TrFormat("cli.err.one_scenario", {"plan"}));
    return kExitInvalid;
  }
  const std::string objective_text = args.Get("--objective", "time");
  if (objective_text != "time" && objective_text != "cost") {
    Error(TrFormat("cli.err.plan_objective", {objective_text}));
    return kExitInvalid;
  }
  double top = 5;
  if (args.Has("--top") && (!ParseNumber(args.Get("--top"), &top) || top < 1 || top > kMaxPlans || top != static_cast<int>(top))) {
    OptionRangeError("plan", "--top", IntegerRange("1", std::to_string(kMaxPlans)), args.Get("--top"));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  if (Kind(s) == WorkloadKind::kInference)  // serving: GPU per pool, TP, colocated vs split, batch cap
    return RunInferencePlan(s, InputName(args.positional[0]), static_cast<int>(top), format == Format::kJson);
  const PlanObjective objective = objective_text == "cost" ? PlanObjective::kCost : PlanObjective::kTime;
  auto search = std::make_unique<PlanSearch>();
  const Message error = PlanBegin(s, objective, static_cast<int>(top), search.get());
  if (!error.empty()) {
    Error(InputName(args.positional[0]) + ": " + error.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  PlanRun(search.get());
  PlanPriceJobs(s, search.get());
  if (format == Format::kJson) {
    std::printf("%s\n", PlanToJson(*search).c_str());
  } else if (search->count == 0) {
    std::printf("%s\n", TrFormat("cli.plan.none_fit", {std::to_string(search->evaluated), FormatNumber(search->device_bytes / 1073741824.0, 3)}).c_str());
  } else {
    PrintTable(*search);
  }
  return kExitOk;
}

}  // namespace gpucost::cli
