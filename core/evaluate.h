// evaluate.h — the closed-form model: Scenario in, Result out. Pure, allocation-free, never throws.
#pragma once
#include "result.h"
#include "scenario.h"

namespace gpucost {

// Evaluates a scenario. If it is invalid (ValidateScenario non-empty) returns Result with ok = false.
// Validation is the caller's job for speed: Evaluate() only checks what it needs to stay finite.
Result Evaluate(const Scenario& s);

}  // namespace gpucost
