// pricing_model.cpp — one price per pricing model (pricing_model.h).
#include "money/pricing_model.h"

namespace gpucost {

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

}  // namespace gpucost
