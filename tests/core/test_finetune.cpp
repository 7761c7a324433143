// LoRA and QLoRA (finetune.h): trainable parameters, memory against published single-GPU fits, FLOPs and
// checkpoint size. Published figures and their sources: tests/data/finetune_fits.json.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "job/evaluate.h"
#include "training/finetune.h"
#include "scenario/json_io.h"
#include "training/memory.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

json Data() { return json::parse(test::ReadFile(test::DataPath("finetune_fits.json"))); }

// One GPU at QLoRA's settings (the data file's "settings").
Scenario FineTune(const std::string& model, const std::string& mode) {
  return test::MustParse(R"({"workload": {"model": ")" + model + R"(", "seq_len": 512, "finetune": ")" + mode +
                         R"(", "lora_rank": 64}, "cluster": {"gpus": 1, "gpu": "h100-sxm"},
      "parallel": {"micro_batch": 1, "global_batch": 16, "recompute": "full", "zero_stage": 0}})");
}

MemoryBreakdown Memory(const Scenario& s, double device_gb) {
  return EstimateMemory(ShapeFromScenario(s), LayoutFromScenario(s), GetPrecision(s), device_gb * 1e9);
}

}  // namespace

TEST_CASE("finetune: published single-GPU fits of QLoRA, LoRA and full fine-tuning") {
  const json data = Data();
  for (const json& f : data["fits"]) {
    const std::string model = f["model"].get<std::string>(), mode = f["finetune"].get<std::string>();
    const double device_gb = f["device_gb"].get<double>();
    CAPTURE(model);
    CAPTURE(mode);
    CAPTURE(device_gb);
    const MemoryBreakdown m = Memory(FineTune(model, mode), device_gb);
    REQUIRE(m.valid);
    MESSAGE(model << " " << mode << " on " << device_gb << " GB: " << m.total_bytes() / 1e9 << " GB (weights "
                  << m.weights_bytes / 1e9 << ", gradients " << m.gradients_bytes / 1e9 << ", optimizer "
                  << m.optimizer_bytes / 1e9 << ", dequantised " << m.gathered_bytes / 1e9 << ", activations "
                  << m.activations_bytes / 1e9 << ", overhead " << m.overhead_bytes / 1e9 << "; resident "
                  << m.resident_bytes() / 1e9 << " GB, paged optimizer " << m.paged_bytes / 1e9 << " GB)");
    CHECK(m.fits() == f["fits"].get<bool>());
  }
}

TEST_CASE("finetune: adapter counts and checkpoint size (Hu et al. 2021)") {
  const json data = Data();
  for (const json& a : data["adapters"]) {
    Scenario s = test::MustParse(R"({"workload": {"model": ")" + a["model"].get<std::string>() +
                                 R"(", "finetune": "lora", "lora_targets": ")" + a["targets"].get<std::string>() +
                                 R"(", "lora_rank": )" + std::to_string(a["lora_rank"].get<int>()) + "}}");
    if (a.contains("trainable")) {
      CHECK(TrainableParams(s) == doctest::Approx(a["trainable"].get<double>()).epsilon(0.01));
    } else {
      s.reliability.checkpoint_bytes_per_param = a["checkpoint_bytes_per_param"].get<double>();
      const Result r = Evaluate(s);
      REQUIRE(r.ok);
      MESSAGE("GPT-3 LoRA checkpoint " << r.checkpoint_gb * 1e3 << " MB");
      CHECK(r.checkpoint_gb <= a["checkpoint_gb_at_most"].get<double>());
      CHECK(r.checkpoint_gb > 0);
    }
  }
}

TEST_CASE("finetune: QLoRA stores frozen weights at 4.127 bits; adapters carry gradients and optimizer state") {
  CHECK(kNf4BitsPerParam == doctest::Approx(4.127).epsilon(1e-3));  // QLoRA section 3: 0.127 bits of constants
  const Scenario lora = FineTune("llama-2-7b", "lora"), qlora = FineTune("llama-2-7b", "qlora");
  const Scenario full = FineTune("llama-2-7b", "full");
  const MemoryBreakdown ml = Memory(lora, 80), mq = Memory(qlora, 80), mf = Memory(full, 80);
  const double adapters = TrainableParams(lora);
  // Llama 2 7B, r = 64 on Q, K, V, O (4 x 64 x 8192) and gate, up, down (3 x 64 x 15104) per layer, 32 layers.
  CHECK(adapters == doctest::Approx(32.0 * (4 * 64 * 8192 + 3 * 64 * (4096 + 11008))));
  CHECK(ml.gradients_bytes == doctest::Approx(adapters * 2));
  CHECK(ml.optimizer_bytes == doctest::Approx(adapters * 8));  // fp32 Adam moments, no master copy
  CHECK(ml.weights_bytes == doctest::Approx((6.74e9 + adapters) * 2).epsilon(0.01));
  const double embedding = 2 * 32000.0 * 4096;  // input and output embeddings stay 16-bit
  CHECK(mq.weights_bytes == doctest::Approx((ml.weights_bytes / 2 - adapters - embedding) * kNf4BitsPerParam / 8 +
                                            (embedding + adapters) * 2).epsilon(0.002));
  CHECK(mq.gathered_bytes == doctest::Approx(4096.0 * 11008 * 2));  // the widest matrix dequantised
  CHECK(mq.total_bytes() < ml.total_bytes());
  CHECK(mq.paged_bytes == doctest::Approx(mq.optimizer_bytes));  // QLoRA's paged AdamW
  CHECK(ml.paged_bytes == 0);
  CHECK(ml.total_bytes() < mf.total_bytes());
  CHECK(ml.activations_bytes == doctest::Approx(mf.activations_bytes));
}

TEST_CASE("finetune: FLOPs are 4 N + 6 x adapters per token (+ attention); the checkpoint holds the adapters") {
  Scenario full = FineTune("llama-2-7b", "full"), lora = FineTune("llama-2-7b", "lora");
  full.cluster.mfu = lora.cluster.mfu = 0.4;
  const Result rf = Evaluate(full), rl = Evaluate(lora);
  REQUIRE(rf.ok);
  REQUIRE(rl.ok);
  const double n = full.workload.params, attention = 12.0 * 32 * 4096 * 512;
  CHECK(rf.flops_per_token == doctest::Approx(6 * n + attention));
  CHECK(rl.flops_per_token == doctest::Approx(4 * n + 6 * TrainableParams(lora) + attention));
  CHECK(rl.ideal_hours < rf.ideal_hours);
  CHECK(rl.checkpoint_gb == doctest::Approx(TrainableParams(lora) * lora.reliability.checkpoint_bytes_per_param / 1e9));
  CHECK(rl.checkpoint_gb < rf.checkpoint_gb / 20);
}

TEST_CASE("finetune: lora without a model shape is refused naming the field") {
  const ScenarioParse p = ParseScenarioJson(R"({"workload": {"finetune": "qlora"}})");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].path == "workload.finetune");
  const ScenarioParse bad = ParseScenarioJson(R"({"workload": {"model": "llama-2-7b", "finetune": "dora"}})");
  REQUIRE(!bad.ok());
  CHECK(bad.errors[0].path == "workload.finetune");
  CHECK(bad.errors[0].message.find("full, lora, qlora") != std::string::npos);
}

// ---- Issue 46: the step of a fine-tuning job, from first principles ----
namespace {

// Llama 2 70B LoRA as MLPerf Training runs it (rank 16 on the attention, 8,192 tokens, FP8, NeMo), on `gpus` H100.
Scenario MlperfLora(int gpus, int tensor, int context, const char* extra = "") {
  return test::MustParse(std::string(R"({"cluster": {"gpu": "h100-sxm", "gpus": )") + std::to_string(gpus) +
                         R"(, "framework": "nemo"}, "workload": {"model": "llama-2-70b", "tokens": 1e9, "seq_len": 8192,
      "precision": "fp8", "finetune": "lora", "lora_rank": 16, "lora_targets": "attention", "frozen_precision": "fp8")" +
                         extra + R"(}, "parallel": {"tensor_parallel": )" + std::to_string(tensor) +
                         R"(, "context_parallel": )" + std::to_string(context) + R"(, "sequence_parallel": true,
      "flash_attention": true, "micro_batch": 1, "global_batch": )" + std::to_string(gpus / (tensor * context)) + "}}");
}

StepTime Step(const Scenario& s) {
  EffectiveHardware hw;
  REQUIRE(ResolveHardware(s, &hw));
  return EstimateStepTime(ShapeFromScenario(s), LayoutFromScenario(s), StepHardwareFor(s, hw));
}

}  // namespace

TEST_CASE("finetune step: data parallelism reduces the adapters only (issue 46: LoRA at 1,024 H100 synced the full model)") {
  const Scenario lora = MlperfLora(1024, 4, 2);
  Scenario full = lora;
  full.finetune.mode = 0;
  const StepTime l = Step(lora), f = Step(full);
  REQUIRE(l.ok());
  REQUIRE(f.ok());
  // Bytes reduced per step: adapters (rank 16 on Q, K, V and O of 80 layers: 16 (2 (8192 + 8192) + 2 (8192 + 1024))
  // x 80 = 65.5M) against the 70B: under 0.1%; the time follows (each all-reduce pays its latency).
  CHECK(AdapterParams(ShapeFromScenario(lora)) == doctest::Approx(16.0 * (2 * (8192 + 8192) + 2 * (8192 + 1024)) * 80));
  CHECK(l.dp_comm_total_seconds < 0.01 * f.dp_comm_total_seconds);
  // The optimizer steps the adapters alone.
  CHECK(l.optimizer_seconds < 0.01 * f.optimizer_seconds);
  // Model FLOPs: 4 N + 6 x adapters per token (+ attention), not 6 N.
  const double n = f.params, tokens = 128.0 * 8192, attention = 12.0 * 80 * 8192 * 8192;
  CHECK(l.model_flops == doctest::Approx(tokens * (4 * n + 6 * AdapterParams(ShapeFromScenario(lora)) + attention)));
}

TEST_CASE("finetune step: a frozen base computes input gradients only (one backward GEMM, not two)") {
  // A shape with negligible attention and elementwise work (short sequences, wide layers), rank 1 adapters: the
  // step's GEMMs are the forward's, plus the input gradients (LoRA) or plus both gradients (full), each at its rate.
  Scenario s = test::MustParse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 1}, "workload": {"params": 1.6e10,
      "layers": 4, "hidden": 16384, "heads": 128, "seq_len": 512, "vocab": 32000, "tokens": 1e9,
      "finetune": "lora", "lora_rank": 1}, "parallel": {"micro_batch": 8, "global_batch": 8, "flash_attention": true}})");
  EffectiveHardware hw;
  REQUIRE(ResolveHardware(s, &hw));
  const StepHardware h = StepHardwareFor(s, hw);
  const StepTime lora = Step(s);
  s.finetune.mode = 0;
  const StepTime full = Step(s);
  const double expected = (1 + 1 / h.input_grad_gemm_rate) / (1 + 1 / h.input_grad_gemm_rate + 1 / h.backward_gemm_rate);
  CHECK(lora.compute_seconds / full.compute_seconds == doctest::Approx(expected).epsilon(0.05));
}

TEST_CASE("finetune step: MLPerf's LoRA on 8 H200 with FP8-stored frozen weights fits (it ran); 16-bit ones do not") {
  // NVIDIA's MLPerf Training v4.1 submission: TP1, CP2, 4 data-parallel pairs, fp8_params (NeMo config).
  Scenario s = test::MustParse(R"({"cluster": {"gpu": "h200-sxm", "gpus": 8, "framework": "nemo"},
      "workload": {"model": "llama-2-70b", "tokens": 1e8, "seq_len": 8192, "precision": "fp8", "finetune": "lora",
      "lora_rank": 16, "lora_targets": "attention", "frozen_precision": "fp8"},
      "parallel": {"tensor_parallel": 1, "context_parallel": 2, "global_batch": 8, "micro_batch": 1, "flash_attention": true}})");
  const Result fp8 = Evaluate(s);
  REQUIRE(fp8.ok);
  CHECK(fp8.memory.fits());
  // The 70B's linear layers at one byte each, the embeddings at two: about 64 GiB of weights.
  CHECK(fp8.memory.weights_bytes / kBytesPerGib == doctest::Approx(64.5).epsilon(0.03));
  s.finetune.frozen_precision = static_cast<int>(FrozenPrecision::kBf16);
  const Result bf16 = Evaluate(s);
  CHECK_FALSE(bf16.memory.fits());
}

TEST_CASE("finetune step: QLoRA de-quantises its NF4 weights each pass; FP8 weights in an FP8 job are used as stored") {
  Scenario q = test::MustParse(R"({"cluster": {"gpu": "a100-sxm-80gb", "gpus": 1}, "workload": {"model": "llama-3.1-8b",
      "tokens": 1e8, "seq_len": 2048, "finetune": "qlora", "lora_rank": 16}, "parallel": {"global_batch": 4, "micro_batch": 4,
      "flash_attention": true}})");
  Scenario l = q;
  l.finetune.mode = static_cast<int>(Finetune::kLora);
  const StepTime qlora = Step(q), lora = Step(l);
  // Per pass (forward, backward) the layers' 6.98B weights are read at 4.127 bits and written at 16: 2.52 bytes each,
  // 17.6 GB, at most the HBM's 2.04 TB/s: at least 2 x 8.6 ms more memory-bound time per step.
  const double per_pass = 218.1e6 * 32 * (kNf4BitsPerParam / 8 + 2) / 2.039e12;
  CHECK(qlora.memory_bound_seconds - lora.memory_bound_seconds >= 2 * per_pass);
  CHECK(qlora.memory_bound_seconds - lora.memory_bound_seconds <= 2 * per_pass / 0.9);
  // FP8-stored weights in an FP8 job: no de-quantisation.
  const Scenario fp8 = MlperfLora(8, 4, 1);
  Scenario fp8_16 = fp8;
  fp8_16.finetune.frozen_precision = static_cast<int>(FrozenPrecision::kBf16);
  CHECK(Step(fp8).memory_bound_seconds == doctest::Approx(Step(fp8_16).memory_bound_seconds));
}

TEST_CASE("finetune step: padding computes but does not count (workload.real_token_fraction)") {
  Scenario s = MlperfLora(64, 4, 2);
  const StepTime packed = Step(s);
  s.finetune.real_token_fraction = 0.5;
  const StepTime padded = Step(s);
  CHECK(padded.seconds == doctest::Approx(packed.seconds));               // every slot is computed
  CHECK(padded.tokens_per_second == doctest::Approx(0.5 * packed.tokens_per_second));  // half of them count
  CHECK(padded.mfu == doctest::Approx(0.5 * packed.mfu));
  // Through the job: the same real tokens take twice the GPU time.
  Scenario a = MlperfLora(64, 4, 2), b = a;
  b.finetune.real_token_fraction = 0.5;
  const Result ra = Evaluate(a), rb = Evaluate(b);
  CHECK(rb.ideal_hours == doctest::Approx(2 * ra.ideal_hours));
}

TEST_CASE("finetune step: ZeRO-3 / FSDP gathers the frozen weights at their stored width, three times with full recompute") {
  Scenario s = test::MustParse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 8}, "workload": {"model": "llama-2-70b",
      "tokens": 1e8, "seq_len": 4096, "finetune": "lora", "lora_rank": 16, "frozen_precision": "bf16"},
      "parallel": {"zero_stage": 3, "global_batch": 8, "micro_batch": 1, "recompute": "full", "flash_attention": true}})");
  const StepTime bf16 = Step(s);
  s.finetune.frozen_precision = static_cast<int>(FrozenPrecision::kNf4);
  const StepTime nf4 = Step(s);
  // Gathered bytes scale with the stored width: NF4's 4.127 bits against 16.
  CHECK(nf4.dp_comm_total_seconds / bf16.dp_comm_total_seconds == doctest::Approx(kNf4BitsPerParam / 16).epsilon(0.05));
  s.parallel.recompute = static_cast<int>(Recompute::kNone);
  s.finetune.frozen_precision = static_cast<int>(FrozenPrecision::kBf16);
  CHECK(bf16.dp_comm_total_seconds / Step(s).dp_comm_total_seconds == doctest::Approx(1.5).epsilon(0.02));
}

TEST_CASE("finetune step: packed short documents attend within themselves (workload.packed_document_tokens)") {
  // Llama 2 7B at 4,096 tokens, one H100, no recompute: the attention core's FLOPs per token are 12 L h x the span
  // each token attends within (forward + backward, QK^T and AV), worked by hand here.
  Scenario s = test::MustParse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 1, "framework": "nemo"},
      "workload": {"model": "llama-2-7b", "tokens": 1e8, "seq_len": 4096, "finetune": "full"},
      "parallel": {"micro_batch": 1, "global_batch": 8, "recompute": "none", "flash_attention": true}})");
  const StepTime whole = Step(s);
  s.finetune.packed_document_tokens = 4096;  // one document as long as the sequence: the same as none
  CHECK(Step(s).seconds == doctest::Approx(whole.seconds));
  s.finetune.packed_document_tokens = 256;
  const StepTime packed = Step(s);
  const double tokens = 8.0 * 4096, per_token = 12.0 * 32 * 4096;
  CHECK((whole.model_flops - packed.model_flops) / tokens == doctest::Approx(per_token * (4096 - 256)));
  CHECK(packed.seconds < whole.seconds);
  CHECK(packed.compute_seconds < whole.compute_seconds);
  // An unfused kernel computes every score of the pack and masks after: no time saved.
  s.parallel.flash_attention = false;
  const StepTime unfused = Step(s);
  s.finetune.packed_document_tokens = 0;
  CHECK(Step(s).compute_seconds == doctest::Approx(unfused.compute_seconds));
}
