// layout.h — a transformer's shape and a parallel layout as plain values, shared by the memory model
// (memory.h), the step-time model (steptime.h) and the layout search (plan.h). Separate from Scenario so
// a search can evaluate many layouts without copying whole scenarios.
#pragma once
#include <algorithm>
#include <cstdint>

#include "hardware/framework.h"
#include "scenario/models.h"
#include "scenario/scenario.h"

namespace gpucost {

struct ModelShape {
  double params = 0;            // total parameters (given, or derived from the shape)
  std::int64_t layers = 0;
  std::int64_t hidden = 0;
  std::int64_t heads = 0;
  std::int64_t seq_len = 0;
  std::int64_t vocab = 0;
  std::int64_t ffn_hidden = 0;  // 4 x hidden when not given
  std::int64_t kv_heads = 0;    // key/value heads (grouped-query attention); 0: = heads
  bool ffn_gated = false;       // SwiGLU-style MLP: gate and up projections, then down (three matrices)
  bool tied_embeddings = true;  // one vocab x hidden matrix for input and output (else two)
  bool known() const { return layers > 0 && hidden > 0 && heads > 0 && seq_len > 0 && vocab > 0; }
  double ffn() const { return static_cast<double>(ffn_hidden > 0 ? ffn_hidden : 4 * hidden); }
  double kv_heads_or_heads() const { return static_cast<double>(kv_heads > 0 ? kv_heads : heads); }
  // Width of the K and V projections: kv_heads x head dimension (= hidden without grouped-query attention).
  double kv_width() const { return heads > 0 ? head_dim_or_default() * kv_heads_or_heads() : 0; }
  // Weight-matrix parameters of one layer: Q and output (h^2 each), K and V (h x kv_width each), and two or
  // three (gated) h x ffn matrices. No biases or norms.
  double embedding_params() const {
    return (tied_embeddings ? 1 : 2) * static_cast<double>(vocab) * static_cast<double>(hidden);
  }
  // Embedding parameters on one pipeline stage (first or last): one matrix (a tied model's last stage keeps
  // a copy for its output layer), both when a single stage holds an untied model.
  double stage_embedding_params(std::int64_t pipeline) const {
    return (pipeline == 1 && !tied_embeddings ? 2 : 1) * static_cast<double>(vocab) * static_cast<double>(hidden);
  }
  double layer_matrix_params() const {
    if (experts > 0) return attention_weights() + moe_mlp_weights(static_cast<double>(experts + shared_experts)) +
                            router_weights();
    return attention_weights() + mlp_weights(ffn());
  }

  // Issue 18: head dimension, other attention forms and mixture of experts (0: not used; see moe.h).
  std::int64_t head_dim = 0;          // 0: hidden / heads
  double attention_params = 0;        // weights of one layer's attention; 0: from the widths
  std::int64_t experts = 0;           // routed experts per MoE layer; 0: dense
  std::int64_t active_experts = 0;    // routed experts per token
  std::int64_t shared_experts = 0;    // always-active experts
  std::int64_t expert_ffn = 0;        // MLP width of one expert; 0: ffn()
  std::int64_t dense_layers = 0;      // leading dense layers of an MoE model
  Finetune finetune = Finetune::kFull;  // what is trained (finetune.h)
  std::int64_t lora_rank = 0;
  LoraTargets lora_targets = LoraTargets::kAll;
  // Issue 46: how the frozen weights are stored (finetune.h FrozenBytesPerParam), and the share of each sequence's
  // token slots that hold real tokens (padding computes but does not count).
  FrozenPrecision frozen_precision = FrozenPrecision::kAuto;
  double real_token_fraction = 1;
  // Issue 46: packed short documents (workload.packed_document_tokens): the tokens each attends within (0: seq_len).
  double document_tokens = 0;
  double attention_span() const {
    return document_tokens > 0 && document_tokens < static_cast<double>(seq_len) ? document_tokens : static_cast<double>(seq_len);
  }
  // Adapters are trained and the base is frozen (LoRA, QLoRA; finetune.h).
  bool frozen_base() const { return finetune != Finetune::kFull && lora_rank > 0; }
  double head_dim_or_default() const {
    return head_dim > 0 ? static_cast<double>(head_dim) : heads > 0 ? static_cast<double>(hidden) / static_cast<double>(heads) : 0;
  }
  double q_width() const { return head_dim > 0 ? static_cast<double>(head_dim * heads) : static_cast<double>(hidden); }
  double attention_weights() const {
    const double h = static_cast<double>(hidden);
    return attention_params > 0 ? attention_params : 2 * h * q_width() + 2 * h * kv_width();
  }
  double mlp_weights(double width) const { return (ffn_gated ? 3 : 2) * static_cast<double>(hidden) * width; }
  double expert_width() const { return expert_ffn > 0 ? static_cast<double>(expert_ffn) : ffn(); }
  double moe_layers() const { return experts > 0 ? static_cast<double>(layers - dense_layers) : 0; }
  double router_weights() const { return layers > 0 ? moe_layers() / static_cast<double>(layers) * static_cast<double>(hidden * experts) : 0; }
  // MLP weights of one layer averaged over the layers when each MoE layer holds `experts_counted` experts.
  double moe_mlp_weights(double experts_counted) const {
    if (layers <= 0) return 0;
    const double moe = moe_layers(), all = static_cast<double>(layers);
    return ((all - moe) * mlp_weights(ffn()) + moe * experts_counted * mlp_weights(expert_width())) / all;
  }
  // Weights one token uses in one layer (averaged): the dense count for a dense model.
  double active_layer_matrix_params() const {
    if (experts <= 0) return layer_matrix_params();
    return attention_weights() + moe_mlp_weights(static_cast<double>(active_experts + shared_experts)) + router_weights();
  }
};

struct Layout {
  std::int64_t tensor = 1;
  std::int64_t pipeline = 1;
  std::int64_t data = 1;
  std::int64_t zero_stage = 0;
  std::int64_t micro_batch = 1;
  std::int64_t global_batch = 0;   // sequences per step (0: unknown)
  std::int64_t interleave = 1;     // virtual stages per GPU
  bool sequence_parallel = false;
  Recompute recompute = Recompute::kNone;
  Optimizer optimizer = Optimizer::kAdam;
  bool overlap_comm = true;
  std::int64_t expert = 1;         // expert-parallel degree (issue 18: splits the data-parallel ranks' experts)
  // Issue 18: context parallelism splits each sequence over `context` GPUs (ring attention; Llama 3 paper
  // section 3.3.2); fused attention (FlashAttention) never writes the s x s scores to HBM.
  std::int64_t context = 1;
  bool flash_attention = false;
  // Issue 46: norms and the gated activation fused (false: PyTorch eager, one kernel per op; steptime.cpp).
  bool fused_elementwise = true;
  // Issue 26: communication hidden behind compute (framework.h gives each framework's default).
  bool tp_overlap = false;         // tensor-parallel collectives chunked behind the GEMMs
  bool ep_overlap = false;         // expert all-to-all behind another micro-batch's compute (DualPipe)
  // Parameters per data-parallel bucket: each bucket is one NCCL collective and pays the ring's latency
  // (steptime.cpp). 0: Megatron-core's default, max(40M, 1M x data) (DistributedDataParallelConfig.bucket_size:
  // "larger DP sizes need larger buckets to ensure collectives do not become latency-bound"). Not a scenario
  // field: a validation run sets it when its source names another size.
  double dp_bucket_params = 0;
  std::int64_t gpus() const { return tensor * context * pipeline * data; }
  // Micro-batches per pipeline per step: global / (data x micro); 0 when the global batch is unknown.
  std::int64_t micro_batches() const { return global_batch > 0 ? global_batch / (data * micro_batch) : 0; }
};

// The vocabulary assumed when a shape gives everything but workload.vocab (issue 18): GPT-2's BPE vocabulary
// of 50,257 padded to 51,200 for tensor parallelism, as Megatron-LM trains it (Narayanan et al. 2021,
// arXiv:2104.04473; Korthikanti et al. 2022, arXiv:2205.05198). Only the memory model uses it (activations and
// the embedding); the step-time model and the parameter count still need the real vocabulary.
constexpr std::int64_t kDefaultVocab = 51200;
constexpr const char* kDefaultVocabSource = "GPT-2's 50,257 padded to 51,200 as Megatron-LM trains it (Korthikanti et al. 2022)";

// Transformer layers per pipeline stage. Layers that do not divide evenly go to the middle stages: each holds
// ceil(L / p) and the first and last stages share the rest (they also hold the embedding and the output layer),
// as Megatron-LM's account-for-embedding split, BLOOM (70 layers on 12 stages: 5, 6 x 10, 5) and Llama 3
// 405B (126 layers on 16 stages: 7, 8 x 14, 7; Dubey et al. 2024, arXiv:2407.21783, section 3.3.2) do.
// When the rest is too small for that, the first stages hold one layer more (an even split).
struct StageLayers {
  std::int64_t first = 0, middle = 0, last = 0;  // middle = the most any stage holds
  bool ok() const { return first > 0 && last > 0 && middle > 0; }
};
inline StageLayers StageLayersOf(std::int64_t layers, std::int64_t pipeline) {
  StageLayers r;
  if (layers <= 0 || pipeline <= 0) return r;
  if (pipeline == 1) return StageLayers{layers, layers, layers};
  const std::int64_t most = (layers + pipeline - 1) / pipeline;
  const std::int64_t rest = layers - (pipeline - 2) * most;
  if (layers % pipeline != 0 && rest >= 2 && rest <= 2 * most) {
    r.middle = most;
    r.first = rest / 2;
    r.last = rest - r.first;
    if (pipeline == 2) r.middle = std::max(r.first, r.last);
    return r;
  }
  r.middle = most;
  r.first = most;
  r.last = layers / pipeline;  // the last stage holds the floor when the split is even-ish
  return r;
}

inline ModelShape ShapeFromScenario(const Scenario& s) {
  ModelShape m;
  m.params = s.workload.params;
  m.layers = s.workload.layers;
  m.hidden = s.workload.hidden;
  m.heads = s.workload.heads;
  m.seq_len = s.workload.seq_len;
  m.vocab = s.workload.vocab;
  if (m.vocab == 0 && s.workload.layers > 0 && s.workload.hidden > 0 && s.workload.heads > 0 && s.workload.seq_len > 0)
    m.vocab = kDefaultVocab;  // issue 18: stated default, reported in the memory document
  m.ffn_hidden = s.workload.ffn_hidden > 0 ? s.workload.ffn_hidden : 4 * s.workload.hidden;
  m.kv_heads = s.workload.kv_heads;
  m.ffn_gated = s.workload.ffn_gated != 0;
  m.tied_embeddings = s.workload.tied_embeddings != 0;
  m.head_dim = s.arch.head_dim;  // issue 18
  m.attention_params = s.arch.attention_params;
  m.experts = s.arch.experts;
  m.active_experts = s.arch.active_experts;
  m.shared_experts = s.arch.shared_experts;
  m.expert_ffn = s.arch.expert_ffn_hidden;
  m.dense_layers = s.arch.dense_layers;
  m.finetune = static_cast<Finetune>(s.finetune.mode);
  m.lora_rank = s.finetune.lora_rank;
  m.lora_targets = static_cast<LoraTargets>(s.finetune.lora_targets);
  m.frozen_precision = static_cast<FrozenPrecision>(s.finetune.frozen_precision);
  m.real_token_fraction = s.finetune.real_token_fraction > 0 ? s.finetune.real_token_fraction : 1;
  m.document_tokens = static_cast<double>(s.finetune.packed_document_tokens);
  return m;
}

// The shape the spec describes (params left 0: ShapeParams() counts it from the shape).
inline ModelShape ShapeOfModel(const ModelSpec& m) {
  Scenario s = DefaultScenario();  // the shape a scenario naming this model gets (one mapping: ModelFieldValues)
  for (const ModelFieldValue& v : ModelFieldValues(m)) ApplyModelField(&s, v);
  ModelShape shape = ShapeFromScenario(s);
  shape.params = 0;
  return shape;
}

inline Layout LayoutFromScenario(const Scenario& s) {
  Layout l;
  const ParallelInputs& p = s.parallel;
  l.tensor = p.tensor_parallel;
  l.pipeline = p.pipeline_parallel;
  l.context = p.context_parallel > 0 ? p.context_parallel : 1;
  l.flash_attention = p.flash_attention;
  l.fused_elementwise = p.fused_elementwise;
  l.data = p.data_parallel > 0 ? p.data_parallel : s.cluster.gpus / (p.tensor_parallel * p.pipeline_parallel * l.context);
  l.zero_stage = p.zero_stage;
  l.micro_batch = p.micro_batch;
  l.global_batch = p.global_batch;
  l.interleave = p.pipeline_interleave;
  l.sequence_parallel = p.sequence_parallel;
  l.recompute = static_cast<Recompute>(p.recompute);
  l.optimizer = static_cast<Optimizer>(p.optimizer);
  l.overlap_comm = p.overlap_comm;
  l.expert = s.arch.expert_parallel;  // issue 18
  // Issue 26: overlap as typed, else the framework's default (framework.h).
  const FrameworkDefaults d = DefaultsOf(static_cast<Framework>(s.cluster.framework));
  l.tp_overlap = p.tp_comm_overlap == 0 ? d.tp_overlap : p.tp_comm_overlap == 1;
  l.ep_overlap = p.ep_comm_overlap == 0 ? d.ep_overlap : p.ep_comm_overlap == 1;
  return l;
}

}  // namespace gpucost
