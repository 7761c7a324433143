// test_evidence_band.cpp — the uncertainty beside every headline (issue 46): the held-out table the band reads is the
// computed evidence's, the band picks runs like the scenario (and says when none is), and the documents carry it.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/assets.h"
#include "documents/result_json.h"
#include "evidence/evidence.h"
#include "evidence/evidence_band.h"
#include "job/evaluate.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

TEST_CASE("held_out.json is the computed evidence's held-out table (refresh: copy the file this test writes)") {
  const std::string fresh = HeldOutTableJson();
  REQUIRE_FALSE(fresh.empty());
  const std::string stored = test::ReadFile(test::AssetPath("held_out.json"));
  if (stored != fresh) {
    std::ofstream("held_out.json.fresh") << fresh;
    MESSAGE("assets/held_out.json is stale: copy held_out.json.fresh (written in the test's directory) over it");
  }
  CHECK(stored == fresh);
  // Every run of the evidence is in it, with its held-out error.
  const json table = json::parse(stored);
  CHECK(table["training"].size() == TrainingEvidence().runs.size());
  CHECK(table["serving"].size() == ServingValidation().runs.size());
}

namespace {

Scenario Parse(const std::string& text) { return test::MustParse(text); }

}  // namespace

TEST_CASE("band: a LoRA job like MLPerf's draws on the LoRA runs; a pre-training job on pre-training runs") {
  // Llama 2 70B LoRA on 64 H100 in FP8 under NeMo: the MLPerf Llama 2 70B LoRA runs are the nearest.
  const Scenario lora = Parse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 64, "framework": "nemo"},
      "workload": {"model": "llama-2-70b", "tokens": 1e9, "precision": "fp8", "finetune": "lora", "lora_rank": 16},
      "parallel": {"tensor_parallel": 4, "context_parallel": 2, "global_batch": 8}})");
  const EvidenceBand b = EvidenceBandFor(lora, true);
  REQUIRE(b.applies);
  CHECK(b.category == "fine-tuning");
  REQUIRE(b.runs >= 3);
  CHECK(b.run_ids.front().rfind("mlperf-lora", 0) == 0);
  CHECK(b.low <= b.mean);
  CHECK(b.mean <= b.high);
  // The band is the nearest runs' held-out errors, read from the computed evidence.
  const StepEvidence& e = TrainingEvidence();
  for (const std::string& id : b.run_ids)
    for (const EvidenceRun& r : e.runs)
      if (r.id == id) {
        CHECK(r.held_out_error >= b.low - 1e-4);
        CHECK(r.held_out_error <= b.high + 1e-4);
      }
  // The same job pre-training (full) draws on pre-training runs first.
  Scenario full = lora;
  full.finetune.mode = 0;
  const EvidenceBand f = EvidenceBandFor(full, true);
  REQUIRE(f.runs >= 1);
  for (const std::string& id : f.run_ids) CHECK(id.rfind("mlperf-lora", 0) != 0);
}

TEST_CASE("band: a scenario unlike every validated run says so, and a given MFU has no band") {
  // No published run trains on L4s: the band is empty and says the scenario is unlike them.
  const Scenario l4 = Parse(R"({"cluster": {"gpu": "l4", "gpus": 8},
      "workload": {"model": "llama-3.1-8b", "tokens": 1e9}, "parallel": {"global_batch": 64}})");
  const EvidenceBand b = EvidenceBandFor(l4, true);
  CHECK(b.applies);
  CHECK(b.unlike());
  CHECK(EvidenceBandText(b).find("unlike") != std::string::npos);
  CHECK_FALSE(EvidenceBandFor(l4, false).applies);  // a given MFU predicts no step
  // Through the documents: the result carries the band (runs 0 here) only when the step is predicted.
  const Result r = Evaluate(l4);
  REQUIRE(r.ok);
  const json doc = json::parse(ResultToJson(l4, r, 0));
  REQUIRE(doc.contains("evidence_band"));
  CHECK(doc["evidence_band"]["runs"] == 0);
  CHECK(doc["evidence_band"]["similar"] == false);
  Scenario given = l4;
  given.cluster.mfu = 0.4;
  const Result g = Evaluate(given);
  CHECK_FALSE(json::parse(ResultToJson(given, g, 0)).contains("evidence_band"));
}

TEST_CASE("band: the result document's band brackets the step by 1 / (1 + error), and serving has one too") {
  const Scenario s = Parse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 64, "framework": "nemo"},
      "workload": {"model": "llama-2-70b", "tokens": 1e9, "precision": "fp8"},
      "parallel": {"tensor_parallel": 4, "pipeline_parallel": 4, "global_batch": 128}})");
  const Result r = Evaluate(s);
  REQUIRE(r.step.ok());
  const json doc = json::parse(ResultToJson(s, r, 0));
  REQUIRE(doc.contains("evidence_band"));
  const json& band = doc["evidence_band"];
  REQUIRE(band["runs"].get<int>() > 0);
  const double low = band["low"].get<double>(), high = band["high"].get<double>();
  CHECK(band["step_seconds_range"][0].get<double>() == doctest::Approx(r.step.seconds / (1 + high)));
  CHECK(band["step_seconds_range"][1].get<double>() == doctest::Approx(r.step.seconds / (1 + low)));
  // A serving scenario: the band of the nearest serving measurements.
  const Scenario serve = Parse(R"({"workload": {"kind": "inference", "model": "llama-3.1-70b"},
      "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 4}, "inference": {"requests_per_second": 2}})");
  const Result sr = Evaluate(serve);
  REQUIRE(sr.ok);
  const json sdoc = json::parse(ResultToJson(serve, sr, 0));
  REQUIRE(sdoc.contains("evidence_band"));
  CHECK(sdoc["evidence_band"]["kind"] == "serving");
  CHECK(sdoc["evidence_band"]["runs"].get<int>() > 0);
}
