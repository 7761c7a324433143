// probe_suggestions.h — what a probe report suggests for a scenario: the catalog GPU it matches, the measured
// fraction of each peak, the checkpoint's write time on the measured storage (the checkpoint sized exactly as the
// evaluation sizes it), the all-reduce's share of the peer bandwidth. Part of the probe's report document.
#pragma once
#include "hardware/probe.h"
#include "scenario/scenario.h"

namespace gpucost {

// Fills report->suggestions for scenario s (catalog match, peak fractions, checkpoint write time).
void DeriveSuggestions(const Scenario& s, ProbeReport* report);

}  // namespace gpucost
