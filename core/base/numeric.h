// Small numeric helpers shared by the model's files.
#pragma once

#include <cstdint>

namespace gpucost {

// A count (GPUs, replicas, tokens) as a double, for arithmetic in doubles without a cast at every use.
inline double D(std::int64_t v) { return static_cast<double>(v); }

}  // namespace gpucost
