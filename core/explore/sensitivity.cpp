// sensitivity.cpp — the tornado of inputs by their swing of the expected cost per completed job.
#include "explore/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "job/evaluate.h"
#include "scenario/fields.h"
#include "base/i18n.h"

#include <nlohmann/json.hpp>

namespace gpucost {
namespace {

enum class Applies { kAlways, kSpot, kOwned, kRentedUsdPrice, kKrwPrice, kKrwInvolved, kHotSpares, kGiven,
                     kTraining, kServing, kServiceLoad };

// Low and high bounds as factors of the scenario's value, and why.
struct Bound {
  const char* path;
  double low_factor, high_factor;
  Applies applies;
  const char* source;  // string-table key of why these bounds (sens.bound.<path>; assets/i18n)
};

const Bound kBounds[] = {
    {"cluster.mfu", 0.8, 1.2, Applies::kTraining, "sens.bound.cluster.mfu"},
    {"pricing.usd_per_gpu_hour", 0.75, 1.25, Applies::kRentedUsdPrice, "sens.bound.pricing.usd_per_gpu_hour"},
    {"pricing.krw_per_gpu_hour", 0.75, 1.25, Applies::kKrwPrice, "sens.bound.pricing.krw_per_gpu_hour"},
    {"pricing.krw_per_usd", 0.9, 1.1, Applies::kKrwInvolved, "sens.bound.pricing.krw_per_usd"},
    {"reliability.gpu_mtbf_hours", 0.5, 2.0, Applies::kAlways, "sens.bound.reliability.gpu_mtbf_hours"},
    {"reliability.recovery_minutes", 0.5, 2.0, Applies::kAlways, "sens.bound.reliability.recovery_minutes"},
    {"reliability.hot_spare_recovery_minutes", 0.5, 2.0, Applies::kHotSpares, "sens.bound.reliability.hot_spare_recovery_minutes"},
    {"reliability.checkpoint_write_minutes", 0.5, 2.0, Applies::kTraining, "sens.bound.reliability.checkpoint_write_minutes"},
    {"reliability.checkpoint_interval_minutes", 0.5, 2.0, Applies::kGiven, "sens.bound.reliability.checkpoint_interval_minutes"},
    {"reliability.downtime_hours", 0.5, 2.0, Applies::kGiven, "sens.bound.reliability.downtime_hours"},
    {"storage.read_gbps", 0.5, 2.0, Applies::kGiven, "sens.bound.storage.read_gbps"},
    {"storage.usd_per_gb_month", 0.5, 2.0, Applies::kGiven, "sens.bound.storage.usd_per_gb_month"},
    {"pricing.spot.preemptions_per_node_day", 0.5, 2.0, Applies::kSpot, "sens.bound.pricing.spot.preemptions_per_node_day"},
    {"pricing.spot.reacquire_minutes", 0.5, 2.0, Applies::kSpot, "sens.bound.pricing.spot.reacquire_minutes"},
    {"pricing.owned.utilization", 0.8, 1.2, Applies::kOwned, "sens.bound.pricing.owned.utilization"},
    {"pricing.owned.capex_usd_per_gpu", 0.8, 1.2, Applies::kOwned, "sens.bound.pricing.owned.capex_usd_per_gpu"},
    {"pricing.owned.lifetime_years", 0.75, 1.25, Applies::kOwned, "sens.bound.pricing.owned.lifetime_years"},
    {"pricing.owned.usd_per_kwh", 0.5, 2.0, Applies::kOwned, "sens.bound.pricing.owned.usd_per_kwh"},
    // Serving (workload.kind = inference; issue 17): what moves the cost per million output tokens.
    {"inference.prefill_mfu", 0.75, 1.2, Applies::kServing, "sens.bound.inference.prefill_mfu"},
    {"inference.decode_bandwidth_efficiency", 0.75, 1.125, Applies::kServing, "sens.bound.inference.decode_bandwidth_efficiency"},
    {"inference.step_overhead_ms", 0.5, 1.5, Applies::kServing, "sens.bound.inference.step_overhead_ms"},
    {"inference.requests_per_second", 0.5, 2.0, Applies::kServiceLoad, "sens.bound.inference.requests_per_second"},
    {"inference.input_tokens", 0.5, 2.0, Applies::kServing, "sens.bound.inference.input_tokens"},
    {"inference.output_tokens", 0.5, 2.0, Applies::kServing, "sens.bound.inference.output_tokens"},
    {"inference.prefill.usd_per_gpu_hour", 0.75, 1.25, Applies::kServing, "sens.bound.inference.prefill.usd_per_gpu_hour"},
    {"inference.decode.usd_per_gpu_hour", 0.75, 1.25, Applies::kServing, "sens.bound.inference.decode.usd_per_gpu_hour"},
};

bool Serving(const Scenario& s) { return Kind(s) == WorkloadKind::kInference; }

bool Applicable(const Bound& b, const Scenario& s) {
  if (Serving(s) && b.applies != Applies::kServing && b.applies != Applies::kServiceLoad) {
    const std::string_view path = b.path;  // of the shared inputs, serving reads the price, failures and storage
    if (path.rfind("pricing.", 0) != 0 && path.rfind("reliability.gpu_mtbf", 0) != 0 &&
        path != "reliability.recovery_minutes" && path != "storage.usd_per_gb_month")
      return false;
  }
  switch (b.applies) {
    case Applies::kTraining: return !Serving(s);
    case Applies::kServing: return Serving(s);
    case Applies::kServiceLoad: return Serving(s) && s.inference.requests <= 0;
    case Applies::kAlways: return true;
    case Applies::kSpot: return Model(s) == PricingModel::kSpot;
    case Applies::kOwned: return Model(s) == PricingModel::kOwned;
    case Applies::kRentedUsdPrice: return Model(s) != PricingModel::kOwned && s.pricing.krw_per_gpu_hour <= 0;
    case Applies::kKrwPrice: return Model(s) != PricingModel::kOwned && s.pricing.krw_per_gpu_hour > 0;
    case Applies::kKrwInvolved:
      return s.pricing.krw_per_gpu_hour > 0 || s.pricing.currency == static_cast<int>(Currency::kKrw);
    case Applies::kHotSpares: return s.reliability.hot_spares > 0;
    case Applies::kGiven: return true;  // skipped below when the value is 0 (not given)
  }
  return false;
}

// The value the model uses now: the field's value, or for auto fields the derived one.
double EffectiveValue(const Scenario& s, const Result& r, const FieldSpec& f) {
  const double v = GetNumber(s, f);
  if (v > 0 || !f.is_auto) return v;
  const std::string_view path = f.path;
  if (path == "cluster.mfu") return r.mfu;
  if (path == "reliability.checkpoint_write_minutes") return r.checkpoint_write_minutes;
  return 0;  // auto and not derivable here: not varied
}

// Limits v to the field's range; returns true if it had to.
bool Clip(const FieldSpec& f, double* v) {
  if (ValueInRange(f, *v)) return false;
  const double lo = f.min_exclusive ? std::nextafter(f.min, f.max) : f.min;
  *v = std::min(std::max(*v, lo), f.max);
  return true;
}

// The figure the tornado moves, in USD: the cost per completed job, or for serving the cost per million
// output tokens.
double MetricUsd(const Result& r) { return r.inference.present ? r.inference.usd_per_million_output_tokens : r.expected_usd; }

}  // namespace

SensitivityResult AnalyzeSensitivity(const Scenario& s, double percent) {
  SensitivityResult out;
  const Result base = Evaluate(s);
  if (!base.ok || !(percent >= 0 && percent < 100)) return out;
  out.ok = true;
  out.serving = base.inference.present;
  out.base_usd = MetricUsd(base);
  out.base_hours = base.expected_hours;
  out.base_cost = out.base_usd * base.display_per_usd;
  out.base_per_request = base.inference.usd_per_request * base.display_per_usd;
  out.currency = base.display_currency;
  out.percent = percent;
  for (const Bound& b : kBounds) {
    const FieldSpec* f = FindField(b.path);
    if (!f || !Applicable(b, s)) continue;
    SensitivityInput in;
    in.path = f->path;
    in.unit = f->unit;
    in.bound_key = percent > 0 ? "sens.bound.percent" : b.source;
    in.bound_source = Tr(Lang::kEn, in.bound_key);  // the document's text, the same in every language
    in.base_value = EffectiveValue(s, base, *f);
    if (in.base_value <= 0) continue;
    in.low_value = in.base_value * (percent > 0 ? 1 - percent / 100 : b.low_factor);
    in.high_value = in.base_value * (percent > 0 ? 1 + percent / 100 : b.high_factor);
    in.clipped = Clip(*f, &in.low_value) | Clip(*f, &in.high_value);
    Scenario low = s, high = s;
    SetNumber(low, *f, in.low_value);
    SetNumber(high, *f, in.high_value);
    const Result rl = Evaluate(low), rh = Evaluate(high);
    if (!rl.ok || !rh.ok) continue;
    in.low_usd = MetricUsd(rl), in.high_usd = MetricUsd(rh);
    in.low_hours = rl.expected_hours, in.high_hours = rh.expected_hours;
    in.swing_usd = std::fabs(in.high_usd - in.low_usd);
    in.low_cost = in.low_usd * rl.display_per_usd;  // each at its own exchange rate
    in.high_cost = in.high_usd * rh.display_per_usd;
    in.low_per_request = rl.inference.usd_per_request * rl.display_per_usd;
    in.high_per_request = rh.inference.usd_per_request * rh.display_per_usd;
    in.swing = std::fabs(in.high_cost - in.low_cost);
    if (in.swing <= 1e-12 * std::max(std::fabs(in.high_cost), std::fabs(in.low_cost))) in.swing = 0;  // rounding
    out.inputs.push_back(in);
  }
  std::stable_sort(out.inputs.begin(), out.inputs.end(),
                   [](const SensitivityInput& a, const SensitivityInput& b) { return a.swing > b.swing; });
  return out;
}


}  // namespace gpucost
