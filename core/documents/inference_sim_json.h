// inference_sim_json.h — the request simulation document (gpucost mc on a serving scenario; explore/inference_sim.h).
#pragma once
#include <string>

#include "explore/inference_sim.h"

namespace gpucost {

// The document of gpucost mc for an inference scenario (and the page).
std::string InferenceSimToJson(const Scenario& s, const InferenceSimResult& r, int indent = 2);

}  // namespace gpucost
