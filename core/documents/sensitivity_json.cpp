// sensitivity_json.cpp — the sensitivity document (sensitivity_json.h).
#include "documents/sensitivity_json.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/money_input.h"
#include "scenario/quantity.h"
#include "base/format.h"
#include "base/i18n.h"
#include <nlohmann/json.hpp>

namespace gpucost {

std::string SensitivityBoundText(const Scenario& s, const SensitivityInput& in, double v) {
  if (const FieldSpec* f = FindField(in.path)) return FieldAmountText(s, *f, v);
  return FormatNumber(v, 4) + (in.unit[0] ? " " + UnitName(in.unit) : "");
}

std::string SensitivityToJson(const SensitivityResult& r, int indent) {
  nlohmann::ordered_json j;
  j["schema"] = "gpucost/sensitivity@1";
  j["currency"] = r.currency;
  j["base_cost"] = r.base_cost;
  j["base_usd"] = r.base_usd;
  j["base_hours"] = r.base_hours;
  j["bounds"] = r.percent > 0 ? "percent" : "documented";
  if (r.serving) {
    j["metric"] = "cost_per_million_output_tokens";
    j["base_cost_per_request"] = r.base_per_request;
  }
  if (r.percent > 0) j["percent"] = r.percent;
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
  for (const SensitivityInput& in : r.inputs)
    inputs.push_back({{"path", in.path}, {"unit", in.unit}, {"base", in.base_value}, {"low", in.low_value},
                      {"high", in.high_value}, {"low_cost", in.low_cost}, {"high_cost", in.high_cost},
                      {"swing", in.swing}, {"low_usd", in.low_usd}, {"high_usd", in.high_usd},
                      {"low_hours", in.low_hours}, {"high_hours", in.high_hours}, {"swing_usd", in.swing_usd},
                      {"clipped", in.clipped}, {"source", in.bound_source}, {"source_key", in.bound_key}});
  if (r.serving)
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      inputs[i]["low_cost_per_request"] = r.inputs[i].low_per_request;
      inputs[i]["high_cost_per_request"] = r.inputs[i].high_per_request;
    }
  j["inputs"] = inputs;
  return j.dump(indent);
}

}  // namespace gpucost
