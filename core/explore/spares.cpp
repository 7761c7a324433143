// spares.cpp — hot spares as a pool (see spares.h).
#include "explore/spares.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"

namespace gpucost {

SparesSweepDoc SparesSweep(const Scenario& s, int max_steps) {
  SparesSweepDoc d;
  const std::int64_t step = std::max<std::int64_t>(1, s.cluster.gpus_per_node);
  Scenario v = s;
  for (int k = 0; k <= max_steps; ++k) {
    v.reliability.hot_spares = k * step;
    v.ops.spares_included = false;
    const Result r = Evaluate(v);
    if (!r.ok || r.never_finishes) {
      if (k == 0) return d;
      break;
    }
    v.ops.spares_included = true;
    const Result managed = Evaluate(v);
    SpareRow row{v.reliability.hot_spares, r.spare_fast_fraction, r.expected_hours, r.goodput, r.expected_usd,
                 managed.ok ? managed.expected_usd : 0};
    if (k == 0) row.fast_fraction = 0;
    d.rows.push_back(row);
    if (row.expected_usd < d.rows[d.cheapest].expected_usd) d.cheapest = static_cast<int>(d.rows.size()) - 1;
    if (row.fast_fraction > 0.9999) break;  // more spares only cost
  }
  const Result own = Evaluate(s);
  d.failures_expected = own.expected_failures;
  d.repair_hours = s.ops.repair_hours > 0 ? s.ops.repair_hours : s.pricing.owned.repair_hours_per_failure;
  d.ok = true;
  return d;
}


}  // namespace gpucost
