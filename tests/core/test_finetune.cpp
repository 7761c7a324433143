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
