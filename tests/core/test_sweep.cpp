#include <doctest/doctest.h>

#include <cmath>

#include "job/evaluate.h"
#include "explore/sweep.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

Scenario SweepBase() {
  Scenario s = DefaultScenario();  // 7B, 140B tokens, 64 H100, 40% MFU (default)
  s.pricing.billing_increment_seconds = 1;
  return s;
}

double HalfMfu(const Scenario&, void*) { return 0.2; }

}  // namespace

TEST_CASE("sweep: GPU counts are ascending multiples of the model-parallel size, in whole nodes, incl. the base") {
  Scenario s = SweepBase();
  s.cluster.gpus = 96;
  s.parallel.tensor_parallel = 2;
  s.parallel.pipeline_parallel = 3;
  SweepOptions o;
  o.max_gpus = 1000;
  std::int64_t counts[kMaxSweepPoints];
  const int n = SweepGpuCounts(s, o, counts);
  REQUIRE(n > 4);
  bool has_base = false;
  for (int i = 0; i < n; ++i) {
    CAPTURE(counts[i]);
    CHECK(counts[i] % 6 == 0);
    if (counts[i] > 8) CHECK(counts[i] % 8 == 0);
    if (i > 0) CHECK(counts[i] > counts[i - 1]);
    CHECK(counts[i] <= 1000);
    has_base = has_base || counts[i] == 96;
  }
  CHECK(has_base);
  CHECK(counts[0] == 6);
}

TEST_CASE("sweep: flat MFU: failures grow with N, so the smallest N is cheapest and the largest fastest") {
  Scenario s = SweepBase();
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 8192;
  const SweepResult r = SweepGpuCount(s, o);
  REQUIRE(r.points.size() >= 8);
  CHECK(r.flat_mfu);
  for (std::size_t i = 1; i < r.points.size(); ++i) {
    CAPTURE(r.points[i].gpus);
    CHECK(r.points[i].expected_hours < r.points[i - 1].expected_hours);
    CHECK(r.points[i].expected_usd > r.points[i - 1].expected_usd);
    CHECK(r.points[i].goodput < r.points[i - 1].goodput);
    CHECK(r.points[i].expected_interruptions > r.points[i - 1].expected_interruptions * 0.99);
  }
  CHECK(r.cheapest == 0);
  CHECK(r.fastest == static_cast<int>(r.points.size()) - 1);
  CHECK(r.fastest_within_budget == -1);
  CHECK(r.cheapest_within_deadline == -1);
}

TEST_CASE("sweep: budget and deadline marks are the best points within them") {
  Scenario s = SweepBase();
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 4096;
  SweepResult all = SweepGpuCount(s, o);
  REQUIRE(all.points.size() > 6);
  const SweepPoint& mid = all.points[all.points.size() / 2];
  o.budget_usd = mid.expected_usd * 1.0001;
  o.deadline_hours = mid.expected_hours * 1.0001;
  const SweepResult r = SweepGpuCount(s, o);
  REQUIRE(r.fastest_within_budget >= 0);
  REQUIRE(r.cheapest_within_deadline >= 0);
  const SweepPoint& fb = r.points[r.fastest_within_budget];
  const SweepPoint& cd = r.points[r.cheapest_within_deadline];
  CHECK(fb.expected_usd <= o.budget_usd);
  CHECK(cd.expected_hours <= o.deadline_hours);
  for (const SweepPoint& p : r.points) {
    if (p.expected_usd <= o.budget_usd) CHECK(p.expected_hours >= fb.expected_hours);
    if (p.expected_hours <= o.deadline_hours) CHECK(p.expected_usd >= cd.expected_usd);
  }
  CHECK(fb.gpus == mid.gpus);  // cost rises and time falls with N: the budget's edge is the fastest
  CHECK(cd.gpus == mid.gpus);
}

TEST_CASE("sweep: measured points make MFU fall with N; extrapolation is flagged") {
  Scenario s = SweepBase();
  s.reliability.gpu_mtbf_hours = 0;
  // Amdahl with sigma = 0.002 at 8-64 GPUs, per-GPU 4000 tokens/s without losses.
  const std::int64_t gpus[] = {8, 16, 32, 64};
  s.scaling.point_count = 4;
  for (int i = 0; i < 4; ++i) {
    const double n = static_cast<double>(gpus[i]);
    s.scaling.points[i] = {gpus[i], 4000 * n / (1 + 0.002 * (n - 1))};
  }
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 1024;
  const SweepResult r = SweepGpuCount(s, o);
  CHECK_FALSE(r.flat_mfu);
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPoint& p = r.points[i];
    CAPTURE(p.gpus);
    CHECK(p.mfu_source == MfuSource::kMeasured);
    CHECK(p.scaling_extrapolated == (p.gpus > 64));
    if (i > 0) CHECK(p.mfu < r.points[i - 1].mfu);
    if (i > 0) CHECK(p.scaling_efficiency < r.points[i - 1].scaling_efficiency);
  }
  // With no failures, the cost rises only through the scaling loss: cheapest is the smallest N.
  CHECK(r.cheapest == 0);
}

TEST_CASE("sweep: strong scaling runs out of batch; memory that does not fit is never marked") {
  Scenario s = SweepBase();
  s.parallel.global_batch = 256;
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 1024;
  SweepResult r = SweepGpuCount(s, o);
  for (const SweepPoint& p : r.points) {
    CAPTURE(p.gpus);
    CHECK(p.feasible == (p.gpus <= 256));
  }
  CHECK(r.points[r.fastest].gpus == 256);

  s = SweepBase();
  s.workload.params = 70e9;
  s.parallel.zero_stage = 0;  // 16 bytes/param x 70B = 1120 GB replicated: never fits
  s.parallel.tensor_parallel = 8;
  r = SweepGpuCount(s, o);
  for (const SweepPoint& p : r.points) {
    CHECK(p.memory_known);
    CHECK_FALSE(p.feasible);
  }
  CHECK(r.cheapest == -1);
  CHECK(r.fastest == -1);
}

TEST_CASE("sweep: the MFU hook overrides; weak scaling grows the batch-size token factor") {
  Scenario s = SweepBase();
  SweepOptions o;
  o.min_gpus = 64;
  o.max_gpus = 512;
  o.mfu_at_gpus = HalfMfu;
  SweepResult r = SweepGpuCount(s, o);
  for (const SweepPoint& p : r.points) CHECK(p.mfu == doctest::Approx(0.2));

  s.workload.seq_len = 4096;
  s.parallel.global_batch = 512;  // 2M tokens at 64 GPUs
  s.parallel.critical_batch_tokens = 4e6;
  o.mfu_at_gpus = nullptr;
  o.batch_grows_with_gpus = true;
  r = SweepGpuCount(s, o);
  REQUIRE(r.points.size() >= 4);
  CHECK(r.points[0].global_batch == 512);
  CHECK(r.points[0].batch_size_token_factor == doctest::Approx(1 + 512 * 4096 / 4e6));
  for (std::size_t i = 1; i < r.points.size(); ++i)
    CHECK(r.points[i].batch_size_token_factor > r.points[i - 1].batch_size_token_factor);
}

using test::FineTune70B;  // the 70B fine-tune (observations 2 and 3)

TEST_CASE("sweep: points that do not fit, have no layout or more replicas than the batch are gaps, never marked") {
  const Scenario s = FineTune70B();
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 4096;
  const SweepResult r = SweepGpuCount(s, o);
  REQUIRE(r.cheapest >= 0);
  REQUIRE(r.sweet_spot >= 0);
  for (const SweepPoint& p : r.points) {
    CAPTURE(p.gpus);
    if (p.memory_known && p.memory_total_gb > 80) CHECK_FALSE(p.feasible);
    if (p.data_parallel > 128) CHECK_FALSE(p.feasible);
    if (!p.feasible) CHECK(std::string(p.infeasible_reason).size() > 0);
  }
  for (int mark : {r.cheapest, r.sweet_spot, r.fastest}) {
    CHECK(r.points[mark].feasible);
    CHECK(r.points[mark].data_parallel <= 128);
  }
  CHECK(r.points[r.fastest].gpus <= 8 * 128);
  CHECK_FALSE(r.flat_mfu);  // the step-time model scales the given MFU
}

TEST_CASE("sweep: one MFU policy: predicted at every feasible point; the given MFU holds at the scenario's count") {
  const Scenario s = FineTune70B();
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 2048;
  const SweepResult r = SweepGpuCount(s, o);
  const Result own = Evaluate(s);
  bool saw_own = false;
  double previous_mfu = 1;
  for (const SweepPoint& p : r.points) {
    if (!p.feasible) continue;
    CAPTURE(p.gpus);
    CHECK(p.mfu_source == MfuSource::kPredicted);  // never a 40% default beside predicted points
    // Scaling loss: MFU falls as the count grows (within 0.5%: each count gets its own best layout, and one
    // layout's smaller GEMMs can beat another's by a hair: 36.41% at 1,024 after 36.37%, issue 26's constants).
    CHECK(p.mfu <= previous_mfu * 1.005);
    previous_mfu = p.mfu;
    if (p.gpus == s.cluster.gpus) {
      saw_own = true;
      CHECK(p.mfu == doctest::Approx(0.4).epsilon(1e-9));
      CHECK(p.expected_usd == doctest::Approx(own.expected_usd).epsilon(1e-9));
    }
  }
  CHECK(saw_own);
}

TEST_CASE("property: no sweep marks an infeasible point cheapest, sweet spot or fastest") {
  test::Uniform uniform{1414};
  for (int i = 0; i < 60; ++i) {
    Scenario s = uniform() < 0.5 ? FineTune70B() : DefaultScenario();
    s.cluster.gpus = 8 << static_cast<int>(uniform() * 6);
    if (uniform() < 0.5) s.cluster.mfu = 0;
    if (uniform() < 0.5) s.parallel.global_batch = 16 << static_cast<int>(uniform() * 6);
    s.parallel.tensor_parallel = uniform() < 0.5 ? 8 : 1;
    s.reliability.gpu_mtbf_hours = uniform() < 0.2 ? 50 : 50000;
    s.pricing.model = static_cast<int>(uniform() * 4);
    SweepOptions o;
    o.points_per_doubling = 1 + static_cast<int>(uniform() * 3);
    const SweepResult r = SweepGpuCount(s, o);
    CAPTURE(i);
    for (int mark : {r.cheapest, r.sweet_spot, r.fastest, r.fastest_within_budget, r.cheapest_within_deadline})
      if (mark >= 0) CHECK(r.points[mark].feasible);
    if (r.sweet_spot >= 0)
      CHECK(r.points[r.sweet_spot].expected_usd <= r.points[r.cheapest].expected_usd * (1 + kSweetSpotSlack));
  }
}
