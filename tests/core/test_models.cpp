// Models by name (assets/models.json, models.h): every model's shape gives its published parameter count,
// workload.model fills the scenario with explicit fields winning, unknown ids are refused naming the field.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "job/validate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "training/memory.h"
#include "scenario/models.h"
#include "training/moe.h"
#include "../test_util.h"

using namespace gpucost;

TEST_CASE("models: the catalog holds the models the issue names, each with a source") {
  for (const char* id : {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
                         "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "gemma-2-27b", "deepseek-v3",
                         "gpt-3-175b", "bloom-176b"}) {
    CAPTURE(id);
    const ModelSpec* m = FindModel(id);
    REQUIRE(m != nullptr);
    CHECK(!m->name.empty());
    CHECK(m->source.size() > 20);
    CHECK(ShapeOfModel(*m).known());
  }
  CHECK(FindModel("llama-9") == nullptr);
}

TEST_CASE("models: each model's shape gives its published parameter count within 1%") {
  REQUIRE(ModelCount() >= 14);
  for (std::size_t i = 0; i < ModelCount(); ++i) {
    const ModelSpec& m = Models()[i];
    CAPTURE(m.id);
    const double counted = ShapeParams(ShapeOfModel(m));
    MESSAGE(m.id << ": shape " << counted / 1e9 << "B, published " << m.params / 1e9 << "B, error "
                 << 100 * (counted / m.params - 1) << "%");
    CHECK(std::fabs(counted / m.params - 1) < 0.01);
    if (m.active_params > 0) {
      // Published active counts are rounded ("12.9B", DeepSeek-V3's "37B"): within 1% or one unit of the last
      // published digit (conventions differ on whether the input embedding counts as activated).
      const double active = ShapeActiveParams(ShapeOfModel(m));
      MESSAGE(m.id << ": active " << active / 1e9 << "B, published " << m.active_params / 1e9 << "B");
      CHECK(std::fabs(active - m.active_params) <= std::max(0.01 * m.active_params, 1e9));
    }
  }
}

TEST_CASE("models: workload.model fills the shape and params; explicit fields win") {
  const Scenario s = test::MustParse(R"({"workload": {"model": "llama-3.1-70b"}})");
  CHECK(std::string(s.arch.model) == "llama-3.1-70b");
  CHECK(s.workload.layers == 80);
  CHECK(s.workload.hidden == 8192);
  CHECK(s.workload.heads == 64);
  CHECK(s.workload.kv_heads == 8);
  CHECK(s.workload.ffn_hidden == 28672);
  CHECK(s.workload.ffn_gated == 1);
  CHECK(s.workload.tied_embeddings == 0);
  CHECK(s.workload.vocab == 128256);
  CHECK(s.workload.seq_len == 8192);
  CHECK(s.workload.params == doctest::Approx(70553706496.0));

  const Scenario e = test::MustParse(R"({"workload": {"model": "llama-3.1-70b", "seq_len": 4096, "params": 7e10}})");
  CHECK(e.workload.seq_len == 4096);
  CHECK(e.workload.params == 7e10);
  CHECK(e.workload.layers == 80);

  const Scenario moe = test::MustParse(R"({"workload": {"model": "mixtral-8x7b"}})");
  CHECK(moe.arch.experts == 8);
  CHECK(moe.arch.active_experts == 2);
  CHECK(moe.arch.active_params == doctest::Approx(12.9e9));
}

TEST_CASE("models: an unknown id is refused naming the field and listing the ids") {
  const ScenarioParse p = ParseScenarioJson(R"({"workload": {"model": "llama-9b"}})");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].path == "workload.model");
  CHECK(p.errors[0].message.find("unknown model \"llama-9b\"") != std::string::npos);
  CHECK(p.errors[0].message.find("llama-3.1-405b") != std::string::npos);
  Scenario s = DefaultScenario();
  std::snprintf(s.arch.model, kTextCapacity, "%s", "nope");
  bool found = false;
  for (const InputError& e : ValidateScenario(s)) found |= e.path == "workload.model";
  CHECK(found);
}

TEST_CASE("models: a scenario with a model round-trips through JSON and share links") {
  const Scenario s = test::MustParse(R"({"workload": {"model": "deepseek-v3", "seq_len": 2048}, "cluster": {"gpus": 2048}})");
  const Scenario back = test::MustParse(ScenarioToJson(s));
  CHECK(std::memcmp(&s, &back, sizeof s) == 0);
  LinkPayload payload;
  payload.scenario = s;
  LinkPayload decoded;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(EncodeLink(payload), &decoded, &errors));
  CHECK(std::string(decoded.scenario.arch.model) == "deepseek-v3");
  CHECK(decoded.scenario.workload.seq_len == 2048);
  CHECK(std::memcmp(&s, &decoded.scenario, sizeof s) == 0);
}
