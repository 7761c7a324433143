// pricing_json.h — the pricing document (explore/pricing.h as JSON).
#pragma once
#include <string>

#include "explore/pricing.h"
#include "scenario/scenario.h"
#include "money/tco.h"

namespace gpucost {

// The document of `gpucost pricing --format json` and the page's view("pricing") (schema gpucost/pricing@1).
// USD figures keep their _usd names; the same money in the scenario's currency has names without the unit.
std::string PricingToJson(const Scenario& s, const PricingComparison& c, int indent = 2);

}  // namespace gpucost
