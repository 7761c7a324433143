// inference.cpp — the closed form of a serving job: pools sized for the load and the target, latencies,
// and the money as named parts (inference.h).
#include "serving/inference.h"
#include "base/asserts.h"
#include "base/numeric.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "hardware/catalog.h"
#include "serving/inference_day.h"
#include "serving/inference_model.h"
#include "serving/inference_techniques.h"
#include "serving/serving_plan.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {


const GpuSpec* PoolGpu(const Scenario& s, const InferencePoolInputs& pool) { return InferencePoolGpu(s, pool); }
std::int64_t PoolTp(const Scenario& s, const InferencePoolInputs& pool) { return InferencePoolTp(s, pool); }



// The pool's name as a string-table key, for messages.
const char* PoolNameKey(const ServingPoolPlan& p) {
  return p.prefill && p.decode ? "msg.pool_serving" : p.prefill ? "msg.pool_prefill" : "msg.pool_decode";
}

void SizePool(const Scenario& s, const InferenceModel& m, const InferencePoolInputs& in, double peak_rate,
              bool batch_job, ServingPoolPlan* p, InferencePool* out, Warnings* w) {
  const InferenceSloInputs& slo = s.inference.slo;
  const double ttft_target = batch_job ? 0 : slo.ttft_ms / 1e3;
  p->saturated = SaturatedRate(m, p->replica, p->service_s, p->stalls, p->decode, p->prefill);
  p->capacity = CapacityWithinTarget(m, p->replica, p->service_s, p->ttft_extra_s, p->stalls, p->decode, p->prefill,
                                     ttft_target, slo.tpot_ms / 1e3, slo.percentile);
  if (p->capacity <= 0 && (ttft_target > 0 || slo.tpot_ms > 0)) {
    w->Add("slo_unreachable", "msg.w_slo_unreachable", {MessageParam::Key(PoolNameKey(*p))});
    p->capacity = CapacityWithinTarget(m, p->replica, p->service_s, p->ttft_extra_s, p->stalls, p->decode,
                                       p->prefill, 0, 0, slo.percentile);
  }
  const double planned_rate = p->capacity > 0 ? p->capacity : p->saturated;
  if (in.replicas > 0) {
    p->replicas = in.replicas;
  } else {
    const double seconds = s.inference.hours * 3600;
    const double needed = planned_rate <= 0 ? 1
                          : batch_job       ? std::ceil(s.inference.requests / (planned_rate * seconds) - 1e-9)
                                            : std::ceil(peak_rate / planned_rate - 1e-9);
    // Beyond any fleet (and beyond an integer): said, and sized at the bound so every figure stays finite.
    if (!(needed <= kInferenceMaxSizedReplicas)) {
      w->Add("replicas_beyond_bound", "msg.w_replicas_beyond_bound",
                      {MessageParam::Key(PoolNameKey(*p)), FormatParam("%.3g", needed), FormatParam("%.0e", kInferenceMaxSizedReplicas),
                       FormatParam("%.0e", kInferenceMaxSizedReplicas)});
      p->replicas = static_cast<std::int64_t>(kInferenceMaxSizedReplicas);
    } else {
      p->replicas = static_cast<std::int64_t>(needed);
    }
  }
  p->replicas = std::max<std::int64_t>(1, p->replicas);
  const double gpus = D(p->replicas * p->replica.tp);
  const double gpn = D(std::max<std::int64_t>(1, s.cluster.gpus_per_node));
  p->billed_gpus = s.pricing.whole_nodes ? std::ceil(gpus / gpn - 1e-12) * gpn : gpus;
  // Whole nodes are paid for anyway: sized replicas fill them (more headroom at no extra cost).
  if (in.replicas <= 0 && s.pricing.whole_nodes)
    p->replicas = std::max(p->replicas, static_cast<std::int64_t>(p->billed_gpus) / p->replica.tp);
  out->gpu_id = p->replica.gpu->id.c_str();
  out->tensor_parallel = p->replica.tp;
  out->replicas = p->replicas;
  out->replicas_given = in.replicas > 0;
  out->weights_gb_per_gpu = p->replica.weight_bytes_per_gpu / 1e9;
  out->kv_gb_per_gpu = std::max(0.0, p->replica.kv_bytes_per_gpu) / 1e9;  // none left, never negative (issue 31)
  out->max_concurrency = p->replica.max_concurrency;
  out->capacity_rps = p->capacity;
  out->saturated_rps = p->saturated;
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
      e->push_back(CodedError(std::string("workload.") + field, {"msg.v.inference_shape", {}}));
  }
  if (w.heads > 0 && w.hidden > 0 && w.hidden % w.heads != 0)
    e->push_back(CodedError("workload.heads", {"msg.divide_hidden", {std::to_string(w.hidden)}}));
  if (w.kv_heads > 0 && w.heads > 0 && w.heads % w.kv_heads != 0)
    e->push_back(CodedError("workload.kv_heads", {"msg.v.divide_heads", {std::to_string(w.heads)}}));
  if (in.slo.percentile != 50 && in.slo.percentile != 90 && in.slo.percentile != 99)
    e->push_back(CodedError("inference.slo.percentile", {"msg.v.percentile", {std::to_string(in.slo.percentile)}}));
  if (in.output_tokens < 1) e->push_back(CodedError("inference.output_tokens", {"msg.v.output_tokens", {}}));
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
        e->push_back(CodedError(base + ".gpu", {"msg.v.unknown_pool_gpu", {ref.pool->gpu, ids}}));
      }
      continue;  // cluster.gpu is reported by ValidateScenario
    }
    if (InferencePeakTflops(*gpu, static_cast<WeightPrecision>(in.weight_precision)) <= 0)
      e->push_back(CodedError("inference.weight_precision",
                              {"msg.v.weight_precision", {WeightPrecisionName(static_cast<WeightPrecision>(in.weight_precision)), gpu->name, base}}));
    if (static_cast<KvPrecision>(in.kv_precision) == KvPrecision::kFp8 && DensePeakTflops(*gpu, Precision::kFp8) <= 0)
      e->push_back(CodedError("inference.kv_precision", {"msg.v.kv_precision", {gpu->name, base}}));
    const std::int64_t tp = PoolTp(s, *ref.pool);
    const std::int64_t kv_heads = w.kv_heads > 0 ? w.kv_heads : w.heads;
    if (static_cast<AttentionSplit>(in.attention) == AttentionSplit::kData) continue;  // heads are not split
    if (w.heads > 0 && w.heads % tp != 0)
      e->push_back(CodedError(ref.pool->tensor_parallel > 0 ? base + ".tensor_parallel" : std::string("parallel.tensor_parallel"),
                              {"msg.v.tp_heads", {std::to_string(tp), std::to_string(w.heads)}}));
    else if (kv_heads > 0 && kv_heads % tp != 0 && tp % kv_heads != 0)
      e->push_back(CodedError(ref.pool->tensor_parallel > 0 ? base + ".tensor_parallel" : std::string("parallel.tensor_parallel"),
                              {"msg.v.tp_kv_heads", {std::to_string(tp), std::to_string(kv_heads)}}));
  }
}

namespace {

// Step 1: the pools, each replica and its exposed transfer, sized for the peak load and the target.
bool SizePools(const Scenario& s, ServingPlan* plan, InferenceResult& ir, Warnings* w) {
  const InferenceInputs& in = s.inference;
  const bool split = plan->split = static_cast<InferenceMode>(in.mode) == InferenceMode::kDisaggregated;
  const bool batch_job = plan->batch_job = in.requests > 0;
  const GpuSpec* decode_gpu = PoolGpu(s, in.decode);
  const GpuSpec* prefill_gpu = split ? PoolGpu(s, in.prefill) : decode_gpu;
  if (!decode_gpu || !prefill_gpu) return false;
  plan->m = InferenceModelFor(s);
  const InferenceModel& m = plan->m;
  if (m.kv_bytes_per_token <= 0 || m.params <= 0) return false;
  ir = InferenceResult{};
  ir.present = true;
  ir.disaggregated = split;
  ir.batch_job = batch_job;
  ir.kv_bytes_per_token = m.kv_bytes_per_token;

  // --- Pools: replicas, exposed transfer, sizing for the peak and the target ---
  ServingPoolPlan& dp = plan->decode;
  ServingPoolPlan& pp = plan->prefill;
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
  plan->profiled = profiled;
  plan->mean_load_multiplier = mean_mult;
  const double peak_rate = plan->peak_rate = in.requests_per_second * peak_mult * in.peak_to_mean;
  ir.peak_requests_per_second = batch_job ? 0 : peak_rate;
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
    SizePool(s, m, in.prefill, peak_rate, batch_job, &pp, &ir.prefill, w);
  } else {
    dp.service_s = ColocatedPrefillSeconds(m, dp.replica);  // alone, or mixed into the decode steps
  }
  SizePool(s, m, in.decode, peak_rate, batch_job, &dp, &ir.decode, w);
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
  return true;
}

// Step 2: the throughput, the hours and the latencies at the mean load on the sized replicas.
void ServeMeanLoad(const Scenario& s, ServingPlan* plan, InferenceResult& ir, Warnings* w) {
  const InferenceInputs& in = s.inference;
  // --- Throughput, hours, latency at the mean load ---
  const ServingPoolPlan& dp = plan->decode;
  const ServingPoolPlan& pp = plan->prefill;
  const InferenceModel& m = plan->m;
  const bool split = plan->split, batch_job = plan->batch_job;
  const double set_capacity = plan->set_capacity = split ? std::min(D(pp.replicas) * pp.capacity, D(dp.replicas) * dp.capacity)
                                    : D(dp.replicas) * dp.capacity;
  const double set_saturated = split ? std::min(D(pp.replicas) * pp.saturated, D(dp.replicas) * dp.saturated)
                                     : D(dp.replicas) * dp.saturated;
  ir.capacity_requests_per_second = set_capacity;
  double& rate = plan->rate;
  rate = in.requests_per_second * plan->mean_load_multiplier;
  if (batch_job) {
    rate = set_capacity > 0 ? set_capacity : set_saturated * kNoTargetMaxUtilization;
    ir.requests = in.requests;
    ir.hours = rate > 0 ? in.requests / rate / 3600 : 0;
    // Colocated with no time-between-tokens target: every request is queued at once, so there is no arrival
    // queue to keep headroom for; each replica serves its share in whole waves of its full batch and a smaller
    // last wave (OfflineBatchSeconds, what the evidence checks against TensorRT-LLM's offline runs).
    if (!split && in.slo.tpot_ms <= 0 && dp.replicas > 0) {
      const double seconds = OfflineBatchSeconds(m, dp.replica, in.requests / D(dp.replicas), dp.service_s);
      if (seconds > 0) {
        ir.hours = seconds / 3600;
        rate = in.requests / seconds;
      }
    }
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
    const double ttft = 1e3 * ((split ? pp.replica.prefill_s + pp.ttft_extra_s : dp.replica.prefill_s) + FrontLatencySeconds(m));
    pl.ttft_ms = {ttft, ttft, ttft, ttft};
    pl.stable = true;
  }
  ir.ttft_ms = pl.ttft_ms;
  ir.tpot_ms = dl.tpot_ms;
  ir.prefill_ms = (split ? pp.replica.prefill_s : dp.replica.prefill_s) * 1e3;
  ir.request_path_ms = m.request_path_s * 1e3;
  ir.decode_step_ms = dl.step_s * 1e3;
  // Issue 26: an eager engine's step bound by its host (inference.cuda_graphs false) is said, with the GPU's step.
  if (!m.cuda_graphs && dl.batch > 0) {
    InferenceModel graphs = m;
    graphs.cuda_graphs = true;
    const double gpu_step_s = DecodeStepSeconds(graphs, dp.replica, dl.batch);
    if (dl.step_s > gpu_step_s * (1 + 1e-9))
      w->Add("eager_host_bound", "msg.w_eager_host_bound",
                      {FormatParam("%.3g", dl.step_s * 1e3), FormatParam("%.0f", m.layers),
                       FormatParam("%.3g", EagerHostSeconds(m) * 1e3), FormatParam("%.3g", gpu_step_s * 1e3)});
  }
  plan->decode_batch = dl.batch;
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
}

// Step 3: whether the target holds at the peak load on the sized replicas, and what the service holds.
void CheckPeakLoad(const Scenario& s, const ServingPlan& plan, InferenceResult& ir) {
  const InferenceInputs& in = s.inference;
  const ServingPoolPlan& dp = plan.decode;
  const ServingPoolPlan& pp = plan.prefill;
  const InferenceModel& m = plan.m;
  const bool split = plan.split, batch_job = plan.batch_job;
  const double rate = plan.rate, peak_rate = plan.peak_rate;
  {
    // Only the target's percentile is read: the others are not worked out (ReplicaLatencyAt only_percentile).
    const std::int64_t pc = in.slo.percentile;
    const std::int64_t only = pc >= 99 ? 99 : pc >= 90 ? 90 : 50;
    const ReplicaLatency dpk = ReplicaLatencyAt(m, dp.replica, (batch_job ? rate : peak_rate) / D(dp.replicas),
                                                dp.service_s, 0, dp.stalls, true, !split, only);
    const ReplicaLatency ppk = split ? ReplicaLatencyAt(m, pp.replica, (batch_job ? rate : peak_rate) / D(pp.replicas),
                                                        pp.service_s, pp.ttft_extra_s, false, false, true, only)
                                     : dpk;
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
  ir.spec_tokens_per_step = m.spec_tokens_per_step;
  ir.spec_draft_tokens = m.spec_draft_tokens;
  if (m.prefix_cached_tokens > 0) {
    InferenceModel full = m;
    full.prefix_cached_tokens = 0;
    const double all = PrefillFlops(full, m.input_tokens);
    ir.prefill_saved_share = all > 0 ? 1 - PrefillFlops(m, m.input_tokens) / all : 0;
    ir.kv_saved_gb_per_replica = (m.prefix_cached_tokens * D(dp.replica.max_concurrency) - m.shared_prefix_tokens) *
                                 dp.replica.kv_bytes_per_token_per_gpu * D(dp.replica.tp) / dp.replica.attention_ranks / 1e9;
  }
}

}  // namespace

bool PlanServing(const Scenario& s, ServingPlan* plan, InferenceResult* ir, Warnings* w) {
  if (!SizePools(s, plan, *ir, w)) return false;
  ServeMeanLoad(s, plan, *ir, w);
  CheckPeakLoad(s, *plan, *ir);
  return true;
}

double DecodeWorkGpuSeconds(const InferenceModel& m, const ReplicaModel& r) {
  const double b = D(std::max<std::int64_t>(1, r.max_concurrency));
  return DecodeSteps(m) * DecodeStepSeconds(m, r, b) / b * D(r.tp);
}

}  // namespace gpucost
