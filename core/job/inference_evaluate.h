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
