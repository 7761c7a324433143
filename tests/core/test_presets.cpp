// Presets (assets/presets/*.json): each parses, is valid, evaluates, and reproduces the headline figure
// of the source it cites, within the tolerance stated here.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "job/validate.h"
#include "base/assets.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "documents/presets.h"

using namespace gpucost;

namespace {

Result MustEvaluate(const char* id) {
  Scenario s;
  std::string error;
  const bool loaded = LoadPreset(id, &s, &error);
  INFO(error);
  REQUIRE(loaded);
  Result r = Evaluate(s);
  REQUIRE(r.ok);
  return r;
}

}  // namespace

TEST_CASE("every embedded preset is listed with its id, title, source and notes") {
  int files = 0;  // (in the table of the files the page fetches, presets.json: every program but the page links it)
  for (const EmbeddedAsset* table : {kEmbeddedAssets, kFetchedAssets})
    for (const EmbeddedAsset* a = table; a && a->path; ++a)
      if (std::strncmp(a->path, "presets/", 8) == 0) ++files;
  const std::vector<PresetInfo> presets = Presets();
  CHECK(static_cast<int>(presets.size()) == files);  // none left out for being unreadable
  CHECK(presets.size() >= 4);
  for (const char* id : {"llama2-70b-a100", "llama3-405b-h100", "megatron-1t-3072-a100", "alpaca-7b-8xa100"}) {
    CAPTURE(id);
    bool found = false;
    for (const PresetInfo& p : presets) found |= p.id == id;
    CHECK(found);
  }
  for (const PresetInfo& p : presets) {
    CAPTURE(p.id);
    CHECK(!p.title.empty());
    CHECK(p.source.find("20") != std::string::npos);  // a dated source (year)
    CHECK(!p.notes.empty());
  }
}

TEST_CASE("every preset parses, validates and evaluates to finite parts that sum to the totals") {
  for (const PresetInfo& p : Presets()) {
    CAPTURE(p.id);
    Scenario s;
    std::string error;
    REQUIRE(LoadPreset(p.id, &s, &error));
    CHECK(error.empty());
    CHECK(ValidateScenario(s).empty());
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    CHECK(std::isfinite(r.expected_usd));
    CHECK(r.cost_usd.Total() == doctest::Approx(r.expected_usd).epsilon(1e-12));
    CHECK(r.time_hours.Total() == doctest::Approx(r.expected_hours).epsilon(1e-12));
    CHECK(r.gpu_hours.Total() == doctest::Approx(r.billed_gpu_hours).epsilon(1e-12));
    CHECK(!r.never_finishes);
  }
}

TEST_CASE("an unknown preset is an error naming it and the known ids; the scenario is untouched") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 12;
  std::string error;
  CHECK_FALSE(LoadPreset("no-such-run", &s, &error));
  CHECK(error.find("no-such-run") != std::string::npos);
  CHECK(error.find("llama3-405b-h100") != std::string::npos);
  CHECK(s.cluster.gpus == 12);
}

TEST_CASE("llama2-70b-a100 reproduces the model card's 1,720,320 A100 GPU-hours within 10%") {
  // Tolerance 10%: the card does not give the GPU count, failure rate or restarts; the billed figure
  // includes the model's expected failures and checkpoints at the gpucost defaults.
  const Result r = MustEvaluate("llama2-70b-a100");
  CHECK(r.billed_gpu_hours == doctest::Approx(1720320).epsilon(0.10));
  CHECK(r.ideal_gpu_hours == doctest::Approx(1720320).epsilon(0.02));  // MFU 0.43 is the card's implied 0.435
}

TEST_CASE("llama3-405b-h100: 419 unexpected interruptions per 54 days, >90% effective time, 30.84M GPU-hours") {
  const Result r = MustEvaluate("llama3-405b-h100");
  // Failures per 54 days of the expected timeline: the MTBF was derived from this count, so 3% covers
  // only the interruptions during recoveries that the complete model adds.
  const double per_54_days = r.expected_failures / r.expected_hours * 54 * 24;
  CHECK(per_54_days == doctest::Approx(419).epsilon(0.03));
  CHECK(r.goodput > 0.90);
  // Llama 3.1 model card: 30.84M H100 GPU-hours for 405B. 15%: the run also used 8K GPUs and a
  // long-context stage the preset does not separate.
  CHECK(r.billed_gpu_hours == doctest::Approx(30.84e6).epsilon(0.15));
  CHECK(r.flops == doctest::Approx(3.8e25).epsilon(0.02));  // section 3.3.1 / model card
}

TEST_CASE("megatron-1t-3072-a100 reproduces the paper's ~84 days for 450B tokens within 2%") {
  const Result r = MustEvaluate("megatron-1t-3072-a100");
  CHECK(r.ideal_hours / 24 == doctest::Approx(84).epsilon(0.02));  // "about 84 days": rounded to a day
  CHECK(r.expected_hours > r.ideal_hours);                          // the paper's figure excludes failures
}

TEST_CASE("alpaca-7b-8xa100: 3 hours on 8 A100-80GB for under USD 100") {
  const Result r = MustEvaluate("alpaca-7b-8xa100");
  CHECK(r.expected_hours == doctest::Approx(3).epsilon(0.10));  // "3 hours": MFU derived from it, 10% slack
  CHECK(r.expected_usd < 100);
  CHECK(r.billed_gpus == 8);
}

TEST_CASE("assets: a file installed at run time is found; an embedded one of the same path wins; empty is refused") {
  CHECK(FindAsset("test/installed.json") == nullptr);
  CHECK_FALSE(InstallAsset("test/installed.json", ""));
  REQUIRE(InstallAsset("test/installed.json", R"({"a": 1})"));
  const EmbeddedAsset* a = FindAsset("test/installed.json");
  REQUIRE(a != nullptr);
  CHECK(std::string(a->data, a->size) == R"({"a": 1})");
  CHECK(InstallAsset("test/installed.json", R"({"a": 2})"));  // the first text stays
  CHECK(std::string(FindAsset("test/installed.json")->data) == R"({"a": 1})");
  const EmbeddedAsset* gpus = FindAsset("gpus.json");
  REQUIRE(gpus != nullptr);
  CHECK(InstallAsset("gpus.json", "{}"));
  CHECK(FindAsset("gpus.json") == gpus);
}
