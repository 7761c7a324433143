// finetune.h — fine-tuning with low-rank adapters (issue 18): LoRA (Hu et al. 2021, arXiv:2106.09685) and
// QLoRA (Dettmers et al. 2023, arXiv:2305.14314) next to full-parameter training.
//
// Model, for workload.finetune = lora | qlora with rank r:
//   * Trainable parameters: an adapter B A (r x in and out x r) beside each adapted weight matrix: r (in + out)
//     per matrix. Targets "all": Q, K, V, output and the MLP's two or three (gated) matrices, every expert's
//     in an MoE layer; "attention": Q, K, V and output only.
//   * Memory per GPU: the frozen weights (lora: 16-bit; qlora: the layers' weight matrices in 4-bit NF4 with
//     double-quantised constants, 4 + 8/64 + 32/(64 x 256) = 4.127 bits per parameter, QLoRA section 3;
//     embeddings, output layer and norms stay 16-bit as in bitsandbytes), no gradients or optimizer state
//     for them; the adapters in the training precision with their gradients and the optimizer's state
//     (fp32 Adam moments; no separate fp32 master copy: QLoRA's reference code keeps LoRA layers in bf16 and
//     uses 32-bit paged AdamW). QLoRA also holds one weight matrix dequantised to 16-bit while it computes,
//     and keeps the optimizer state in paged memory that "is automatically evicted to CPU RAM when the GPU
//     runs out-of-memory and paged back into GPU memory when needed in the optimizer update step" (QLoRA
//     section 3, Paged Optimizers): counted in the total, but a fit needs only the rest resident.
//     Activations as in full training (the frozen layers' inputs are still needed for the adapters'
//     gradients and the nonlinearities' backward); the adapters' own r-wide activations are negligible.
//   * FLOPs per token: the frozen weights still carry the forward (2 N) and the backward pass for the
//     activations (2 N), not the weight gradients: 4 N + 6 x adapter parameters (+ the attention term).
//   * Checkpoints: the adapters only (the frozen base is already stored).
#pragma once
#include <vector>

#include "scenario/json_io.h"
#include "training/layout.h"
#include "training/memory.h"
#include "scenario/scenario.h"

namespace gpucost {

// QLoRA's storage of a frozen weight: 4-bit NF4, one 8-bit constant per 64 weights and one 32-bit constant per
// 256 of those (double quantisation; Dettmers et al. 2023, section 3: 0.127 bits per parameter of constants).
constexpr double kNf4BitsPerParam = 4 + 8.0 / 64 + 32.0 / (64 * 256);

// Issue 46: bytes per frozen parameter as stored (workload.frozen_precision): nf4 kNf4BitsPerParam / 8, fp8 1, bf16 2;
// auto: nf4 for qlora, else `training_bytes` (the training precision's weights: 2, or 4 for tf32 / fp32).
double FrozenBytesPerParam(const ModelShape& m, double training_bytes);

// Issue 46: one adapted weight matrix of a layer (in x out), and how tensor parallelism splits it: a
// column-parallel matrix (Q, K, V, the MLP's gate and up) keeps its input whole and splits its output, a
// row-parallel one (attention output, MLP down) splits its input. `count`: copies a token passes through (an
// MoE layer's active and shared experts; 1 otherwise).
struct AdaptedMatrix {
  double in = 0, out = 0;
  bool row_parallel = false;
  double count = 1;
};
// The adapted matrices of one layer (lora_targets; averaged over dense and MoE layers by count); returns how many.
int AdaptedMatricesOf(const ModelShape& m, AdaptedMatrix (&out)[8]);

// Adapter parameters of one layer (averaged over the layers) and of the whole model (0 for full training or
// an unknown shape).
double AdapterParamsPerLayer(const ModelShape& m);
double AdapterParams(const ModelShape& m);

// Parameters the optimizer trains: workload.params (full), or the adapters.
double TrainableParams(const Scenario& s);
// Weight FLOPs per token (attention excluded): 6 x active params (full); 4 x active + 6 x adapters (lora).
double WeightFlopsPerToken(const Scenario& s);
// The FLOP convention of a layout's MFU (documents: step.mfu_convention): pre-training's 6 N (steptime.h
// kMfuConvention), or an adapter fine-tune's 4 N + 6 A (2026-12-07: a LoRA result stated the 6 N convention beside a
// figure counted with 4 N + 6 A).
const char* MfuConventionFor(const ModelShape& m);
// Parameters a checkpoint stores: workload.params (full) or the adapters.
double CheckpointParams(const Scenario& s);

// Model states per GPU of a fine-tuning stage: `frozen_per_gpu` base parameters held (after tensor and expert
// parallelism; `embedding_per_gpu` of them embedding/output, kept 16-bit), `stage_layers` layers.
struct FinetuneStates {
  double weights_bytes = 0;    // frozen weights + adapters
  double gradients_bytes = 0;  // adapters only
  double optimizer_bytes = 0;  // adapters only
  double dequant_bytes = 0;    // QLoRA: the largest weight matrix dequantised to 16-bit
  double paged_bytes = 0;      // QLoRA: the optimizer state, in paged memory (evicted to CPU under pressure)
};
FinetuneStates EstimateFinetuneStates(const ModelShape& m, const Layout& l, Precision precision, double frozen_per_gpu,
                                      double embedding_per_gpu, double stage_layers);

// Scenario checks: adapters need the model shape (layers, hidden, heads) to be counted.
void ValidateFinetune(const Scenario& s, std::vector<InputError>* errors);

}  // namespace gpucost
