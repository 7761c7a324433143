// inference.h — the cost of a completed request under a latency target (issue 17): serving a transformer,
// colocated (one pool runs prefill and decode) or disaggregated (prefill and decode pools, possibly of
// different GPUs, the KV cache sent between them). Scenario in (workload.kind = inference, inference.*),
// Result out, like training: the job total is Result::expected_usd as named parts (result.h) and the serving
// figures are Result::inference. Pure, allocation-free.
//
// Model (P parameters, L layers, h hidden, a heads, g KV heads, d = h/a, f FFN, V vocab, t tensor parallel,
// s prompt tokens, o output tokens, B sequences decoding at once):
//   * KV bytes per token (exact, GQA-aware): 2 (K and V) x L x g x d x kv bytes. Each of the t GPUs holds
//     max(g/t, 1) heads' worth (KV heads are replicated when t > g).
//   * Weights per GPU: P x weight bytes / t. Memory for the KV cache per GPU: HBM x gpu_memory_fraction -
//     weights - a workspace allowance (activations of one prefill chunk, CUDA graphs, allocator).
//   * Max concurrency per replica: KV tokens the replica holds / tokens one sequence reserves (full: s + o;
//     paged: s + o/2 rounded up to 16-token blocks), at most inference.max_batch.
//   * Prefill of one prompt: FLOPs 2 (P - embeddings) s + 2 L h s^2 (causal attention) + 2 h V (the first
//     token's logits), at t x peak x prefill_mfu x (GEMM-size efficiency / its large-GEMM value, the
//     step-time model's curve: utilisation grows with the tokens per GPU); never faster than reading the
//     weights; plus 2 L tensor-parallel all-reduces of s x h activations (ring, comm.h).
//   * Decode step at batch B: max((weights + B x context x KV bytes) / t / (HBM x efficiency),
//     2 P B / (t x peak x prefill_mfu)) + 2 L all-reduces of B x h (latency-bound: NVLink hops, so decode stops
//     improving beyond a few GPUs) + L kernel boundaries (30 us each, kKernelBoundarySecondsPerLayer, for a
//     dense layer's 6.25 kernels; issue 46: latent attention and the MoE routing add theirs) + step_overhead_ms; without CUDA graphs at least L x 0.34 ms of the host's launches (inference_model.h).
//     Context = s + o/2 on average.
//   * Continuous batching, colocated: prefills run as their own steps and stall every decode sharing the
//     replica, so TPOT = step / (1 - prefill share); the prefills that land inside one request's decode
//     (each stretching it, so letting more in: a branching process with variance mean / (1 - share)^2)
//     spread its TPOT (percentiles by the normal approximation). The decode batch
//     follows Little's law B = rate x (o - 1) x TPOT, solved as a fixed point.
//   * Queueing: the prefill server of a replica is M/D/1 (DistServe, Zhong et al. 2024, App. A:
//     W = rate D^2 / (2 (1 - rate D))), plus half a decode step (a colocated prefill waits for the step in
//     progress); waiting-time percentiles from the exponential tail P(W > x) = rho exp(-rho x / W)
//     (Kingman's heavy-traffic form). Latency rises with load; the target caps each replica's rate.
//   * Disaggregated: prefill replicas hold a request for its prefill plus the exposed KV transfer (layer by
//     layer: the part the prefill does not hide, at least the last layer's; else all of it) of
//     s x KV bytes over min(t_p, t_d) links at cluster.link_efficiency; decode replicas see no prefill
//     stalls. Each pool is sized for its own share of the target (rate match X prefill : Y decode replicas);
//     both pools hold the weights.
//   * Sizing: replicas = ceil(peak rate / the most one replica serves within the target). A batch job
//     (inference.requests) runs at the most a replica serves within the TPOT target.
//   * Money, as parts: the GPU-hours doing prefill and decode work (at the replica's full-batch efficiency),
//     capacity held idle for the peak and the target, the prefill GPUs held while the KV cache leaves
//     (kv_transfer), whole-node rounding (idle_gpus), failures (reliability.gpu_mtbf_hours: the replica
//     recovers for recovery_minutes, billed; its in-flight requests are recomputed: rework), the weights
//     stored (storage), egress, fees and tax. Input tokens carry prefill work, output tokens decode work; the
//     shared parts are split in proportion to the dollars of that work over all pools (one convention for a
//     colocated and a split set-up, kPerMillionTokensConvention; issue 28: a per-pool split made a split set-up's
//     output tokens look 3x dearer at a 3% different cost per request).
#pragma once
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

// The most replicas a pool is sized at, by the closed form and by the day (1e9: far beyond any fleet; a bound that
// keeps counts and GPUs integers). Reaching it is said (warning replicas_beyond_bound).
constexpr double kInferenceMaxSizedReplicas = 1e9;


// Issue 28: the router or load-balancer tier of a disaggregated set-up when inference.router.usd_per_hour is not
// given: AWS Application Load Balancer USD 0.0225 per ALB-hour + USD 0.008 per LCU-hour with one LCU (us-east-1,
// as quoted by cloud-horizons.com, 'ALB: the line item nobody watches', 2026-05-08; AWS's own page not read).
constexpr double kRouterDefaultUsdPerHour = 0.0225 + 0.008;

// How the per-million-token figures split the costs that serve both prompt and output (idle capacity held for
// the peak and the target, failures, whole nodes, storage, fees, tax): the JSON and the views state it.
constexpr const char* kPerMillionTokensConvention =
    "shared costs split between input and output tokens in proportion to the dollars of prefill (with the KV "
    "transfer) and decode work, over all pools; cost per request needs no convention";

// Latency percentiles, milliseconds.
struct LatencyMs {
  double p50 = 0, p90 = 0, p99 = 0;
  double mean = 0;
  double At(std::int64_t percentile) const { return percentile >= 99 ? p99 : percentile >= 90 ? p90 : p50; }
};

struct InferencePool {
  const char* gpu_id = "";       // catalog id (points into the catalog)
  std::int64_t tensor_parallel = 1;
  std::int64_t replicas = 0;
  bool replicas_given = false;
  double usd_per_gpu_hour = 0;   // before tax
  double weights_gb_per_gpu = 0;
  double kv_gb_per_gpu = 0;      // memory left for the KV cache (0 when the weights do not fit: inference_blocking.h)
  std::int64_t max_concurrency = 0;  // sequences per replica (KV memory and max_batch)
  double capacity_rps = 0;       // per replica, within the target (0: the target cannot be met)
  double saturated_rps = 0;      // per replica, at full batch, no target
  double batch = 0;              // mean sequences decoding per replica at the mean load
  double utilization = 0;        // mean load / (replicas x capacity)
};

// A day of load by the hour (issue 28, inference_day.h holds the model).
struct ServingDayHour {
  double requests_per_second = 0;
  std::int64_t replicas = 0;          // decode pool (colocated: the pool)
  std::int64_t prefill_replicas = 0;  // disaggregated; colocated: = replicas
  double gpus = 0;                    // GPUs rented in the hour, on average (warming and releasing ones too)
  double usd = 0;                     // before billing rounding, tax and the other parts
  double ttft_ms = 0, tpot_ms = 0;    // at the target's percentile
  bool slo_met = true;
};

struct ServingDay {
  bool present = false;
  bool autoscaled = false;
  ServingDayHour hour[kLoadProfileHours];
  double peak_multiplier = 0, mean_multiplier = 0;
  double requests = 0;                // per day
  double scale_up_minutes = 0;        // as used (given, or the cold start)
  std::int64_t scale_events = 0;      // replica starts per day (sessions)
  // GPU-hours per day.
  double serving_gpu_hours = 0;       // replicas in the hours they serve
  double cold_start_gpu_hours = 0;    // rented before serving
  double scale_down_gpu_hours = 0;    // kept after the last hour
  double rounding_gpu_hours = 0;      // billing increments and minimums of the sessions
  double usd = 0;                     // the day's GPU bill as planned (autoscaled, else the fixed fleet), pre-tax
  double usd_per_request = 0;
  std::int64_t fixed_replicas = 0, fixed_prefill_replicas = 0, fixed_gpus = 0;
  double fixed_usd = 0, fixed_usd_per_request = 0;  // the fixed fleet sized for the peak hour, all day
  double mean_rate_floor_usd = 0;     // the mean rate on replicas at full capacity (the lower bound)
  double attainment = 1;              // share of requests in hours meeting the target
  bool replicas_capped = false;       // an hour needed more than kInferenceMaxSizedReplicas in a pool (warned)
  // Per pool ([0] decode or the colocated pool, [1] prefill), GPU-hours per day and sessions: what the billing
  // engine is given (inference_billing.h ServingPool) when autoscaled.
  double pool_serving_gpu_hours[2] = {}, pool_cold_start_gpu_hours[2] = {}, pool_scale_down_gpu_hours[2] = {},
         pool_rounding_gpu_hours[2] = {};
  std::int64_t pool_scale_events[2] = {};
};

// A service (or batch job) on spot capacity (inference_billing.h).
struct InferenceSpot {
  bool present = false;
  double preemptions = 0;            // in the period, all pools
  double reacquire_minutes = 0;      // pricing.spot.reacquire_minutes: each preempted node is away this long
  double spare_gpus = 0;             // carried to hold the target while nodes are away (online service)
  double target_attainment = 1;      // P(the sized capacity is there) during reacquisition (batch job: 0, runs longer)
};

struct InferenceResult {
  bool present = false;
  bool disaggregated = false;
  bool batch_job = false;
  double kv_bytes_per_token = 0;
  double weights_gb_per_gpu = 0;     // the larger of the pools
  bool fits = false;                 // weights + workspace + one sequence's KV fit on every pool
  std::int64_t max_concurrency = 0;  // per replica (decode pool)
  LatencyMs ttft_ms, tpot_ms, e2e_ms;  // at the mean load on the sized replicas
  double prefill_ms = 0;             // one prompt, no queue
  double decode_step_ms = 0;         // one step at the mean batch
  double kv_transfer_ms = 0;         // exposed part (disaggregated)
  double request_path_ms = 0;        // each request's path to the engine (HTTP, tokenising), part of TTFT
  bool slo_met = true;
  double capacity_requests_per_second = 0;  // the replica set within the target
  double utilization = 0;            // mean load / capacity
  double requests = 0;               // served in the period (batch job: inference.requests)
  double requests_per_second = 0;    // mean (batch job: the rate it runs at)
  double peak_requests_per_second = 0;  // issue 47: the rate the replicas are sized for (the day profile's peak hour
                                        // x inference.peak_to_mean); 0 for a batch job
  double output_tokens_per_second = 0;
  double output_tokens_per_second_per_gpu = 0;
  InferencePool prefill, decode;     // colocated: decode is the one pool, prefill mirrors it
  std::int64_t gpus = 0;
  double usd_per_request = 0;
  double usd_per_million_input_tokens = 0;
  double usd_per_million_output_tokens = 0;
  // Issue 47: the whole bill over the output tokens (no split with the input tokens), and the share of the bill the
  // per-million-token split gives the output tokens (kPerMillionTokensConvention).
  double usd_per_million_output_tokens_all_in = 0;
  double output_share_of_cost = 0;
  double usd_per_hour = 0;
  double hours = 0;
  double router_usd_per_hour = 0;    // issue 28: the router tier billed (inference.router.usd_per_hour or default)
  double spec_tokens_per_step = 1;   // issue 28: expected tokens per decode step (speculative decoding)
  double spec_draft_tokens = 0;      // issue 47: tokens drafted per step (k; the default with a draft on auto)
  double prefill_saved_share = 0;    // issue 28: share of prefill FLOPs the cached prefix saves
  double kv_saved_gb_per_replica = 0;  // issue 28: KV memory the shared prefix saves at full concurrency
  ServingDay day;                    // issue 28: present with inference.load_profile
  InferenceSpot spot;                // pricing.model = spot
};


// Cross-field checks of an inference scenario (the shape, the precisions each GPU can run, the pools).
void ValidateInference(const Scenario& s, std::vector<InputError>* errors);

// Bytes of K and V one token adds to the cache of the whole model (all layers, all KV heads).
double KvBytesPerToken(const Scenario& s);


// Names of the inference.* enums (JSON).
const char* WeightPrecisionName(WeightPrecision p);
const char* KvPrecisionName(KvPrecision p);

}  // namespace gpucost
