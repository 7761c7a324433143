// sensitivity_json.h — the sensitivity document (gpucost sensitivity; explore/sensitivity.h).
#pragma once
#include <string>

#include "explore/sensitivity.h"

namespace gpucost {

// The document of `gpucost sensitivity --format json` and the page's view("sensitivity").
std::string SensitivityToJson(const SensitivityResult& r, int indent = 2);

}  // namespace gpucost
