// Layout search (plan.h): the best plan equals an independent brute-force minimum, plans are sorted and fit,
// slices give the same result as one run, errors name the missing input.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "hardware/calibration.h"
#include "explore/plan_prices.h"
#include "documents/plan_json.h"
#include "training/plan.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

const char* const kGpt3 = R"({
  "cluster": {"gpu": "a100-sxm-80gb", "gpus": 64, "node_network_gbps": 1600},
  "workload": {"params": 175e9, "tokens": 300e9, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048,
               "vocab": 51200},
  "parallel": {"global_batch": 64}})";

std::unique_ptr<PlanSearch> RunSearch(const Scenario& s, int top) {
  auto search = std::make_unique<PlanSearch>();
  REQUIRE(PlanBegin(s, PlanObjective::kTime, top, search.get()).empty());
  PlanRun(search.get());
  return search;
}

}  // namespace

TEST_CASE("GPT-3 175B on 64 A100s: the best plan is the brute-force minimum over fitting layouts") {
  const Scenario s = test::MustParse(kGpt3);
  auto search = RunSearch(s, 10);
  REQUIRE(search->done);
  REQUIRE(search->count == 10);
  CHECK(search->evaluated > 1000);
  CHECK(search->fitting > 0);
  CHECK(search->fitting < search->evaluated);

  // Independent enumeration with plain loops.
  const ModelShape shape = ShapeFromScenario(s);
  EffectiveHardware hw;
  REQUIRE(ResolveHardware(s, &hw));
  const StepHardware step_hw = StepHardwareFor(s, hw);
  double best = 1e300;
  std::int64_t valid = 0;
  for (std::int64_t t = 1; t <= 64; ++t)
    for (std::int64_t p = 1; p <= 64; ++p) {
      if (64 % (t * p) != 0) continue;
      for (std::int64_t b = 1; b <= 64; ++b)
        for (std::int64_t v = 1; v <= 96; ++v)
          for (int r = 0; r < 3; ++r)
            for (int sp = 0; sp < 2; ++sp)
              for (std::int64_t z = 0; z < 4; ++z) {
                Layout l;
                l.tensor = t;
                l.pipeline = p;
                l.data = 64 / (t * p);
                l.micro_batch = b;
                l.interleave = v;
                l.recompute = static_cast<Recompute>(r);
                l.sequence_parallel = sp == 1;
                l.zero_stage = z;
                l.global_batch = 64;
                l.flash_attention = s.parallel.flash_attention;
                if (CheckLayout(shape, l) != LayoutError::kNone) continue;
                if (((96 + p - 1) / p) % v != 0) continue;  // the search splits a stage's layers into equal chunks
                if ((sp == 1 && t == 1) || (z > 0 && l.data == 1)) continue;  // duplicates of other layouts
                ++valid;
                if (!EstimateMemory(shape, l, Precision::kBf16, hw.hbm_bytes).fits()) continue;
                const StepTime t = EstimateStepTime(shape, l, step_hw);
                best = std::min(best, DoubtedSeconds(t.seconds, t.mfu, t.best_measured_mfu));
              }
    }
  CHECK(valid == search->evaluated);
  const StepTime& top = search->best[0].step;  // ranked at the best measured MFU when predicted above it
  CHECK(DoubtedSeconds(top.seconds, top.mfu, top.best_measured_mfu) == doctest::Approx(best).epsilon(1e-12));
  MESSAGE("best of " << search->evaluated << " layouts: " << best << " s per step, MFU " << search->best[0].step.mfu);
}

TEST_CASE("plans are sorted, fit, use every GPU and keep the scenario's batch") {
  const Scenario s = test::MustParse(kGpt3);
  auto search = RunSearch(s, 8);
  for (int i = 0; i < search->count; ++i) {
    const PlanEntry& e = search->best[i];
    CAPTURE(i);
    CHECK(e.memory.fits());
    CHECK(e.layout.gpus() == 64);
    CHECK(e.layout.global_batch == 64);
    CHECK(e.step.ok());
    if (i > 0) {  // ranked by step time, at the best measured MFU where predicted above it (calibration.h)
      const StepTime& a = search->best[i - 1].step;
      CHECK(DoubtedSeconds(e.step.seconds, e.step.mfu, e.step.best_measured_mfu) >=
            DoubtedSeconds(a.seconds, a.mfu, a.best_measured_mfu));
    }
  }
}

TEST_CASE("a search in slices finds the same plans as one run") {
  const Scenario s = test::MustParse(kGpt3);
  auto whole = RunSearch(s, 5);
  auto sliced = std::make_unique<PlanSearch>();
  REQUIRE(PlanBegin(s, PlanObjective::kTime, 5, sliced.get()).empty());
  int slices = 0;
  while (!PlanStep(sliced.get(), 997)) ++slices;
  CHECK(slices > 3);
  CHECK(sliced->evaluated == whole->evaluated);
  REQUIRE(sliced->count == whole->count);
  for (int i = 0; i < whole->count; ++i) CHECK(sliced->best[i].step.seconds == whole->best[i].step.seconds);
}

TEST_CASE("an adopted plan evaluates to the same step time; the cost objective prices the plans") {
  Scenario s = test::MustParse(kGpt3);
  auto search = std::make_unique<PlanSearch>();
  REQUIRE(PlanBegin(s, PlanObjective::kCost, 3, search.get()).empty());
  PlanRun(search.get());
  PlanPriceJobs(s, search.get());
  REQUIRE(search->count == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(search->best[i].job_usd > 0);
    if (i > 0) CHECK(search->best[i].job_usd >= search->best[i - 1].job_usd);
  }
  ApplyLayout(search->best[0].layout, &s);
  const Result r = Evaluate(s);
  REQUIRE(r.step.ok());
  CHECK(r.step.seconds == doctest::Approx(search->best[0].step.seconds));
  CHECK(r.mfu_source == MfuSource::kPredicted);
  CHECK(r.expected_usd == doctest::Approx(search->best[0].job_usd));
}

TEST_CASE("nothing fits: no plans; missing inputs: an error naming them") {
  Scenario s = test::MustParse(kGpt3);
  s.cluster.gpus = 2;
  s.parallel.global_batch = 8;
  auto search = RunSearch(s, 5);
  CHECK(search->evaluated > 0);
  CHECK(search->count == 0);
  PlanSearch* p = search.get();
  s = test::MustParse(R"({"parallel": {"global_batch": 64}})");
  const Message why = PlanBegin(s, PlanObjective::kTime, 5, p);
  CHECK(why.key == "msg.plan_shape");
  CHECK(why.Text(Lang::kEn).find("workload.layers") != std::string::npos);
  CHECK(why.Text(Lang::kKo).find("workload.layers") != std::string::npos);  // the field names, in the Korean text
  CHECK(why.Text(Lang::kKo) != why.Text(Lang::kEn));
}

// Issue 30: with the batch on auto, Results advised 128 GPUs for a 70B fine-tune when 16 fit, and the Layouts view
// refused to search. Auto now searches at one sequence per GPU, and the advice is that search's smallest fit.
TEST_CASE("a global batch on auto: the search runs at one sequence per GPU; the smallest-fit advice is its answer") {
  Scenario s = test::MustParse(R"({"workload": {"model": "llama-2-70b", "tokens": 1e9},
                                   "cluster": {"gpu": "h100-sxm", "gpus": 16}})");
  REQUIRE(s.parallel.global_batch == 0);
  auto search = RunSearch(s, 5);
  CHECK(search->batch_auto);
  CHECK(search->base.global_batch == 16);
  REQUIRE(search->count > 0);
  for (int i = 0; i < search->count; ++i) CHECK(search->best[i].memory.fits());
  CHECK(nlohmann::json::parse(PlanToJson(*search))["global_batch_auto"] == true);
  // At 8 GPUs nothing fits; the result's advice names the smallest count the same search finds: 16, not 128.
  s.cluster.gpus = 8;
  auto none = RunSearch(s, 5);
  CHECK(none->count == 0);
  const Result r = Evaluate(s);
  REQUIRE(r.memory_smallest_fit.found);
  CHECK(r.memory_smallest_fit.layout.gpus() == 16);
  const LayoutFit direct = SmallestFittingPlan(s);
  CHECK(direct.layout.gpus() == r.memory_smallest_fit.layout.gpus());
  CHECK(direct.layout.zero_stage == r.memory_smallest_fit.layout.zero_stage);
}

TEST_CASE("the plan document has the contract's keys") {
  const Scenario s = test::MustParse(kGpt3);
  auto search = RunSearch(s, 2);
  const nlohmann::json doc = nlohmann::json::parse(PlanToJson(*search));
  CHECK(doc["evaluated"].get<std::int64_t>() == search->evaluated);
  CHECK(doc["seconds"].is_number());
  REQUIRE(doc["plans"].size() == 2);
  const nlohmann::json& plan = doc["plans"][0];
  for (const char* key : {"tensor_parallel", "pipeline_parallel", "data_parallel", "micro_batch", "pipeline_interleave",
                          "recompute", "sequence_parallel", "zero_stage"})
    CHECK(plan["parallel"].contains(key));
  for (const char* key : {"seconds", "compute_seconds", "recompute_seconds", "exposed_comm_seconds", "bubble_seconds", "mfu", "hfu"})
    CHECK(plan["step"].contains(key));
  for (const char* key : {"model_states_gb", "activations_gb", "total_gb", "device_gb", "fits"}) CHECK(plan["memory"].contains(key));
  CHECK(plan["step"]["seconds"].get<double>() == doctest::Approx(search->best[0].step.seconds));
}

TEST_CASE("a shape without workload.params plans as if its own parameter count were given") {
  Scenario given = test::MustParse(kGpt3);
  Scenario absent = given;
  absent.workload.params = DefaultScenario().workload.params;  // the 7B example default
  auto with_params = RunSearch(given, 1);
  auto without = RunSearch(absent, 1);
  REQUIRE(without->count == 1);
  CHECK(std::fabs(static_cast<double>(without->fitting - with_params->fitting)) <= 0.01 * static_cast<double>(with_params->fitting));
  CHECK(without->best[0].memory.params_per_gpu * static_cast<double>(without->best[0].layout.tensor *
                                                                      without->best[0].layout.pipeline) > 1.5e11);
}
