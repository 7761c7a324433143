#include <doctest/doctest.h>

#include <regex>

#include <cstring>
#include <string>

#include "documents/fleet_json.h"
#include "explore/fleet.h"
#include "money/offers.h"
#include "money/tco.h"
#include "scenario/scenario.h"

using namespace gpucost;

namespace {

FleetInputs Flat(int months, double gpus) {
  FleetInputs f = DefaultFleet();
  f.months = months;
  for (int m = 0; m < months; ++m) f.demand_gpus[m] = gpus;
  return f;
}

void CheckParts(const FleetPlan& p) {
  double usd = 0;
  for (int i = 0; i < kFleetPartCount; ++i) {
    CAPTURE(FleetPartName(i));
    CHECK(p.usd[i] >= 0);
    CHECK(p.gpu_hours[i] >= 0);
    usd += p.usd[i];
  }
  CHECK(usd == doctest::Approx(p.total_usd).epsilon(1e-12));
  double by_month = p.usd[kFleetCommittedAfter];
  for (int m = 0; m < kMaxFleetMonths; ++m) by_month += p.month_usd[m];
  CHECK(by_month == doctest::Approx(p.total_usd).epsilon(1e-9));
}

// Demand served: useful GPU-hours of every source equal the demand.
double Served(const FleetPlan& p) {
  return p.gpu_hours[kFleetCommittedUsed] + p.gpu_hours[kFleetOnDemand] + p.gpu_hours[kFleetSpot] +
         p.gpu_hours[kFleetOwnedUsed];
}

std::string Errors(const FleetParse& p) {
  std::string all;
  for (const InputError& e : p.errors) all += e.Text() + "\n";
  return all;
}

}  // namespace

TEST_CASE("fleet: all-on-demand is demand x price; every plan serves the demand and sums its parts") {
  FleetInputs f = Flat(24, 64);
  f.demand_gpus[5] = 200;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CHECK(r.all_on_demand.total_usd == doctest::Approx(r.demand_gpu_hours * f.on_demand_usd_per_gpu_hour));
  for (const FleetPlan* p : {&r.all_on_demand, &r.cloud, &r.hybrid}) {
    CheckParts(*p);
    CHECK(Served(*p) == doctest::Approx(r.demand_gpu_hours));
  }
}

TEST_CASE("fleet: a steady 36-month baseline goes to the 3-year commitment, exactly") {
  FleetInputs f = Flat(36, 64);
  f.plan_hybrid = false;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CHECK(r.cloud.commit_gpus[1][0] == 64);  // 3-year
  CHECK(r.cloud.commit_gpus[0][0] == 0);
  CHECK(r.cloud.gpu_hours[kFleetCommittedUnused] == doctest::Approx(0));
  CHECK(r.cloud.total_usd == doctest::Approx(64 * 36 * kHoursPerMonth * f.on_demand_usd_per_gpu_hour * (1 - 0.65)));
}

TEST_CASE("fleet: a short burst stays on spot/on-demand, the baseline is committed") {
  FleetInputs f = Flat(12, 32);
  f.demand_gpus[3] = f.demand_gpus[4] = 32 + 256;
  f.plan_hybrid = false;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CHECK(r.cloud.commit_gpus[0][0] == 32);  // 1-year covers the baseline
  CHECK(r.cloud.gpu_hours[kFleetSpot] == doctest::Approx(256 * 2 * kHoursPerMonth * f.spot_availability));
  CHECK(r.cloud.gpu_hours[kFleetOnDemand] == doctest::Approx(256 * 2 * kHoursPerMonth * (1 - f.spot_availability)));
  CHECK(r.spot_share_of_burst == doctest::Approx(0.5));
  // 12 months of a 36-month term: the commitment runs past the horizon if bought; the 1-year wins instead.
  CHECK(r.cloud.usd[kFleetCommittedAfter] == 0);
}

TEST_CASE("fleet: the planner never does worse than all-on-demand, hybrid never worse than cloud") {
  unsigned seed = 12345;
  auto next = [&seed] { return (seed = seed * 1103515245u + 12345u) / 65536u % 1000; };
  for (int trial = 0; trial < 30; ++trial) {
    FleetInputs f = Flat(6 + static_cast<int>(next() % 40), 0);
    for (int m = 0; m < f.months; ++m) f.demand_gpus[m] = static_cast<double>(next() % 300);
    f.on_demand_usd_per_gpu_hour = 1 + static_cast<double>(next() % 1000) / 100;
    f.spot_availability = static_cast<double>(next() % 100) / 100;
    const FleetResult r = PlanFleet(f);
    REQUIRE(r.ok);
    CHECK(r.cloud.total_usd <= r.all_on_demand.total_usd * (1 + 1e-12));
    CHECK(r.hybrid.total_usd <= r.cloud.total_usd * (1 + 1e-12));
    CheckParts(r.hybrid);
  }
}

TEST_CASE("fleet: the commitment level is monotone in the baseline") {
  double last = -1;
  for (double baseline : {0.0, 8.0, 40.0, 64.0, 100.0, 256.0, 1000.0}) {
    FleetInputs f = Flat(24, baseline);
    f.demand_gpus[7] += 128;
    f.demand_gpus[15] += 64;
    f.plan_hybrid = false;
    const FleetResult r = PlanFleet(f);
    REQUIRE(r.ok);
    const double committed = r.cloud.gpu_hours[kFleetCommittedUsed] + r.cloud.gpu_hours[kFleetCommittedUnused] +
                             r.cloud.gpu_hours[kFleetCommittedAfter];
    CHECK(committed >= last);
    last = committed;
  }
  CHECK(last > 0);
}

TEST_CASE("fleet: commitments are never bought when their price is above the burst price") {
  FleetInputs f = Flat(24, 100);
  f.commitments[0].discount = 0.0;
  f.commitments[1].discount = 0.0;
  f.spot_availability = 0;
  f.plan_hybrid = false;
  const FleetResult r = PlanFleet(f);
  CHECK(r.cloud.total_usd == doctest::Approx(r.all_on_demand.total_usd));
}

TEST_CASE("fleet hybrid: owned baseline where TCO per held hour is below the committed price") {
  FleetInputs f = Flat(36, 128);
  f.demand_gpus[10] += 200;
  f.on_demand_usd_per_gpu_hour = 6.88;  // AWS p5.48xlarge per GPU-hour (2026-11-09)
  f.commitments[1].discount = 0.3;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CHECK(r.owned_usd_per_held_gpu_hour < 6.88 * 0.7);
  CHECK(r.hybrid.owned_gpus == 128);
  CHECK(r.hybrid.total_usd < r.cloud.total_usd);
  CHECK(r.hybrid.gpu_hours[kFleetOwnedIdle] == doctest::Approx(0));
  bool lead_time_note = false;
  for (int i = 0; i < r.notes.count; ++i) lead_time_note |= std::strcmp(r.notes.code[i], "owned_lead_time") == 0;
  CHECK(lead_time_note);
}

TEST_CASE("fleet: a capacity risk note for discount-only commitments and on-demand burst") {
  FleetInputs f = Flat(12, 64);
  f.demand_gpus[2] += 64;
  f.plan_hybrid = false;
  const FleetResult r = PlanFleet(f);
  std::string codes;
  for (int i = 0; i < r.notes.count; ++i) codes += std::string(r.notes.code[i]) + " ";
  CHECK(codes.find("commitment_not_capacity") != std::string::npos);
  CHECK(codes.find("on_demand_not_guaranteed") != std::string::npos);
  for (int i = 0; i < r.notes.count; ++i)  // issue 30: "46,720 GPU-hours" (64 GPUs for a month), not "46720"
    if (std::strcmp(r.notes.code[i], "on_demand_not_guaranteed") == 0) {
      const std::string text = r.notes.Text(i, Lang::kEn);
      CAPTURE(text);
      CHECK(std::regex_search(text, std::regex("^[1-9][0-9]?[0-9]?(,[0-9]{3})+ GPU-hours of burst")));
    }
  f.commitments[0].capacity_guaranteed = true;
  const FleetResult guaranteed = PlanFleet(f);
  codes.clear();
  for (int i = 0; i < guaranteed.notes.count; ++i) codes += std::string(guaranteed.notes.code[i]) + " ";
  CHECK(codes.find("commitment_not_capacity") == std::string::npos);
}

TEST_CASE("fleet document: profile with bursts, offers, owned fields") {
  const FleetParse p = ParseFleetJson(R"({"schema": "gpucost/fleet@1", "name": "team",
      "profile": {"months": 12, "baseline_gpus": 64, "growth_gpus_per_month": 8,
                  "bursts": [{"start_month": 3, "months": 2, "gpus": 100}]},
      "on_demand": {"offer": "coreweave-hgx-h100"},
      "spot": {"availability": 0.3},
      "commitments": [{"name": "1y", "term_months": 12, "discount": 0.2, "capacity_guaranteed": true}],
      "owned": {"capex_usd_per_gpu": 30000}, "granularity_gpus": 4})");
  REQUIRE_MESSAGE(p.ok(), Errors(p));
  const FleetInputs& f = p.fleet;
  CHECK(f.months == 12);
  CHECK(f.demand_gpus[0] == 64);
  CHECK(f.demand_gpus[2] == 64 + 16 + 100);
  CHECK(f.demand_gpus[4] == 64 + 32);
  CHECK(f.on_demand_usd_per_gpu_hour == doctest::Approx(6.155));
  CHECK(f.spot_discount == doctest::Approx(1 - 19.71 / 49.24));
  CHECK(f.spot_availability == doctest::Approx(0.3));
  CHECK(f.commitment_count == 1);
  CHECK(f.commitments[0].capacity_guaranteed);
  CHECK(std::strcmp(f.commitments[0].name, "1y") == 0);
  CHECK(f.owned.capex_usd_per_gpu == 30000);
  CHECK(f.granularity_gpus == 4);
  CHECK(PlanFleet(f).ok);
}

TEST_CASE("fleet document: errors name the path and the allowed range") {
  auto first = [](const char* text) {
    const FleetParse p = ParseFleetJson(text);
    return p.errors.empty() ? std::string("(none)") : p.errors[0].Text();
  };
  CHECK(first(R"({"demand_gpus": [10, -1]})") == "demand_gpus[1]: must be a number >= 0 and <= 1,000,000, got -1");
  CHECK(first(R"({})") == "demand_gpus: give either demand_gpus (GPUs per month) or profile, not both or neither");
  CHECK(first(R"({"demand_gpus": [1], "spot": {"availability": 2}})") ==
        "spot.availability: must be a number >= 0 and <= 1, got 2");
  CHECK(first(R"({"demand_gpus": [1], "commitments": [{"term_months": 0, "discount": 0.1}]})") ==
        "commitments[0].term_months: must be a number >= 1 and <= 120, got 0");
  CHECK(first(R"({"demand_gpus": [1], "owned": {"pue": 0.5}})").rfind("owned.pue: must be", 0) == 0);
  CHECK(first(R"({"demand_gpus": [1], "on_demand": {"offer": "nope"}})") ==
        "on_demand.offer: unknown offer id (see assets/offers.json)");
  CHECK(first(R"({"profile": 3})") == "profile: expected an object");
  CHECK(first(R"({"demand_gpus": [1], "colour": 1})") == "colour: unknown key");
  CHECK(first("[") == "malformed JSON");
  CHECK(first(R"({"profile": {"months": 500}})") == "profile.months: must be a number >= 1 and <= 120, got 500");
}

TEST_CASE("fleet from a scenario (the page's Fleet view): its demand by month and its pre-tax on-demand price") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 96;
  s.cluster.gpus_per_node = 8;
  s.pricing.usd_per_gpu_hour = 2.2;  // VAT included: 2.0 before 10% VAT
  s.pricing.tax_rate = 0.1;
  s.pricing.price_includes_tax = true;
  s.pricing.spot.discount = 0.6;
  FleetShape shape;
  shape.months = 12;
  shape.burst_gpus = 32;
  shape.burst_start_month = 3;
  shape.burst_months = 2;
  const FleetInputs f = FleetFromScenario(s, shape);
  CHECK(f.months == 12);
  for (int m = 0; m < 12; ++m) {
    CAPTURE(m);
    CHECK(f.demand_gpus[m] == ((m == 2 || m == 3) ? 128 : 96));  // months 3 and 4 (1-based) carry the burst
  }
  CHECK(f.on_demand_usd_per_gpu_hour == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(f.spot_discount == 0.6);
  CHECK(f.granularity_gpus == 8);
  // A long Korean name is the fleet's label cut at a character, never inside one (its document is valid JSON).
  std::string name = "A";
  for (int i = 0; i < 30; ++i) name += "선";  // 3 bytes each: byte 63 falls inside the 21st
  std::snprintf(s.name, sizeof s.name, "%s", name.c_str());
  const FleetInputs k = FleetFromScenario(s, shape);
  CHECK(std::string(k.name) == name.substr(0, 61));  // "A" and 20 whole syllables
  const FleetResult kr = PlanFleet(k);
  REQUIRE(kr.ok);
  CHECK_NOTHROW(FleetToJson(k, kr));
  // A given baseline replaces the scenario's GPUs.
  shape.baseline_gpus = 10;
  const FleetInputs g = FleetFromScenario(s, shape);
  CHECK(g.demand_gpus[0] == 10);
  CHECK(g.demand_gpus[2] == 42);
  // The hybrid's transfer terms as the page gives them: egress is the scenario's storage.usd_per_gb_egress, the
  // ingress price the shape's (0 unless given, as the fleet document's default).
  s.storage.usd_per_gb_egress = 0.07;
  shape.transfer_gb_in_per_move = 2000;
  CHECK(FleetFromScenario(s, shape).ingress_usd_per_gb == 0);
  shape.ingress_usd_per_gb = 0.02;
  const FleetInputs t = FleetFromScenario(s, shape);
  CHECK(t.ingress_usd_per_gb == 0.02);
  CHECK(t.egress_usd_per_gb == 0.07);
  CHECK(t.transfer_gb_in_per_move == 2000);
}

// --- Issue 50: moving between the owned site and the cloud (hybrid_transfer) ---------------------------------

TEST_CASE("fleet: the hybrid's transfer is its cloud GPU-hours x GB back x egress, one migration per move") {
  // 24 months of 64 GPUs owned-worthy, plus a burst of 64 more in months 4-5 and 10 (two moves).
  FleetInputs f = Flat(24, 64);
  f.on_demand_usd_per_gpu_hour = 6;  // dear cloud: the baseline is owned
  f.spot_availability = 0;
  f.commitment_count = 0;
  for (int m : {3, 4, 9}) f.demand_gpus[m] = 128;
  const FleetResult plain = PlanFleet(f);
  REQUIRE(plain.ok);
  REQUIRE(plain.hybrid.owned_gpus > 0);
  CHECK(plain.hybrid.usd[kFleetTransfer] == 0);  // nothing to move without hybrid_transfer
  f.transfer_gb_out_per_gpu_hour = 10;
  f.egress_usd_per_gb = 0.09;
  f.transfer_gb_in_per_move = 2000;
  f.ingress_usd_per_gb = 0.01;
  f.migration_usd_per_move = 5000;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CheckParts(r.hybrid);
  REQUIRE(r.hybrid.owned_gpus == plain.hybrid.owned_gpus);  // the 64 owned; the bursts in the cloud
  // By hand: the bursts are 64 GPUs x 730 h x 3 months = 140,160 cloud GPU-hours; x 10 GB x $0.09 = $126,144 of
  // egress, + 2 moves x 2,000 GB x $0.01 = $40; 2 moves x $5,000 = $10,000 of migration.
  const double cloud_hours = 64 * kHoursPerMonth * 3;
  CHECK(r.hybrid.gpu_hours[kFleetOnDemand] == doctest::Approx(cloud_hours));
  CHECK(r.hybrid.moves == 2);
  CHECK(r.hybrid.usd[kFleetTransfer] == doctest::Approx(cloud_hours * 10 * 0.09 + 2 * 2000 * 0.01));
  CHECK(r.hybrid.usd[kFleetMigration] == doctest::Approx(10000));
  CHECK(r.hybrid.total_usd == doctest::Approx(plain.hybrid.total_usd + cloud_hours * 0.9 + 40 + 10000));
  // The cloud alone keeps its data in the cloud: no transfer, unchanged.
  CHECK(r.cloud.total_usd == doctest::Approx(plain.cloud.total_usd).epsilon(1e-12));
  CHECK(r.cloud.usd[kFleetTransfer] == 0);
  // Moving dearer than owning saves, and the peaks too large to own (20x the baseline for 3 months of 24): the
  // hybrid becomes the cloud plan, and says so.
  f.migration_usd_per_move = 1e9;
  for (int m : {3, 4, 9}) f.demand_gpus[m] = 64 * 21;
  const FleetResult dear = PlanFleet(f);
  CHECK(dear.hybrid.total_usd == doctest::Approx(dear.cloud.total_usd).epsilon(1e-12));
  CHECK(dear.hybrid.owned_gpus == 0);
  bool said = false;
  for (int i = 0; i < dear.notes.count; ++i) said = said || std::string(dear.notes.code[i]) == "hybrid_transfer_not_worth";
  CHECK(said);
}

TEST_CASE("fleet: the egress of committed cloud hours is planned around, not only accounted") {
  // 12 months: 64 GPUs throughout, 64 more in months 6-11. A 6-month commitment at twice the owned price per held
  // hour; data brought back at 3x the committed price per cloud GPU-hour. By hand, per GPU-month of hours (h):
  // committing the second band costs 6 (p_c + e) = 24 p_c = 48 p_o, owning it 12 p_o: own it.
  FleetInputs f = Flat(12, 64);
  for (int m = 6; m < 12; ++m) f.demand_gpus[m] = 128;
  f.spot_availability = 0;
  f.commitment_count = 1;
  f.commitments[0].term_months = 6;
  f.commitments[0].capacity_guaranteed = true;
  const double p_o = PlanFleet(f).owned_usd_per_held_gpu_hour;
  REQUIRE(p_o > 0);
  f.on_demand_usd_per_gpu_hour = 4 * p_o;  // the burst at twice the commitment
  f.commitments[0].discount = 0.5;         // p_c = 2 p_o
  const double p_c = 2 * p_o, e = 3 * p_c;
  f.transfer_gb_out_per_gpu_hour = e;
  f.egress_usd_per_gb = 1;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CheckParts(r.hybrid);
  const double h = kHoursPerMonth;
  CHECK(r.hybrid.owned_gpus == 128);
  CHECK(r.hybrid.usd[kFleetTransfer] == 0);
  CHECK(r.hybrid.total_usd == doctest::Approx(128 * 12 * h * p_o));
  // The plan that commits the band (what pricing the egress on burst hours alone chose) costs more, by hand.
  CHECK(r.hybrid.total_usd < 64 * 12 * h * p_o + 64 * 6 * h * (p_c + e));
  CHECK(r.hybrid.total_usd < r.cloud.total_usd);  // the cloud alone: 64 x 18 months of p_c
  CHECK(r.cloud.total_usd == doctest::Approx(64 * 18 * h * p_c));
}

TEST_CASE("fleet: the moves between owned and cloud are planned around (owning the peaks instead of 12 moves)") {
  // 24 months: 64 GPUs throughout, 128 every other month. Bursting the peaks costs 12 x P, owning them 24 x p_o
  // (P = 1.5 p_o: bursting is cheaper), but each burst is a move at $1M: owning all 128 is the cheapest plan.
  FleetInputs f = Flat(24, 64);
  for (int m = 1; m < 24; m += 2) f.demand_gpus[m] = 128;
  f.spot_availability = 0;
  f.commitment_count = 0;
  const double p_o = PlanFleet(f).owned_usd_per_held_gpu_hour;
  REQUIRE(p_o > 0);
  f.on_demand_usd_per_gpu_hour = 1.5 * p_o;
  const double h = kHoursPerMonth;
  const FleetResult free_moves = PlanFleet(f);
  REQUIRE(free_moves.ok);
  CHECK(free_moves.hybrid.owned_gpus == 64);  // without a cost per move the peaks burst
  CHECK(free_moves.hybrid.moves == 12);
  f.migration_usd_per_move = 1e6;
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  CheckParts(r.hybrid);
  CHECK(r.hybrid.owned_gpus == 128);
  CHECK(r.hybrid.moves == 0);
  CHECK(r.hybrid.usd[kFleetMigration] == 0);
  CHECK(r.hybrid.total_usd == doctest::Approx(128 * 24 * h * p_o));
  // By hand, the plan the slots chose alone: 64 owned, the peaks on demand, 12 moves.
  CHECK(r.hybrid.total_usd < 64 * 24 * h * p_o + 64 * 12 * h * 1.5 * p_o + 12 * 1e6);
  CHECK(r.hybrid.total_usd < r.cloud.total_usd);
}

TEST_CASE("fleet: hybrid_transfer is read from the document, refused out of range naming its path") {
  FleetParse p = ParseFleetJson(R"({"demand_gpus": [8, 8], "hybrid_transfer": {"gb_out_per_cloud_gpu_hour": 2.5,
      "gb_in_per_move": 500, "egress_usd_per_gb": 0.05, "migration_usd_per_move": 1000}})");
  REQUIRE(p.ok());
  CHECK(p.fleet.transfer_gb_out_per_gpu_hour == 2.5);
  CHECK(p.fleet.transfer_gb_in_per_move == 500);
  CHECK(p.fleet.egress_usd_per_gb == 0.05);
  CHECK(p.fleet.migration_usd_per_move == 1000);
  // Round trip through the inputs document.
  const FleetParse back = ParseFleetJson(FleetInputsToJson(p.fleet));
  REQUIRE(back.ok());
  CHECK(back.fleet.transfer_gb_out_per_gpu_hour == 2.5);
  p = ParseFleetJson(R"({"demand_gpus": [8], "hybrid_transfer": {"egress_usd_per_gb": -1}})");
  CHECK(Errors(p).find("hybrid_transfer.egress_usd_per_gb") != std::string::npos);
  p = ParseFleetJson(R"({"demand_gpus": [8], "hybrid_transfer": {"egress": 1}})");
  CHECK_FALSE(p.ok());
}

// fresh2 A9: the Fleet plan recommended a 3-year commitment at 35% of on-demand and a 40% spot discount for Samsung
// SDS's price-by-quote offer, which lists neither (the pricing table refuses those rows: no number without a source).
TEST_CASE("fleet: an offer that lists no commitment or spot price plans none, and says so; the scenario's own price does") {
  const Offer* sds = FindOffer("samsung-sds-scp-gpu-server-h100");
  REQUIRE(sds != nullptr);
  REQUIRE(sds->price_by_quote);
  Scenario s = DefaultScenario();
  s.cluster.gpus = 64;
  ApplyOffer(*sds, &s);
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  s.pricing.krw_per_gpu_hour = 9500;  // the quote typed
  FleetShape shape;
  shape.months = 36;
  const FleetInputs f = FleetFromScenario(s, shape);
  CHECK(f.commitment_count == 0);
  CHECK(f.spot_availability == 0);
  CHECK(std::string(f.not_offered_by) == sds->id);
  const FleetResult r = PlanFleet(f);
  REQUIRE(r.ok);
  // Every GPU-hour on demand: the cloud plan is the all-on-demand plan (it was 35% of it).
  CHECK(r.cloud.total_usd == doctest::Approx(r.all_on_demand.total_usd).epsilon(1e-12));
  CHECK(r.cloud_share_of_on_demand == doctest::Approx(1));
  CHECK(r.spot_share_of_burst == 0);
  const int c = r.notes.Find("commitments_not_offered"), sp = r.notes.Find("spot_not_offered");
  REQUIRE(c >= 0);
  REQUIRE(sp >= 0);
  CHECK(r.notes.Text(c, Lang::kEn) == sds->provider + " " + sds->product +
                                          " lists no reserved price: the plan leaves it out (no number without a source). "
                                          "With a quote of your own, enter it in the scenario (its pricing model and price) to plan with it.");
  CHECK(r.notes.Text(sp, Lang::kKo).find("선점형(스팟) 가격이 없습니다") != std::string::npos);
  // The page's document read back by `gpucost fleet` gives the same plan and notes (one document).
  const FleetParse back = ParseFleetJson(FleetInputsToJson(f, -1));
  REQUIRE(back.ok());
  CHECK(FleetToJson(back.fleet, PlanFleet(back.fleet)) == FleetToJson(f, r));
  // Reserved at a quote of the scenario's own (₩6,000 against the ₩9,500 on-demand): one commitment, its term, at the
  // discount the quote implies; spot still left out.
  Scenario reserved = s;
  reserved.pricing.model = static_cast<int>(PricingModel::kReserved);
  reserved.pricing.krw_per_gpu_hour = 6000;
  reserved.pricing.reserved.usd_per_gpu_hour_on_demand = 9500 / reserved.pricing.krw_per_usd;
  reserved.pricing.reserved.term_months = 12;
  const FleetInputs q = FleetFromScenario(reserved, shape);
  REQUIRE(q.commitment_count == 1);
  CHECK(std::string(q.commitments[0].name) == "1-year");
  CHECK(q.commitments[0].term_months == 12);
  CHECK(q.commitments[0].discount == doctest::Approx(1 - 6000.0 / 9500).epsilon(1e-12));
  CHECK_FALSE(q.commitments_not_offered);
  CHECK(q.spot_not_offered);
  // No offer: the scenario's own discounts, as before (two commitments, spot).
  Scenario typed = DefaultScenario();
  const FleetInputs t = FleetFromScenario(typed, shape);
  CHECK(t.commitment_count == 2);
  CHECK(t.spot_availability > 0);
  CHECK(t.not_offered_by[0] == '\0');
  // An offer that lists a spot price keeps spot (and leaves out the commitment it does not list).
  const Offer* coreweave = FindOffer("coreweave-hgx-h100");
  REQUIRE(coreweave != nullptr);
  REQUIRE(coreweave->spot_usd_per_gpu_hour > 0);
  ApplyOffer(*coreweave, &typed);
  const FleetInputs cw = FleetFromScenario(typed, shape);
  CHECK_FALSE(cw.spot_not_offered);
  CHECK(cw.spot_availability > 0);
  CHECK(cw.commitments_not_offered);
}
