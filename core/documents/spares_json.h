// spares_json.h — the spares document (gpucost spares; explore/spares.h).
#pragma once
#include <string>

#include "explore/spares.h"

namespace gpucost {

std::string SparesToJson(const Scenario& s, const SparesSweepDoc& d, int indent = 2);

}  // namespace gpucost
