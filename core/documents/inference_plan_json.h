// inference_plan_json.h — the serving plan document (gpucost plan on a serving scenario; explore/inference_plan.h).
#pragma once
#include <string>

#include "explore/inference_plan.h"

namespace gpucost {

std::string InferencePlanToJson(const Scenario& s, const InferencePlan& p, int indent = 2);

}  // namespace gpucost
