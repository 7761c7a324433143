// memory.cpp — memory per GPU (see memory.h for the model and its sources). No allocation, no strings.
#include "memory.h"

#include <algorithm>
#include <cmath>

#include "finetune.h"
#include "moe.h"

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
  const double s = static_cast<double>(m.seq_len);
  const double b = static_cast<double>(l.micro_batch);
  const double h = static_cast<double>(m.hidden);
  const double a = static_cast<double>(m.heads);
  const double t = static_cast<double>(l.tensor);
  const double sbh = s * b * h;
  const double attention = 5 * a * s / (h * t);  // softmax input/output and dropout mask: not split by SP
  // Korthikanti et al. Table 2 per sbh: 10 not split by tensor parallelism (layer-norm, attention and MLP
  // inputs, dropout masks) and 24 split (Q, K, V 6; the projection's input 2; the MLP's 16 = 2 x 2 x 4h for
  // GeLU's input and the second matrix's input). Generalised: K and V scale with kv_width / h, the MLP with
  // ffn_hidden / h, and a gated MLP keeps three b·s·ffn tensors (gate, up and their product) instead of two.
  const double split = 4 + 4 * m.kv_width() / h + (m.ffn_gated ? 6 : 4) * m.ffn() / h;
  const double not_split = 10;
  switch (l.recompute) {
    case Recompute::kFull: return 2 * sbh / (l.sequence_parallel ? t : 1);
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
  if (l.tensor < 1 || l.pipeline < 1 || l.data < 1 || l.micro_batch < 1 || l.interleave < 1 ||
      l.zero_stage < 0 || l.zero_stage > 3 || (!shape && m.params <= 0) ||
      (shape && (l.tensor > m.heads || l.pipeline > m.layers)))
    return out;
  out.valid = true;
  const double t = static_cast<double>(l.tensor);
  const double p = static_cast<double>(l.pipeline);
  const double d = static_cast<double>(l.data);

  // Parameters on the reported (first) stage.
  double layer_params = 0;
  if (shape) {
    layer_params = LayerParams(m) / t;
    out.layers_per_stage = std::ceil(static_cast<double>(m.layers) / p);
    const double embedding = m.stage_embedding_params(l.pipeline) / t;
    out.params_per_gpu = out.layers_per_stage * layer_params + embedding;
  } else {
    out.params_per_gpu = m.params / (t * p);
  }

  // Model states under ZeRO.
  const BytesPerParam bpp = BytesPerParamFor(precision, l.optimizer);
  // Issue 18: routed experts split over expert-parallel ranks (moe.h): unsharded states hold 1/e of them,
  // ZeRO-sharded states the same share as without (sharded over d/e ranks instead of d).
  const double n_sharded = out.params_per_gpu;
  if (shape) out.params_per_gpu -= ExpertParamsElsewhere(m, l, out.layers_per_stage);
  const double n = out.params_per_gpu;
  out.weights_bytes = (l.zero_stage >= 3 ? n_sharded / d : n) * bpp.weights;
  out.gradients_bytes = (l.zero_stage >= 2 ? n_sharded / d : n) * bpp.gradients;
  out.optimizer_bytes = (l.zero_stage >= 1 ? n_sharded / d : n) * bpp.optimizer;
  if (m.finetune != Finetune::kFull) {  // issue 18: frozen weights and trained adapters (finetune.h)
    const double embedding = shape ? m.stage_embedding_params(l.pipeline) / t : 0;
    const FinetuneStates f = EstimateFinetuneStates(m, l, precision, n, embedding, out.layers_per_stage);
    out.weights_bytes = f.weights_bytes;
    out.gradients_bytes = f.gradients_bytes;
    out.optimizer_bytes = f.optimizer_bytes;
    out.gathered_bytes = f.dequant_bytes;
    out.paged_bytes = f.paged_bytes;
  }
  if (l.zero_stage >= 3 && d > 1)
    out.gathered_bytes = std::min(kZero3LiveLayers, out.layers_per_stage > 0 ? out.layers_per_stage : 1) *
                         (shape ? layer_params : 0) * bpp.weights;

  // Activations: the first stage (most micro-batches in flight) or the last (output layer), the larger.
  if (shape) {
    out.activations_known = true;
    const double micro_batches = static_cast<double>(l.micro_batches());
    const double inflight_first = micro_batches > 0 ? std::min(p, micro_batches) : p;
    const double v = static_cast<double>(l.interleave);
    const double interleave_factor = l.interleave > 1 && l.pipeline > 1 ? 1 + (p - 1) / (p * v) : 1;
    const double per_layer = ActivationBytesPerLayer(MoeComputeShape(m), l);  // MoE: the active experts' width
    const double sb = static_cast<double>(m.seq_len) * static_cast<double>(l.micro_batch);
    const double sbh_split = sb * static_cast<double>(m.hidden) / (l.sequence_parallel ? t : 1);
    // Korthikanti et al. section 4.3: embedding dropout mask s b h (first stage); final layer norm and output
    // projection inputs 2 s b h each and the fp32 logits for the cross entropy 4 s b V / t (last stage).
    const double embedding_dropout = sbh_split;
    const double output_layer = 4 * sbh_split + 4 * sb * static_cast<double>(m.vocab) / t;
    const double first = inflight_first * (per_layer * out.layers_per_stage * interleave_factor + embedding_dropout);
    const double last = per_layer * out.layers_per_stage * interleave_factor + output_layer;  // 1 in flight
    if (l.pipeline == 1) {
      out.inflight_micro_batches = 1;
      out.activations_bytes = first + output_layer;
    } else {
      out.last_stage = last > first;
      out.inflight_micro_batches = out.last_stage ? 1 : inflight_first;
      out.activations_bytes = out.last_stage ? last : first;
    }
  }
  return out;
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
  const int re_hi = space.vary_recompute ? static_cast<int>(Recompute::kFull) : re_lo;
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
