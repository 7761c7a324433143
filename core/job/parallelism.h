// parallelism.h — what Evaluate() takes from the parallelism models: the batch-size effect on tokens needed,
// MFU from measured scaling points, and the memory per GPU with its warning. Also writes their part of the
// result document. Each function is a few lines in Evaluate(); the models live in memory.h and
// scaling_fit.h.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "job/result.h"
#include "scenario/scenario.h"
#include "training/work.h"

namespace gpucost {

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
