#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <string>

#include "documents/montecarlo_json.h"
#include "job/validate.h"
#include "job/evaluate.h"
#include "base/format.h"
#include "explore/montecarlo.h"
#include "base/rng.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

// A 64-GPU job of about 64 hours with a cluster MTBF of about 31 hours: a few interruptions per trial.
Scenario Unreliable() {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 2000;
  return s;
}

// 2,048 GPUs for about 12 days with ~50 interruptions per trial and a 20-minute checkpoint write.
Scenario Large() {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 2048;
  s.workload.params = 70e9;
  s.workload.tokens = 2e12;
  s.reliability.gpu_mtbf_hours = 10000;
  s.storage.checkpoint_write_gbps = 0.8;  // 980 GB in ~20 min
  return s;
}

McSummary RunAll(const Scenario& s, std::uint64_t seed, std::int64_t trials) {
  MonteCarlo mc(s, seed, trials);
  REQUIRE_MESSAGE(mc.ok(), mc.error());
  mc.Run(trials);
  REQUIRE(mc.done());
  return mc.Summary();
}

void CheckAgreesWithClosedForm(const std::string& what, const Scenario& s, std::int64_t trials,
                               double interruptions_tolerance = 0.03) {
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const McSummary m = RunAll(s, 42, trials);
  CAPTURE(what);
  CHECK(m.time_hours.mean == doctest::Approx(r.expected_hours).epsilon(0.02));
  CHECK(m.cost_usd.mean == doctest::Approx(r.expected_usd).epsilon(0.02));
  CHECK(m.mean_interruptions == doctest::Approx(r.expected_interruptions).epsilon(interruptions_tolerance));
  CHECK(m.truncated_trials == 0);
  CHECK(m.time_hours.p10 <= m.time_hours.p50);
  CHECK(m.time_hours.p50 <= m.time_hours.p90);
  CHECK(m.cost_usd.p10 <= m.cost_usd.p90);
}

}  // namespace

TEST_CASE("xoshiro256** matches the reference implementation; the same seed gives the same stream") {
  Rng rng;
  rng.SetState(1, 2, 3, 4);
  // Worked by hand from the reference code: rotl(2 * 5, 7) * 9 = 11520; then s[1] becomes 0.
  CHECK(rng.Next() == 11520u);
  CHECK(rng.Next() == 0u);
  Rng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.Next();
    CHECK(x == b.Next());
    differs = differs || x != c.Next();
  }
  CHECK(differs);
  double sum = 0, lo = 1, hi = 0;
  Rng u(1);
  for (int i = 0; i < 100000; ++i) {
    const double v = u.Uniform();
    sum += v, lo = std::min(lo, v), hi = std::max(hi, v);
  }
  CHECK(lo > 0);
  CHECK(hi < 1);
  CHECK(sum / 100000 == doctest::Approx(0.5).epsilon(0.01));
}

TEST_CASE("portable log, exp and gamma agree with the C library to about an ulp") {
  for (double x : {1e-300, 1.1e-16, 0.001, 0.3, 0.7071, 0.99999, 1.0, 1.41421, 2.0, 10.0, 123456.789, 1e300}) {
    CAPTURE(x);
    CHECK(PortableLog(x) == doctest::Approx(std::log(x)).epsilon(2e-16).scale(1e-300));
  }
  CHECK(PortableLog(1.0) == 0.0);
  for (double x : {-700.0, -300.5, -20.0, -1.0, -1e-8, 0.0, 1e-8, 0.5, 1.0, 3.7, 50.0, 700.0}) {
    CAPTURE(x);
    CHECK(PortableExp(x) == doctest::Approx(std::exp(x)).epsilon(4e-16));
  }
  CHECK(PortableExp(0) == 1.0);
  for (double z : {1.0, 1.1, 1.5, 2.0, 3.3, 5.0, 11.0}) {
    CAPTURE(z);
    CHECK(PortableGamma(z) == doctest::Approx(std::tgamma(z)).epsilon(1e-13));
  }
}

TEST_CASE("Weibull samples keep the requested mean for every shape") {
  for (double shape : {0.5, 0.7, 1.0, 2.0, 5.0}) {
    CAPTURE(shape);
    Rng rng(99);
    const double mean = 3600, scale = WeibullScaleForMean(mean, shape);
    double sum = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) sum += SampleWeibull(rng, shape, scale);
    CHECK(sum / n == doctest::Approx(mean).epsilon(0.015));
  }
  Rng rng(5);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += SampleExponential(rng, 10);
  CHECK(sum / 100000 == doctest::Approx(10).epsilon(0.01));
}

TEST_CASE("with exponential interruptions the simulated mean agrees with the closed form within 2%") {
  CheckAgreesWithClosedForm("a few failures", Unreliable(), 4000);
  CheckAgreesWithClosedForm("many failures, blocking checkpoints", Large(), 1000);
  Scenario async = Large();
  async.reliability.checkpoint_async = true;
  CheckAgreesWithClosedForm("asynchronous checkpoints", async, 1000);  // was 6% apart before the stage model

  Scenario spot = Unreliable();
  spot.reliability.gpu_mtbf_hours = 20000;
  spot.pricing.model = static_cast<int>(PricingModel::kSpot);
  spot.pricing.spot.preemptions_per_node_day = 0.1;
  spot.pricing.spot.notice_seconds = 0;  // too short to save: preemptions roll back
  CheckAgreesWithClosedForm("spot, no time to save", spot, 4000);
  spot.pricing.spot.notice_seconds = 120;  // covers the ~10 s write: nothing lost
  CheckAgreesWithClosedForm("spot, saved on notice", spot, 4000);
  spot.pricing.billing_increment_seconds = 3600;
  spot.pricing.minimum_billed_seconds = 60;
  CheckAgreesWithClosedForm("spot, hourly billing", spot, 4000);

  Scenario tasks = DefaultScenario();
  tasks.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  tasks.workload.tasks = 500;
  tasks.workload.gpus_per_task = 8;
  tasks.workload.task_gpu_hours = 200;
  tasks.reliability.gpu_mtbf_hours = 500;
  CheckAgreesWithClosedForm("independent tasks", tasks, 300);
}

TEST_CASE("without interruptions every trial is the closed form's normal run") {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;
  s.pricing.billing_increment_seconds = 3600;
  const Result r = Evaluate(s);
  const McSummary m = RunAll(s, 1, 50);
  CHECK(m.time_hours.p10 == doctest::Approx(r.expected_hours).epsilon(1e-12));
  CHECK(m.time_hours.p90 == doctest::Approx(r.expected_hours).epsilon(1e-12));
  CHECK(m.cost_usd.mean == doctest::Approx(r.expected_usd).epsilon(1e-12));
  CHECK(m.mean_interruptions == 0);
  CHECK(m.time_hist.counts[0] == 50);
}

TEST_CASE("spot preemptions with enough notice lose no progress; without it they roll back") {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;  // only preemptions
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  s.pricing.spot.preemptions_per_node_day = 0.5;
  s.pricing.spot.notice_seconds = 120;  // covers the ~10 s checkpoint write
  const McSummary saved = RunAll(s, 9, 300);
  CHECK(saved.mean_preemptions > 5);
  CHECK(saved.mean_time_hours.part[kPartRework] == 0);
  CHECK(saved.mean_time_hours.part[kPartReacquireWait] > 0);
  s.pricing.spot.notice_seconds = 0;
  const McSummary lost = RunAll(s, 9, 300);
  CHECK(lost.mean_time_hours.part[kPartRework] > 0);
}

TEST_CASE("the mean's named parts add up to the mean cost and time; the histogram holds every trial") {
  Scenario s = Unreliable();
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  s.pricing.spot.notice_seconds = 0;
  const McSummary m = RunAll(s, 3, 500);
  CHECK(m.mean_cost_usd.Total() == doctest::Approx(m.cost_usd.mean).epsilon(1e-12));
  CHECK(m.mean_time_hours.Total() == doctest::Approx(m.time_hours.mean).epsilon(1e-12));
  CHECK(m.mean_cost_usd.part[kPartRework] > 0);
  CHECK(m.mean_time_hours.part[kPartReacquireWait] > 0);
  CHECK(m.mean_cost_usd.part[kPartReacquireWait] == 0);  // waiting for capacity is not billed
  std::int64_t n = 0;
  for (std::int64_t c : m.cost_hist.counts) n += c;
  CHECK(n == 500);
  CHECK(m.cost_hist.lo >= m.cost_usd.min);
  CHECK(m.cost_hist.hi <= m.cost_usd.max);
  CHECK(m.cost_usd.min < m.cost_usd.max);
}

TEST_CASE("the histogram's axis is the trials' P0.5..P99.5; the trials outside are counted in the end bins") {
  Scenario s = Unreliable();
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  s.pricing.spot.notice_seconds = 0;
  constexpr std::int64_t kTrials = 2000;
  MonteCarlo mc(s, 11, kTrials);
  mc.Run(kTrials);
  const McSummary m = mc.Summary();
  std::vector<double> sorted = mc.cost_usd();
  std::sort(sorted.begin(), sorted.end());
  const McHistogram& h = m.cost_hist;
  REQUIRE(h.resolved);
  CHECK(h.lo == doctest::Approx(Percentile(sorted, 0.005)).epsilon(1e-12));
  CHECK(h.hi == doctest::Approx(Percentile(sorted, 0.995)).epsilon(1e-12));
  CHECK(h.lo >= sorted.front());  // (about one trial in eight is never interrupted: the minimum)
  CHECK(h.hi < sorted.back());  // a fitted axis, not min..max: the long tail is cut
  std::int64_t below = 0, above = 0, in_first = 0, in_last = 0;
  const double width = (h.hi - h.lo) / kMcHistogramBins;
  for (double v : sorted) {
    below += v < h.lo;
    above += v > h.hi;
    in_first += v < h.lo + width;
    in_last += v >= h.hi - width;
  }
  CHECK(h.below == below);
  CHECK(h.above == above);
  CHECK(below + above >= 10);  // about 1% of 2,000 trials
  CHECK(h.counts[0] == in_first);
  CHECK(h.counts[kMcHistogramBins - 1] == doctest::Approx(static_cast<double>(in_last)).epsilon(0.01));
  std::int64_t n = 0;
  for (std::int64_t c : h.counts) n += c;
  CHECK(n == kTrials);
  const std::string note = McHistogramNote(h, m.trials, 1, [](double v) { return FormatUsd(v); });
  CHECK(note == "The axis spans P0.5 to P99.5 of the trials: " + std::to_string(below) + " trials below it and " +
                    std::to_string(above) + " above are counted in the end bins.");
  const std::string json = McSummaryToJson(m, Evaluate(s));
  CHECK(json.find("\"below\": " + std::to_string(below)) != std::string::npos);
  CHECK(json.find("\"resolved\": true") != std::string::npos);
}

TEST_CASE("a spread below the axis resolution is said in words: every trial within 0.1% of the median") {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;  // nothing fails: every trial is the same run
  const McSummary m = RunAll(s, 5, 300);
  for (const McHistogram* h : {&m.cost_hist, &m.time_hist}) {
    CHECK_FALSE(h->resolved);
    CHECK(h->within == 300);
  }
  CHECK(m.time_hist.center == doctest::Approx(Evaluate(s).expected_hours).epsilon(1e-12));
  CHECK(McHistogramNote(m.time_hist, m.trials, 1, [](double v) { return FormatDuration(v); }) ==
        "Every trial within 0.1% of " + FormatDuration(m.time_hist.center) +
            ": the spread is below what the axis can show, so no histogram is drawn.");
  CHECK(McSummaryToJson(m, Evaluate(s)).find("\"resolved\": false") != std::string::npos);

  // Almost all trials equal, a few interrupted: the words count them and give their range.
  Scenario rare = DefaultScenario();
  rare.reliability.gpu_mtbf_hours = 2e6;  // about one trial in a hundred sees a failure
  const McSummary r = RunAll(rare, 5, 1000);
  REQUIRE_FALSE(r.time_hist.resolved);
  CHECK(r.time_hist.within < 1000);
  CHECK(r.time_hist.within > 900);
  CHECK(r.time_hist.hi > r.time_hist.center * 1.001);
  const std::string note = McHistogramNote(r.time_hist, r.trials, 1, [](double v) { return FormatDuration(v); });
  CHECK(note.find(std::to_string(r.time_hist.within) + " of 1,000 trials within 0.1% of ") == 0);
}

TEST_CASE("sliced runs give exactly the result of one big run; the seed decides everything") {
  const Scenario s = Large();
  MonteCarlo whole(s, 2024, 300);
  whole.Run(300);
  MonteCarlo sliced(s, 2024, 300);
  std::int64_t calls = 0;
  while (!sliced.done()) {
    sliced.Run(7);
    ++calls;
    CHECK(sliced.progress() <= 1.0);
  }
  CHECK(calls == 43);
  CHECK(sliced.completed() == 300);
  CHECK(sliced.time_hours() == whole.time_hours());  // bit-identical, trial by trial
  CHECK(sliced.cost_usd() == whole.cost_usd());
  CHECK(sliced.Summary().cost_usd.p90 == whole.Summary().cost_usd.p90);
  MonteCarlo other(s, 2025, 300);
  other.Run(300);
  CHECK(other.cost_usd() != whole.cost_usd());
}

TEST_CASE("trials walked two at a time give, trial by trial, what one at a time gives (every term on)") {
  // Issue 50's speed: RunPair walks two trials' events in turn. Each trial draws from its own stream, so the
  // order must not matter: Run(1) never pairs; Run(n) pairs all it can.
  Scenario s = Large();
  s.reliability.hot_spares = 16;
  s.ops.repair_hours = 48;
  s.ops.bad_checkpoint_probability = 0.05;
  s.reliability.infant_failure_fraction = 0.01;
  s.reliability.collective_timeouts_per_day = 2;
  s.reliability.checkpoint_async = true;
  MonteCarlo paired(s, 77, 101);
  paired.Run(101);
  MonteCarlo single(s, 77, 101);
  while (!single.done()) CHECK(single.Run(1) == 1);
  REQUIRE(single.completed() == 101);
  CHECK(single.time_hours() == paired.time_hours());
  CHECK(single.cost_usd() == paired.cost_usd());
  const McSummary a = paired.Summary(), b = single.Summary();
  CHECK(a.mean_failures == b.mean_failures);
  CHECK(a.mean_cost_usd.part[kPartCollectiveTimeouts] ==
        b.mean_cost_usd.part[kPartCollectiveTimeouts]);
  CHECK(a.mean_failures > 10);  // the scenario does fail: the walks have events to interleave
}

TEST_CASE("Cancel() stops a run; the summary covers the completed trials") {
  MonteCarlo mc(Unreliable(), 1, 1000);
  CHECK(mc.Run(100) == 100);
  mc.Cancel();
  CHECK(mc.done());
  CHECK(mc.cancelled());
  CHECK(mc.Run(100) == 0);
  CHECK(mc.Summary().trials == 100);
  CHECK(mc.progress() == doctest::Approx(0.1));
}

TEST_CASE("asynchronous checkpoints: a failure during the write loses the previous interval too") {
  // Same blocking time, but the async checkpoint completes 20 minutes after it began: more rework per failure.
  Scenario blocking = Large();
  blocking.reliability.gpu_mtbf_hours = 40000;  // cluster MTBF 19.5 h: a failure lands almost uniformly
  blocking.reliability.recovery_minutes = 0;    // so that every failure rolls back (none during recovery)
  blocking.reliability.checkpoint_interval_minutes = 60;
  blocking.reliability.checkpoint_write_minutes = 2;
  Scenario async = blocking;
  async.reliability.checkpoint_async = true;
  async.reliability.checkpoint_write_minutes = 20;
  async.reliability.async_stall_fraction = 0.1;  // blocks 2 minutes, like the blocking write
  const McSummary b = RunAll(blocking, 11, 400), a = RunAll(async, 11, 400);
  const double rework_per_failure_b = b.mean_time_hours.part[kPartRework] / b.mean_failures;
  const double rework_per_failure_a = a.mean_time_hours.part[kPartRework] / a.mean_failures;
  // Blocking: about half a 62-minute segment (31 min). Async: failures in the 18 minutes the write runs past
  // its 2-minute block lose the whole previous segment as well: about 31 + 18/62 x 62 = 49 min.
  CHECK(rework_per_failure_b * 60 == doctest::Approx(31).epsilon(0.05));
  CHECK(rework_per_failure_a * 60 == doctest::Approx(49).epsilon(0.05));
  CHECK(a.mean_time_hours.part[kPartCheckpoint] == doctest::Approx(b.mean_time_hours.part[kPartCheckpoint]));
  // The closed form's stages between durable checkpoints (reliability.cpp RunStage) say the same.
  const Result ra = Evaluate(async), rb = Evaluate(blocking);
  CHECK(ra.time_hours.part[kPartRework] / ra.expected_interruptions * 60 == doctest::Approx(rework_per_failure_a * 60).epsilon(0.05));
  CHECK(rb.time_hours.part[kPartRework] / rb.expected_interruptions * 60 == doctest::Approx(rework_per_failure_b * 60).epsilon(0.05));
}

TEST_CASE("Weibull failures keep the mean rate; shape < 1 clusters failures and widens the spread") {
  Scenario exp_s = Large();
  Scenario weib = Large();
  weib.reliability.failure_shape = 0.6;
  const McSummary e = RunAll(exp_s, 5, 1000), w = RunAll(weib, 5, 1000);
  CHECK(w.mean_failures == doctest::Approx(e.mean_failures).epsilon(0.05));
  CHECK(w.time_hours.p90 - w.time_hours.p10 > 1.2 * (e.time_hours.p90 - e.time_hours.p10));
}

TEST_CASE("invalid requests are refused with a clear message, never simulated forever") {
  MonteCarlo zero(DefaultScenario(), 1, 0);
  CHECK_FALSE(zero.ok());
  CHECK(std::string(zero.error()) == "trials must be an integer from 1 to 10,000,000, got 0");
  CHECK(zero.Run(10) == 0);
  MonteCarlo many(DefaultScenario(), 1, kMcMaxTrials + 1);
  CHECK_FALSE(many.ok());
  Scenario hopeless = DefaultScenario();
  hopeless.cluster.gpus = 100000;
  hopeless.reliability.gpu_mtbf_hours = 1;
  hopeless.reliability.checkpoint_interval_minutes = 600;
  MonteCarlo h(hopeless, 1, 10);
  CHECK_FALSE(h.ok());
  CHECK(std::string(h.error()).find("never finishes") != std::string::npos);
}

// Issue 18: a job that writes no checkpoints restarts from the beginning after every interruption.
TEST_CASE("no checkpoints: every failure restarts the job; closed form and Monte Carlo agree, no NaN") {
  Scenario s = Unreliable();
  s.cluster.gpus = 8;  // ~7 h of work, cluster MTBF 250 h: a few restarts at most
  s.workload.tokens = 2e9 * 4;
  s.reliability.checkpointing = false;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.checkpoints_written == 0);
  CHECK(r.time_hours.part[kPartCheckpoint] == 0);
  CHECK(r.checkpoint_gb == 0);
  // One segment of the whole work W: expected running time M (e^{W/M} - 1) (Daly with no checkpoint).
  const double work_s = r.ideal_hours * 3600, mtbf_s = s.reliability.gpu_mtbf_hours * 3600 / 8;
  CHECK(r.time_hours.part[kPartRework] * 3600 == doctest::Approx(mtbf_s * std::expm1(work_s / mtbf_s) - work_s).epsilon(1e-9));
  CheckAgreesWithClosedForm("no checkpoints", s, 4000, 0.05);
  Scenario with = s;
  with.reliability.checkpointing = true;
  CHECK(Evaluate(with).time_hours.part[kPartRework] < r.time_hours.part[kPartRework]);
  bool warned = false;
  for (int i = 0; i < r.warnings.count; ++i) warned |= std::string(r.warnings.code[i]) == "no_checkpoints";
  CHECK(warned);
}

TEST_CASE("no checkpoints: a long job on many GPUs never finishes and says so (finite figures)") {
  Scenario s = Large();
  s.reliability.checkpointing = false;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.never_finishes);
  CHECK(NonFiniteResultPath(r).empty());
  MonteCarlo mc(s, 1, 100);
  CHECK(!mc.ok());
  CHECK(std::string(mc.error()).find("never finishes") != std::string::npos);
}

TEST_CASE("no checkpoints: an interval or asynchronous checkpoints alongside are refused, naming the field") {
  const ScenarioParse p = ParseScenarioJson(R"({"reliability": {"checkpointing": false, "checkpoint_interval_minutes": 60}})");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].path == "reliability.checkpointing");
}
