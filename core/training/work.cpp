// work.cpp — FLOPs per token and the batch-size effect (work.h).
#include "training/work.h"

#include "training/finetune.h"

namespace gpucost {

double BatchSizeTokenFactor(const Scenario& s) {
  const ParallelInputs& p = s.parallel;
  if (p.critical_batch_tokens <= 0 || p.global_batch <= 0 || s.workload.seq_len <= 0) return 1;
  const double batch_tokens = static_cast<double>(p.global_batch) * static_cast<double>(s.workload.seq_len);
  return (1 + batch_tokens / p.critical_batch_tokens) / (1 + p.reference_batch_tokens / p.critical_batch_tokens);
}

double ModelFlopsPerToken(const Scenario& s) {
  const WorkloadInputs& w = s.workload;
  if (w.flops > 0 && w.tokens > 0) return w.flops / w.tokens;
  const double attention = w.layers > 0 && w.hidden > 0 && w.seq_len > 0
                               ? 12.0 * static_cast<double>(w.layers) * static_cast<double>(w.hidden) *
                                     static_cast<double>(w.seq_len)
                               : 0;
  return WeightFlopsPerToken(s) + attention;  // 6 N, MoE: active N; LoRA: 4 N + 6 adapters (finetune.h)
}

}  // namespace gpucost
