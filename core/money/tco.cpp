// tco.cpp — owned-hardware TCO (tco.h).
#include "money/tco.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "hardware/catalog.h"
#include "money/pricing_model.h"
#include "base/asserts.h"
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
  // With v = (1 + r)^-n, the annuity U r (1 - R v) / (1 - v) less the straight line U (1 - R) / n is
  //   U [(1 - R) (r / (1 - v) - 1 / n) + r R],
  // both terms >= 0 (r / (1 - v) >= 1 / n for r > 0); written so, with 1 - v = -expm1(-n log1p(r)), so a short
  // lifetime does not turn rounding into negative interest (issue 45's asserts found -1e-9 of the capex).
  if (o.interest_rate > 0) {
    const double r = o.interest_rate, n = o.lifetime_years, R = o.residual_fraction, U = t.upfront_usd_per_gpu;
    const double one_minus_v = -std::expm1(-n * std::log1p(r));
    t.financing_usd_per_gpu_year = U * ((1 - R) * std::max(0.0, r / one_minus_v - 1 / n) + r * R);
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
  GPUCOST_ASSERT(AmountOk(t.capex_usd_per_gpu_year) && AmountOk(t.power_usd_per_gpu_year) &&
                     AmountOk(t.facility_usd_per_gpu_year) && AmountOk(t.maintenance_usd_per_gpu_year),
                 "owned hardware's annual parts are a number >= 0");
  // An annuity repays more than straight-line depreciation whenever the rate is positive: interest is >= 0.
  GPUCOST_ASSERT(t.financing_usd_per_gpu_year >= -1e-9 * (1 + t.capex_usd_per_gpu_year), "interest is never negative");
  GPUCOST_ASSERT(t.taxable_fraction >= -1e-12 && t.taxable_fraction <= 1 + 1e-12, "the taxable share of owning is in [0, 1]");
  GPUCOST_ASSERT(t.useful_hours_per_gpu_year <= kHoursPerYear * (1 + 1e-12), "a GPU-year has at most 8,760 useful hours");
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
    *source = FieldSource(f, Lang::kEn);  // documents are in English
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

CapitalOutlay OwnedCapitalOutlay(const Scenario& s, const TcoResult& t, double billed_gpus) {
  CapitalOutlay o;
  o.usd = t.upfront_usd_per_gpu * billed_gpus;
  o.vat_usd = o.usd * s.pricing.tax_rate;
  return o;
}

nlohmann::json OwnedTermsJson(const Scenario& s, const TcoResult& t, double billed_gpus) {
  const bool commitment = s.pricing.owned.other_use_fraction > 0;
  const CapitalOutlay outlay = OwnedCapitalOutlay(s, t, billed_gpus);
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
          {"capital_outlay_usd", NumOrNull(outlay.usd)},
          {"capital_outlay_vat_usd", NumOrNull(outlay.vat_usd)},
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

}  // namespace gpucost
