// test_issue50.cpp — issue 50: a slice of a GPU, a loss target, early failures the burn-in leaves, slow nodes,
// collective timeouts, stopped instances and the cost of the finished model. Each case checks a hand-worked figure
// (worked in the comments, not by the code's functions), another path to the same number, or a law.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "documents/result_json.h"
#include "explore/montecarlo.h"
#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "job/validate.h"
#include "money/offers.h"
#include "scenario/json_io.h"
#include "../test_util.h"
#include "documents/field_edit.h"

using namespace gpucost;
using nlohmann::json;

namespace {

// 8 GPUs training 7B on 1B tokens at a given 40% MFU, nothing failing: a run of hand-workable length.
Scenario Small(const char* gpu = "a100-sxm-80gb") {
  Scenario s = DefaultScenario();
  std::snprintf(s.cluster.gpu, kTextCapacity, "%s", gpu);
  s.cluster.gpus = 8;
  s.cluster.mfu = 0.4;
  s.workload.tokens = 1e9;
  s.reliability.gpu_mtbf_hours = 0;
  s.pricing.usd_per_gpu_hour = 4;
  return s;
}

bool HasErrorAt(const Scenario& s, const char* path) {
  for (const InputError& e : ValidateScenario(s))
    if (e.path == path) return true;
  return false;
}


}  // namespace

// --- A slice of a GPU (cluster.partition) ------------------------------------------------------------------

TEST_CASE("partition: 3g.40gb on an A100 80GB runs at 3/7 of the MIG-mode SMs, holds 40 GiB, pays half the GPU") {
  Scenario s = Small();
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "3g.40gb");
  s.cluster.gpus = 5;  // five slices: no whole-node rounding (slices are rented one by one)
  REQUIRE(ValidateScenario(s).empty());
  const Result r = Evaluate(s);
  test::CheckResultSums(r);
  REQUIRE(r.partition.on);
  // By hand: 6 x 7e9 x 1e9 = 4.2e19 FLOPs; the A100's 312 TFLOP/s bf16 x 3/7 x 98/108 SMs in MIG mode = 121.33
  // TFLOP/s per slice; x 0.4 MFU x 5 slices = 242.67 TFLOP/s: 1.7308e5 s = 48.077 h.
  const double slice_flops = 312e12 * 3.0 / 7.0 * 98.0 / 108.0;
  CHECK(r.ideal_hours == doctest::Approx(4.2e19 / (5 * slice_flops * 0.4) / 3600).epsilon(1e-3));
  CHECK(r.ideal_hours == doctest::Approx(48.08).epsilon(1e-3));
  // 4 of 8 memory slices: half the 80 GiB and of the 2.039 TB/s; the price is the larger share, max(3/7, 4/8).
  CHECK(r.partition.memory_fraction == 0.5);
  CHECK(r.memory.device_bytes == doctest::Approx(40.0 * 1073741824.0));
  CHECK(r.usd_per_gpu_hour == doctest::Approx(2.0));
  CHECK(r.billed_gpus == 5);
  // The document says so.
  const json doc = json::parse(ResultToJson(s, r));
  CHECK(doc["partition"]["profile"] == "3g.40gb");
  CHECK(doc["partition"]["memory_gib"].get<double>() == doctest::Approx(40));
  CHECK(doc["partition"]["usd_per_slice_hour"].get<double>() == doctest::Approx(2.0));
  // A price per slice given instead of the share.
  s.partition.price_fraction = 0.3;
  CHECK(Evaluate(s).usd_per_gpu_hour == doctest::Approx(1.2));
}

TEST_CASE("partition: 1g.10gb on an H100 is a seventh of its SMs and an eighth of its memory") {
  Scenario s = Small("h100-sxm");
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "1g.10gb");
  s.cluster.gpus = 1;
  const Result whole = Evaluate(Small("h100-sxm")), slice = Evaluate(s);
  REQUIRE(slice.partition.on);
  // Same FLOPs on 1 slice of 1/7 of an H100 instead of 8 whole H100s: 8 x 7 = 56 times as long.
  CHECK(slice.ideal_hours == doctest::Approx(whole.ideal_hours * 56).epsilon(1e-9));
  CHECK(slice.memory.device_bytes == doctest::Approx(10.0 * 1073741824.0));
  CHECK(slice.usd_per_gpu_hour == doctest::Approx(4.0 / 7.0));
}

TEST_CASE("partition: a shared GPU's interference is a part of its own, the compute times the factor less one") {
  Scenario s = Small();
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "3g.40gb");
  const Result alone = Evaluate(s);
  s.partition.interference = 1.25;
  const Result shared = Evaluate(s);
  test::CheckResultSums(shared);
  CHECK(shared.time_hours.part[kPartInterference] == doctest::Approx(0.25 * shared.time_hours.part[kPartCompute]));
  CHECK(shared.time_hours.part[kPartCompute] == doctest::Approx(alone.time_hours.part[kPartCompute]));
  CHECK(shared.cost_usd.part[kPartInterference] ==
        doctest::Approx(shared.gpu_hours.part[kPartInterference] * shared.usd_per_gpu_hour));
  CHECK(shared.expected_usd > alone.expected_usd);
}

TEST_CASE("partition: NVIDIA's layout from the memory gives every GPU's listed MIG profiles (the page reads it)") {
  // assets/gpus.json lists each GPU's profiles as NVIDIA's MIG User Guide names them; the page's copy leaves them
  // out and derives them (StandardMigProfiles). The same answer on both: derived == listed, name and slices.
  int gpus_with_mig = 0;
  for (std::size_t i = 0; i < GpuCount(); ++i) {
    const GpuSpec& g = Gpus()[i];
    const std::vector<MigProfile>& listed = MigOf(g).profiles;
    if (listed.empty()) continue;
    ++gpus_with_mig;
    const std::vector<MigProfile> derived = StandardMigProfiles(g.hbm_gb);
    REQUIRE(derived.size() == listed.size());
    for (std::size_t k = 0; k < listed.size(); ++k) {
      CAPTURE(g.id);
      CHECK(derived[k].name == listed[k].name);
      CHECK(derived[k].compute_slices == listed[k].compute_slices);
      CHECK(derived[k].memory_slices == listed[k].memory_slices);
      CHECK(derived[k].instances == listed[k].instances);
    }
  }
  CHECK(gpus_with_mig >= 8);
  // By hand from the guide: H200 141 GB -> 1g.18gb (141/8 = 17.6), 3g.71gb (70.5 up); B200 180 GB -> 1g.23gb.
  CHECK(StandardMigProfiles(141)[0].name == "1g.18gb");
  CHECK(StandardMigProfiles(141)[3].name == "3g.71gb");
  CHECK(StandardMigProfiles(180)[0].name == "1g.23gb");
}

TEST_CASE("partition: refused where it cannot apply, naming the field") {
  Scenario s = Small("l40s");
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "1g.10gb");
  CHECK(HasErrorAt(s, "cluster.partition"));  // the L40S has no MIG
  s = Small("h100-sxm");
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "3g.20gb");  // an A100 40GB name
  CHECK(HasErrorAt(s, "cluster.partition"));
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "3g.40gb");
  CHECK(ValidateScenario(s).empty());
  s.parallel.tensor_parallel = 2;  // MIG slices have no peer access
  s.cluster.gpus = 8;
  CHECK(HasErrorAt(s, "parallel.tensor_parallel"));
  // Every profile of every GPU with MIG is accepted, and none on the GPUs without.
  for (std::size_t i = 0; i < GpuCount(); ++i) {
    const GpuSpec& g = Gpus()[i];
    Scenario t = Small(g.id.c_str());
    for (const MigProfile& p : MigOf(g).profiles) {
      CAPTURE(g.id);
      CAPTURE(p.name);
      std::snprintf(t.partition.profile, kTextCapacity, "%s", p.name.c_str());
      CHECK(ValidateScenario(t).empty());
      CHECK(p.compute_slices * p.instances <= 7);
      CHECK(p.memory_slices * p.instances <= 8);
    }
  }
}

TEST_CASE("partition: a service on H100 3g.40gb slices pays half an H100 per slice and decodes slower") {
  const Scenario base = test::MustParse(R"({"workload": {"kind": "inference", "model": "llama-3.1-8b"},
      "cluster": {"gpu": "h100-sxm"}, "pricing": {"usd_per_gpu_hour": 4},
      "inference": {"requests_per_second": 2, "decode": {"replicas": 1}}})");
  Scenario sliced = base;
  std::snprintf(sliced.partition.profile, kTextCapacity, "%s", "3g.40gb");
  REQUIRE(ValidateScenario(sliced).empty());
  const Result whole = Evaluate(base), slice = Evaluate(sliced);
  REQUIRE(slice.inference.present);
  CHECK(slice.partition.on);
  CHECK(slice.inference.decode.usd_per_gpu_hour == doctest::Approx(2.0));
  // Decode is bound by memory bandwidth: half of it, so the step takes about twice as long.
  CHECK(slice.inference.tpot_ms.p50 > 1.5 * whole.inference.tpot_ms.p50);
  CHECK(json::parse(ResultToJson(sliced, slice))["partition"]["profile"] == "3g.40gb");
}

// --- A loss instead of tokens (workload.target_loss) --------------------------------------------------------

TEST_CASE("target loss: 7B to loss 2.2 under the replicated Chinchilla fit needs 94.85B tokens (worked by hand)") {
  // Besiroglu et al. 2024: floor = 1.8172 + 482.01 / 7e9^0.3478 = 1.99872; D = (2085.43 / (2.2 - 1.99872))^(1/0.3658)
  // = 9.4850e10. E one standard error (0.03) lower: 6.4877e10; higher: 1.4746e11. Hoffmann et al. 2022: floor
  // 1.69 + 406.4 / 7e9^0.34 = 1.87265, D = (410.7 / 0.32735)^(1/0.28) = 1.1644e11.
  Scenario s = DefaultScenario();
  s.workload.params = 7e9;
  s.program.target_loss = 2.2;
  REQUIRE(ValidateScenario(s).empty());
  const Result r = Evaluate(s);
  REQUIRE(r.loss_target.present);
  CHECK(r.loss_target.floor == doctest::Approx(1.998723).epsilon(1e-6));
  CHECK(r.tokens == doctest::Approx(9.48503e10).epsilon(1e-5));
  CHECK(r.loss_target.tokens_low == doctest::Approx(6.48769e10).epsilon(1e-5));
  CHECK(r.loss_target.tokens_high == doctest::Approx(1.474552e11).epsilon(1e-5));
  CHECK(r.loss_target.other_fit_tokens == doctest::Approx(1.164440e11).epsilon(1e-5));
  CHECK(r.flops == doctest::Approx(6 * 7e9 * 9.48503e10).epsilon(1e-5));
  // The same run as giving those tokens.
  Scenario given = DefaultScenario();
  given.workload.params = 7e9;
  given.workload.tokens = r.tokens;
  CHECK(Evaluate(given).expected_usd == doctest::Approx(r.expected_usd).epsilon(1e-12));
  // And back: those tokens reach loss 2.2, where the page starts a target it is asked to set (field_edit.h).
  CHECK(LossReachedBy(given) == doctest::Approx(2.2).epsilon(1e-9));
  CHECK(ImpliedFieldValue("workload.target_loss", given) == doctest::Approx(2.2).epsilon(1e-9));
  CHECK(ImpliedFieldValue("workload.tokens", given) == 0);
  // Under Hoffmann et al.'s fit.
  s.program.loss_fit = static_cast<int>(LossFit::kHoffmann2022);
  CHECK(Evaluate(s).tokens == doctest::Approx(1.164440e11).epsilon(1e-5));
  // A lower loss costs more; the document carries the target and its range.
  Scenario lower = s;
  lower.program.target_loss = 2.1;
  CHECK(Evaluate(lower).expected_usd > Evaluate(s).expected_usd);
  const json doc = json::parse(ResultToJson(s, Evaluate(s)));
  CHECK(doc["work"]["target_loss"]["fit"] == "hoffmann2022");
  CHECK(doc["work"]["target_loss"]["other_fit"] == "besiroglu2024");
}

TEST_CASE("target loss: refused below the model's floor, with FLOPs given, or outside training; tokens said unused") {
  Scenario s = DefaultScenario();
  s.workload.params = 7e9;
  s.program.target_loss = 1.99;  // below 1.99872
  CHECK(HasErrorAt(s, "workload.target_loss"));
  // The model's size as a count is written ("7B parameters"; the page polish walk-through saw "1e+09 parameters").
  s.workload.params = 1e9;
  for (const InputError& e : ValidateScenario(s))
    if (e.path == "workload.target_loss") {
      CHECK(e.Text(Lang::kEn).find("a model of 1B parameters reaches") != std::string::npos);
      CHECK(e.Text(Lang::kKo).find("1B") != std::string::npos);
    }
  s.workload.params = 7e9;
  // Tokens typed as well: the target sets them, and the result says workload.tokens is not used (the page's
  // tokens field always holds a number; the walk-through could not type a target after changing it).
  s.program.target_loss = 2.2;
  s.workload.tokens = 1e12;
  CHECK_FALSE(HasErrorAt(s, "workload.target_loss"));
  const Result typed = Evaluate(s);
  REQUIRE(typed.ok);
  CHECK(typed.tokens == doctest::Approx(9.48503e10).epsilon(1e-5));
  bool said = false;
  for (int i = 0; i < typed.warnings.count; ++i)
    said = said || std::string(typed.warnings.code[i]) == "tokens_set_by_target";
  CHECK(said);
  s = DefaultScenario();
  s.program.target_loss = 2.2;
  s.workload.flops = 1e23;
  CHECK(HasErrorAt(s, "workload.target_loss"));
  s = DefaultScenario();
  s.program.target_loss = 2.2;
  s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  CHECK(HasErrorAt(s, "workload.target_loss"));
}

// --- Slow nodes, early failures, collective timeouts ---------------------------------------------------------

TEST_CASE("stragglers: 16 nodes, 1% slow at 1.5x: the step is slow with chance 1 - 0.99^16 = 14.85%") {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;
  s.cluster.gpus = 128;  // 16 nodes of 8
  s.cluster.mfu = 0.4;
  s.reliability.slow_node_fraction = 0.01;
  s.reliability.slow_node_slowdown = 1.5;
  const Result r = Evaluate(s);
  test::CheckResultSums(r);
  CHECK(r.time_hours.part[kPartStragglers] == doctest::Approx(r.time_hours.part[kPartCompute] * 0.1485422 * 0.5).epsilon(1e-6));
  // More slow nodes, or slower ones, never cheaper; none: no part.
  Scenario more = s;
  more.reliability.slow_node_fraction = 0.05;
  CHECK(Evaluate(more).expected_usd > r.expected_usd);
  s.reliability.slow_node_fraction = 0;
  CHECK(Evaluate(s).time_hours.part[kPartStragglers] == 0);
}

TEST_CASE("collective timeouts: the same rework and recovery as hardware failures of that rate with the wait added") {
  // 2 timeouts a day, each waiting 10 minutes before a 20-minute restart, against hardware failures at the same
  // rate (1,024 GPUs x 12 h MTBF each = 2 a day) recovering in 30 minutes: another path to the same figures.
  Scenario t = DefaultScenario();
  t.cluster.gpus = 1024;
  t.reliability.gpu_mtbf_hours = 0;
  t.reliability.collective_timeouts_per_day = 2;
  t.reliability.collective_timeout_minutes = 10;
  t.reliability.recovery_minutes = 20;
  Scenario h = t;
  h.reliability.collective_timeouts_per_day = 0;
  h.reliability.gpu_mtbf_hours = 1024 * 12;
  h.reliability.recovery_minutes = 30;
  const Result a = Evaluate(t), b = Evaluate(h);
  test::CheckResultSums(a);
  CHECK(a.expected_timeouts == doctest::Approx(a.expected_failures));
  CHECK(a.time_hours.part[kPartCollectiveTimeouts] ==
        doctest::Approx(b.time_hours.part[kPartRework] + b.time_hours.part[kPartRecovery]).epsilon(1e-9));
  CHECK(a.time_hours.part[kPartRework] == doctest::Approx(0).epsilon(1e-12));
  CHECK(a.expected_hours == doctest::Approx(b.expected_hours).epsilon(1e-12));
  // More timeouts never cheaper.
  Scenario more = t;
  more.reliability.collective_timeouts_per_day = 5;
  CHECK(Evaluate(more).expected_usd > a.expected_usd);
}

TEST_CASE("early failures: the burn-in catches 1 - e^(-b/48) of them, and pays back when they are costly") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 1024;
  s.workload.tokens = 1e13;  // about 290 hours: nearly every weak GPU fails within the run
  s.reliability.gpu_mtbf_hours = 0;
  s.reliability.infant_failure_fraction = 0.02;
  s.reliability.infant_mean_hours = 48;
  const Result none = Evaluate(s);
  test::CheckResultSums(none);
  // By hand: 1,024 x 0.02 = 20.48 weak GPUs; a run of T hours at load meets 20.48 (1 - e^(-T/48)) of them, powered
  // through its rework and recoveries too: between that at the normal run's hours and at the expected hours.
  const auto met = [](double weak, double hours) { return weak * (1 - std::exp(-hours / 48)); };
  CHECK(met(20.48, none.normal_run_hours) == doctest::Approx(20.48).epsilon(0.01));
  CHECK(none.expected_infant_failures >= met(20.48, none.normal_run_hours) * 0.999);
  CHECK(none.expected_infant_failures <= met(20.48, none.expected_hours) * 1.001);
  CHECK(none.time_hours.part[kPartInfantFailures] > 0);
  // 24 h of burn-in leaves e^(-24/48) = 60.65% of them.
  s.ops.bring_up_hours = 24;
  const Result burnt = Evaluate(s);
  test::CheckResultSums(burnt);
  CHECK(burnt.expected_infant_failures == doctest::Approx(none.expected_infant_failures * std::exp(-0.5)).epsilon(0.01));
  CHECK(burnt.time_hours.part[kPartInfantFailures] < none.time_hours.part[kPartInfantFailures]);
  // With 20-minute recoveries 24 h of burn-in on every GPU costs more than the 8 early failures it catches
  // (about 8 x (20 min + half a checkpoint interval) of the cluster): it does not pay back.
  CHECK(burnt.expected_usd > none.expected_usd);
  // With 6-hour recoveries (a node swapped by hand), 8 h of burn-in catches 20.48 (1 - e^(-1/6)) = 3.13 of them,
  // over 19 cluster-hours of recovery saved for 8 spent: it pays back.
  s.reliability.recovery_minutes = 360;
  s.ops.bring_up_hours = 0;
  const Result costly = Evaluate(s);
  s.ops.bring_up_hours = 8;
  const Result tested = Evaluate(s);
  CHECK(tested.expected_usd < costly.expected_usd);
  CHECK(costly.expected_infant_failures - tested.expected_infant_failures == doctest::Approx(3.13).epsilon(0.05));
  // A larger early-failure share is never cheaper.
  Scenario worse = s;
  worse.reliability.infant_failure_fraction = 0.05;
  CHECK(Evaluate(worse).expected_usd > tested.expected_usd);
}

TEST_CASE("Monte Carlo: early failures and collective timeouts sampled as classes agree with the closed form") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 2048;
  s.workload.params = 70e9;
  s.workload.tokens = 5e11;
  s.storage.checkpoint_write_gbps = 100;
  s.reliability.collective_timeouts_per_day = 3;
  s.reliability.infant_failure_fraction = 0.01;
  s.reliability.slow_node_fraction = 0.002;
  const Result cf = Evaluate(s);
  test::CheckResultSums(cf);
  MonteCarlo mc(s, 7, 4000);
  REQUIRE(mc.ok());
  mc.Run(4000);
  const McSummary m = mc.Summary();
  CHECK(m.time_hours.mean == doctest::Approx(cf.expected_hours).epsilon(0.01));
  CHECK(m.mean_time_hours.part[kPartCollectiveTimeouts] ==
        doctest::Approx(cf.time_hours.part[kPartCollectiveTimeouts]).epsilon(0.05));
  CHECK(m.mean_time_hours.part[kPartInfantFailures] ==
        doctest::Approx(cf.time_hours.part[kPartInfantFailures]).epsilon(0.08));
  CHECK(m.mean_time_hours.part[kPartStragglers] == doctest::Approx(cf.time_hours.part[kPartStragglers]).epsilon(1e-9));
  double sum = 0;
  for (double v : m.mean_time_hours.part) sum += v;
  CHECK(sum == doctest::Approx(m.time_hours.mean).epsilon(1e-9));
}

TEST_CASE("early failures: more weak GPUs never fewer early failures; the count lies between the exposure's and all") {
  // money_laws found the rate solver's bracket so wide that 100 steps ended near 0: at 1% weak GPUs the job met
  // 1e-14 early failures and cost less than at 0.45%. Bounds by hand: the failures met are at least those of the
  // failure-free exposure E0 (the exposure only grows with failures), 4096 f (1 - e^(-E0 / 48 h)), and at most 4096 f.
  Scenario s = DefaultScenario();
  s.cluster.gpus = 4096;
  s.workload.tokens = 1.4e9;
  const double e0 = Evaluate(s).expected_hours;
  double last_failures = 0, last_usd = 0;
  for (double f : {0.0045, 0.01, 0.02, 0.05}) {
    s.reliability.infant_failure_fraction = f;
    const Result r = Evaluate(s);
    CAPTURE(f);
    CHECK(r.expected_infant_failures >= 4096 * f * -std::expm1(-e0 / s.reliability.infant_mean_hours) * (1 - 1e-9));
    CHECK(r.expected_infant_failures <= 4096 * f);
    CHECK(r.expected_infant_failures > last_failures);
    CHECK(r.expected_usd > last_usd);
    last_failures = r.expected_infant_failures, last_usd = r.expected_usd;
  }
}

TEST_CASE("early failures of tasks come from the GPUs that run them, not every GPU of the cluster") {
  // 38 one-GPU tasks of 24 h on 256 GPUs: 38 GPUs run, each 24 h. By hand, at least 38 x 0.005 x (1 - e^(-24/48))
  // = 0.07477 early failures (more as failures lengthen the exposure, a little); counting all 256 GPUs gave 0.5
  // and let more tasks spread them thinner (money_laws: 58 tasks cost less than 38).
  Scenario s = DefaultScenario();
  s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  s.cluster.gpus = 256;
  s.workload.tasks = 38;
  s.workload.task_gpu_hours = 24;
  s.workload.gpus_per_task = 1;
  s.reliability.infant_failure_fraction = 0.005;
  s.reliability.infant_mean_hours = 48;
  const Result r = Evaluate(s);
  CHECK(r.expected_infant_failures >= 0.07477 * (1 - 1e-3));
  CHECK(r.expected_infant_failures <= 0.07477 * 1.05);
  Scenario more = s;
  more.workload.tasks = 58;
  CHECK(Evaluate(more).expected_usd > r.expected_usd);
}

TEST_CASE("partition: owned slices on a commitment's terms pay the term after the job at the slice's price") {
  // 64 slices 2g.20gb of H100s owned for 5 years, 64% of their time used by other work: the job pays 36% of the
  // term it leaves, at the slice's price (28.6% of the GPU's). By hand the unused part is
  // 64 x (43,800 h - held) x slice price x 0.36; money_laws found it at the whole GPU's price (3.5 x too much), so
  // that more tasks made the job cheaper.
  Scenario s = DefaultScenario();
  s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  std::snprintf(s.partition.profile, kTextCapacity, "%s", "2g.20gb");
  s.pricing.model = static_cast<int>(PricingModel::kOwned);
  s.pricing.owned.other_use_fraction = 0.64;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const double slice_price = r.usd_per_gpu_hour;
  const double unused = r.cost_usd.part[kPartUnusedCommitment];
  CHECK(unused <= 64 * 43800 * slice_price * 0.36);
  CHECK(unused >= 64 * (43800 - r.expected_hours - 1) * slice_price * 0.36);
  Scenario more = s;
  more.workload.tasks = s.workload.tasks * 2;
  CHECK(Evaluate(more).expected_usd >= r.expected_usd);
}

// --- Stopped instances (pricing.stopped_*) -------------------------------------------------------------------

TEST_CASE("stopped: 8 A100s kept stopped 100 h at 10% of $4 cost $320, no run time; NHN's 90% off for 90 days then full") {
  Scenario s = Small();
  const Result running = Evaluate(s);
  s.pricing.stopped_hours = 100;
  s.pricing.stopped_price_fraction = 0.1;
  REQUIRE(ValidateScenario(s).empty());
  const Result r = Evaluate(s);
  test::CheckResultSums(r);
  // By hand: 8 GPUs x 100 h = 800 GPU-hours held stopped, x $4 x 0.1 = $320; the run's hours unchanged.
  CHECK(r.gpu_hours.part[kPartStopped] == doctest::Approx(800));
  CHECK(r.cost_usd.part[kPartStopped] == doctest::Approx(320));
  CHECK(r.time_hours.part[kPartStopped] == 0);
  CHECK(r.expected_hours == doctest::Approx(running.expected_hours).epsilon(1e-12));
  CHECK(r.expected_usd == doctest::Approx(running.expected_usd + 320).epsilon(1e-12));
  // 10% VAT on it (another $32), the tax part grows by exactly that.
  Scenario taxed = s;
  taxed.pricing.tax_rate = 0.1;
  Scenario taxed_running = Small();
  taxed_running.pricing.tax_rate = 0.1;
  const Result tr = Evaluate(taxed), trr = Evaluate(taxed_running);
  CHECK(tr.cost_usd.part[kPartTax] - trr.cost_usd.part[kPartTax] == doctest::Approx(32));
  // NHN Cloud: 0.1 for the first 2,160 h (90 days), then the full price: 3,000 h cost 8 x 4 x (216 + 840) = $33,792.
  s.pricing.stopped_hours = 3000;
  s.pricing.stopped_discount_hours = 2160;
  CHECK(Evaluate(s).cost_usd.part[kPartStopped] == doctest::Approx(33792));
  // A higher fraction is never cheaper; under a commitment or owned hardware stopped hours add nothing, and say so.
  Scenario dearer = s;
  dearer.pricing.stopped_price_fraction = 0.5;
  CHECK(Evaluate(dearer).expected_usd > Evaluate(s).expected_usd);
  Scenario reserved = s;
  reserved.pricing.model = static_cast<int>(PricingModel::kReserved);
  const Result rr = Evaluate(reserved);
  CHECK(rr.cost_usd.part[kPartStopped] == 0);
  bool said = false;
  for (int i = 0; i < rr.warnings.count; ++i) said = said || std::string(rr.warnings.code[i]) == "stopped_not_billed";
  CHECK(said);
}

TEST_CASE("stopped: the Monte Carlo bills the same stopped part in every trial") {
  Scenario s = Small();
  s.reliability.gpu_mtbf_hours = 2000;
  s.pricing.stopped_hours = 50;
  s.pricing.stopped_price_fraction = 0.25;
  const Result cf = Evaluate(s);
  MonteCarlo mc(s, 3, 500);
  REQUIRE(mc.ok());
  mc.Run(500);
  CHECK(mc.Summary().mean_cost_usd.part[kPartStopped] == doctest::Approx(cf.cost_usd.part[kPartStopped]).epsilon(1e-12));
  CHECK(cf.cost_usd.part[kPartStopped] == doctest::Approx(8 * 4 * 0.25 * 50));
}

TEST_CASE("stopped: an offer bills stopped time as its provider says (AWS nothing, Kakao all, NHN 0.1 for 90 days)") {
  // The provider's own rule, read from offers.json's structured figures beside each stopped_billing fact.
  const auto stopped_cost = [](const char* offer_id, double hours) {
    Scenario s = Small();
    ApplyOffer(*FindOffer(offer_id), &s);
    s.pricing.usd_per_gpu_hour = 4;  // the quote typed (Kakao's and NHN's offers are priced by quote)
    s.pricing.tax_rate = 0;
    s.pricing.stopped_hours = hours;
    REQUIRE(ValidateScenario(s).empty());
    return Evaluate(s).cost_usd.part[kPartStopped];
  };
  // AWS EC2: "we don't charge usage for a stopped instance" (EBS volumes aside): nothing.
  CHECK(stopped_cost("aws-p5.48xlarge-us-east-1", 100) == 0);
  // Kakao Cloud: stopped instances stay allocated and billed: 8 GPUs x 100 h x $4 = $3,200.
  CHECK(stopped_cost("kakao-cloud-gpu-b200", 100) == doctest::Approx(3200));
  // NHN Cloud: 90% off for 2,160 h, then full: 3,000 h cost 8 x 4 x (0.1 x 2,160 + 840) = $33,792 (as typed above).
  CHECK(stopped_cost("nhn-cloud-gpu-b200", 3000) == doctest::Approx(33792));
  // A figure the user types wins, and is named as theirs against the offer's.
  Scenario s = Small();
  ApplyOffer(*FindOffer("nhn-cloud-gpu-b200"), &s);
  s.pricing.stopped_price_fraction = 0.5;
  bool named = false;
  for (const OfferOverride& o : OfferOverrides(s)) named = named || o.path == "pricing.stopped_price_fraction";
  CHECK(named);
}

TEST_CASE("stopped: KT Cloud reclaims idle resources after 6 h, so stopped hours beyond it are warned about") {
  const auto warned = [](double hours) {
    Scenario s = Small("h200-sxm");
    ApplyOffer(*FindOffer("kt-cloud-ai-nexus-h200"), &s);
    s.pricing.usd_per_gpu_hour = 4;
    s.pricing.stopped_hours = hours;
    const Result r = Evaluate(s);
    for (int i = 0; i < r.warnings.count; ++i)
      if (std::string(r.warnings.code[i]) == "stopped_reclaimed") return true;
    return false;
  };
  CHECK(warned(10));
  CHECK_FALSE(warned(5));
  CHECK_FALSE(warned(0));
}

TEST_CASE("stopped: an offer's stopped figures need the fact that sources them, and a range") {
  const auto errors_of = [](const char* extra, const char* facts) {
    std::string doc = std::string(R"({"schema": "gpucost/offers@1", "offers": [{"id": "x", "provider": "P", "product": "p",
      "gpu": "h100-sxm", "gpus_per_instance": 8, "region": "r", "model": "on_demand", "usd_per_gpu_hour": 2,
      "usd_per_instance_hour": 16, "date": "2026-12-01", "source": "s")") + extra + facts + "}]}";
    std::vector<InputError> errors;
    ParseOffersJson(doc, &errors);
    std::string paths;
    for (const InputError& e : errors) paths += e.path + ";";
    return paths;
  };
  const char* fact = R"(, "facts": [{"item": "stopped_billing", "value": "v", "source": "s", "date": "d"}])";
  CHECK(errors_of(R"(, "stopped_price_fraction": 0.1)", fact).empty());
  CHECK(errors_of(R"(, "stopped_price_fraction": 0.1)", "") == "offers[0].stopped_price_fraction;");
  CHECK(errors_of(R"(, "stopped_price_fraction": 1.5)", fact) == "offers[0].stopped_price_fraction;");
  CHECK(errors_of(R"(, "stopped_discount_hours": 10)", fact) == "offers[0].stopped_discount_hours;");
  CHECK(errors_of(R"(, "idle_reclaim_hours": 6)", fact) == "offers[0].idle_reclaim_hours;");
}

// --- The cost of the finished model (workload.program.*) ------------------------------------------------------

TEST_CASE("finished model: the run x (1 + 0.5 experiments + 0.25 abandoned runs / 2) + 10 h of evaluation on 8 GPUs") {
  Scenario s = Small();
  s.reliability.gpu_mtbf_hours = 5000;
  const Result run = Evaluate(s);
  s.program.experiments = 0.5;
  s.program.abandoned_fraction = 0.2;
  s.program.evaluation_hours = 10;
  REQUIRE(ValidateScenario(s).empty());
  const Result r = Evaluate(s);
  test::CheckResultSums(r);
  // The cost per run is unchanged by the programme.
  CHECK(r.expected_usd == doctest::Approx(run.expected_usd).epsilon(1e-12));
  REQUIRE(r.finished_model.present);
  // By hand: p = 0.2: 0.2 / 0.8 = 0.25 runs abandoned before one finishes, each half a run; evaluation 8 x 10 x $4.
  const FinishedModel& f = r.finished_model;
  CHECK(f.abandoned_runs == doctest::Approx(0.25));
  CHECK(f.usd.part[kPartExperiments] == doctest::Approx(0.5 * run.expected_usd));
  CHECK(f.usd.part[kPartAbandonedRuns] == doctest::Approx(0.125 * run.expected_usd));
  CHECK(f.usd.part[kPartEvaluation] == doctest::Approx(320));
  CHECK(f.total_usd == doctest::Approx(1.625 * run.expected_usd + 320).epsilon(1e-12));
  CHECK(f.usd.Total() == doctest::Approx(f.total_usd).epsilon(1e-12));
  for (int p = 0; p < kPartExperiments; ++p)
    if (p != kPartTax) CHECK(f.usd.part[p] == r.cost_usd.part[p]);  // the run's own parts, as they are
  const json doc = json::parse(ResultToJson(s, r));
  CHECK(doc["cost"]["finished_model_usd"].get<double>() == doctest::Approx(f.total_usd));
  CHECK(doc["finished_model"]["breakdown"]["experiments"].get<double>() == doctest::Approx(0.5 * run.expected_usd));
  // Without a programme no finished-model figure; more abandoned runs never cheaper.
  CHECK_FALSE(run.finished_model.present);
  CHECK_FALSE(json::parse(ResultToJson(Small(), run))["cost"].contains("finished_model_usd"));
  Scenario worse = s;
  worse.program.abandoned_fraction = 0.5;
  CHECK(Evaluate(worse).finished_model.total_usd > f.total_usd);
}
