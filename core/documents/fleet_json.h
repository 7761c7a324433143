// fleet_json.h — the fleet document (gpucost fleet; explore/fleet.h).
#pragma once
#include <string>

#include "explore/fleet.h"

namespace gpucost {

// The document of `gpucost fleet --format json` and the page's view("fleet") (schema gpucost/fleet-result@1);
// "input" holds the fleet document planned (schema gpucost/fleet@1, demand by month).
std::string FleetToJson(const FleetInputs& in, const FleetResult& r, int indent = 2);
// The fleet document of `in` (schema gpucost/fleet@1): ParseFleetJson(FleetInputsToJson(in)) plans the same fleet.
std::string FleetInputsToJson(const FleetInputs& in, int indent = 2);

}  // namespace gpucost
