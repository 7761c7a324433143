// test_util.h — helpers shared by the core tests.
#pragma once
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <cmath>

#include <doctest/doctest.h>

#include "job/result.h"
#include "job/validate.h"
#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost::test {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string DataPath(const std::string& name) { return std::string(GPUCOST_TEST_DATA_DIR) + "/" + name; }
inline std::string AssetPath(const std::string& name) { return std::string(GPUCOST_ASSETS_DIR) + "/" + name; }

// Parses scenario JSON, failing the test with every error if invalid.
inline Scenario MustParse(const std::string& text) {
  ScenarioParse p = ParseScenarioJson(text);
  if (!p.ok()) {
    std::string all;
    for (const InputError& e : p.errors) all += e.Text() + "\n";
    throw std::runtime_error("invalid scenario:\n" + all);
  }
  return p.scenario;
}

// Llama 2 70B's shape (Touvron et al. 2023, arXiv:2307.09288, Table 1 and the published config): 80 layers,
// hidden 8,192, 64 heads with 8 KV heads, SwiGLU MLP of 28,672, vocabulary 32,000, 4,096-token sequences.
inline void SetLlama2_70BShape(Scenario* s) {
  s->workload.params = 70e9;
  s->workload.layers = 80;
  s->workload.hidden = 8192;
  s->workload.heads = 64;
  s->workload.kv_heads = 8;
  s->workload.seq_len = 4096;
  s->workload.vocab = 32000;
  s->workload.ffn_hidden = 28672;
  s->workload.ffn_gated = 1;
}

// The 70B full fine-tune of issue 14: Llama 2 70B's shape on 1B tokens, 64 GPUs (8-GPU nodes), a given 40% MFU,
// global batch 128 sequences, tensor parallel 8, ZeRO 3 (fits in 80 GB).
inline Scenario FineTune70B() {
  Scenario s = DefaultScenario();
  SetLlama2_70BShape(&s);
  s.workload.tokens = 1e9;
  s.cluster.gpus = 64;
  s.cluster.mfu = 0.4;
  s.parallel.global_batch = 128;
  s.parallel.tensor_parallel = 8;
  s.parallel.zero_stage = 3;
  return s;
}

// A seeded splitmix64 stream of uniform numbers in [0, 1) (the same draws natively and in WebAssembly).
struct Uniform {
  std::uint64_t state;
  double operator()() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
};

// A result's parts add up to its totals and are finite and >= 0; the billed hours hold the compute; the expected
// run is no cheaper or shorter than the normal one.
inline void CheckResultSums(const Result& r) {
  REQUIRE(r.ok);
  CHECK(r.time_hours.Total() == doctest::Approx(r.expected_hours).epsilon(1e-12));
  CHECK(r.gpu_hours.Total() == doctest::Approx(r.billed_gpu_hours).epsilon(1e-12));
  CHECK(r.cost_usd.Total() == doctest::Approx(r.expected_usd).epsilon(1e-12));
  for (int p = 0; p < kPartCount; ++p) {
    CAPTURE(PartName(p));
    CHECK(std::isfinite(r.cost_usd.part[p]));
    CHECK(r.cost_usd.part[p] >= 0);
    CHECK(r.time_hours.part[p] >= 0);
    CHECK(r.gpu_hours.part[p] >= 0);
  }
  CHECK(r.billed_gpu_hours >= r.gpu_hours.part[kPartCompute]);
  CHECK(r.expected_hours >= r.normal_run_hours * (1 - 1e-12));
  CHECK(r.expected_usd >= r.normal_run_usd * (1 - 1e-12));
}

}  // namespace gpucost::test
