// inference_cli.h — how the gpucost verbs print an inference scenario (issue 17): eval's table, plan's and
// mc's documents (cmd_inference.cpp).
#pragma once
#include <string>

#include "result.h"
#include "scenario.h"

namespace gpucost::cli {

// gpucost eval on an inference scenario: latency, throughput, cost per request and per million input and
// output tokens, and where the money goes.
void PrintInferenceTable(const Scenario& s, const Result& r);

// A money amount that may be a fraction of a cent (cost per request): 3 significant digits.
std::string FormatSmallMoney(double amount, const char* currency);

}  // namespace gpucost::cli
