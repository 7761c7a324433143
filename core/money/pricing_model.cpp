// pricing_model.cpp — one price per pricing model (pricing_model.h).
#include "money/pricing_model.h"

#include <string>

#include "base/format.h"
#include "money/offers.h"

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
    // Owned: the cloud price it is compared with, entered before tax; on the scenario's tax basis like the others
    // (so on-demand -> owned -> on-demand gives back the price it started from).
    case PricingModel::kOwned: return p.owned.compare_usd_per_gpu_hour * (p.price_includes_tax ? 1 + p.tax_rate : 1);
  }
  return entered;
}

namespace {

// The price of `model` per unit of the on-demand price: 1, 1 - spot discount, 1 - reserved discount (owned: 1,
// its pools' prices are left as entered).
double ShareOfOnDemand(const PricingInputs& p, PricingModel model) {
  switch (model) {
    case PricingModel::kSpot: return 1 - p.spot.discount;
    case PricingModel::kReserved: return 1 - p.reserved.discount;
    case PricingModel::kOnDemand:
    case PricingModel::kOwned: break;
  }
  return 1;
}

}  // namespace

Scenario WithPricingModel(const Scenario& s, PricingModel model) {
  Scenario v = s;
  const double on_demand = OnDemandReferenceUsdPerGpuHour(s);
  const bool own = Model(s) == model;
  if (own) return v;  // the scenario's own price for its own model
  v.pricing.model = static_cast<int>(model);
  const double entered = EnteredUsdPerGpuHour(s.pricing);
  double price = entered;
  switch (model) {
    case PricingModel::kOnDemand: price = on_demand; break;
    case PricingModel::kSpot: price = on_demand * (1 - s.pricing.spot.discount); break;
    case PricingModel::kReserved:
      price = on_demand * (1 - s.pricing.reserved.discount);
      if (v.pricing.reserved.usd_per_gpu_hour_on_demand <= 0) v.pricing.reserved.usd_per_gpu_hour_on_demand = on_demand;
      break;
    case PricingModel::kOwned:
      // Break even against the same on-demand price, before tax. Owned hardware pays the scenario's tax on what it
      // buys (billing.h), as a rental pays it on the bill.
      v.pricing.owned.compare_usd_per_gpu_hour = on_demand / (s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1);
      break;
  }
  const Offer* offer = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  if (offer && !OfferListsModel(*offer, model)) price = 0;  // not listed: said, not priced (FindBlockingState)
  if (model != PricingModel::kOwned) {
    if (s.pricing.krw_per_gpu_hour > 0 && price > 0)  // a won price stays in won
      v.pricing.krw_per_gpu_hour = price * s.pricing.krw_per_usd;
    else
      v.pricing.usd_per_gpu_hour = price, v.pricing.krw_per_gpu_hour = 0;
    // The pools' own prices: back to on-demand by the model they were entered for, then to the new one.
    const PricingModel from = Model(s);
    const double to_on_demand = from == PricingModel::kOwned ? 1
                                : entered > 0 && on_demand > 0 ? on_demand / entered
                                                               : 1 / ShareOfOnDemand(s.pricing, from);
    const double factor = to_on_demand * ShareOfOnDemand(s.pricing, model);
    for (InferencePoolInputs* pool : {&v.inference.prefill, &v.inference.decode})
      if (pool->usd_per_gpu_hour > 0) pool->usd_per_gpu_hour *= factor;
  }
  return v;
}

Message SwitchPricingModel(Scenario* s, PricingModel to) {
  const PricingModel from = Model(*s);
  if (from == to) return {};
  const Scenario before = *s;
  *s = WithPricingModel(before, to);
  const std::string from_key = std::string("choice.pricing.model.") + PricingModelName(from);
  const std::string to_key = std::string("choice.pricing.model.") + PricingModelName(to);
  const bool krw = before.pricing.krw_per_gpu_hour > 0;
  const double k = krw ? before.pricing.krw_per_usd : 1;
  // Money written the same in every language ("₩2,582", not the page's Korean "2,582 원"): the message's English
  // text (the CLI's note, window.gpucost.notice()) does not depend on the page's language.
  const auto money = [krw](double v) { return krw ? FormatKrwGrouped(v) : FormatUsd(v); };
  const std::string on_demand = money(OnDemandReferenceUsdPerGpuHour(before) * k);
  if (const Offer* offer = before.pricing.offer[0] ? FindOffer(before.pricing.offer) : nullptr;
      offer && !OfferListsModel(*offer, to))
    return {"msg.model_switch_not_offered", {MessageParam::Key(from_key.c_str()), MessageParam::Key(to_key.c_str()),
                                             offer->provider + " " + offer->product}};
  if (to == PricingModel::kOwned)
    return {"msg.model_switch_owned", {MessageParam::Key(from_key.c_str()), MessageParam::Key(to_key.c_str()), on_demand}};
  const double now = krw ? s->pricing.krw_per_gpu_hour : s->pricing.usd_per_gpu_hour;
  return {"msg.model_switch", {MessageParam::Key(from_key.c_str()), MessageParam::Key(to_key.c_str()),
                               money(now), on_demand}};
}

}  // namespace gpucost
