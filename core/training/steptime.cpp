// steptime.cpp — the step-time model (see steptime.h for the model and its sources).
#include "training/steptime.h"
#include "base/i18n.h"
#include "base/numeric.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "hardware/calibration.h"
#include "hardware/catalog.h"
#include "hardware/comm.h"
#include "hardware/framework.h"
#include "training/finetune.h"
#include "training/memory.h"
#include "training/moe.h"
#include "hardware/probe.h"

namespace gpucost {
namespace {

// Efficiency tables: (size, efficiency) pairs in increasing size, interpolated linearly in log(size).
// GEMM: the shape of Calculon's A100 matrix-unit efficiency by GEMM size (calculon-ai/calculon
// examples/a100.json: 128 GFLOP 0.99, 16 GFLOP 0.9, 1 GFLOP 0.6, towards 0.1 for tiny GEMMs), scaled so
// that the largest GEMMs reach kBestGemmFractionOfDensePeak (catalog.h) of the dense peak.
struct Point {
  double size, efficiency;
};
constexpr double kScale = kBestGemmFractionOfDensePeak / 0.99;
constexpr Point kGemmCurve[] = {{1e7, 0.10 * kScale}, {1e9, 0.60 * kScale}, {16e9, 0.90 * kScale}, {128e9, 0.99 * kScale}};
// HBM: the same file's memory efficiency by transfer size in MB (100 MB 0.95, 10 MB 0.9, 1 MB 0.7, small 0.3).
constexpr Point kHbmCurve[] = {{1e4, 0.30}, {1e6, 0.70}, {1e7, 0.90}, {1e8, 0.95}};

// log2(x) for x > 0 to about 2e-4: the exponent bits plus a short series for the mantissa in [1, 2)
// (log2 m = 2/ln 2 (u + u^3/3 + u^5/5 + ...), u = (m-1)/(m+1) <= 1/3). Cheaper than std::log in the
// search's inner loop; plain IEEE arithmetic, so native and WebAssembly agree bit for bit.
double FastLog2(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;  // mantissa as a double in [1, 2)
  double m;
  std::memcpy(&m, &bits, sizeof m);
  const double u = (m - 1) / (m + 1), u2 = u * u;
  return exponent + 2.8853900817779268 * u * (1 + u2 * (1.0 / 3 + u2 * (1.0 / 5 + u2 / 7)));
}

template <std::size_t N>
double Interpolate(const Point (&curve)[N], double size) {
  if (size <= curve[0].size) return curve[0].efficiency;
  for (std::size_t i = 1; i < N; ++i) {
    if (size <= curve[i].size) {
      const double x = FastLog2(size / curve[i - 1].size) / FastLog2(curve[i].size / curve[i - 1].size);
      return curve[i - 1].efficiency + x * (curve[i].efficiency - curve[i - 1].efficiency);
    }
  }
  return curve[N - 1].efficiency;
}

// Time of one GEMM (m x k) . (k x n), `batch` times, on one GPU: compute at the size-dependent efficiency,
// never faster than moving operands and result through HBM.
// A thin GEMM wastes part of every tile: each output tile runs a k-loop whose prologue and epilogue (loading
// the first operand tiles, writing the result) cost about kTileOverhead iterations of width 1, so a GEMM whose
// smallest dimension is d does d / (d + kTileOverhead) of its work at the tile rate. This is what makes the
// attention GEMMs (k or n = head dimension, 64-128) and small per-GPU matrices after the tensor-parallel
// split slower than their FLOPs alone say (CUTLASS's 128 x 128 x 64 / 128 x 256 x 64 tiles; fitted on the
// measured runs of tests/data/measured_runs.json: 64).
// (The value lives in StepHardware::tile_overhead so that the cross-validation (evidence.h) can refit it.)
// The backward GEMMs (input gradient: A x W^T; weight gradient: X^T x dY, a reduction over all b·s tokens
// accumulated into the fp32 main gradient) run below the forward's rate: transposed operand layouts and the
// fp32 read-modify-write of the gradient buffer. Megatron-LM kernel timings put the backward of a linear layer
// at ~2.2x its forward for 2x the FLOPs. Issue 46: LoRA's frozen base computes only the input gradients, which
// separates the two rates; fitted on assets/validation/measured_runs.json with the fine-tuning runs: the weight
// gradients at 0.80 of the forward's rate, the input gradients at 0.90 (1.00 before packed SFT attended
// within each document; the grid is 0.80, 0.90, 1.00).
// (StepHardware::backward_gemm_rate, refit by the cross-validation like tile_overhead.)
}  // namespace

double ShapeEfficiency(double m, double k, double n, double tile_overhead) {
  const double d = std::min({m, k, n});
  return d / (d + tile_overhead);
}

namespace {

}  // namespace
const double kFittedBackwardGemmRate = 0.80;
const double kFittedInputGradGemmRate = 0.90;
namespace {

double GemmSeconds(double m, double k, double n, double batch, const StepHardware& hw) {
  const double flops = 2 * m * k * n * batch;
  const double bytes = hw.bytes_per_element * (m * k + k * n + m * n) * batch;
  const double compute =
      flops / (hw.peak_flops * hw.kernel_efficiency * GemmEfficiency(flops) * (hw.gemm_ceiling / kBestGemmFractionOfDensePeak) *
               ShapeEfficiency(m, k, n, hw.tile_overhead));
  const double memory = bytes / (hw.hbm_bytes_per_s * HbmEfficiency(bytes));
  return std::max(compute, memory);
}

double MemorySeconds(double bytes, double chunk_bytes, const StepHardware& hw) {
  return bytes / (hw.hbm_bytes_per_s * HbmEfficiency(chunk_bytes));
}


// One layer, one micro-batch, on one GPU of the tensor- and context-parallel group. Each field is a named
// term of the model; a new term (e.g. a mixture-of-experts all-to-all) is one more field, filled here and
// added where the stage sums its parts (StageOf).
struct LayerTimes {
  double gemm_forward = 0;      // QKV, projection, MLP
  double gemm_mlp_input_forward = 0;  // the MLP's input projections (gate and up; part of gemm_forward)
  double gemm_every_second_forward = 0;  // the 2nd, 4th and 6th matmuls (torchtitan's per-op checkpointing)
  double attention_forward = 0; // scores and values (batched over heads)
  double attention_backward = 0;// their gradients (2x forward; 2.5x with a fused kernel, which recomputes)
  double memory_forward = 0;    // elementwise on b·s·h and b·s·f
  double attention_memory_forward = 0;  // softmax/scale/mask/dropout on the scores (0 with fused attention)
  double memory_backward = 0;
  double tp_forward = 0;        // tensor-parallel collectives of the forward
  double tp_backward = 0;
  double cp_forward = 0;        // context-parallel ring exchange of keys and values (exposed part)
  double cp_backward = 0;
  // Issue 46, fine-tuning with a frozen base (finetune.h): the adapters' own GEMMs (forward; their backward computes
  // input and weight gradients, twice that), their elementwise work (dropout on the input, the add to the frozen
  // output; forward and backward), and the frozen weights' de-quantisation to the compute precision before each
  // pass that multiplies by them (QLoRA's NF4; FP8-stored weights in a 16-bit GEMM).
  double adapter_forward = 0;
  double adapter_memory = 0;
  double dequant_pass = 0;
};

// Issue 46: a LoRA layer (finetune.h AdaptedMatricesOf): each adapted matrix W (in x out) gets x A B with A (in x r)
// and B (r x out) beside it (Hu et al. 2021, arXiv:2106.09685, section 4.1), tensor-parallel split like W (NeMo's
// ParallelLinearAdapter). The adapters' GEMMs are rank-thin (r = 8-64): they run at the memory roofline and the
// thin-GEMM tile rate (GemmSeconds), in 16 bits under FP8 training too (Transformer Engine casts only its own
// linear layers). Elementwise: the add of the adapter's output to W's (two reads, a write) in the forward; the
// backward passes the gradient through the add unchanged (an adapter dropout, 0 in most recipes, is not counted). The frozen weights are
// de-quantised before every pass that multiplies by them when they are stored narrower than the GEMM computes
// (QLoRA: NF4 to 16 bits, bitsandbytes' dequantize before each matmul, forward and backward; FP8-stored weights in
// a 16-bit job): read at the stored width, written at 16 bits (the GEMM's own read is in GemmSeconds).
void AdapterTimes(const ModelShape& m, const Layout& l, const StepHardware& hw, double tokens, LayerTimes* r) {
  StepHardware adapter_hw = hw;
  if (hw.attention_peak_flops > 0) adapter_hw.peak_flops = hw.attention_peak_flops;  // 16-bit under FP8 training
  const double t = D(l.tensor), rank = D(m.lora_rank), e = hw.bytes_per_element;
  AdaptedMatrix a[8];
  const int n = AdaptedMatricesOf(m, a);
  double elementwise = 0;
  for (int i = 0; i < n; ++i) {
    const double in = a[i].row_parallel ? a[i].in / t : a[i].in, out = a[i].row_parallel ? a[i].out : a[i].out / t;
    r->adapter_forward += a[i].count * (GemmSeconds(tokens, in, rank, 1, adapter_hw) + GemmSeconds(tokens, rank, out, 1, adapter_hw));
    elementwise += a[i].count * tokens * out * 3 * e;
  }
  r->adapter_memory = MemorySeconds(elementwise, tokens * D(m.hidden) * e, hw);
  const double stored = FrozenBytesPerParam(m, e);
  const double operand = hw.fp8_linear ? 1 : e;  // FP8 training multiplies FP8-stored weights as they are
  if (stored < operand) {
    const double layer_weights = m.active_layer_matrix_params() / t;
    r->dequant_pass = MemorySeconds(layer_weights * (stored + e), layer_weights * e, hw);
  }
}

LayerTimes LayerTimesOf(const ModelShape& m, const Layout& l, const StepHardware& hw, const Links& links) {
  LayerTimes r;
  const double cp = D(l.context);
  const double b = D(l.micro_batch), s = D(m.seq_len), s_local = s / cp, h = D(m.hidden), f = D(m.ffn_hidden);
  const double t = D(l.tensor), heads = D(m.heads), e = hw.bytes_per_element;
  const double tokens = b * s_local;
  const double up_matrices = m.ffn_gated ? 2 : 1;  // gated MLP: gate and up projections
  // The layer's distinct GEMMs, each timed once.
  const double up = GemmSeconds(tokens, h, f / t, 1, hw);       // gate or up projection
  const double down = GemmSeconds(tokens, f / t, h, 1, hw);     // down projection
  const double output = GemmSeconds(tokens, h / t, h, 1, hw);   // attention output projection
  r.gemm_mlp_input_forward = up_matrices * up;
  // The layer's matmuls in order: query, key, value, output, then gate, up, down (gated) or up, down: the key,
  // the output projection and the sixth (up) or the fifth-and-last (down) are the even ones.
  r.gemm_every_second_forward = GemmSeconds(tokens, h, m.kv_width() / t, 1, hw) + output + (m.ffn_gated ? up : down);
  r.gemm_forward = GemmSeconds(tokens, h, (h + 2 * m.kv_width()) / t, 1, hw) + output + r.gemm_mlp_input_forward + down;
  const double head_dim = m.head_dim_or_default(), local_heads = heads / t;  // issue 26: the stated head size
  // The local queries (s / cp of them) against all s keys.
  StepHardware attention_hw = hw;  // FP8 training keeps the attention core at 16 bits
  if (hw.attention_peak_flops > 0) attention_hw.peak_flops = hw.attention_peak_flops;
  // A fused (Flash) kernel with the causal mask skips the key blocks after each query block: a query attends to
  // s / 2 keys on average (FlashAttention-2, Dao 2023, section 3.1.1). Unfused attention computes every score
  // and masks after. Issue 46: with packed short documents (SFT) a fused kernel given the documents' boundaries
  // (THD, cu_seqlens) attends within each document only: half its length on average.
  const double keys = l.flash_attention ? m.attention_span() / 2 : s;
  r.attention_forward = 2 * GemmSeconds(s_local, head_dim, keys, b * local_heads, attention_hw);
  r.attention_backward = (l.flash_attention ? 2.5 : 2.0) * r.attention_forward;
  const double scores = b * local_heads * s_local * s;
  double attention_memory_backward = 0;
  if (!l.flash_attention) {
    // Attention scores: softmax (read + write), dropout (read + write + 1-byte mask) forward;
    // backward reads the gradient, mask and softmax output and writes two gradients.
    r.attention_memory_forward = MemorySeconds(scores * (4 * e + 1), scores * e, hw);
    attention_memory_backward = MemorySeconds(scores * (5 * e + 1), scores * e, hw);
  }
  // b·s·h tensors: 2 layer norms (r+w), 2 dropouts (r+w+mask), 2 residual adds (2r+w) = 14e + 2 bytes per
  // element forward, about twice that backward; split by t only with sequence parallelism.
  const double hidden_elems = tokens * h / (l.sequence_parallel ? t : 1.0);
  // GeLU: r+w forward, 2r+w backward; gated (SiLU(gate) x up): 2r+w forward, 3r+2w backward.
  const double ffn_elems = tokens * f / t;
  const double ffn_forward_bytes = (m.ffn_gated ? 3 : 2) * e, ffn_backward_bytes = (m.ffn_gated ? 5 : 3) * e;
  // FP8 casts: every linear layer's input (forward) and output gradient (backward) is read at 16 bits and
  // written as FP8 and as its FP8 transpose (for the weight-gradient GEMM): 4 bytes per element. Inputs: the
  // QKV and MLP inputs (b·s·h each), the projection input (b·s·h/t), the down projection's (b·s·f/t);
  // gradients of the same sizes on the output side.
  // A frozen layer computes no weight gradient, so neither cast needs the transpose (issue 46): 3 bytes per element.
  double cast_bytes = 0;
  if (hw.fp8_linear) cast_bytes = (m.frozen_base() ? 3 : 4) * tokens * (2 * h + h / t + f / t);
  // Issue 46: eager PyTorch (no torch.compile, no fused kernels) runs each op as a kernel of its own. An RMSNorm as
  // composed in PyTorch (pow, mean, + eps, rsqrt, x * r, * weight: torch.nn.RMSNorm before its fused kernel,
  // torchtitan's and Hugging Face's Llama norms) reads x three times and writes twice where a fused norm reads and
  // writes once: +5e per element forward, +10e backward (autograd's saved inputs and a kernel per op's gradient). A
  // gated MLP's silu(gate) x up as two kernels writes and re-reads silu(gate): +2e forward, +4e backward. LayerNorm
  // and GeLU are one ATen kernel each even in eager mode; rotary embeddings' eager ops are not counted (a lower bound).
  double eager_forward = 0, eager_backward = 0;
  if (!l.fused_elementwise) {
    const bool rms = m.ffn_gated;  // Llama-family shapes (gated MLP) use RMSNorm; GPT-family LayerNorm and GeLU
    eager_forward = (rms ? hidden_elems * 2 * 5 * e : 0) + (m.ffn_gated ? ffn_elems * 2 * e : 0);
    eager_backward = 2 * eager_forward;
  }
  r.memory_forward = MemorySeconds(hidden_elems * (14 * e + 2) + ffn_elems * ffn_forward_bytes + cast_bytes + eager_forward, hidden_elems * e, hw);
  r.memory_backward = MemorySeconds(hidden_elems * 2 * (14 * e + 2) + ffn_elems * ffn_backward_bytes + cast_bytes + eager_backward, hidden_elems * e, hw) +
                      attention_memory_backward;
  if (m.frozen_base()) AdapterTimes(m, l, hw, tokens, &r);
  // Tensor-parallel collectives of the full activation b·s·h.
  if (l.tensor > 1) {
    const Group g = GroupOf(l.tensor, 1, hw.gpus_per_node);
    const double bytes = tokens * h * e;
    if (l.sequence_parallel) {
      const double pair = AllGatherSeconds(bytes, g, links) + ReduceScatterSeconds(bytes, g, links);
      r.tp_forward = 2 * pair;
      r.tp_backward = 2 * pair + 2 * AllGatherSeconds(bytes, g, links);  // + re-gather of the norm outputs
    } else {
      r.tp_forward = r.tp_backward = 2 * AllReduceSeconds(bytes, g, links);
    }
    if (l.tp_overlap) {  // chunked behind the layer's GEMMs: one chunk and any excess stay exposed
      r.tp_forward = std::max(r.tp_forward / t, r.tp_forward - r.gemm_forward);
      r.tp_backward = std::max(r.tp_backward / t, r.tp_backward - 2 * r.gemm_forward);
    }
  }
  // Context parallel (ring attention): the keys and values of the other cp - 1 chunks pass around the ring
  // while each block's attention runs; the backward passes them again with their gradients (twice the bytes).
  if (l.context > 1) {
    const Group g = GroupOf(l.context, l.tensor, hw.gpus_per_node);
    const double kv_bytes = 2 * tokens * m.kv_width() / t * e * cp;  // K and V of the whole sequence
    const double ring = AllGatherSeconds(kv_bytes, g, links);
    r.cp_forward = std::max(0.0, ring - r.attention_forward);
    r.cp_backward = std::max(0.0, 2 * ring - r.attention_backward);
  }
  return r;
}

// Data-parallel communication `comm` of a stage overlapped with one pass of its model chunks (Megatron-LM's
// bucketed overlap of gradient reduction and parameter gathers): each of the v chunks' share (comm / v) can
// start when that chunk's last pass ends; the last chunk's share overlaps only its own pass (chunk_seconds),
// and all of it overlaps at most the cool-down (warm-up) of the interleaved 1F1B schedule, which has
// 2 (p-1) + (v-1) p chunk passes on the first stage (Megatron-LM's num_warmup_microbatches), or one pass
// without interleaving.
double ExposedAfterOverlap(double comm, double chunk_seconds, const Layout& l, double micro_batches) {
  if (comm <= 0) return 0;
  const double v = D(l.interleave);
  const double passes = l.interleave == 1 ? 1.0
                                          : std::min(micro_batches * v, D(2 * (l.pipeline - 1) + (l.interleave - 1) * l.pipeline));
  return std::max({0.0, comm / v - chunk_seconds, comm - passes * chunk_seconds});
}

// The last stage's logits and vocabulary softmax, one micro-batch (forward + backward).
double LogitsSeconds(const ModelShape& m, const Layout& l, const StepHardware& hw) {
  const double tokens = D(l.micro_batch) * D(m.seq_len) / D(l.context), vocab_local = D(m.vocab) / D(l.tensor);
  const double gemm = GemmSeconds(tokens, D(m.hidden), vocab_local, 1, hw);
  const double softmax_bytes = tokens * vocab_local * hw.bytes_per_element;
  // Forward, input gradient and weight gradient; a frozen output layer (issue 46: LoRA) computes no weight gradient.
  return (m.frozen_base() ? 2 : 3) * gemm + MemorySeconds(4 * softmax_bytes, softmax_bytes, hw);
}

// One micro-batch's work on one pipeline stage of `layers` layers (forward + backward + recompute), as the
// named parts of StepTime (seconds).
struct StageTimes {
  double compute = 0, memory = 0, recompute = 0, tp = 0, cp = 0;
  double total() const { return compute + memory + recompute + tp + cp; }
};

// A frozen base (issue 46: LoRA, QLoRA) computes the input gradient of each linear layer but not its weight gradient:
// its backward is one GEMM of the forward's size, not two (the attention core's backward is all input gradients).
StageTimes StageOf(const LayerTimes& lt, double layers, double extra_compute, Recompute recompute, double backward_rate,
                   double input_rate, bool frozen = false) {
  StageTimes r;
  const double base_backward = 1 / input_rate + (frozen ? 0 : 1 / backward_rate);
  r.compute = layers * ((1 + base_backward) * lt.gemm_forward + lt.attention_forward + lt.attention_backward / input_rate +
                        (1 + 1 / input_rate + 1 / backward_rate) * lt.adapter_forward) +
              extra_compute;
  r.memory = layers * (lt.memory_forward + lt.attention_memory_forward + lt.memory_backward + lt.adapter_memory +
                       2 * lt.dequant_pass);
  double recompute_layer = 0, tp_layer = lt.tp_forward + lt.tp_backward, cp_layer = lt.cp_forward + lt.cp_backward;
  if (recompute == Recompute::kFull) {
    recompute_layer = lt.gemm_forward + lt.attention_forward + lt.memory_forward + lt.attention_memory_forward +
                      lt.adapter_forward + lt.adapter_memory + lt.dequant_pass;
    tp_layer += lt.tp_forward;
    cp_layer += lt.cp_forward;
  } else if (recompute == Recompute::kSelective) {
    recompute_layer = lt.attention_forward + lt.attention_memory_forward;
    cp_layer += lt.cp_forward;
  } else if (recompute == Recompute::kSaveDotExceptMlpwi || recompute == Recompute::kSaveDotExceptMlp) {
    // MaxText's save-dot policies keep the projections' outputs: the backward reruns the attention core (the
    // output it needs, "context", is not kept; with a fused kernel too), the MLP input projections (to rebuild
    // the MLP-out input) and the elementwise work (norms, activation) from the kept tensors. The MLP-out output
    // is not needed by the backward, so save_dot_except_mlp recomputes no more than save_dot_except_mlpwi.
    recompute_layer = lt.attention_forward + lt.attention_memory_forward + lt.gemm_mlp_input_forward + lt.memory_forward;
    cp_layer += lt.cp_forward;
  } else if (recompute == Recompute::kSelectiveOp) {
    // Every op's output is kept but every second matmul's (the attention kernel's too): those matmuls rerun, and
    // the elementwise work between them.
    recompute_layer = lt.gemm_every_second_forward + lt.memory_forward;
  }
  r.recompute = layers * recompute_layer;
  r.tp = layers * tp_layer;
  r.cp = layers * cp_layer;
  return r;
}

}  // namespace

double GemmEfficiency(double flops) { return Interpolate(kGemmCurve, flops); }
double HbmEfficiency(double bytes) { return Interpolate(kHbmCurve, bytes); }

namespace {

// What the step model reads from the catalog's static tables for a GPU, a framework and a precision: the best MFU
// measured on its class, the framework's kernel efficiency there, the probe's GEMM ceiling. Looked up by name
// (strings compared and built) the first time, then kept by catalog entry (the catalog and the tables never change
// after they are read): every evaluation of a scenario asks the same.
struct CatalogFigures {
  double best_measured_mfu = 0, kernel_efficiency = 1, gemm_fraction = 0;
};

const CatalogFigures& CatalogFiguresFor(const GpuSpec& gpu, int framework, Precision p) {
  struct Entry {
    const GpuSpec* gpu;
    int framework;
    Precision precision;
    CatalogFigures figures;
  };
  thread_local Entry kept[4];
  thread_local int used = 0, next = 0;
  for (int i = 0; i < used; ++i)
    if (kept[i].gpu == &gpu && kept[i].framework == framework && kept[i].precision == p) return kept[i].figures;
  Entry& e = kept[next];
  next = (next + 1) % 4;
  used = std::min(used + 1, 4);
  e = {&gpu, framework, p, {}};
  e.figures.best_measured_mfu = BestMeasuredMfu(gpu.arch);
  e.figures.kernel_efficiency = LookupKernelEfficiency(MeasuredKernelEfficiency(), static_cast<Framework>(framework),
                                                       KernelArch(gpu.arch, static_cast<int>(p)).c_str());
  e.figures.gemm_fraction = ProbeGemmReference(gpu.id, p).fraction;
  return e.figures;
}

}  // namespace

StepHardware StepHardwareFor(const Scenario& s, const EffectiveHardware& hw) {
  StepHardware r;
  r.peak_flops = hw.peak_flops;
  r.hbm_bytes_per_s = hw.hbm_bytes_per_s;
  r.nvlink_bytes_per_s = hw.nvlink_bytes_per_s;
  r.pcie_bytes_per_s = hw.pcie_bytes_per_s;
  r.nvlink_domain = hw.nvlink_domain;
  r.gpus_per_node = std::max<std::int64_t>(1, s.cluster.gpus_per_node);
  r.network_bytes_per_s = s.cluster.node_network_gbps * 1e9 / 8 / static_cast<double>(r.gpus_per_node);
  r.link_efficiency = s.cluster.link_efficiency;
  const Precision p = GetPrecision(s);
  r.bytes_per_element = (p == Precision::kTf32 || p == Precision::kFp32) ? 4 : 2;
  const BytesPerParam bpp = BytesPerParamFor(p, static_cast<Optimizer>(s.parallel.optimizer));
  r.grad_bytes_per_param = bpp.gradients;
  r.weight_bytes_per_param = bpp.weights;
  r.optimizer_bytes_per_param = bpp.optimizer;
  if (hw.gpu != nullptr) {
    const CatalogFigures& figures = CatalogFiguresFor(*hw.gpu, s.cluster.framework, p);
    r.best_measured_mfu = figures.best_measured_mfu;
    r.kernel_efficiency = figures.kernel_efficiency;
    // The fitted constants (evidence.h: the in-sample fit of every published run).
    r.tile_overhead = kFittedTileOverhead;
    r.backward_gemm_rate = kFittedBackwardGemmRate;
    r.input_grad_gemm_rate = kFittedInputGradGemmRate;
    if (figures.gemm_fraction > 0) r.gemm_ceiling = figures.gemm_fraction;
  }
  if (p == Precision::kFp8 && hw.gpu != nullptr) {
    const double fp8 = DensePeakTflops(*hw.gpu, Precision::kFp8), bf16 = DensePeakTflops(*hw.gpu, Precision::kBf16);
    r.fp8_linear = true;
    r.attention_peak_flops = fp8 > 0 && bf16 > 0 ? hw.peak_flops * bf16 / fp8 : hw.peak_flops;
  }
  return r;
}

Links StepLinks(const StepHardware& hw) {
  Links l;
  l.nvlink_bytes_per_s = hw.nvlink_bytes_per_s * hw.link_efficiency;
  l.network_bytes_per_s = hw.network_bytes_per_s * hw.link_efficiency;
  l.pcie_bytes_per_s = hw.pcie_bytes_per_s * hw.link_efficiency;
  l.gpus_per_node = hw.gpus_per_node;
  l.nvlink_domain = hw.nvlink_bytes_per_s > 0 ? std::max<std::int64_t>(1, hw.nvlink_domain) : 1;
  return l;
}

// The English text is the string table's (assets/i18n/en.json), so the message and its translations are one entry.
const char* LayoutErrorText(LayoutError e) { return e == LayoutError::kNone ? "ok" : Tr(Lang::kEn, LayoutErrorKey(e)); }

const char* LayoutErrorKey(LayoutError e) {
  switch (e) {
    case LayoutError::kNone: return "";
    case LayoutError::kShapeUnknown: return "msg.layout_shape";
    case LayoutError::kGlobalBatchUnknown: return "msg.layout_batch";
    case LayoutError::kBadDegree: return "msg.layout_degree";
    case LayoutError::kTensorHeads: return "msg.layout_tensor";
    case LayoutError::kPipelineLayers: return "msg.layout_pipeline";
    case LayoutError::kBatchSplit: return "msg.layout_batch_split";
    case LayoutError::kInterleave: return "msg.layout_interleave";
    case LayoutError::kExpertParallel: return "msg.layout_expert";
    case LayoutError::kContextSeq: return "msg.layout_context";
  }
  return "";
}

LayoutError CheckLayout(const ModelShape& m, const Layout& l) {
  if (!m.known()) return LayoutError::kShapeUnknown;
  if (l.global_batch <= 0) return LayoutError::kGlobalBatchUnknown;
  if (l.tensor < 1 || l.pipeline < 1 || l.data < 1 || l.micro_batch < 1 || l.interleave < 1 || l.context < 1 ||
      l.zero_stage < 0 || l.zero_stage > 3)
    return LayoutError::kBadDegree;
  if (m.heads % l.tensor != 0 || m.hidden % l.tensor != 0 || m.ffn_hidden % l.tensor != 0 ||
      (m.kv_heads > 0 && m.kv_heads % l.tensor != 0))
    return LayoutError::kTensorHeads;
  // Layers need not divide evenly (StageLayersOf: the first and last stages hold fewer).
  // The first stage's first chunk may hold only the embedding and the last stage's last chunk only the output
  // layer (Llama 3 405B: 126 layers in 16 x 8 chunks).
  if (m.layers + (l.interleave > 1 ? 2 : 0) < l.pipeline * l.interleave || !StageLayersOf(m.layers, l.pipeline).ok())
    return LayoutError::kPipelineLayers;
  if (l.context > 1 && m.seq_len % (2 * l.context) != 0) return LayoutError::kContextSeq;
  if (l.global_batch % (l.data * l.micro_batch) != 0) return LayoutError::kBatchSplit;
  if (l.interleave > 1 && (l.pipeline < 2 || l.micro_batches() % l.pipeline != 0)) return LayoutError::kInterleave;
  return LayoutError::kNone;
}

namespace {

// One micro-batch on the slowest kind of stage (it sets the pace of the pipeline). It depends on the layout's
// tensor, context and pipeline parallelism, micro-batch and kernels, not on its data parallelism or global batch:
// the step at scale and on one node share it (EstimateStepTimeAndScaling).
StageTimes SlowestStage(const ModelShape& m, const Layout& l, const StepHardware& hw, const Links& links) {
  const LayerTimes lt = LayerTimesOf(m, l, hw, links);
  const Recompute recompute = l.flash_attention && l.recompute == Recompute::kSelective
                                  ? Recompute::kNone  // the fused kernel's backward already recomputes the scores
                                  : l.recompute;
  const StageLayers split = StageLayersOf(m.layers, l.pipeline);
  const double logits = LogitsSeconds(m, l, hw);
  const bool frozen = m.frozen_base();
  StageTimes stage = StageOf(lt, D(split.middle), l.pipeline == 1 ? logits : 0, recompute, hw.backward_gemm_rate,
                             hw.input_grad_gemm_rate, frozen);
  if (l.pipeline > 1) {
    const StageTimes last = StageOf(lt, D(split.last), logits, recompute, hw.backward_gemm_rate, hw.input_grad_gemm_rate, frozen);
    if (last.total() > stage.total()) stage = last;
  }
  return stage;
}

// The step of a valid dense layout from its slowest stage's micro-batch (SlowestStage).
StepTime StepOf(const ModelShape& m, const Layout& l, const StepHardware& hw, const Links& links, const StageTimes& stage) {
  StepTime r;
  r.error = LayoutError::kNone;
  const double mb = D(l.micro_batches());
  const double t = D(l.tensor), h = D(m.hidden), s = D(m.seq_len), e = hw.bytes_per_element;
  const StageLayers split = StageLayersOf(m.layers, l.pipeline);
  const bool frozen = m.frozen_base();
  // Pipeline sends: activation forward, gradient backward, at each of the v chunk boundaries.
  double pp_mb = 0;
  if (l.pipeline > 1) {
    const bool cross_node = l.tensor * l.context * l.data >= hw.gpus_per_node;
    const double bytes = D(l.micro_batch) * s / D(l.context) * h * e / t;
    pp_mb = 2 * D(l.interleave) * SendSeconds(bytes, cross_node, links);
  }
  const double compute_mb = stage.compute, memory_mb = stage.memory;
  const double busy_mb = stage.total() + pp_mb;
  r.compute_seconds = mb * compute_mb;
  r.memory_bound_seconds = mb * memory_mb;
  r.recompute_seconds = mb * stage.recompute;
  r.tp_comm_seconds = mb * (stage.tp + stage.cp);
  r.pp_comm_seconds = mb * pp_mb;
  r.bubble_seconds = D(l.pipeline - 1) / D(l.interleave) * busy_mb;

  // Data parallel: the largest stage's parameters, reduced over data x context parallel ranks.
  const double layer_params = m.layer_matrix_params();
  const double stage_params =
      std::max(D(split.middle) * layer_params, D(split.last) * layer_params + m.stage_embedding_params(l.pipeline)) / t;
  r.params = D(m.layers) * layer_params + m.embedding_params();
  // Issue 46: with a frozen base (LoRA, QLoRA) only the adapters have gradients to reduce and optimizer states to
  // step: the data-parallel reduction carries them alone (well under 1% of the weights), and ZeRO / FSDP shard what
  // is trained. ZeRO-3 / FSDP still gathers the frozen weights for every pass, at their stored width.
  const double trained_stage_params =
      frozen ? D(std::max(split.middle, split.last)) * AdapterParamsPerLayer(m) / t : stage_params;
  const double gathered_bytes_per_param = frozen ? FrozenBytesPerParam(m, hw.weight_bytes_per_param) : hw.weight_bytes_per_param;
  const std::int64_t reduce_ranks = l.data * l.context;
  if (reduce_ranks > 1) {
    const Group g = GroupOf(reduce_ranks, l.tensor, hw.gpus_per_node);
    const Group gather_group = GroupOf(l.data, l.tensor * l.context, hw.gpus_per_node);
    const double grads = trained_stage_params * hw.grad_bytes_per_param;
    const double weights = trained_stage_params * hw.weight_bytes_per_param;
    const bool zero0 = l.zero_stage == 0 || l.data == 1;
    // Each bucket is one collective call and pays the ring's latency (an all-reduce: two phases).
    const double bucket_params = l.dp_bucket_params > 0 ? l.dp_bucket_params : std::max(40e6, 1e6 * D(l.data));
    const double buckets = std::max(1.0, std::ceil(trained_stage_params / bucket_params));
    const double reduce = zero0 ? AllReduceSeconds(grads, g, links) + 2 * buckets * RingCallLatencySeconds(g)
                                : ReduceScatterSeconds(grads, g, links) + buckets * RingCallLatencySeconds(g);
    // ZeRO 1-2 gather the updated parameters once per step; ZeRO-3 gathers them for every micro-batch (below).
    const double gather = zero0 || l.zero_stage == 3
                              ? 0
                              : AllGatherSeconds(weights, gather_group, links) + buckets * RingCallLatencySeconds(gather_group);
    double total = reduce + gather, exposed = total;
    if (l.overlap_comm) {
      // Gradients of a model chunk are reduced while later chunks still run their last backward passes
      // (the cool-down), parameters gathered while the next step's warm-up forwards run.
      const double chunk_forward = (compute_mb + memory_mb) / 3 / D(l.interleave);
      exposed = ExposedAfterOverlap(reduce, 2 * chunk_forward, l, mb) + ExposedAfterOverlap(gather, chunk_forward, l, mb);
    }
    if (l.zero_stage == 3 && l.data > 1) {  // gather the stage's weights for every micro-batch's forward and backward
      // (and for the recomputed forward: ZeRO-3 and FSDP free a layer's gathered weights after each pass)
      const double passes = l.recompute == Recompute::kFull ? 3 : 2;
      const double gather_mb = passes * AllGatherSeconds(stage_params * gathered_bytes_per_param, gather_group, links);
      total += mb * gather_mb;
      exposed += mb * (l.overlap_comm ? std::max(0.0, gather_mb - (compute_mb + memory_mb)) : gather_mb);
    }
    r.dp_comm_seconds = exposed;
    r.dp_comm_total_seconds = total;
  }
  // Optimizer: read + write state and master weights, read gradients, write weights.
  const double local_params = trained_stage_params / (l.zero_stage >= 1 ? D(l.data) : 1.0);
  const double opt_bytes = local_params * (2 * hw.optimizer_bytes_per_param + hw.grad_bytes_per_param + hw.weight_bytes_per_param);
  r.optimizer_seconds = MemorySeconds(opt_bytes, opt_bytes, hw);

  r.exposed_comm_seconds = r.tp_comm_seconds + r.pp_comm_seconds + r.dp_comm_seconds;
  r.seconds = r.compute_seconds + r.memory_bound_seconds + r.recompute_seconds + r.exposed_comm_seconds +
              r.bubble_seconds + r.optimizer_seconds;
  // Issue 46: the tokens that count are the real ones (workload.real_token_fraction; padding is computed, not
  // counted). A frozen base's weight FLOPs are 4 N (forward and input gradients) + 6 x the adapters (finetune.h).
  const double tokens = D(l.global_batch) * s * m.real_token_fraction;
  // QK^T and AV, forward + backward (issue 46: within each packed document under a fused kernel)
  const double attention_per_token = 12 * D(m.layers) * h * (l.flash_attention ? m.attention_span() : s);
  const double adapters = frozen ? AdapterParams(m) : 0;
  r.model_flops = tokens * ((frozen ? 4 * r.params + 6 * adapters : 6 * r.params) + attention_per_token);
  double recomputed_per_token = 0;
  if (l.recompute == Recompute::kFull)
    recomputed_per_token = 2 * D(m.layers) * layer_params + 2 * adapters + attention_per_token / 3;
  if (l.recompute == Recompute::kSelective) recomputed_per_token = attention_per_token / 3;
  if (l.recompute == Recompute::kSaveDotExceptMlpwi || l.recompute == Recompute::kSaveDotExceptMlp)
    recomputed_per_token = 2 * D(m.layers) * (m.ffn_gated ? 2 : 1) * h * m.ffn() + attention_per_token / 3;
  if (l.recompute == Recompute::kSelectiveOp)  // key, output and up (or down) projections
    recomputed_per_token = 2 * D(m.layers) * (h * m.kv_width() + m.q_width() * h + h * m.ffn());
  r.hardware_flops = r.model_flops + tokens * recomputed_per_token;
  const double capacity = r.seconds * D(l.gpus()) * hw.peak_flops;
  r.mfu = r.model_flops / capacity;
  r.hfu = r.hardware_flops / capacity;
  r.tokens_per_second = tokens / r.seconds;
  const MfuBand band = MfuBandFor(r.mfu, hw.best_measured_mfu);
  r.mfu_low = band.low;
  r.mfu_high = band.high;
  r.best_measured_mfu = band.best_measured;
  r.beyond_evidence = band.beyond_evidence;
  return r;
}

}  // namespace

StepTime EstimateStepTime(const ModelShape& m, const Layout& l, const StepHardware& hw) {
  if (m.experts > 0) return EstimateMoeStepTime(m, l, hw);  // issue 18: mixture of experts (moe.cpp)
  if (l.expert != 1) return StepTime{CheckExpertLayout(m, l)};
  if (const LayoutError error = CheckLayout(m, l); error != LayoutError::kNone) return StepTime{error};
  const Links links = StepLinks(hw);
  return StepOf(m, l, hw, links, SlowestStage(m, l, hw, links));
}

void StepTimeFields(const StepTime& t, NamedValue (&out)[kStepFieldCount]) {
  const NamedValue fields[kStepFieldCount] = {
      {"seconds", t.seconds}, {"compute_seconds", t.compute_seconds}, {"memory_bound_seconds", t.memory_bound_seconds},
      {"recompute_seconds", t.recompute_seconds}, {"tp_comm_seconds", t.tp_comm_seconds},
      {"pp_comm_seconds", t.pp_comm_seconds}, {"dp_comm_seconds", t.dp_comm_seconds},
      {"exposed_comm_seconds", t.exposed_comm_seconds}, {"bubble_seconds", t.bubble_seconds},
      {"optimizer_seconds", t.optimizer_seconds}, {"dp_comm_total_seconds", t.dp_comm_total_seconds},
      {"mfu", t.mfu}, {"hfu", t.hfu}, {"tokens_per_second", t.tokens_per_second}, {"model_flops", t.model_flops},
      {"hardware_flops", t.hardware_flops}, {"params", t.params}, {"ep_comm_seconds", t.ep_comm_seconds},
      {"mfu_low", t.mfu_low}, {"mfu_high", t.mfu_high}, {"best_measured_mfu", t.best_measured_mfu}};
  for (int i = 0; i < kStepFieldCount; ++i) out[i] = fields[i];
}

double ScalingEfficiency(const ModelShape& m, const Layout& l, const StepHardware& hw) {
  return ScalingEfficiency(m, l, hw, EstimateStepTime(m, l, hw));
}

namespace {

// The one-node layout of weak scaling: data parallelism shrunk to fit one node (a divisor of it), the same
// micro-batches per GPU.
Layout NodeLayout(const Layout& l, const StepHardware& hw) {
  Layout node = l;
  const std::int64_t group = l.tensor * l.pipeline;
  node.data = std::max<std::int64_t>(1, std::min(l.data, hw.gpus_per_node / std::max<std::int64_t>(1, group)));
  while (l.data % node.data != 0) --node.data;
  node.global_batch = l.global_batch / l.data * node.data;  // same micro-batches per GPU
  return node;
}

double ScalingOf(const Layout& l, const StepTime& at_scale, const Layout& node, const StepTime& at_node) {
  if (!at_scale.ok() || !at_node.ok()) return 0;
  const double per_gpu_scale = at_scale.tokens_per_second / D(l.gpus());
  const double per_gpu_node = at_node.tokens_per_second / D(node.gpus());
  return per_gpu_scale / per_gpu_node;
}

}  // namespace

double ScalingEfficiency(const ModelShape& m, const Layout& l, const StepHardware& hw, const StepTime& at_scale) {
  if (!at_scale.ok()) return 0;
  const Layout node = NodeLayout(l, hw);
  return ScalingOf(l, at_scale, node, EstimateStepTime(m, node, hw));
}

StepTime EstimateStepTimeAndScaling(const ModelShape& m, const Layout& l, const StepHardware& hw, double* scaling_efficiency) {
  *scaling_efficiency = 0;
  if (m.experts > 0 || l.expert != 1) {  // MoE (moe.cpp) or an expert layout refused: each step on its own
    const StepTime at_scale = EstimateStepTime(m, l, hw);
    *scaling_efficiency = ScalingEfficiency(m, l, hw, at_scale);
    return at_scale;
  }
  if (const LayoutError error = CheckLayout(m, l); error != LayoutError::kNone) return StepTime{error};
  const Links links = StepLinks(hw);
  const StageTimes stage = SlowestStage(m, l, hw, links);
  const StepTime at_scale = StepOf(m, l, hw, links, stage);
  const Layout node = NodeLayout(l, hw);
  StepTime at_node{CheckLayout(m, node)};
  if (at_node.ok()) at_node = StepOf(m, node, hw, links, stage);  // the node's micro-batch is the same stage's
  *scaling_efficiency = ScalingOf(l, at_scale, node, at_node);
  return at_scale;
}

double PredictMfuFromSingleNode(double single_node_mfu, const ModelShape& m, const Layout& l, const StepHardware& hw) {
  return single_node_mfu * ScalingEfficiency(m, l, hw);
}

}  // namespace gpucost
