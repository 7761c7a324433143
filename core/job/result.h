// result.h — what Evaluate() returns. Every total is a sum of named parts (a test asserts it).
#pragma once
#include <cstdint>

#include "money/capacity.h"
#include "training/datapipe.h"
#include "hardware/partition.h"
#include "training/loss_fit.h"
#include "job/program.h"
#include "serving/inference.h"
#include "training/memory.h"
#include "base/message.h"
#include "money/parts.h"
#include "money/tco.h"
#include "training/scaling_fit.h"
#include "training/steptime.h"

namespace gpucost {

enum class MfuSource : int { kGiven = 0, kPredicted, kDefault, kMeasured };  // kMeasured: fit of scaling.points
const char* MfuSourceName(MfuSource s);



struct Result {
  bool ok = false;  // false: invalid scenario (see json_io ValidateScenario); nothing else is meaningful

  // Work
  double flops = 0;                 // total training FLOPs used
  bool flops_include_attention = false;
  double flops_per_token = 0;
  double tokens = 0;
  double mfu = 0;
  MfuSource mfu_source = MfuSource::kDefault;
  double fp8_gain = 0;              // FP8 without a shape: the step-time model's gain used (fp8_gain.h; 0: none)
  double peak_tflops_per_gpu = 0;   // dense peak at the precision
  double achieved_tflops_per_gpu = 0;
  std::int64_t billed_gpus = 0;     // GPUs paid per hour (work + spares, rounded to whole nodes)

  // Time (hours)
  double ideal_hours = 0;           // compute only
  double normal_run_hours = 0;      // nothing fails: compute, data stalls, checkpoints, known downtime
  double expected_hours = 0;        // everything
  Breakdown time_hours;             // sums to expected_hours
  double goodput = 0;               // ideal / expected

  // GPU-hours
  double ideal_gpu_hours = 0;
  double billed_gpu_hours = 0;      // expected, after billing rules
  Breakdown gpu_hours;              // sums to billed_gpu_hours

  // Reliability
  double cluster_mtbf_hours = 0;    // between job-interrupting failures (0 = none)
  double expected_interruptions = 0;
  double expected_failures = 0;
  double expected_preemptions = 0;
  double expected_infant_failures = 0;  // issue 50: of expected_failures, early ones the burn-in left
  double expected_timeouts = 0;         // issue 50: of expected_failures, collective timeouts
  double checkpoint_interval_minutes = 0;
  double optimal_checkpoint_interval_minutes = 0;  // Daly
  double young_checkpoint_interval_minutes = 0;
  double checkpoint_write_minutes = 0;
  double checkpoint_gb = 0;
  double checkpoints_written = 0;
  bool never_finishes = false;

  // Data feed
  double data_required_gbps = 0;
  double data_stall_fraction = 0;

  // Money (USD)
  double usd_per_gpu_hour = 0;      // effective price before tax
  double normal_run_usd = 0;        // nothing fails: its bill and the delay cost of its own lateness (normal_run_delay_usd)
  double normal_run_delay_usd = 0;  // of normal_run_usd: the delay past the deadline a failure-free run has (A13)
  double expected_usd = 0;
  Breakdown cost_usd;               // sums to expected_usd
  double usd_per_billion_tokens = 0;
  double vat_usd = 0;               // the tax invoiced (= cost_usd tax, or recovered when pricing.vat_recoverable)
  double commitment_after_job_usd = 0;  // reserved: of cost_usd unused_commitment, the term after the job (pre-tax)
  double display_per_usd = 1;       // display currency units per USD
  const char* display_currency = "USD";

  TcoResult tco;
  // Step time of one global batch (steptime.h); step.ok() when the shape, layout and global batch are known.
  StepTime step;
  double scaling_efficiency = 0;   // per-GPU throughput at this size / one node (0: not computed)
  // Parallelism (parallelism.h): batch-size effect, memory per GPU, measured scaling fit.
  double batch_size_token_factor = 1;  // tokens needed / workload.tokens (McCandlish et al. 2018; 1 = off)
  bool memory_present = false;         // training with params known: memory below is meaningful
  MemoryBreakdown memory;              // per GPU (larger of first/last pipeline stage); activations need a shape
  LayoutFit memory_smallest_fit;       // searched when the layout does not fit (found = false otherwise)
  LayoutFit memory_fit_at_gpus;        // then also: the fastest layout that fits on cluster.gpus itself (issue 47)
  bool scaling_present = false;        // scaling.points given and fitted
  ScalingFit scaling_fit;
  ScalingPrediction scaling_at_gpus;   // the fit at cluster.gpus
  Warnings warnings;
  ScheduleOutlook schedule;            // issue 29 (capacity.h): wait for capacity, finish, deadline
  DataFeedResult data_feed;            // issue 29 (datapipe.h): which limit of the data pipeline binds
  double spare_fast_fraction = 1;      // issue 29 (spares.h): failures a free spare takes over (hot spares > 0)
  InferenceResult inference;           // workload.kind = inference (inference.h); present = false otherwise
  // Issue 50: the slice the job runs on (partition.h; on = false for whole GPUs) and the loss it trains to
  // (loss_fit.h; present = false when workload.tokens is given).
  Partition partition;
  LossTarget loss_target;
  FinishedModel finished_model;        // issue 50 (program.h): present = false without workload.program.*
};

}  // namespace gpucost
