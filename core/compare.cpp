// compare.cpp — scenarios side by side (see compare.h).
#include "compare.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "inference.h"
#include "result_json.h"

namespace gpucost {

double Comparison::Money(std::size_t i, double usd) const {
  return std::strcmp(currency, "USD") == 0 ? usd : usd * columns[i].result.display_per_usd;
}

Comparison CompareScenarios(std::vector<CompareColumn> columns) {
  Comparison c;
  c.columns = std::move(columns);
  bool serving = !c.columns.empty();  // every column an inference scenario: fastest by P90 end-to-end latency
  for (const CompareColumn& col : c.columns) serving = serving && col.result.inference.present;
  auto time = [serving](const Result& r) { return serving ? r.inference.e2e_ms.p90 : r.expected_hours; };
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    const Result& r = c.columns[i].result;
    if (i == 0) c.currency = r.display_currency;
    if (std::strcmp(r.display_currency, c.currency) != 0) c.currency = "USD";
    if (!r.ok) continue;
    if (c.cheapest < 0 || r.expected_usd < c.columns[c.cheapest].result.expected_usd) c.cheapest = static_cast<int>(i);
    if (c.fastest < 0 || time(r) < time(c.columns[c.fastest].result)) c.fastest = static_cast<int>(i);
    if (c.cheapest_rate < 0 || r.usd_per_gpu_hour < c.columns[c.cheapest_rate].result.usd_per_gpu_hour)
      c.cheapest_rate = static_cast<int>(i);
  }
  return c;
}

std::string CompareToJson(const Comparison& c, int indent) {
  using nlohmann::json;
  json list = json::array();
  const Result* first = c.columns.empty() ? nullptr : &c.columns[0].result;
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    const CompareColumn& col = c.columns[i];
    const Result& r = col.result;
    const int at = static_cast<int>(i);
    json entry = {{"label", col.label}, {"cheapest", c.cheapest == at}, {"fastest", c.fastest == at},
                  {"expected_cost", r.ok ? c.Money(i, r.expected_usd) : 0.0},
                  {"result", json::parse(ResultToJson(col.scenario, r, -1))}};
    if (!col.file.empty()) entry["file"] = col.file;
    if (!col.note.empty()) entry["price_source"] = col.note;
    if (r.ok && r.inference.present) {
      const InferenceResult& ir = r.inference;
      entry["serving"] = {{"cost_per_request", c.Money(i, ir.usd_per_request)},
                          {"cost_per_million_output_tokens", c.Money(i, ir.usd_per_million_output_tokens)},
                          {"cost_per_million_input_tokens", c.Money(i, ir.usd_per_million_input_tokens)},
                          {"per_million_tokens_convention", kPerMillionTokensConvention},
                          {"tensor_parallel", {{"prefill", ir.prefill.tensor_parallel}, {"decode", ir.decode.tensor_parallel}}},
                          {"replicas", {{"prefill", ir.prefill.replicas}, {"decode", ir.decode.replicas}}},
                          {"ttft_ms_p90", ir.ttft_ms.p90}, {"tpot_ms_p90", ir.tpot_ms.p90},
                          {"slo_met", ir.slo_met}, {"gpus", ir.gpus}};
    }
    if (r.ok && first->ok && first->expected_usd > 0) entry["cost_vs_first"] = r.expected_usd / first->expected_usd;
    if (r.ok && first->ok && first->expected_hours > 0) entry["time_vs_first"] = r.expected_hours / first->expected_hours;
    list.push_back(entry);
  }
  auto index = [](int i) { return i < 0 ? json(nullptr) : json(i); };
  const json doc = {{"schema", kCompareSchema}, {"currency", c.currency}, {"cheapest", index(c.cheapest)},
                    {"fastest", index(c.fastest)}, {"cheapest_rate", index(c.cheapest_rate)},
                    {"cheapest_rate_is_not_cheapest", c.cheapest_rate != c.cheapest}, {"scenarios", list}};
  return doc.dump(indent);
}

}  // namespace gpucost
