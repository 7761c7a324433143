// inference_day.cpp — a serving day by the hour, autoscaled or on a fixed fleet (inference_day.h).
#include "serving/inference_day.h"
#include "base/numeric.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpucost {
namespace {

constexpr int kHours = kLoadProfileHours;

// Preset shapes, hour 0..23 of the service's local time, normalised to mean 1 when used. Assumptions, not
// measurements: illustrative shapes with the 5x night-to-noon swing the issue describes (business-day) and an
// evening peak (consumer-evening). No published hourly curve of an LLM service was confirmed; DeepSeek's one
// disclosed day (open-infra-index, 2025-02-28) gives only its peak and mean node counts (278 and 226.75).
constexpr double kBusinessDay[kHours] = {0.4, 0.4, 0.4, 0.4, 0.4, 0.5, 0.7, 1.0, 1.4, 1.8, 2.0, 2.0,
                                         1.8, 2.0, 2.0, 1.8, 1.5, 1.2, 0.9, 0.7, 0.6, 0.5, 0.45, 0.4};
constexpr double kConsumerEvening[kHours] = {0.8, 0.6, 0.45, 0.4, 0.4, 0.4, 0.45, 0.6, 0.8, 0.9, 1.0, 1.1,
                                             1.2, 1.1, 1.0, 1.0, 1.1, 1.3, 1.6, 1.9, 2.0, 1.9, 1.5, 1.1};

// One pool's day: rented replicas per hour (r), warm-up and release per hour, sessions.
struct PoolDay {
  std::int64_t need[kHours] = {};
  std::int64_t rented[kHours] = {};
  double extra_replica_hours[kHours] = {};  // warming and releasing replicas, attributed to the hour they touch
  double cold_h = 0, release_h = 0, rounding_h = 0;  // replica-hours per day
  std::int64_t sessions = 0;
  bool capped = false;  // an hour's need reached kInferenceMaxSizedReplicas
};

// Replicas for `needed` replicas' worth of load, at most kInferenceMaxSizedReplicas (*capped set when reached).
std::int64_t SizedReplicas(double needed, bool* capped) {
  const double n = std::ceil(needed - 1e-9);
  if (!(n <= kInferenceMaxSizedReplicas)) {
    *capped = true;
    return static_cast<std::int64_t>(kInferenceMaxSizedReplicas);
  }
  return static_cast<std::int64_t>(n);
}

void PlanPool(const Scenario& s, const DayPool& p, const double rate[kHours], std::int64_t fixed, bool autoscale,
              double up_h, double down_h, PoolDay* out) {
  const InferenceAutoscaleInputs& a = s.inference.autoscale;
  const std::int64_t lo = a.min_replicas > 0 ? a.min_replicas : 1;
  const std::int64_t hi = a.max_replicas > 0 ? a.max_replicas : std::numeric_limits<std::int64_t>::max();
  for (int h = 0; h < kHours; ++h) {
    const double peak = rate[h] * s.inference.peak_to_mean;
    const std::int64_t need = p.capacity > 0 && peak > 0 ? SizedReplicas(peak / p.capacity, &out->capped) : 0;
    out->need[h] = autoscale ? std::clamp(need, lo, hi) : fixed;
    out->rented[h] = out->need[h];
  }
  if (!autoscale) return;
  // Replica i runs where need > i; runs joined across short gaps; billed per session. Replicas between two
  // consecutive levels of need (a <= i < b) run in the same hours (need >= b): each band is planned once and
  // counted b - a times, so the work is at most 24 bands however many replicas the day needs.
  std::int64_t levels[kHours];
  std::copy(out->need, out->need + kHours, levels);
  std::sort(levels, levels + kHours);
  std::int64_t below = 0;  // the band's first replica (a)
  for (int level = 0; level < kHours; ++level) {
    const std::int64_t b = levels[level];
    if (b <= below) continue;
    const std::int64_t band = b - below;  // replicas a .. b-1
    const double n = static_cast<double>(band);
    below = b;
    bool on[kHours];
    int count = 0, first_off = -1;
    for (int h = 0; h < kHours; ++h) {
      on[h] = out->need[h] >= b;
      count += on[h];
      if (!on[h] && first_off < 0) first_off = h;
    }
    if (count == kHours) continue;  // all day: one continuous rental, no scale events
    // Join gaps shorter than a stop and restart costs.
    for (int k = 0; k < kHours; ++k) {
      const int h = (first_off + k) % kHours;
      if (on[h] || !on[(h + kHours - 1) % kHours]) continue;  // the start of a gap
      int len = 0;
      while (len < kHours && !on[(h + len) % kHours]) ++len;
      if (len < kHours && len <= up_h + down_h)
        for (int j = 0; j < len; ++j) on[(h + j) % kHours] = true;
    }
    int runs = 0, held = 0;
    double billed_h = 0;
    int starts[kHours], lengths[kHours];
    for (int h = 0; h < kHours; ++h) {
      if (!on[h]) continue;
      ++held;
      if (on[(h + kHours - 1) % kHours]) continue;
      int len = 0;
      while (len < kHours && on[(h + len) % kHours]) ++len;
      starts[runs] = h;
      lengths[runs++] = len;
      billed_h += BilledSessionSeconds((len + up_h + down_h) * 3600, s.pricing) / 3600;
    }
    if (runs == 0 || billed_h >= kHours) {  // dearer than keeping it: kept all day
      for (int h = 0; h < kHours; ++h) out->rented[h] = std::max(out->rented[h], b);
      continue;
    }
    for (int h = 0; h < kHours; ++h)
      if (on[h]) out->rented[h] = std::max(out->rented[h], b);
    for (int r = 0; r < runs; ++r) {
      out->extra_replica_hours[(starts[r] + kHours - 1) % kHours] += n * up_h;
      out->extra_replica_hours[(starts[r] + lengths[r]) % kHours] += n * down_h;
    }
    out->sessions += band * runs;
    out->cold_h += n * runs * up_h;
    out->release_h += n * runs * down_h;
    out->rounding_h += n * (billed_h - (held + runs * (up_h + down_h)));
  }
}

}  // namespace


void LoadProfileMultipliers(const InferenceLoadProfileInputs& p, double out[kLoadProfileHours]) {
  const auto profile = static_cast<LoadProfile>(p.profile);
  const double* src = profile == LoadProfile::kBusinessDay ? kBusinessDay
                      : profile == LoadProfile::kConsumerEvening ? kConsumerEvening
                      : profile == LoadProfile::kCustom ? p.multipliers
                                                        : nullptr;
  double sum = 0;
  for (int h = 0; h < kHours; ++h) sum += src ? src[h] : 1.0;
  const double scale = profile == LoadProfile::kCustom || sum <= 0 ? 1.0 : kHours / sum;  // custom: as typed
  for (int h = 0; h < kHours; ++h) out[h] = (src ? src[h] : 1.0) * scale;
}

double BilledSessionSeconds(double held_s, const PricingInputs& pr) {
  const double inc = pr.billing_increment_seconds > 0 ? pr.billing_increment_seconds : 1;
  return std::max(std::ceil(held_s / inc - 1e-9) * inc, pr.minimum_billed_seconds);
}

void EvaluateServingDay(const Scenario& s, const InferenceModel& m, const DayPool pools[2], ServingDay* out) {
  *out = ServingDay{};
  const InferenceInputs& in = s.inference;
  if (static_cast<LoadProfile>(in.load_profile.profile) == LoadProfile::kNone || !pools[0].present) return;
  out->present = true;
  const InferenceAutoscaleInputs& a = in.autoscale;
  out->autoscaled = in.autoscale_given || a.min_replicas > 0 || a.max_replicas > 0 || a.scale_up_minutes > 0 ||
                    a.scale_down_minutes > 0;
  double mult[kHours], rate[kHours];
  LoadProfileMultipliers(in.load_profile, mult);
  for (int h = 0; h < kHours; ++h) {
    rate[h] = in.requests_per_second * mult[h];
    out->peak_multiplier = std::max(out->peak_multiplier, mult[h]);
    out->mean_multiplier += mult[h] / kHours;
    out->requests += rate[h] * 3600;
  }
  // Cold start: the replica's weights (all its GPUs) read from storage at its bandwidth.
  const ReplicaModel& dr = pools[0].replica;
  const double storage_gbps = s.storage.read_gbps > 0 ? s.storage.read_gbps : s.storage.checkpoint_write_gbps;
  const double replica_weights_gb = dr.weight_bytes_per_gpu * D(dr.tp) / 1e9;
  out->scale_up_minutes = a.scale_up_minutes > 0 ? a.scale_up_minutes
                          : storage_gbps > 0     ? replica_weights_gb / storage_gbps / 60
                                                 : 0;
  const double up_h = out->autoscaled ? out->scale_up_minutes / 60 : 0;
  const double down_h = out->autoscaled ? a.scale_down_minutes / 60 : 0;
  const std::int64_t pct = in.slo.percentile;
  PoolDay day[2];
  double attained = 0;
  for (int k = 0; k < 2; ++k) {
    const DayPool& p = pools[k];
    if (!p.present) continue;
    std::int64_t fixed = 0;
    for (int h = 0; h < kHours; ++h) {
      const double peak = rate[h] * in.peak_to_mean;
      if (p.capacity > 0) fixed = std::max(fixed, SizedReplicas(peak / p.capacity, &out->replicas_capped));
    }
    fixed = std::max<std::int64_t>({fixed, p.fixed_replicas, std::max<std::int64_t>(1, a.min_replicas)});
    PlanPool(s, p, rate, fixed, out->autoscaled, up_h, down_h, &day[k]);
    out->replicas_capped = out->replicas_capped || day[k].capped;
    const double tp = D(p.replica.tp);
    (k == 0 ? out->fixed_replicas : out->fixed_prefill_replicas) = fixed;
    out->fixed_gpus += fixed * p.replica.tp;
    out->fixed_usd += D(fixed) * tp * kHours * p.usd_per_gpu_hour;
    out->mean_rate_floor_usd += p.capacity > 0 ? out->requests / 3600 / p.capacity * tp * p.usd_per_gpu_hour : 0;
    for (int h = 0; h < kHours; ++h) {
      ServingDayHour& hr = out->hour[h];
      const double gpus = (D(day[k].rented[h]) + day[k].extra_replica_hours[h]) * tp;
      hr.gpus += gpus;
      hr.usd += gpus * p.usd_per_gpu_hour;
      out->serving_gpu_hours += D(day[k].rented[h]) * tp;
      out->pool_serving_gpu_hours[k] += D(day[k].rented[h]) * tp;
    }
    out->pool_cold_start_gpu_hours[k] = day[k].cold_h * tp;
    out->pool_scale_down_gpu_hours[k] = day[k].release_h * tp;
    out->pool_rounding_gpu_hours[k] = day[k].rounding_h * tp;
    out->pool_scale_events[k] = day[k].sessions;
    out->cold_start_gpu_hours += day[k].cold_h * tp;
    out->scale_down_gpu_hours += day[k].release_h * tp;
    out->rounding_gpu_hours += day[k].rounding_h * tp;
    out->usd += (day[k].rounding_h + day[k].cold_h + day[k].release_h) * tp * p.usd_per_gpu_hour;
    out->scale_events += day[k].sessions;
  }
  const bool split = pools[1].present;
  for (int h = 0; h < kHours; ++h) {
    ServingDayHour& hr = out->hour[h];
    hr.requests_per_second = rate[h];
    hr.replicas = day[0].rented[h];
    hr.prefill_replicas = split ? day[1].rented[h] : hr.replicas;
    out->usd += D(day[0].rented[h]) * D(pools[0].replica.tp) * pools[0].usd_per_gpu_hour +
                (split ? D(day[1].rented[h]) * D(pools[1].replica.tp) * pools[1].usd_per_gpu_hour : 0);
    // Latency at the hour's peak on its replicas (the target is met at the peak, as for a steady load).
    const double peak = rate[h] * in.peak_to_mean;
    bool met = true;
    for (int k = 0; k < (split ? 2 : 1); ++k) {
      const DayPool& p = pools[k];
      const double per = day[k].rented[h] > 0 ? peak / D(day[k].rented[h]) : 0;
      const ReplicaLatency l = ReplicaLatencyAt(m, p.replica, per, p.service_s, p.ttft_extra_s, p.stalls, p.decode, p.prefill);
      met = met && l.stable;
      if (p.prefill) hr.ttft_ms = l.ttft_ms.At(pct);
      if (p.decode) hr.tpot_ms = l.tpot_ms.At(pct);
    }
    if (in.slo.ttft_ms > 0 && hr.ttft_ms > in.slo.ttft_ms * (1 + 1e-9)) met = false;
    if (in.slo.tpot_ms > 0 && hr.tpot_ms > in.slo.tpot_ms * (1 + 1e-9)) met = false;
    hr.slo_met = met;
    if (met) attained += rate[h] * 3600;
  }
  if (!out->autoscaled) out->usd = out->fixed_usd;  // no scale events: the fixed fleet all day
  out->attainment = out->requests > 0 ? attained / out->requests : 1;
  out->usd_per_request = out->requests > 0 ? out->usd / out->requests : 0;
  out->fixed_usd_per_request = out->requests > 0 ? out->fixed_usd / out->requests : 0;
}

}  // namespace gpucost
