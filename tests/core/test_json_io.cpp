#include <doctest/doctest.h>

#include <cstring>

#include "job/validate.h"
#include "scenario/fields.h"
#include "base/i18n.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "../test_util.h"

using namespace gpucost;

namespace {
std::string FirstError(const std::string& text) {
  ScenarioParse p = ParseScenarioJson(text);
  return p.errors.empty() ? "" : p.errors.front().Text();
}
}  // namespace

TEST_CASE("the default scenario is valid and serialises to just the schema") {
  Scenario s = DefaultScenario();
  CHECK(ValidateScenario(s).empty());
  CHECK(ScenarioToJson(s, true, -1) == R"({"schema":"gpucost/scenario@1"})");
}

TEST_CASE("every field has a unit or section, help text and a source") {
  int sources = 0;
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    CAPTURE(f.path);
    CHECK(HasTranslation(Lang::kEn, (std::string("help.") + f.path).c_str()));  // the help is in the English table
    CHECK(std::strlen(FieldHelp(f, Lang::kEn)) > 10);
    CHECK(std::strlen(FieldSource(f, Lang::kEn)) > 0);  // a citation, or "-" where the default needs none
    if (std::string(FieldSource(f, Lang::kEn)) != "-") ++sources;
    CHECK(std::strlen(f.section) > 0);
    if (f.kind != FieldKind::kText && !f.is_auto) CHECK(ValueInRange(f, f.default_value));
  }
  CHECK(sources > 100);  // (issue 50 moved the citations into the tables: 126 then)
}

TEST_CASE("the English table's field help and sources each name a field") {
  int help = 0;
  for (const std::string& k : TranslationKeys(Lang::kEn)) {
    CAPTURE(k);
    if (k.rfind("help.", 0) == 0) {
      CHECK(FindField(k.c_str() + 5) != nullptr);
      ++help;
    } else if (k.rfind("source.", 0) == 0) CHECK(FindField(k.c_str() + 7) != nullptr);
  }
  CHECK(help == static_cast<int>(FieldCount()));
}

TEST_CASE("round trip: full and compact serialisations parse back to the same scenario") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 1024;
  s.reliability.gpu_mtbf_hours = 12345.5;
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  s.parallel.sequence_parallel = true;
  std::snprintf(s.name, sizeof s.name, "%s", "héllo \"quoted\"");
  for (bool compact : {true, false}) {
    ScenarioParse p = ParseScenarioJson(ScenarioToJson(s, compact));
    REQUIRE(p.ok());
    CHECK(std::memcmp(&p.scenario, &s, sizeof s) == 0);
  }
}

TEST_CASE("errors name the JSON path and the allowed range") {
  CHECK(FirstError(R"({"cluster": {"gpus": 0}})") ==
        "cluster.gpus: must be an integer from 1 to 10,000,000, got 0");
  CHECK(FirstError(R"({"cluster": {"mfu": 1.5}})") ==
        "cluster.mfu: must be a number > 0 and <= 1 (omit for automatic), got 1.5");
  CHECK(FirstError(R"({"cluster": {"gpus": "8"}})").find("cluster.gpus: expected a number, got a string") == 0);
  CHECK(FirstError(R"({"cluster": {"gpu": "h900"}})").find("cluster.gpu: unknown GPU \"h900\"; one of: a100-sxm-40gb") == 0);
  CHECK(FirstError(R"({"clusterr": {}})") == "clusterr: unknown key: not a scenario field");
  CHECK(FirstError(R"({"cluster": {"gpus": 8.5}})").find("cluster.gpus: must be an integer") == 0);
  CHECK(FirstError(R"({"workload": {"precision": "fp4"}})") ==
        "workload.precision: unknown value \"fp4\"; one of: bf16, fp16, fp8, tf32, fp32");
  CHECK(FirstError(R"({"pricing": {"usd_per_gpu_hour": 1e999}})").find("number overflow") != std::string::npos);
  CHECK(FirstError("").find("malformed JSON") == 0);
  CHECK(FirstError("[1,2]") == "a scenario must be a JSON object, got an array");
  CHECK(FirstError(std::string(100, '[') + std::string(100, ']')).find("nested deeper") != std::string::npos);
  CHECK(FirstError(R"({"schema": "other@2"})") == "schema: must be \"gpucost/scenario@1\"");
  CHECK(FirstError(R"({"workload": {"precision": "fp8"}, "cluster": {"gpu": "a100-sxm-80gb"}})")
            .find("workload.precision: fp8 is not supported") == 0);
}

TEST_CASE("valid fields survive an error elsewhere") {
  ScenarioParse p = ParseScenarioJson(R"({"cluster": {"gpus": 512, "mfu": 7}, "workload": {"tokens": 1e12}})");
  CHECK(p.errors.size() == 1);
  CHECK(p.scenario.cluster.gpus == 512);
  CHECK(p.scenario.workload.tokens == 1e12);
  CHECK(p.scenario.cluster.mfu == 0);  // the bad value was not applied
}

TEST_CASE("all errors are reported, not only the first") {
  ScenarioParse p = ParseScenarioJson(R"({"cluster": {"gpus": -1, "mfu": 0}, "reliability": {"gpu_mtbf_hours": -2}})");
  CHECK(p.errors.size() == 3);
}

TEST_CASE("a model given by its shape alone takes its parameter count from the shape") {
  // GPT-3 175B's shape (Brown et al. 2020, Table 2.1): 96 layers, d_model 12288, 96 heads, 2048 context.
  const char* shape = R"("layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048, "vocab": 50257)";
  ScenarioParse p = ParseScenarioJson(std::string(R"({"workload": {)") + shape + "}}");
  REQUIRE(p.ok());
  CHECK(p.scenario.workload.params == doctest::Approx(175e9).epsilon(0.01));
  const Result r = Evaluate(p.scenario);
  REQUIRE(r.ok);
  for (int i = 0; i < r.warnings.count; ++i) CHECK(std::string(r.warnings.code[i]) != "params_shape_mismatch");
  // Given explicitly, the count is the user's (the mismatch warning then says so).
  p = ParseScenarioJson(std::string(R"({"workload": {"params": 7e9, )") + shape + "}}");
  REQUIRE(p.ok());
  CHECK(p.scenario.workload.params == 7e9);
  // Without a whole shape the default stays.
  p = ParseScenarioJson(R"({"workload": {"layers": 96}})");
  REQUIRE(p.ok());
  CHECK(p.scenario.workload.params == DefaultScenario().workload.params);
}

TEST_CASE("workload.kv_heads must divide workload.heads") {
  ScenarioParse p = ParseScenarioJson(R"({"workload": {"heads": 64, "hidden": 8192, "kv_heads": 12}})");
  REQUIRE_FALSE(p.ok());
  CHECK(p.errors.front().path == "workload.kv_heads");
  p = ParseScenarioJson(R"({"workload": {"heads": 64, "hidden": 8192, "kv_heads": 8, "ffn_gated": true}})");
  CHECK(p.ok());
}
