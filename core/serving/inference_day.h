// inference_day.h — a service over a day whose load changes by the hour, with or without autoscaling (issue 28).
//
// Inputs: inference.load_profile (24 hourly multipliers of inference.requests_per_second, or a preset), and
// inference.autoscale {min_replicas, max_replicas, scale_up_minutes, scale_down_minutes}. Within each hour the
// load peaks at inference.peak_to_mean times the hour's rate (as for a steady load).
//
// Model, per pool (colocated: the one pool; disaggregated: prefill and decode, each by its own capacity):
//   * Replicas needed in hour h: ceil(peak rate of the hour / one replica's capacity within the target)
//     (inference_model.h CapacityWithinTarget), at least min_replicas and at most max_replicas. An hour capped
//     below its need misses the target (its latency is evaluated on the replicas it has; unstable: missed).
//   * The load is known by the hour, so a replica is started scale_up_minutes before its first hour (the cold
//     start: rented, loading weights, not serving; auto: the weights read from storage at storage.read_gbps, else
//     storage.checkpoint_write_gbps) and released scale_down_minutes after its last (billed, idle). Replicas are
//     stacked: replica i runs in the hours that need more than i; two runs of one replica closer than the
//     scale-up plus scale-down time are joined (keeping it is cheaper than stopping and restarting it). The day
//     repeats, so runs wrap around midnight; a replica that would cost more than the whole day is kept all day.
//   * Each run is a rental session billed by the offer's rules (pricing.billing_increment_seconds and
//     pricing.minimum_billed_seconds: BilledSessionSeconds, one call for issue 25's unified billing).
//   * The fixed fleet beside it: as many replicas as the peak hour needs, all day (the closed form's sizing,
//     whole nodes filled when pricing.whole_nodes).
//   * Latency per hour at the hour's rate on its replicas; attainment: the share of the day's requests served
//     in hours that meet the target at its percentile.
// Invariants (tests): the autoscaled day never costs more than the fixed fleet, and never less than serving the
// mean rate at each replica's full capacity within the target.
#pragma once
#include <cstdint>

#include "serving/inference_model.h"
#include "scenario/scenario.h"

namespace gpucost {

// The 24 multipliers of a profile (presets: mean 1, so requests_per_second is the day's mean rate).
void LoadProfileMultipliers(const InferenceLoadProfileInputs& p, double out[kLoadProfileHours]);

// One pool as the closed form sized it (inference.cpp).
struct DayPool {
  ReplicaModel replica;
  double service_s = 0, ttft_extra_s = 0;
  bool prefill = true, decode = true, stalls = true;
  double capacity = 0;        // requests/s per replica within the target (else the saturated rate's planned share)
  double usd_per_gpu_hour = 0;
  bool present = false;
  std::int64_t fixed_replicas = 0;  // the closed form's fleet for the peak hour (whole nodes filled); 0: sized here
};

// ServingDayHour and ServingDay (the result) are in inference.h, with the rest of the serving result.

// The rental of one session of `held_s` seconds by the offer's rules: whole increments, at least the minimum.
// Used to plan the day (keep a replica all day when its sessions would cost as much) and to measure each pool's
// session rounding, which the one billing engine (billing.h BillGpuTime, through inference_billing.h BillServing)
// takes as Usage::exact_rounding_gpu_s; the money itself is billed there (owned hardware: no rounding).
double BilledSessionSeconds(double held_s, const PricingInputs& pricing);

// The day of a serving scenario with a load profile. pools[0]: decode (colocated: the pool); pools[1]: prefill
// (disaggregated, else present = false). Allocation-free.
void EvaluateServingDay(const Scenario& s, const InferenceModel& m, const DayPool pools[2], ServingDay* out);

}  // namespace gpucost
