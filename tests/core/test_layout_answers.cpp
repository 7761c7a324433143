// The layout answers agree (issue 14, observations 4 and 5): the smallest fitting layout in the result comes
// from the same search as the Layouts view, and adopting a layout makes the headline equal its row.
#include <doctest/doctest.h>

#include <memory>

#include "job/evaluate.h"
#include "explore/plan_prices.h"
#include "training/plan.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

// Llama 2 70B's shape (Touvron et al. 2023, arXiv:2307.09288) fine-tuned on 64 H100 with a layout that does
// not fit: no model parallelism, micro-batch 4, ZeRO 1.
Scenario NotFitting70B() {
  Scenario s = test::FineTune70B();
  s.parallel.tensor_parallel = 1;
  s.parallel.micro_batch = 4;
  s.parallel.zero_stage = 1;
  return s;
}

std::int64_t FittingAt(const Scenario& base, std::int64_t gpus) {
  Scenario s = base;
  s.cluster.gpus = gpus;
  s.parallel.data_parallel = 0;
  auto search = std::make_unique<PlanSearch>();
  if (!PlanBegin(s, PlanObjective::kTime, 1, search.get()).empty()) return -1;
  PlanRun(search.get());
  return search->fitting;
}

}  // namespace

TEST_CASE("result: the smallest fitting layout is the Layouts search's, at the smallest count where it finds one") {
  const Scenario s = NotFitting70B();
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.memory_present);
  REQUIRE_FALSE(r.memory.fits());
  const LayoutFit& fit = r.memory_smallest_fit;
  REQUIRE(fit.found);
  const std::int64_t n = fit.layout.gpus();
  CHECK(n <= s.cluster.gpus);          // the search finds fitting layouts on the scenario's 64 GPUs
  CHECK(FittingAt(s, n) > 0);          // the same search finds it there
  CHECK(FittingAt(s, s.cluster.gpus) > 0);
  for (std::int64_t fewer : {1, 2, 4, 8, 16, 24, 32, 48})
    if (fewer < n) CHECK(FittingAt(s, fewer) == 0);
  CHECK(fit.memory.fits());
  // The warning names the same count.
  bool named = false;
  for (int i = 0; i < r.warnings.count; ++i)
    named = named || std::string(r.warnings.Text(i, Lang::kEn)).find("Smallest layout that fits: " + std::to_string(n) + " GPUs") != std::string::npos;
  CHECK(named);
}

TEST_CASE("adopt: the job runs at the adopted layout's predicted step, so the headline equals the row") {
  Scenario s = NotFitting70B();
  auto search = std::make_unique<PlanSearch>();
  REQUIRE(PlanBegin(s, PlanObjective::kTime, 5, search.get()).empty());
  PlanRun(search.get());
  PlanPriceJobs(s, search.get());
  REQUIRE(search->count > 0);
  for (int i = 0; i < search->count; ++i) {
    Scenario adopted = s;
    CHECK(AdoptLayout(search->best[i].layout, &adopted));  // the given 40% MFU is cleared (the page says so)
    CHECK(adopted.cluster.mfu == 0);
    const Result r = Evaluate(adopted);
    REQUIRE(r.ok);
    CHECK(r.mfu_source == MfuSource::kPredicted);
    CHECK(r.expected_usd == doctest::Approx(search->best[i].job_usd).epsilon(1e-12));
    CHECK(r.expected_hours == doctest::Approx(search->best[i].job_hours).epsilon(1e-12));
  }
}
