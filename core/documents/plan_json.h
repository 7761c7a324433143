// plan_json.h — the plan document.
#pragma once
#include <string>

#include "training/plan.h"
#include "explore/plan_prices.h"

namespace gpucost {

// The plan document of `gpucost plan --format json` and the page's view("plan"): {"evaluated", "fitting",
// "seconds", "objective", "top", "currency", "plans": [{"parallel", "step", "memory", "job"}]}. "seconds" is
// the search's own time (the only figure that differs between runs).
std::string PlanToJson(const PlanSearch& search, int indent = 2);

}  // namespace gpucost
