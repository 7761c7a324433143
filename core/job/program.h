// program.h — the cost of a finished model, not of one clean run (issue 50: workload.program.*).
//
// A model is finished after more than its main run: experiments around it (ablations, small-scale trials,
// hyperparameter and data-mix searches), main runs started and abandoned (a bug, a divergence, bad data), and
// evaluation. gpucost prices them beside the cost per run (Result::expected_usd stays the run's):
//   experiments   workload.program.experiments x the run's money (its GPU time, failures, operations, storage,
//                 tax; without its delay cost and stopped instances): experiments on the same kind of cluster
//                 at the same price, sized as a multiple of the run
//   abandoned     with a share p of started runs abandoned (workload.program.abandoned_fraction), p / (1 - p) are
//                 abandoned before one finishes (the mean of a geometric count of failures before a success),
//                 each halfway through on average (assumed: an abandonment uniform over the run): p / (1 - p) / 2
//                 of the run's money
//   evaluation    workload.program.evaluation_hours on the run's billed GPUs at its price (its tax in the tax part)
// The finished model's cost is the run's named parts plus these three (parts.h kPartExperiments,
// kPartAbandonedRuns, kPartEvaluation): cost.finished_model_usd in the result document.
#pragma once
#include "money/parts.h"

namespace gpucost {

struct Scenario;
struct BillingTerms;

struct FinishedModel {
  bool present = false;     // a programme is given (any workload.program.* above 0)
  Breakdown usd;            // the run's parts + experiments, abandoned runs, evaluation; Total() = total_usd
  double total_usd = 0;
  double run_basis_usd = 0; // the run's money experiments and abandoned runs are multiples of
  double abandoned_runs = 0;// expected runs abandoned before one finishes: p / (1 - p)
  double evaluation_gpu_hours = 0;
  double evaluation_usd = 0;  // the evaluation with its tax (its tax is in usd's tax part)
};

// The finished model of a job whose run costs run_usd (parts run_parts) on billed_gpus at the terms' price;
// delay_usd and stopped_usd: of run_usd, what is not a multiple of the run (the delay's value, stopped instances).
FinishedModel FinishedModelOf(const Scenario& s, const BillingTerms& terms, double billed_gpus, const Breakdown& run_parts,
                              double run_usd, double delay_usd, double stopped_usd);

}  // namespace gpucost
