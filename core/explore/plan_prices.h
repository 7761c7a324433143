// plan_prices.h — the layout search's best plans priced as whole jobs (training/plan.h finds them by step time and
// memory; this evaluates each).
#pragma once
#include "scenario/scenario.h"
#include "training/plan.h"

namespace gpucost {

// Fills job_hours / job_usd of the kept plans with Evaluate() (the layout and its predicted MFU applied to s).
void PlanPriceJobs(const Scenario& s, PlanSearch* search);

}  // namespace gpucost
