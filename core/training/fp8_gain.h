// fp8_gain.h — what FP8 buys a training job whose model shape is not given (issue 25): never the FP8/BF16 peak
// ratio (2x on Hopper and Blackwell), which assumes every FLOP runs at the FP8 peak; the step-time model's gain
// (steptime.h: the linear layers' GEMMs at the FP8 peak, attention at the 16-bit peak, memory-bound work,
// communication and the optimizer unchanged) on a reference shape for the scenario's GPU.
#pragma once
#include "scenario/scenario.h"

namespace gpucost {

// Reference: Llama 3.1 70B (assets/models.json), 4,096-token sequences, one node tensor-parallel
// (cluster.gpus_per_node), sequence parallelism, selective recompute, fused attention, global batch 64.
constexpr const char* kFp8ReferenceModel = "llama-3.1-70b";

// Step throughput at FP8 / at BF16 on the reference shape and the scenario's GPU; 0 when the GPU has no FP8 or
// the reference cannot be evaluated.
double Fp8StepGain(const Scenario& s);

}  // namespace gpucost
