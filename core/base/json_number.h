// A number in a JSON document: JSON has no infinity or NaN, so a figure that is not finite is written as null.
#pragma once

#include <cmath>

#include <nlohmann/json.hpp>

namespace gpucost {

inline nlohmann::json NumOrNull(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace gpucost
