// inference_plan.h — the cheapest way to serve an inference scenario's load within its latency target
// (gpucost plan on a workload.kind = inference scenario; issue 17).
//
// Searched: colocated (one pool) and disaggregated (a prefill pool and a decode pool, each its own GPU type),
// the GPU type of each pool (every catalog GPU with a price: the scenario's own for its GPUs, else the
// cheapest on-demand offer in assets/offers.json), tensor parallelism 1/2/4/8 per pool, and the batch cap
// (inference.max_batch). Each configuration is evaluated by the closed form (inference.h) with its replicas
// sized for the peak load and the target (the prefill:decode ratio follows), and ranked by cost per request.
// The result keeps the cheapest configurations that fit and meet the target, and the best of each family
// (mode and GPU pair) with the reason it loses: does not fit, misses the target, no price, or costs more.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hardware/catalog.h"
#include "serving/inference.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

struct InferenceCandidate {
  bool disaggregated = false;
  std::string prefill_gpu, decode_gpu;   // catalog ids (colocated: equal)
  std::int64_t prefill_tp = 1, decode_tp = 1;
  std::int64_t max_batch = 0;
  double prefill_usd_per_gpu_hour = 0, decode_usd_per_gpu_hour = 0;  // before tax
  // Evaluated.
  bool fits = false;
  bool slo_met = false;
  std::int64_t prefill_replicas = 0, decode_replicas = 0, gpus = 0;
  double usd_per_request = 0;
  double usd_per_million_output_tokens = 0;
  double usd_per_hour = 0;
  double ttft_ms = 0, tpot_ms = 0;       // at the scenario's percentile, at the mean load
  double kv_transfer_ms = 0;
  std::string verdict;                   // "best", "runner-up", or why it loses (English, as documents carry it)
  Message verdict_message;               // the same as a key and parameters (msg.verdict_*)
};

struct InferencePlan {
  bool ok = false;
  std::string error;                     // why there is no plan, in English
  Message error_message;                 // the same as a key and parameters
  std::int64_t evaluated = 0;            // configurations evaluated
  std::int64_t fitting = 0;              // of which fit in memory
  std::int64_t meeting = 0;              // of which also meet the target
  std::int64_t gpu_types = 0;            // GPU types with a price
  double seconds = 0;                    // wall time of the search (filled by the caller that times it)
  std::vector<InferenceCandidate> best;  // cheapest first, at most `top`; one per pools x replicas (the largest
                                         // batch cap among those costing the same)
  std::vector<InferenceCandidate> families;  // the best of each mode x GPU pair, cheapest first, with verdicts
};

// A catalog GPU with a price (per GPU-hour, on the scenario's tax basis) and where the price comes from.
struct PricedGpu {
  const GpuSpec* gpu;
  double usd_per_gpu_hour;
  std::string source;  // "the scenario", or the offer's id and date
};
// Every catalog GPU with a price: the scenario's own pools' prices for their GPUs, else the cheapest on-demand
// offer (assets/offers.json; before tax, so with tax when the scenario's prices include it).
std::vector<PricedGpu> PricedGpus(const Scenario& s);

constexpr int kInferencePlanMaxTop = 32;
// Batch caps searched (inference.max_batch).
constexpr std::int64_t kInferencePlanBatchCaps[] = {4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024};

// Searches every configuration; top: how many of the cheapest to keep (1..kInferencePlanMaxTop).
InferencePlan PlanInference(const Scenario& s, int top);

// The same search in slices (the page runs a few hundred configurations a frame): Step evaluates up to
// `configurations` more in the search's order and returns true once all are; Finish completes what is left and
// ranks (PlanInference is a search run to its end, so both give the same plan).
class InferencePlanSearch {
 public:
  InferencePlanSearch(const Scenario& s, int top);
  bool Step(std::int64_t configurations);
  bool done() const { return next_ >= total_; }
  std::int64_t total() const { return total_; }
  std::int64_t evaluated() const { return next_; }
  const InferencePlan& Finish();

 private:
  struct Pool {
    std::size_t gpu;  // index into gpus_
    std::int64_t tp;
  };
  InferenceCandidate Candidate(std::int64_t i) const;
  Scenario s_;
  int top_;
  std::vector<PricedGpu> gpus_;
  std::vector<Pool> pools_;
  std::int64_t total_ = 0, next_ = 0;
  bool finished_ = false;
  InferencePlan plan_;
  std::vector<InferenceCandidate> meeting_;
  std::map<std::string, InferenceCandidate> family_;
};

// The scenario with a candidate applied (mode, pools, prices, batch cap; replicas sized), for gpucost eval.
Scenario ApplyInferenceCandidate(const Scenario& s, const InferenceCandidate& c);


}  // namespace gpucost
