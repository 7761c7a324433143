// parallelism.cpp — the batch-size effect, MFU from measured scaling points and memory per GPU as they enter
// Evaluate() and the result document (see parallelism.h).
#include "job/parallelism.h"
#include "base/numeric.h"
#include "training/plan.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "training/finetune.h"
#include "training/layout.h"
#include "training/memory.h"
#include "training/moe.h"
#include "training/scaling_fit.h"

namespace gpucost {

void ApplyMeasuredScaling(const Scenario& s, double peak_flops_per_gpu, Result* r) {
  if (s.scaling.point_count < 2 || Kind(s) != WorkloadKind::kTraining) return;
  r->scaling_fit = FitScaling(s.scaling.points, s.scaling.point_count);
  if (!r->scaling_fit.ok()) return;  // ValidateScenario reports it
  r->scaling_present = true;
  const double gpus = static_cast<double>(s.cluster.gpus);
  r->scaling_at_gpus = PredictScaling(r->scaling_fit, gpus);
  if (s.cluster.mfu > 0 || peak_flops_per_gpu <= 0) return;
  r->mfu = r->scaling_at_gpus.tokens_per_second * ModelFlopsPerToken(s) / (gpus * peak_flops_per_gpu);
  r->mfu_source = MfuSource::kMeasured;
  if (r->scaling_at_gpus.extrapolated)
    r->warnings.Add("scaling_extrapolated", "msg.w_scaling_extrapolated",
                    {std::to_string(s.cluster.gpus), FormatParam("%.3g", r->scaling_at_gpus.extrapolation_factor),
                     FormatParam("%g", r->scaling_fit.min_gpus), FormatParam("%g", r->scaling_fit.max_gpus),
                     r->scaling_fit.chosen == ScalingLaw::kUsl ? "the Universal Scalability" : "Amdahl"});
  if (r->scaling_fit.peak_gpus > 0 && gpus > r->scaling_fit.peak_gpus)
    r->warnings.Add("scaling_past_peak", "msg.w_scaling_past_peak",
                    {FormatParam("%.0f", r->scaling_fit.peak_gpus), std::to_string(s.cluster.gpus)});
  if (r->mfu > 1)
    r->warnings.Add("scaling_mfu_above_one", "msg.w_scaling_mfu_above_one", {FormatParam("%.0f", r->mfu * 100)});
}

void EvaluateMemory(const Scenario& s, double device_bytes, Result* r) {
  if (Kind(s) != WorkloadKind::kTraining || s.workload.params <= 0) return;
  const ModelShape shape = ShapeFromScenario(s);
  const Layout layout = LayoutFromScenario(s);
  const double shape_params = ShapeParams(shape);
  if (shape_params > 0 && std::fabs(s.workload.params / shape_params - 1) > 0.25)
    r->warnings.Add("params_shape_mismatch", "msg.w_params_mismatch",
                    {FormatParam("%.3g", s.workload.params), FormatParam("%.3g", shape_params)});
  r->memory = EstimateMemory(shape, layout, GetPrecision(s), device_bytes);
  if (!r->memory.valid) return;
  r->memory_present = true;
  if (r->memory.fits()) return;
  MemorySearchSpace space;
  space.max_tensor = s.cluster.gpus_per_node;
  space.vary_recompute = false;
  // With the shape, the smallest fit comes from the layout search itself (plan.h; a global batch on auto is
  // searched at one sequence per GPU), so the result and the Layouts view name the same layouts (issue 30);
  // without it, from the memory model's own search.
  const bool searchable = shape.known() && HasModelShape(s);
  r->memory_smallest_fit = searchable ? SmallestFittingPlan(s, space.max_gpus)
                                      : SmallestFittingLayout(shape, layout, GetPrecision(s), device_bytes, space);
  const LayoutFit& fit = r->memory_smallest_fit;
  // Issue 47: the cluster as it is, when it is large enough: the fastest layout on its own GPU count. Without the
  // shape, the memory model's smallest layout on exactly these GPUs (2026-12-07: 64 GPUs were cut to the 16 the
  // smallest layout needs, by a button that said it added GPUs).
  if (fit.found && fit.layout.gpus() <= s.cluster.gpus) {
    if (fit.layout.gpus() == s.cluster.gpus) {
      r->memory_fit_at_gpus = fit;
    } else if (searchable) {
      r->memory_fit_at_gpus = FittingPlanAt(s, s.cluster.gpus);
    } else {
      MemorySearchSpace here = space;
      here.exact_gpus = s.cluster.gpus;
      r->memory_fit_at_gpus = SmallestFittingLayout(shape, layout, GetPrecision(s), device_bytes, here);
    }
  }
  if (fit.found)
    r->warnings.Add("memory_does_not_fit", "msg.w_memory_fit",
                    {FormatParam("%.1f", r->memory.total_bytes() / kBytesPerGib), FormatParam("%.1f", device_bytes / kBytesPerGib),
                     std::to_string(fit.layout.gpus()), std::to_string(fit.layout.tensor), std::to_string(fit.layout.pipeline),
                     std::to_string(fit.layout.data), std::to_string(fit.layout.zero_stage),
                     FormatParam("%.1f", fit.memory.total_bytes() / kBytesPerGib)});
  else
    r->warnings.Add("memory_does_not_fit", "msg.w_memory_none",
                    {FormatParam("%.1f", r->memory.total_bytes() / kBytesPerGib), FormatParam("%.1f", device_bytes / kBytesPerGib),
                     std::to_string(space.max_gpus)});
}

namespace {

nlohmann::json GbOrNull(double bytes) { return std::isfinite(bytes) ? nlohmann::json(bytes / 1e9) : nlohmann::json(nullptr); }

nlohmann::json LayoutJson(const Layout& l) {
  return {{"gpus", l.gpus()},          {"tensor_parallel", l.tensor},     {"pipeline_parallel", l.pipeline},
          {"data_parallel", l.data},   {"zero_stage", l.zero_stage},      {"micro_batch", l.micro_batch},
          {"recompute", RecomputeJsonName(l.recompute)}};
}

nlohmann::json LawJson(const LawFit& f, int points) {
  nlohmann::json errors = nlohmann::json::array();
  for (int i = 0; i < points; ++i) errors.push_back(f.relative_error[i]);
  return {{"lambda_tokens_per_second_per_gpu", f.lambda_tokens_per_s}, {"sigma", f.sigma}, {"kappa", f.kappa},
          {"rms_relative_error", f.rms_relative_error}, {"relative_errors", errors}, {"aic", f.aic}};
}

}  // namespace

void WriteParallelismJson(const Scenario& s, const Result& r, nlohmann::json* doc) {
  nlohmann::json& d = *doc;
  d["work"]["batch_size_token_factor"] = r.batch_size_token_factor;
  if (Kind(s) == WorkloadKind::kTraining) {  // issue 18: MoE and fine-tuning (moe.h, finetune.h)
    static const char* const kModes[] = {"full", "lora", "qlora"};
    d["work"]["finetune"] = kModes[s.finetune.mode >= 0 && s.finetune.mode <= 2 ? s.finetune.mode : 0];
    d["work"]["active_params"] = ActiveParams(s);
    d["work"]["trainable_params"] = TrainableParams(s);
  }
  if (r.memory_present) {
    const MemoryBreakdown& m = r.memory;
    nlohmann::json mem = {{"model_states_gb", GbOrNull(m.model_states_bytes())},
                          {"weights_gb", GbOrNull(m.weights_bytes)},
                          {"gradients_gb", GbOrNull(m.gradients_bytes)},
                          {"optimizer_gb", GbOrNull(m.optimizer_bytes)},
                          {"zero3_gathered_gb", GbOrNull(m.gathered_bytes)},
                          {"activations_gb", GbOrNull(m.activations_bytes)},  // 0 when unknown: see activations_known
                          {"activations_known", m.activations_known},
                          {"overhead_gb", GbOrNull(m.overhead_bytes)},
                          {"total_gb", GbOrNull(m.total_bytes())},
                          {"device_gb", GbOrNull(m.device_bytes)},
                          {"headroom_gb", GbOrNull(m.headroom_bytes())},
                          {"fits", m.fits()},
                          {"stage", m.last_stage ? "last pipeline stage (output layer and logits)"
                                   : m.middle_stage ? "middle pipeline stage (the most layers)"
                                   : "first pipeline stage (embedding, most in-flight micro-batches)"},
                          {"params_per_gpu", m.params_per_gpu},
                          {"inflight_micro_batches", m.inflight_micro_batches}};
    if (s.workload.vocab == 0 && m.activations_known)  // issue 18: the vocabulary the estimate assumed
      mem["vocab_assumed"] = {{"vocab", kDefaultVocab}, {"source", kDefaultVocabSource}};
    if (m.paged_bytes > 0) mem["paged_optimizer_gb"] = GbOrNull(m.paged_bytes);  // QLoRA: may move to CPU memory
    if (r.memory_smallest_fit.found) mem["smallest_fitting_layout"] = LayoutJson(r.memory_smallest_fit.layout);
    if (r.memory_fit_at_gpus.found) mem["fitting_layout_at_gpus"] = LayoutJson(r.memory_fit_at_gpus.layout);
    d["memory"] = mem;
  }
  if (r.scaling_present) {
    const ScalingFit& f = r.scaling_fit;
    d["scaling"] = {{"law", ScalingLawName(f.chosen)},
                    {"points", f.points},
                    {"measured_gpus", {f.min_gpus, f.max_gpus}},
                    {"amdahl", LawJson(f.amdahl, f.points)},
                    {"tokens_per_second_at_gpus", r.scaling_at_gpus.tokens_per_second},
                    {"efficiency_at_gpus", r.scaling_at_gpus.efficiency},
                    {"extrapolated", r.scaling_at_gpus.extrapolated},
                    {"superlinear_data", f.superlinear}};
    if (f.usl.valid) d["scaling"]["usl"] = LawJson(f.usl, f.points);
    if (f.peak_gpus > 0) d["scaling"]["peak_gpus"] = f.peak_gpus;
  }
  (void)s;
}

}  // namespace gpucost
