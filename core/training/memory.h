// memory.h — GPU memory per device for one parallel layout: model states (weights, gradients, optimizer
// state), activations, framework overhead, against the device's HBM. Plain values in and out, no strings,
// no allocation: the layout search (plan.h) calls EstimateMemory() for hundreds of thousands of layouts.
//
// Model (all figures in bytes; 1 GB = 1e9 bytes at the edges):
//   * Bytes per parameter (Rajbhandari et al. 2020, "ZeRO", arXiv:1910.02054, section 3.1):
//       weights   2 (bf16/fp16/fp8 training keeps 16-bit weights) or 4 (tf32/fp32)
//       gradients 2 or 4, as the weights
//       optimizer mixed-precision Adam: 12 (fp32 master copy 4 + momentum 4 + variance 4; the paper's K = 12);
//                 fp32 Adam: 8 (the weights are the master copy);
//                 8-bit Adam (Dettmers et al. 2021, arXiv:2110.02861): 2 (two 8-bit states) + 4 fp32 master
//                 copy under mixed precision;
//                 SGD with momentum: 4 (momentum) + 4 fp32 master copy under mixed precision.
//   * ZeRO over the data-parallel group d (same paper, Figure 1): stage 1 divides the optimizer state by d,
//     stage 2 also the gradients, stage 3 also the weights. Stage 3 additionally materialises the full
//     weights of the layers being computed (current + prefetched: 2 layers), reported as `gathered_bytes`.
//   * Tensor parallelism t divides every layer's weights and the vocabulary-parallel embedding by t.
//     Pipeline parallelism p gives each stage ceil(L / p) layers; the first stage holds the word embedding
//     (V x h) and the last stage the output layer (tied to the embedding, Megatron-LM style: a copy when
//     p > 1). Both hold the same weights; the reported stage is the one with more activations (usually
//     the first, which holds the most in-flight micro-batches; see last_stage).
//   * Parameters per layer: when workload.params is given, (params - V h) / L (so GQA/SwiGLU models keep
//     their own count); else 12 h^2 + 13 h with ffn = 4h (Narayanan et al. 2021, arXiv:2104.04473, eq. 2),
//     in general 4 h^2 + 2 h ffn + 9 h + ffn.
//   * Activations per layer and micro-batch (Korthikanti et al. 2022, "Reducing Activation Recomputation in
//     Large Transformer Models", arXiv:2205.05198, Table 2; s = seq_len, b = micro_batch, h = hidden,
//     a = heads, t = tensor parallel):
//       no recompute, no SP:       s b h (10 + 24/t + 5 a s / (h t))
//       no recompute, SP:          s b h (34/t + 5 a s / (h t))
//       selective, no SP:          s b h (10 + 24/t)
//       selective, SP:             s b h (34/t)
//       full recompute:            2 s b h (only each layer's input; / t with SP)
//     The first pipeline stage keeps activations of min(p, micro-batches per step) micro-batches in flight
//     under 1F1B (section 4.2.3: p micro-batches x L/p layers = L layers' worth); with v interleaved virtual
//     stages the factor is 1 + (p - 1) / (p v). The first stage also stores the embedding dropout mask,
//     s b h per in-flight micro-batch (/ t with SP); the last stage (one micro-batch in flight) stores the
//     final layer norm and output projection inputs (2 s b h each, / t with SP) and the fp32 logits of the
//     cross entropy, 4 s b V / t (section 4.3). Activations are those of the larger of the two stages
//     (reported in last_stage); with p = 1 the one stage holds both.
//   * Issue 18: uneven stages (layout.h StageLayersOf) — the first and last stages hold fewer layers, a middle
//     stage the most (with one micro-batch fewer in flight); the reported stage is the one with the largest
//     total. A fused attention kernel (flash_attention) stores no scores (the 5 a s / (h t) term goes);
//     context parallelism c divides the tokens a GPU holds by c; ZeRO shards over data x context ranks.
//     Device capacity: the datasheet's "80 GB" is 80 GiB (catalog.cpp, ResolveHardware).
//   * Framework/workspace overhead: a fixed allowance for the CUDA context and kernels, cuBLAS/NCCL
//     workspaces and allocator fragmentation (kFrameworkOverheadBytes in memory.cpp, sourced there).
// Without a model shape (layers, hidden, heads, seq_len, vocab), model states come from params alone
// (params / (t p)) and activations are unknown (activations_known = false; `fits` then judges model states
// and overhead only).
#pragma once
#include <cstdint>

#include "training/layout.h"
#include "scenario/scenario.h"

namespace gpucost {

struct MemoryBreakdown {
  // Parts, bytes per GPU (the reported pipeline stage). total_bytes() is their sum.
  double weights_bytes = 0;
  double gradients_bytes = 0;
  double optimizer_bytes = 0;
  double gathered_bytes = 0;       // ZeRO-3: full weights of the layers in use (0 for stages 0-2)
  double activations_bytes = 0;    // 0 when unknown (see activations_known)
  double overhead_bytes = 0;       // framework / workspace allowance
  // Context.
  double params_per_gpu = 0;       // parameters held by the reported stage before ZeRO-3 sharding
  double layers_per_stage = 0;
  double inflight_micro_batches = 0;  // micro-batches whose activations the reported stage holds
  bool last_stage = false;         // the reported stage: false = first (usually the largest), true = last
  bool middle_stage = false;       // the reported stage is a middle one (uneven stages: the most layers)
  double device_bytes = 0;
  bool activations_known = false;
  bool valid = false;              // false: the layout cannot hold this shape (degree of 0, t > heads, ...)

  double model_states_bytes() const { return weights_bytes + gradients_bytes + optimizer_bytes; }
  double total_bytes() const {
    return model_states_bytes() + gathered_bytes + activations_bytes + overhead_bytes;
  }
  // Issue 18: of optimizer_bytes, the part in paged memory that moves to CPU memory when the GPU runs short
  // (QLoRA's paged AdamW, finetune.h): counted in the total, not needed resident for a fit.
  double paged_bytes = 0;
  double resident_bytes() const { return total_bytes() - paged_bytes; }
  double headroom_bytes() const { return device_bytes - resident_bytes(); }  // negative when it does not fit
  bool fits() const { return valid && resident_bytes() <= device_bytes; }
};

// Bytes per parameter for weights, gradients and optimizer state at a precision and optimizer.
struct BytesPerParam {
  double weights = 0, gradients = 0, optimizer = 0;
};
BytesPerParam BytesPerParamFor(Precision precision, Optimizer optimizer);

// Memory per GPU of `shape` trained with `layout` at `precision` on a device of `device_bytes` HBM.
// Cheap and allocation-free. shape.params > 0 or a known shape is required (else valid = false).
MemoryBreakdown EstimateMemory(const ModelShape& shape, const Layout& layout, Precision precision,
                               double device_bytes);

// Parameters implied by the shape alone: L (4 h^2 + 2 h ffn + 9 h + ffn) + V h (0 when the shape is unknown).
double ShapeParams(const ModelShape& shape);

// Activation bytes of one transformer layer for one micro-batch (Korthikanti et al. 2022, Table 2).
double ActivationBytesPerLayer(const ModelShape& shape, const Layout& layout);

// The search space of SmallestFittingLayout(). Degrees are powers of two; the micro-batch, global batch,
// sequence parallelism, interleaving, optimizer and recompute of the base layout are kept (optionally
// recompute is raised: none -> selective -> full).
struct MemorySearchSpace {
  std::int64_t max_gpus = 1 << 20;      // largest GPU count tried
  std::int64_t max_tensor = 8;          // tensor parallel stays inside a node (use gpus_per_node)
  std::int64_t max_pipeline = 0;        // 0: up to the layer count
  bool vary_zero_stage = true;          // try ZeRO 0-3 (else keep the base layout's stage)
  bool vary_recompute = false;          // also try stronger recompute than the base layout's
  std::int64_t exact_gpus = 0;          // > 0: only layouts with exactly this many GPUs
};

struct LayoutFit {
  bool found = false;
  Layout layout;                        // the smallest fitting layout (when found)
  MemoryBreakdown memory;               // its memory
};

// The smallest layout that fits: fewest GPUs first; among equal GPU counts the lowest ZeRO stage, then the
// lowest recompute, then the lowest pipeline degree, then the lowest tensor degree (tensor parallelism stays
// inside a node, up to space.max_tensor).
// Tensor degrees divide the head count; the data-parallel degree times the micro-batch must not exceed the
// global batch when that is known. Tries at most ~ 4 x 11 x 21 x 4 x 3 layouts (microseconds each).
LayoutFit SmallestFittingLayout(const ModelShape& shape, const Layout& base, Precision precision,
                                double device_bytes, const MemorySearchSpace& space = MemorySearchSpace());

}  // namespace gpucost
