// inference_billing.h — the money of a serving job (a batch inference job or an online service), through the one
// billing engine (billing.h): the same price, billing increments and minimums, whole nodes, spot, commitment,
// owned hardware, storage, egress, fees and tax as a training job. This file only says what the pools held
// (GPU-hours as named parts, rental sessions); billing.h turns that into money.
//
// Serving under spot (pricing.model = spot): a pool of N nodes sees N x preemptions_per_node_day preemptions a
// day. Each takes one node (the replicas on it; a replica wider than a node is lost whole) for
// pricing.spot.reacquire_minutes (not billed), ends one rental session and starts another when the node returns
// (each rounded), and costs what a preemption costs (issue 45: more preemptions never make a service cheaper):
//   spot_rework          the requests in flight on the node whose remaining time outlasts the notice
//                        (pricing.spot.notice_seconds; remaining time exponential with the mean end-to-end
//                        latency) are redone elsewhere, half their work lost on average;
//   recovery             the node that comes back loads its weights before it serves (reliability.recovery_minutes,
//                        billed);
//   spot_spare_capacity  an online service keeps its capacity: the preempted node's capacity is replaced while it
//                        is away (node GPUs x reacquire time per preemption: spare capacity that follows the rate,
//                        one more rental session each), and spare nodes hold the target while nodes recover: the
//                        fewest k >= 0 such that, with nodes recovering at once a Poisson count of mean
//                        N x rate x recovery time, P(recovering <= k) reaches the target's percentile
//                        (inference.slo.percentile), reported as the target's attainment through preemptions.
// A batch job carries no spares: it runs longer by the capacity lost (reacquire_wait, not billed).
//
// Serving under a commitment: the service runs inference.service_months; a longer term is paid to its end
// (unused_commitment), shared over the service's hours, so the period evaluated (inference.hours) carries its
// share, exactly as a training job carries the term after the job.
//
// Issue 28 (load profiles, autoscaling) adds rental sessions through ServingPool::scale_events (each rounds up
// like a preemption) and never prices GPU time itself.
#pragma once
#include <cstdint>

#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

struct ServingPool {
  const char* gpu_id = "";           // catalog id of the pool's GPU (owned: its TCO)
  double usd_per_gpu_hour = 0;       // inference.<pool>.usd_per_gpu_hour (0: the scenario's price)
  std::int64_t replicas = 0;
  std::int64_t tp = 1;               // GPUs per replica
  double billed_gpus = 0;            // replicas x tp, rounded up to whole nodes when billed so
  double work_prefill_h = 0;         // GPU-hours of prefill work in the period (full batch)
  double work_decode_h = 0;          // GPU-hours of decode work
  double work_kv_h = 0;              // GPU-hours holding a KV cache while it leaves (disaggregated)
  double in_flight = 1;              // requests in flight per replica at the mean load
  double scale_events = 0;           // extra rental sessions (autoscaling, issue 28), each of scale_session_gpus
  double scale_session_gpus = 0;
  // Issue 28, a load profile with autoscaling (inference_day.h), over the period: the GPU-hours the pool's replicas
  // were rented to serve (< 0: the whole fleet all period), rented before serving (cold start: weights loading),
  // kept after the last busy hour (release, idle capacity), and the billing rounding of the day's sessions as
  // measured session by session (< 0: estimated by the engine from scale_events).
  double rented_gpu_h = -1;
  double cold_start_gpu_h = 0;
  double release_gpu_h = 0;
  double session_rounding_gpu_h = -1;
  // A run's record (gpucost actual): rented_gpu_h is the GPU-hours the pool was billed for, so what spot holds beside
  // the work (spare nodes, the replacement while a node is away, its recovery) is inside them, never on top, and a
  // node away is already not in them (every hour billed once).
  bool measured = false;
  // Out: the pool's money before tax (GPU time, its commitment), for the input/output split.
  double usd = 0;
  double price_pretax = 0;           // USD per GPU-hour before tax the pool was billed at
};

struct ServingPeriod {
  bool batch_job = false;
  double hours = 0;                  // the period (a batch job: until the last request, before spot waits)
  double served = 0;                 // requests in the period
  double e2e_mean_s = 0;             // mean end-to-end latency of a request (drain on a spot notice)
  double stored_gb = 0;              // weights and dataset
  double router_usd_per_hour = 0;    // issue 28: the router tier, as entered (tax basis of the scenario's prices)
};

// Bills the pools over the period: fills r's time_hours, gpu_hours, cost_usd, expected_usd, billed_gpu_hours,
// usd_per_gpu_hour, vat_usd, tco (owned), commitment_after_job_usd, expected_preemptions and r->inference.spot;
// pools[i].usd. Returns the period's hours (a batch job on spot runs longer).
double BillServing(const Scenario& s, ServingPool* pools, int pool_count, const ServingPeriod& period, Result* r);
// What spot adds to each planned pool's GPU-hours held (spare nodes and replacements held, recoveries, less the hours a
// preempted node is away and not billed): the plan's GPU-hours held are its replicas' plus these, as a run's record
// counts them (0 off spot). Returns the period's hours as billed (a batch job on spot: with its waits). BillServing's
// own figures.
double SpotHeldGpuHours(const Scenario& s, const ServingPool* pools, int pool_count, const ServingPeriod& period,
                        double extra_gpu_h[2]);

}  // namespace gpucost
