// finetune.cpp — LoRA and QLoRA (see finetune.h for the model and its sources).
#include "training/finetune.h"
#include "base/numeric.h"

#include <algorithm>

#include "training/moe.h"
#include "training/steptime.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {


bool Adapters(const ModelShape& m) { return m.finetune != Finetune::kFull && m.lora_rank > 0; }

}  // namespace

double AdapterParamsPerLayer(const ModelShape& m) {
  if (!Adapters(m) || m.hidden <= 0 || m.heads <= 0) return 0;
  const double r = D(m.lora_rank), h = D(m.hidden), q = m.q_width(), kv = m.kv_width();
  const double attention = r * ((h + q) + 2 * (h + kv) + (q + h));
  if (m.lora_targets == LoraTargets::kAttention) return attention;
  const double matrices = m.ffn_gated ? 3 : 2;
  const double dense_mlp = matrices * r * (h + m.ffn());
  if (m.experts <= 0 || m.layers <= 0) return attention + dense_mlp;
  const double moe = m.moe_layers(), all = D(m.layers);
  const double moe_mlp = D(m.experts + m.shared_experts) * matrices * r * (h + m.expert_width());
  return attention + ((all - moe) * dense_mlp + moe * moe_mlp) / all;
}

double AdapterParams(const ModelShape& m) { return D(m.layers) * AdapterParamsPerLayer(m); }

double FrozenBytesPerParam(const ModelShape& m, double training_bytes) {
  switch (m.frozen_precision) {
    case FrozenPrecision::kBf16: return 2;
    case FrozenPrecision::kFp8: return 1;
    case FrozenPrecision::kNf4: return kNf4BitsPerParam / 8;
    case FrozenPrecision::kAuto: break;
  }
  return m.finetune == Finetune::kQlora ? kNf4BitsPerParam / 8 : training_bytes;
}

int AdaptedMatricesOf(const ModelShape& m, AdaptedMatrix (&out)[8]) {
  if (!Adapters(m) || m.hidden <= 0 || m.heads <= 0) return 0;
  const double h = D(m.hidden), q = m.q_width(), kv = m.kv_width();
  int n = 0;
  out[n++] = {h, q, false, 1};
  out[n++] = {h, kv, false, 1};
  out[n++] = {h, kv, false, 1};
  out[n++] = {q, h, true, 1};
  if (m.lora_targets == LoraTargets::kAttention) return n;
  // The MLP's matrices: a token passes through the dense MLP, or through its active and shared experts' in an MoE
  // layer (averaged over the layers).
  double width = m.ffn(), count = 1;
  if (m.experts > 0 && m.layers > 0) {
    const double moe = m.moe_layers() / D(m.layers);
    width = m.expert_width();
    count = (1 - moe) * m.ffn() / width + moe * D(m.active_experts + m.shared_experts);
  }
  if (m.ffn_gated) out[n++] = {h, width, false, count};
  out[n++] = {h, width, false, count};
  out[n++] = {width, h, true, count};
  return n;
}

double TrainableParams(const Scenario& s) {
  const ModelShape m = ShapeFromScenario(s);
  return Adapters(m) ? AdapterParams(m) : s.workload.params;
}

double WeightFlopsPerToken(const Scenario& s) {
  const ModelShape m = ShapeFromScenario(s);
  if (!Adapters(m)) return 6 * ActiveParams(s);
  // Adapters on every expert, but a token passes only through its active ones.
  const double active_adapters = m.experts > 0 ? AdapterParams(m) * ShapeActiveParams(m) / std::max(1.0, ShapeParams(m))
                                               : AdapterParams(m);
  return 4 * ActiveParams(s) + 6 * active_adapters;
}

double CheckpointParams(const Scenario& s) { return TrainableParams(s); }

const char* MfuConventionFor(const ModelShape& m) {
  return Adapters(m) ? "MFU: model FLOPs 4 N + 6 A + 12 L h s per token for a LoRA / QLoRA fine-tune (N the frozen weights: "
                       "no weight gradients; A the adapters' weights) / dense peak"
                     : kMfuConvention;
}

void ValidateFinetune(const Scenario& s, std::vector<InputError>* errors) {
  if (static_cast<Finetune>(s.finetune.mode) == Finetune::kFull) return;
  const WorkloadInputs& w = s.workload;
  if (w.layers <= 0 || w.hidden <= 0 || w.heads <= 0)
    errors->push_back(CodedError("workload.finetune", {"msg.v.lora_shape", {}}));
}

FinetuneStates EstimateFinetuneStates(const ModelShape& m, const Layout& l, Precision precision, double frozen_per_gpu,
                                      double embedding_per_gpu, double stage_layers) {
  FinetuneStates f;
  const double t = D(std::max<std::int64_t>(1, l.tensor)), d = D(std::max<std::int64_t>(1, l.data));
  const BytesPerParam bpp = BytesPerParamFor(precision, l.optimizer);
  const double master = bpp.weights < 4 ? 4 : 0;  // the fp32 master copy BytesPerParamFor counts for mixed precision
  // The layers' weight matrices at their stored width (workload.frozen_precision: NF4, FP8 or 16-bit); embeddings,
  // output layer and norms stay at the training precision (bitsandbytes and Transformer Engine quantise linear
  // layers only).
  const double stored = FrozenBytesPerParam(m, bpp.weights);
  const double frozen_bytes = embedding_per_gpu * bpp.weights + std::max(0.0, frozen_per_gpu - embedding_per_gpu) * stored;
  const double adapters = stage_layers * AdapterParamsPerLayer(m) / t;
  f.weights_bytes = (frozen_bytes + adapters * bpp.weights) / (l.zero_stage >= 3 ? d : 1);
  f.gradients_bytes = adapters * bpp.gradients / (l.zero_stage >= 2 ? d : 1);
  f.optimizer_bytes = adapters * (bpp.optimizer - master) / (l.zero_stage >= 1 ? d : 1);
  if (stored < bpp.weights) {  // de-quantised one matrix at a time before its GEMM
    const double widest = std::max({m.ffn(), m.expert_width(), m.q_width()});
    f.dequant_bytes = D(m.hidden) * widest / t * bpp.weights;
  }
  if (m.finetune == Finetune::kQlora) f.paged_bytes = f.optimizer_bytes;
  return f;
}

}  // namespace gpucost
