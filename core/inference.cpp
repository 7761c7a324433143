// inference.cpp — the closed form of a serving job: pools sized for the load and the target, latencies,
// and the money as named parts (inference.h).
#include "inference.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "catalog.h"
#include "inference_day.h"
#include "inference_model.h"
#include "inference_techniques.h"
#include "result.h"
#include "tco.h"

namespace gpucost {
namespace {

double D(std::int64_t v) { return static_cast<double>(v); }

const GpuSpec* PoolGpu(const Scenario& s, const InferencePoolInputs& pool) { return InferencePoolGpu(s, pool); }
std::int64_t PoolTp(const Scenario& s, const InferencePoolInputs& pool) { return InferencePoolTp(s, pool); }

// USD per GPU-hour before tax: the pool's price, else the scenario's (KRW converted, owned: the TCO).
double PoolPricePretax(const Scenario& s, const InferencePoolInputs& pool, Result* r) {
  const PricingInputs& pr = s.pricing;
  double price = pr.krw_per_gpu_hour > 0 ? pr.krw_per_gpu_hour / pr.krw_per_usd : pr.usd_per_gpu_hour;
  if (Model(s) == PricingModel::kOwned) {
    r->tco = ComputeTco(pr.owned, s.reliability.gpu_mtbf_hours);
    price = r->tco.usd_per_gpu_hour;
  }
  if (pool.usd_per_gpu_hour > 0) price = pool.usd_per_gpu_hour;
  const bool owned = Model(s) == PricingModel::kOwned && pool.usd_per_gpu_hour <= 0;
  return owned ? price : price / (pr.price_includes_tax ? 1 + pr.tax_rate : 1.0);
}

// One pool as sized and billed.
struct PoolPlan {
  ReplicaModel replica;
  double service_s = 0;     // what one request occupies the pool's prefill server for
  double ttft_extra_s = 0;  // exposed KV transfer (prefill pool of a split)
  bool prefill = true, decode = true, stalls = true;
  double capacity = 0;      // per replica, within the target
  double saturated = 0;     // per replica, no target
  std::int64_t replicas = 0;
  double billed_gpus = 0;
  double price = 0;         // USD per GPU-hour, pre-tax
};

void SizePool(const Scenario& s, const InferenceModel& m, const InferencePoolInputs& in, double peak_rate,
              bool batch_job, PoolPlan* p, InferencePool* out, Result* r) {
  const InferenceSloInputs& slo = s.inference.slo;
  const double ttft_target = batch_job ? 0 : slo.ttft_ms / 1e3;
  p->saturated = SaturatedRate(m, p->replica, p->service_s, p->stalls, p->decode, p->prefill);
  p->capacity = CapacityWithinTarget(m, p->replica, p->service_s, p->ttft_extra_s, p->stalls, p->decode, p->prefill,
                                     ttft_target, slo.tpot_ms / 1e3, slo.percentile);
  if (p->capacity <= 0 && (ttft_target > 0 || slo.tpot_ms > 0)) {
    r->warnings.Add("slo_unreachable", "The %s pool cannot meet the latency target even at a trickle of load "
                    "(one request alone takes longer); sized for throughput instead.",
                    p->prefill && p->decode ? "serving" : p->prefill ? "prefill" : "decode");
    p->capacity = CapacityWithinTarget(m, p->replica, p->service_s, p->ttft_extra_s, p->stalls, p->decode,
                                       p->prefill, 0, 0, slo.percentile);
  }
  const double planned_rate = p->capacity > 0 ? p->capacity : p->saturated;
  if (in.replicas > 0) {
    p->replicas = in.replicas;
  } else if (batch_job) {
    const double seconds = s.inference.hours * 3600;
    p->replicas = planned_rate > 0 ? static_cast<std::int64_t>(std::ceil(s.inference.requests / (planned_rate * seconds) - 1e-9)) : 1;
  } else {
    p->replicas = planned_rate > 0 ? static_cast<std::int64_t>(std::ceil(peak_rate / planned_rate - 1e-9)) : 1;
  }
  p->replicas = std::max<std::int64_t>(1, p->replicas);
  const double gpus = D(p->replicas * p->replica.tp);
  const double gpn = D(std::max<std::int64_t>(1, s.cluster.gpus_per_node));
  p->billed_gpus = s.pricing.whole_nodes ? std::ceil(gpus / gpn - 1e-12) * gpn : gpus;
  // Whole nodes are paid for anyway: sized replicas fill them (more headroom at no extra cost).
  if (in.replicas <= 0 && s.pricing.whole_nodes)
    p->replicas = std::max(p->replicas, static_cast<std::int64_t>(p->billed_gpus) / p->replica.tp);
  p->price = PoolPricePretax(s, in, r);
  out->gpu_id = p->replica.gpu->id.c_str();
  out->tensor_parallel = p->replica.tp;
  out->replicas = p->replicas;
  out->replicas_given = in.replicas > 0;
  out->usd_per_gpu_hour = p->price;
  out->weights_gb_per_gpu = p->replica.weight_bytes_per_gpu / 1e9;
  out->kv_gb_per_gpu = p->replica.kv_bytes_per_gpu / 1e9;
  out->max_concurrency = p->replica.max_concurrency;
  out->capacity_rps = p->capacity;
  out->saturated_rps = p->saturated;
}

// GPU-seconds of work one request needs on a pool at the replica's full batch (prefill, decode).
double DecodeWorkGpuSeconds(const InferenceModel& m, const ReplicaModel& r) {
  const double b = D(std::max<std::int64_t>(1, r.max_concurrency));
  return DecodeSteps(m) * DecodeStepSeconds(m, r, b) / b * D(r.tp);
}

}  // namespace

const char* WeightPrecisionName(WeightPrecision p) {
  static const char* const kNames[] = {"bf16", "fp16", "fp8", "int8", "int4"};
  return kNames[std::clamp(static_cast<int>(p), 0, 4)];
}
const char* KvPrecisionName(KvPrecision p) {
  static const char* const kNames[] = {"bf16", "fp16", "fp8"};
  return kNames[std::clamp(static_cast<int>(p), 0, 2)];
}

double KvBytesPerToken(const Scenario& s) { return InferenceModelFor(s).kv_bytes_per_token; }

void ValidateInference(const Scenario& s, std::vector<InputError>* e) {
  const WorkloadInputs& w = s.workload;
  const InferenceInputs& in = s.inference;
  for (const char* field : {"layers", "hidden", "heads"}) {
    const std::int64_t v = field[0] == 'l' ? w.layers : field[0] == 'h' && field[1] == 'i' ? w.hidden : w.heads;
    if (v <= 0)
      e->push_back({std::string("workload.") + field,
                    "an inference scenario needs the model shape (workload.layers, hidden, heads; kv_heads for "
                    "grouped-query attention) for its KV cache"});
  }
  if (w.heads > 0 && w.hidden > 0 && w.hidden % w.heads != 0)
    e->push_back({"workload.heads", "must divide workload.hidden (" + std::to_string(w.hidden) + ")"});
  if (w.kv_heads > 0 && w.heads > 0 && w.heads % w.kv_heads != 0)
    e->push_back({"workload.kv_heads", "must divide workload.heads (" + std::to_string(w.heads) + ")"});
  if (in.slo.percentile != 50 && in.slo.percentile != 90 && in.slo.percentile != 99)
    e->push_back({"inference.slo.percentile", "must be 50, 90 or 99, got " + std::to_string(in.slo.percentile)});
  if (in.output_tokens < 1) e->push_back({"inference.output_tokens", "must be at least 1 (the first token)"});
  ValidateServingTechniques(s, e);  // issue 28
  const bool split = static_cast<InferenceMode>(in.mode) == InferenceMode::kDisaggregated;
  struct PoolRef {
    const char* name;
    const InferencePoolInputs* pool;
  };
  const PoolRef pools[2] = {{"inference.prefill", &in.prefill}, {"inference.decode", &in.decode}};
  for (const PoolRef& ref : pools) {
    if (!split && ref.pool == &in.prefill) continue;  // colocated: one pool (cluster.*, inference.decode.*)
    const std::string base = ref.name;
    const GpuSpec* gpu = PoolGpu(s, *ref.pool);
    if (!gpu) {
      if (ref.pool->gpu[0]) {
        std::string ids;
        for (std::size_t i = 0; i < GpuCount(); ++i) ids += (i ? ", " : "") + Gpus()[i].id;
        e->push_back({base + ".gpu", std::string("unknown GPU \"") + ref.pool->gpu + "\"; one of: " + ids});
      }
      continue;  // cluster.gpu is reported by ValidateScenario
    }
    if (InferencePeakTflops(*gpu, static_cast<WeightPrecision>(in.weight_precision)) <= 0)
      e->push_back({"inference.weight_precision",
                    std::string(WeightPrecisionName(static_cast<WeightPrecision>(in.weight_precision))) +
                        " is not supported by " + gpu->name + " (" + base + " pool); choose another precision or GPU"});
    if (static_cast<KvPrecision>(in.kv_precision) == KvPrecision::kFp8 && DensePeakTflops(*gpu, Precision::kFp8) <= 0)
      e->push_back({"inference.kv_precision", std::string("fp8 is not supported by ") + gpu->name + " (" + base +
                                                  " pool); choose bf16 or fp16, or another GPU"});
    const std::int64_t tp = PoolTp(s, *ref.pool);
    const std::int64_t kv_heads = w.kv_heads > 0 ? w.kv_heads : w.heads;
    if (w.heads > 0 && w.heads % tp != 0)
      e->push_back({ref.pool->tensor_parallel > 0 ? base + ".tensor_parallel" : std::string("parallel.tensor_parallel"),
                    "tensor parallelism " + std::to_string(tp) + " must divide workload.heads (" +
                        std::to_string(w.heads) + ")"});
    else if (kv_heads > 0 && kv_heads % tp != 0 && tp % kv_heads != 0)
      e->push_back({ref.pool->tensor_parallel > 0 ? base + ".tensor_parallel" : std::string("parallel.tensor_parallel"),
                    "tensor parallelism " + std::to_string(tp) + " and the KV heads (" + std::to_string(kv_heads) +
                        ") must divide one another"});
  }
}

bool EvaluateInference(const Scenario& s, Result* r) {
  const InferenceInputs& in = s.inference;
  const bool split = static_cast<InferenceMode>(in.mode) == InferenceMode::kDisaggregated;
  const bool batch_job = in.requests > 0;
  const GpuSpec* decode_gpu = PoolGpu(s, in.decode);
  const GpuSpec* prefill_gpu = split ? PoolGpu(s, in.prefill) : decode_gpu;
  if (!decode_gpu || !prefill_gpu) return false;
  const InferenceModel m = InferenceModelFor(s);
  if (m.kv_bytes_per_token <= 0 || m.params <= 0) return false;
  InferenceResult& ir = r->inference;
  ir = InferenceResult{};
  ir.present = true;
  ir.disaggregated = split;
  ir.batch_job = batch_job;
  ir.kv_bytes_per_token = m.kv_bytes_per_token;

  // --- Pools: replicas, exposed transfer, sizing for the peak and the target ---
  PoolPlan dp, pp;
  dp.replica = ReplicaFor(s, m, *decode_gpu, PoolTp(s, in.decode));
  if (dp.replica.peak_flops <= 0) return false;
  // Issue 28: a day's load profile sizes the fleet for its peak hour; the mean rate is the day's.
  double day_mult[kLoadProfileHours];
  const bool profiled = static_cast<LoadProfile>(in.load_profile.profile) != LoadProfile::kNone && !batch_job;
  double peak_mult = 1, mean_mult = 1;
  if (profiled) {
    LoadProfileMultipliers(in.load_profile, day_mult);
    peak_mult = *std::max_element(day_mult, day_mult + kLoadProfileHours);
    mean_mult = 0;
    for (double x : day_mult) mean_mult += x / kLoadProfileHours;
  }
  const double peak_rate = in.requests_per_second * peak_mult * in.peak_to_mean;
  if (split) {
    pp.replica = ReplicaFor(s, m, *prefill_gpu, PoolTp(s, in.prefill));
    if (pp.replica.peak_flops <= 0) return false;
    const double exposed = KvTransferExposedSeconds(s, m, pp.replica, dp.replica);
    pp.service_s = pp.replica.prefill_s + exposed;
    pp.ttft_extra_s = exposed;
    pp.decode = false;
    pp.stalls = false;
    dp.prefill = false;
    dp.stalls = false;
    ir.kv_transfer_ms = exposed * 1e3;
    SizePool(s, m, in.prefill, peak_rate, batch_job, &pp, &ir.prefill, r);
  } else {
    dp.service_s = dp.replica.prefill_s;
  }
  SizePool(s, m, in.decode, peak_rate, batch_job, &dp, &ir.decode, r);
  if (split && batch_job && in.prefill.replicas <= 0) {
    // Rate match: as many prefill replicas as keep the decode pool fed.
    const double decode_rate = D(dp.replicas) * (dp.capacity > 0 ? dp.capacity : dp.saturated);
    const double per = pp.capacity > 0 ? pp.capacity : pp.saturated;
    pp.replicas = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(decode_rate / per - 1e-9)));
    ir.prefill.replicas = pp.replicas;
    const double gpus = D(pp.replicas * pp.replica.tp), gpn = D(std::max<std::int64_t>(1, s.cluster.gpus_per_node));
    pp.billed_gpus = s.pricing.whole_nodes ? std::ceil(gpus / gpn - 1e-12) * gpn : gpus;
  }
  if (!split) ir.prefill = ir.decode;

  // --- Throughput, hours, latency at the mean load ---
  const double set_capacity = split ? std::min(D(pp.replicas) * pp.capacity, D(dp.replicas) * dp.capacity)
                                    : D(dp.replicas) * dp.capacity;
  const double set_saturated = split ? std::min(D(pp.replicas) * pp.saturated, D(dp.replicas) * dp.saturated)
                                     : D(dp.replicas) * dp.saturated;
  ir.capacity_requests_per_second = set_capacity;
  double rate = in.requests_per_second * mean_mult;
  if (batch_job) {
    rate = set_capacity > 0 ? set_capacity : set_saturated * kNoTargetMaxUtilization;
    ir.requests = in.requests;
    ir.hours = rate > 0 ? in.requests / rate / 3600 : 0;
  } else {
    ir.hours = in.hours;
    ir.requests = rate * in.hours * 3600;
  }
  ir.requests_per_second = rate;
  ir.utilization = set_capacity > 0 ? rate / set_capacity : 0;
  const double latency_rate = rate;  // the mean load
  ReplicaLatency dl = ReplicaLatencyAt(m, dp.replica, latency_rate / D(dp.replicas), dp.service_s, 0, dp.stalls,
                                       true, !split);
  ReplicaLatency pl = split ? ReplicaLatencyAt(m, pp.replica, latency_rate / D(pp.replicas), pp.service_s,
                                               pp.ttft_extra_s, false, false, true)
                            : dl;
  if (batch_job) {
    // All requests wait by design: report the unqueued prompt latency.
    pl.ttft_ms = LatencyMs{};
    const double ttft = 1e3 * ((split ? pp.replica.prefill_s + pp.ttft_extra_s : dp.replica.prefill_s));
    pl.ttft_ms = {ttft, ttft, ttft, ttft};
    pl.stable = true;
  }
  ir.ttft_ms = pl.ttft_ms;
  ir.tpot_ms = dl.tpot_ms;
  ir.prefill_ms = (split ? pp.replica.prefill_s : dp.replica.prefill_s) * 1e3;
  ir.decode_step_ms = dl.step_s * 1e3;
  ir.decode.batch = dl.batch;
  ir.prefill.batch = split ? 0 : dl.batch;
  const double steps = std::max(0.0, m.output_tokens - 1);
  auto e2e = [&](double ttft, double ttft_mean, double tpot, double tpot_mean) {
    return ttft_mean + steps * tpot_mean + std::hypot(ttft - ttft_mean, steps * (tpot - tpot_mean));
  };
  ir.e2e_ms.mean = ir.ttft_ms.mean + steps * ir.tpot_ms.mean;
  ir.e2e_ms.p50 = e2e(ir.ttft_ms.p50, ir.ttft_ms.mean, ir.tpot_ms.p50, ir.tpot_ms.mean);
  ir.e2e_ms.p90 = e2e(ir.ttft_ms.p90, ir.ttft_ms.mean, ir.tpot_ms.p90, ir.tpot_ms.mean);
  ir.e2e_ms.p99 = e2e(ir.ttft_ms.p99, ir.ttft_ms.mean, ir.tpot_ms.p99, ir.tpot_ms.mean);
  // The target holds at the peak load on the sized replicas.
  {
    const ReplicaLatency dpk = ReplicaLatencyAt(m, dp.replica, (batch_job ? rate : peak_rate) / D(dp.replicas),
                                                dp.service_s, 0, dp.stalls, true, !split);
    const ReplicaLatency ppk = split ? ReplicaLatencyAt(m, pp.replica, (batch_job ? rate : peak_rate) / D(pp.replicas),
                                                        pp.service_s, pp.ttft_extra_s, false, false, true)
                                     : dpk;
    const std::int64_t pc = in.slo.percentile;
    ir.slo_met = dpk.stable && ppk.stable && dp.replica.fits && (!split || pp.replica.fits);
    if (in.slo.ttft_ms > 0 && !batch_job && ppk.ttft_ms.At(pc) > in.slo.ttft_ms * (1 + 1e-9)) ir.slo_met = false;
    if (in.slo.tpot_ms > 0 && dpk.tpot_ms.At(pc) > in.slo.tpot_ms * (1 + 1e-9)) ir.slo_met = false;
  }
  ir.fits = dp.replica.fits && (!split || pp.replica.fits);
  ir.max_concurrency = dp.replica.max_concurrency;
  ir.weights_gb_per_gpu = std::max(dp.replica.weight_bytes_per_gpu, split ? pp.replica.weight_bytes_per_gpu : 0.0) / 1e9;
  ir.gpus = dp.replicas * dp.replica.tp + (split ? pp.replicas * pp.replica.tp : 0);
  ir.output_tokens_per_second = rate * m.output_tokens;
  ir.output_tokens_per_second_per_gpu = ir.gpus > 0 ? ir.output_tokens_per_second / D(ir.gpus) : 0;
  ir.decode.utilization = dp.capacity > 0 ? rate / (D(dp.replicas) * dp.capacity) : 0;
  ir.prefill.utilization = split ? (pp.capacity > 0 ? rate / (D(pp.replicas) * pp.capacity) : 0) : ir.decode.utilization;

  // --- Money as named parts (GPU-hours x the pool's price) ---
  const double hours = ir.hours;
  const double served = ir.requests;
  const ReplicaModel& prefill_replica = split ? pp.replica : dp.replica;
  const double prefill_work_h = served * prefill_replica.prefill_s * D(prefill_replica.tp) / 3600;
  const double decode_work_h = served * DecodeWorkGpuSeconds(m, dp.replica) / 3600;
  const double kv_h = split ? served * pp.ttft_extra_s * D(pp.replica.tp) / 3600 : 0;
  const ReliabilityInputs& rel = s.reliability;
  double* g = r->gpu_hours.part;
  double* c = r->cost_usd.part;
  double input_usd = 0, output_usd = 0;
  // Failures: each GPU fails every gpu_mtbf_hours; its replica recovers (billed, idle) and the requests in
  // flight on it are recomputed (half their work on average).
  auto bill_pool = [&](const PoolPlan& p, double work_prefill_h, double work_decode_h, double work_kv_h, double* to_input,
                       double* to_output) {
    const double gpus = D(p.replicas * p.replica.tp);
    const double failures = rel.gpu_mtbf_hours > 0 ? gpus * hours / rel.gpu_mtbf_hours : 0;
    const double recovery_h = failures * D(p.replica.tp) * rel.recovery_minutes / 60;
    const double in_flight = p.decode ? std::max(1.0, dl.batch) : 1.0;
    const double per_request_h = (work_prefill_h + work_decode_h + work_kv_h) / std::max(1.0, served);
    const double rework_h = failures * in_flight * 0.5 * per_request_h;
    const double idle_nodes_h = (p.billed_gpus - gpus) * hours;
    const double held_h = gpus * hours;
    const double idle_h = std::max(0.0, held_h - work_prefill_h - work_decode_h - work_kv_h - recovery_h - rework_h);
    const double parts[][2] = {{kPartPrefillGpus, work_prefill_h}, {kPartDecodeGpus, work_decode_h},
                               {kPartKvTransfer, work_kv_h},       {kPartRecovery, recovery_h},
                               {kPartRework, rework_h},            {kPartIdleCapacity, idle_h},
                               {kPartIdleGpus, idle_nodes_h}};
    double pool_usd = 0;
    for (const auto& [part, h] : parts) {
      g[static_cast<int>(part)] += h;
      c[static_cast<int>(part)] += h * p.price;
      pool_usd += h * p.price;
    }
    (void)pool_usd;
    // One convention for every set-up (kPerMillionTokensConvention): the work's own dollars decide the split.
    *to_input += (work_prefill_h + work_kv_h) * p.price;
    *to_output += work_decode_h * p.price;
  };
  if (split) {
    bill_pool(pp, prefill_work_h, 0, kv_h, &input_usd, &output_usd);
    bill_pool(dp, 0, decode_work_h, 0, &input_usd, &output_usd);
  } else {
    bill_pool(dp, prefill_work_h, decode_work_h, 0, &input_usd, &output_usd);
  }
  // --- Issue 28: the day by the hour (autoscaled: its held GPU-hours replace the fixed fleet's), the router ---
  if (profiled) {
    DayPool pools[2];
    const PoolPlan* plans[2] = {&dp, split ? &pp : nullptr};
    for (int k = 0; k < 2; ++k) {
      if (!plans[k]) continue;
      const PoolPlan& p = *plans[k];
      pools[k] = {p.replica, p.service_s, p.ttft_extra_s, p.prefill, p.decode, p.stalls,
                  p.capacity > 0 ? p.capacity : p.saturated * kNoTargetMaxUtilization, p.price, true, p.replicas};
    }
    EvaluateServingDay(s, m, pools, &ir.day);
    const ServingDay& day = ir.day;
    if (day.autoscaled) {
      const double days = hours / 24;
      // The fixed fleet's serving hours not rented any more come off the idle capacity; the cold start and the
      // billing rounding of the sessions are their own parts, the release time stays idle capacity.
      for (int k = 0; k < 2; ++k) {
        if (!plans[k]) continue;
        const PoolPlan& p = *plans[k];
        const double tp = D(p.replica.tp);
        double rented_h = 0;
        for (const ServingDayHour& hr : day.hour) rented_h += D(k == 0 ? hr.replicas : hr.prefill_replicas);
        const double saved_gpu_h = (D(p.replicas) * 24 - rented_h) * tp * days;
        g[kPartIdleCapacity] -= saved_gpu_h;
        c[kPartIdleCapacity] -= saved_gpu_h * p.price;
      }
      // Cold start, release and rounding are per pool in the day; billed at the decode pool's price share.
      const double day_extra_usd = day.usd - [&] {
        double serving = 0;
        for (const ServingDayHour& hr : day.hour)
          serving += D(hr.replicas) * D(dp.replica.tp) * dp.price + (split ? D(hr.prefill_replicas) * D(pp.replica.tp) * pp.price : 0);
        return serving;
      }();
      const double extra_gpu_h = day.cold_start_gpu_hours + day.scale_down_gpu_hours + day.rounding_gpu_hours;
      const double usd_per_gpu_h = extra_gpu_h > 0 ? day_extra_usd / extra_gpu_h : 0;
      g[kPartColdStart] += day.cold_start_gpu_hours * days;
      c[kPartColdStart] += day.cold_start_gpu_hours * days * usd_per_gpu_h;
      g[kPartIdleCapacity] += day.scale_down_gpu_hours * days;
      c[kPartIdleCapacity] += day.scale_down_gpu_hours * days * usd_per_gpu_h;
      g[kPartBillingRounding] += day.rounding_gpu_hours * days;
      c[kPartBillingRounding] += day.rounding_gpu_hours * days * usd_per_gpu_h;
      if (g[kPartIdleCapacity] < 0) {  // hours capped below their need (max_replicas): the work is late, not free
        c[kPartIdleCapacity] = 0;
        g[kPartIdleCapacity] = 0;
      }
    }
  }
  ir.router_usd_per_hour = in.router.usd_per_hour > 0 ? in.router.usd_per_hour : split ? kRouterDefaultUsdPerHour : 0;
  c[kPartRouter] = ir.router_usd_per_hour * hours / (s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1.0);
  ir.spec_tokens_per_step = m.spec_tokens_per_step;
  if (m.prefix_cached_tokens > 0) {
    InferenceModel full = m;
    full.prefix_cached_tokens = 0;
    const double all = PrefillFlops(full, m.input_tokens);
    ir.prefill_saved_share = all > 0 ? 1 - PrefillFlops(m, m.input_tokens) / all : 0;
    ir.kv_saved_gb_per_replica = (m.prefix_cached_tokens * D(dp.replica.max_concurrency) - m.shared_prefix_tokens) *
                                 dp.replica.kv_bytes_per_token_per_gpu * D(dp.replica.tp) / 1e9;
  }

  const double tax_divisor = s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1.0;
  const double weights_gb = m.params * m.weight_bytes_per_param / 1e9;
  const double stored_gb = s.storage.dataset_gb + weights_gb;
  c[kPartStorage] = stored_gb * s.storage.usd_per_gb_month / tax_divisor * (hours + s.storage.retention_days * 24) / kHoursPerMonth;
  c[kPartEgress] = s.storage.egress_gb * s.storage.usd_per_gb_egress / tax_divisor;
  c[kPartFees] = s.pricing.fixed_fees_usd / tax_divisor;
  double pretax = 0;
  for (int p = 0; p < kPartCount; ++p)
    if (p != kPartTax) pretax += c[p];
  const bool owned = Model(s) == PricingModel::kOwned;
  c[kPartTax] = owned ? 0 : pretax * s.pricing.tax_rate;
  const double gpu_usd = input_usd + output_usd;
  const double total = r->cost_usd.Total();
  const double input_total = gpu_usd > 0 ? total * input_usd / gpu_usd : 0;

  r->ok = true;
  r->expected_usd = r->normal_run_usd = total;
  r->billed_gpu_hours = r->gpu_hours.Total();
  r->expected_hours = r->normal_run_hours = r->ideal_hours = hours;
  r->time_hours.part[kPartCompute] = hours;
  r->ideal_gpu_hours = prefill_work_h + decode_work_h;
  // A capped autoscaled day can hold fewer GPU-hours than the work (late requests, not free ones): the work part
  // stays, idle capacity is zero, and the warning says so.
  if (ir.day.present && ir.day.attainment < 1)
    r->warnings.Add("day_target_missed", "%.0f%% of the day's requests arrive in hours that miss the latency target "
                    "(autoscale.max_replicas or the replicas given are too few for those hours).",
                    100 * (1 - ir.day.attainment));
  r->goodput = r->billed_gpu_hours > 0 ? r->ideal_gpu_hours / r->billed_gpu_hours : 0;
  r->billed_gpus = static_cast<std::int64_t>(dp.billed_gpus + (split ? pp.billed_gpus : 0));
  r->usd_per_gpu_hour = r->billed_gpu_hours > 0 ? (total - c[kPartTax] - c[kPartStorage] - c[kPartEgress] - c[kPartFees]) /
                                                      r->billed_gpu_hours
                                                : dp.price;
  r->tokens = served * (m.input_tokens + m.output_tokens);
  r->usd_per_billion_tokens = r->tokens > 0 ? total / (r->tokens / 1e9) : 0;
  r->peak_tflops_per_gpu = dp.replica.peak_flops / 1e12;
  r->expected_failures = rel.gpu_mtbf_hours > 0 ? D(ir.gpus) * hours / rel.gpu_mtbf_hours : 0;
  r->expected_interruptions = r->expected_failures;
  r->display_currency = s.pricing.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD";
  r->display_per_usd = s.pricing.currency == static_cast<int>(Currency::kKrw) ? s.pricing.krw_per_usd : 1.0;
  ir.usd_per_hour = hours > 0 ? total / hours : 0;
  ir.usd_per_request = served > 0 ? total / served : 0;
  ir.usd_per_million_input_tokens = served * m.input_tokens > 0 ? input_total / (served * m.input_tokens) * 1e6 : 0;
  ir.usd_per_million_output_tokens = served * m.output_tokens > 0 ? (total - input_total) / (served * m.output_tokens) * 1e6 : 0;

  // --- Warnings ---
  Warnings& wn = r->warnings;
  if (!ir.fits)
    wn.Add("inference_does_not_fit", "The weights (%.1f GB per GPU) and workspace leave no room for one sequence's "
           "KV cache on %s with tensor parallelism %lld: use more GPUs per replica or a smaller precision.",
           dp.replica.weight_bytes_per_gpu / 1e9, dp.replica.gpu->name.c_str(), static_cast<long long>(dp.replica.tp));
  if (!ir.slo_met && ir.fits)
    wn.Add("slo_missed", "The latency target is not met at the peak load on these replicas (P%lld TTFT %.0f ms, "
           "TPOT %.1f ms).", static_cast<long long>(in.slo.percentile), ir.ttft_ms.At(in.slo.percentile),
           ir.tpot_ms.At(in.slo.percentile));
  if (!batch_job && ir.utilization > 1)
    wn.Add("over_capacity", "The load (%.3g requests/s) exceeds what the given replicas serve within the target "
           "(%.3g requests/s).", rate, set_capacity);
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
