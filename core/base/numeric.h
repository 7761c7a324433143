// Small numeric helpers shared by the model's files.
#pragma once

#include <cstdint>

namespace gpucost {

// A count (GPUs, replicas, tokens) as a double, for arithmetic in doubles without a cast at every use.
inline double D(std::int64_t v) { return static_cast<double>(v); }

// Memory is counted in GiB (2^30 bytes), as the datasheets' "80 GB" of HBM is: every memory figure the CLI and the
// page show (format.h FormatGib), never GB beside GiB.
constexpr double kBytesPerGib = 1073741824.0;

}  // namespace gpucost
