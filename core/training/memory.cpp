// memory.cpp — memory per GPU (see memory.h for the model and its sources). No allocation, no strings.
#include "training/memory.h"

#include <algorithm>
#include <cmath>

#include "training/finetune.h"
#include "training/moe.h"

namespace gpucost {
namespace {

// Framework/workspace allowance per GPU: CUDA context and loaded kernels take 1-2 GB once a model is on the
// GPU (Hugging Face Transformers docs, "Model training anatomy", huggingface.co/docs/transformers/
// model_memory_anatomy, read 2026-12); we take the upper end, 2 GB, to also cover cuBLAS/NCCL workspaces.
constexpr double kFrameworkOverheadBytes = 2e9;
// ZeRO-3 keeps the full weights of the layer being computed and of the one being prefetched.
constexpr double kZero3LiveLayers = 2;

bool HalfPrecisionWeights(Precision p) {
  return p == Precision::kBf16 || p == Precision::kFp16 || p == Precision::kFp8;
}

double ShapeLayerParams(const ModelShape& m) {
  return m.layer_matrix_params() + 9 * static_cast<double>(m.hidden) + m.ffn();  // matrices, biases, two norms
}

double LayerParams(const ModelShape& m) {
  const double embedding = m.embedding_params();
  if (m.params > embedding) return (m.params - embedding) / static_cast<double>(m.layers);
  return ShapeLayerParams(m);
}

}  // namespace

double ShapeParams(const ModelShape& m) {
  if (!m.known()) return 0;
  return static_cast<double>(m.layers) * ShapeLayerParams(m) + m.embedding_params();
}

BytesPerParam BytesPerParamFor(Precision precision, Optimizer optimizer) {
  BytesPerParam b;
  const bool mixed = HalfPrecisionWeights(precision);
  b.weights = mixed ? 2 : 4;
  b.gradients = mixed ? 2 : 4;
  const double master = mixed ? 4 : 0;  // fp32 master copy under mixed precision
  switch (optimizer) {
    case Optimizer::kAdam: b.optimizer = master + 8; break;      // momentum + variance, fp32
    case Optimizer::kAdam8bit: b.optimizer = master + 2; break;  // two 8-bit states
    case Optimizer::kSgd: b.optimizer = master + 4; break;       // fp32 momentum
  }
  return b;
}

double ActivationBytesPerLayer(const ModelShape& m, const Layout& l) {
  // Context parallelism: each GPU holds s / c tokens of the sequence; its scores are (s / c) x s.
  const double s = static_cast<double>(m.seq_len) / static_cast<double>(std::max<std::int64_t>(1, l.context));
  const double b = static_cast<double>(l.micro_batch);
  const double h = static_cast<double>(m.hidden);
  const double a = static_cast<double>(m.heads);
  const double t = static_cast<double>(l.tensor);
  const double sbh = s * b * h;
  // Softmax input/output and dropout mask: not split by SP; a fused attention kernel stores none of them.
  const double attention = l.flash_attention ? 0 : 5 * a * static_cast<double>(m.seq_len) / (h * t);
  // Korthikanti et al. Table 2 per sbh: 10 not split by tensor parallelism (layer-norm, attention and MLP
  // inputs, dropout masks) and 24 split (Q, K, V 6; the projection's input 2; the MLP's 16 = 2 x 2 x 4h for
  // GeLU's input and the second matrix's input). Generalised: K and V scale with kv_width / h, the MLP with
  // ffn_hidden / h, and a gated MLP keeps three b·s·ffn tensors (gate, up and their product) instead of two.
  // Q and the projection's input are heads x head_dim wide (q_width: hidden unless the model states its head size).
  double split = 4 * m.q_width() / h + 4 * m.kv_width() / h + (m.ffn_gated ? 6 : 4) * m.ffn() / h;
  double not_split = 10;
  // Issue 46: a frozen linear layer computes no weight gradient, so its input is kept only when an adapter on it
  // needs it (PyTorch's autograd and Transformer Engine save a linear layer's input only for the weight gradient).
  // With adapters on the attention alone, the MLP's input (not split) and the down projection's (split) go.
  if (m.frozen_base() && m.lora_targets == LoraTargets::kAttention) {
    not_split -= 2;
    split -= 2 * m.ffn() / h;
  }
  // MaxText's save-dot policies (scenario.h) keep the layer input and the outputs of the query, key and value
  // projections (split) and of the output projection, plus the MLP-out output under save_dot_except_mlpwi
  // (not split without sequence parallelism); the rest is recomputed. Fused attention's statistics are
  // s x heads floats, negligible here.
  const double dots_split = 2 * m.q_width() / h + 4 * m.kv_width() / h;
  const double dots_kept = l.recompute == Recompute::kSaveDotExceptMlpwi ? 6 : 4;
  switch (l.recompute) {
    case Recompute::kSaveDotExceptMlpwi:
    case Recompute::kSaveDotExceptMlp:
      return sbh * (l.sequence_parallel ? (dots_kept + dots_split) / t : dots_kept + dots_split / t);
    case Recompute::kFull: return 2 * sbh / (l.sequence_parallel ? t : 1);
    case Recompute::kSelectiveOp: {
      // Korthikanti's tensors less the recomputed matmuls' outputs kept among them: the key (2 kv_width / h) and
      // the up projection's (gated: 2 ffn / h; a two-matrix MLP's recomputed down projection keeps nothing there).
      const double dropped = 2 * m.kv_width() / h + (m.ffn_gated ? 2 * m.ffn() / h : 0);
      return sbh * ((l.sequence_parallel ? (not_split + split - dropped) / t : not_split + (split - dropped) / t) + attention);
    }
    case Recompute::kSelective: return sbh * (l.sequence_parallel ? (not_split + split) / t : not_split + split / t);
    case Recompute::kNone: break;
  }
  return sbh * ((l.sequence_parallel ? (not_split + split) / t : not_split + split / t) + attention);
}

MemoryBreakdown EstimateMemory(const ModelShape& m, const Layout& l, Precision precision, double device_bytes) {
  MemoryBreakdown out;
  out.device_bytes = device_bytes;
  out.overhead_bytes = kFrameworkOverheadBytes;
  const bool shape = m.known();
  if (l.tensor < 1 || l.pipeline < 1 || l.data < 1 || l.micro_batch < 1 || l.interleave < 1 || l.context < 1 ||
      l.zero_stage < 0 || l.zero_stage > 3 || (!shape && m.params <= 0) ||
      (shape && (l.tensor > m.heads || l.pipeline > m.layers)))
    return out;
  out.valid = true;
  const double t = static_cast<double>(l.tensor);
  const double p = static_cast<double>(l.pipeline);
  // ZeRO / the distributed optimizer shard over the data- and context-parallel ranks together (both hold the
  // same weights; Megatron-Core's distributed optimizer uses the data-parallel-with-context group).
  const double d = static_cast<double>(l.data * std::max<std::int64_t>(1, l.context));

  // Model states of a stage holding `params` parameters per GPU, under ZeRO.
  const BytesPerParam bpp = BytesPerParamFor(precision, l.optimizer);
  // Issue 18: routed experts split over expert-parallel ranks (moe.h): unsharded states hold 1/e of them,
  // ZeRO-sharded states the same share as without (sharded over d/e ranks instead of d). Fine-tuning
  // (finetune.h) replaces the states by frozen weights and trained adapters.
  auto set_states = [&](MemoryBreakdown& o, double params, double layers, double layer_params, double embedding) {
    const double n_sharded = params;
    const double n = shape ? params - ExpertParamsElsewhere(m, l, layers) : params;
    o.params_per_gpu = n;
    o.layers_per_stage = layers;
    o.weights_bytes = (l.zero_stage >= 3 ? n_sharded / d : n) * bpp.weights;
    o.gradients_bytes = (l.zero_stage >= 2 ? n_sharded / d : n) * bpp.gradients;
    o.optimizer_bytes = (l.zero_stage >= 1 ? n_sharded / d : n) * bpp.optimizer;
    o.gathered_bytes = 0;
    if (m.finetune != Finetune::kFull) {
      const FinetuneStates f = EstimateFinetuneStates(m, l, precision, n, embedding, layers);
      o.weights_bytes = f.weights_bytes;
      o.gradients_bytes = f.gradients_bytes;
      o.optimizer_bytes = f.optimizer_bytes;
      o.gathered_bytes = f.dequant_bytes;
      o.paged_bytes = f.paged_bytes;
    }
    if (l.zero_stage >= 3 && d > 1)
      o.gathered_bytes = std::min(kZero3LiveLayers, layers > 0 ? layers : 1) * layer_params * bpp.weights;
  };
  if (!shape) {
    set_states(out, m.params / (t * p), 0, 0, 0);
    return out;
  }

  // Three kinds of stage (layout.h, StageLayersOf: uneven splits give the first and last fewer layers):
  //   first  — its layers, the embedding, and the activations of min(p, micro-batches) micro-batches in flight
  //            under 1F1B (Korthikanti et al. section 4.2.3), plus the embedding's dropout mask;
  //   middle — the most layers, one micro-batch fewer in flight (stage r holds p - r), no embedding;
  //   last   — its layers, the output layer, one micro-batch in flight, and the output layer's inputs and
  //            the fp32 logits 4 s b V / t (section 4.3).
  // With v interleaved chunks in-flight activations grow by 1 + (p - 1) / (p v). The reported stage is the one
  // with the largest total; with p = 1 the one stage holds everything.
  const double layer_params = LayerParams(m) / t;
  const StageLayers split = StageLayersOf(m.layers, l.pipeline);
  const double embedding = m.stage_embedding_params(l.pipeline) / t;
  out.activations_known = true;
  const double micro_batches = static_cast<double>(l.micro_batches());
  const double inflight_first = micro_batches > 0 ? std::min(p, micro_batches) : p;
  const double v = static_cast<double>(l.interleave);
  const double interleave_factor = l.interleave > 1 && l.pipeline > 1 ? 1 + (p - 1) / (p * v) : 1;
  const double per_layer = ActivationBytesPerLayer(MoeComputeShape(m), l) * interleave_factor;  // MoE: the active experts' width
  const double sb = static_cast<double>(m.seq_len) / static_cast<double>(l.context) * static_cast<double>(l.micro_batch);
  const double sbh_split = sb * static_cast<double>(m.hidden) / (l.sequence_parallel ? t : 1);
  const double embedding_dropout = sbh_split;
  const double output_layer = 4 * sbh_split + 4 * sb * static_cast<double>(m.vocab) / t;
  struct Stage {
    double layers, params, activations, inflight;
    bool last, middle;
    double embedding;
  };
  const double first_layers = static_cast<double>(split.first), last_layers = static_cast<double>(split.last);
  Stage stages[3];
  int count = 0;
  if (l.pipeline == 1) {
    stages[count++] = {first_layers, first_layers * layer_params + embedding,
                       per_layer * first_layers + embedding_dropout + output_layer, 1, false, false, embedding};
  } else {
    stages[count++] = {first_layers, first_layers * layer_params + embedding,
                       inflight_first * (per_layer * first_layers + embedding_dropout), inflight_first, false, false, embedding};
    stages[count++] = {last_layers, last_layers * layer_params + embedding, per_layer * last_layers + output_layer, 1, true, false, embedding};
    if (l.pipeline > 2) {
      const double middle = static_cast<double>(split.middle), inflight = std::max(1.0, inflight_first - 1);
      stages[count++] = {middle, middle * layer_params, inflight * per_layer * middle, inflight, false, true, 0};
    }
  }
  MemoryBreakdown largest = out;
  for (int i = 0; i < count; ++i) {
    MemoryBreakdown c = out;
    set_states(c, stages[i].params, stages[i].layers, layer_params, stages[i].embedding);
    c.activations_bytes = stages[i].activations;
    c.inflight_micro_batches = stages[i].inflight;
    c.last_stage = stages[i].last;
    c.middle_stage = stages[i].middle;
    if (i == 0 || c.total_bytes() > largest.total_bytes()) largest = c;
  }
  return largest;
}

namespace {

// Appends powers of two from 1 up to `limit` to `out` (at most 31); returns the count.
int PowersOfTwo(std::int64_t limit, std::int64_t* out) {
  int n = 0;
  for (std::int64_t v = 1; v <= limit && n < 31; v *= 2) out[n++] = v;
  return n;
}

// Ordering of equally sized layouts: lower ZeRO stage, lower recompute, lower pipeline (fewer bubbles), lower
// tensor. Tensor parallelism stays inside a node (NVLink), so it is preferred to pipeline stages, as in
// Megatron-LM practice (tensor 8 within a node, then pipeline; Narayanan et al. 2021, section 3.3).
bool Preferred(const Layout& a, const Layout& b) {
  if (a.zero_stage != b.zero_stage) return a.zero_stage < b.zero_stage;
  if (a.recompute != b.recompute) return a.recompute < b.recompute;
  if (a.pipeline != b.pipeline) return a.pipeline < b.pipeline;
  return a.tensor < b.tensor;
}

}  // namespace

LayoutFit SmallestFittingLayout(const ModelShape& m, const Layout& base, Precision precision, double device_bytes,
                                const MemorySearchSpace& space) {
  LayoutFit best;
  std::int64_t tensors[31], pipes[31], datas[31];
  const std::int64_t max_tensor = m.known() ? std::min(space.max_tensor, m.heads) : space.max_tensor;
  const std::int64_t layer_limit = m.known() ? m.layers : 1 << 12;
  const std::int64_t max_pipe = space.max_pipeline > 0 ? std::min(space.max_pipeline, layer_limit) : layer_limit;
  const int nt = PowersOfTwo(max_tensor, tensors);
  const int np = PowersOfTwo(max_pipe, pipes);
  const int nd = PowersOfTwo(space.max_gpus, datas);
  const int zero_lo = space.vary_zero_stage ? 0 : static_cast<int>(base.zero_stage);
  const int zero_hi = space.vary_zero_stage ? 3 : static_cast<int>(base.zero_stage);
  const int re_lo = static_cast<int>(base.recompute);
  // Varied: from the scenario's policy up to full (a MaxText policy is kept as it is).
  const int re_hi = space.vary_recompute ? std::max(re_lo, static_cast<int>(Recompute::kFull)) : re_lo;
  for (int ti = 0; ti < nt; ++ti) {
    if (m.known() && (m.heads % tensors[ti] != 0 || (m.kv_heads > 0 && m.kv_heads % tensors[ti] != 0))) continue;
    for (int pi = 0; pi < np; ++pi)
      for (int di = 0; di < nd; ++di) {
        const std::int64_t gpus = tensors[ti] * pipes[pi] * datas[di];
        if (gpus > space.max_gpus || (space.exact_gpus > 0 && gpus != space.exact_gpus)) continue;
        if (best.found && gpus > best.layout.gpus()) continue;
        if (base.global_batch > 0 && datas[di] * base.micro_batch > base.global_batch) continue;
        for (int z = zero_lo; z <= zero_hi; ++z)
          for (int re = re_lo; re <= re_hi; ++re) {
            Layout l = base;
            l.tensor = tensors[ti];
            l.pipeline = pipes[pi];
            l.data = datas[di];
            l.zero_stage = z;
            l.recompute = static_cast<Recompute>(re);
            if (l.pipeline == 1) l.interleave = 1;
            if (l.tensor == 1) l.sequence_parallel = false;
            const MemoryBreakdown mem = EstimateMemory(m, l, precision, device_bytes);
            if (!mem.fits()) continue;
            if (best.found && gpus == best.layout.gpus() && !Preferred(l, best.layout)) continue;
            best.found = true;
            best.layout = l;
            best.memory = mem;
          }
      }
  }
  return best;
}

}  // namespace gpucost
