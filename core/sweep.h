// sweep.h — cost per completed job, expected time and goodput against the GPU count N, marking the cheapest
// configuration, the fastest, the fastest within a budget and the cheapest within a deadline.
//
// Each point is the base scenario with cluster.gpus = N and parallel.data_parallel = N / (tensor x pipeline)
// (tensor, pipeline and the other layout choices are kept), evaluated by Evaluate(). So everything Evaluate
// models moves with N: failures (the cluster MTBF falls as 1/N), checkpoint interval, whole-node billing,
// hot spares, memory per GPU (ZeRO shards over the data-parallel group), the batch-size effect.
// Scaling efficiency (the MFU at N), in Evaluate's order:
//   1. options.mfu_at_gpus (the hook below), when set: its MFU is given to the point as cluster.mfu;
//   2. cluster.mfu when the base scenario gives it: flat MFU at every N (no scaling loss; say so);
//   3. the fit of scaling.points (Amdahl/USL, scaling_fit.h) at N, extrapolated with a warning;
//   4. the step-time model (steptime.h) when shape, layout and global batch are known: predicted MFU at N;
//   5. else the default MFU: flat.
// Global batch: fixed (strong scaling; N beyond global_batch / micro_batch is infeasible) or, with
// options.batch_grows_with_gpus, proportional to N (weak scaling; the batch-size effect then grows with N).
// Points that are infeasible or whose memory does not fit are listed but never marked.
// No allocation per point except the output vector (reserved once).
#pragma once
#include <cstdint>
#include <vector>

#include "result.h"
#include "scenario.h"

namespace gpucost {

// Hook: the MFU of `point` (the scenario at one GPU count). Return 0 to leave Evaluate's own choice.
using MfuAtGpusFn = double (*)(const Scenario& point, void* context);

struct SweepOptions {
  std::int64_t min_gpus = 0;          // 0: tensor x pipeline (one model replica)
  std::int64_t max_gpus = 0;          // 0: 16 x cluster.gpus
  int points_per_doubling = 2;        // geometric spacing; GPU counts are rounded to multiples of
                                      // tensor x pipeline (and of whole nodes once N >= a node)
  bool batch_grows_with_gpus = false; // weak scaling: global_batch x N / cluster.gpus
  double budget_usd = 0;              // > 0: mark the fastest point with expected cost <= budget
  double deadline_hours = 0;          // > 0: mark the cheapest point with expected time <= deadline
  MfuAtGpusFn mfu_at_gpus = nullptr;  // see above
  void* mfu_context = nullptr;
};
constexpr int kMaxSweepPoints = 256;

struct SweepPoint {
  std::int64_t gpus = 0;
  std::int64_t data_parallel = 0;
  std::int64_t global_batch = 0;      // sequences (0: unknown)
  bool feasible = false;              // evaluated, the layout can split the batch, memory fits (or is unknown)
  const char* infeasible_reason = ""; // why not ("" when feasible)
  double expected_hours = 0, expected_usd = 0, normal_run_hours = 0, normal_run_usd = 0;
  double goodput = 0;
  double mfu = 0;
  MfuSource mfu_source = MfuSource::kDefault;
  double scaling_efficiency = 0;      // from the fit or the step model (0: not known)
  double expected_interruptions = 0;
  double cluster_mtbf_hours = 0;
  double batch_size_token_factor = 1;
  bool memory_known = false;
  double memory_total_gb = 0;
  bool scaling_extrapolated = false;  // the measured-point fit was extrapolated to this N
  bool within_budget = false, within_deadline = false;
};

struct SweepResult {
  std::vector<SweepPoint> points;     // ascending GPU count
  int cheapest = -1;                  // lowest expected cost (index into points; -1: none)
  int fastest = -1;                   // lowest expected time
  int fastest_within_budget = -1;     // options.budget_usd > 0
  int cheapest_within_deadline = -1;  // options.deadline_hours > 0
  bool flat_mfu = false;              // MFU did not vary with N (given or default): no scaling loss modelled
};

// The GPU counts a sweep visits (ascending, distinct, at most kMaxSweepPoints; always includes cluster.gpus).
// Writes them to out (capacity kMaxSweepPoints) and returns the count.
int SweepGpuCounts(const Scenario& base, const SweepOptions& options, std::int64_t* out);

// Evaluates the base scenario at each GPU count. The base must be valid (ValidateScenario).
SweepResult SweepGpuCount(const Scenario& base, const SweepOptions& options = SweepOptions());

}  // namespace gpucost
