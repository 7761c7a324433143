// pricing.h — the same job under every pricing model side by side (on-demand, spot, reserved, owned), each
// evaluated in full, with its capacity risk.
#pragma once
#include "base/message.h"
#include "job/evaluate.h"
#include "job/result.h"
#include "money/pricing_model.h"
#include "scenario/scenario.h"

namespace gpucost {

constexpr int kModelCount = 4;
constexpr int kRiskTextCapacity = 240;

struct ModelCost {
  PricingModel model = PricingModel::kOnDemand;
  double usd_per_gpu_hour = 0;     // pre-tax price per billed GPU-hour (blended above a commitment)
  double job_usd = 0;              // Evaluate() less the term after the job and the delay cost: the job itself,
                                   // every billed part and its tax included
  double term_tail_usd = 0;        // reserved: commitment paid after the job ends, to the end of the term (with
                                   // tax; less pricing.reserved.other_use_fraction)
  double delay_usd = 0;            // the delay cost (capacity.h; not billed, not taxed), a column of its own
  double total_usd = 0;            // job_usd + term_tail_usd + delay_usd = Evaluate()'s expected_usd
  double expected_hours = 0;
  double ratio_to_on_demand = 0;   // total_usd / on-demand total_usd
  bool capacity_guaranteed = false;
  char risk[kRiskTextCapacity] = {};  // English, as documents carry it
  Message risk_message;               // the same as a key and parameters (rendered in the reader's language)
  BlockingState blocking;             // a row that cannot run as described (or a model its offer does not list) is
                                      // said, not priced: never the cheapest (issue 45)
  Result result;
};

struct PricingComparison {
  bool ok = false;
  double on_demand_usd_per_gpu_hour = 0;  // the anchor (see OnDemandReferenceUsdPerGpuHour)
  ModelCost models[kModelCount];          // indexed by PricingModel
  int cheapest = 0;                       // index of the lowest total_usd (the delay cost included, capacity.h) of
                                          // the rows not blocked (the first row when every row is blocked)
  int cheapest_rate = 0;                  // index of the lowest price per GPU-hour (issue 29), likewise
};

// Evaluates the scenario's job under on-demand, spot, reserved and owned. ok is false when the scenario
// cannot be evaluated.
PricingComparison ComparePricingModels(const Scenario& s);

}  // namespace gpucost
