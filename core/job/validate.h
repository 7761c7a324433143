// validate.h — reading and checking a whole scenario: the scenario layer reads its fields (scenario/json_io.h),
// and each layer below this one adds what it knows (the GPU, the scaling fit, the offer, MoE, fine-tuning,
// serving). This is where their checks are gathered, in one order, so no layer calls up to another's.
#pragma once
#include <string_view>
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

// Reads a scenario document over the defaults (or `base`): ReadScenarioJson, then the named offer
// (money/offers.h), a parameter count from the shape when none is given, and ValidateScenario. `scenario` holds
// every valid field applied; `errors` every problem, in document order.
ScenarioParse ParseScenarioJson(std::string_view text);
ScenarioParse ParseScenarioJson(std::string_view text, const Scenario& base);

// Every problem of a scenario built in code, the page or a file: the fields' ranges, the GPU, the scaling points,
// the offer, the model, MoE, fine-tuning, checkpointing, and the workload's own (serving's pools and shape; a
// training layout's divisibility; an independent task's size).
std::vector<InputError> ValidateScenario(const Scenario& s);

// The parameter count a complete model shape implies (layers, hidden, heads, seq_len, vocab), else 0. A scenario
// that gives the shape but not workload.params takes this count (the reader; the page's editor likewise).
double ParamsFromShape(const Scenario& s);

}  // namespace gpucost
