// inference_json.cpp — see inference_json.h.
#include "documents/inference_json.h"
#include "base/json_number.h"

#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "job/validate.h"
#include "serving/inference_techniques.h"
#include "base/i18n.h"

namespace gpucost {
namespace {

using nlohmann::json;

json Latency(const LatencyMs& l) { return {{"p50", NumOrNull(l.p50)}, {"p90", NumOrNull(l.p90)}, {"p99", NumOrNull(l.p99)}, {"mean", NumOrNull(l.mean)}}; }

json Pool(const InferencePool& p) {
  return {{"gpu", p.gpu_id}, {"tensor_parallel", p.tensor_parallel}, {"replicas", p.replicas},
          {"replicas_given", p.replicas_given}, {"usd_per_gpu_hour", NumOrNull(p.usd_per_gpu_hour)},
          {"weights_gb_per_gpu", NumOrNull(p.weights_gb_per_gpu)}, {"kv_gb_per_gpu", NumOrNull(p.kv_gb_per_gpu)},
          {"max_concurrency", p.max_concurrency}, {"capacity_requests_per_second", NumOrNull(p.capacity_rps)},
          {"saturated_requests_per_second", NumOrNull(p.saturated_rps)}, {"batch", NumOrNull(p.batch)},
          {"utilization", NumOrNull(p.utilization)}};
}

json ServingParts(const Breakdown& b, bool money) {
  json o = json::object();
  for (int p : kInferencePartOrder)
    if (money || p < kPartStorage || p >= kPartPrefillGpus) o[PartName(p)] = NumOrNull(b.part[p]);
  return o;
}

ServingWithout Without(const Scenario& s) {
  ServingWithout w;
  if (!ValidateScenario(s).empty()) return w;
  const Result r = Evaluate(s);
  if (!r.ok || !r.inference.present) return w;
  const InferenceResult& ir = r.inference;
  w.ok = true;
  w.ttft_ms_p50 = ir.ttft_ms.p50;
  w.tpot_ms_p50 = ir.tpot_ms.p50;
  w.usd_per_request = ir.usd_per_request;
  w.usd_per_million_output_tokens_all_in = ir.usd_per_million_output_tokens_all_in;
  w.gpus = ir.gpus;
  return w;
}

json WithoutJson(const ServingWithout& w) {
  if (!w.ok) return nullptr;
  return {{"ttft_ms_p50", NumOrNull(w.ttft_ms_p50)}, {"tpot_ms_p50", NumOrNull(w.tpot_ms_p50)},
          {"usd_per_request", NumOrNull(w.usd_per_request)},
          {"usd_per_million_output_tokens_all_in", NumOrNull(w.usd_per_million_output_tokens_all_in)}, {"gpus", w.gpus}};
}

json TechniquesJson(const ServingTechniqueEffects& t) {
  json o = json::object();
  if (t.speculative)
    o["speculative"] = {{"draft_tokens_per_step", NumOrNull(t.draft_tokens_per_step)},
                        {"acceptance_rate", NumOrNull(t.acceptance_rate)},
                        {"tokens_per_step", NumOrNull(t.tokens_per_step)},
                        {"without", WithoutJson(t.without_speculation)}};
  if (t.prefix_cache)
    o["prefix_cache"] = {{"prefix_tokens", NumOrNull(t.prefix_tokens)}, {"hit_share", NumOrNull(t.prefix_cache_hit)},
                         {"prefill_saved_share", NumOrNull(t.prefill_saved_share)},
                         {"kv_saved_gb_per_replica", NumOrNull(t.kv_saved_gb_per_replica)},
                         {"without", WithoutJson(t.without_prefix_cache)}};
  return o;
}

}  // namespace

ServingTechniqueEffects ServingTechniques(const Scenario& s, const Result& r) {
  ServingTechniqueEffects t;
  if (!r.ok || !r.inference.present) return t;
  const InferenceResult& ir = r.inference;
  const InferenceInputs& in = s.inference;
  t.speculative = ir.spec_draft_tokens > 0;
  if (t.speculative) {
    t.draft_tokens_per_step = ir.spec_draft_tokens;
    t.acceptance_rate = in.speculative.acceptance_rate;
    t.tokens_per_step = ir.spec_tokens_per_step;
    Scenario off = s;
    off.inference.speculative = InferenceSpeculativeInputs{};
    t.without_speculation = Without(off);
  }
  t.prefix_cache = in.prefix_tokens > 0 && in.prefix_cache_hit > 0;
  if (t.prefix_cache) {
    t.prefix_tokens = in.prefix_tokens;
    t.prefix_cache_hit = in.prefix_cache_hit;
    t.prefill_saved_share = ir.prefill_saved_share;
    t.kv_saved_gb_per_replica = ir.kv_saved_gb_per_replica;
    Scenario off = s;
    off.inference.prefix_tokens = 0;
    off.inference.prefix_cache_hit = 0;
    t.without_prefix_cache = Without(off);
  }
  return t;
}

const char* InferencePartLabel(int part) {
  switch (part) {
    case kPartRework: return Tr("serving.part.rework");
    case kPartRecovery: return Tr("serving.part.recovery");
    case kPartIdleGpus: return Tr("serving.part.idle_gpus");
    default: return PartLabel(part);
  }
}

const char* PartLabelOf(const Result& r, int part) { return r.inference.present ? InferencePartLabel(part) : PartLabel(part); }

void WriteInferenceJson(const Scenario& s, const Result& r, json* doc) {
  const InferenceResult& ir = r.inference;
  (*doc)["inference"] = {
      {"mode", ir.disaggregated ? "disaggregated" : "colocated"},
      {"batch_job", ir.batch_job},
      {"weight_precision", WeightPrecisionName(static_cast<WeightPrecision>(s.inference.weight_precision))},
      {"kv_precision", KvPrecisionName(static_cast<KvPrecision>(s.inference.kv_precision))},
      {"kv_bytes_per_token", NumOrNull(ir.kv_bytes_per_token)},
      {"weights_gb_per_gpu", NumOrNull(ir.weights_gb_per_gpu)},
      {"fits", ir.fits},
      {"max_concurrency", ir.max_concurrency},
      {"ttft_ms", Latency(ir.ttft_ms)},
      {"tpot_ms", Latency(ir.tpot_ms)},
      {"e2e_ms", Latency(ir.e2e_ms)},
      {"prefill_ms", NumOrNull(ir.prefill_ms)},
      {"decode_step_ms", NumOrNull(ir.decode_step_ms)},
      {"kv_transfer_ms", NumOrNull(ir.kv_transfer_ms)},
      {"request_path_ms", NumOrNull(ir.request_path_ms)},
      {"slo_met", ir.slo_met},
      {"slo_percentile", s.inference.slo.percentile},
      {"capacity_requests_per_second", NumOrNull(ir.capacity_requests_per_second)},
      {"utilization", NumOrNull(ir.utilization)},
      {"requests", NumOrNull(ir.requests)},
      {"requests_per_second", NumOrNull(ir.requests_per_second)},
      {"peak_requests_per_second", NumOrNull(ir.peak_requests_per_second)},
      {"output_tokens_per_second", NumOrNull(ir.output_tokens_per_second)},
      {"output_tokens_per_second_per_gpu", NumOrNull(ir.output_tokens_per_second_per_gpu)},
      {"prefill", Pool(ir.prefill)},
      {"decode", Pool(ir.decode)},
      {"gpus", ir.gpus},
      {"usd_per_request", NumOrNull(ir.usd_per_request)},
      {"usd_per_million_input_tokens", NumOrNull(ir.usd_per_million_input_tokens)},
      {"usd_per_million_output_tokens", NumOrNull(ir.usd_per_million_output_tokens)},
      {"usd_per_million_output_tokens_all_in", NumOrNull(ir.usd_per_million_output_tokens_all_in)},
      {"output_share_of_cost", NumOrNull(ir.output_share_of_cost)},
      {"per_million_tokens_convention", kPerMillionTokensConvention},
      {"router_usd_per_hour", NumOrNull(ir.router_usd_per_hour)},
      {"tokens_per_decode_step", NumOrNull(ir.spec_tokens_per_step)},
      {"draft_tokens_per_step", NumOrNull(ir.spec_draft_tokens)},
      {"prefill_saved_share", NumOrNull(ir.prefill_saved_share)},
      {"kv_saved_gb_per_replica", NumOrNull(ir.kv_saved_gb_per_replica)},
      {"usd_per_hour", NumOrNull(ir.usd_per_hour)},
      {"hours", NumOrNull(ir.hours)},
      {"service_months", NumOrNull(s.inference.service_months)}};
  if (const ServingTechniqueEffects t = ServingTechniques(s, r); t.speculative || t.prefix_cache)  // issue 47
    (*doc)["inference"]["techniques"] = TechniquesJson(t);
  if (ir.spot.present)  // serving on spot (inference_billing.h)
    (*doc)["inference"]["spot"] = {{"preemptions", NumOrNull(ir.spot.preemptions)},
                                   {"reacquire_minutes", NumOrNull(ir.spot.reacquire_minutes)},
                                   {"spare_gpus", NumOrNull(ir.spot.spare_gpus)},
                                   {"target_attainment", NumOrNull(ir.spot.target_attainment)}};
  if (ir.day.present) {  // issue 28 (inference_day.h)
    const ServingDay& d = ir.day;
    json hours = json::array();
    for (const ServingDayHour& h : d.hour)
      hours.push_back({{"requests_per_second", NumOrNull(h.requests_per_second)}, {"replicas", h.replicas},
                       {"prefill_replicas", h.prefill_replicas}, {"gpus", NumOrNull(h.gpus)}, {"usd", NumOrNull(h.usd)},
                       {"ttft_ms", NumOrNull(h.ttft_ms)}, {"tpot_ms", NumOrNull(h.tpot_ms)}, {"slo_met", h.slo_met}});
    (*doc)["inference"]["day"] = {
        {"autoscaled", d.autoscaled}, {"hours", hours}, {"peak_multiplier", NumOrNull(d.peak_multiplier)},
        {"mean_multiplier", NumOrNull(d.mean_multiplier)}, {"requests", NumOrNull(d.requests)},
        {"scale_up_minutes", NumOrNull(d.scale_up_minutes)}, {"scale_events", d.scale_events},
        {"serving_gpu_hours", NumOrNull(d.serving_gpu_hours)}, {"cold_start_gpu_hours", NumOrNull(d.cold_start_gpu_hours)},
        {"scale_down_gpu_hours", NumOrNull(d.scale_down_gpu_hours)}, {"rounding_gpu_hours", NumOrNull(d.rounding_gpu_hours)},
        {"usd", NumOrNull(d.usd)}, {"usd_per_request", NumOrNull(d.usd_per_request)},
        {"fixed_fleet", {{"replicas", d.fixed_replicas}, {"prefill_replicas", d.fixed_prefill_replicas},
                         {"gpus", d.fixed_gpus}, {"usd", NumOrNull(d.fixed_usd)}, {"usd_per_request", NumOrNull(d.fixed_usd_per_request)}}},
        {"mean_rate_floor_usd", NumOrNull(d.mean_rate_floor_usd)}, {"target_attainment", NumOrNull(d.attainment)},
        {"money", "per day, GPU rental before tax, storage, fees and failures"}};
  }
  (*doc)["time"] = {{"expected_hours", NumOrNull(r.expected_hours)}, {"expected_days", NumOrNull(r.expected_hours / 24)},
                    {"reacquire_wait_hours", NumOrNull(r.time_hours.part[kPartReacquireWait])}};
  (*doc)["gpu_hours"] = {{"ideal", NumOrNull(r.ideal_gpu_hours)}, {"billed", NumOrNull(r.billed_gpu_hours)},
                         {"breakdown", ServingParts(r.gpu_hours, false)}};
  (*doc)["goodput"] = NumOrNull(r.goodput);
  (*doc)["reliability"] = {{"expected_failures", NumOrNull(r.expected_failures)},
                           {"expected_preemptions", NumOrNull(r.expected_preemptions)}};
  const double k = r.display_per_usd;
  (*doc)["cost"] = {{"usd_per_gpu_hour", NumOrNull(r.usd_per_gpu_hour)},
                    {"expected_usd", NumOrNull(r.expected_usd)},
                    {"normal_run_usd", NumOrNull(r.normal_run_usd)},
                    {"breakdown", ServingParts(r.cost_usd, true)},
                    {"usd_per_billion_tokens", NumOrNull(r.usd_per_billion_tokens)},
                    {"currency", r.display_currency},
                    {"per_usd", NumOrNull(k)},
                    {"expected", NumOrNull(r.expected_usd * k)},
                    {"per_request", NumOrNull(ir.usd_per_request * k)},
                    {"per_million_input_tokens", NumOrNull(ir.usd_per_million_input_tokens * k)},
                    {"per_million_output_tokens", NumOrNull(ir.usd_per_million_output_tokens * k)},
                    {"per_million_output_tokens_all_in", NumOrNull(ir.usd_per_million_output_tokens_all_in * k)},
                    {"per_hour", NumOrNull(ir.usd_per_hour * k)}};
  json warnings = json::array();
  for (int i = 0; i < r.warnings.count; ++i)
    warnings.push_back(WarningJson(r.warnings, i));
  (*doc)["warnings"] = warnings;
}

}  // namespace gpucost
