// The layout answers agree (issue 14, observations 4 and 5): the smallest fitting layout in the result comes
// from the same search as the Layouts view, and adopting a layout makes the headline equal its row.
#include <doctest/doctest.h>

#include <memory>

#include "job/evaluate.h"
#include "explore/plan_prices.h"
#include "training/plan.h"
#include "documents/plan_json.h"
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

// Issue 47: "Use the smallest layout that fits" on 64 GPUs set the cluster to 16 and froze the global batch at 16
// (the search's one sequence per GPU); typing 64 back then left the job unpriced until the batch was found and
// retyped. The fix keeps a cluster that is large enough, leaves data parallelism and a batch on auto as they were.
TEST_CASE("the memory fix: a layout that fits on the cluster's own GPU count; auto batch stays auto; any count later stays priced") {
  Scenario s = test::MustParse(R"({"workload": {"model": "llama-2-70b", "tokens": 1e9},
                                   "cluster": {"gpu": "h100-sxm", "gpus": 64, "mfu": 0.35}})");
  REQUIRE(s.parallel.global_batch == 0);
  const Result before = Evaluate(s);
  REQUIRE(before.memory_present);
  REQUIRE_FALSE(before.memory.fits());
  REQUIRE(before.memory_smallest_fit.found);
  CHECK(before.memory_smallest_fit.layout.gpus() < 64);        // fewer would do (16) ...
  REQUIRE(before.memory_fit_at_gpus.found);                     // ... and a layout fits on the 64 as they are
  CHECK(before.memory_fit_at_gpus.layout.gpus() == 64);
  CHECK(before.memory_fit_at_gpus.memory.fits());
  CHECK(FittingAt(s, 64) > 0);                                  // the Layouts view's search finds it there too
  const BlockingState b = FindBlockingState(s, before);
  CHECK(std::string(b.fix_message.key) == "msg.b_fit_here");
  Scenario fixed = s;
  const MemoryFix fix = ApplyMemoryFit(before, &fixed);
  CHECK(fix.applied);
  CHECK(fix.kept_gpus);
  CHECK(fixed.cluster.gpus == 64);
  CHECK(fixed.parallel.global_batch == 0);  // not frozen at the search's batch
  CHECK(fixed.parallel.data_parallel == 0);
  CHECK(fixed.cluster.mfu == 0.35);         // no batch, no predicted step: the given MFU stays
  CHECK_FALSE(fix.mfu_cleared);
  const Result after = Evaluate(fixed);
  REQUIRE(after.ok);
  CHECK(after.memory.fits());
  CHECK_FALSE(FindBlockingState(fixed, after).blocked);
  for (std::int64_t gpus : {64, 128, 256}) {  // a larger count typed later: still priced, nothing to retype
    Scenario other = fixed;
    other.cluster.gpus = gpus;
    CAPTURE(gpus);
    const Result r = Evaluate(other);
    REQUIRE(r.ok);
    CHECK(r.memory.fits());
    CHECK_FALSE(FindBlockingState(other, r).blocked);
  }
  // A cluster smaller than any fit grows to the smallest count that fits (and says so: kept_gpus false).
  s.cluster.gpus = 8;
  const Result small = Evaluate(s);
  CHECK_FALSE(small.memory_fit_at_gpus.found);
  Scenario grown = s;
  const MemoryFix grow = ApplyMemoryFit(small, &grown);
  CHECK(grow.applied);
  CHECK_FALSE(grow.kept_gpus);
  CHECK(grown.cluster.gpus == small.memory_smallest_fit.layout.gpus());
  CHECK(grown.parallel.global_batch == 0);
  CHECK(Evaluate(grown).memory.fits());
  grown.cluster.gpus = 64;  // the issue's case: 64 typed back after the fix had set 16
  const Result back = Evaluate(grown);
  REQUIRE(back.ok);
  CHECK_FALSE(FindBlockingState(grown, back).blocked);
}

// 2026-12-07's walk-through: without the model's shape (params and tokens typed, "70B" and "2T", no layers or widths)
// the fix came from the memory model's own search, which knew only the smallest layout: the button, labelled "GPU
// 16장으로 늘리기" (increase to 16 GPUs), cut a 64-GPU cluster to 16 and made the job four times longer. That search
// now also looks for a layout on exactly the cluster's GPUs, as the shaped path does.
TEST_CASE("the memory fix without a model shape keeps a cluster that is large enough") {
  Scenario s = test::MustParse(R"({"workload": {"params": 7e10, "tokens": 2e12}, "cluster": {"gpu": "h100-sxm", "gpus": 64}})");
  const Result before = Evaluate(s);
  REQUIRE(before.memory_present);
  REQUIRE_FALSE(before.memory.fits());
  REQUIRE(before.memory_smallest_fit.found);
  CHECK(before.memory_smallest_fit.layout.gpus() == 16);
  REQUIRE(before.memory_fit_at_gpus.found);
  CHECK(before.memory_fit_at_gpus.layout.gpus() == 64);
  CHECK(before.memory_fit_at_gpus.memory.fits());
  CHECK(std::string(FindBlockingState(s, before).fix_message.key) == "msg.b_fit_here");
  Scenario fixed = s;
  const MemoryFix fix = ApplyMemoryFit(before, &fixed);
  CHECK(fix.applied);
  CHECK(fix.kept_gpus);
  CHECK(fixed.cluster.gpus == 64);
  const Result after = Evaluate(fixed);
  REQUIRE(after.ok);
  CHECK(after.memory.fits());
  // A count no power-of-two layout makes (48) has no layout of exactly its size: the smallest is offered, as before.
  s.cluster.gpus = 48;
  CHECK_FALSE(Evaluate(s).memory_fit_at_gpus.found);
}
