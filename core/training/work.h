// work.h — the work a training job does: model FLOPs per token, and the tokens it needs at its batch size.
#pragma once
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

}  // namespace gpucost
