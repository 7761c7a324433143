#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "documents/result_json.h"
#include "documents/pricing_json.h"
#include "money/tco.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

double PartsPerYear(const TcoResult& t) {
  return t.capex_usd_per_gpu_year + t.power_usd_per_gpu_year + t.facility_usd_per_gpu_year +
         t.maintenance_usd_per_gpu_year + t.staff_usd_per_gpu_year + t.opex_usd_per_gpu_year;
}

nlohmann::json Figures() { return nlohmann::json::parse(test::ReadFile(test::DataPath("tco_public_figures.json"))); }

}  // namespace

TEST_CASE("owned TCO: the annual cost is the sum of its named parts") {
  const OwnedInputs o = DefaultScenario().pricing.owned;
  const TcoResult t = ComputeTco(o, 50000);
  CHECK(t.usd_per_gpu_year == doctest::Approx(PartsPerYear(t)).epsilon(1e-12));
  CHECK(t.upfront_usd_per_gpu == doctest::Approx(o.capex_usd_per_gpu * (1 + o.spares_fraction)));
  CHECK(t.capex_usd_per_gpu_year == doctest::Approx(t.upfront_usd_per_gpu * (1 - o.residual_fraction) / o.lifetime_years));
  CHECK(t.maintenance_usd_per_gpu_year == doctest::Approx(t.upfront_usd_per_gpu * o.maintenance_fraction_per_year));
  CHECK(t.usd_per_gpu_hour == doctest::Approx(t.usd_per_gpu_year / t.useful_hours_per_gpu_year));
}

TEST_CASE("owned TCO golden: DGX H100 power, industry PUE, EIA industrial price, CBRE colocation") {
  const nlohmann::json f = Figures();
  OwnedInputs o = DefaultScenario().pricing.owned;
  const double kw_per_gpu = f["dgx_h100"]["max_system_power_kw"].get<double>() / f["dgx_h100"]["gpus"].get<double>();
  o.power_kw_per_gpu = kw_per_gpu;
  o.pue = f["pue_industry_average"]["value"].get<double>();
  o.usd_per_kwh = f["electricity_industrial_usd_per_kwh"]["value"].get<double>();
  o.colocation_usd_per_kw_month = f["colocation_usd_per_kw_month"]["value"].get<double>();
  const TcoResult t = ComputeTco(o, 0);
  // 1.275 kW x 1.56 x 8,760 h x USD 0.0713 = USD 1,242.3 per GPU-year of energy.
  CHECK(t.power_usd_per_gpu_year == doctest::Approx(1.275 * 1.56 * 8760 * 0.0713));
  CHECK(t.power_usd_per_gpu_year == doctest::Approx(1242.3).epsilon(1e-3));
  // 1.275 kW x USD 184.06 x 12 = USD 2,816.1 per GPU-year of colocation.
  CHECK(t.facility_usd_per_gpu_year == doctest::Approx(2816.1).epsilon(1e-3));

  // Break-even against Lambda's USD 3.99/GPU-hour (8x H100 SXM, 2026-09-20): annual / (8,760 x 3.99).
  o.compare_usd_per_gpu_hour = 3.99;
  const TcoResult lambda = ComputeTco(o, 0);
  CHECK(lambda.break_even_utilization == doctest::Approx(lambda.usd_per_gpu_year / (8760 * 3.99)));
  CHECK(lambda.break_even_utilization > 0.2);
  CHECK(lambda.break_even_utilization < 0.6);
  // Against AWS p5.48xlarge (USD 55.04 per 8-GPU node-hour, 2026-11-09) owning breaks even at lower use.
  o.compare_usd_per_gpu_hour = 55.04 / 8;
  CHECK(ComputeTco(o, 0).break_even_utilization < lambda.break_even_utilization);
}

TEST_CASE("break-even utilisation and months fall as the cloud price rises") {
  OwnedInputs o = DefaultScenario().pricing.owned;
  double last_util = 1e9, last_months = 1e9;
  for (double price : {1.5, 2.0, 3.0, 5.0, 8.0, 12.0}) {
    o.compare_usd_per_gpu_hour = price;
    const TcoResult t = ComputeTco(o, 50000);
    CHECK(t.break_even_utilization < last_util);
    last_util = t.break_even_utilization;
    if (t.break_even_months > 0) {
      CHECK(t.break_even_months < last_months);
      last_months = t.break_even_months;
    }
  }
  CHECK(last_months < 1e9);  // at USD 12/GPU-hour owning pays back
}

TEST_CASE("cost per useful GPU-hour falls as utilisation rises; break-even months falls too") {
  OwnedInputs o = DefaultScenario().pricing.owned;
  o.compare_usd_per_gpu_hour = 6.88;
  double last_hour = 1e9, last_months = 1e9;
  for (double u : {0.2, 0.4, 0.6, 0.8, 1.0}) {
    o.utilization = u;
    const TcoResult t = ComputeTco(o, 50000);
    CHECK(t.usd_per_gpu_hour < last_hour);
    last_hour = t.usd_per_gpu_hour;
    CAPTURE(u);
    if (u == 0.2) {  // busy a fifth of the time, the servers never pay back within their lifetime
      CHECK(t.break_even_months == 0);
      continue;
    }
    CHECK(t.break_even_months > 0);
    CHECK(t.break_even_months < last_months);
    last_months = t.break_even_months;
  }
}

TEST_CASE("a payback later than the hardware's lifetime is no payback (0: never)") {
  OwnedInputs o = DefaultScenario().pricing.owned;
  o.compare_usd_per_gpu_hour = 6.88;
  const TcoResult base = ComputeTco(o, 50000);
  const double running_per_month = (base.usd_per_gpu_year - base.capex_usd_per_gpu_year) / 12;
  const auto price_for = [&](double months) {  // the cloud price at which the upfront pays back in `months`
    return (base.upfront_usd_per_gpu / months + running_per_month) * 12 / base.useful_hours_per_gpu_year;
  };
  const double life_months = o.lifetime_years * 12;
  o.compare_usd_per_gpu_hour = price_for(0.9 * life_months);
  CHECK(ComputeTco(o, 50000).break_even_months == doctest::Approx(0.9 * life_months));
  o.compare_usd_per_gpu_hour = price_for(1.5 * life_months);
  CHECK(ComputeTco(o, 50000).break_even_months == 0);
}

TEST_CASE("repair downtime reduces useful hours only beyond what spares cover") {
  OwnedInputs o = DefaultScenario().pricing.owned;
  o.repair_hours_per_failure = 500;   // 500 / (1,000 + 500) = 1/3 of hours a GPU is out
  o.spares_fraction = 0;
  const TcoResult bare = ComputeTco(o, 1000);
  CHECK(bare.repair_downtime_fraction == doctest::Approx(1.0 / 3));
  CHECK(bare.useful_hours_per_gpu_year == doctest::Approx(8760 * o.utilization * 2 / 3));
  o.spares_fraction = 0.5;  // spares cover it all
  const TcoResult spared = ComputeTco(o, 1000);
  CHECK(spared.repair_downtime_fraction == 0);
  CHECK(ComputeTco(o, 0).repair_downtime_fraction == 0);  // no failures
}

TEST_CASE("owned scenario: Evaluate bills at the TCO price and reports the named parts in JSON") {
  Scenario s = test::MustParse(R"({"pricing": {"model": "owned", "owned": {"utilization": 0.5,
                                   "compare_usd_per_gpu_hour": 3.99}}})");
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.tco.present);
  CHECK(r.usd_per_gpu_hour == doctest::Approx(r.tco.usd_per_gpu_hour));
  const nlohmann::json doc = nlohmann::json::parse(ResultToJson(s, r));
  CHECK(doc["tco"]["facility_usd_per_gpu_year"].get<double>() == doctest::Approx(r.tco.facility_usd_per_gpu_year));
  CHECK(doc["tco"]["break_even_utilization"].get<double>() == doctest::Approx(r.tco.break_even_utilization));
}

// --- the same job under four pricing models ---

TEST_CASE("comparison: spot and reserved are derived from the on-demand anchor") {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;
  s.pricing.spot.preemptions_per_node_day = 0;
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  CHECK(c.on_demand_usd_per_gpu_hour == doctest::Approx(2.99));
  const ModelCost& od = c.models[static_cast<int>(PricingModel::kOnDemand)];
  const ModelCost& spot = c.models[static_cast<int>(PricingModel::kSpot)];
  const ModelCost& res = c.models[static_cast<int>(PricingModel::kReserved)];
  const ModelCost& own = c.models[static_cast<int>(PricingModel::kOwned)];
  CHECK(od.ratio_to_on_demand == doctest::Approx(1));
  CHECK(spot.usd_per_gpu_hour == doctest::Approx(2.99 * (1 - s.pricing.spot.discount)));
  CHECK(res.usd_per_gpu_hour == doctest::Approx(2.99 * (1 - s.pricing.reserved.discount)));
  // Without preemptions spot costs exactly the discount less for the same work.
  CHECK(spot.job_usd < od.job_usd);
  // A 12-month term for a job of a few days: the rest of the term is paid and makes reserved dearest here.
  CHECK(res.term_tail_usd > 0);
  CHECK(res.total_usd == doctest::Approx(res.job_usd + res.term_tail_usd));
  CHECK(res.total_usd > od.total_usd);
  CHECK(own.result.tco.present);
  CHECK(own.capacity_guaranteed);
  CHECK(!res.capacity_guaranteed);
  CHECK(std::strstr(res.risk, "NOT reserved") != nullptr);
  for (const ModelCost& m : c.models) CHECK(m.total_usd >= c.models[c.cheapest].total_usd);
}

TEST_CASE("comparison: the anchor is recovered from a spot or reserved scenario") {
  Scenario s = DefaultScenario();
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  s.pricing.usd_per_gpu_hour = 1.8;
  s.pricing.spot.discount = 0.4;
  CHECK(OnDemandReferenceUsdPerGpuHour(s) == doctest::Approx(3.0));
  CHECK(WithPricingModel(s, PricingModel::kSpot).pricing.usd_per_gpu_hour == doctest::Approx(1.8));
  s.pricing.model = static_cast<int>(PricingModel::kReserved);
  s.pricing.reserved.usd_per_gpu_hour_on_demand = 4.5;
  CHECK(OnDemandReferenceUsdPerGpuHour(s) == doctest::Approx(4.5));
}

TEST_CASE("comparison: a KRW price with tax included is converted and taxed once") {
  Scenario s = test::MustParse(R"({"pricing": {"krw_per_gpu_hour": 4400, "krw_per_usd": 1400, "tax_rate": 0.1,
                                   "price_includes_tax": true, "currency": "KRW"}})");
  s.reliability.gpu_mtbf_hours = 0;
  s.storage.usd_per_gb_month = 0;  // storage prices are also entered tax-inclusive; keep this about GPUs
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  const double entered_usd = 4400.0 / 1400;
  CHECK(c.on_demand_usd_per_gpu_hour == doctest::Approx(entered_usd));
  const ModelCost& od = c.models[0];
  CHECK(od.usd_per_gpu_hour == doctest::Approx(entered_usd / 1.1));  // pre-tax
  CHECK(od.result.cost_usd.part[kPartTax] == doctest::Approx(0.1 * (od.job_usd - od.result.cost_usd.part[kPartTax])));
  CHECK(od.result.display_per_usd == doctest::Approx(1400));
  // The same job priced directly in USD (pre-tax) plus 10% tax costs the same.
  Scenario usd = s;
  usd.pricing.krw_per_gpu_hour = 0;
  usd.pricing.usd_per_gpu_hour = entered_usd / 1.1;
  usd.pricing.price_includes_tax = false;
  CHECK(Evaluate(usd).expected_usd == doctest::Approx(od.job_usd));
  // Owned hardware pays the tax on what it buys (issue 25: servers, power, space, support; not staff wages) and
  // breaks even against the pre-tax on-demand price.
  const ModelCost& own = c.models[static_cast<int>(PricingModel::kOwned)];
  const double* m = own.result.cost_usd.part;
  const TcoResult& t = own.result.tco;
  const double services = m[kPartStorage] + m[kPartEgress] + m[kPartFees];
  const double gpu_time = own.result.expected_usd - m[kPartTax] - services;
  const double bought = (t.usd_per_gpu_year - t.staff_usd_per_gpu_year) / t.usd_per_gpu_year;
  CHECK(m[kPartTax] > 0);
  CHECK(m[kPartTax] == doctest::Approx(0.1 * (gpu_time * bought + services)));
  CHECK(WithPricingModel(s, PricingModel::kOwned).pricing.owned.compare_usd_per_gpu_hour == doctest::Approx(entered_usd / 1.1));
}

TEST_CASE("comparison: owned becomes the cheapest when the on-demand price is high and use is full") {
  Scenario s = DefaultScenario();
  s.pricing.usd_per_gpu_hour = 12.29;  // Azure ND96isr H100 v5 per GPU-hour (2026-11-09)
  s.pricing.owned.utilization = 0.9;
  s.pricing.spot.preemptions_per_node_day = 5;  // a harsh spot market
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  CHECK(c.cheapest == static_cast<int>(PricingModel::kOwned));
  CHECK(c.models[static_cast<int>(PricingModel::kOwned)].ratio_to_on_demand < 0.5);
}
