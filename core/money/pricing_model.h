// pricing_model.h — one price per pricing model: the scenario re-priced under on-demand, spot, reserved or owned
// (the comparison's rows, a switched model, a pin).
#pragma once
#include "scenario/scenario.h"

namespace gpucost {

const char* PricingModelName(PricingModel m);  // "on_demand", "spot", "reserved", "owned"

// The on-demand price (USD per GPU-hour, on the scenario's tax basis) the comparison is anchored on:
// the scenario's price when it is on-demand; spot and reserved prices divided by (1 - their discount)
// unless reserved.usd_per_gpu_hour_on_demand is given; owned: owned.compare_usd_per_gpu_hour.
// A KRW price (pricing.krw_per_gpu_hour) is converted with krw_per_usd first.
double OnDemandReferenceUsdPerGpuHour(const Scenario& s);

// `s` re-priced under `model`: the scenario's own price for its own model, otherwise the on-demand
// reference x (1 - discount) (spot, reserved) or the owned TCO. Owned hardware carries no rental tax.
Scenario WithPricingModel(const Scenario& s, PricingModel model);

}  // namespace gpucost
