// inference_evaluate.cpp — a serving job evaluated whole: sized and timed by serving/ (PlanServing), priced by
// the one billing engine (inference_evaluate.h).
#include "job/inference_evaluate.h"

#include <algorithm>
#include <cmath>

#include "base/asserts.h"
#include "base/numeric.h"
#include "base/message.h"
#include "job/inference_billing.h"
#include "money/billing.h"
#include "serving/inference_day.h"
#include "serving/inference_model.h"
#include "serving/serving_plan.h"

namespace gpucost {
namespace {

// GPU-hours of work the requests served need: prefill (colocated: alone or mixed into the decode steps), decode
// at the replica's full batch, the exposed KV transfer (split).
struct ServingWork {
  double prefill_h = 0, decode_h = 0, kv_h = 0;
};

ServingWork WorkOf(const ServingPlan& plan, double served) {
  const ServingPoolPlan& dp = plan.decode;
  const ServingPoolPlan& pp = plan.prefill;
  const ReplicaModel& prefill_replica = plan.split ? pp.replica : dp.replica;
  const double prefill_s = plan.split ? pp.replica.prefill_s : dp.service_s;
  ServingWork w;
  w.prefill_h = served * prefill_s * D(prefill_replica.tp) / 3600;
  w.decode_h = served * DecodeWorkGpuSeconds(plan.m, dp.replica) / 3600;
  w.kv_h = plan.split ? served * pp.ttft_extra_s * D(pp.replica.tp) / 3600 : 0;
  return w;
}

// Step 1: the pools as the billing engine sees them (split: the prefill pool first), with the work each does.
int ServingPoolsOf(const Scenario& s, const ServingPlan& plan, const ServingWork& work, ServingPool pools[2]) {
  const InferenceInputs& in = s.inference;
  const ServingPoolPlan& dp = plan.decode;
  const ServingPoolPlan& pp = plan.prefill;
  const bool split = plan.split;
  auto pool_of = [&](const ServingPoolPlan& p, const InferencePoolInputs& inputs, double work_prefill_h, double work_decode_h,
                     double work_kv_h) {
    ServingPool q;
    q.gpu_id = p.replica.gpu->id.c_str();
    q.usd_per_gpu_hour = inputs.usd_per_gpu_hour;
    q.replicas = p.replicas;
    q.tp = p.replica.tp;
    q.billed_gpus = p.billed_gpus;
    q.work_prefill_h = work_prefill_h;
    q.work_decode_h = work_decode_h;
    q.work_kv_h = work_kv_h;
    q.in_flight = p.decode ? std::max(1.0, plan.decode_batch) : 1.0;
    return q;
  };
  int pool_count = 1;
  if (split) {
    pools[0] = pool_of(pp, in.prefill, work.prefill_h, 0, work.kv_h);
    pools[1] = pool_of(dp, in.decode, 0, work.decode_h, 0);
    pool_count = 2;
  } else {
    pools[0] = pool_of(dp, in.decode, work.prefill_h, work.decode_h, 0);
  }
  return pool_count;
}

// Step 2 (issue 28): the day by the hour. Autoscaled, each pool is rented only the hours it serves, plus its cold
// start and release; the engine bills those GPU-hours and the day's sessions (inference_billing.h ServingPool:
// rented_gpu_h, cold_start_gpu_h, release_gpu_h, session_rounding_gpu_h, scale_events). The day's own dollars
// (ir.day.usd, per hour) are a report at the engine's pre-tax price per pool.
void RentByTheHour(const Scenario& s, const ServingPlan& plan, ServingPool pools[2], Result* r) {
  const InferenceInputs& in = s.inference;
  const InferenceModel& m = plan.m;
  const bool split = plan.split;
  InferenceResult& ir = r->inference;
  DayPool day_pools[2];
  const ServingPoolPlan* plans[2] = {&plan.decode, split ? &plan.prefill : nullptr};
  const InferencePoolInputs* plan_inputs[2] = {&in.decode, &in.prefill};
  for (int k = 0; k < 2; ++k) {
    if (!plans[k]) continue;
    const ServingPoolPlan& p = *plans[k];
    BillingTerms terms;
    BillingNotes priced;
    PlanBilling(s, p.billed_gpus, p.replica.gpu->id.c_str(), &terms, &priced, nullptr);
    terms = WithPoolPrice(terms, plan_inputs[k]->usd_per_gpu_hour);
    day_pools[k] = {p.replica, p.service_s, p.ttft_extra_s, p.prefill, p.decode, p.stalls,
                    p.capacity > 0 ? p.capacity : p.saturated * kNoTargetMaxUtilization, terms.price_pretax, true,
                    p.replicas};
  }
  EvaluateServingDay(s, m, day_pools, &ir.day);
  const ServingDay& day = ir.day;
  if (day.replicas_capped)
    r->warnings.Add("replicas_beyond_bound", "msg.w_replicas_beyond_bound_day",
                    {FormatParam("%.0e", kInferenceMaxSizedReplicas), FormatParam("%.0e", kInferenceMaxSizedReplicas)});
  if (day.autoscaled) {
    const double days = ir.hours / 24;
    for (int k = 0; k < 2; ++k) {
      if (!plans[k]) continue;
      ServingPool& q = pools[k == 0 ? (split ? 1 : 0) : 0];  // day [0] decode, [1] prefill; pools: prefill first
      q.rented_gpu_h = day.pool_serving_gpu_hours[k] * days;
      q.cold_start_gpu_h = day.pool_cold_start_gpu_hours[k] * days;
      q.release_gpu_h = day.pool_scale_down_gpu_hours[k] * days;
      q.session_rounding_gpu_h = day.pool_rounding_gpu_hours[k] * days;
      q.scale_events = D(day.pool_scale_events[k]) * days;
      q.scale_session_gpus = D(plans[k]->replica.tp);
    }
  }
}

// The period the engine bills: its hours and requests, the mean request's time (drained at a spot notice), what is
// stored, the router.
ServingPeriod PeriodOf(const Scenario& s, const ServingPlan& plan, const InferenceResult& ir) {
  ServingPeriod period;
  period.batch_job = plan.batch_job;
  period.hours = ir.hours;
  period.served = ir.requests;
  period.e2e_mean_s = ir.e2e_ms.mean / 1e3;
  period.stored_gb = s.storage.dataset_gb + plan.m.params * plan.m.weight_bytes_per_param / 1e9;
  period.router_usd_per_hour = ir.router_usd_per_hour;
  return period;
}

// Step 3: the service priced by the one engine (inference_billing.h BillServing): Result's totals, the cost per
// request and per million tokens (input and output by each pool's share of work), with their identities.
void PriceService(const Scenario& s, const ServingPlan& plan, const ServingWork& work, ServingPool* pools,
                  int pool_count, Result* r) {
  const InferenceInputs& in = s.inference;
  const InferenceModel& m = plan.m;
  const ServingPoolPlan& dp = plan.decode;
  const ServingPoolPlan& pp = plan.prefill;
  const bool split = plan.split;
  const ReliabilityInputs& rel = s.reliability;
  InferenceResult& ir = r->inference;
  const double served = ir.requests;
  ir.router_usd_per_hour = in.router.usd_per_hour > 0 ? in.router.usd_per_hour : split ? kRouterDefaultUsdPerHour : 0;

  const ServingPeriod period = PeriodOf(s, plan, ir);
  const double hours = BillServing(s, pools, pool_count, period, r);
  ir.hours = hours;
  double input_usd = 0, output_usd = 0;
  for (int i = 0; i < pool_count; ++i) {
    const ServingPool& q = pools[i];
    const double work = q.work_prefill_h + q.work_kv_h + q.work_decode_h;
    const double input_share = work > 0 ? (q.work_prefill_h + q.work_kv_h) / work : 0;
    input_usd += q.usd * input_share;
    output_usd += q.usd * (1 - input_share);
  }
  ir.decode.usd_per_gpu_hour = pools[split ? 1 : 0].price_pretax;
  ir.prefill.usd_per_gpu_hour = split ? pools[0].price_pretax : ir.decode.usd_per_gpu_hour;
  const double gpu_usd = input_usd + output_usd;
  const double total = r->expected_usd;
  const double input_total = gpu_usd > 0 ? total * input_usd / gpu_usd : 0;

  r->ok = true;
  r->normal_run_usd = total;
  r->expected_hours = r->normal_run_hours = r->ideal_hours = hours;
  r->ideal_gpu_hours = work.prefill_h + work.decode_h;
  // A capped autoscaled day can hold fewer GPU-hours than the work (late requests, not free ones): the work part
  // stays, idle capacity is zero, and the warning says so.
  if (ir.day.present && ir.day.attainment < 1)
    r->warnings.Add("day_target_missed", "msg.w_day_target_missed", {FormatParam("%.0f", 100 * (1 - ir.day.attainment))});
  r->goodput = r->billed_gpu_hours > 0 ? r->ideal_gpu_hours / r->billed_gpu_hours : 0;
  r->billed_gpus = static_cast<std::int64_t>(dp.billed_gpus + (split ? pp.billed_gpus : 0) + ir.spot.spare_gpus);
  r->tokens = served * (m.input_tokens + m.output_tokens);
  r->usd_per_billion_tokens = r->tokens > 0 ? total / (r->tokens / 1e9) : 0;
  r->peak_tflops_per_gpu = dp.replica.peak_flops / 1e12;
  r->expected_failures = rel.gpu_mtbf_hours > 0 ? D(ir.gpus) * hours / rel.gpu_mtbf_hours : 0;
  r->expected_interruptions = r->expected_failures;
  ir.usd_per_hour = hours > 0 ? total / hours : 0;
  ir.usd_per_request = served > 0 ? total / served : 0;
  ir.usd_per_million_input_tokens = served * m.input_tokens > 0 ? input_total / (served * m.input_tokens) * 1e6 : 0;
  ir.usd_per_million_output_tokens = served * m.output_tokens > 0 ? (total - input_total) / (served * m.output_tokens) * 1e6 : 0;
  ir.usd_per_million_output_tokens_all_in = served * m.output_tokens > 0 ? total / (served * m.output_tokens) * 1e6 : 0;
  ir.output_share_of_cost = total > 0 ? (total - input_total) / total : 0;
  GPUCOST_ASSERT(AmountOk(total) && ApproxEqual(total, r->cost_usd.Total()), "a service's total is its parts");
  GPUCOST_ASSERT(input_total >= 0 && input_total <= total * (1 + 1e-12), "the input tokens' share of the total is within it");
  GPUCOST_ASSERT(served <= 0 || ApproxEqual(ir.usd_per_request * served, total), "cost per request x requests = the total");
  GPUCOST_ASSERT(hours >= period.hours * (1 - 1e-12), "spot waits never shorten a batch job");
}

// Step 4: what the reader must know: a replica that does not fit, a target missed, a load beyond capacity.
void WarnService(const Scenario& s, const ServingPlan& plan, Result* r) {
  const InferenceInputs& in = s.inference;
  const InferenceResult& ir = r->inference;
  const ServingPoolPlan& dp = plan.decode;
  const bool batch_job = plan.batch_job;
  const double rate = plan.rate, set_capacity = plan.set_capacity;
  Warnings& wn = r->warnings;
  if (!ir.fits)
    wn.Add("inference_does_not_fit", "msg.w_inference_fit",
           {FormatParam("%.1f", dp.replica.weight_bytes_per_gpu / kBytesPerGib), dp.replica.gpu->name, std::to_string(dp.replica.tp)});
  if (!ir.slo_met && ir.fits)
    wn.Add("slo_missed", "msg.w_slo_missed", {std::to_string(in.slo.percentile), FormatParam("%.0f", ir.ttft_ms.At(in.slo.percentile)),
                                              FormatParam("%.1f", ir.tpot_ms.At(in.slo.percentile))});
  if (!batch_job && ir.utilization > 1)
    wn.Add("over_capacity", "msg.w_over_capacity", {FormatParam("%.3g", rate), FormatParam("%.3g", set_capacity)});
}

}  // namespace

// The plan's service, priced (ServingUsage{}: as planned), or the same service with a run's usage
// (EvaluateServingUsage): one path, so the engine's steps are made once.
bool EvaluateInference(const Scenario& s, Result* r) { return EvaluateServingUsage(s, ServingUsage{}, r, nullptr); }

bool EvaluateServingUsage(const Scenario& s, const ServingUsage& use, Result* r, ServingHeld* held) {
  ServingPlan plan;
  InferenceResult& ir = r->inference;
  if (!PlanServing(s, &plan, &ir, &r->warnings)) return false;
  const double planned_requests = ir.requests, planned_hours = ir.hours;
  ServingWork work = WorkOf(plan, planned_requests);
  ServingPool pools[2];
  const int pool_count = ServingPoolsOf(s, plan, work, pools);
  if (plan.profiled) RentByTheHour(s, plan, pools, r);
  // What the plan holds: each pool's rented GPU-hours (autoscaled: with its cold start and release), else its
  // replicas all period.
  // On spot, also the spares, replacements and recoveries it holds, less the hours a preempted node is away (as a run's
  // record counts the hours it was billed for: the plan's own figures through the run's path are the plan's bill).
  ServingHeld h;
  double pool_gpu_h[2] = {0, 0}, spot_gpu_h[2] = {0, 0};
  const double billed_hours = SpotHeldGpuHours(s, pools, pool_count, PeriodOf(s, plan, ir), spot_gpu_h);
  for (int i = 0; i < pool_count; ++i) {
    const ServingPool& q = pools[i];
    pool_gpu_h[i] = (q.rented_gpu_h >= 0 ? q.rented_gpu_h + q.cold_start_gpu_h + q.release_gpu_h : D(q.replicas * q.tp) * planned_hours) +
                    spot_gpu_h[i];
    h.planned_gpu_hours += pool_gpu_h[i];
    h.planned_replica_hours += pool_gpu_h[i] / D(q.tp);
  }
  h.planned_hours = billed_hours;  // a batch job on spot: with its waits for capacity
  h.planned_requests = planned_requests;
  h.planned_output_tokens = planned_requests * plan.m.output_tokens;
  h.planned_work_gpu_hours = work.prefill_h + work.decode_h + work.kv_h;
  h.gpus_per_replica = h.planned_replica_hours > 0 ? h.planned_gpu_hours / h.planned_replica_hours : D(plan.decode.replica.tp);
  const double hours = use.hours >= 0 ? use.hours : planned_hours;
  const double per_hour = planned_hours > 0 ? hours / planned_hours : 1;
  h.gpu_hours = use.held_gpu_hours >= 0 ? use.held_gpu_hours : h.planned_gpu_hours * per_hour;
  h.replica_hours = h.gpus_per_replica > 0 ? h.gpu_hours / h.gpus_per_replica : 0;
  h.requests = use.requests >= 0 ? use.requests : planned_requests * per_hour;
  h.output_tokens = use.output_tokens >= 0 ? use.output_tokens : h.requests * plan.m.output_tokens;
  // The run's work: the plan's per request (prefill, KV transfer) and per output token (decode).
  const double per_request = planned_requests > 0 ? h.requests / planned_requests : 0;
  const double per_token = h.planned_output_tokens > 0 ? h.output_tokens / h.planned_output_tokens : per_request;
  ServingWork ran = work;
  ran.prefill_h *= per_request;
  ran.kv_h *= per_request;
  ran.decode_h *= per_token;
  h.work_gpu_hours = ran.prefill_h + ran.decode_h + ran.kv_h;
  if (held) *held = h;
  const bool as_planned = use.hours < 0 && use.held_gpu_hours < 0 && use.requests < 0 && use.output_tokens < 0;
  if (!as_planned) {  // a run: its work, pools held as measured (shared between the pools as the plan shares them)
    for (int i = 0; i < pool_count; ++i) {
      ServingPool& q = pools[i];
      q.work_prefill_h *= per_request;
      q.work_kv_h *= per_request;
      q.work_decode_h *= per_token;
      q.rented_gpu_h = h.planned_gpu_hours > 0 ? h.gpu_hours * pool_gpu_h[i] / h.planned_gpu_hours : 0;
      q.cold_start_gpu_h = q.release_gpu_h = 0;  // inside the hours held
      q.session_rounding_gpu_h = -1;
      q.scale_events = 0;
      q.measured = true;  // spot's spares and recoveries inside the hours held (inference_billing.h)
    }
    ir.hours = hours;
    ir.requests = h.requests;
    ir.day = ServingDay{};
  }
  PriceService(s, plan, as_planned ? work : ran, pools, pool_count, r);
  WarnService(s, plan, r);
  return true;
}

int InferenceFrontier(const Scenario& s, int points, InferenceFrontierPoint* out) {
  points = std::clamp(points, 2, kInferenceFrontierMaxPoints);
  Result base;
  if (Kind(s) != WorkloadKind::kInference || !EvaluateInference(s, &base) || !base.inference.fits) return 0;
  const InferenceResult& b = base.inference;
  Scenario x = s;
  x.inference.requests = 0;   // a service at each load
  x.inference.peak_to_mean = 1;
  x.inference.prefill.replicas = b.prefill.replicas;
  x.inference.decode.replicas = b.decode.replicas;
  const double top = b.capacity_requests_per_second > 0 ? b.capacity_requests_per_second
                                                         : kNoTargetMaxUtilization * std::min(D(b.prefill.replicas) * b.prefill.saturated_rps,
                                                                                              D(b.decode.replicas) * b.decode.saturated_rps);
  if (!(top > 0)) return 0;
  int n = 0;
  for (int i = 0; i < points; ++i) {
    const double share = 0.05 * std::pow(20.0, static_cast<double>(i) / (points - 1));  // 5% .. 100%, geometric
    x.inference.requests_per_second = top * share;
    Result r;
    if (!EvaluateInference(x, &r)) continue;
    const InferenceResult& ir = r.inference;
    InferenceFrontierPoint& p = out[n++];
    p.requests_per_second = x.inference.requests_per_second;
    p.utilization = ir.utilization;
    p.usd_per_million_output_tokens = ir.usd_per_million_output_tokens;
    p.usd_per_request = ir.usd_per_request;
    p.ttft_ms = ir.ttft_ms.At(s.inference.slo.percentile);
    p.tpot_ms = ir.tpot_ms.At(s.inference.slo.percentile);
    p.slo_met = ir.slo_met;
  }
  return n;
}

}  // namespace gpucost
