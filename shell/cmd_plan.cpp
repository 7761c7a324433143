// gpucost plan FILE|- [--objective time|cost] [--top K] [--format table|json]
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cli.h"
#include "format.h"
#include "inference_cli.h"
#include "plan.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--objective", true, "time (default): shortest step; cost: cheapest completed job"},
    {"--top", true, "how many layouts to show, 1 to 32 (default 5)"},
    {"--format", true, "table (default) or json"},
};

const char* RecomputeName(Recompute r) {
  return r == Recompute::kFull ? "full" : r == Recompute::kSelective ? "selective" : "none";
}

std::string Seconds(double s) { return FormatDuration(s / 3600); }  // "0.369 ms", "1.2 s"

void PrintTable(const PlanSearch& p) {
  std::printf("%lld layouts evaluated (%lld fit in memory) in %s; best by %s for %lld GPUs, global batch %lld\n\n",
              static_cast<long long>(p.evaluated), static_cast<long long>(p.fitting), Seconds(p.seconds).c_str(),
              p.objective == PlanObjective::kCost ? "cost per completed job" : "step time",
              static_cast<long long>(p.gpus), static_cast<long long>(p.base.global_batch));
  Table t;
  t.Row({"#", "t", "p", "d", "mb", "v", "recompute", "sp", "zero", "step", "compute", "recomp", "comm", "bubble",
         "MFU", "HFU", "memory GB", "job"});
  t.Rule();
  for (int i = 0; i < p.count; ++i) {
    const PlanEntry& e = p.best[i];
    const Layout& l = e.layout;
    const StepTime& s = e.step;
    t.Row({std::to_string(i + 1), std::to_string(l.tensor), std::to_string(l.pipeline), std::to_string(l.data),
           std::to_string(l.micro_batch), std::to_string(l.interleave), RecomputeName(l.recompute),
           l.sequence_parallel ? "yes" : "no", std::to_string(l.zero_stage), Seconds(s.seconds),
           Seconds(s.compute_seconds + s.memory_bound_seconds), Seconds(s.recompute_seconds),
           Seconds(s.exposed_comm_seconds), Seconds(s.bubble_seconds), FormatPercent(s.mfu), FormatPercent(s.hfu),
           FormatNumber(e.memory.total_bytes() / 1e9, 3) + " / " + FormatNumber(e.memory.device_bytes / 1e9, 3),
           e.job_usd > 0 ? FormatMoney(e.job_cost, p.currency) : "-"});
  }
  t.Print(stdout);
  std::printf("\nt tensor, p pipeline, d data parallel, mb micro-batch, v interleave, sp sequence parallel.\n"
              "compute = matrix + memory-bound work; comm = exposed tensor/pipeline/data-parallel communication.\n"
              "MFU counts 6ND + attention FLOPs; HFU adds recomputed FLOPs; both against the dense peak.\n");
}

}  // namespace

int RunPlan(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kOptions, &args, "plan")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost plan FILE|- [--objective time|cost] [--top K] [--format table|json]",
               "Searches parallel layouts (tensor, pipeline, data parallel, micro-batch, interleaving, recompute,\n"
               "sequence parallelism, ZeRO stage) for cluster.gpus and parallel.global_batch; drops layouts that\n"
               "do not fit in memory and ranks the rest by predicted step time or cost per completed job.\n"
               "Needs workload.layers, hidden, heads, seq_len, vocab and parallel.global_batch.", kOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error("plan: expected one scenario file (or - for standard input)");
    return kExitInvalid;
  }
  const std::string objective_text = args.Get("--objective", "time");
  if (objective_text != "time" && objective_text != "cost") {
    Error("plan: --objective must be time or cost, got \"" + objective_text + "\"");
    return kExitInvalid;
  }
  double top = 5;
  if (args.Has("--top") && (!ParseNumber(args.Get("--top"), &top) || top < 1 || top > kMaxPlans || top != static_cast<int>(top))) {
    Error("plan: --top must be an integer from 1 to " + std::to_string(kMaxPlans) + ", got \"" + args.Get("--top") + "\"");
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
  const std::string error = PlanBegin(s, objective, static_cast<int>(top), search.get());
  if (!error.empty()) {
    Error(InputName(args.positional[0]) + ": " + error);
    return kExitInvalid;
  }
  PlanRun(search.get());
  PlanPriceJobs(s, search.get());
  if (format == Format::kJson) {
    std::printf("%s\n", PlanToJson(*search).c_str());
  } else if (search->count == 0) {
    std::printf("%lld layouts evaluated: none fits in %s GB per GPU. Use more GPUs or a larger GPU.\n",
                static_cast<long long>(search->evaluated), FormatNumber(search->device_bytes / 1e9, 3).c_str());
  } else {
    PrintTable(*search);
  }
  return kExitOk;
}

}  // namespace gpucost::cli
