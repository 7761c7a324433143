// A reserved job pays for its whole committed term unless other work uses part of it (issue 14, observation
// 1): eval, pricing and the Compare view's pinned pricing models give one total, and
// cost.breakdown.unused_commitment carries the unused part.
#include <doctest/doctest.h>

#include <cmath>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/pricing_json.h"
#include "money/tco.h"
#include "explore/pricing.h"
#include "base/format.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

// The job: a 10-day run on 64 GPUs, priced under a 12-month commitment.
Scenario TenDayReserved() {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 64;
  s.cluster.mfu = 0.4;
  s.workload.params = 70e9;
  s.workload.tokens = 2.0e10;
  s.parallel.zero_stage = 3;  // 70B's states fit 64 GPUs (a job that does not fit is not priced: issue 45)
  s.pricing.model = static_cast<int>(PricingModel::kReserved);
  s.pricing.usd_per_gpu_hour = 2;
  s.pricing.reserved.term_months = 12;
  s.pricing.tax_rate = 0.1;
  return s;
}

}  // namespace

TEST_CASE("reserved: a job far shorter than its term pays the rest of the term (unused commitment)") {
  const Scenario s = TenDayReserved();
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.expected_hours < 24 * 30);
  const double term_hours = 12 * kHoursPerMonth;
  const double rounding_hours = r.gpu_hours.part[kPartBillingRounding] / 64;
  const double after = 64 * (term_hours - r.expected_hours - rounding_hours) * 2;  // pre-tax
  CHECK(r.cost_usd.part[kPartUnusedCommitment] == doctest::Approx(after).epsilon(1e-9));
  CHECK(r.commitment_after_job_usd == doctest::Approx(after).epsilon(1e-9));
  // The whole term is paid: 64 GPUs x 8,760 h x USD 2 plus storage, all with tax.
  const double storage = r.cost_usd.part[kPartStorage];
  CHECK(r.expected_usd == doctest::Approx((64 * term_hours * 2 + storage) * 1.1).epsilon(1e-9));
  // The sum of parts still holds.
  CHECK(r.cost_usd.Total() == doctest::Approx(r.expected_usd).epsilon(1e-12));
}

TEST_CASE("reserved: other_use_fraction takes its share of the unused term off the job") {
  Scenario s = TenDayReserved();
  const double full = Evaluate(s).cost_usd.part[kPartUnusedCommitment];
  s.pricing.reserved.other_use_fraction = 0.25;
  CHECK(Evaluate(s).cost_usd.part[kPartUnusedCommitment] == doctest::Approx(0.75 * full).epsilon(1e-9));
  s.pricing.reserved.other_use_fraction = 1;
  CHECK(Evaluate(s).cost_usd.part[kPartUnusedCommitment] == 0);
  const FieldSpec* f = FindField("pricing.reserved.other_use_fraction");
  REQUIRE(f != nullptr);
  CHECK(f->min == 0);
  CHECK(f->max == 1);
  CHECK(std::string(FieldSource(*f, Lang::kEn)).size() > 10);
  s.pricing.reserved.other_use_fraction = 1.5;
  CHECK_FALSE(ValidateScenario(s).empty());
}

TEST_CASE("reserved: eval, pricing and the pinned pricing model give the same total; never the cheapest for a short job") {
  const Scenario s = TenDayReserved();
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  const ModelCost& reserved = c.models[static_cast<int>(PricingModel::kReserved)];
  CHECK(reserved.total_usd == doctest::Approx(Evaluate(s).expected_usd).epsilon(1e-12));
  CHECK(reserved.job_usd + reserved.term_tail_usd == doctest::Approx(reserved.total_usd).epsilon(1e-12));
  CHECK(reserved.term_tail_usd > 10 * reserved.job_usd);
  // What Compare's "Pin all 4 pricing models" evaluates.
  const Result pinned = Evaluate(WithPricingModel(s, PricingModel::kReserved));
  CHECK(pinned.expected_usd == doctest::Approx(reserved.total_usd).epsilon(1e-12));
  CHECK(c.cheapest != static_cast<int>(PricingModel::kReserved));
  // The same job re-priced from an on-demand scenario (the Compare path).
  Scenario od = s;
  od.pricing.model = static_cast<int>(PricingModel::kOnDemand);
  const PricingComparison from_od = ComparePricingModels(od);
  const ModelCost& r2 = from_od.models[static_cast<int>(PricingModel::kReserved)];
  CHECK(r2.ratio_to_on_demand > 10);
  CHECK(Evaluate(WithPricingModel(od, PricingModel::kReserved)).expected_usd ==
        doctest::Approx(r2.total_usd).epsilon(1e-12));
}

TEST_CASE("property: a reserved total is at least the job's cost plus the unused term") {
  test::Uniform uniform{14};
  for (int i = 0; i < 300; ++i) {
    Scenario s = DefaultScenario();
    s.pricing.model = static_cast<int>(PricingModel::kReserved);
    s.cluster.gpus = 8 << static_cast<int>(uniform() * 8);
    s.workload.tokens = 1e9 * std::pow(1e4, uniform());
    s.pricing.reserved.term_months = 1 + 35 * uniform();
    s.pricing.reserved.committed_gpus = static_cast<std::int64_t>(s.cluster.gpus * (0.5 + uniform()));
    s.pricing.reserved.other_use_fraction = uniform() < 0.3 ? 0 : uniform();
    s.pricing.tax_rate = uniform() < 0.5 ? 0.1 : 0;
    s.pricing.price_includes_tax = uniform() < 0.5;
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    const double committed = static_cast<double>(s.pricing.reserved.committed_gpus);
    const double price = s.pricing.usd_per_gpu_hour / (s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1);
    const double term_hours = s.pricing.reserved.term_months * kHoursPerMonth;
    const double used = r.billed_gpu_hours * r.usd_per_gpu_hour;  // the job's own GPU-hours
    const double unused_term = committed * std::max(0.0, term_hours - r.expected_hours - r.gpu_hours.part[kPartBillingRounding] / static_cast<double>(r.billed_gpus)) * price *
                               (1 - s.pricing.reserved.other_use_fraction);
    CAPTURE(i);
    CHECK(r.expected_usd >= (used + unused_term) * (1 + s.pricing.tax_rate) * (1 - 1e-9));
  }
}

TEST_CASE("pricing: the reserved row says what the term after the job costs, or why nothing") {
  // A new user read "the 99% of the term after the job (none) is paid" (2026-12-07): a paid term is said so (its
  // amount is the row's own column), and a zero is said with its cause: other work takes it all, no price, no term left.
  Scenario s = DefaultScenario();
  const ModelCost paid = ComparePricingModels(s).models[static_cast<int>(PricingModel::kReserved)];
  REQUIRE(paid.term_tail_usd > 0);
  CHECK(std::string(paid.risk).find("remains: paid (the row's term after the job) and included in the total") != std::string::npos);
  s.pricing.reserved.other_use_fraction = 1;
  const ModelCost reused = ComparePricingModels(s).models[static_cast<int>(PricingModel::kReserved)];
  CHECK(reused.term_tail_usd == 0);
  CHECK(std::string(reused.risk).find("other work uses all of it") != std::string::npos);
  s.pricing.reserved.other_use_fraction = 0;
  s.pricing.usd_per_gpu_hour = 0;
  const ModelCost unpriced = ComparePricingModels(s).models[static_cast<int>(PricingModel::kReserved)];
  CHECK(unpriced.term_tail_usd == 0);
  CHECK(std::string(unpriced.risk).find("the reserved price is 0") != std::string::npos);
}

// fresh2 A12: a 387-day job under a 12-month term paid its 13th month at the committed price and nothing more, with
// no word. The term is renewed for whole terms while the work runs longer (billing.cpp): the last term's rest after
// the work is paid unused, and said.
TEST_CASE("reserved: work longer than its term renews it for whole terms; the last term's rest is paid and said") {
  Scenario s = TenDayReserved();
  s.reliability.gpu_mtbf_hours = 0;  // a fixed run: the hours held are the run's
  const double held = Evaluate(s).billed_gpu_hours / 64;
  for (const double terms : {2.0, 3.0}) {
    CAPTURE(terms);
    const double term_hours = held / (terms - 0.4);  // the work ends 60% into the last term
    s.pricing.reserved.term_months = term_hours / kHoursPerMonth;
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    REQUIRE(r.billed_gpu_hours / 64 == doctest::Approx(held));
    // Hand-worked: 64 GPUs x `terms` whole terms x USD 2 (the price includes no tax; tax is 10% on top).
    double gpu_usd = 0;
    for (int p = 0; p < kPartCount; ++p)
      if (p != kPartStorage && p != kPartEgress && p != kPartFees && p != kPartTax && p != kPartDelay) gpu_usd += r.cost_usd.part[p];
    CHECK(gpu_usd == doctest::Approx(64 * terms * term_hours * 2).epsilon(1e-9));
    // The last term's 40% after the work: its money is the unused commitment (pre-tax), and the term after the job.
    CHECK(r.cost_usd.part[kPartUnusedCommitment] == doctest::Approx(64 * 0.4 * term_hours * 2).epsilon(1e-9));
    CHECK(r.commitment_after_job_usd == doctest::Approx(64 * 0.4 * term_hours * 2).epsilon(1e-9));
    const int w = r.warnings.Find("commitment_renewed");
    REQUIRE(w >= 0);
    const std::string text = r.warnings.Text(w, Lang::kEn);
    CHECK(text.find("(" + FormatParam("%.0f", terms) + " in all)") != std::string::npos);
    CHECK(text.find(FormatUsd(64 * 0.4 * term_hours * 2)) != std::string::npos);
  }
  // Inside one term: nothing renewed, nothing said.
  s.pricing.reserved.term_months = 2 * held / kHoursPerMonth;
  CHECK(Evaluate(s).warnings.Find("commitment_renewed") < 0);
}
