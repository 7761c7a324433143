// serving_plan.h — a service sized and timed: the physics of a serving evaluation (PlanServing), the part of
// EvaluateInference (job/inference_evaluate.h) that knows no price. Pools sized for the peak load and the
// target, the throughput, hours and latencies at the mean load, whether the target holds at the peak.
#pragma once

#include <cstdint>

#include "base/message.h"
#include "scenario/scenario.h"
#include "serving/inference.h"
#include "serving/inference_model.h"

namespace gpucost {

// One pool of a service as sized: its replica, what one request occupies it for, its capacity per replica
// within the target and saturated, and the replicas and GPUs it holds.
struct ServingPoolPlan {
  ReplicaModel replica;
  double service_s = 0;     // what one request occupies the pool's prefill server for
  double ttft_extra_s = 0;  // exposed KV transfer (prefill pool of a split)
  bool prefill = true, decode = true, stalls = true;
  double capacity = 0;      // per replica, within the target
  double saturated = 0;     // per replica, no target
  std::int64_t replicas = 0;
  double billed_gpus = 0;
};

// What the money of a service is made from.
struct ServingPlan {
  InferenceModel m;
  bool split = false;       // disaggregated: prefill and decode pools
  bool batch_job = false;   // inference.requests > 0
  bool profiled = false;    // a day's load profile (issue 28)
  ServingPoolPlan decode;   // colocated: the one pool
  ServingPoolPlan prefill;  // disaggregated only
  double peak_rate = 0;     // requests per second the pools are sized for
  double mean_load_multiplier = 1;  // the day's mean over the typed rate (1 without a profile)
  double rate = 0;          // the mean load (batch job: the rate it runs at)
  double set_capacity = 0;  // the replica set within the target
  double decode_batch = 0;  // the mean decode batch at the mean load
};

// The physics of a serving evaluation: fills *ir (pools, latencies, throughput, fits) and *plan; the sizing's
// warnings go to *w. False when the scenario cannot be evaluated (unknown GPU, unsupported precision).
bool PlanServing(const Scenario& s, ServingPlan* plan, InferenceResult* ir, Warnings* w);

// GPU-seconds of decode work one request needs on a pool at the replica's full batch.
double DecodeWorkGpuSeconds(const InferenceModel& m, const ReplicaModel& r);

}  // namespace gpucost
