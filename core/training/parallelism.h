// parallelism.h — what Evaluate() takes from the parallelism models: the batch-size effect on tokens needed,
// MFU from measured scaling points, and the memory per GPU with its warning. Also writes their part of the
// result document. Each function is a few lines in Evaluate(); the models live in memory.h and
// scaling_fit.h.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

// Batch size and quality (McCandlish et al. 2018, "An Empirical Model of Large-Batch Training",
// arXiv:1812.06162, eq. 2.11): to reach the same loss, training at batch B needs E = E_min (1 + B / B_noise)
// tokens. Off (1) unless parallel.critical_batch_tokens (B_noise) and the global batch are given.
// B = parallel.global_batch x workload.seq_len tokens. The reference batch B0 is
// parallel.reference_batch_tokens, the batch workload.tokens was planned for; absent, B0 = 0: workload.tokens
// is the small-batch limit E_min. Factor = (1 + B / B_noise) / (1 + B0 / B_noise).
double BatchSizeTokenFactor(const Scenario& s);

// Model FLOPs per token as Evaluate counts them: 6 x params (+ 12 x layers x hidden x seq_len with a shape),
// or workload.flops / workload.tokens when the total is given.
double ModelFlopsPerToken(const Scenario& s);

// When scaling.points are given (>= 2 GPU counts) and cluster.mfu is not: fits the points, predicts the
// throughput at cluster.gpus and sets r->mfu = X(N) x flops per token / (N x peak_flops), source measured.
// Fills r->scaling_*; adds a warning when cluster.gpus lies outside the measured range.
void ApplyMeasuredScaling(const Scenario& s, double peak_flops_per_gpu, Result* r);

// Memory per GPU of a training job whose params are known (shape optional): r->memory, r->memory_present,
// and when it does not fit, r->memory_smallest_fit and a warning naming the smallest layout that fits.
void EvaluateMemory(const Scenario& s, double device_bytes, Result* r);

// Adds "memory", "scaling" and work.batch_size_token_factor to the result document (result_json.cpp).
void WriteParallelismJson(const Scenario& s, const Result& r, nlohmann::json* doc);

}  // namespace gpucost
