// pricing_json.cpp — the pricing document (pricing_json.h).
#include "documents/pricing_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/json_number.h"
#include "documents/result_json.h"
#include "hardware/catalog.h"
#include "money/offers.h"
#include "money/tco.h"
#include "scenario/fields.h"

#include <nlohmann/json.hpp>

namespace gpucost {

const char* PricingModelKey(PricingModel m) {
  static const char* const kKeys[] = {"pricing.on-demand", "pricing.spot", "pricing.reserved", "pricing.owned"};
  const int i = static_cast<int>(m);
  return i >= 0 && i < kModelCount ? kKeys[i] : "pricing.on-demand";
}

Message PricingRateNote(const PricingComparison& c) {
  if (!c.ok || c.cheapest_rate == c.cheapest) return {};
  const bool serving = c.models[0].result.inference.present;
  return {serving ? "compare.rate_not_outcome_serving" : "compare.rate_not_outcome",
          {MessageParam::Key(PricingModelKey(static_cast<PricingModel>(c.cheapest_rate))),
           MessageParam::Key(PricingModelKey(static_cast<PricingModel>(c.cheapest)))}};
}

Message ServingSpotNote(const PricingComparison& c) {
  const ModelCost& spot = c.models[static_cast<int>(PricingModel::kSpot)];
  const ModelCost& on_demand = c.models[static_cast<int>(PricingModel::kOnDemand)];
  const Result& r = spot.result;
  if (!c.ok || !r.ok || !r.inference.present || !r.inference.spot.present || on_demand.usd_per_gpu_hour <= 0) return {};
  const InferenceSpot& sp = r.inference.spot;
  char price_ratio[16], total_ratio[16], spares[24], preemptions[24], minutes[24];
  std::snprintf(price_ratio, sizeof price_ratio, "%.0f%%", 100 * spot.usd_per_gpu_hour / on_demand.usd_per_gpu_hour);
  std::snprintf(total_ratio, sizeof total_ratio, "%.0f%%", 100 * spot.ratio_to_on_demand);
  std::snprintf(spares, sizeof spares, "%.3g", sp.spare_gpus);
  std::snprintf(preemptions, sizeof preemptions, "%.3g", sp.preemptions);
  std::snprintf(minutes, sizeof minutes, "%.3g", sp.reacquire_minutes);
  return {"compare.spot_note_serving", {price_ratio, total_ratio, spares, preemptions, minutes}};
}

std::string PricingToJson(const Scenario& s, const PricingComparison& c, int indent) {
  using nlohmann::json;
  const Result& first = c.models[0].result;
  const double k = first.display_per_usd;
  json models = json::array();
  for (const ModelCost& m : c.models) {
    // A blocked row is said, not priced (issue 45): its money is null and "blocking" says why.
    const bool priced = !m.blocking.blocked;
    const auto money = [priced](double v) { return priced ? json(v) : json(nullptr); };
    json row = {{"model", PricingModelName(m.model)},
                {"usd_per_gpu_hour", money(m.usd_per_gpu_hour)},
                {"job_usd", money(m.job_usd)},
                {"term_tail_usd", money(m.term_tail_usd)},
                {"delay_usd", money(m.delay_usd)},
                {"total_usd", money(m.total_usd)},
                {"price_per_gpu_hour", money(m.usd_per_gpu_hour * k)},
                {"job", money(m.job_usd * k)},
                {"term_tail", money(m.term_tail_usd * k)},
                {"delay", money(m.delay_usd * k)},
                {"total", money(m.total_usd * k)},
                {"expected_hours", m.expected_hours},
                {"ratio_to_on_demand", money(m.ratio_to_on_demand)},
                {"capacity_guaranteed", m.capacity_guaranteed},
                {"risk", m.risk},
                {"risk_key", m.risk_message.key},
                {"risk_params", MessageParamsJson(m.risk_message.params)}};
    // Issue 29 (capacity.h): the wait for capacity, when the job finishes, the deadline and the delay cost.
    const ScheduleOutlook& o = m.result.schedule;
    row["schedule"] = {{"wait_basis", o.wait_basis},
                       {"wait_mean_hours", o.wait_mean_hours},
                       {"lead_hours", o.lead_hours},
                       {"start_p50_hours", o.start_p50_hours},
                       {"start_p90_hours", o.start_p90_hours},
                       {"finish_p50_hours", o.finish_p50_hours},
                       {"finish_p90_hours", o.finish_p90_hours},
                       {"expected_delay_hours", o.expected_delay_hours},
                       {"delay_usd", o.delay_usd},
                       {"delay", o.delay_usd * k}};
    if (o.deadline_given) row["schedule"]["p_miss_deadline"] = o.p_miss_deadline;  // absent without a deadline
    if (m.model == PricingModel::kOwned) {
      const TcoResult& t = m.result.tco;
      const double gpus = static_cast<double>(m.result.billed_gpus);
      row["tco"] = OwnedTermsJson(s, t, gpus);
      row["tco"]["per_gpu_hour"] = t.usd_per_gpu_hour * k;
      row["tco"]["per_gpu_year"] = t.usd_per_gpu_year * k;
      row["tco"]["capital_outlay"] = OwnedCapitalOutlay(s, t, gpus).usd * k;
    }
    if (m.result.inference.present) {  // a service (issue 47): its own figures beside the period's bill
      const InferenceResult& ir = m.result.inference;
      row["serving"] = {{"usd_per_request", ir.usd_per_request}, {"per_request", ir.usd_per_request * k},
                        {"usd_per_million_output_tokens_all_in", ir.usd_per_million_output_tokens_all_in},
                        {"per_million_output_tokens_all_in", ir.usd_per_million_output_tokens_all_in * k},
                        {"gpus", ir.gpus}, {"spare_gpus", ir.spot.present ? ir.spot.spare_gpus : 0.0}};
    }
    row["vat_usd"] = money(m.result.vat_usd);
    if (!priced) row["blocking"] = BlockingJson(m.blocking);
    if (const Offer* o = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr)
      row["offered"] = OfferListsModel(*o, m.model);
    models.push_back(row);
  }
  json doc = {{"schema", "gpucost/pricing@1"},
              {"on_demand_usd_per_gpu_hour", c.on_demand_usd_per_gpu_hour},
              {"on_demand_per_gpu_hour", c.on_demand_usd_per_gpu_hour * k},
              {"cheapest", PricingModelName(static_cast<PricingModel>(c.cheapest))},
              {"cheapest_rate", PricingModelName(static_cast<PricingModel>(c.cheapest_rate))},
              {"cheapest_rate_is_not_cheapest", c.cheapest_rate != c.cheapest},
              {"value_per_day_usd", s.ops.value_per_day_usd},
              {"currency", first.display_currency},
              {"per_usd", k},
              {"vat_rate", s.pricing.tax_rate},
              {"vat_recoverable", s.pricing.vat_recoverable},
              {"models", models}};
  const BuyVsCloud b = BuyVsCloudCurve(s);
  json curve = json::array();
  for (int i = 0; i < kBuyVsCloudPoints; ++i)
    curve.push_back({{"utilization", b.utilization[i]}, {"owned_usd_per_gpu_hour", b.owned_usd_per_gpu_hour[i]},
                     {"owned_per_gpu_hour", b.owned_usd_per_gpu_hour[i] * k}});
  doc["buy_vs_cloud"] = {{"cloud_usd_per_gpu_hour", b.cloud_usd_per_gpu_hour},
                         {"cloud_per_gpu_hour", b.cloud_usd_per_gpu_hour * k},
                         {"current_utilization", b.current_utilization},
                         {"break_even_utilization", b.tco.break_even_utilization},
                         {"break_even_months", b.tco.break_even_months},
                         {"points", curve}};
  auto message = [](const Message& m) {  // {"key", "params", "message" (English)}, as a warning is written
    return json{{"key", m.key}, {"params", MessageParamsJson(m.params)}, {"message", m.Text(Lang::kEn)}};
  };
  if (const Message note = PricingRateNote(c); !note.empty()) doc["rate_note"] = message(note);
  if (const Message note = ServingSpotNote(c); !note.empty()) doc["spot_note"] = message(note);
  if (s.ops.deadline_hours > 0) doc["deadline_hours"] = s.ops.deadline_hours;
  if (s.name[0]) doc["name"] = s.name;
  if (const Offer* o = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr) {  // where price and billing came from
    doc["offer"] = OfferAppliedJson(s);
    doc["offer"]["billing"] = OfferBillingJson(*o, &s);
  }
  return doc.dump(indent);
}

}  // namespace gpucost
