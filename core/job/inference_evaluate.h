// inference_evaluate.h — a serving job evaluated whole: the service sized and timed (serving/serving_plan.h
// PlanServing), then priced by the one billing engine (job/inference_billing.h BillServing) into Result's
// named parts. Evaluate() (evaluate.h) calls it for workload.kind = inference.
#pragma once

#include "job/result.h"
#include "scenario/scenario.h"
#include "serving/inference.h"

namespace gpucost {

// The inference part of Evaluate(): fills r (ok, expected_usd, cost_usd, time and GPU-hours, warnings,
// inference). Returns false when the scenario cannot be evaluated (unknown GPU, unsupported precision).
bool EvaluateInference(const Scenario& s, Result* r);

// A service as it ran (documents/actual.h, plan versus actual): the plan's service sized and timed as
// EvaluateInference does it, then its pools' held GPU-hours, the period and the work replaced by what a run record
// measured, and priced by the same engine (BillServing; no second price formula). The pools are held as rented
// GPU-hours (ServingPool::rented_gpu_h), shared between a split's pools as the plan shares them; the work of the
// requests served is the plan's per request (prefill, KV transfer) and per output token (decode), at full batch.
struct ServingUsage {
  double hours = -1;            // the period (the run's wall time; < 0: the plan's)
  double held_gpu_hours = -1;   // GPU-hours the replicas were held (< 0: the plan's per hour, over `hours`)
  double requests = -1;         // requests served (< 0: the plan's per hour, over `hours`)
  double output_tokens = -1;    // output tokens generated (< 0: the plan's per request)
};
// What the plan held and served, for the comparison (the run's figures filled where the usage gave none).
struct ServingHeld {
  double planned_gpu_hours = 0, planned_replica_hours = 0, planned_requests = 0, planned_output_tokens = 0,
         planned_hours = 0;
  double gpu_hours = 0, replica_hours = 0, requests = 0, output_tokens = 0;
  double planned_work_gpu_hours = 0, work_gpu_hours = 0;  // prefill, decode and KV transfer at full batch
  double gpus_per_replica = 0;  // the plan's held GPU-hours over its replica-hours (colocated: the replica's GPUs)
};
// Fills r as EvaluateInference does for the run's usage (ServingUsage{}: the plan as planned, EvaluateInference
// itself); false when the scenario cannot be evaluated.
bool EvaluateServingUsage(const Scenario& s, const ServingUsage& use, Result* r, ServingHeld* held);

// The cost-latency frontier as load rises (the page's chart): the scenario's replicas as sized for its own
// load and target, held fixed, evaluated at `points` loads from 5% to 100% of their capacity (without a
// target: of 95% of the saturated rate). Cost per million output tokens falls as load rises while latency
// grows; a target cuts the curve where its latency is reached.
struct InferenceFrontierPoint {
  double requests_per_second = 0;
  double utilization = 0;               // of the capacity within the target
  double usd_per_million_output_tokens = 0;
  double usd_per_request = 0;
  double ttft_ms = 0, tpot_ms = 0;      // at the scenario's percentile
  bool slo_met = false;
};
constexpr int kInferenceFrontierMaxPoints = 64;
// Fills out[0..n) and returns n (0 when the scenario cannot be evaluated or does not fit).
int InferenceFrontier(const Scenario& s, int points, InferenceFrontierPoint* out);

}  // namespace gpucost
