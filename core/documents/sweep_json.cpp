// sweep_json.cpp — the sweep document (sweep_json.h).
#include "documents/sweep_json.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <nlohmann/json.hpp>
#include "job/evaluate.h"
#include "base/i18n.h"

namespace gpucost {

std::string SweepToJson(const SweepOptions& o, const SweepResult& r, int indent) {
  using nlohmann::json;
  const auto fin = [](double v) { return std::isfinite(v) ? v : 0.0; };  // infeasible points hold 0
  json list = json::array();
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPoint& p = r.points[i];
    list.push_back({{"gpus", p.gpus}, {"data_parallel", p.data_parallel}, {"global_batch", p.global_batch},
                    {"feasible", p.feasible}, {"infeasible_reason", p.infeasible_reason}, {"infeasible_key", p.infeasible_key},
                    {"expected_usd", fin(p.expected_usd)}, {"expected_cost", fin(p.expected_cost)},
                    {"expected_hours", fin(p.expected_hours)}, {"goodput", fin(p.goodput)}, {"mfu", fin(p.mfu)},
                    {"mfu_source", MfuSourceName(p.mfu_source)}, {"memory_total_gb", fin(p.memory_total_gb)},
                    {"marks", SweepMarks(r, static_cast<int>(i))}});
  }
  auto index = [](int i) { return i < 0 ? json(nullptr) : json(i); };
  json doc = {{"schema", "gpucost/sweep-gpus@1"},
              {"currency", r.currency},
              {"per_usd", r.per_usd},
              {"options", {{"min_gpus", o.min_gpus}, {"max_gpus", o.max_gpus},
                           {"points_per_doubling", o.points_per_doubling},
                           {"weak_scaling", o.batch_grows_with_gpus}, {"budget_usd", o.budget_usd},
                           {"deadline_hours", o.deadline_hours}}},
              {"flat_mfu", r.flat_mfu},
              {"single_node_mfu", r.single_node_mfu},
              {"cheapest", index(r.cheapest)},
              {"sweet_spot", index(r.sweet_spot)},
              {"fastest", index(r.fastest)},
              {"sweet_spot_slack", kSweetSpotSlack},
              {"points", list}};
  return doc.dump(indent);
}

}  // namespace gpucost
