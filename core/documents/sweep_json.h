// sweep_json.h — the sweep document (gpucost sweep; explore/sweep.h).
#pragma once
#include <string>

#include "explore/sweep.h"

namespace gpucost {

// The document of `gpucost sweep --gpus --format json` and the page's view("sweep") (schema gpucost/sweep-gpus@1).
std::string SweepToJson(const SweepOptions& options, const SweepResult& r, int indent = 2);

}  // namespace gpucost
