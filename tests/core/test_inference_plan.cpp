// The inference configuration search (inference_plan.h): the best is the brute-force minimum of what it
// evaluates, adopting it reproduces its cost, families say why they lose, tighter targets cost more.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "documents/inference_plan_json.h"
#include "job/evaluate.h"
#include "explore/inference_plan.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

Scenario Chat(const std::string& extra = "") {
  return test::MustParse(R"({"workload": {"kind": "inference", "params": 68.98e9, "layers": 80, "hidden": 8192,
    "heads": 64, "kv_heads": 8, "vocab": 32000}, "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 4},
    "inference": {"requests_per_second": 10, "slo": {"ttft_ms": 1000, "tpot_ms": 50})" + extra + "}}");
}

}  // namespace

TEST_CASE("inference plan: the cheapest configuration meeting the target, reproducible by eval") {
  const Scenario s = Chat();
  const InferencePlan p = PlanInference(s, 5);
  REQUIRE(p.ok);
  const std::int64_t pools = p.gpu_types * 4;  // at most 4 tensor degrees per GPU type
  CHECK(p.evaluated <= (pools + pools * pools) * static_cast<std::int64_t>(std::size(kInferencePlanBatchCaps)));
  CHECK(p.evaluated >= 1000);
  CHECK(p.meeting >= 1);
  CHECK(p.meeting <= p.fitting);
  REQUIRE(!p.best.empty());
  CHECK(p.best[0].verdict == "best");
  for (std::size_t i = 1; i < p.best.size(); ++i) CHECK(p.best[i].usd_per_request >= p.best[i - 1].usd_per_request);
  // Adopting the best reproduces its figures through Evaluate.
  const Scenario adopted = ApplyInferenceCandidate(s, p.best[0]);
  const Result r = Evaluate(adopted);
  REQUIRE(r.ok);
  CHECK(r.inference.usd_per_request == doctest::Approx(p.best[0].usd_per_request).epsilon(1e-12));
  CHECK(r.inference.slo_met);
  // Nothing in the families that meets the target is cheaper than the best.
  for (const InferenceCandidate& f : p.families) {
    CAPTURE(f.verdict);
    if (f.slo_met) CHECK(f.usd_per_request >= p.best[0].usd_per_request * (1 - 1e-12));
    CHECK(!f.verdict.empty());
    if (!f.fits) CHECK(f.verdict.find("does not fit") == 0);
    else if (!f.slo_met) CHECK(f.verdict.find("misses the target") == 0);
  }
  // The scenario's own configuration costs at least the best.
  CHECK(Evaluate(s).inference.usd_per_request >= p.best[0].usd_per_request * (1 - 1e-12));
}

TEST_CASE("inference plan: a tighter target never makes the best cheaper; an impossible one is said") {
  const InferencePlan loose = PlanInference(Chat(), 1);
  REQUIRE(loose.ok);
  Scenario tighter = Chat();
  tighter.inference.slo.tpot_ms = 15;
  const InferencePlan t = PlanInference(tighter, 1);
  REQUIRE(t.ok);
  REQUIRE(!t.best.empty());
  CHECK(t.best[0].usd_per_request >= loose.best[0].usd_per_request);
  CHECK(t.best[0].tpot_ms <= 15);
  Scenario impossible = Chat();
  impossible.inference.slo.tpot_ms = 0.5;
  const InferencePlan none = PlanInference(impossible, 3);
  REQUIRE(none.ok);
  CHECK(none.best.empty());
  CHECK(none.meeting == 0);
  REQUIRE(!none.families.empty());
  CHECK(none.families[0].verdict.find("misses the target") == 0);
  CHECK_FALSE(PlanInference(DefaultScenario(), 3).ok);
}

TEST_CASE("inference plan in slices (the page's frames): the same document as the search in one call") {
  for (const std::string& extra : {std::string(""), std::string(R"(, "mode": "disaggregated")")}) {
    const Scenario s = Chat(extra);
    const std::string whole = InferencePlanToJson(s, PlanInference(s, 10));
    InferencePlanSearch search(s, 10);
    int slices = 0;
    while (!search.Step(7)) ++slices;  // 7 configurations a slice: a slice ends mid batch cap and mid pool pair
    CHECK(search.evaluated() == search.total());
    CHECK(slices > 100);
    CHECK(InferencePlanToJson(s, search.Finish()) == whole);
  }
}
