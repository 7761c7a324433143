// result_json.h — the result document of `gpucost eval --format json` and the page's result().
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "job/evaluate.h"
#include "job/result.h"
#include "scenario/scenario.h"
#include "job/evaluate.h"

namespace gpucost {

constexpr const char* kResultSchema = "gpucost/result@1";

// Every number is finite (non-finite values are written as null, which the tests forbid).
std::string ResultToJson(const Scenario& s, const Result& r, int indent = 2);

// A blocking state as a document carries it: its code, the English reason and fix, and each as key and parameters
// (message.h), the same in every language (the result's and each pricing row's "blocking").
nlohmann::json BlockingJson(const BlockingState& b);

}  // namespace gpucost
