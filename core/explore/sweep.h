// sweep.h — cost per completed job, expected time and goodput against the GPU count N, marking the cheapest
// configuration, the fastest, the fastest within a budget and the cheapest within a deadline.
//
// Each point is the base scenario with cluster.gpus = N and parallel.data_parallel = N / (tensor x pipeline)
// (tensor, pipeline and the other layout choices are kept), evaluated by Evaluate(). So everything Evaluate
// models moves with N: failures (the cluster MTBF falls as 1/N), checkpoint interval, whole-node billing,
// hot spares, memory per GPU (ZeRO shards over the data-parallel group), the batch-size effect.
// One feasibility rule (every surface uses it): a point is feasible when it evaluates, a layout exists at that
// count (with a model shape: tensor x pipeline x data is a valid layout the step-time model accepts), it fits
// in GPU memory, its data-parallel replicas x micro-batch do not exceed the global batch, and it finishes.
// Infeasible points are kept with their reason (gaps in a chart), never marked.
// One MFU policy across all points:
//   1. options.mfu_at_gpus (the hook below), when set: its MFU is given to the point as cluster.mfu;
//   2. the fit of scaling.points (Amdahl/USL, scaling_fit.h) at N, extrapolated with a warning;
//   3. with the model shape and global batch: the MFU predicted by the step-time model (steptime.h) at every N.
//      A given cluster.mfu is the MFU at the scenario's own count: the sweep turns it into the single-node
//      figure (cluster.mfu / scaling efficiency there) that the communication model scales, so the point at
//      cluster.gpus equals `gpucost eval` and the others show the scaling loss;
//   4. else cluster.mfu (or the default): flat, no scaling loss (flat_mfu says so).
// Global batch: fixed (strong scaling) or, with options.batch_grows_with_gpus, proportional to N (weak
// scaling; the batch-size effect then grows with N).
// The sweet spot: the fastest feasible point whose cost is at most kSweetSpotSlack above the cheapest.
// No allocation per point except the output vector (reserved once). SweepBegin/SweepStep run it in slices.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "job/result.h"
#include "scenario/scenario.h"
#include "base/i18n.h"

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
  const char* infeasible_reason = ""; // why not ("" when feasible), in English (the string table's entry)
  const char* infeasible_key = "";    // the same as a string-table key (msg.sweep_*), rendered in the reader's language
  double expected_hours = 0, expected_usd = 0, normal_run_hours = 0, normal_run_usd = 0;
  double goodput = 0;
  double mfu = 0;
  MfuSource mfu_source = MfuSource::kDefault;
  double scaling_efficiency = 0;      // from the fit or the step model (0: not known)
  double expected_cost = 0;           // expected_usd in the scenario's currency
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
  int sweet_spot = -1;                // fastest point costing at most kSweetSpotSlack above the cheapest
  bool flat_mfu = false;              // MFU did not vary with N (given or default): no scaling loss modelled
  double single_node_mfu = 0;         // policy 3 with a given cluster.mfu: the single-node MFU it implies (0: none)
  const char* currency = "USD";       // of expected_cost
  double per_usd = 1;
};
constexpr double kSweetSpotSlack = 0.10;

// The GPU counts a sweep visits (ascending, distinct, at most kMaxSweepPoints; always includes cluster.gpus).
// Writes them to out (capacity kMaxSweepPoints) and returns the count.
int SweepGpuCounts(const Scenario& base, const SweepOptions& options, std::int64_t* out);

// Evaluates the base scenario at each GPU count. The base must be valid (ValidateScenario).
SweepResult SweepGpuCount(const Scenario& base, const SweepOptions& options = SweepOptions());

// The same sweep in slices (the page spreads it over frames).
struct SweepRun {
  Scenario base;
  SweepOptions options;
  std::int64_t counts[kMaxSweepPoints] = {};
  int count = 0;
  SweepResult result;
  bool done = false;
  double Progress() const { return count > 0 ? static_cast<double>(result.points.size()) / count : 1.0; }
};
void SweepBegin(const Scenario& base, const SweepOptions& options, SweepRun* run);
// Evaluates up to max_points more points; marks the result when the last is done. Returns run->done.
bool SweepStep(SweepRun* run, int max_points);

// The marks of point i, e.g. "cheapest, sweet spot" ("" when none).
std::string SweepMarks(const SweepResult& r, int i, Lang lang = Lang::kEn);  // the documents carry English

}  // namespace gpucost
