// pricing_json.h — the pricing document (explore/pricing.h as JSON).
#pragma once
#include <string>

#include "base/message.h"
#include "explore/pricing.h"
#include "scenario/scenario.h"
#include "money/tco.h"

namespace gpucost {

// The document of `gpucost pricing --format json` and the page's view("pricing") (schema gpucost/pricing@1).
// USD figures keep their _usd names; the same money in the scenario's currency has names without the unit.
std::string PricingToJson(const Scenario& s, const PricingComparison& c, int indent = 2);

// The comparison's words (issue 47), shared by the page's Compare view and `gpucost pricing`, in the document as
// "rate_note" and, for a serving scenario, each model's "serving" (cost per request, the all-in cost per million
// output tokens, spare GPUs) and "spot_note":
//   PricingRateNote: empty when the lowest price per GPU-hour is also the cheapest outcome; else, for a training
//     job, that time and delay made the difference; for a service, that it serves the load for less.
//   ServingSpotNote: for a service on spot, why spot costs what it does against on-demand (spare GPUs held to keep
//     the target while preempted nodes are reacquired, requests recomputed); empty otherwise.
Message PricingRateNote(const PricingComparison& c);
Message ServingSpotNote(const PricingComparison& c);
// The i18n key of a pricing model's name ("pricing.on-demand", ...).
const char* PricingModelKey(PricingModel m);

}  // namespace gpucost
