// montecarlo_json.h — the Monte Carlo document (gpucost mc; explore/montecarlo.h).
#pragma once
#include <string>

#include "explore/montecarlo.h"

namespace gpucost {

// The document of `gpucost mc --format json` and the page's view("mc"): trials and seed, the statistics and
// histograms (USD, and cost in the scenario's currency from `closed_form`'s display rate).
std::string McSummaryToJson(const McSummary& m, const Result& closed_form, int indent = 2);

}  // namespace gpucost
