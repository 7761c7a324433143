// test_operations.cpp — issue 29: the wait for capacity and the deadline, spare pools, restore checks, bring-up,
// allocation efficiency, the data pipeline and financing. Each case checks against a hand-worked figure or an
// independent method (the exponential distribution's own formulas, Erlang B's textbook values, an annuity
// worked by hand, the Monte Carlo against the closed form), never against a restatement of the code.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "documents/fleet_json.h"
#include "documents/spares_json.h"
#include "money/capacity.h"
#include "explore/fleet.h"
#include "money/provider_sheet.h"
#include "base/rng.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "explore/montecarlo.h"
#include "explore/spares.h"
#include "documents/pricing_json.h"
#include "money/tco.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

// A job with no failures: its run time is fixed, so the finish is the run plus an exponential wait.
Scenario Calm() {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;
  s.cluster.gpus = 256;
  return s;
}

// A large H100 run (the seed article's question: spot vs on-demand vs reserved with a deadline).
Scenario LargeH100() {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 4096;
  s.workload.params = 70e9;
  s.workload.tokens = 2e12;
  s.parallel.zero_stage = 3;  // 70B's states fit (a job that does not fit is not priced: issue 45)
  s.storage.checkpoint_write_gbps = 100;
  return s;
}

}  // namespace

// --- 1. Capacity and delay ------------------------------------------------------------------------------

TEST_CASE("capacity: 256 on-demand GPUs are no longer assumed there at once; the wait is exponential") {
  Scenario s = Calm();
  const Result at_once = Evaluate(s);
  REQUIRE(at_once.ok);
  CHECK(at_once.schedule.finish_p50_hours == doctest::Approx(at_once.expected_hours));  // wait 0: finish = run
  s.ops.on_demand_wait_hours = 48;
  const Result r = Evaluate(s);
  // Exponential wait, mean 48 h: median 48 ln 2 = 33.27 h, P90 48 ln 10 = 110.5 h.
  CHECK(r.schedule.start_p50_hours == doctest::Approx(33.2711).epsilon(1e-4));
  CHECK(r.schedule.start_p90_hours == doctest::Approx(110.524).epsilon(1e-4));
  CHECK(r.schedule.finish_p50_hours == doctest::Approx(r.expected_hours + 33.2711).epsilon(1e-4));
  CHECK(r.schedule.finish_p90_hours == doctest::Approx(r.expected_hours + 110.524).epsilon(1e-4));
  // The billed job is the same; only the finish moves.
  CHECK(r.expected_usd == doctest::Approx(at_once.expected_usd));
}

TEST_CASE("capacity: P(miss deadline) and the delay cost of a fixed run after an exponential wait") {
  Scenario s = Calm();
  s.ops.on_demand_wait_hours = 24;
  const double run = Evaluate(s).expected_hours;
  s.ops.deadline_hours = run + 36;  // 36 h of slack
  s.ops.value_per_day_usd = 100000;
  const Result r = Evaluate(s);
  // P(W > 36) = e^{-36/24} = 0.22313; E[(W - 36)+] = 24 e^{-1.5} = 5.3551 h; delay = 1e5 x 5.3551 / 24.
  CHECK(r.schedule.p_miss_deadline == doctest::Approx(0.223130).epsilon(1e-4));
  CHECK(r.schedule.expected_delay_hours == doctest::Approx(5.35512).epsilon(1e-3));
  CHECK(r.cost_usd.part[kPartDelay] == doctest::Approx(1e5 * 5.35512 / 24).epsilon(1e-3));
  CHECK(r.cost_usd.part[kPartTax] == doctest::Approx(0));  // not taxed (no tax here either way)
  s.pricing.tax_rate = 0.1;
  const Result taxed = Evaluate(s);
  double pretax = 0;
  for (int p = 0; p < kPartCount; ++p)
    if (p != kPartTax && p != kPartDelay) pretax += taxed.cost_usd.part[p];
  CHECK(taxed.cost_usd.part[kPartTax] == doctest::Approx(0.1 * pretax));  // the delay is not a bill
}

// fresh2 A13: the failure-free run misses the deadline too; "failures add" holds only the delay failures cause.
TEST_CASE("capacity: the normal run carries the delay cost of its own lateness; failures add only theirs") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 256;
  s.workload.tokens *= 10;
  s.reliability.gpu_mtbf_hours = 5000;  // some 8 failures over the run
  const Result free_time = Evaluate(s);
  REQUIRE(free_time.ok);
  const double normal_h = free_time.normal_run_hours, expected_h = free_time.expected_hours;
  REQUIRE(expected_h > normal_h + 1);  // failures add hours
  s.ops.deadline_hours = normal_h - 100;  // the run without a failure is 100 h late
  s.ops.value_per_day_usd = 24000;        // $1,000 per hour late
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  // Hand-worked: no wait, no failure: finishes at the normal run's hours, 100 h past the deadline: $100,000.
  CHECK(r.normal_run_delay_usd == doctest::Approx(100000).epsilon(1e-9));
  CHECK(r.normal_run_usd == doctest::Approx(free_time.normal_run_usd + 100000).epsilon(1e-9));
  // Failures add their hours' bill (as without a deadline) and their hours' delay: the expected finish is far past
  // the deadline (the run's spread is hours, the margin 100 h), so E[hours past] = the expected hours - the deadline.
  const FailuresAdd without = FailuresAddOf(free_time), with = FailuresAddOf(r);
  CHECK(with.usd == doctest::Approx(without.usd + 1000 * (expected_h - normal_h)).epsilon(1e-4));
  CHECK(with.hours == doctest::Approx(without.hours));
}

TEST_CASE("capacity: reserved capacity starts at once; a discount-only commitment waits like on-demand") {
  Scenario s = Calm();
  s.ops.on_demand_wait_hours = 10;
  s.pricing.model = static_cast<int>(PricingModel::kReserved);
  s.pricing.reserved.capacity_guaranteed = true;
  CHECK(Evaluate(s).schedule.wait_mean_hours == 0);
  s.pricing.reserved.capacity_guaranteed = false;
  CHECK(Evaluate(s).schedule.wait_mean_hours == 10);
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  CHECK(Evaluate(s).schedule.wait_mean_hours == doctest::Approx(s.pricing.spot.reacquire_minutes / 60));
}

TEST_CASE("pricing: the seed's large H100 run with a deadline shows P(miss) and the delay per model, and says when "
          "the cheapest rate is not the cheapest outcome") {
  Scenario s = LargeH100();
  s.pricing.spot.preemptions_per_node_day = 0.01;
  s.pricing.spot.reacquire_minutes = 30;
  s.ops.on_demand_wait_hours = 12;
  const double od_hours = Evaluate(s).expected_hours;
  s.ops.deadline_hours = od_hours * 1.05;
  s.ops.value_per_day_usd = 2e6;
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  const nlohmann::json doc = nlohmann::json::parse(PricingToJson(s, c));
  CHECK(doc["cheapest_rate"] == "spot");
  CHECK(doc["cheapest_rate_is_not_cheapest"] == true);
  for (const auto& m : doc["models"]) {
    CAPTURE(m["model"]);
    REQUIRE(m["schedule"]["p_miss_deadline"].is_number());
    CHECK(m["schedule"]["delay_usd"].get<double>() >= 0);
  }
  const ModelCost& spot = c.models[static_cast<int>(PricingModel::kSpot)];
  const ModelCost& od = c.models[static_cast<int>(PricingModel::kOnDemand)];
  CHECK(spot.usd_per_gpu_hour < od.usd_per_gpu_hour);
  CHECK(spot.result.schedule.p_miss_deadline > od.result.schedule.p_miss_deadline);
  CHECK(spot.result.schedule.delay_usd > od.result.schedule.delay_usd);
  // Ranked by the total including the delay: the total is what eval gives, delay part included.
  CHECK(spot.total_usd == doctest::Approx(spot.result.expected_usd));
  CHECK(spot.result.cost_usd.part[kPartDelay] == doctest::Approx(spot.result.schedule.delay_usd));
  // Without the price of time, spot beats on-demand on this job; with it, it does not.
  Scenario free_time = s;
  free_time.ops.value_per_day_usd = 0;
  const PricingComparison f = ComparePricingModels(free_time);
  CHECK(f.models[1].total_usd < f.models[0].total_usd);
  CHECK(c.models[1].total_usd > c.models[0].total_usd);
}

TEST_CASE("capacity: the Monte Carlo's share of late trials and its median finish match the closed form") {
  Scenario s = LargeH100();
  s.reliability.gpu_mtbf_hours = 10000;
  s.ops.on_demand_wait_hours = 6;
  const Result cf = Evaluate(s);
  REQUIRE(cf.expected_interruptions > 30);  // enough for the normal approximation of the run
  s.ops.deadline_hours = cf.schedule.finish_p50_hours;
  s.ops.value_per_day_usd = 1e5;
  const Result r = Evaluate(s);
  CHECK(r.schedule.p_miss_deadline == doctest::Approx(0.5).epsilon(1e-6));
  MonteCarlo mc(s, 7, 4000);
  while (!mc.done()) mc.Run(1000);
  const McSummary m = mc.Summary();
  CHECK(m.p_miss_deadline == doctest::Approx(0.5).epsilon(0.08));
  CHECK(m.finish_hours.p50 == doctest::Approx(r.schedule.finish_p50_hours).epsilon(0.01));
  CHECK(m.finish_hours.p90 == doctest::Approx(r.schedule.finish_p90_hours).epsilon(0.02));
  CHECK(m.mean_cost_usd.part[kPartDelay] == doctest::Approx(r.cost_usd.part[kPartDelay]).epsilon(0.1));
}

// --- 2. Spare pools -------------------------------------------------------------------------------------

TEST_CASE("capacity: the finish quantiles solve S(x) = 1 - p (Newton in a bracket) and meet the normal's and the exponential's own") {
  // Normal alone (no wait): the 90th percentile is mu + 1.2815515655446004 sd (the standard normal's table value).
  CHECK(gpucost::FinishQuantile(0.9, 0, 100, 10) == doctest::Approx(112.815515655446).epsilon(1e-12));
  CHECK(gpucost::FinishQuantile(0.5, 0, 100, 10) == doctest::Approx(100).epsilon(1e-12));
  // Exponential wait alone after a fixed run: mu + m ln(1/(1-p)).
  CHECK(gpucost::FinishQuantile(0.9, 48, 1000, 0) == doctest::Approx(1000 + 48 * std::log(10.0)).epsilon(1e-12));
  // Both: whatever the mix of wait and spread, the quantile leaves exactly 1 - p of the mass after it.
  for (double m : {0.01, 1.0, 48.0, 5000.0})
    for (double sd : {0.001, 3.0, 200.0})
      for (double p : {0.5, 0.9, 0.99}) {
        const double x = gpucost::FinishQuantile(p, m, 1000, sd);
        CAPTURE(m);
        CAPTURE(sd);
        CAPTURE(p);
        CHECK(gpucost::FinishSurvival(x, m, 1000, sd) == doctest::Approx(1 - p).epsilon(1e-9));
      }
}

TEST_CASE("spares: Erlang B's textbook values") {
  CHECK(ErlangB(1, 1) == doctest::Approx(0.5));
  CHECK(ErlangB(2, 1) == doctest::Approx(0.2));
  CHECK(ErlangB(5, 2) == doctest::Approx(0.036697).epsilon(1e-4));  // 2^5/5! / sum_k 2^k/k! = 0.26667/7.2667
  CHECK(ErlangB(0, 3) == 1);
}

TEST_CASE("spares: 8 hot spares no longer absorb 552 failures; the pool is busy while repairs run") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 16384;
  s.workload.params = 405e9;
  s.workload.tokens = 13e12;
  s.storage.checkpoint_write_gbps = 100;
  s.reliability.gpu_mtbf_hours = 50000;
  s.reliability.hot_spares = 8;  // one spare node
  s.ops.repair_hours = 72;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.expected_failures > 400);
  // Failures per hour 16,384 / 50,000 = 0.32768; load a = 0.32768 x 72 = 23.59; one node: B(1, a) = a / (1 + a).
  const double a = 16384.0 / 50000 * 72;
  const double fast = 1 / (1 + a);
  CHECK(r.spare_fast_fraction == doctest::Approx(fast).epsilon(1e-9));
  // Recovery per failure: fast x 5 min + (1 - fast) x 20 min, close to the 20 min of no spares at all.
  const double per_failure_h = (fast * 5 + (1 - fast) * 20) / 60;
  CHECK(r.time_hours.part[kPartRecovery] / r.expected_interruptions == doctest::Approx(per_failure_h).epsilon(0.02));
  // A pool of 16 nodes covers nearly all of them (B(16, 23.6) ~ 0.36 -> more than 60% fast).
  s.reliability.hot_spares = 128;
  CHECK(Evaluate(s).spare_fast_fraction == doctest::Approx(1 - ErlangB(16, a)));
  CHECK(Evaluate(s).spare_fast_fraction > 0.6);
}

TEST_CASE("spares: the sweep finds the cheapest pool; a managed buffer costs no GPU-hours") {
  Scenario s = LargeH100();
  s.reliability.gpu_mtbf_hours = 20000;
  s.ops.repair_hours = 24;
  s.reliability.recovery_minutes = 60;
  const SparesSweepDoc d = SparesSweep(s, 12);
  REQUIRE(d.ok);
  REQUIRE(d.rows.size() > 2);
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    CHECK(d.rows[i].expected_usd >= d.rows[static_cast<std::size_t>(d.cheapest)].expected_usd);
    CHECK(d.rows[i].managed_usd <= d.rows[i].expected_usd + 1e-6);
    if (i > 0) CHECK(d.rows[i].fast_fraction >= d.rows[i - 1].fast_fraction);
    if (i > 0) CHECK(d.rows[i].goodput >= d.rows[i - 1].goodput - 1e-12);
  }
  CHECK(d.cheapest > 0);  // at an hour's slow recovery some spares pay for themselves
  const nlohmann::json doc = nlohmann::json::parse(SparesToJson(s, d));
  CHECK(doc["schema"] == "gpucost/spares@1");
  CHECK(doc["cheapest_hot_spares"].get<long long>() == d.rows[static_cast<std::size_t>(d.cheapest)].spares);
}

TEST_CASE("spares: the Monte Carlo samples the pool (its mean recovery matches the closed form)") {
  Scenario s = LargeH100();
  s.reliability.hot_spares = 16;
  s.ops.repair_hours = 48;
  const Result r = Evaluate(s);
  REQUIRE(r.spare_fast_fraction > 0.05);
  REQUIRE(r.spare_fast_fraction < 0.95);
  MonteCarlo mc(s, 3, 2000);
  while (!mc.done()) mc.Run(1000);
  const McSummary m = mc.Summary();
  CHECK(m.mean_time_hours.part[kPartRecovery] == doctest::Approx(r.time_hours.part[kPartRecovery]).epsilon(0.05));
}

// --- 4. Restore checks ----------------------------------------------------------------------------------

TEST_CASE("restore checks: an unusable last checkpoint rolls back one more interval; tests catch their share") {
  Scenario s = LargeH100();
  const Result base = Evaluate(s);
  s.ops.bad_checkpoint_probability = 0.1;
  const Result r = Evaluate(s);
  // Each rollback: a run of unusable checkpoints, each one more interval + block + reload. The run is geometric: the
  // last is bad with p, the one before too with p, ... so p / (1 - p) = 0.1 / 0.9 more per rollback on average
  // (issue 45: it was counted as p, one bad checkpoint at most).
  const double loss_h = (base.checkpoint_interval_minutes + base.checkpoint_write_minutes + s.reliability.recovery_minutes) / 60;
  CHECK(r.time_hours.part[kPartBadCheckpoint] == doctest::Approx(base.expected_failures * (0.1 / 0.9) * loss_h).epsilon(1e-6));
  CHECK(r.gpu_hours.part[kPartBadCheckpoint] == doctest::Approx(r.time_hours.part[kPartBadCheckpoint] * r.billed_gpus));
  CHECK(r.expected_usd > base.expected_usd);
  // Testing every 4th checkpoint: a quarter of the last checkpoints are known good.
  s.ops.restore_test_every = 4;
  s.ops.restore_test_minutes = 10;
  const Result t4 = Evaluate(s);
  // (an untested checkpoint is bad with 0.1 x 0.75 = 0.075: 0.075 / 0.925 more per rollback)
  CHECK(t4.time_hours.part[kPartBadCheckpoint] ==
        doctest::Approx((0.075 / 0.925) / (0.1 / 0.9) * r.time_hours.part[kPartBadCheckpoint]));
  CHECK(t4.time_hours.part[kPartRestoreTest] == doctest::Approx(std::floor(base.checkpoints_written / 4) * 10 / 60));
  // Testing every checkpoint: no bad rollbacks, a test per checkpoint.
  s.ops.restore_test_every = 1;
  const Result t1 = Evaluate(s);
  CHECK(t1.time_hours.part[kPartBadCheckpoint] == 0);
  CHECK(t1.time_hours.part[kPartRestoreTest] == doctest::Approx(base.checkpoints_written * 10 / 60.0));
}

TEST_CASE("restore checks: the Monte Carlo draws unusable checkpoints at the closed form's rate") {
  Scenario s = LargeH100();
  s.ops.bad_checkpoint_probability = 0.2;
  const Result r = Evaluate(s);
  MonteCarlo mc(s, 11, 2000);
  while (!mc.done()) mc.Run(1000);
  const McSummary m = mc.Summary();
  CHECK(m.mean_time_hours.part[kPartBadCheckpoint] == doctest::Approx(r.time_hours.part[kPartBadCheckpoint]).epsilon(0.05));
}

// --- 5. Bring-up, 7. allocation efficiency ------------------------------------------------------------

TEST_CASE("bring-up: billed for every GPU before the first step, taxed") {
  Scenario s = Calm();
  s.pricing.tax_rate = 0.1;
  const Result base = Evaluate(s);
  s.ops.bring_up_hours = 6;
  const Result r = Evaluate(s);
  CHECK(r.expected_hours == doctest::Approx(base.expected_hours + 6));
  // 256 GPUs x 6 h x $2.99 = $4,592.64, plus 10% VAT.
  CHECK(r.cost_usd.part[kPartBringUp] == doctest::Approx(256 * 6 * 2.99));
  CHECK(r.expected_usd - base.expected_usd == doctest::Approx(256 * 6 * 2.99 * 1.1).epsilon(1e-3));
}

TEST_CASE("allocation efficiency: a shared cluster at 50% charges the job twice its GPU-hours") {
  Scenario s = Calm();
  const Result base = Evaluate(s);
  s.ops.allocation_efficiency = 0.5;
  const Result r = Evaluate(s);
  CHECK(r.gpu_hours.part[kPartAllocationIdle] == doctest::Approx(base.billed_gpu_hours));
  CHECK(r.billed_gpu_hours == doctest::Approx(2 * base.billed_gpu_hours));
  CHECK(r.expected_hours == doctest::Approx(base.expected_hours));  // time does not change
}

// --- 3. Data pipelines ---------------------------------------------------------------------------------

TEST_CASE("data pipeline: preprocessing cores stall a text model that storage bandwidth alone never would") {
  Scenario s = Calm();
  s.workload.seq_len = 4096;
  s.cluster.mfu = 0.4;
  const Result base = Evaluate(s);
  CHECK(base.time_hours.part[kPartDataStall] == 0);
  // The GPUs consume tokens / compute time; one core per GPU turning 0.2 samples of 4,096 tokens a second gives
  // 256 x 0.2 x 4,096 = 209,715 tokens/s.
  const double consume = base.tokens / (base.ideal_hours * 3600);
  s.ops.cpu_cores_per_gpu = 1;
  s.ops.samples_per_core_second = 0.2;
  const double supply = 256 * 0.2 * 4096;
  REQUIRE(supply < consume);
  const Result r = Evaluate(s);
  CHECK(std::string(r.data_feed.binding) == "preprocessing");
  CHECK(r.time_hours.part[kPartDataStall] == doctest::Approx(base.ideal_hours * (consume / supply - 1)).epsilon(1e-9));
  // Plenty of cores: no stall.
  s.ops.cpu_cores_per_gpu = 14;  // DGX H100: 112 cores / 8 GPUs
  s.ops.samples_per_core_second = 50;
  CHECK(Evaluate(s).time_hours.part[kPartDataStall] == 0);
  // Small files: 2 files of 20 ms per sample on 14 cores per GPU: 256 x 14 / (0.02 + 0.04) x 4,096 tokens/s.
  s.ops.small_file_latency_ms = 20;
  s.ops.files_per_sample = 2;
  const double supply_files = 256 * 14 / (0.02 + 0.04) * 4096;
  const Result f = Evaluate(s);
  if (supply_files < consume) {
    CHECK(std::string(f.data_feed.binding) == "small_file_latency");
    CHECK(f.time_hours.part[kPartDataStall] == doctest::Approx(base.ideal_hours * (consume / supply_files - 1)).epsilon(1e-9));
  } else {
    CHECK(std::string(f.data_feed.binding) == "none");
  }
}

TEST_CASE("data pipeline: staging holds the billed GPUs while it copies; the scratch copy is stored") {
  Scenario s = Calm();
  const Result base = Evaluate(s);
  s.ops.staging_dataset_gb = 10000;
  s.ops.staging_gbps = 2;  // 5,000 s
  s.ops.scratch_usd_per_gb_month = 0.14;
  const Result r = Evaluate(s);
  CHECK(r.time_hours.part[kPartStaging] == doctest::Approx(5000.0 / 3600));
  CHECK(r.cost_usd.part[kPartStaging] == doctest::Approx(256 * 5000.0 / 3600 * 2.99));
  // 10,000 GB x $0.14/GB-month over the job's hours (730 h a month).
  // The checkpoints already stored stay 1.39 h longer too (their cost per hour from the base run).
  const double stored_per_hour = base.cost_usd.part[kPartStorage] / (base.expected_hours + s.storage.retention_days * 24);
  CHECK(r.cost_usd.part[kPartStorage] - base.cost_usd.part[kPartStorage] ==
        doctest::Approx(10000 * 0.14 * r.expected_hours / 730 + stored_per_hour * 5000 / 3600).epsilon(1e-6));
  s.ops.staging_billed = false;
  CHECK(Evaluate(s).cost_usd.part[kPartStaging] == 0);
}

TEST_CASE("data pipeline: inputs the model cannot use are reported, naming the field") {
  auto codes = [](const Result& r) {
    std::string all;
    for (int i = 0; i < r.warnings.count; ++i) all += std::string(r.warnings.code[i]) + " ";
    return all;
  };
  Scenario s = DefaultScenario();
  s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  s.ops.cpu_cores_per_gpu = 4;
  CHECK(codes(Evaluate(s)).find("data_pipeline_unused") != std::string::npos);
  s = Calm();
  s.ops.samples_per_core_second = 10;  // no cores given
  const Result r = Evaluate(s);
  CHECK(codes(r).find("data_cores_missing") != std::string::npos);
  CHECK(std::string(r.warnings.Text(0, Lang::kEn)).find("data.preprocess.cpu_cores_per_gpu") != std::string::npos);
  s = Calm();
  s.ops.staging_dataset_gb = 100;  // no rate
  CHECK(codes(Evaluate(s)).find("staging_rate_missing") != std::string::npos);
  CHECK(Evaluate(s).time_hours.part[kPartStaging] == 0);
}

// --- 6. Owned hardware: financing ----------------------------------------------------------------------

TEST_CASE("owned: financing at 5% a year adds the annuity's interest (worked by hand)") {
  OwnedInputs o = DefaultScenario().pricing.owned;  // $40,000 + 2% spares, 5 years, 10% residual
  const TcoResult cash = ComputeTco(o, 0);
  o.interest_rate = 0.05;
  const TcoResult loan = ComputeTco(o, 0);
  // Upfront 40,800; residual 4,080 worth 4,080 / 1.05^5 = 3,196.77 today; annuity on 37,603.23 over 5 years at
  // 5%: x 0.230975 = 8,685.36 a year against 36,720 / 5 = 7,344 straight line: 1,341.36 of interest a year.
  CHECK(loan.financing_usd_per_gpu_year == doctest::Approx(1341.36).epsilon(1e-4));
  CHECK(loan.usd_per_gpu_year - cash.usd_per_gpu_year == doctest::Approx(1341.36).epsilon(1e-4));
  CHECK(cash.financing_usd_per_gpu_year == 0);
}

// --- 6. The fleet planner's owned share ----------------------------------------------------------------

TEST_CASE("fleet: owned GPUs for a 12-month plan pay the book value a resale does not recover, said explicitly") {
  FleetInputs in = DefaultFleet();
  in.months = 12;
  for (int m = 0; m < 12; ++m) in.demand_gpus[m] = 64;
  in.commitment_count = 0;
  in.spot_availability = 0;
  const FleetResult resold = PlanFleet(in);
  REQUIRE(resold.ok);
  // Book value after 12 of 60 months: 40,800 x (1 - 0.9 x 0.2) = 33,456 per GPU; resold at the sourced 61.2% of
  // it (issue 45: used and working 0.72 x through a broker 0.85): 33,456 x 0.388 = 12,980.9 lost.
  CHECK(resold.owned_remainder.book_value_usd_per_gpu == doctest::Approx(33456));
  CHECK(resold.owned_remainder.lost_usd_per_gpu == doctest::Approx(33456 * (1 - 0.72 * 0.85)));
  in.owned_resale_fraction = 0;  // kept idle: the plan pays the rest of the capex
  const FleetResult kept = PlanFleet(in);
  CHECK(kept.owned_remainder.lost_usd_per_gpu == doctest::Approx(33456));
  // The other 61.2% of 33,456 over the plan's 8,760 hours: USD 2.34 more per held GPU-hour.
  CHECK(kept.owned_usd_per_held_gpu_hour - resold.owned_usd_per_held_gpu_hour == doctest::Approx(33456.0 * 0.612 / 8760));
  CHECK(kept.hybrid.owned_gpus < resold.hybrid.owned_gpus + 1e-9);
  const nlohmann::json doc = nlohmann::json::parse(FleetToJson(in, kept));
  CHECK(doc["owned_remainder"]["resale_fraction"] == 0);
}

// --- 8. The provider sheet reads the numbers already in the cost ----------------------------------------

TEST_CASE("provider sheet: minimum term, set-up fee and support read the cost, not 'ask the provider'") {
  Scenario s = Calm();
  s.pricing.model = static_cast<int>(PricingModel::kReserved);
  s.pricing.reserved.term_months = 12;
  s.pricing.fixed_fees_usd = 5000;
  s.ops.support_usd_per_month = 1000;
  const ProviderSheetDoc d = BuildProviderSheet({s});
  auto row = [&](const char* key) -> std::string {
    for (const SheetRow& r : d.rows)
      if (r.key == key) return r.values[0];
    return "?";
  };
  CHECK(row("provider.minimum_term").find("12") != std::string::npos);
  CHECK(row("provider.setup_fee").find("5,000") != std::string::npos);
  CHECK(row("provider.support_scope").find("1,000") != std::string::npos);
  // The provider's own words win.
  std::snprintf(s.provider.setup_fee, sizeof s.provider.setup_fee, "none");
  CHECK(BuildProviderSheet({s}).rows.size() == d.rows.size());
  // The support plan is a cost line: USD 1,000 a month over the job's months (730 h each).
  const Result r = Evaluate(s);
  CHECK(r.cost_usd.part[kPartSupport] == doctest::Approx(1000 * r.expected_hours / 730));
}

// --- 7. The Monte Carlo's faster exponential draws ------------------------------------------------------

TEST_CASE("ziggurat exponential: moments and tails of the unit exponential (Marsaglia & Tsang 2000)") {
  Rng r(3);
  const int n = 1000000;
  double sum = 0, sum2 = 0;
  int above1 = 0, above5 = 0, above8 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = SampleUnitExponential(r);
    sum += x, sum2 += x * x;
    above1 += x > 1, above5 += x > 5, above8 += x > 8;  // 8 is past the ziggurat's base strip (7.697)
  }
  const double mean = sum / n;
  CHECK(mean == doctest::Approx(1).epsilon(0.005));                    // standard error 0.001
  CHECK(sum2 / n - mean * mean == doctest::Approx(1).epsilon(0.02));  // variance 1
  CHECK(above1 / double(n) == doctest::Approx(std::exp(-1.0)).epsilon(0.01));
  CHECK(above5 / double(n) == doctest::Approx(std::exp(-5.0)).epsilon(0.05));
  CHECK(above8 / double(n) == doctest::Approx(std::exp(-8.0)).epsilon(0.25));  // ~335 draws: 5% standard error
}
