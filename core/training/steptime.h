// steptime.h — time of one training step (one global batch) of a dense GPT-style transformer for a
// parallel layout, from the hardware: matrix work, memory-bound work, recompute, tensor/pipeline/data-
// parallel communication, the pipeline bubble and the optimizer step, as named parts that sum to the total.
// Issue 10 (step time) and the communication part of issue 4. Plain values, no allocation: the layout search
// (plan.h) evaluates hundreds of thousands of layouts per second with it.
//
// Model, per GPU of the slowest (last) pipeline stage, per micro-batch (b sequences of s tokens; h hidden,
// a heads, f ffn, L layers, V vocabulary; tensor t, pipeline p, data d, interleave v; m micro-batches):
//   * Matrix work: per layer the QKV (2bsh·3h/t), attention scores and values (2 x 2bs²h/t), projection
//     (2bsh²/t) and MLP (2 x 2bshf/t) GEMMs forward, twice that backward; the last stage adds the logits
//     (2bshV/t). Each GEMM runs at the dense peak times an efficiency that falls for small GEMMs
//     (GemmEfficiency(): Calculon's A100 curve, Isaev et al. SC'23, calculon-ai/calculon examples/a100.json)
//     and never faster than its operands and result can move through HBM (roofline). A thin GEMM (smallest
//     per-GPU dimension d: the head dimension of attention, h/t after the tensor split) runs at
//     d / (d + 64) of that (tile prologue/epilogue), and the backward GEMMs at 0.90 of the forward's rate
//     (issue 26: both refitted with each framework's kernel efficiency on assets/validation/measured_runs.json,
//     leaving one source out at a time for the reported error: evidence.h; StepHardwareFor sets the fit).
//   * Fused attention (Layout::flash_attention): no s x s scores in HBM (no softmax/dropout passes), the
//     backward recomputes them (2.5x the forward's FLOPs), so selective recompute costs nothing more.
//   * Uneven stages (StageLayersOf, layout.h): the slowest stage sets the pace (the fullest middle stage, or
//     the last with the output layer). Context parallel c: each GPU holds s/c tokens of every sequence; its
//     queries meet all s keys; the ring passes K and V (twice in the backward) behind the attention compute.
//   * Memory-bound work at HBM bandwidth (efficiency by transfer size, same source): softmax, scale/mask and
//     dropout on the b·a·s²/t attention scores; layer norms, dropouts and residual adds on b·s·h (divided by
//     t with sequence parallelism, replicated without); GeLU on b·s·f/t; the vocabulary softmax.
//   * Recompute: full = the layer's forward again; selective = the attention core (scores, softmax,
//     dropout, values) again (Korthikanti et al. 2022, arXiv:2205.05198, section 5).
//   * Tensor parallel: per layer 2 all-reduces of b·s·h forward and 2 backward; with sequence parallelism
//     2 all-gathers + 2 reduce-scatters each way, plus the backward re-gather of the two layer-norm outputs;
//     full recompute repeats the forward's collectives. Exposed in full (Megatron-LM 2021-22) unless
//     Layout::tp_overlap (Megatron-Core / Transformer Engine's userbuffer overlap, NeMo's tp_comm_overlap,
//     torchtitan's async TP): the collectives run in t chunks behind the layer's GEMMs; one chunk (1/t) and
//     whatever exceeds the GEMM time stay exposed.
//   * Pipeline: each micro-batch sends its activation (b·s·h/t with Megatron's scatter/gather) forward and
//     its gradient backward at every virtual stage boundary (2v sends); the bubble is (p-1)/(m v) of the
//     ideal pipeline time (Narayanan et al. 2021, arXiv:2104.04473, section 2.2.2).
//   * Data parallel: gradient all-reduce (ZeRO 1-2: reduce-scatter + parameter all-gather, same volume),
//     hierarchical across nodes; ZeRO-3 also gathers the stage's parameters for every micro-batch forward
//     and backward. With overlap_comm the gradient reduction hides behind the backward passes of the
//     schedule's cool-down and the parameter gather behind the next step's warm-up forwards (per model
//     chunk with interleaving), ZeRO-3 gathers behind each micro-batch's compute; only the excess is exposed.
//   * Optimizer step: reads and writes the local optimizer state, master weights and gradients at HBM speed.
// MFU = model FLOPs / (step time x GPUs x dense peak), with model FLOPs = tokens x (6 N + 12 L h s) and
// N = L (4h² + 2hf) + V h (the "6ND + attention" convention, equal to Korthikanti et al.'s
// 72 B s L h² (1 + s/6h + V/12Lh) for f = 4h). HFU adds the recomputed FLOPs.
#pragma once
#include <cstdint>

#include "hardware/catalog.h"
#include "hardware/comm.h"
#include "training/layout.h"
#include "scenario/scenario.h"

namespace gpucost {

struct EffectiveHardware;

// What the step model needs of the hardware, resolved once per scenario.
struct StepHardware {
  double peak_flops = 0;            // dense matrix FLOP/s per GPU at the precision
  double hbm_bytes_per_s = 0;
  double nvlink_bytes_per_s = 0;    // per GPU, one direction, nominal
  double network_bytes_per_s = 0;   // per GPU, one direction, nominal (node network / GPUs per node)
  double link_efficiency = 0.8;     // achieved / nominal for collectives
  std::int64_t gpus_per_node = 8;
  // Issue 46: the NVLink island and the PCIe path beyond it (comm.h, IntraNodePathOf).
  double pcie_bytes_per_s = 0;      // per GPU, one direction, nominal
  std::int64_t nvlink_domain = 8;
  double bytes_per_element = 2;     // activations and communicated tensors (bf16/fp16/fp8: 2; tf32/fp32: 4)
  double grad_bytes_per_param = 2;  // gradients as reduced
  double weight_bytes_per_param = 2;
  double optimizer_bytes_per_param = 12;
  // FP8 training (Transformer Engine): the linear layers' GEMMs run at peak_flops (the FP8 peak) on operands
  // cast to FP8; the attention core stays at the 16-bit peak (attention_peak_flops).
  bool fp8_linear = false;
  double attention_peak_flops = 0;  // 0: peak_flops
  double best_measured_mfu = 0;     // on this GPU class (calibration.h; 0: none measured)
  // Issue 26: the fitted constants (evidence.h refits them leaving one source out at a time).
  double tile_overhead = 64;        // thin-GEMM tile prologue/epilogue, in k-iterations (see steptime.cpp)
  double backward_gemm_rate = 0.90; // weight-gradient GEMMs' rate relative to the forward's
  // Issue 46: the input-gradient GEMMs (dX = dY W^T, and the attention core's backward) apart from the weight
  // gradients (dW = X^T dY, accumulated into the fp32 main gradient): a frozen base (LoRA) computes only the former,
  // so the fine-tuning runs separate the two rates (both refitted by the cross-validation, evidence.h).
  double input_grad_gemm_rate = 0.90;
  // The training framework's matrix-kernel efficiency on this GPU generation relative to Megatron-LM's
  // (framework.h: measured per framework and generation; 1 for Megatron-LM, the reference of the curve).
  double kernel_efficiency = 1.0;
  // The share of the dense peak the largest GEMMs sustain on this GPU at this precision: the healthy GPU's
  // measured reference (gpus.json probe_reference: an H200 at its power limit 0.684 bf16, an A100 0.827), else
  // kBestGemmFractionOfDensePeak. GemmEfficiency's curve is scaled to it.
  double gemm_ceiling = kBestGemmFractionOfDensePeak;
};
StepHardware StepHardwareFor(const Scenario& s, const EffectiveHardware& hw);
// The achieved links of `hw` (nominal figures times link_efficiency) for the collectives (comm.h).
Links StepLinks(const StepHardware& hw);

enum class LayoutError : int {
  kNone = 0,
  kShapeUnknown,        // layers, hidden, heads, seq_len or vocab missing
  kGlobalBatchUnknown,  // parallel.global_batch missing
  kBadDegree,           // a degree or micro-batch below 1, or ZeRO stage outside 0-3
  kTensorHeads,         // heads (and hidden) not divisible by tensor
  kPipelineLayers,      // fewer layers than pipeline x interleave
  kBatchSplit,          // global batch not divisible by data x micro_batch
  kInterleave,          // interleave > 1 needs pipeline > 1 and micro-batches divisible by pipeline
  kExpertParallel,      // expert_parallel must divide experts and data_parallel (issue 18, moe.h)
  kContextSeq,          // seq_len not divisible by 2 x context_parallel
};
const char* LayoutErrorText(LayoutError e);  // one line, for messages
const char* LayoutErrorKey(LayoutError e);   // its key in the string tables (message.h), "" for kNone

// Checks that a layout can run this shape (divisibility, degrees).
LayoutError CheckLayout(const ModelShape& m, const Layout& l);

struct StepTime {
  LayoutError error = LayoutError::kShapeUnknown;  // kNone: every field below is meaningful
  // Parts of one step (seconds); seconds = their sum.
  double compute_seconds = 0;       // matrix work of forward + backward (model FLOPs, at GEMM efficiency)
  double memory_bound_seconds = 0;  // norms, softmax, dropout, activations, residuals at HBM bandwidth
  double recompute_seconds = 0;     // recomputed forward work (matrix + memory-bound)
  double tp_comm_seconds = 0;       // tensor-parallel collectives and the context-parallel ring (exposed)
  double pp_comm_seconds = 0;       // pipeline sends (exposed)
  double dp_comm_seconds = 0;       // data-parallel reduction and ZeRO gathers (exposed part)
  double bubble_seconds = 0;        // pipeline fill and drain
  double optimizer_seconds = 0;
  double ep_comm_seconds = 0;       // expert-parallel all-to-all (mixture of experts, moe.h; not overlapped)
  double seconds = 0;               // one global batch
  // Derived.
  double exposed_comm_seconds = 0;  // tp + pp + dp + ep
  double dp_comm_total_seconds = 0; // data-parallel communication before overlap
  double model_flops = 0;           // per step, all GPUs (6ND + attention)
  double hardware_flops = 0;        // model + recomputed
  double mfu = 0;                   // model FLOPs / (seconds x GPUs x peak)
  double hfu = 0;                   // hardware FLOPs / (seconds x GPUs x peak)
  double tokens_per_second = 0;
  double params = 0;                // N of the shape (4h² + 2hf per layer + V h)
  // Issue 18: the model's evidence (calibration.h). The MFU band from the measured runs' errors; a prediction
  // above the best MFU measured on its GPU class is beyond the evidence (the search ranks it at that MFU).
  double mfu_low = 0, mfu_high = 0;
  double best_measured_mfu = 0;     // 0: no measured run on this GPU class
  bool beyond_evidence = false;
  bool ok() const { return error == LayoutError::kNone; }
};

// One step of `m` with layout `l` on `hw`. Never allocates; about a few hundred floating-point operations.
StepTime EstimateStepTime(const ModelShape& m, const Layout& l, const StepHardware& hw);

// Efficiency of one GEMM of `flops` FLOPs relative to the dense peak (monotone, 0.08 .. 0.79).
double GemmEfficiency(double flops);
// The in-sample fit of assets/validation/measured_runs.json (evidence.cpp; test_calibration.cpp fails when it
// differs from the fit): a thin GEMM whose smallest dimension is d runs at d / (d + kFittedTileOverhead) of the
// tile rate (steptime.cpp, ShapeEfficiency). StepHardware's default (64) is issue 18's fit on its 20 runs.
constexpr double kFittedTileOverhead = 96;
// The in-sample fit's weight-gradient and input-gradient GEMM rates (evidence.cpp; test_calibration.cpp checks them).
extern const double kFittedBackwardGemmRate;
extern const double kFittedInputGradGemmRate;
// The share of the tile rate a GEMM (m x k) . (k x n) reaches when its smallest dimension d is thin:
// d / (d + tile_overhead) (steptime.cpp; the serving model's MoE experts use it too, inference_model.cpp).
double ShapeEfficiency(double m, double k, double n, double tile_overhead);
// Efficiency of a memory-bound transfer of `bytes` relative to the HBM bandwidth (0.3 .. 0.95).
double HbmEfficiency(double bytes);

// The parts and figures of a step as (JSON name, value) pairs, in a fixed order: seconds, compute_seconds,
// memory_bound_seconds, recompute_seconds, tp_comm_seconds, pp_comm_seconds, dp_comm_seconds,
// exposed_comm_seconds, bubble_seconds, optimizer_seconds, dp_comm_total_seconds, mfu, hfu,
// tokens_per_second, model_flops, hardware_flops, params, ep_comm_seconds, mfu_low, mfu_high, best_measured_mfu.
// Used by the result JSON, the plan JSON and tables.
struct NamedValue {
  const char* name;
  double value;
};
constexpr int kStepFieldCount = 21;  // + ep_comm_seconds, mfu_low, mfu_high, best_measured_mfu (beyond_evidence: a bool, written apart)
// The FLOP conventions of mfu and hfu, for documents and tooltips.
constexpr const char* kMfuConvention = "MFU: model FLOPs 6 N + 12 L h s per token (N = L (4h^2 + 2h ffn) + V h) / dense peak";
constexpr const char* kHfuConvention = "HFU: model FLOPs + recomputed FLOPs (selective: attention; full: the forward) / dense peak";
void StepTimeFields(const StepTime& t, NamedValue (&out)[kStepFieldCount]);

// Scaling (issue 4): the ratio of per-GPU throughput at the layout's size to a single node's (weak scaling:
// same layout and micro-batches per GPU, data parallel shrunk to fit one node, or the smallest model-parallel
// group when that is larger). 1 = perfect scaling. 0 when the layout is invalid.
double ScalingEfficiency(const ModelShape& m, const Layout& l, const StepHardware& hw);
// The same with the step at the layout's size already estimated (EstimateStepTime(m, l, hw)): computed once.
double ScalingEfficiency(const ModelShape& m, const Layout& l, const StepHardware& hw, const StepTime& at_scale);
// Both at once (the step at the layout's size, and the scaling efficiency in *scaling_efficiency; 0 when either
// layout is invalid): the micro-batch's stage times, which do not depend on data parallelism, worked out once.
StepTime EstimateStepTimeAndScaling(const ModelShape& m, const Layout& l, const StepHardware& hw, double* scaling_efficiency);
// MFU at the layout's GPU count predicted from an MFU measured on one node: single_node_mfu x efficiency.
double PredictMfuFromSingleNode(double single_node_mfu, const ModelShape& m, const Layout& l, const StepHardware& hw);

}  // namespace gpucost
