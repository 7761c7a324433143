// fp8_gain.cpp — the step-time model's FP8 gain on a reference shape (fp8_gain.h).
#include "training/fp8_gain.h"

#include "hardware/catalog.h"
#include "training/layout.h"
#include "scenario/models.h"
#include "training/steptime.h"

namespace gpucost {
namespace {

double TokensPerSecond(Scenario ref, Precision precision) {
  ref.workload.precision = static_cast<int>(precision);
  ref.cluster.peak_tflops = 0;
  EffectiveHardware hw;
  if (!ResolveHardware(ref, &hw) || hw.peak_flops <= 0) return 0;
  const StepTime t = EstimateStepTime(ShapeFromScenario(ref), LayoutFromScenario(ref), StepHardwareFor(ref, hw));
  return t.ok() ? t.tokens_per_second : 0;
}

}  // namespace

double Fp8StepGain(const Scenario& s) {
  const ModelSpec* model = FindModel(kFp8ReferenceModel);
  if (!model) return 0;
  Scenario ref = s;
  ApplyModel(*model, &ref, [](const char*) { return false; });
  ref.workload.seq_len = 4096;
  ref.finetune.mode = static_cast<int>(Finetune::kFull);
  const std::int64_t node = ref.cluster.gpus_per_node > 0 ? ref.cluster.gpus_per_node : 8;
  ref.cluster.gpus = node;
  ParallelInputs& p = ref.parallel;
  p.tensor_parallel = node;
  p.pipeline_parallel = 1;
  p.data_parallel = 1;
  p.context_parallel = 1;
  p.pipeline_interleave = 1;
  p.micro_batch = 1;
  p.global_batch = 64;
  p.zero_stage = 1;
  p.sequence_parallel = true;
  p.recompute = static_cast<int>(Recompute::kSelective);
  p.flash_attention = true;
  ref.arch.expert_parallel = 1;
  const double bf16 = TokensPerSecond(ref, Precision::kBf16);
  const double fp8 = TokensPerSecond(ref, Precision::kFp8);
  return bf16 > 0 && fp8 > 0 ? fp8 / bf16 : 0;
}

}  // namespace gpucost
