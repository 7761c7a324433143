#include <doctest/doctest.h>

#include <cmath>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "../test_util.h"

using namespace gpucost;

namespace {


Scenario Base() { return DefaultScenario(); }

}  // namespace

TEST_CASE("the default job: 6ND at 40% of H100 dense bf16 peak") {
  Result r = Evaluate(Base());
  test::CheckResultSums(r);
  const double flops = 6 * 7e9 * 140e9;
  CHECK(r.flops == doctest::Approx(flops));
  CHECK(r.ideal_hours == doctest::Approx(flops / (64 * 989.4e12 * 0.40) / 3600));
  CHECK(r.mfu_source == MfuSource::kDefault);
  CHECK(r.goodput < 1);
  CHECK(r.goodput > 0.8);
}

TEST_CASE("no failures: expected equals the normal run, one final checkpoint") {
  Scenario s = Base();
  s.reliability.gpu_mtbf_hours = 0;
  Result r = Evaluate(s);
  test::CheckResultSums(r);
  CHECK(r.expected_interruptions == 0);
  CHECK(r.expected_hours == doctest::Approx(r.normal_run_hours));
  CHECK(r.checkpoints_written == 1);
}

TEST_CASE("cost never falls when failures are more frequent, recovery slower or the price higher") {
  Scenario s = Base();
  double last = 0;
  for (double mtbf : {1e6, 1e5, 3e4, 1e4, 3e3, 1e3}) {
    s.reliability.gpu_mtbf_hours = mtbf;
    Result r = Evaluate(s);
    test::CheckResultSums(r);
    CHECK(r.expected_usd >= last);
    last = r.expected_usd;
  }
  s = Base();
  last = 0;
  for (double minutes : {0.0, 5.0, 30.0, 120.0, 600.0}) {
    s.reliability.recovery_minutes = minutes;
    Result r = Evaluate(s);
    CHECK(r.expected_usd >= last);
    last = r.expected_usd;
  }
  s = Base();
  last = 0;
  for (double price : {0.5, 1.0, 2.0, 8.0}) {
    s.pricing.usd_per_gpu_hour = price;
    Result r = Evaluate(s);
    CHECK(r.expected_usd > last);
    last = r.expected_usd;
  }
}

TEST_CASE("whole-node billing, hot spares and billing increments are named parts") {
  Scenario s = Base();
  s.cluster.gpus = 60;  // 7.5 nodes -> 8 billed
  s.reliability.hot_spares = 2;
  s.pricing.billing_increment_seconds = 3600;
  Result r = Evaluate(s);
  test::CheckResultSums(r);
  CHECK(r.billed_gpus == 64);
  CHECK(r.gpu_hours.part[kPartHotSpares] > 0);
  CHECK(r.gpu_hours.part[kPartIdleGpus] > 0);
  CHECK(r.gpu_hours.part[kPartBillingRounding] > 0);
  CHECK(r.gpu_hours.part[kPartBillingRounding] < 64.0);  // less than one hour on 64 GPUs
}

TEST_CASE("Korean VAT: a tax-inclusive KRW price gives the same total as the equivalent pre-tax USD price") {
  Scenario krw = Base();
  krw.pricing.krw_per_gpu_hour = 4620;  // includes 10% VAT
  krw.pricing.price_includes_tax = true;
  krw.pricing.tax_rate = 0.10;
  krw.pricing.krw_per_usd = 1400;
  krw.pricing.currency = static_cast<int>(Currency::kKrw);
  krw.storage.retention_days = 0;
  Scenario usd = Base();
  usd.pricing.usd_per_gpu_hour = 4620.0 / 1.1 / 1400;
  usd.pricing.tax_rate = 0.10;
  usd.storage.retention_days = 0;
  usd.storage.usd_per_gb_month = krw.storage.usd_per_gb_month / 1.1;
  usd.storage.usd_per_gb_egress = krw.storage.usd_per_gb_egress / 1.1;
  Result a = Evaluate(krw), b = Evaluate(usd);
  test::CheckResultSums(a);
  CHECK(a.expected_usd == doctest::Approx(b.expected_usd).epsilon(1e-9));
  CHECK(a.cost_usd.part[kPartTax] == doctest::Approx(a.expected_usd * 0.1 / 1.1).epsilon(1e-9));
  CHECK(std::string(a.display_currency) == "KRW");
}

TEST_CASE("spot: preemptions interrupt a coupled job; independent tasks lose little") {
  Scenario s = Base();
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  s.pricing.spot.preemptions_per_node_day = 0.5;
  s.pricing.spot.notice_seconds = 0;
  Result coupled = Evaluate(s);
  test::CheckResultSums(coupled);
  CHECK(coupled.expected_preemptions > 0);
  CHECK(coupled.time_hours.part[kPartReacquireWait] > 0);
  CHECK(coupled.cost_usd.part[kPartReacquireWait] == 0);  // waiting is not billed

  Scenario ind = s;
  ind.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  ind.workload.tasks = 640;
  ind.workload.task_gpu_hours = coupled.ideal_gpu_hours / 640;
  ind.reliability.checkpoint_gb = 1;
  Result tasks = Evaluate(ind);
  test::CheckResultSums(tasks);
  CHECK(tasks.ideal_gpu_hours == doctest::Approx(coupled.ideal_gpu_hours));
  // The same work and preemption rate wastes far fewer GPU-hours as independent tasks: a preemption idles
  // one task's GPUs, not the whole cluster, and loses only that task's progress.
  const double waste_coupled = coupled.billed_gpu_hours - coupled.ideal_gpu_hours;
  const double waste_tasks = tasks.billed_gpu_hours - tasks.ideal_gpu_hours;
  CAPTURE(waste_coupled);
  CAPTURE(waste_tasks);
  CHECK(waste_tasks < 0.35 * waste_coupled);
  CHECK(tasks.gpu_hours.part[kPartRecovery] < 0.2 * coupled.gpu_hours.part[kPartRecovery]);
}

TEST_CASE("a job that practically never finishes is reported as such, with finite numbers") {
  Scenario s = Base();
  s.cluster.gpus = 16384;
  s.reliability.gpu_mtbf_hours = 10;
  s.reliability.checkpoint_interval_minutes = 60 * 24 * 30;
  Result r = Evaluate(s);
  CHECK(r.never_finishes);
  CHECK(std::isfinite(r.expected_usd));
  bool warned = false;
  for (int i = 0; i < r.warnings.count; ++i) warned |= std::string(r.warnings.code[i]) == "never_finishes";
  CHECK(warned);
}

TEST_CASE("no NaN or infinity for any field at the ends of its range") {
  const Scenario base = DefaultScenario();
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (f.kind == FieldKind::kText) continue;
    for (double v : {f.min_exclusive ? f.min + (f.max - f.min) * 1e-12 : f.min, f.max}) {
      Scenario s = base;
      if (!ValueInRange(f, v)) continue;
      SetNumber(s, f, v);
      if (!ValidateScenario(s).empty()) continue;
      CAPTURE(f.path);
      CAPTURE(v);
      Result r = Evaluate(s);
      REQUIRE(r.ok);
      CHECK(std::isfinite(r.expected_usd));
      CHECK(std::isfinite(r.expected_hours));
      CHECK(std::isfinite(r.billed_gpu_hours));
      CHECK(r.time_hours.Total() == doctest::Approx(r.expected_hours).epsilon(1e-9));
      CHECK(r.cost_usd.Total() == doctest::Approx(r.expected_usd).epsilon(1e-9));
    }
  }
}

// 2026-12-07's walk-through: Llama 3.1 70B picked, the global batch on auto: "40.0% MFU (default)", no step time and
// no band, and nothing said why. The result says what the step-time model needs.
TEST_CASE("a named model with the global batch on auto says why its MFU is the default") {
  Scenario s = test::MustParse(R"({"workload": {"model": "llama-3.1-70b", "tokens": 1e9}, "cluster": {"gpu": "h100-sxm", "gpus": 64}})");
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.mfu_source == MfuSource::kDefault);
  const int w = r.warnings.Find("mfu_default_batch_auto");
  REQUIRE(w >= 0);
  CHECK(r.warnings.Text(w, Lang::kEn).find("parallel.global_batch") != std::string::npos);
  s.parallel.global_batch = 64;  // the batch given: predicted, nothing to say
  const Result predicted = Evaluate(s);
  CHECK(predicted.mfu_source != MfuSource::kDefault);
  CHECK(predicted.warnings.Find("mfu_default_batch_auto") < 0);
  s.parallel.global_batch = 0;
  s.cluster.mfu = 0.4;  // the MFU given: used as given
  CHECK(Evaluate(s).warnings.Find("mfu_default_batch_auto") < 0);
  // No shape (params only): the step-time model cannot run whatever the batch; no such advice.
  CHECK(Evaluate(test::MustParse(R"({"workload": {"params": 7e10}})")).warnings.Find("mfu_default_batch_auto") < 0);
}
