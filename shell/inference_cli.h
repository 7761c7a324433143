// inference_cli.h — how the gpucost verbs print an inference scenario (issue 17): eval's table, plan's and
// mc's documents (cmd_inference.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "documents/result_json.h"
#include "scenario/scenario.h"

namespace gpucost::cli {

// gpucost eval on an inference scenario: latency, throughput, cost per request and per million input and
// output tokens, and where the money goes.
void PrintInferenceTable(const Scenario& s, const Result& r);

// gpucost mc on an inference scenario: the request simulation (inference_sim.h) of `requests` requests, as a
// table (P50/P90/P99 TTFT and TPOT, share within the target, the closed form beside it) or JSON.
int RunInferenceMc(const Scenario& s, const std::string& name, std::int64_t requests, std::uint64_t seed, double max_work, bool json);

// gpucost plan on an inference scenario: the cheapest configuration meeting the target (inference_plan.h),
// its runners-up and the best of every family with why it loses.
int RunInferencePlan(const Scenario& s, const std::string& name, int top, bool json);

}  // namespace gpucost::cli
