// moe.h — mixture-of-experts models (issue 18): parameters used per token, experts split over expert-
// parallel ranks, and the all-to-all that carries tokens to their experts.
//
// Model. An MoE layer replaces the dense MLP by `experts` routed experts (each an MLP of width
// expert_ffn_hidden) of which every token uses `active_experts`, plus `shared_experts` every token uses, and a
// router (hidden x experts). The first `dense_layers` layers keep a dense MLP (DeepSeek-V3: 3).
//   * FLOPs per token follow the active parameters (6 x active per token in training: Kaplan et al. 2020's
//     6N over the weights a token touches; Fedus et al. 2021, arXiv:2101.03961); memory holds all of them.
//   * Compute and activations: a token's MLP work equals a dense MLP as wide as its active experts together
//     (MoeComputeShape), run on the GPU that holds them.
//   * Expert parallelism e (Lepikhin et al. 2020, GShard, arXiv:2006.16668; Megatron-Core's expert model
//     parallel): the experts of each MoE layer are split over e ranks of the data-parallel group (e divides
//     data_parallel and experts). Unsharded weights and gradients of the routed experts shrink by e; ZeRO-
//     sharded states are sharded over d / e expert-data-parallel ranks instead of d, so their share per GPU
//     is the same. Expert gradients are reduced over d / e ranks.
//   * All-to-all: each MoE layer sends every token's hidden state to its k experts and back (dispatch and
//     combine) forward and again backward (4 all-to-alls; full recompute repeats the forward's 2). Each moves
//     tokens x k x hidden x bytes per GPU, of which (e-1)/e leaves it: inside a node over NVLink, across nodes
//     the share bound for other nodes over the network. Not overlapped with compute (Megatron-Core's default;
//     DeepSeek-V3's DualPipe overlaps it, so this is an upper bound for such schedules).
#pragma once
#include <string>
#include <vector>

#include "scenario/json_io.h"
#include "training/layout.h"
#include "scenario/scenario.h"
#include "training/steptime.h"

namespace gpucost {

// Parameters one token uses: the shape's count with only the active and shared experts (= ShapeParams for a
// dense shape); 0 when the shape is unknown.
double ShapeActiveParams(const ModelShape& m);
// Parameters per token for FLOPs: workload.active_params when given; else, for an MoE shape, workload.params
// times the shape's active share of its weights; else workload.params.
double ActiveParams(const Scenario& s);

// The dense shape doing the same work per token: the MLP as wide as the active experts together (averaged
// over the layers). params is kept (all experts). Returns m unchanged for a dense shape.
ModelShape MoeComputeShape(const ModelShape& m);

// Routed-expert weights held by a pipeline stage of `stage_layers` layers on one GPU of a tensor group,
// before expert parallelism, and the part of them that lives on the other e - 1 expert-parallel ranks.
double StageExpertParams(const ModelShape& m, const Layout& l, double stage_layers);
double ExpertParamsElsewhere(const ModelShape& m, const Layout& l, double stage_layers);

// Expert-parallel checks: e >= 1, e divides data_parallel and the experts; e > 1 needs an MoE shape.
LayoutError CheckExpertLayout(const ModelShape& m, const Layout& l);

// Step time of an MoE shape: the dense step of MoeComputeShape() plus the all-to-all (ep_comm_seconds, also
// stretching the pipeline bubble), the expert gradients' reduction and the experts' optimizer step.
StepTime EstimateMoeStepTime(const ModelShape& m, const Layout& l, const StepHardware& hw);

// Scenario checks of the MoE fields and parallel.expert_parallel (ValidateScenario).
void ValidateMoe(const Scenario& s, std::vector<InputError>* errors);

}  // namespace gpucost
