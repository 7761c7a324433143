// Plan versus actual (issue 49, core/documents/actual.h): hand-worked records, the variance's laws, the calibration.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <iomanip>
#include <random>

#include <nlohmann/json.hpp>

#include "evidence/mtbf_update.h"
#include "evidence/run_record.h"
#include "documents/actual.h"
#include "documents/presets.h"
#include "job/evaluate.h"
#include "job/inference_evaluate.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

RunRecord MustRecord(const std::string& text) {
  RunParse p = ParseRunRecordJson(text);
  if (!p.ok()) throw std::runtime_error("invalid run record: " + p.errors.front().Text());
  return p.record;
}

std::int64_t Delta(const ActualDoc& d, int part) {
  for (const VarianceRow& v : d.variance)
    if (v.part == part) return v.delta_cents();
  return 0;
}

std::int64_t SumOfDeltas(const ActualDoc& d) {
  std::int64_t s = 0;
  for (const VarianceRow& v : d.variance) s += v.delta_cents();
  return s;
}

// Plan A, worked by hand: 8 H100 at $2.00 per GPU-hour, 1B parameters (6e9 FLOPs per token), MFU 0.40 given, no
// failures assumed (gpu_mtbf_hours 0), no checkpoints, storage free, no tax. The H100 SXM's dense BF16 peak is 989.4
// TFLOP/s (NVIDIA H100 datasheet; assets/gpus.json), so the planned rate is 8 x 989.4e12 x 0.40 / 6e9 = 527,680
// tokens/s, and 189,964,800,000 tokens = 527,680 x 3,600 x 100: 100 hours of compute, 800 GPU-hours, $1,600.00.
const char* kPlanA = R"({"name": "hand-worked A", "workload": {"params": 1e9, "tokens": 189964800000},
  "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.4}, "reliability": {"gpu_mtbf_hours": 0, "checkpointing": false},
  "storage": {"usd_per_gb_month": 0}, "pricing": {"usd_per_gpu_hour": 2.0}})";

// The run: at 80% of the planned rate (422,144 tokens/s) the same tokens take 125 h ($2,000.00: +$400.00); two
// failures lost 1.5 h each (3 h x 8 GPUs x $2 = $48.00); its 130 h wall time leaves 130 - 125 - 3 = 2 h the record's
// parts do not explain, billed with every GPU idle (2 x 8 x $2 = $32.00). Actual $2,080.00, +$480.00 in all.
const char* kRunA = R"({"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 8, "wall_hours": 130, "tokens": 189964800000,
  "tokens_per_second": 422144, "interruptions": [{"at_hours": 40, "lost_hours": 1.5, "cause": "hardware"},
  {"at_hours": 90, "lost_hours": 1.5, "cause": "software"}]})";

}  // namespace

TEST_CASE("Plan vs actual, worked by hand: 80% of the planned rate, two failures, two unexplained hours") {
  const Scenario plan = test::MustParse(kPlanA);
  const ActualDoc d = CompareActual(plan, MustRecord(kRunA));
  REQUIRE(d.ok);
  CHECK(d.planned_cents == 160000);
  CHECK(d.actual_cents == 208000);
  CHECK(Delta(d, kVarCompute) == 40000);
  CHECK(Delta(d, kVarFailures) == 4800);
  CHECK(Delta(d, kVarIdle) == 3200);
  CHECK(Delta(d, kVarCheckpoints) == 0);
  CHECK(Delta(d, kVarBilling) == 0);
  CHECK(SumOfDeltas(d) == d.actual_cents - d.planned_cents);
  CHECK(d.run.mfu == doctest::Approx(0.32).epsilon(1e-12));
  CHECK(d.run.compute_hours == doctest::Approx(125).epsilon(1e-12));
  CHECK(d.run.unexplained_hours == doctest::Approx(2).epsilon(1e-9));
  CHECK(d.run.failures == 2);
  // Storage and egress, and the delay, are left out where neither side has them.
  for (const VarianceRow& v : d.variance) CHECK(v.part != kVarStorageEgress);
}

TEST_CASE("Plan vs actual, worked by hand: an invoice with 10% VAT; the tax and the invoice's difference are billing") {
  // Plan A with tax_rate 0.10: $1,600 + $160 VAT = $1,760.00. The run's hours at the plan's prices: $2,080 + $208 =
  // $2,288.00. The invoice: 2,420 with VAT included = 2,200 before tax + 220 VAT = $2,420.00 as a cost. Billing and tax
  // moves by the tax's +$48 (208 - 160) and the invoice's +$132 (2,420 - 2,288): +$180.00; compute +$400, failures
  // +$48, idle +$32 as before: +$660.00 = 2,420 - 1,760.
  Scenario plan = test::MustParse(kPlanA);
  plan.pricing.tax_rate = 0.10;
  nlohmann::json run = nlohmann::json::parse(kRunA);
  run["invoice"] = {{"amount", 2420}, {"currency", "USD"}, {"includes_tax", true}};
  const ActualDoc d = CompareActual(plan, MustRecord(run.dump()));
  REQUIRE(d.ok);
  CHECK(d.planned_cents == 176000);
  CHECK(d.actual_cents == 242000);
  CHECK(d.actual_is_invoice);
  CHECK(d.run.priced_usd == doctest::Approx(2288).epsilon(1e-12));
  CHECK(Delta(d, kVarBilling) == 18000);
  CHECK(Delta(d, kVarCompute) == 40000);
  CHECK(SumOfDeltas(d) == 66000);
  // The same invoice in won at the plan's 1,400 KRW/USD: 3,388,000 won = $2,420.
  plan.pricing.krw_per_usd = 1400;
  run["invoice"] = {{"amount", 3388000}, {"currency", "KRW"}, {"includes_tax", true}};
  const ActualDoc won = CompareActual(plan, MustRecord(run.dump()));
  REQUIRE(won.ok);
  CHECK(won.actual_cents == 242000);
}

TEST_CASE("A run at 80% of the planned throughput with 2 interruptions: the MFU and the MTBF worked by hand") {
  // 1,024 H100 (989.4 TFLOP/s dense BF16 each), 70B parameters: 6 x 70e9 = 4.2e11 FLOPs per token (no shape, no
  // attention term). Planned MFU 0.40: 1,024 x 989.4e12 x 0.40 / 4.2e11 = 964,900.5714 tokens/s. The run measured
  // 80% of it, 771,920.4571 tokens/s: MFU = 771,920.4571 x 4.2e11 / (1,024 x 989.4e12) = 0.32.
  // MTBF: the plan's 50,000 h per GPU as a gamma prior worth 2 failures (shape a0 = 2, rate b0 = 100,000 GPU-hours).
  // Two failures over 1,024 GPUs x 250 h = 256,000 GPU-hours: posterior shape 4, rate 356,000; MTBF = 356,000 / 4 =
  // 89,000 h per GPU. Its 90% credible interval: lambda = chi-square(8 d.o.f.) / (2 x 356,000), whose 5% and 95%
  // points are 2.73264 and 15.50731 (chi-square table, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4): MTBF from
  // 712,000 / 15.50731 = 45,913.8 h to 712,000 / 2.73264 = 260,553.9 h. The prior is 2 / 4 = 50% of the estimate.
  const Scenario plan = test::MustParse(R"({"workload": {"params": 70e9, "tokens": 2e12},
    "cluster": {"gpu": "h100-sxm", "gpus": 1024, "mfu": 0.4}, "parallel": {"tensor_parallel": 8, "pipeline_parallel": 4},
    "reliability": {"gpu_mtbf_hours": 50000}, "pricing": {"usd_per_gpu_hour": 2.0}})");
  const RunRecord run = MustRecord(R"({"gpu": "h100-sxm", "gpus": 1024, "wall_hours": 250, "tokens": 6e11,
    "tokens_per_second": [771920.4571428571],
    "interruptions": [{"lost_hours": 1.2, "cause": "hardware"}, {"lost_hours": 0.8, "cause": "network"}]})");
  const ActualDoc d = CompareActual(plan, run);
  REQUIRE(d.ok);
  CHECK(d.run.mfu == doctest::Approx(0.32).epsilon(1e-9));
  CHECK(d.run.planned_mfu == doctest::Approx(0.40).epsilon(1e-12));
  const ActualCalibration& c = d.calibrated;
  REQUIRE(c.ok);
  CHECK(c.scenario.cluster.mfu == doctest::Approx(0.32).epsilon(1e-9));
  CHECK(c.mtbf.mtbf_hours == doctest::Approx(89000).epsilon(1e-12));
  CHECK(c.scenario.reliability.gpu_mtbf_hours == doctest::Approx(89000).epsilon(1e-12));
  CHECK(c.mtbf.low_hours == doctest::Approx(45913.8).epsilon(1e-5));
  CHECK(c.mtbf.high_hours == doctest::Approx(260553.9).epsilon(1e-5));
  CHECK(c.mtbf.prior_share == doctest::Approx(0.5));
  // The next job is the plan's with those figures, priced by Evaluate: its compute at MFU 0.32 is 1.25x the plan's.
  const Result next = Evaluate(c.scenario), planned = Evaluate(plan);
  CHECK(c.next_job_usd == next.expected_usd);
  CHECK(next.time_hours.part[kPartCompute] == doctest::Approx(1.25 * planned.time_hours.part[kPartCompute]).epsilon(1e-12));
  CHECK(c.plan_usd == planned.expected_usd);
}

TEST_CASE("A run that confirms the plan's figure is measured, not a change (no '0.38817 -> 0.38817' to adopt)") {
  // Plan A's run at exactly the planned rate (527,680 tokens/s = the plan's MFU 0.40) and no interruption field:
  // the MFU is measured and equal, so nothing is listed to adopt; at 80% it is a change (0.40 -> 0.32).
  const Scenario plan = test::MustParse(kPlanA);
  const char* same = R"({"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 8, "wall_hours": 100, "tokens": 189964800000,
    "tokens_per_second": 527680})";
  const ActualDoc d = CompareActual(plan, MustRecord(same));
  REQUIRE(d.ok);
  CHECK(d.calibrated.mfu_measured);
  CHECK(d.calibrated.changes.empty());
  const ActualDoc slower = CompareActual(plan, MustRecord(kRunA));
  REQUIRE(slower.ok);
  REQUIRE_FALSE(slower.calibrated.changes.empty());
  CHECK(std::string(slower.calibrated.changes[0].field) == "cluster.mfu");
  CHECK(slower.calibrated.changes[0].calibrated == doctest::Approx(0.32));
}

TEST_CASE("What the record does not say is the plan's, and a note says so") {
  const Scenario plan = test::MustParse(kPlanA);
  const ActualDoc d = CompareActual(plan, MustRecord(R"({"gpu": "h100-sxm", "gpus": 8})"));
  REQUIRE(d.ok);
  // Nothing measured: the plan's figures throughout, so the run costs what the plan does.
  CHECK(d.actual_cents == d.planned_cents);
  std::vector<std::string> codes;
  for (const ActualNote& n : d.notes) codes.push_back(n.code);
  for (const char* code : {"tokens_assumed", "rate_assumed", "checkpoints_assumed", "interruptions_assumed", "wall_absent"})
    CHECK_MESSAGE(std::find(codes.begin(), codes.end(), code) != codes.end(), code);
  CHECK(d.calibrated.changes.empty());  // nothing measured, nothing calibrated
  CHECK(!d.calibrated.mtbf_updated);
}

TEST_CASE("Checkpoints measured: their blocking time is the calibrated write time; asynchronous writes scale by the stall") {
  // Plan: 64 H100, 7B, checkpoints every 60 minutes, synchronous. The run: 100 checkpoints of 45 s each.
  Scenario plan = test::MustParse(R"({"workload": {"params": 7e9, "tokens": 1e11}, "cluster": {"gpu": "h100-sxm", "gpus": 64,
    "mfu": 0.4}, "reliability": {"checkpoint_interval_minutes": 60}, "pricing": {"usd_per_gpu_hour": 2.0}})");
  const RunRecord run = MustRecord(R"({"gpu": "h100-sxm", "gpus": 64, "checkpoints": {"count": 100, "write_seconds": 45}})");
  ActualDoc d = CompareActual(plan, run);
  REQUIRE(d.ok);
  CHECK(d.run.checkpoint_hours == doctest::Approx(100 * 45 / 3600.0));
  CHECK(d.calibrated.scenario.reliability.checkpoint_write_minutes == doctest::Approx(0.75));
  // Asynchronous with a 10% stall: 45 s blocked is a 450 s write.
  plan.reliability.checkpoint_async = true;
  plan.reliability.async_stall_fraction = 0.1;
  d = CompareActual(plan, run);
  REQUIRE(d.ok);
  CHECK(d.calibrated.scenario.reliability.checkpoint_write_minutes == doctest::Approx(7.5));
}

TEST_CASE("A record that says less than the bill: billed GPU-hours beyond its times are allocation idle") {
  // Plan A's run, billed for 1,200 GPU-hours: its times explain 130 h x 8 = 1,040; 160 more are idle, $320.
  const Scenario plan = test::MustParse(kPlanA);
  nlohmann::json run = nlohmann::json::parse(kRunA);
  run["billed_gpu_hours"] = 1200;
  const ActualDoc d = CompareActual(plan, MustRecord(run.dump()));
  REQUIRE(d.ok);
  CHECK(d.actual_cents == 240000);  // $2,400 = 1,200 GPU-hours x $2
  CHECK(Delta(d, kVarIdle) == 3200 + 32000);
}

// The audit of issue 49 (2026-12-06): idle GPU-hours recorded inside the measured wall time had been billed twice,
// once in the wall's unexplained hours and again as allocation idle. Plan A's run leaves 2 h x 8 GPUs = 16 GPU-hours
// unexplained: 10 idle GPU-hours are inside them (actual stays $2,080.00); 26 are 10 beyond them (+$20.00).
TEST_CASE("Idle GPU-hours inside the wall time are billed once") {
  const Scenario plan = test::MustParse(kPlanA);
  nlohmann::json run = nlohmann::json::parse(kRunA);
  run["idle_gpu_hours"] = 10;
  const ActualDoc inside = CompareActual(plan, MustRecord(run.dump()));
  REQUIRE(inside.ok);
  CHECK(inside.actual_cents == 208000);
  CHECK(Delta(inside, kVarIdle) == 3200);
  run["idle_gpu_hours"] = 26;
  const ActualDoc beyond = CompareActual(plan, MustRecord(run.dump()));
  REQUIRE(beyond.ok);
  CHECK(beyond.actual_cents == 210000);
  CHECK(Delta(beyond, kVarIdle) == 3200 + 2000);
  CHECK(SumOfDeltas(beyond) == beyond.actual_cents - beyond.planned_cents);
}

TEST_CASE("Plans gpucost cannot set a run against are refused with a reason") {
  // A serving plan against a record with no serving field (the serving cases below have the rest).
  Scenario serving = test::MustParse(R"({"workload": {"kind": "inference", "model": "llama-3.1-8b"}})");
  ActualDoc d = CompareActual(serving, MustRecord(R"({"gpu": "h100-sxm", "gpus": 8})"));
  CHECK(!d.ok);
  CHECK(d.error.key == "actual.e.no_serving_fields");
  // A record whose wall time disagrees with its own start and end.
  RunParse bad = ParseRunRecordJson(R"({"gpu": "h100-sxm", "gpus": 8, "wall_hours": 10,
    "started_utc": "2025-03-01T00:00:00Z", "ended_utc": "2025-03-01T12:00:00+09:00"})");
  REQUIRE(!bad.ok());
  CHECK(bad.errors.front().path == "wall_hours");  // 12:00+09:00 is 03:00Z: 3 h, not 10
}

TEST_CASE("CentsAddingUp: the rounded parts add up to the rounded total (largest remainder)") {
  CHECK(CentsAddingUp({0.333, 0.333, 0.334}) == std::vector<std::int64_t>{33, 33, 34});
  // 12.5 + 12.5 + 25 cents (exact in binary) = 50: the floors give 49, the tie for the last cent goes to the first.
  CHECK(CentsAddingUp({0.125, 0.125, 0.25}) == std::vector<std::int64_t>{13, 12, 25});
  std::mt19937_64 rng(49);
  std::uniform_real_distribution<double> u(0, 1e6);
  for (int i = 0; i < 1000; ++i) {
    std::vector<double> v(7);
    for (double& x : v) x = u(rng) * (i % 3 == 0 ? 1e-3 : 1);
    const std::vector<std::int64_t> c = CentsAddingUp(v);
    CHECK(std::accumulate(c.begin(), c.end(), std::int64_t{0}) == std::llround(std::accumulate(v.begin(), v.end(), 0.0) * 100));
    for (std::size_t k = 0; k < v.size(); ++k) CHECK(std::fabs(static_cast<double>(c[k]) - v[k] * 100) < 1.0);
  }
}

TEST_CASE("The variance adds up exactly on generated plans and runs, and the JSON carries it digit for digit") {
  // A law (issue 45's way): for every plan and record, the deltas add up to actual - planned in whole cents, and the
  // planned total is the plan's expected cost rounded to the cent. Seeded; a failure names its case.
  std::mt19937_64 rng(4949);
  auto pick = [&](std::initializer_list<double> xs) {
    std::uniform_int_distribution<std::size_t> k(0, xs.size() - 1);
    return *(xs.begin() + k(rng));
  };
  std::uniform_real_distribution<double> u(0, 1);
  int compared = 0;
  for (int i = 0; i < 300; ++i) {
    nlohmann::json p = {{"workload", {{"params", pick({1e9, 7e9, 70e9})}, {"tokens", pick({1e10, 2e11, 1e12})}}},
                        {"cluster", {{"gpu", "h100-sxm"}, {"gpus", pick({8, 64, 512})}, {"mfu", pick({0.3, 0.45})}}},
                        {"parallel", {{"tensor_parallel", 8}}},
                        {"reliability", {{"gpu_mtbf_hours", pick({0, 2e4, 5e4})}}},
                        {"pricing", {{"model", i % 3 == 0 ? "spot" : i % 3 == 1 ? "reserved" : "on_demand"},
                                     {"usd_per_gpu_hour", pick({1.9, 2.5, 3.1})}, {"tax_rate", pick({0, 0.1})},
                                     {"billing_increment_seconds", pick({1, 60, 3600})}}}};
    const Scenario plan = test::MustParse(p.dump());
    const Result r = Evaluate(plan);
    if (!r.ok || FindBlockingState(plan, r).blocked) continue;
    nlohmann::json run = {{"gpu", "h100-sxm"}, {"gpus", plan.cluster.gpus}};
    if (u(rng) < 0.8) run["tokens_per_second"] = r.tokens / (r.time_hours.part[kPartCompute] * 3600) * (0.6 + 0.6 * u(rng));
    if (u(rng) < 0.7) run["wall_hours"] = r.expected_hours * (0.9 + 0.6 * u(rng));
    if (u(rng) < 0.6) run["interruptions"] = nlohmann::json::array({{{"lost_hours", 2 * u(rng)}, {"cause", "hardware"}}});
    if (u(rng) < 0.4) run["checkpoints"] = {{"count", 10 + static_cast<int>(100 * u(rng))}, {"write_seconds", 5 + 60 * u(rng)}};
    if (u(rng) < 0.3) run["idle_gpu_hours"] = 100 * u(rng);
    if (u(rng) < 0.3) run["invoice"] = {{"amount", r.expected_usd * (0.8 + 0.5 * u(rng))}, {"includes_tax", u(rng) < 0.5}};
    const ActualDoc d = CompareActual(plan, MustRecord(run.dump()));
    INFO("case " << i << ": plan " << p.dump() << " run " << run.dump());
    REQUIRE(d.ok);
    CHECK(SumOfDeltas(d) == d.actual_cents - d.planned_cents);
    CHECK(std::llabs(d.planned_cents - std::llround(r.expected_usd * 100)) <= 1);
    // The JSON: every delta_usd read back as decimal cents adds up to actual_usd - planned_usd.
    const nlohmann::json doc = nlohmann::json::parse(ActualToJson(plan, d));
    std::int64_t sum = 0;
    for (const auto& v : doc["variance"]) {
      sum += std::llround(v["delta_usd"].get<double>() * 100);
      CHECK(std::llround(v["delta_usd"].get<double>() * 100) ==
            std::llround(v["actual_usd"].get<double>() * 100) - std::llround(v["planned_usd"].get<double>() * 100));
    }
    CHECK(sum == std::llround(doc["actual_usd"].get<double>() * 100) - std::llround(doc["planned_usd"].get<double>() * 100));
    ++compared;
  }
  CHECK(compared >= 200);
}

TEST_CASE("A worse run never costs less: a slower rate, more lost time, a longer wall time") {
  const Scenario plan = test::MustParse(kPlanA);
  const nlohmann::json base = nlohmann::json::parse(kRunA);
  const ActualDoc d0 = CompareActual(plan, MustRecord(base.dump()));
  for (const char* what : {"rate", "lost", "wall"}) {
    nlohmann::json worse = base;
    if (std::string(what) == "rate") worse["tokens_per_second"] = 400000;
    if (std::string(what) == "lost") worse["interruptions"][0]["lost_hours"] = 4;
    if (std::string(what) == "wall") worse["wall_hours"] = 140;
    const ActualDoc d1 = CompareActual(plan, MustRecord(worse.dump()));
    REQUIRE(d1.ok);
    CHECK_MESSAGE(d1.actual_cents > d0.actual_cents, what);
  }
}

// [SECTION] A service against its plan (actual_serving.cpp) ------------------------------------------------------

namespace {

// Plan S, worked by hand: Llama 3.1 8B on 8 H100 replicas of 1 GPU each (fixed, a whole node: no rounding) for 100 h
// at $2.00 per GPU-hour, 10 requests/s, no tax, storage free: the engine bills 8 x 100 = 800 GPU-hours, $1,600.00,
// and the period serves 10 x 3,600 x 100 = 3,600,000 requests (4,500 per replica-hour). MTBF 50,000 h per GPU: the
// failures' recovery is inside the hours held, so the total stays $1,600.00.
const char* kPlanS = R"({"name": "hand-worked S", "workload": {"kind": "inference", "model": "llama-3.1-8b"},
  "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 1}, "pricing": {"usd_per_gpu_hour": 2.0},
  "reliability": {"gpu_mtbf_hours": 50000}, "storage": {"usd_per_gb_month": 0},
  "inference": {"requests_per_second": 10, "hours": 100, "decode": {"replicas": 8}}})";

// The run: 100 h, 880 replica-hours (an extra replica for 80 h), 3,960,000 requests (+10%, the plan's output tokens
// each), i.e. the same 4,500 requests per replica-hour. Priced at the plan's prices: 880 x 1 GPU x $2 = $1,760.00,
// +$160.00. Volume: the requests' work at full batch is 10% more than the plan's, so volume moves by 10% of the
// plan's work money (W: the plan's prefill and decode GPU-hours x $2); capacity takes the rest, $160 - 0.1 W.
// Two hardware failures over the 880 GPU-hours held: the MTBF against the plan's 50,000 h as a prior worth 2 failures
// (100,000 GPU-hours): (100,000 + 880) / (2 + 2) = 25,220 h.
const char* kRunS = R"({"gpu": "h100-sxm", "gpus": 8, "wall_hours": 100, "requests": 3960000, "replica_hours": 880,
  "interruptions": [{"cause": "hardware"}, {"cause": "hardware"}]})";

Scenario Preset(const char* id) {
  Scenario s;
  std::string error;
  if (!LoadPreset(id, &s, &error)) throw std::runtime_error(std::string(id) + ": " + error);
  return s;
}

ServingHeld PlanHeld(const Scenario& plan) {
  Result r;
  ServingHeld held;
  REQUIRE(EvaluateServingUsage(plan, {}, &r, &held));
  return held;
}

}  // namespace

TEST_CASE("A service against its plan, worked by hand: 10% more requests on 10% more replica-hours") {
  const Scenario plan = test::MustParse(kPlanS);
  const ActualDoc d = CompareActual(plan, MustRecord(kRunS));
  REQUIRE(d.ok);
  CHECK(d.run.serving);
  CHECK(d.planned_cents == 160000);
  CHECK(d.actual_cents == 176000);
  const ServingHeld h = PlanHeld(plan);
  CHECK(h.planned_replica_hours == doctest::Approx(800));
  CHECK(h.planned_requests == doctest::Approx(3600000));
  const double work_usd = h.planned_work_gpu_hours * 2.0;  // W
  CHECK(std::llabs(Delta(d, kVarVolume) - std::llround(0.1 * work_usd * 100)) <= 1);
  CHECK(Delta(d, kVarVolume) + Delta(d, kVarCapacity) == 16000);
  CHECK(Delta(d, kVarBilling) == 0);
  CHECK(SumOfDeltas(d) == d.actual_cents - d.planned_cents);
  CHECK(d.run.replica_hours == doctest::Approx(880));
  CHECK(d.run.work_gpu_hours == doctest::Approx(1.1 * h.planned_work_gpu_hours).epsilon(1e-12));
  for (const VarianceRow& v : d.variance) CHECK((v.part == kVarVolume || v.part == kVarCapacity || v.part == kVarBilling));
  // The MTBF from the two failures, worked above; its exposure is the GPU-hours held.
  REQUIRE(d.calibrated.mtbf_updated);
  CHECK(d.calibrated.scenario.reliability.gpu_mtbf_hours == doctest::Approx(25220).epsilon(1e-12));
  // An invoice of $1,800: billing and tax takes its +$40.00 over the priced $1,760.
  nlohmann::json inv = nlohmann::json::parse(kRunS);
  inv["invoice"] = {{"amount", 1800}};
  const ActualDoc di = CompareActual(plan, MustRecord(inv.dump()));
  REQUIRE(di.ok);
  CHECK(di.actual_cents == 180000);
  CHECK(Delta(di, kVarBilling) == 4000);
  CHECK(SumOfDeltas(di) == 20000);
  // More replica-hours for the same requests never cost less.
  nlohmann::json more = nlohmann::json::parse(kRunS);
  more["replica_hours"] = 900;
  const ActualDoc dm = CompareActual(plan, MustRecord(more.dump()));
  REQUIRE(dm.ok);
  CHECK(dm.actual_cents == 180000);  // 900 x $2
  CHECK(Delta(dm, kVarVolume) == Delta(d, kVarVolume));
}

TEST_CASE("A service's decode calibrated: the efficiency that gives the measured time between tokens") {
  // The run measured a median time between tokens 1.25 x the plan's, at the plan's load per replica. Every part of
  // the step scaled, the efficiency would be 0.8 / 1.25 = 0.64 (the first-order figure the document states); the
  // step's fixed parts (the engine's 1 ms step overhead, the kernel boundaries: inference_model.h) do not scale, so
  // the reads must slow by more than 25% and the efficiency is below 0.64. Solved on the model: the calibrated
  // scenario, on the plan's replicas, gives the measured figure back.
  const Scenario plan = test::MustParse(kPlanS);
  const double planned_tpot = Evaluate(plan).inference.tpot_ms.p50;
  nlohmann::json run = nlohmann::json::parse(kRunS);
  run["tpot_ms"] = {{"p50", 1.25 * planned_tpot}};
  const double planned_ttft = Evaluate(plan).inference.ttft_ms.p50;
  run["ttft_ms"] = {{"p50", planned_ttft}};  // the prefill as planned: the two are solved together (next test case)
  const ActualDoc d = CompareActual(plan, MustRecord(run.dump()));
  REQUIRE(d.ok);
  REQUIRE(d.calibrated.decode_measured);
  REQUIRE(d.calibrated.ok);
  const double eff = d.calibrated.scenario.inference.decode_bandwidth_efficiency;
  CHECK(eff < 0.64);
  CHECK(eff > 0.45);
  CHECK(Evaluate(d.calibrated.scenario).inference.tpot_ms.p50 == doctest::Approx(1.25 * planned_tpot).epsilon(1e-6));
  // The next period priced with it: the plan's 8 replicas are fixed, so the bill is the plan's.
  CHECK(d.calibrated.next_job_usd == doctest::Approx(Evaluate(d.calibrated.scenario).expected_usd));
  // The time to first token as planned is solved with it: the prefill's MFU stays near the plan's (the slower decode
  // steps a queued prompt waits for move it a little), and the calibrated scenario gives both figures back.
  REQUIRE(d.calibrated.prefill_measured);
  CHECK(Evaluate(d.calibrated.scenario).inference.ttft_ms.p50 == doctest::Approx(planned_ttft).epsilon(1e-6));
  MESSAGE("prefill MFU 0.55 -> " << d.calibrated.scenario.inference.prefill_mfu << ", decode efficiency 0.8 -> " << eff);
  // A slower decode on a service sized for its target needs more replicas: the next period costs more.
  const Scenario chat = Preset("llama2-70b-chat-h100");
  const Result rc = Evaluate(chat);
  const nlohmann::json slow = {{"gpu", "h100-sxm"}, {"gpus", rc.inference.gpus}, {"tpot_ms", {{"p50", 2 * rc.inference.tpot_ms.p50}}}};
  const ActualDoc ds = CompareActual(chat, MustRecord(slow.dump()));
  REQUIRE(ds.ok);
  REQUIRE(ds.calibrated.decode_measured);
  CHECK(ds.calibrated.next_job_usd > rc.expected_usd);
  CHECK(ds.actual_cents == ds.planned_cents);  // nothing else measured: the plan's hours, requests and money
}

// Law: the calibration inverts the model. A service whose engine runs at a decode efficiency e* and a prefill MFU m* shows
// some median time between tokens and to the first token (the model forward, on the plan's replicas at the plan's
// load); given those two figures as a run's record, actual recovers e* and m* (the model solved backward, two coupled
// bisections), and the calibrated scenario gives both figures back. Generated over presets, GPUs' speeds and loads.
TEST_CASE("A service's speeds calibrated from its run: the record's TTFT and TPOT give back the engine's e* and m*") {
  std::mt19937_64 rng(4681);
  std::uniform_real_distribution<double> u(0, 1);
  const char* presets[] = {"llama2-70b-chat-h100", "coding-assistant-llama31-70b-h100", "llama2-70b-split-h100-a100"};
  int recovered = 0, both = 0;
  for (int i = 0; i < 24; ++i) {
    Scenario plan = Preset(presets[i % 3]);
    const Result r = Evaluate(plan);
    if (!r.ok || FindBlockingState(plan, r).blocked) continue;
    // The true engine: the plan's replicas, its load, another speed.
    Scenario truth = plan;
    truth.inference.decode.replicas = r.inference.decode.replicas;
    if (r.inference.disaggregated) truth.inference.prefill.replicas = r.inference.prefill.replicas;
    truth.inference.decode_bandwidth_efficiency = 0.35 + 0.6 * u(rng);
    truth.inference.prefill_mfu = 0.25 + 0.65 * u(rng);
    const Result rt = Evaluate(truth);
    if (!rt.ok || !(rt.inference.tpot_ms.p50 > 0) || !std::isfinite(rt.inference.ttft_ms.p50)) continue;
    const bool ttft_only = i % 4 == 3;  // a record with the time to first token alone: the prefill alone is solved
    nlohmann::json run = {{"gpu", r.inference.decode.gpu_id}, {"gpus", r.inference.gpus}, {"ttft_ms", {{"p50", rt.inference.ttft_ms.p50}}}};
    if (!ttft_only) run["tpot_ms"] = {{"p50", rt.inference.tpot_ms.p50}};
    const ActualDoc d = CompareActual(plan, MustRecord(run.dump()));
    INFO("case " << i << ": " << presets[i % 3] << " e* " << truth.inference.decode_bandwidth_efficiency << " m* "
                 << truth.inference.prefill_mfu << " run " << run.dump());
    REQUIRE(d.ok);
    REQUIRE(d.calibrated.prefill_measured);
    CHECK(d.calibrated.decode_measured == !ttft_only);
    const InferenceInputs& c = d.calibrated.scenario.inference;
    CHECK(c.prefill_mfu == doctest::Approx(ttft_only ? c.prefill_mfu : truth.inference.prefill_mfu).epsilon(1e-4));
    if (!ttft_only) CHECK(c.decode_bandwidth_efficiency == doctest::Approx(truth.inference.decode_bandwidth_efficiency).epsilon(1e-4));
    // The calibrated scenario on the plan's replicas gives the record's figures back.
    Scenario back = d.calibrated.scenario;
    back.inference.decode.replicas = r.inference.decode.replicas;
    if (r.inference.disaggregated) back.inference.prefill.replicas = r.inference.prefill.replicas;
    const Result rb = Evaluate(back);
    CHECK(rb.inference.ttft_ms.p50 == doctest::Approx(rt.inference.ttft_ms.p50).epsilon(1e-6));
    if (!ttft_only) CHECK(rb.inference.tpot_ms.p50 == doctest::Approx(rt.inference.tpot_ms.p50).epsilon(1e-6));
    both += !ttft_only;
    ++recovered;
  }
  CHECK(recovered >= 16);
  CHECK(both >= 10);
  // Figures no pair of speeds gives together (a 10x slower first token stalls the decode steps past a time between
  // tokens only 2x the plan's): what is calibrated is what the calibrated scenario gives back; the rest is said.
  for (const char* id : presets) {
    const Scenario p = Preset(id);
    const Result rp = Evaluate(p);
    const nlohmann::json odd = {{"gpu", rp.inference.decode.gpu_id}, {"gpus", rp.inference.gpus},
                                {"ttft_ms", {{"p50", 10 * rp.inference.ttft_ms.p50}}}, {"tpot_ms", {{"p50", 2 * rp.inference.tpot_ms.p50}}}};
    const ActualDoc d = CompareActual(p, MustRecord(odd.dump()));
    const std::string name = id;
    CAPTURE(name);
    REQUIRE(d.ok);
    Scenario back = d.calibrated.scenario;
    back.inference.decode.replicas = rp.inference.decode.replicas;
    if (rp.inference.disaggregated) back.inference.prefill.replicas = rp.inference.prefill.replicas;
    const Result rb = Evaluate(back);
    if (d.calibrated.prefill_measured) CHECK(rb.inference.ttft_ms.p50 == doctest::Approx(10 * rp.inference.ttft_ms.p50).epsilon(1e-6));
    if (d.calibrated.decode_measured) CHECK(rb.inference.tpot_ms.p50 == doctest::Approx(2 * rp.inference.tpot_ms.p50).epsilon(1e-6));
    else CHECK(back.inference.decode_bandwidth_efficiency == p.inference.decode_bandwidth_efficiency);
  }
  // Found in the walk-through: Llama 3.1 70B on 2 x TP4 H100 at 10 requests/s, a run whose first token came 1.5x and
  // whose tokens came 1.2x the plan's. A prefill slow enough for that first token stalls the decode past 1.2x, so no
  // pair gives both: the decode (its own measure) is calibrated beside the plan's prefill, the prefill kept, and said.
  // (The decode was refused and the prefill calibrated before.)
  {
    const Scenario svc = test::MustParse(R"({"workload": {"kind": "inference", "model": "llama-3.1-70b"}, "cluster": {"gpu": "h100-sxm"},
        "parallel": {"tensor_parallel": 4}, "inference": {"requests_per_second": 10, "hours": 720}})");
    const Result rs = Evaluate(svc);
    const nlohmann::json walk = {{"gpu", "h100-sxm"}, {"gpus", rs.inference.gpus}, {"wall_hours", 720}, {"requests", 1.1 * rs.inference.requests},
                                 {"ttft_ms", {{"p50", 1.5 * rs.inference.ttft_ms.p50}}}, {"tpot_ms", {{"p50", 1.2 * rs.inference.tpot_ms.p50}}}};
    const ActualDoc d = CompareActual(svc, MustRecord(walk.dump()));
    REQUIRE(d.ok);
    CHECK(d.calibrated.decode_measured);
    CHECK_FALSE(d.calibrated.prefill_measured);
    CHECK(d.calibrated.scenario.inference.prefill_mfu == svc.inference.prefill_mfu);
    bool said = false;
    for (const ActualNote& n : d.notes) said |= std::string(n.message.key) == "actual.n.prefill_inconsistent";
    CHECK(said);
  }
  // A time to first token below what the request path alone takes: no prefill speed gives it; said, kept as planned.
  const Scenario plan = Preset("llama2-70b-chat-h100");
  const Result r = Evaluate(plan);
  const nlohmann::json fast = {{"gpu", "h100-sxm"}, {"gpus", r.inference.gpus}, {"ttft_ms", {{"p50", 0.01}}}};
  const ActualDoc d = CompareActual(plan, MustRecord(fast.dump()));
  REQUIRE(d.ok);
  CHECK_FALSE(d.calibrated.prefill_measured);
  CHECK(d.calibrated.scenario.inference.prefill_mfu == plan.inference.prefill_mfu);
  bool said = false;
  for (const ActualNote& n : d.notes) said |= std::string(n.message.key) == "actual.n.prefill_out_of_range";
  CHECK(said);
}

TEST_CASE("A service's record without serving fields, or on another GPU, is refused; training fields are said unused") {
  const Scenario plan = test::MustParse(kPlanS);
  ActualDoc d = CompareActual(plan, MustRecord(R"({"gpu": "h100-sxm", "gpus": 8, "wall_hours": 10})"));
  CHECK(!d.ok);
  CHECK(d.error.key == "actual.e.no_serving_fields");
  d = CompareActual(plan, MustRecord(R"({"gpu": "a100-sxm-80gb", "gpus": 8, "requests": 100})"));
  CHECK(!d.ok);
  CHECK(d.error.key == "actual.e.serving_gpu");
  d = CompareActual(plan, MustRecord(R"({"gpu": "h100-sxm", "gpus": 8, "requests": 100, "tokens": 5e9})"));
  REQUIRE(d.ok);
  bool unused = false;
  for (const ActualNote& n : d.notes) unused |= std::string(n.code) == "serving_unused";
  CHECK(unused);
  // An independent-tasks plan stays refused.
  Scenario tasks = test::MustParse(R"({"workload": {"kind": "independent"}})");
  CHECK(CompareActual(tasks, MustRecord(R"({"gpu": "h100-sxm", "gpus": 8})")).error.key == "actual.e.training_only");
}

TEST_CASE("A service's variance adds up on generated plans and runs; the plan's own usage is the plan's bill") {
  std::mt19937_64 rng(4950);
  std::uniform_real_distribution<double> u(0, 1);
  int compared = 0;
  const char* presets[] = {"llama2-70b-chat-h100", "llama2-70b-split-h100-a100", "batch-summarize-1m-docs",
                           "coding-assistant-llama31-70b-h100", "llama2-70b-chat-day-h100"};
  for (int i = 0; i < 60; ++i) {
    Scenario plan = Preset(presets[i % 5]);
    plan.pricing.tax_rate = u(rng) < 0.5 ? 0.1 : 0;
    plan.pricing.model = static_cast<int>(u(rng) * 3);  // on-demand, spot, reserved
    const Result r = Evaluate(plan);
    if (!r.ok || FindBlockingState(plan, r).blocked) continue;
    // The plan's own usage, through the same engine, is the plan's bill (a day's profile rents by the hour: not the
    // same sessions). On spot the plan's GPU-hours held count the spares, replacements, recoveries and a batch job's
    // waits, as a record does (inference_billing.h SpotHeldGpuHours).
    if (plan.inference.load_profile.profile == 0) {
      Result own;
      ServingHeld held;
      REQUIRE(EvaluateServingUsage(plan, {}, &own, &held));  // as planned: EvaluateInference's own path
      CHECK(own.expected_usd == r.expected_usd);
      // The run's path (pools held as measured, work scaled) with the plan's own figures gives the plan's bill.
      Result again;
      REQUIRE(EvaluateServingUsage(plan, {held.planned_hours, held.planned_gpu_hours, held.planned_requests, held.planned_output_tokens},
                                   &again, &held));
      INFO("again " << std::setprecision(12) << again.expected_usd << " plan " << r.expected_usd << " rounding " << again.gpu_hours.part[kPartBillingRounding] << " vs " << r.gpu_hours.part[kPartBillingRounding]);
      // (A batch job on spot: the billing increments of its rental sessions are estimated from its preemptions, counted
      // over the wall time with the waits on the run's path and before them in the plan: ~5e-8 of the bill.)
      const bool spot_batch = r.inference.batch_job && Model(plan) == PricingModel::kSpot;
      CHECK(again.expected_usd == doctest::Approx(r.expected_usd).epsilon(spot_batch ? 1e-6 : 1e-9));
    }
    nlohmann::json run = {{"gpu", r.inference.decode.gpu_id}, {"gpus", r.inference.gpus}};
    if (u(rng) < 0.8) run["requests"] = r.inference.requests * (0.5 + u(rng));
    if (u(rng) < 0.5) run["output_tokens"] = r.inference.requests * (50 + 300 * u(rng));
    if (u(rng) < 0.7) run["replica_hours"] = 10 + 5000 * u(rng);
    if (u(rng) < 0.6) run["wall_hours"] = r.inference.hours * (0.5 + u(rng));
    if (u(rng) < 0.2) run["tpot_ms"] = {{"p50", r.inference.tpot_ms.p50 * (0.8 + u(rng))}};
    if (u(rng) < 0.3) run["interruptions"] = nlohmann::json::array({{{"cause", "hardware"}}});
    if (u(rng) < 0.3) run["invoice"] = {{"amount", r.expected_usd * (0.8 + 0.5 * u(rng))}, {"includes_tax", u(rng) < 0.5}};
    if (!run.contains("requests") && !run.contains("output_tokens") && !run.contains("replica_hours") && !run.contains("tpot_ms"))
      run["replica_hours"] = 100;
    const ActualDoc d = CompareActual(plan, MustRecord(run.dump()));
    INFO("case " << i << ": " << presets[i % 5] << " run " << run.dump());
    REQUIRE(d.ok);
    CHECK(SumOfDeltas(d) == d.actual_cents - d.planned_cents);
    CHECK(std::llabs(d.planned_cents - std::llround(r.expected_usd * 100)) <= 1);
    const nlohmann::json doc = nlohmann::json::parse(ActualToJson(plan, d));
    CHECK(doc["workload"] == "serving");
    std::int64_t sum = 0;
    for (const auto& v : doc["variance"]) sum += std::llround(v["delta_usd"].get<double>() * 100);
    CHECK(sum == std::llround(doc["actual_usd"].get<double>() * 100) - std::llround(doc["planned_usd"].get<double>() * 100));
    ++compared;
  }
  CHECK(compared >= 40);
}

// Every hour billed once: a service's record says how many GPU-hours its pools were held; the run is billed for those
// and no more (its billing rounding aside), on every pricing model. On spot the engine's expected spares,
// replacements and recoveries are inside the record's hours, never on top (they were added on top before: 4 GPU-hours
// on 12,000 for the chat preset on spot).
TEST_CASE("A service's run is billed the GPU-hours its record held, spot included, once") {
  std::mt19937_64 rng(2027);
  std::uniform_real_distribution<double> u(0, 1);
  const char* presets[] = {"llama2-70b-chat-h100", "llama2-70b-split-h100-a100", "batch-summarize-1m-docs",
                           "coding-assistant-llama31-70b-h100"};
  int checked = 0, spot = 0;
  for (int i = 0; i < 40; ++i) {
    Scenario plan = Preset(presets[i % 4]);
    // Spot or on demand (a commitment bills its term beyond the run's hours: its own law, money_laws).
    plan.pricing.model = static_cast<int>(i % 8 < 5 ? PricingModel::kSpot : PricingModel::kOnDemand);
    plan.pricing.spot.preemptions_per_node_day = 0.5 + 4 * u(rng);
    const Result r = Evaluate(plan);
    if (!r.ok || FindBlockingState(plan, r).blocked) continue;
    // Records that held more and fewer GPU-hours than the plan's model gives their work (fewer: the engine was faster
    // than modelled, and the work is billed inside the hours held, with a warning).
    const double share = 0.5 + u(rng);
    Result run;
    ServingHeld h;
    REQUIRE(EvaluateServingUsage(plan, {r.inference.hours * share, -1, r.inference.requests * share, -1}, &run, &h));
    const bool fewer = i % 3 == 2;
    const double held = fewer ? h.work_gpu_hours * (0.3 + 0.5 * u(rng)) : h.work_gpu_hours * (1.3 + 2 * u(rng)) + r.inference.hours * 8;
    REQUIRE(EvaluateServingUsage(plan, {r.inference.hours * share, held, r.inference.requests * share, -1}, &run, &h));
    INFO("case " << i << ": " << presets[i % 4] << ", held " << held);
    CHECK(h.gpu_hours == held);
    // Beside the record's hours: whole nodes' idle GPUs beside the replicas (billed, not in a replica-hour) and the
    // billing increments.
    CHECK(run.billed_gpu_hours - run.gpu_hours.part[kPartBillingRounding] - run.gpu_hours.part[kPartIdleGpus] ==
          doctest::Approx(held).epsilon(1e-9));
    CHECK(run.gpu_hours.part[kPartSpotSpareCapacity] == 0);
    bool warned = false;
    for (int w = 0; w < run.warnings.count; ++w) warned = warned || std::string(run.warnings.code[w]) == "run_faster_than_model";
    CHECK(warned == fewer);
    spot += Model(plan) == PricingModel::kSpot && r.inference.spot.spare_gpus > 0;
    ++checked;
  }
  CHECK(checked >= 30);
  CHECK(spot >= 5);  // spot services whose plan holds spares: the case that was billed twice
}
