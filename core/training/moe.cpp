// moe.cpp — mixture of experts (see moe.h for the model and its sources).
#include "training/moe.h"
#include "base/numeric.h"

#include <algorithm>
#include <cmath>

#include "hardware/comm.h"
#include "training/memory.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {


// Bytes one all-to-all moves per GPU and its time over the expert-parallel group (members t apart).
double AllToAllSeconds(double bytes, const Layout& l, const StepHardware& hw) {
  if (l.expert <= 1 || bytes <= 0) return 0;
  const Group g = GroupOf(l.expert, l.tensor, hw.gpus_per_node);
  const double ranks = D(g.ranks), per_node = D(g.per_node);
  const Links links = StepLinks(hw);
  const IntraNodePath path = IntraNodePathOf(g.per_node, links);  // NVLink, or PCIe beyond the island (issue 46)
  const double network = links.network_bytes_per_s;
  const double inside = bytes * (per_node - 1) / ranks / path.bytes_per_s + D(g.per_node - 1) * path.hop_seconds;
  if (g.per_node >= g.ranks) return inside;
  const double across = bytes * (ranks - per_node) / ranks / network + (ranks / per_node - 1) * kNetworkHopSeconds;
  return std::max(inside, across);
}

}  // namespace

double ShapeActiveParams(const ModelShape& m) {
  const double all = ShapeParams(m);
  if (all <= 0 || m.experts <= 0) return all;
  return all - D(m.layers) * (m.layer_matrix_params() - m.active_layer_matrix_params());
}

double ActiveParams(const Scenario& s) {
  if (s.arch.active_params > 0) return s.arch.active_params;
  const ModelShape m = ShapeFromScenario(s);
  if (m.experts <= 0 || m.layers <= 0 || m.hidden <= 0) return s.workload.params;
  // The shape's active share of its weights, applied to workload.params (equal to the shape's active count
  // when params is the shape's own).
  const double embedding = m.vocab > 0 ? m.embedding_params() : 0;
  const double all = embedding + D(m.layers) * m.layer_matrix_params();
  const double active = embedding + D(m.layers) * m.active_layer_matrix_params();
  return all > 0 ? s.workload.params * active / all : s.workload.params;
}

ModelShape MoeComputeShape(const ModelShape& m) {
  if (m.experts <= 0) return m;
  ModelShape dense = m;
  const double per_width = m.mlp_weights(1.0);
  const double mlp = m.active_layer_matrix_params() - m.attention_weights() - m.router_weights();
  dense.ffn_hidden = std::max<std::int64_t>(1, std::llround(mlp / per_width));
  dense.experts = dense.active_experts = dense.shared_experts = dense.expert_ffn = dense.dense_layers = 0;
  return dense;
}

double StageExpertParams(const ModelShape& m, const Layout& l, double stage_layers) {
  if (m.experts <= 0 || m.layers <= 0) return 0;
  const double moe_share = m.moe_layers() / D(m.layers);
  return stage_layers * moe_share * D(m.experts) * m.mlp_weights(m.expert_width()) / D(std::max<std::int64_t>(1, l.tensor));
}

double ExpertParamsElsewhere(const ModelShape& m, const Layout& l, double stage_layers) {
  if (l.expert <= 1) return 0;
  return StageExpertParams(m, l, stage_layers) * (1 - 1 / D(l.expert));
}

LayoutError CheckExpertLayout(const ModelShape& m, const Layout& l) {
  if (l.expert < 1) return LayoutError::kBadDegree;
  if (l.expert == 1) return LayoutError::kNone;
  if (m.experts <= 0 || m.experts % l.expert != 0 || l.data % l.expert != 0) return LayoutError::kExpertParallel;
  return LayoutError::kNone;
}

StepTime EstimateMoeStepTime(const ModelShape& m, const Layout& l, const StepHardware& hw) {
  StepTime r;
  r.error = CheckExpertLayout(m, l);
  if (r.error != LayoutError::kNone) return r;
  ModelShape dense = MoeComputeShape(m);
  const std::int64_t t = std::max<std::int64_t>(1, l.tensor);
  dense.ffn_hidden = (dense.ffn_hidden + t - 1) / t * t;  // whole columns per tensor-parallel rank
  Layout base = l;
  base.expert = 1;  // the dense step sees no expert parallelism; its all-to-all is added below
  r = EstimateStepTime(dense, base, hw);
  if (!r.ok()) return r;
  const double mb = D(l.micro_batches()), stage_layers = D(m.layers) / D(l.pipeline);
  const double moe_layers = stage_layers * m.moe_layers() / D(m.layers);
  // All-to-all: dispatch + combine forward and backward (+ the forward's again when the MLP is recomputed: full,
  // save_dot_*; torchtitan's per-op policy keeps the dispatched tokens).
  const double tokens = D(l.micro_batch) * D(m.seq_len) / (l.sequence_parallel ? D(t) : 1.0);
  const double bytes = tokens * D(m.active_experts) * D(m.hidden) * hw.bytes_per_element;
  const double per_layer = (l.recompute == Recompute::kNone || l.recompute == Recompute::kSelective || l.recompute == Recompute::kSelectiveOp ? 4 : 6) * AllToAllSeconds(bytes, l, hw);
  double a2a_mb = moe_layers * per_layer;
  // Issue 26: with Layout::ep_overlap (DeepSeek-V3's DualPipe: one micro-batch's dispatch and combine run
  // while another's attention and MLP compute, DeepSeek-AI 2024, arXiv:2412.19437 section 3.2.1) only the
  // all-to-all beyond the stage's compute stays exposed.
  if (l.ep_overlap) {
    const double compute_mb = mb > 0 ? (r.compute_seconds + r.memory_bound_seconds + r.recompute_seconds) / mb : 0;
    a2a_mb = std::max(0.0, a2a_mb - compute_mb);
  }
  r.ep_comm_seconds = mb * a2a_mb;
  r.bubble_seconds += D(l.pipeline - 1) / D(l.interleave) * a2a_mb;
  // Routed experts beyond the active width the dense step already counted: their gradients are reduced over
  // the d / e expert-data-parallel ranks (exposed in the same share as the dense reduction) and the
  // optimizer steps them.
  const double experts_here = StageExpertParams(m, l, stage_layers) / D(l.expert);
  const double active_here = stage_layers * m.moe_layers() / D(m.layers) * D(m.active_experts) *
                             m.mlp_weights(m.expert_width()) / D(t);
  // A frozen base (LoRA, issue 46) has no expert gradients or optimizer states: its adapters were counted above.
  const double extra = m.frozen_base() ? 0.0 : std::max(0.0, experts_here - active_here);
  const std::int64_t expert_data = std::max<std::int64_t>(1, l.data / l.expert);
  if (extra > 0 && expert_data > 1) {
    const Links links = StepLinks(hw);
    const Group g = GroupOf(expert_data, t * l.expert, hw.gpus_per_node);
    const double grads = extra * hw.grad_bytes_per_param;
    const double total = l.zero_stage == 0 ? AllReduceSeconds(grads, g, links)
                                           : 2 * ReduceScatterSeconds(grads, g, links);
    const double exposed_share = r.dp_comm_total_seconds > 0 ? r.dp_comm_seconds / r.dp_comm_total_seconds : 1;
    r.dp_comm_total_seconds += total;
    r.dp_comm_seconds += total * exposed_share;
  }
  const double local = extra / (l.zero_stage >= 1 ? D(expert_data) : 1.0);
  const double opt_bytes = local * (2 * hw.optimizer_bytes_per_param + hw.grad_bytes_per_param + hw.weight_bytes_per_param);
  r.optimizer_seconds += opt_bytes / (hw.hbm_bytes_per_s * HbmEfficiency(opt_bytes));
  // Totals and rates again.
  r.exposed_comm_seconds = r.tp_comm_seconds + r.pp_comm_seconds + r.dp_comm_seconds + r.ep_comm_seconds;
  r.seconds = r.compute_seconds + r.memory_bound_seconds + r.recompute_seconds + r.exposed_comm_seconds +
              r.bubble_seconds + r.optimizer_seconds;
  const double capacity = r.seconds * D(l.gpus()) * hw.peak_flops;
  r.mfu = r.model_flops / capacity;
  r.hfu = r.hardware_flops / capacity;
  r.tokens_per_second = D(l.global_batch) * D(m.seq_len) * m.real_token_fraction / r.seconds;
  return r;
}

void ValidateMoe(const Scenario& s, std::vector<InputError>* e) {
  const ArchitectureInputs& a = s.arch;
  const bool moe = a.experts > 0;
  if (moe && a.active_experts <= 0) AddError(e, "workload.active_experts", "msg.v.active_experts");
  if (moe && a.active_experts > a.experts) AddError(e, "workload.active_experts", "msg.v.active_le_experts", a.experts);
  if (!moe && (a.active_experts > 0 || a.shared_experts > 0 || a.expert_ffn_hidden > 0 || a.dense_layers > 0))
    AddError(e, "workload.experts", "msg.v.experts_needed");
  if (moe && s.workload.layers > 0 && a.dense_layers >= s.workload.layers)
    AddError(e, "workload.dense_layers", "msg.v.dense_layers", s.workload.layers);
  if (a.active_params > 0 && a.active_params > s.workload.params) AddError(e, "workload.active_params", "msg.v.active_params");
  if (a.expert_parallel > 1 && Kind(s) == WorkloadKind::kTraining) {
    const Layout l = LayoutFromScenario(s);
    if (!moe)
      AddError(e, "parallel.expert_parallel", "msg.v.ep_needs_moe");
    else if (a.experts % a.expert_parallel != 0)
      AddError(e, "parallel.expert_parallel", "msg.v.ep_experts", a.experts);
    else if (l.data > 0 && l.data % a.expert_parallel != 0)
      AddError(e, "parallel.expert_parallel", "msg.v.ep_data", l.data);
  }
}

}  // namespace gpucost
