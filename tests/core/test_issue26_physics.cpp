// Issue 26's missing physics, each against a figure worked by hand from the model's published config (not
// from the code under test): the stated head size and MLA's latent cache in the serving KV, tensor-parallel
// overlap bounds, the framework's kernel efficiency and its overlap defaults, the catalog's GPU variants.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "job/result.h"
#include "hardware/framework.h"
#include "serving/inference_model.h"
#include "training/layout.h"
#include "training/steptime.h"
#include "../test_util.h"

using namespace gpucost;

namespace {
Scenario Serve(const char* model, const char* gpu, int tp) {
  const nlohmann::json doc = {{"workload", {{"kind", "inference"}, {"model", model}}},
                              {"cluster", {{"gpu", gpu}, {"gpus", tp}}},
                              {"parallel", {{"tensor_parallel", tp}}}};
  return test::MustParse(doc.dump());
}
}  // namespace

TEST_CASE("serving KV: Gemma 2 27B uses its stated head size (128, not hidden / heads = 144)") {
  // config.json: 46 layers, 16 KV heads, head_dim 128; K and V, 2 bytes: 2 x 46 x 16 x 128 x 2 = 376,832 B.
  const InferenceModel m = InferenceModelFor(Serve("gemma-2-27b", "h100-sxm", 1));
  CHECK(m.kv_bytes_per_token == 376832);
}

TEST_CASE("serving KV: DeepSeek-V3 caches MLA's latent (kv_lora_rank 512 + rope 64), whole on every TP rank") {
  // DeepSeek-V2 (arXiv:2405.04434) section 2.1: (d_c + d_h^R) x layers elements per token; V3 config.json:
  // 61 layers, kv_lora_rank 512, qk_rope_head_dim 64; 2 bytes: 61 x 576 x 2 = 70,272 B (per-head K and V
  // would be 2 x 61 x 128 x 128 x 2 = 3,997,696 B: 57x).
  const Scenario s = Serve("deepseek-v3", "h200-sxm", 8);
  const InferenceModel m = InferenceModelFor(s);
  CHECK(m.kv_bytes_per_token == 70272);
  const ReplicaModel r = ReplicaFor(s, m, *FindGpu("h200-sxm"), 8);
  CHECK(r.kv_bytes_per_token_per_gpu == 70272);
}

TEST_CASE("tensor-parallel overlap: exposed between 1/t of the collectives and all of them; nemo turns it on") {
  const char* const kDoc = R"({
    "cluster": {"gpu": "h100-sxm", "gpus": 64, "framework": "%s"},
    "workload": {"layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048, "vocab": 51200, "tokens": 1e9},
    "parallel": {"global_batch": 64, "tensor_parallel": 8, "pipeline_parallel": 8, "pipeline_interleave": 3,
                 "sequence_parallel": true, "recompute": "selective", "tp_comm_overlap": "%s"}})";
  auto step = [&](const char* framework, const char* overlap) {
    char text[1024];
    std::snprintf(text, sizeof text, kDoc, framework, overlap);
    const Scenario s = test::MustParse(text);
    EffectiveHardware hw;
    REQUIRE(ResolveHardware(s, &hw));
    return EstimateStepTime(ShapeFromScenario(s), LayoutFromScenario(s), StepHardwareFor(s, hw));
  };
  const StepTime off = step("megatron", "off"), on = step("megatron", "on");
  REQUIRE(off.ok());
  REQUIRE(on.ok());
  CHECK(on.tp_comm_seconds < off.tp_comm_seconds);
  CHECK(on.tp_comm_seconds >= off.tp_comm_seconds / 8 * (1 - 1e-9));
  CHECK(on.compute_seconds == off.compute_seconds);  // overlap hides communication, not work
  // Defaults: megatron exposes it (Megatron-LM 2021-22), nemo overlaps it (its performance recipes).
  CHECK(step("megatron", "auto").tp_comm_seconds == off.tp_comm_seconds);
  const StepTime nemo_auto = step("nemo", "auto"), nemo_off = step("nemo", "off");
  CHECK(nemo_auto.tp_comm_seconds < nemo_off.tp_comm_seconds);
}

TEST_CASE("framework: the matrix work of an FSDP job on H100 runs at its measured share of Megatron-LM's rate") {
  const char* const kDoc = R"({
    "cluster": {"gpu": "h100-sxm", "gpus": 8, "framework": "%s"},
    "workload": {"layers": 40, "hidden": 5120, "heads": 40, "seq_len": 2048, "vocab": 50368, "tokens": 1e9},
    "parallel": {"global_batch": 16, "micro_batch": 2, "zero_stage": 3, "recompute": "none", "flash_attention": true}})";
  auto step = [&](const char* framework) {
    char text[1024];
    std::snprintf(text, sizeof text, kDoc, framework);
    const Scenario s = test::MustParse(text);
    EffectiveHardware hw;
    REQUIRE(ResolveHardware(s, &hw));
    const StepHardware shw = StepHardwareFor(s, hw);
    return std::make_pair(shw.kernel_efficiency, EstimateStepTime(ShapeFromScenario(s), LayoutFromScenario(s), shw));
  };
  const auto megatron = step("megatron"), fsdp = step("fsdp");
  CHECK(megatron.first == 1.0);
  CHECK(fsdp.first == doctest::Approx(0.8488).epsilon(0.01));  // framework.cpp: llm-foundry and AutoModel on H100
  // Matrix time grows by at most 1 / efficiency (all GEMMs compute-bound) and at least by the share of the
  // GEMMs that are compute-bound (here all but the HBM-bound small ones: > 95% of the 1 / efficiency).
  CHECK(fsdp.second.compute_seconds <= megatron.second.compute_seconds / fsdp.first * (1 + 1e-9));
  CHECK(fsdp.second.compute_seconds >= 0.95 * megatron.second.compute_seconds / fsdp.first);
  CHECK(fsdp.second.mfu < megatron.second.mfu);
}

TEST_CASE("catalog: the H100 variants published runs used (96 GB HBM2e, H800 with 400 GB/s NVLink, H20)") {
  const GpuSpec* h96 = FindGpu("h100-sxm-96gb");
  const GpuSpec* h800 = FindGpu("h800-sxm");
  const GpuSpec* h20 = FindGpu("h20");
  REQUIRE(h96 != nullptr);
  REQUIRE(h800 != nullptr);
  REQUIRE(h20 != nullptr);
  CHECK(h96->hbm_gb == 96);
  CHECK(h96->hbm_tbps == 2.4);  // torchtitan docs: 2.4 TB/s
  CHECK(h800->nvlink_gbps == 400);
  CHECK(DensePeakTflops(*h20, Precision::kBf16) == 148);
  CHECK(DensePeakTflops(*h20, Precision::kFp8) == 0);  // not confirmed by a source: refused, not guessed
}

TEST_CASE("expert all-to-all overlap: exposed only beyond the stage's compute, never more than without it") {
  // DeepSeek-V3's layout (arXiv:2412.19437 section 3.2: PP16, EP64 over 8 nodes, ZeRO-1 data parallel) on H800.
  const char* const kDoc = R"({
    "cluster": {"gpu": "h800-sxm", "gpus": 2048},
    "workload": {"model": "deepseek-v3", "tokens": 1e9},
    "parallel": {"global_batch": 1536, "pipeline_parallel": 16, "data_parallel": 128, "zero_stage": 1,
                 "flash_attention": true, "recompute": "none", "ep_comm_overlap": "%s", "expert_parallel": 64}})";
  auto step = [&](const char* overlap) {
    char text[1024];
    std::snprintf(text, sizeof text, kDoc, overlap);
    const Scenario s = test::MustParse(text);
    EffectiveHardware hw;
    REQUIRE(ResolveHardware(s, &hw));
    return EstimateStepTime(ShapeFromScenario(s), LayoutFromScenario(s), StepHardwareFor(s, hw));
  };
  const StepTime off = step("off"), on = step("on");
  REQUIRE(off.ok());
  REQUIRE(on.ok());
  CHECK(off.ep_comm_seconds > 0);
  CHECK(on.ep_comm_seconds < off.ep_comm_seconds);
  CHECK(on.ep_comm_seconds >= 0);
  CHECK(on.compute_seconds == off.compute_seconds);
  CHECK(step("auto").ep_comm_seconds == off.ep_comm_seconds);  // no framework here overlaps it by default
}

TEST_CASE("a training total worked by hand: 1e21 FLOPs on 8 H100 at 40% MFU, no failures, USD 2/GPU-hour") {
  // Independent of the parts' sum: ideal hours = FLOPs / (GPUs x dense BF16 peak x MFU) = 1e21 / (8 x 989.4e12 x
  // 0.4) / 3600 = 87.74 h (H100 SXM whitepaper: 989.4 TFLOP/s dense BF16); the compute part of the bill is
  // 8 x 87.74 h x USD 2 = USD 1,403.9.
  const Scenario s = test::MustParse(R"({
    "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.4},
    "workload": {"flops": 1e21},
    "reliability": {"gpu_mtbf_hours": 0},
    "pricing": {"usd_per_gpu_hour": 2.0}})");
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const double hours = 1e21 / (8 * 989.4e12 * 0.4) / 3600;
  CHECK(r.ideal_hours == doctest::Approx(hours).epsilon(1e-6));
  CHECK(r.cost_usd.part[kPartCompute] == doctest::Approx(8 * hours * 2.0).epsilon(1e-4));
  CHECK(r.expected_usd >= 8 * hours * 2.0 * (1 - 1e-4));  // the other parts add, never subtract
}

TEST_CASE("an offline run of N requests: whole waves at the steady rate, then a smaller last wave") {
  const Scenario s = Serve("llama-3.1-70b", "h100-sxm", 2);
  const InferenceModel m = InferenceModelFor(s);
  const GpuSpec* gpu = FindGpu("h100-sxm");
  REQUIRE(gpu != nullptr);
  const ReplicaModel r = ReplicaFor(s, m, *gpu, 2);
  REQUIRE(r.max_concurrency > 8);
  const double service = ColocatedPrefillSeconds(m, r), b = static_cast<double>(r.max_concurrency);
  const double rate = SaturatedRate(m, r, service, true, true, true);  // the steady state, another function
  // Whole waves: exactly the steady rate's time.
  CHECK(OfflineBatchSeconds(m, r, 3 * b, service) == doctest::Approx(3 * b / rate).epsilon(1e-9));
  // One request more: a whole wave of decode steps for it alone, by hand from the step at batch 1.
  const double one_more = service + DecodeSteps(m) * DecodeStepSeconds(m, r, 1);
  CHECK(OfflineBatchSeconds(m, r, 3 * b + 1, service) == doctest::Approx(3 * b / rate + one_more).epsilon(1e-9));
  CHECK(one_more > 1 / rate);  // far more than its share at the full batch
  CHECK(OfflineBatchSeconds(m, r, 0, service) == 0);
}

TEST_CASE("a batch job is an offline run: its hours are whole waves at the steady rate and a smaller last wave") {
  // Colocated, no time-between-tokens target, 2 replicas: every request queued at once, each replica serving half.
  auto job = [](double requests) {
    nlohmann::json doc = {{"workload", {{"kind", "inference"}, {"model", "llama-3.1-70b"}}},
                          {"cluster", {{"gpu", "h100-sxm"}, {"gpus", 4}}},
                          {"parallel", {{"tensor_parallel", 2}}},
                          {"inference", {{"requests", requests}, {"decode", {{"replicas", 2}}}}}};
    return test::MustParse(doc.dump());
  };
  const Scenario probe = job(1);
  const InferenceModel m = InferenceModelFor(probe);
  const ReplicaModel r = ReplicaFor(probe, m, *FindGpu("h100-sxm"), 2);
  const double b = static_cast<double>(r.max_concurrency), service = ColocatedPrefillSeconds(m, r);
  const double rate = SaturatedRate(m, r, service, true, true, true);
  const Result whole = Evaluate(job(2 * 4 * b));  // 4 whole waves per replica: the steady rate, no headroom
  REQUIRE(whole.ok);
  CHECK(whole.inference.hours * 3600 == doctest::Approx(4 * b / rate).epsilon(1e-9));
  // Two requests more (one per replica): each replica runs a last wave of one sequence, by hand.
  const Result more = Evaluate(job(2 * 4 * b + 2));
  REQUIRE(more.ok);
  CHECK(more.inference.hours * 3600 ==
        doctest::Approx(4 * b / rate + service + DecodeSteps(m) * DecodeStepSeconds(m, r, 1)).epsilon(1e-9));
}
