// tco.cpp — owned-hardware TCO and the four-model comparison of one job. See tco.h.
#include "money/tco.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "base/json_number.h"
#include "money/offers.h"

#include <nlohmann/json.hpp>

namespace gpucost {

TcoResult ComputeTco(const OwnedInputs& o, double gpu_mtbf_hours) {
  TcoResult t;
  t.present = true;
  t.capex_usd_per_gpu = o.capex_usd_per_gpu;
  t.power_kw_per_gpu = o.power_kw_per_gpu;
  t.upfront_usd_per_gpu = o.capex_usd_per_gpu * (1 + o.spares_fraction);
  t.capex_usd_per_gpu_year = t.upfront_usd_per_gpu * (1 - o.residual_fraction) / o.lifetime_years;
  t.power_usd_per_gpu_year = o.power_kw_per_gpu * o.pue * kHoursPerYear * o.usd_per_kwh;
  t.facility_usd_per_gpu_year = o.power_kw_per_gpu * o.colocation_usd_per_kw_month * 12;
  t.maintenance_usd_per_gpu_year = t.upfront_usd_per_gpu * o.maintenance_fraction_per_year;
  t.staff_usd_per_gpu_year = o.staff_usd_per_gpu_year;
  t.opex_usd_per_gpu_year = o.opex_usd_per_gpu_year;
  // Financing (issue 29): the capex less the residual's present value repaid as an annuity over the lifetime;
  // what that pays above straight-line depreciation is the interest.
  if (o.interest_rate > 0) {
    const double r = o.interest_rate, n = o.lifetime_years;
    const double present = t.upfront_usd_per_gpu - t.upfront_usd_per_gpu * o.residual_fraction * std::pow(1 + r, -n);
    const double annuity = present * r / (1 - std::pow(1 + r, -n));
    t.financing_usd_per_gpu_year = annuity - t.capex_usd_per_gpu_year;
  }
  t.usd_per_gpu_year = t.capex_usd_per_gpu_year + t.power_usd_per_gpu_year + t.facility_usd_per_gpu_year +
                       t.maintenance_usd_per_gpu_year + t.staff_usd_per_gpu_year + t.opex_usd_per_gpu_year +
                       t.financing_usd_per_gpu_year;

  // VAT is paid on what is bought from suppliers (servers, power, space, support contracts, other opex), not on
  // staff wages nor on the interest of a loan (financial services).
  t.taxable_fraction = t.usd_per_gpu_year > 0 ? (t.usd_per_gpu_year - t.staff_usd_per_gpu_year - t.financing_usd_per_gpu_year) /
                                                    t.usd_per_gpu_year
                                              : 1;
  const double repair = o.repair_hours_per_failure;
  const double down = gpu_mtbf_hours > 0 ? repair / (gpu_mtbf_hours + repair) : 0;
  t.repair_downtime_fraction = std::max(0.0, down - o.spares_fraction);
  const double available = 1 - t.repair_downtime_fraction;
  t.useful_hours_per_gpu_year = kHoursPerYear * o.utilization * available;
  t.usd_per_gpu_hour = t.usd_per_gpu_year / t.useful_hours_per_gpu_year;
  const double compare = o.compare_usd_per_gpu_hour;  // 0 (only in comparisons): nothing to break even against
  t.break_even_utilization = compare > 0 ? t.usd_per_gpu_year / (kHoursPerYear * available * compare) : 0;

  const double running_per_month = (t.usd_per_gpu_year - t.capex_usd_per_gpu_year) / 12.0;
  const double cloud_per_month = o.compare_usd_per_gpu_hour * t.useful_hours_per_gpu_year / 12.0;
  t.break_even_months =
      cloud_per_month > running_per_month ? t.upfront_usd_per_gpu / (cloud_per_month - running_per_month) : 0;
  // A payback after the hardware's life is no payback: 0, "never", as when renting is cheaper to run.
  if (t.break_even_months > o.lifetime_years * 12) t.break_even_months = 0;
  return t;
}

OwnedInputs OwnedFor(const Scenario& s, const char* gpu) {
  OwnedInputs o = s.pricing.owned;
  // The power and capex defaults are the H100 server's; another GPU draws and costs what its own server's entry in
  // gpus.json says (server_kw_per_gpu, server_usd_per_gpu). A value the user typed wins.
  // One decision (OwnedSourceFor) says which figures apply and where they come from.
  const GpuSpec* g = FindGpu(gpu ? gpu : s.cluster.gpu);
  const OwnedSource src = OwnedSourceFor(s, gpu);
  if (std::strcmp(src.power_basis, "catalog") == 0) o.power_kw_per_gpu = g->server_kw_per_gpu;
  if (std::strcmp(src.capex_basis, "catalog") == 0) o.capex_usd_per_gpu = g->server_usd_per_gpu;
  return o;
}

namespace {
// One owned input's origin: the user's value, the GPU's catalog figure (> 0) or the field's example.
void SourceOf(const Scenario& s, const char* field, double catalog_value, const std::string& catalog_source,
              const char** basis, const char** source) {
  const FieldSpec& f = *FindField(field);
  if (!IsDefault(s, f)) {
    *basis = "entered";
  } else if (catalog_value > 0) {
    *basis = "catalog";
    *source = catalog_source.c_str();
  } else {
    *basis = "example";
    *source = f.source;
  }
}
}  // namespace

OwnedSource OwnedSourceFor(const Scenario& s, const char* gpu) {
  OwnedSource src;
  static const std::string kNone;
  const GpuSpec* g = FindGpu(gpu ? gpu : s.cluster.gpu);
  SourceOf(s, "pricing.owned.capex_usd_per_gpu", g ? g->server_usd_per_gpu : 0, g ? g->server_price_source : kNone,
           &src.capex_basis, &src.capex_source);
  SourceOf(s, "pricing.owned.power_kw_per_gpu", g ? g->server_kw_per_gpu : 0, g ? g->server_source : kNone,
           &src.power_basis, &src.power_source);
  return src;
}

bool OwnedCapexIsExample(const Scenario& s, const char* gpu) {
  return std::strcmp(OwnedSourceFor(s, gpu).capex_basis, "example") == 0;
}

nlohmann::json OwnedTermsJson(const Scenario& s, const TcoResult& t, double billed_gpus) {
  const bool commitment = s.pricing.owned.other_use_fraction > 0;
  const double outlay = t.upfront_usd_per_gpu * billed_gpus;
  return {{"usd_per_gpu_hour", NumOrNull(t.usd_per_gpu_hour)},
          {"usd_per_gpu_year", NumOrNull(t.usd_per_gpu_year)},
          {"capex_usd_per_gpu_year", NumOrNull(t.capex_usd_per_gpu_year)},
          {"power_usd_per_gpu_year", NumOrNull(t.power_usd_per_gpu_year)},
          {"opex_usd_per_gpu_year", NumOrNull(t.opex_usd_per_gpu_year)},
          {"facility_usd_per_gpu_year", NumOrNull(t.facility_usd_per_gpu_year)},
          {"maintenance_usd_per_gpu_year", NumOrNull(t.maintenance_usd_per_gpu_year)},
          {"staff_usd_per_gpu_year", NumOrNull(t.staff_usd_per_gpu_year)},
          {"financing_usd_per_gpu_year", NumOrNull(t.financing_usd_per_gpu_year)},
          {"upfront_usd_per_gpu", NumOrNull(t.upfront_usd_per_gpu)},
          {"purchase_vat_usd_per_gpu", NumOrNull(t.purchase_vat_usd_per_gpu)},
          {"taxable_fraction", NumOrNull(t.taxable_fraction)},
          // The cash needed to buy the servers (issue 25), and the VAT paid on it.
          {"capital_outlay_usd", NumOrNull(outlay)},
          {"capital_outlay_vat_usd", NumOrNull(outlay * s.pricing.tax_rate)},
          // The terms the owned price is on, beside it: utilisation and lifetime.
          {"basis", commitment ? "lifetime_commitment" : "utilization"},
          {"other_use_fraction", NumOrNull(s.pricing.owned.other_use_fraction)},
          {"utilization", NumOrNull(commitment ? 1.0 : s.pricing.owned.utilization)},
          {"lifetime_years", NumOrNull(s.pricing.owned.lifetime_years)},
          {"repair_downtime_fraction", NumOrNull(t.repair_downtime_fraction)},
          {"useful_hours_per_gpu_year", NumOrNull(t.useful_hours_per_gpu_year)},
          {"break_even_utilization", NumOrNull(t.break_even_utilization)},
          {"break_even_months", NumOrNull(t.break_even_months)},
          // What the servers cost and draw per GPU, and where those figures come from (issue 25).
          {"capex_usd_per_gpu", NumOrNull(t.capex_usd_per_gpu)},
          {"capex_basis", t.source.capex_basis},
          {"capex_source", t.source.capex_source},
          {"power_kw_per_gpu", NumOrNull(t.power_kw_per_gpu)},
          {"power_basis", t.source.power_basis},
          {"power_source", t.source.power_source}};
}

const char* PricingModelName(PricingModel m) {
  switch (m) {
    case PricingModel::kOnDemand: return "on_demand";
    case PricingModel::kSpot: return "spot";
    case PricingModel::kReserved: return "reserved";
    case PricingModel::kOwned: return "owned";
  }
  return "";
}

namespace {

// The scenario's own price as entered (USD per GPU-hour, its tax basis).
double EnteredUsdPerGpuHour(const PricingInputs& p) {
  return p.krw_per_gpu_hour > 0 ? p.krw_per_gpu_hour / p.krw_per_usd : p.usd_per_gpu_hour;
}

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
    case PricingModel::kReserved:
      out = {p.reserved.capacity_guaranteed ? "msg.risk_reserved" : "msg.risk_reserved_discount",
             {FormatParam("%.0f", p.reserved.term_months),
              FormatParam("%.0f", 100 * std::max(0.0, 1 - UsedHours(s, m) / (p.reserved.term_months * kHoursPerMonth))),
              MessageParam::Key(m.term_tail_usd > 0 ? "msg.risk_included" : "msg.risk_none")}};
      break;
    case PricingModel::kOwned: {
      const double even = r.tco.break_even_utilization;
      out = {"msg.risk_owned",
             {FormatParam("%.0f", 100 * p.owned.utilization), FormatParam("%.0f", p.owned.lifetime_years),
              FormatParam("%.0f", 100 * even),
              even > 1 ? MessageParam::Key("msg.risk_never") : even > 0 ? MessageParam("") : MessageParam::Key("msg.risk_no_price")}};
      break;
    }
  }
  std::snprintf(m.risk, kRiskTextCapacity, "%s", out.Text(Lang::kEn).c_str());
}

}  // namespace

double OnDemandReferenceUsdPerGpuHour(const Scenario& s) {
  const PricingInputs& p = s.pricing;
  const double entered = EnteredUsdPerGpuHour(p);
  switch (Model(s)) {
    case PricingModel::kOnDemand: return entered;
    case PricingModel::kSpot: return entered / (1 - p.spot.discount);
    case PricingModel::kReserved:
      return p.reserved.usd_per_gpu_hour_on_demand > 0 ? p.reserved.usd_per_gpu_hour_on_demand
                                                        : entered / (1 - p.reserved.discount);
    case PricingModel::kOwned: return p.owned.compare_usd_per_gpu_hour;
  }
  return entered;
}

Scenario WithPricingModel(const Scenario& s, PricingModel model) {
  Scenario v = s;
  const double on_demand = OnDemandReferenceUsdPerGpuHour(s);
  const bool own = Model(s) == model;
  v.pricing.model = static_cast<int>(model);
  v.pricing.krw_per_gpu_hour = 0;  // prices below are in USD (converted already)
  const double entered = EnteredUsdPerGpuHour(s.pricing);
  switch (model) {
    case PricingModel::kOnDemand: v.pricing.usd_per_gpu_hour = on_demand; break;
    case PricingModel::kSpot:
      v.pricing.usd_per_gpu_hour = own ? entered : on_demand * (1 - s.pricing.spot.discount);
      break;
    case PricingModel::kReserved:
      v.pricing.usd_per_gpu_hour = own ? entered : on_demand * (1 - s.pricing.reserved.discount);
      if (v.pricing.reserved.usd_per_gpu_hour_on_demand <= 0) v.pricing.reserved.usd_per_gpu_hour_on_demand = on_demand;
      break;
    case PricingModel::kOwned:
      // Break even against the same on-demand price, before tax. Owned hardware pays the scenario's tax on what it
      // buys (billing.h), as a rental pays it on the bill.
      v.pricing.owned.compare_usd_per_gpu_hour = on_demand / (s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1);
      break;
  }
  return v;
}

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
    m.term_tail_usd = m.result.commitment_after_job_usd * (v.pricing.vat_recoverable ? 1 : 1 + v.pricing.tax_rate);
    m.job_usd = m.result.expected_usd - m.term_tail_usd;
    m.expected_hours = m.result.expected_hours;
    if (model == PricingModel::kReserved) m.capacity_guaranteed = v.pricing.reserved.capacity_guaranteed;
    m.capacity_guaranteed = m.capacity_guaranteed || model == PricingModel::kOwned;
    m.total_usd = m.job_usd + m.term_tail_usd;
  }
  for (int i = 0; i < kModelCount; ++i) {
    ModelCost& m = c.models[i];
    m.ratio_to_on_demand = c.models[0].total_usd > 0 ? m.total_usd / c.models[0].total_usd : 0;
    WriteRisk(WithPricingModel(s, m.model), m);
    if (m.total_usd < c.models[c.cheapest].total_usd) c.cheapest = i;
    if (m.usd_per_gpu_hour < c.models[c.cheapest_rate].usd_per_gpu_hour) c.cheapest_rate = i;
  }
  c.ok = true;
  return c;
}

BuyVsCloud BuyVsCloudCurve(const Scenario& s) {
  BuyVsCloud b;
  const Scenario as_owned = WithPricingModel(s, PricingModel::kOwned);
  const OwnedInputs owned = OwnedFor(as_owned, nullptr);
  b.tco = ComputeTco(owned, s.reliability.gpu_mtbf_hours);
  b.tco.source = OwnedSourceFor(as_owned, nullptr);
  b.cloud_usd_per_gpu_hour = owned.compare_usd_per_gpu_hour;
  b.current_utilization = owned.utilization;
  const double useful_at_current = b.tco.usd_per_gpu_hour * owned.utilization;
  for (int i = 0; i < kBuyVsCloudPoints; ++i) {
    b.utilization[i] = (i + 1) / static_cast<double>(kBuyVsCloudPoints);
    b.owned_usd_per_gpu_hour[i] = useful_at_current / b.utilization[i];
  }
  return b;
}

std::string PricingToJson(const Scenario& s, const PricingComparison& c, int indent) {
  using nlohmann::json;
  const Result& first = c.models[0].result;
  const double k = first.display_per_usd;
  json models = json::array();
  for (const ModelCost& m : c.models) {
    json row = {{"model", PricingModelName(m.model)},
                {"usd_per_gpu_hour", m.usd_per_gpu_hour},
                {"job_usd", m.job_usd},
                {"term_tail_usd", m.term_tail_usd},
                {"total_usd", m.total_usd},
                {"price_per_gpu_hour", m.usd_per_gpu_hour * k},
                {"job", m.job_usd * k},
                {"term_tail", m.term_tail_usd * k},
                {"total", m.total_usd * k},
                {"expected_hours", m.expected_hours},
                {"ratio_to_on_demand", m.ratio_to_on_demand},
                {"capacity_guaranteed", m.capacity_guaranteed},
                {"risk", m.risk},
                {"risk_key", m.risk_message.key},
                {"risk_params", MessageParamsJson(m.risk_message.params)}};
    // Issue 29 (capacity.h): the wait for capacity, when the job finishes, the deadline and the delay cost.
    const ScheduleOutlook& o = m.result.schedule;
    row["schedule"] = {{"wait_basis", o.wait_basis},
                       {"wait_mean_hours", o.wait_mean_hours},
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
      row["tco"]["capital_outlay"] = t.upfront_usd_per_gpu * gpus * k;
    }
    row["vat_usd"] = m.result.vat_usd;
    if (const Offer* o = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr)
      row["offered"] = m.model == o->model || (m.model == PricingModel::kSpot && o->spot_usd_per_gpu_hour > 0) ||
                       m.model == PricingModel::kOwned;
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
  if (s.ops.deadline_hours > 0) doc["deadline_hours"] = s.ops.deadline_hours;
  if (s.name[0]) doc["name"] = s.name;
  if (const Offer* o = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr) {  // where price and billing came from
    doc["offer"] = OfferAppliedJson(s);
    doc["offer"]["billing"] = OfferBillingJson(*o, &s);
  }
  return doc.dump(indent);
}

}  // namespace gpucost
