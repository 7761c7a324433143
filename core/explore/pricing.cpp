// pricing.cpp — the same job under the four pricing models (pricing.h).
#include "explore/pricing.h"

#include <algorithm>
#include <cstdio>

#include "base/asserts.h"
#include "job/evaluate.h"
#include "money/tco.h"

namespace gpucost {

namespace {

// Hours of a commitment's term the work uses: the job's, or the service's whole run (inference.service_months).
double UsedHours(const Scenario& s, const ModelCost& m) {
  const InferenceResult& ir = m.result.inference;
  if (ir.present && !ir.batch_job) return std::max(m.expected_hours, s.inference.service_months * kHoursPerMonth);
  return m.expected_hours;
}

// The capacity risk of one pricing model as a message (msg.risk_*), and its English text for the documents.
void WriteRisk(const Scenario& s, ModelCost& m) {
  const PricingInputs& p = s.pricing;
  const Result& r = m.result;
  Message& out = m.risk_message;
  switch (m.model) {
    case PricingModel::kOnDemand:
      out = {"msg.risk_on_demand", {std::to_string(r.billed_gpus)}};
      break;
    case PricingModel::kSpot:
      if (r.inference.present && !r.inference.batch_job)
        out = {"msg.risk_spot_serving",
               {FormatParam("%.0f", p.spot.notice_seconds), FormatParam("%.1f", r.expected_preemptions),
                FormatParam("%.0f", p.spot.reacquire_minutes), FormatParam("%.0f", r.inference.spot.spare_gpus),
                FormatParam("%.1f", 100 * r.inference.spot.target_attainment)}};
      else
        out = {"msg.risk_spot",
               {FormatParam("%.0f", p.spot.notice_seconds), FormatParam("%.1f", r.expected_preemptions),
                FormatParam("%.1f", r.time_hours.part[kPartReacquireWait])}};
      break;
    case PricingModel::kReserved: {
      // The term after the work: what it costs, or why nothing (a new user read "the 99% of the term after the job
      // (none) is paid": a quoted price of 0, or other work taking it all, said as such).
      const double after = std::max(0.0, 1 - UsedHours(s, m) / (p.reserved.term_months * kHoursPerMonth));
      const MessageParam tail =
          m.term_tail_usd > 0 ? MessageParam::Key("msg.risk_tail_paid")  // the amount: the row's own column
          : after <= 0                             ? MessageParam::Key("msg.risk_tail_none_left")
          : p.reserved.other_use_fraction >= 1     ? MessageParam::Key("msg.risk_tail_reused")
                                                   : MessageParam::Key("msg.risk_tail_unpriced");
      out = {p.reserved.capacity_guaranteed ? "msg.risk_reserved" : "msg.risk_reserved_discount",
             {FormatParam("%.0f", p.reserved.term_months), FormatParam("%.0f", 100 * after), tail}};
      break;
    }
    case PricingModel::kOwned: {
      const double even = r.tco.break_even_utilization;
      out = {"msg.risk_owned",
             {FormatParam("%.0f", 100 * p.owned.utilization), FormatParam("%.0f", p.owned.lifetime_years),
              FormatParam("%.0f", 100 * even),
              even > 1 ? MessageParam::Key("msg.risk_never") : even > 0 ? MessageParam("") : MessageParam::Key("msg.risk_no_price"),
              FormatParam("%.0f", p.owned.lead_time_days)}};
      break;
    }
  }
  std::snprintf(m.risk, kRiskTextCapacity, "%s", out.Text(Lang::kEn).c_str());
}

}  // namespace

PricingComparison ComparePricingModels(const Scenario& s) {
  PricingComparison c;
  c.on_demand_usd_per_gpu_hour = OnDemandReferenceUsdPerGpuHour(s);
  for (int i = 0; i < kModelCount; ++i) {
    const PricingModel model = static_cast<PricingModel>(i);
    const Scenario v = WithPricingModel(s, model);
    ModelCost& m = c.models[i];
    m.model = model;
    m.result = Evaluate(v);
    if (!m.result.ok) return c;
    m.usd_per_gpu_hour = m.result.usd_per_gpu_hour;
    // Evaluate() bills the whole commitment term (cost.breakdown.unused_commitment): the part after the job
    // is shown apart, so that job + term after the job = the total eval gives.
    // With the tax it carries: a rental's all of it, owned hardware's only what is bought from suppliers.
    const double taxable = m.result.tco.present ? m.result.tco.taxable_fraction : 1.0;
    m.term_tail_usd = m.result.commitment_after_job_usd * (v.pricing.vat_recoverable ? 1 : 1 + v.pricing.tax_rate * taxable);
    m.delay_usd = m.result.cost_usd.part[kPartDelay];
    m.job_usd = m.result.expected_usd - m.term_tail_usd - m.delay_usd;
    m.expected_hours = m.result.expected_hours;
    if (model == PricingModel::kReserved) m.capacity_guaranteed = v.pricing.reserved.capacity_guaranteed;
    m.capacity_guaranteed = m.capacity_guaranteed || model == PricingModel::kOwned;
    m.total_usd = m.result.expected_usd;  // eval's total, bit for bit (its parts are shown apart above)
    m.blocking = FindBlockingState(v, m.result);
  }
  int first_priced = -1;
  for (int i = 0; i < kModelCount && first_priced < 0; ++i)
    if (!c.models[i].blocking.blocked) first_priced = i;
  c.cheapest = c.cheapest_rate = std::max(0, first_priced);
  for (int i = 0; i < kModelCount; ++i) {
    ModelCost& m = c.models[i];
    GPUCOST_ASSERT(m.term_tail_usd >= 0 && m.term_tail_usd <= m.total_usd * (1 + 1e-12) + 1e-9,
                   "a row's term after the job is part of its total");
    GPUCOST_ASSERT(m.model == PricingModel::kReserved || m.model == PricingModel::kOwned || m.term_tail_usd == 0,
                   "only a commitment leaves a term after the job");
    const bool od_priced = !c.models[0].blocking.blocked && c.models[0].total_usd > 0;
    m.ratio_to_on_demand = od_priced && !m.blocking.blocked ? m.total_usd / c.models[0].total_usd : 0;
    WriteRisk(WithPricingModel(s, m.model), m);
    if (m.blocking.blocked) continue;
    if (m.total_usd < c.models[c.cheapest].total_usd) c.cheapest = i;
    if (m.usd_per_gpu_hour < c.models[c.cheapest_rate].usd_per_gpu_hour) c.cheapest_rate = i;
  }
  for (const ModelCost& m : c.models)
    GPUCOST_ASSERT(m.blocking.blocked || c.models[c.cheapest].total_usd <= m.total_usd,
                   "the cheapest row has the lowest total of the rows priced");
  c.ok = true;
  return c;
}

}  // namespace gpucost
