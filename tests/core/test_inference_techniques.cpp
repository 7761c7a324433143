// Issue 28: speculative decoding, prefix caching, quantised weights and MoE serving (inference_techniques.h)
// against published figures (tests/data/inference_techniques_published.json), hand-worked cases and an
// independent Monte Carlo of the acceptance process; the router tier.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "comm.h"
#include "evaluate.h"
#include "inference.h"
#include "inference_model.h"
#include "inference_techniques.h"
#include "json_io.h"
#include "models.h"
#include "presets.h"
#include "result.h"
#include "rng.h"

using namespace gpucost;
using nlohmann::json;

namespace {

json TechniquesData() {
  std::ifstream f(std::string(GPUCOST_TEST_DATA_DIR) + "/inference_techniques_published.json");
  REQUIRE(f.good());
  return json::parse(f);
}

Scenario TechniquesParse(const std::string& text) {
  const ScenarioParse p = ParseScenarioJson(text);
  std::string errors;
  for (const InputError& e : p.errors) errors += e.Text() + "; ";
  REQUIRE_MESSAGE(p.ok(), errors);
  return p.scenario;
}

Scenario Serving(const char* model, const char* gpu, int tp, const char* precision, const std::string& extra = "") {
  return TechniquesParse(std::string(R"({"schema": "gpucost/scenario@1", "workload": {"kind": "inference", "model": ")") + model +
               R"("}, "cluster": {"gpu": ")" + gpu + R"("}, "parallel": {"tensor_parallel": )" + std::to_string(tp) +
               R"(}, "pricing": {"usd_per_gpu_hour": 2}, "inference": {"weight_precision": ")" + precision + "\"" + extra + "}}");
}

}  // namespace

TEST_CASE("speculative decoding: (1 - a^(k+1)) / (1 - a) tokens per step equals a Monte Carlo of the acceptance process") {
  Rng rng(28);
  for (double a : {0.5, 0.6, 0.75, 0.8, 0.9}) {
    for (int k : {1, 3, 5, 7}) {
      // Independent: draft k tokens, accept each with probability a until the first rejection; the target adds one.
      double tokens = 0;
      const int trials = 200000;
      for (int t = 0; t < trials; ++t) {
        int accepted = 0;
        while (accepted < k && rng.Uniform() < a) ++accepted;
        tokens += accepted + 1;
      }
      CAPTURE(a);
      CAPTURE(k);
      CHECK(SpeculativeTokensPerStep(a, k) == doctest::Approx(tokens / trials).epsilon(0.01));
    }
  }
  CHECK(SpeculativeTokensPerStep(0.8, 4) == doctest::Approx(3.3616));  // hand-worked: (1 - 0.32768) / 0.2
}

TEST_CASE("speculative decoding: EAGLE on Vicuna-7B at batch 1 (Spec-Bench, 3.59 accepted tokens, 2.08x)") {
  const json src = TechniquesData()["speculative_eagle_spec_bench"];
  const double accepted = src["mean_accepted_tokens_per_step"].get<double>();
  const int k = src["draft_tokens_per_step"].get<int>();
  // The acceptance rate whose expected tokens per step at depth k are the published mean (bisection).
  double lo = 0.01, hi = 0.999;
  for (int i = 0; i < 60; ++i) ((SpeculativeTokensPerStep(0.5 * (lo + hi), k) < accepted) ? lo : hi) = 0.5 * (lo + hi);
  const double a = 0.5 * (lo + hi);
  const std::string rtx3090 = R"(, "input_tokens": 128, "output_tokens": 256, "requests_per_second": 0.001)";
  Scenario plain = Serving("llama-2-7b", "h100-sxm", 1, "fp16", rtx3090);
  plain.cluster.hbm_tbps = 0.936;
  plain.cluster.peak_tflops = 71;
  Scenario eagle = plain;
  eagle.inference.speculative.tokens_per_step = k;
  eagle.inference.speculative.acceptance_rate = a;
  eagle.inference.speculative.draft_params = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 32000.0 * 4096;
  REQUIRE(ValidateScenario(eagle).empty());
  const Result rp = Evaluate(plain), re = Evaluate(eagle);
  REQUIRE(rp.ok);
  REQUIRE(re.ok);
  CHECK(re.inference.spec_tokens_per_step == doctest::Approx(accepted).epsilon(1e-6));
  const double speedup = rp.inference.tpot_ms.mean / re.inference.tpot_ms.mean;
  MESSAGE("EAGLE speedup: model " << speedup << " vs published " << src["speedup"].get<double>());
  CHECK(speedup == doctest::Approx(src["speedup"].get<double>()).epsilon(src["tolerance"].get<double>()));
  // The draft's weights are held next to the target's.
  CHECK(re.inference.weights_gb_per_gpu > rp.inference.weights_gb_per_gpu);
}

TEST_CASE("speculative decoding: a draft model's weights and KV cache are held; inputs refused when incomplete") {
  Scenario s = Serving("llama-2-70b", "h100-sxm", 4, "bf16");
  Scenario d = s;
  std::snprintf(d.inference.speculative.draft_model, sizeof d.inference.speculative.draft_model, "%s", "llama-2-7b");
  d.inference.speculative.tokens_per_step = 4;
  d.inference.speculative.acceptance_rate = 0.7;
  REQUIRE(ValidateScenario(d).empty());
  const InferenceModel m = InferenceModelFor(d);
  CHECK(m.draft_params == doctest::Approx(FindModel("llama-2-7b")->params));
  CHECK(m.draft_kv_bytes_per_token == doctest::Approx(2.0 * 32 * 32 * 128 * 2));  // 7B: 32 layers x 32 KV heads x 128
  const Result r0 = Evaluate(s), r1 = Evaluate(d);
  REQUIRE(r1.ok);
  CHECK(r1.inference.max_concurrency < r0.inference.max_concurrency);  // less room for the cache
  CHECK(r1.inference.tpot_ms.p50 < r0.inference.tpot_ms.p50);          // fewer target steps per token
  Scenario bad = s;
  bad.inference.speculative.tokens_per_step = 4;
  std::string paths;
  for (const InputError& e : ValidateScenario(bad)) paths += e.path + ";";
  CHECK(paths.find("inference.speculative.acceptance_rate") != std::string::npos);
  CHECK(paths.find("inference.speculative.draft_model") != std::string::npos);
}

TEST_CASE("prefix caching: prefill FLOPs saved as hand-worked, the shared KV held once, TTFT falls") {
  Scenario s = Serving("llama-2-70b", "h100-sxm", 4, "bf16", R"(, "input_tokens": 2000, "output_tokens": 200)");
  Scenario c = s;
  c.inference.prefix_tokens = 1500;
  c.inference.prefix_cache_hit = 0.8;
  REQUIRE(ValidateScenario(c).empty());
  const InferenceModel m = InferenceModelFor(c);
  // Hand-worked: 1,200 cached tokens on average; 2 P' (2000 - 1200) + 2 L h (2000^2 - 1200^2) + 2 h V.
  const double p = m.active_matmul_params, L = 80, h = 8192, V = 32000;
  const double expected = 2 * p * 800 + 2 * L * h * (2000.0 * 2000 - 1200.0 * 1200) + 2 * h * V;
  CHECK(PrefillFlops(m, 2000) == doctest::Approx(expected));
  const Result r0 = Evaluate(s), r1 = Evaluate(c);
  REQUIRE(r1.ok);
  CHECK(r1.inference.prefill_saved_share == doctest::Approx(1 - expected / (2 * p * 2000 + 2 * L * h * 2000.0 * 2000 + 2 * h * V)));
  CHECK(r1.inference.prefill_ms < r0.inference.prefill_ms);
  CHECK(r1.inference.max_concurrency >= r0.inference.max_concurrency);
  CHECK(r1.inference.kv_saved_gb_per_replica > 0);
  CHECK(r1.inference.usd_per_request <= r0.inference.usd_per_request);
  // Refused: a prefix without a hit rate, a prefix as long as the prompt.
  Scenario bad = s;
  bad.inference.prefix_tokens = 2000;
  std::string paths;
  for (const InputError& e : ValidateScenario(bad)) paths += e.path + ";";
  CHECK(paths.find("inference.prefix_cache_hit") != std::string::npos);
  CHECK(paths.find("inference.prefix_tokens") != std::string::npos);
}

TEST_CASE("quantised weights: DeepSeek-V3 at fp8 671 GB and int4 ~335 GB; int4 reads weights ~4x faster (Marlin)") {
  const json src = TechniquesData();
  const json& ds = src["deepseek_v3_weights"];
  for (const auto& pair : {std::pair{"fp8", "fp8_gb"}, std::pair{"int4", "int4_gb"}}) {
    const char* precision = pair.first;  // not a structured binding: clang 14 cannot CAPTURE one
    const char* key = pair.second;
    Scenario s = Serving("deepseek-v3", "h200-sxm", 8, precision);
    const InferenceModel m = InferenceModelFor(s);
    CAPTURE(precision);
    CHECK(m.params * m.weight_bytes_per_param / 1e9 == doctest::Approx(ds[key].get<double>()).epsilon(ds["tolerance"].get<double>()));
  }
  // Weight-reading part of a decode step at batch 16 (no step overhead, short context): fp16 / int4 close to 4x.
  const json& marlin = src["int4_decode_speedup"];
  Scenario fp16 = Serving("llama-2-70b", "a100-sxm-80gb", 1, "fp16", R"(, "input_tokens": 16, "output_tokens": 16, "step_overhead_ms": 0)");
  Scenario int4 = fp16;
  int4.inference.weight_precision = static_cast<int>(WeightPrecision::kInt4);
  const InferenceModel m16 = InferenceModelFor(fp16), m4 = InferenceModelFor(int4);
  const GpuSpec& a100 = *FindGpu("a100-sxm-80gb");
  const double ratio = DecodeStepSeconds(m16, ReplicaFor(fp16, m16, a100, 1), 16) /
                       DecodeStepSeconds(m4, ReplicaFor(int4, m4, a100, 1), 16);
  MESSAGE("fp16 / int4 decode step at batch 16: " << ratio << " (Marlin: close to " << marlin["speedup_ideal"].get<double>() << "x)");
  CHECK(ratio > 3.5);
  CHECK(ratio <= 4.0 + 1e-9);
  // fp8 halves the bytes: 2x at the same batch.
  Scenario fp8 = fp16;
  fp8.inference.weight_precision = static_cast<int>(WeightPrecision::kFp8);
  std::snprintf(fp8.cluster.gpu, sizeof fp8.cluster.gpu, "%s", "h100-sxm");
  Scenario h16 = fp16;
  std::snprintf(h16.cluster.gpu, sizeof h16.cluster.gpu, "%s", "h100-sxm");
  const InferenceModel m8 = InferenceModelFor(fp8), mh = InferenceModelFor(h16);
  const GpuSpec& h100 = *FindGpu("h100-sxm");
  const double ratio8 = DecodeStepSeconds(mh, ReplicaFor(h16, mh, h100, 1), 16) / DecodeStepSeconds(m8, ReplicaFor(fp8, m8, h100, 1), 16);
  CHECK(ratio8 > 1.9);
  CHECK(ratio8 <= 2.0 + 1e-9);
  // The precisions each GPU runs: an A100 has no fp8.
  Scenario a100_fp8 = Serving("llama-2-7b", "a100-sxm-80gb", 1, "int8");
  a100_fp8.inference.weight_precision = static_cast<int>(WeightPrecision::kFp8);
  std::string paths;
  for (const InputError& e : ValidateScenario(a100_fp8)) paths += e.path + ";";
  CHECK(paths.find("inference.weight_precision") != std::string::npos);
}

TEST_CASE("MoE serving: Mixtral int8 on one A100 decodes near the published 81 tokens/s (Baseten, TensorRT-LLM)") {
  const json src = TechniquesData()["mixtral_int8_a100"];
  Scenario s = Serving("mixtral-8x7b", "a100-sxm-80gb", 1, "int8",
                       R"(, "input_tokens": 512, "output_tokens": 128, "requests_per_second": 0.001)");
  const InferenceModel m = InferenceModelFor(s);
  // Compute follows the active parameters, memory all of them; one token reads the active experts' weights.
  CHECK(m.params == doctest::Approx(46.7e9));
  CHECK(m.active_matmul_params < 13e9);
  CHECK(DecodeWeightShare(m, 1) == doctest::Approx(12.9 / 46.7).epsilon(0.01));
  CHECK(DecodeWeightShare(m, 1000) == doctest::Approx(1).epsilon(1e-6));
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.inference.fits);
  const double tokens_per_s = 1e3 / r.inference.tpot_ms.mean;
  MESSAGE("Mixtral int8 A100 decode: model " << tokens_per_s << " tokens/s vs published " << src["perceived_tokens_per_second"].get<double>());
  CHECK(tokens_per_s == doctest::Approx(src["perceived_tokens_per_second"].get<double>()).epsilon(src["tolerance"].get<double>()));
  // Expert parallel over 4 GPUs: the all-to-alls replace the MLP all-reduce. Hand-worked: dispatch and combine
  // each send tokens x k x h x 2 bytes / t x (t - 1) / t per GPU, plus a hop; the ring all-reduce they replace moves
  // 2 (t - 1) / t of tokens x h x 2 bytes with 2 (t - 1) hops.
  Scenario ep4 = s;
  ep4.parallel.tensor_parallel = 4;
  const InferenceModel m4 = InferenceModelFor(ep4);
  const ReplicaModel r4 = ReplicaFor(ep4, m4, *FindGpu("a100-sxm-80gb"), 4);
  const double bw = r4.links.nvlink_bytes_per_s, tokens = 64, h = 4096;
  const double a2a = 2 * (tokens * 2 * h * 2 / 4 * 3 / 4 / bw + kNvlinkHopSeconds);
  const double ar = 2 * 0.75 * tokens * h * 2 / bw + 2 * 3 * kNvlinkHopSeconds;
  CHECK(MoeAllToAllSeconds(m4, r4, tokens) == doctest::Approx(32 * (a2a - ar)));
}

TEST_CASE("router: a disaggregated set-up pays the sourced load-balancer tier by default; its latency adds to TTFT") {
  Scenario s;
  std::string error;
  REQUIRE_MESSAGE(LoadPreset("llama2-70b-split-h100-a100", &s, &error), error);
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.inference.router_usd_per_hour == doctest::Approx(0.0305));
  CHECK(r.cost_usd.part[kPartRouter] == doctest::Approx(0.0305 * r.inference.hours / (s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1)));
  Scenario slow = s;
  slow.inference.router.latency_ms = 25;
  slow.inference.router.usd_per_hour = 1;
  const Result rs = Evaluate(slow);
  REQUIRE(rs.ok);
  CHECK(rs.inference.ttft_ms.mean == doctest::Approx(r.inference.ttft_ms.mean + 25));
  CHECK(rs.cost_usd.part[kPartRouter] > r.cost_usd.part[kPartRouter]);
}
