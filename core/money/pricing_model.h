// pricing_model.h — one price per pricing model: the scenario re-priced under on-demand, spot, reserved or owned
// (the comparison's rows, a switched model, a pin).
#pragma once
#include "base/message.h"
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
// A price entered in won stays in won (pricing.krw_per_gpu_hour, re-derived the same way), and the pools' own
// prices (inference.<pool>.usd_per_gpu_hour) move with the model as the scenario's price does (issue 45: a spot
// row priced its pools on-demand). Owned hardware leaves them as they are (its pools are priced by their TCO).
Scenario WithPricingModel(const Scenario& s, PricingModel model);

// Switching a scenario's pricing model: the one way every path does it (the page's editor, `gpucost eval --set
// pricing.model=...`, a pin, and so a link or a comparison made after it). The scenario becomes exactly the one
// of that model's row in `gpucost pricing` (WithPricingModel of the scenario before the switch), so a price typed
// for one model is never reused for another; the note says what the price now is, in one line (msg.model_switch*;
// the page's status line, the CLI's stderr). Empty when the model does not change.
Message SwitchPricingModel(Scenario* s, PricingModel to);

}  // namespace gpucost
