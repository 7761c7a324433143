// inference_billing.cpp — a serving job's GPU time as named parts, billed by the one engine (inference_billing.h).
#include "job/inference_billing.h"
#include "base/asserts.h"
#include "base/numeric.h"
#include "base/message.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/format.h"
#include "hardware/catalog.h"
#include "money/billing.h"
#include "money/tco.h"

namespace gpucost {
namespace {


// P(N <= k) for N ~ Poisson(mean).
double PoissonCdf(int k, double mean) {
  double term = std::exp(-mean), sum = term;
  for (int i = 1; i <= k; ++i) {
    term *= mean / i;
    sum += term;
  }
  return std::min(1.0, sum);
}

// What a preemption takes from one pool under spot (issue 45: each preemption costs).
struct PoolSpot {
  double node_gpus = 0, preemptions = 0, spare_gpus = 0, rework_h = 0, down_gpu_h = 0, replace_gpu_h = 0,
         recovery_gpu_h = 0;
};

// Spot: preemptions, the capacity they take away and what it costs; fills ps[] and r->inference.spot and
// returns the period's hours (a batch job runs longer by the capacity lost).
double SpotServing(const Scenario& s, const ServingPool* pools, int n, const ServingPeriod& period, PoolSpot ps[2],
                   Result* r) {
  const PricingInputs& pr = s.pricing;
  const ReliabilityInputs& rel = s.reliability;
  const bool spot = Model(s) == PricingModel::kSpot;
  const double gpn = D(std::max<std::int64_t>(1, s.cluster.gpus_per_node));
  InferenceSpot& sp = r->inference.spot;
  sp = InferenceSpot{};
  sp.present = spot;
  sp.reacquire_minutes = pr.spot.reacquire_minutes;
  sp.target_attainment = 1;
  double hours = period.hours;
  double wait_hours = 0;
  const double want = static_cast<double>(s.inference.slo.percentile) / 100;
  for (int i = 0; spot && i < n && i < 2; ++i) {
    const ServingPool& p = pools[i];
    PoolSpot& q = ps[i];
    // One preemption takes a node: the replicas on it, or a whole replica wider than a node.
    const double replicas_lost = p.tp <= gpn ? std::min(D(p.replicas), std::max(1.0, std::floor(gpn / D(p.tp)))) : 1.0;
    q.node_gpus = replicas_lost * D(p.tp);
    const double nodes = std::max(1.0, std::ceil(p.billed_gpus / gpn - 1e-12));
    const double per_node_h = pr.spot.preemptions_per_node_day / 24;
    const double reacquire_h = pr.spot.reacquire_minutes / 60, recover_h = rel.recovery_minutes / 60;
    q.preemptions = nodes * per_node_h * hours;
    // In flight on the node at the notice: a request whose remaining time outlasts the notice (exponential with the
    // mean end-to-end latency: a share e^(-notice / e2e)) is redone elsewhere, half its work lost on average.
    const double unfinished = period.e2e_mean_s > 0 ? std::exp(-pr.spot.notice_seconds / period.e2e_mean_s) : 1.0;
    const double per_request_h = (p.work_prefill_h + p.work_decode_h + p.work_kv_h) / std::max(1.0, period.served);
    q.rework_h = q.preemptions * replicas_lost * p.in_flight * unfinished * 0.5 * per_request_h;
    // The replica's recovery: the node that comes back loads the weights before it serves (billed, idle).
    q.recovery_gpu_h = q.preemptions * q.node_gpus * recover_h;
    q.down_gpu_h = q.preemptions * q.node_gpus * reacquire_h;  // away: not billed
    if (p.measured) {  // a run's record: the spares, replacements and recoveries are inside its hours, away ones not
      q.down_gpu_h = 0;
    } else if (!period.batch_job && q.preemptions > 0) {
      // An online service keeps its capacity: a preempted node's capacity is replaced for its reacquisition (spare
      // capacity that follows the rate: node GPUs x the reacquire time per preemption, as much as is away), and
      // spare nodes hold the target while nodes recover: the fewest k >= 0 such that, with nodes recovering at once
      // a Poisson count of mean nodes x rate x recovery time, P(recovering <= k) reaches the target's percentile.
      q.replace_gpu_h = q.down_gpu_h;
      const double recovering_mean = nodes * per_node_h * recover_h;
      int k = 0;
      while (k < 1000 && PoissonCdf(k, recovering_mean) < want) ++k;
      q.spare_gpus = k * q.node_gpus;
      sp.spare_gpus += q.spare_gpus + q.replace_gpu_h / std::max(hours, 1e-300);
      sp.target_attainment = std::min(sp.target_attainment, PoissonCdf(k, recovering_mean));
    } else if (p.replicas > 0) {
      // A batch job runs on with the replicas left: the lost capacity is made up at the end.
      wait_hours = std::max(wait_hours, q.down_gpu_h / (D(p.replicas) * D(p.tp)));
    }
    sp.preemptions += q.preemptions;
  }
  GPUCOST_ASSERT(sp.target_attainment >= 0 && sp.target_attainment <= 1 && AmountOk(sp.spare_gpus),
                 "spot spares are >= 0 and the target's attainment is a probability");
  if (spot && period.batch_job) {
    sp.target_attainment = 0;  // no target during reacquisition: the job runs longer instead
    hours += wait_hours;
  }
  return hours;
}

// fresh2 C2: a pool on another GPU than cluster.gpu with no price of its own is billed at the pricing.* price,
// which is cluster.gpu's: said, naming the pool, its GPU, the price it borrowed and whose (an A100 decode pool at
// the H100's USD 2.99 was silent, while Compare serving options priced the A100 from the offers). Owned hardware
// is priced per GPU (its own server price) and a MIG slice is cluster.gpu's: neither borrows.
[[gnu::noinline]] void NoteBorrowedPoolPrice(const Scenario& s, int i, const ServingPool& p, const BillingTerms& terms,
                                             const BillingNotes& priced, Result* r) {
  if (Model(s) == PricingModel::kOwned || !p.gpu_id || std::strcmp(p.gpu_id, s.cluster.gpu) == 0) return;
  const GpuSpec* own = FindGpu(p.gpu_id);
  const GpuSpec* lender = FindGpu(s.cluster.gpu);
  const bool split = static_cast<InferenceMode>(s.inference.mode) == InferenceMode::kDisaggregated;
  const char* pool = !split ? "msg.pool_name.pool" : i == 0 ? "msg.pool_name.prefill" : "msg.pool_name.decode";
  const char* field = !split || i > 0 ? "inference.decode.usd_per_gpu_hour" : "inference.prefill.usd_per_gpu_hour";
  const double price = terms.price_pretax * priced.display_per_usd;  // before tax, as the result's pool price
  const std::string money = std::strcmp(priced.display_currency, "KRW") == 0 ? FormatKrwGrouped(price) : FormatUsd(price);
  r->warnings.Add("pool_price_borrowed", "msg.w_pool_price_borrowed",
                  {MessageParam::Key(pool), own ? own->name : std::string(p.gpu_id), money,
                   lender ? lender->name : std::string(s.cluster.gpu), field});
}

// One pool's GPU time as named parts (work, failures, spot, idle capacity, cold starts), its rental sessions and
// its commitment share, billed by the engine into *bill; the first pool's terms price the services after.
void BillPool(const Scenario& s, int i, ServingPool& p, const PoolSpot& q, double hours, const ServingPeriod& period,
              JobBill* bill, BillingTerms* first_terms, Result* r) {
  const ReliabilityInputs& rel = s.reliability;
  BillingNotes priced;  // tco of this pool's GPU
  BillingTerms terms;
  PlanBilling(s, p.billed_gpus + q.spare_gpus, p.gpu_id, &terms, &priced, i == 0 ? &r->warnings : nullptr);
  terms = WithPoolPrice(terms, p.usd_per_gpu_hour);
  if (p.usd_per_gpu_hour <= 0) NoteBorrowedPoolPrice(s, i, p, terms, priced, r);  // fresh2 C2
  if (i == 0 || !r->tco.present) r->tco = priced.tco;
  if (i == 0) {
    *first_terms = terms;
    r->display_currency = priced.display_currency;
    r->display_per_usd = priced.display_per_usd;
  }
  Usage u;
  double* g = u.gpu_hours.part;
  const double gpus = D(p.replicas * p.tp);
  // Failures: each GPU fails every gpu_mtbf_hours; its replica recovers (billed, idle) and the requests in
  // flight on it are recomputed (half their work on average).
  // Autoscaled (issue 28): the replicas are rented only the hours they serve (plus their cold start and release).
  const bool scaled = p.rented_gpu_h >= 0;
  const double held = scaled ? p.rented_gpu_h : gpus * hours;
  const double held_share = gpus * hours > 0 ? held / (gpus * hours) : 1;
  const double failures = rel.gpu_mtbf_hours > 0 ? held / rel.gpu_mtbf_hours : 0;
  const double per_request_h = (p.work_prefill_h + p.work_decode_h + p.work_kv_h) / std::max(1.0, period.served);
  g[kPartPrefillGpus] = p.work_prefill_h;
  g[kPartDecodeGpus] = p.work_decode_h;
  g[kPartKvTransfer] = p.work_kv_h;
  g[kPartRecovery] = failures * D(p.tp) * rel.recovery_minutes / 60;
  g[kPartRework] = failures * p.in_flight * 0.5 * per_request_h;
  g[kPartSpotRework] = q.rework_h;
  g[kPartSpotSpareCapacity] = q.spare_gpus * hours + q.replace_gpu_h;
  if (p.measured) g[kPartRecovery] += q.recovery_gpu_h;  // inside the hours the record held
  g[kPartIdleGpus] = (p.billed_gpus - gpus) * hours * held_share;
  g[kPartColdStart] = p.cold_start_gpu_h;
  // Capacity held for the peak and the target; a node away after a preemption is not billed.
  double used = 0;
  for (int part : {kPartPrefillGpus, kPartDecodeGpus, kPartKvTransfer, kPartRecovery, kPartRework, kPartSpotRework})
    used += g[part];
  if (p.measured && used > held + p.release_gpu_h) {
    // A run's record held fewer GPU-hours than the plan's model gives its work: the run did it in the hours it held
    // (its engine was faster than modelled), and those hours are what is billed; each part of the work in proportion.
    const double k = (held + p.release_gpu_h) / used;
    for (int part : {kPartPrefillGpus, kPartDecodeGpus, kPartKvTransfer, kPartRecovery, kPartRework, kPartSpotRework})
      g[part] *= k;
    used = held + p.release_gpu_h;
    if (r->warnings.Find("run_faster_than_model") < 0)  // once for the service (the first pool that shows it)
      r->warnings.Add("run_faster_than_model", "msg.w_run_faster_than_model", {FormatParam("%.0f", 100 * (1 - k))});
  }
  // A capped autoscaled day can hold fewer GPU-hours than the work: the work is late, not free (idle is 0).
  g[kPartIdleCapacity] = std::max(0.0, held + p.release_gpu_h - q.down_gpu_h - used);
  // A preempted node's recovery is held beside the capacity that replaces it: billed on top (planned).
  if (!p.measured) g[kPartRecovery] += q.recovery_gpu_h;
  // Autoscaled: the GPUs rented on average over the period (sessions of the day; rounding measured on them).
  u.billed_gpus = (scaled && hours > 0 ? (held + p.cold_start_gpu_h + p.release_gpu_h) / hours +
                                             (p.billed_gpus - gpus) * held_share
                                       : p.billed_gpus) +
                  q.spare_gpus;
  u.wall_s = hours * 3600;
  // Each preemption ends a rental session and starts one when the node returns; an online service's replacement
  // is one more session.
  const double preempt_sessions = q.preemptions * (q.replace_gpu_h > 0 ? 2 : 1);
  u.cut_sessions = preempt_sessions + p.scale_events;
  u.away_gpu_s = q.down_gpu_h * 3600;
  u.session_gpus = preempt_sessions + p.scale_events > 0
                       ? (preempt_sessions * q.node_gpus + p.scale_events * p.scale_session_gpus) / (preempt_sessions + p.scale_events)
                       : 0;
  // The day's sessions were rounded one by one (inference_day.cpp, BilledSessionSeconds at the same increment
  // and minimum); without preemptions that measured rounding is the pool's. Under spot the engine estimates
  // preemptions and scale events together (scale_events above).
  if (scaled && p.session_rounding_gpu_h >= 0 && q.preemptions <= 0) u.exact_rounding_gpu_s = p.session_rounding_gpu_h * 3600;
  // A commitment: the service uses its term for inference.service_months; this period carries its share of
  // the rest. A batch job is a job: the term after it is its own.
  const double service_hours = period.batch_job ? hours : std::max(hours, s.inference.service_months * kHoursPerMonth);
  u.held_hours = service_hours;
  u.held_above_hours = hours;
  u.commitment_share = service_hours > 0 ? hours / service_hours : 1;
  const double before = bill->gpu_usd;
  BillGpuTime(terms, u, bill);
  p.usd = bill->gpu_usd - before;
  p.price_pretax = terms.price_pretax;
  GPUCOST_ASSERT(g[kPartIdleCapacity] >= 0 && g[kPartSpotSpareCapacity] >= 0, "a pool's idle and spare capacity are >= 0");
}

}  // namespace

double SpotHeldGpuHours(const Scenario& s, const ServingPool* pools, int n, const ServingPeriod& period, double extra_gpu_h[2]) {
  PoolSpot ps[2];
  Result scratch;
  const double hours = SpotServing(s, pools, n, period, ps, &scratch);
  for (int i = 0; i < 2; ++i) {
    const PoolSpot& q = ps[std::min(i, 1)];
    // (A batch job on spot holds its replicas through the waits for reacquisition.)
    extra_gpu_h[i] = i < n ? q.spare_gpus * hours + q.replace_gpu_h + q.recovery_gpu_h - q.down_gpu_h +
                                 D(pools[i].replicas * pools[i].tp) * (hours - period.hours)
                           : 0;
  }
  return hours;
}

double BillServing(const Scenario& s, ServingPool* pools, int n, const ServingPeriod& period, Result* r) {
  PoolSpot ps[2];
  const double hours = SpotServing(s, pools, n, period, ps, r);
  const InferenceSpot& sp = r->inference.spot;
  // --- GPU time of each pool, billed by the engine ---
  JobBill bill;
  BillingTerms first_terms;
  for (int i = 0; i < n; ++i) BillPool(s, i, pools[i], ps[std::min(i, 1)], hours, period, &bill, &first_terms, r);
  double pools_usd = 0;
  for (int i = 0; i < n; ++i) pools_usd += pools[i].usd;
  GPUCOST_ASSERT(ApproxEqual(pools_usd, bill.gpu_usd), "the pools' money adds up to the service's GPU money");
  bill.hours = hours;
  // Issue 28: the router tier in front of the replicas (not GPU time; taxed like the rest).
  // Services on the scenario's tax basis, as storage, egress and fees (billing.h AddService).
  if (period.router_usd_per_hour > 0) AddService(first_terms, kPartRouter, period.router_usd_per_hour * hours, &bill);
  // The provider's support contract (pricing.support_usd_per_month), over the period as for a training job
  // (operations.cpp): not GPU time, taxed like the rest.
  if (s.ops.support_usd_per_month > 0)
    AddService(first_terms, kPartSupport, s.ops.support_usd_per_month / kHoursPerMonth * hours, &bill);
  FinishBill(first_terms, period.stored_gb, hours, &bill);

  r->gpu_hours = bill.gpu_hours;
  r->cost_usd = bill.cost_usd;
  r->billed_gpu_hours = bill.billed_gpu_hours;
  r->expected_usd = bill.usd;
  r->vat_usd = bill.vat_usd;
  r->commitment_after_job_usd = bill.commitment_after_job_usd;
  NoteCommitmentRenewal(first_terms, bill, hours, r->display_currency, r->display_per_usd, &r->warnings);  // A12
  r->time_hours = Breakdown{};
  r->time_hours.part[kPartCompute] = period.hours;
  r->time_hours.part[kPartReacquireWait] = hours - period.hours;
  r->expected_preemptions = sp.preemptions;
  GPUCOST_ASSERT(ApproxEqual(r->expected_usd, r->cost_usd.Total()) && AmountOk(r->expected_usd),
                 "a serving bill's total is its parts");
  r->usd_per_gpu_hour = bill.billed_gpu_hours > 0
                            ? (bill.gpu_usd - bill.cost_usd.part[kPartUnusedCommitment]) / bill.billed_gpu_hours
                            : first_terms.price_pretax;
  return hours;
}


}  // namespace gpucost
