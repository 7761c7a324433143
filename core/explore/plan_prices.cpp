// plan_prices.cpp — the best plans priced as whole jobs (plan_prices.h).
#include "explore/plan_prices.h"

#include "job/evaluate.h"

namespace gpucost {

void PlanPriceJobs(const Scenario& sc, PlanSearch* s) {
  for (int i = 0; i < s->count; ++i) {
    Scenario with = sc;
    ApplyLayout(s->best[i].layout, &with);
    with.cluster.mfu = 0;  // predicted from the layout
    if (PlanParamsAtDefault(sc)) with.workload.params = s->best[i].step.params;
    const Result r = Evaluate(with);
    s->best[i].job_hours = r.ok ? r.expected_hours : 0;
    s->best[i].job_usd = r.ok ? r.expected_usd : 0;
    s->best[i].job_cost = r.ok ? r.expected_usd * r.display_per_usd : 0;
    if (r.ok) s->currency = r.display_currency;
  }
}

}  // namespace gpucost
