// spares_json.cpp — the spares document (spares_json.h).
#include "documents/spares_json.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include "job/evaluate.h"

namespace gpucost {

std::string SparesToJson(const Scenario& s, const SparesSweepDoc& d, int indent) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const SpareRow& r : d.rows)
    rows.push_back({{"hot_spares", r.spares}, {"fast_fraction", r.fast_fraction}, {"expected_hours", r.expected_hours},
                    {"goodput", r.goodput}, {"expected_usd", r.expected_usd}, {"managed_expected_usd", r.managed_usd}});
  nlohmann::ordered_json j;
  j["schema"] = "gpucost/spares@1";
  if (s.name[0]) j["name"] = s.name;
  j["repair_hours"] = d.repair_hours;
  j["hot_spares"] = s.reliability.hot_spares;
  j["expected_failures"] = d.failures_expected;
  j["rows"] = rows;
  if (!d.rows.empty()) j["cheapest_hot_spares"] = d.rows[static_cast<std::size_t>(d.cheapest)].spares;
  return j.dump(indent);
}

}  // namespace gpucost
