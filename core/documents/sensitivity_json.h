// sensitivity_json.h — the sensitivity document (gpucost sensitivity; explore/sensitivity.h).
#pragma once
#include <string>

#include "explore/sensitivity.h"

namespace gpucost {

// The document of `gpucost sensitivity --format json` and the page's view("sensitivity").
std::string SensitivityToJson(const SensitivityResult& r, int indent = 2);
// A bound of input `in` as the CLI's table and the page's view write it, in the reader's language (money_input.h
// FieldAmountText: "₩3,227/GPU-hour", "32%", "0.08167 min"; an input that is not a field, with its own unit).
std::string SensitivityBoundText(const Scenario& s, const SensitivityInput& in, double v);

}  // namespace gpucost
