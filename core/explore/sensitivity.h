// sensitivity.h — which inputs move the cost per completed job the most: a tornado. For an inference
// scenario (issue 17) the figure is the cost per million output tokens (and per request beside it), over the
// serving inputs (prefill MFU, decode bandwidth efficiency, step cost, load, prompt and output lengths, pool
// prices) and the shared ones serving reads (price, failures, storage); "metric" in the document says which.
//
// Each uncertain input (MFU, price, failure rate, recovery, checkpoint write, spot rates, ownership costs, ...)
// is moved to a low and a high bound while everything else stays, and Evaluate() gives the expected cost per
// completed job at each. Bounds are documented factors of the scenario's (effective) value with their reason
// (sensitivity.cpp), or +-percent for every input when asked. Inputs are sorted by swing, largest first.
// Costs are compared in the scenario's currency: pricing.krw_per_usd moves only the parts entered in the
// other currency (a KRW price shown in KRW does not move with the rate).
// Inputs that do not apply (spot rates on demand, ownership costs when renting, auto fields with no value)
// are left out. A bound outside the field's allowed range is limited to it and marked `clipped`.
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace gpucost {

struct SensitivityInput {
  const char* path = "";        // scenario field (fields.h)
  const char* unit = "";
  const char* bound_source = "";// why these bounds, in English (the document's "source")
  const char* bound_key = "";   // the same as a string-table key ("source_key"), shown in the reader's language
  double base_value = 0;        // the value used now (effective value for auto fields)
  double low_value = 0, high_value = 0;
  double low_usd = 0, high_usd = 0;      // expected cost per completed job at the low / high value
  double low_hours = 0, high_hours = 0;  // expected time
  double swing_usd = 0;         // |high_usd - low_usd|
  double low_cost = 0, high_cost = 0;    // the same costs in the scenario's currency (pricing.currency)
  double swing = 0;             // |high_cost - low_cost|: what the tornado sorts by
  bool clipped = false;
  double low_per_request = 0, high_per_request = 0;  // serving: cost per request, scenario's currency
};

struct SensitivityResult {
  bool ok = false;              // false: the scenario cannot be evaluated
  double base_usd = 0, base_hours = 0;
  double base_cost = 0;         // base_usd in the scenario's currency
  const char* currency = "USD";
  double percent = 0;           // 0: documented bounds; else every input +-percent
  bool serving = false;         // an inference scenario: the costs are per million output tokens (below)
  double base_per_request = 0;  // serving: cost per request now, scenario's currency
  std::vector<SensitivityInput> inputs;  // sorted by swing (in the scenario's currency), largest first
};

// percent: 0 for the documented bounds, else (0, 100) to move every input by +-percent.
SensitivityResult AnalyzeSensitivity(const Scenario& s, double percent = 0);


}  // namespace gpucost
