// test_issue45.cpp — issue 45, "Money that obeys its laws": each finding of the issue with a test that failed on
// the commit before its fix. Each checks against a hand-worked figure (a term's hours x its price, a geometric
// series, the tax basis worked by hand), never a restatement of the code. The laws over the whole scenario space
// are checked by tests/laws (money_laws).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "documents/compare.h"
#include "documents/field_edit.h"
#include "documents/inference_views.h"
#include "documents/fleet_json.h"
#include "explore/fleet.h"
#include "money/provider_sheet.h"
#include "documents/pricing_json.h"
#include "explore/pricing.h"
#include "hardware/probe.h"
#include "job/evaluate.h"
#include "money/offers.h"
#include "money/pricing_model.h"
#include "serving/inference.h"
#include "scenario/json_io.h"
#include "documents/presets.h"
#include "money/tco.h"
#include "base/i18n.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

// 256 H100s, a 7B model on 140B tokens, no failures: a fixed run of about 126 h.
Scenario Calm() {
  Scenario s = DefaultScenario();
  s.reliability.gpu_mtbf_hours = 0;
  s.cluster.gpus = 256;
  return s;
}

// The money for GPU time in a bill (every part but storage, egress, fees, support, router, tax and delay).
double GpuMoney(const Result& r) {
  double usd = 0;
  for (int p = 0; p < kPartCount; ++p)
    if (p != kPartStorage && p != kPartEgress && p != kPartFees && p != kPartSupport && p != kPartRouter &&
        p != kPartTax && p != kPartDelay)
      usd += r.cost_usd.part[p];
  return usd;
}

}  // namespace

// --- Finding 3: operations hours are usage before billing; one tax basis ----------------------------------------

TEST_CASE("issue 45, 3: a reservation's bring-up is inside its term, billed once") {
  Scenario s = Calm();
  s.pricing.model = static_cast<int>(PricingModel::kReserved);
  s.pricing.usd_per_gpu_hour = 1.88;
  s.pricing.reserved.term_months = 12;
  const Result base = Evaluate(s);
  s.ops.bring_up_hours = 100;
  const Result r = Evaluate(s);
  REQUIRE(base.ok);
  REQUIRE(r.ok);
  REQUIRE(r.expected_hours < 8760);
  // The commitment is paid for its term whatever the job does inside it: 256 GPUs x 8,760 h x $1.88. Before the
  // fix, the 100 h of bring-up were billed again on top of the term (+$48,128).
  const double term_usd = 256 * 8760 * 1.88;
  CHECK(GpuMoney(base) == doctest::Approx(term_usd).epsilon(1e-9));
  CHECK(GpuMoney(r) == doctest::Approx(term_usd).epsilon(1e-9));
  CHECK(r.cost_usd.part[kPartBringUp] == doctest::Approx(256 * 100 * 1.88));
  CHECK(r.commitment_after_job_usd == doctest::Approx(256 * (8760 - r.expected_hours) * 1.88).epsilon(1e-6));
}

TEST_CASE("issue 45, 3: operations share the run's rental, so its billing increment rounds them together") {
  Scenario s = Calm();
  s.workload.tokens = 2e9;  // a short run
  s.pricing.billing_increment_seconds = 3600;
  const Result run = Evaluate(s);
  REQUIRE(run.expected_hours < 1);
  s.ops.bring_up_hours = 0.5;
  const Result r = Evaluate(s);
  // One rental of bring-up + run, rounded up to whole hours once: ceil(0.5 + run) hours for each of 256 GPUs.
  // Before the fix the run alone was rounded and the bring-up added after: 256 x (1 + 0.5) GPU-hours.
  const double held_h = 0.5 + run.expected_hours;
  CHECK(r.billed_gpu_hours == doctest::Approx(256 * std::ceil(held_h)).epsilon(1e-9));
}

TEST_CASE("issue 45, 3: one tax basis for every service, owned hardware included") {
  // Prices entered with 10% VAT included: every service is divided by 1.1 before tax, as storage always was. Before
  // the fix an owned job's support plan (and scratch storage, and a service's router) was taken as pre-tax.
  Scenario s = Calm();
  s.pricing.model = static_cast<int>(PricingModel::kOwned);
  s.pricing.tax_rate = 0.1;
  s.pricing.price_includes_tax = true;
  s.ops.support_usd_per_month = 1100;
  const Result r = Evaluate(s);
  CHECK(r.cost_usd.part[kPartSupport] == doctest::Approx(1000 * r.expected_hours / kHoursPerMonth).epsilon(1e-9));
  // The same for a rented job.
  s.pricing.model = static_cast<int>(PricingModel::kOnDemand);
  const Result rented = Evaluate(s);
  CHECK(rented.cost_usd.part[kPartSupport] == doctest::Approx(1000 * rented.expected_hours / kHoursPerMonth).epsilon(1e-9));
  // A service's router tier (the split preset's default load balancer) on owned hardware.
  Scenario split;
  std::string error;
  REQUIRE(LoadPreset("llama2-70b-split-h100-a100", &split, &error));
  split.pricing.model = static_cast<int>(PricingModel::kOwned);
  split.pricing.tax_rate = 0.1;
  split.pricing.price_includes_tax = true;
  const Result served = Evaluate(split);
  REQUIRE(served.ok);
  CHECK(served.cost_usd.part[kPartRouter] ==
        doctest::Approx(kRouterDefaultUsdPerHour / 1.1 * served.expected_hours).epsilon(1e-9));
}

// --- Finding 4: a run of unusable checkpoints; p = 1 never recovers -------------------------------------------------

TEST_CASE("issue 45, 4: an unusable checkpoint on every rollback is blocked, not priced") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 4096;
  s.ops.bad_checkpoint_probability = 1;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const BlockingState b = FindBlockingState(s, r);
  CHECK(b.blocked);
  CHECK(std::string(b.code) == "bad_checkpoints_never_recover");
  // A restore test every 2nd checkpoint: half the checkpoints are known good, the run of bad ones ends.
  s.ops.restore_test_every = 2;
  s.ops.restore_test_minutes = 5;
  CHECK_FALSE(FindBlockingState(s, Evaluate(s)).blocked);
  // Without interruptions no rollback needs a checkpoint: nothing to block.
  s.ops.restore_test_every = 0;
  s.reliability.gpu_mtbf_hours = 0;
  CHECK_FALSE(FindBlockingState(s, Evaluate(s)).blocked);
}

// --- Finding 8: inputs that make a job absurd -----------------------------------------------------------------------

TEST_CASE("issue 45, 8: a job made absurd by one input is blocked naming that field") {
  Scenario s = Calm();
  REQUIRE_FALSE(FindBlockingState(s, Evaluate(s)).blocked);
  // Staging 1 PB at 1e-9 GB/s: 1e15 s, 31.7 million years.
  Scenario staging = s;
  staging.ops.staging_dataset_gb = 1e6;
  staging.ops.staging_gbps = 1e-9;
  const BlockingState a = FindBlockingState(staging, Evaluate(staging));
  CHECK(std::string(a.code) == "absurd_input");
  CHECK(a.reason.find("storage.staging.gbps") != std::string::npos);
  // An allocation efficiency of 1e-9: a 126-hour job billed for 1e9 times its GPU-hours.
  Scenario shared = s;
  shared.ops.allocation_efficiency = 1e-9;
  const BlockingState b = FindBlockingState(shared, Evaluate(shared));
  CHECK(std::string(b.code) == "absurd_input");
  CHECK(b.reason.find("cluster.allocation_efficiency") != std::string::npos);
  CHECK(b.fix.find("cluster.allocation_efficiency") != std::string::npos);
  // Bring-up of 1,000 x the run: blocked; 10 x: priced.
  Scenario bring = s;
  bring.ops.bring_up_hours = 2000 * Evaluate(s).ideal_hours;
  CHECK(std::string(FindBlockingState(bring, Evaluate(bring)).code) == "absurd_input");
  bring.ops.bring_up_hours = 10 * Evaluate(s).ideal_hours;
  CHECK_FALSE(FindBlockingState(bring, Evaluate(bring)).blocked);
}

// --- Finding 1: one price per pricing model, on every path ---------------------------------------------------------

namespace {

// The scenario `gpucost eval --set pricing.model=NAME` evaluates (documents/field_edit.h), and its note.
Scenario SetModel(Scenario s, const char* name, Message* note) {
  std::string label;
  const Message e = SetFieldProblem(&s, "pricing.model", name, &label, note);
  REQUIRE(e.empty());
  return s;
}

}  // namespace

TEST_CASE("issue 45, 1: switching the pricing model gives exactly the pricing table's row (training, won)") {
  // The case: a KRW job at 10% VAT typed at the on-demand price. Switched to spot, it kept that price and
  // cost more than on-demand (₩8,224,112 vs ₩8,116,685) while the table's spot row said ₩4,963,257.
  Scenario s = DefaultScenario();
  s.cluster.gpus = 64;
  s.workload.tokens = 1e11;
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  s.pricing.tax_rate = 0.1;
  s.pricing.krw_per_gpu_hour = 4303;
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  for (int m = 1; m < kModelCount; ++m) {
    const PricingModel model = static_cast<PricingModel>(m);
    CAPTURE(PricingModelName(model));
    Message note;
    const Scenario switched = SetModel(s, PricingModelName(model), &note);
    CHECK_FALSE(note.empty());
    const Result r = Evaluate(switched);
    CHECK(r.expected_usd == c.models[m].total_usd);  // the same function: bit for bit
    CHECK(ScenarioToJson(switched) == ScenarioToJson(WithPricingModel(s, model)));
  }
  // Spot at the default 40% discount, kept in won: ₩4,303 x 0.6 = ₩2,581.8.
  Message note;
  const Scenario spot = SetModel(s, "spot", &note);
  CHECK(spot.pricing.krw_per_gpu_hour == doctest::Approx(4303 * 0.6));
  CHECK(note.key == "msg.model_switch");
  CHECK(Evaluate(spot).expected_usd < Evaluate(s).expected_usd);
  // And back: on-demand again at ₩4,303.
  CHECK(SetModel(spot, "on_demand", &note).pricing.krw_per_gpu_hour == doctest::Approx(4303));
}

TEST_CASE("issue 45, 1: the switch's note writes money the same whatever the page's language") {
  // Its English text is the CLI's note and window.gpucost.notice(): on the Korean page it said "2,582 원" in an
  // English sentence (the amounts were formatted in the page's language when the note was made).
  Scenario s = DefaultScenario();
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  s.pricing.krw_per_gpu_hour = 4303;
  const Lang before = CurrentLanguage();
  std::string text[2];
  for (const Lang lang : {Lang::kEn, Lang::kKo}) {
    SetLanguage(lang);
    Message note;
    SetModel(s, "spot", &note);
    text[lang == Lang::kKo] = note.Text(Lang::kEn);
  }
  SetLanguage(before);
  CHECK(text[0] == text[1]);
  CHECK(text[1].find("₩2,582/GPU-hour from the on-demand ₩4,303/GPU-hour") != std::string::npos);
}

TEST_CASE("issue 45, 1: a served model's pools are re-priced with it; owned and back keeps the tax basis") {
  Scenario s;
  std::string error;
  REQUIRE(LoadPreset("llama2-70b-chat-h100", &s, &error));
  s.inference.decode.usd_per_gpu_hour = 3.5;  // the pool's own on-demand price
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  Message note;
  const Scenario spot = SetModel(s, "spot", &note);
  CHECK(spot.inference.decode.usd_per_gpu_hour == doctest::Approx(3.5 * 0.6));
  // Before the fix the spot row billed the pool at its on-demand $3.50: pricing said $17,901 where eval said
  // $29,832 on the scenario.
  CHECK(Evaluate(spot).expected_usd == c.models[static_cast<int>(PricingModel::kSpot)].total_usd);
  CHECK(c.models[static_cast<int>(PricingModel::kSpot)].result.inference.decode.usd_per_gpu_hour == doctest::Approx(3.5 * 0.6));
  // Prices with VAT included: on-demand -> owned -> on-demand gives back the price it started from.
  Scenario taxed = DefaultScenario();
  taxed.pricing.tax_rate = 0.1;
  taxed.pricing.price_includes_tax = true;
  taxed.pricing.usd_per_gpu_hour = 3.3;
  const Scenario owned = SetModel(taxed, "owned", &note);
  CHECK(owned.pricing.owned.compare_usd_per_gpu_hour == doctest::Approx(3.0));
  CHECK(note.key == "msg.model_switch_owned");
  CHECK(SetModel(owned, "on_demand", &note).pricing.usd_per_gpu_hour == doctest::Approx(3.3));
}

// --- Finding 2: spot serving pays for its preemptions ---------------------------------------------------------------

TEST_CASE("issue 45, 2: more preemptions never make a spot service cheaper") {
  // The case: preset llama2-70b-chat-h100 on spot, 0.05 -> 5 preemptions per node-day: $20,616 -> $19,553.
  Scenario s;
  std::string error;
  REQUIRE(LoadPreset("llama2-70b-chat-h100", &s, &error));
  s = WithPricingModel(s, PricingModel::kSpot);
  double last = 0;
  for (double rate : {0.0, 0.05, 0.5, 2.0, 5.0, 20.0}) {
    s.pricing.spot.preemptions_per_node_day = rate;
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    CAPTURE(rate);
    CHECK(r.expected_usd >= last);
    last = r.expected_usd;
    // Each preemption: the node's GPUs held by a replacement for the 30-minute reacquisition (spare capacity that
    // follows the rate), and the returning node's 20-minute weight load (recovery).
    const double node_gpus = 8;
    CHECK(r.gpu_hours.part[kPartSpotSpareCapacity] >= r.expected_preemptions * node_gpus * 0.5 * (1 - 1e-9));
  }
  // A notice shorter than a request: its in-flight requests are redone (spot_rework); the default 120 s drains most.
  s.pricing.spot.preemptions_per_node_day = 5;
  s.pricing.spot.notice_seconds = 0;
  const Result no_notice = Evaluate(s);
  s.pricing.spot.notice_seconds = 120;
  CHECK(no_notice.gpu_hours.part[kPartSpotRework] > Evaluate(s).gpu_hours.part[kPartSpotRework]);
  CHECK(no_notice.expected_usd >= Evaluate(s).expected_usd);
}

// --- Finding 6: a pricing model the offer does not list is said, not priced ----------------------------------------

TEST_CASE("issue 45, 6: a model the provider does not offer is not priced in the pricing table") {
  Scenario s = DefaultScenario();
  ApplyOffer(*FindOffer("aws-p5.48xlarge-us-east-1"), &s);  // on-demand only: no spot price, no reservation rate
  s.parallel.zero_stage = 3;
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  const ModelCost& spot = c.models[static_cast<int>(PricingModel::kSpot)];
  CHECK(spot.blocking.blocked);
  CHECK(std::string(spot.blocking.code) == "model_not_offered");
  CHECK(c.cheapest != static_cast<int>(PricingModel::kSpot));
  const nlohmann::json doc = nlohmann::json::parse(PricingToJson(s, c));
  CHECK(doc["models"][1]["total"].is_null());
  CHECK(doc["models"][1]["blocking"]["code"] == "model_not_offered");
  CHECK_FALSE(doc["models"][0].contains("blocking"));
  // Switching the scenario itself says the same, until a price of the user's own is typed.
  Message note;
  Scenario switched = s;
  switched = WithPricingModel(s, PricingModel::kSpot);
  CHECK(std::string(FindBlockingState(switched, Evaluate(switched)).code) == "model_not_offered");
  switched.pricing.usd_per_gpu_hour = 3.1;
  CHECK_FALSE(FindBlockingState(switched, Evaluate(switched)).blocked);
  // An offer with a spot price prices its spot row at it.
  Scenario gcp = DefaultScenario();
  ApplyOffer(*FindOffer("coreweave-hgx-h100"), &gcp);
  const PricingComparison g = ComparePricingModels(gcp);
  CHECK_FALSE(g.models[static_cast<int>(PricingModel::kSpot)].blocking.blocked);
  CHECK(g.models[static_cast<int>(PricingModel::kSpot)].usd_per_gpu_hour == doctest::Approx(2.46375));
}

TEST_CASE("issue 45, 6: a quote offer's spot and reserved rows say the provider offers neither, once the quote is typed") {
  // KT Cloud's H200 is priced by quote and offers neither spot nor a reservation. With the quote typed, the table's
  // on-demand row is priced at it; its spot and reserved rows said "priced by quote: type the quoted price" (the
  // quote was typed): they are rows of models the offer does not list.
  Scenario s = DefaultScenario();
  ApplyOffer(*FindOffer("kt-cloud-ai-nexus-h200"), &s);
  std::string label;
  REQUIRE(QuotedPriceProblem(&s, "₩9,500", &label).empty());
  const PricingComparison c = ComparePricingModels(s);
  REQUIRE(c.ok);
  CHECK_FALSE(c.models[static_cast<int>(PricingModel::kOnDemand)].blocking.blocked);
  CHECK(std::string(c.models[static_cast<int>(PricingModel::kSpot)].blocking.code) == "model_not_offered");
  CHECK(std::string(c.models[static_cast<int>(PricingModel::kReserved)].blocking.code) == "model_not_offered");
  CHECK_FALSE(c.models[static_cast<int>(PricingModel::kOwned)].blocking.blocked);
  // Before the quote, the on-demand scenario waits for it.
  Scenario waiting = DefaultScenario();
  ApplyOffer(*FindOffer("kt-cloud-ai-nexus-h200"), &waiting);
  CHECK(std::string(FindBlockingState(waiting, Evaluate(waiting)).code) == "price_by_quote");
}

// --- Finding 8: the delay cost in its own column ---------------------------------------------------------------------

TEST_CASE("issue 45, 8: the pricing table's job column holds no delay cost") {
  Scenario s = Calm();
  s.ops.on_demand_wait_hours = 48;
  s.ops.value_per_day_usd = 100000;
  s.ops.deadline_hours = 1;
  const PricingComparison c = ComparePricingModels(s);
  const ModelCost& od = c.models[0];
  REQUIRE(od.delay_usd > 0);
  // The job column is what was billed (the result less its delay part); the delay has its column; they add up.
  CHECK(od.job_usd == doctest::Approx(od.result.expected_usd - od.result.cost_usd.part[kPartDelay]));
  CHECK(od.delay_usd == doctest::Approx(od.result.schedule.delay_usd));
  CHECK(od.job_usd + od.term_tail_usd + od.delay_usd == doctest::Approx(od.total_usd));
  const nlohmann::json doc = nlohmann::json::parse(PricingToJson(s, c));
  CHECK(doc["models"][0]["delay_usd"].get<double>() == doctest::Approx(od.delay_usd));
}

// --- Finding 8: probe storage bounded like GEMM and HBM -------------------------------------------------------------

TEST_CASE("issue 45, 8: a storage measurement beyond what one server's memory moves is refused") {
  const auto with_gbps = [](double gbps) {
    nlohmann::json doc = nlohmann::json::parse(test::ReadFile(test::DataPath("probe_h100_8gpu.json")));
    doc["storage"][0]["gbps"] = gbps;
    const ProbeParse p = ParseProbeJson(doc.dump());
    return p.errors.empty() ? std::string() : p.errors[0].Text();
  };
  // 1 PB/s was applied as the checkpoint write rate. A two-socket server moves at most 1,228.8 GB/s through its
  // memory (2 x 12 channels of DDR5-6400 x 8 bytes x 6.4 GT/s); 110% of it is the ceiling.
  CHECK(with_gbps(1e6).find("storage[0].gbps") == 0);
  CHECK(with_gbps(1e6).find("1352") != std::string::npos);
  CHECK(with_gbps(1300).empty());
  CHECK(with_gbps(1400).find("beyond") != std::string::npos);
  CHECK(with_gbps(1e-6).find("not a physical measurement") != std::string::npos);
  CHECK(with_gbps(2.5).empty());
}

// --- Finding 7: owned hardware waits for its servers ------------------------------------------------------------------

TEST_CASE("issue 45, 7: owned hardware's lead time counts in the finish and the deadline") {
  Scenario s = Calm();
  s.pricing.model = static_cast<int>(PricingModel::kOwned);
  s.ops.deadline_hours = 24 * 30;
  s.ops.value_per_day_usd = 10000;
  const Result r = Evaluate(s);
  // 70 days (the default, Dell's 8-12 weeks): the job starts 1,680 h after the order, so it misses a 30-day
  // deadline by 70 days + its run - 30 days; before the fix it started at once (wait 0 s) and won every deadline.
  CHECK(r.schedule.lead_hours == doctest::Approx(70 * 24));
  CHECK(r.schedule.start_p50_hours == doctest::Approx(70 * 24));
  CHECK(r.schedule.finish_p50_hours == doctest::Approx(70 * 24 + r.expected_hours).epsilon(1e-6));
  CHECK(r.schedule.p_miss_deadline == doctest::Approx(1));
  CHECK(r.cost_usd.part[kPartDelay] == doctest::Approx(10000 * (70 * 24 + r.expected_hours - 720) / 24).epsilon(1e-6));
  // Servers already installed: no lead time.
  s.pricing.owned.lead_time_days = 0;
  CHECK(Evaluate(s).schedule.finish_p50_hours == doctest::Approx(Evaluate(s).expected_hours).epsilon(1e-9));
}

TEST_CASE("issue 45, 8: a discount-only reservation waits for capacity as on-demand does") {
  Scenario s = Calm();
  s.ops.on_demand_wait_hours = 24;
  const PricingComparison c = ComparePricingModels(s);
  const ModelCost& reserved = c.models[static_cast<int>(PricingModel::kReserved)];
  REQUIRE_FALSE(WithPricingModel(s, PricingModel::kReserved).pricing.reserved.capacity_guaranteed);
  CHECK(reserved.result.schedule.wait_mean_hours == doctest::Approx(24));
  CHECK(reserved.result.schedule.wait_mean_hours == c.models[0].result.schedule.wait_mean_hours);
  s.pricing.reserved.capacity_guaranteed = true;  // a capacity block: there on its start date
  CHECK(ComparePricingModels(s).models[static_cast<int>(PricingModel::kReserved)].result.schedule.wait_mean_hours == 0);
}

// --- Finding 5: serving options from one price source; fastest by the binding latency --------------------------------

TEST_CASE("issue 45, 5: every serving option is priced from one source and date, named in the document") {
  Scenario s;
  std::string error;
  REQUIRE(LoadPreset("llama2-70b-chat-h100", &s, &error));  // its H100 at a typed USD 2.99, no A100 price
  Comparison c;
  Message why;
  REQUIRE(ServingOptions(s, &c, &why));
  // Lambda lists both on demand on 2026-09-20: H100 SXM USD 3.99, A100 SXM 80GB USD 2.79. Before the fix the H100
  // columns took the scenario's USD 2.99 and the A100 Lambda's 2.79 (whose own H100 is 3.99).
  CHECK(c.price_source.find("lambda-8x-h100-sxm (2026-09-20)") != std::string::npos);
  CHECK(c.price_source.find("lambda-8x-a100-sxm-80gb (2026-09-20)") != std::string::npos);
  REQUIRE(c.columns.size() == 3);
  CHECK(c.columns[0].result.inference.decode.usd_per_gpu_hour == doctest::Approx(3.99));
  CHECK(c.columns[1].result.inference.decode.usd_per_gpu_hour == doctest::Approx(2.79));
  CHECK(c.columns[2].result.inference.prefill.usd_per_gpu_hour == doctest::Approx(3.99));
  CHECK(c.columns[2].result.inference.decode.usd_per_gpu_hour == doctest::Approx(2.79));
  const nlohmann::json doc = nlohmann::json::parse(CompareToJson(c));
  CHECK(doc["price_source"].get<std::string>() == c.price_source);
  // A scenario pricing both GPUs itself is its own single source.
  s.inference.decode.usd_per_gpu_hour = 3.1;
  s.inference.prefill.gpu[0] = 0;
  std::snprintf(s.inference.prefill.gpu, kTextCapacity, "%s", "a100-sxm-80gb");
  s.inference.prefill.usd_per_gpu_hour = 1.9;
  Comparison own;
  REQUIRE(ServingOptions(s, &own, &why));
  CHECK(own.price_source == "the scenario");
}

TEST_CASE("issue 45, 5: the fastest serving column is the one nearest its binding latency target") {
  // Two columns under a 200 ms TTFT target at P90: one with TTFT 179 ms and a slower end-to-end latency, one with
  // TTFT 285 ms (over the target) and a faster end-to-end latency. The first is the faster where it binds.
  CompareColumn a, b;
  for (CompareColumn* col : {&a, &b}) {
    col->scenario = DefaultScenario();
    col->scenario.workload.kind = static_cast<int>(WorkloadKind::kInference);
    col->scenario.inference.slo.ttft_ms = 200;
    col->scenario.inference.slo.percentile = 90;
    col->result.ok = true;
    col->result.inference.present = true;
    col->result.inference.fits = true;  // a service that runs (a blocked column is never fastest)
  }
  a.result.inference.ttft_ms.p90 = 179, a.result.inference.e2e_ms.p90 = 9000;
  b.result.inference.ttft_ms.p90 = 285, b.result.inference.e2e_ms.p90 = 7000;
  CHECK(CompareScenarios({a, b}).fastest == 0);
  CHECK(BindingLatency(b, true) == doctest::Approx(285.0 / 200));
  // Without any target: the P90 end-to-end latency, as before.
  a.scenario.inference.slo.ttft_ms = b.scenario.inference.slo.ttft_ms = 0;
  CHECK(CompareScenarios({a, b}).fastest == 1);
}

// --- Finding 6: a provider figure the provider did not give is an assumption -----------------------------------------

TEST_CASE("issue 45, 6: the provider sheet says which figures are assumed defaults") {
  Scenario kakao = DefaultScenario();
  ApplyOffer(*FindOffer("kakao-cloud-gpu-b200"), &kakao);
  const ProviderSheetDoc doc = BuildProviderSheet({kakao});
  std::string egress, storage;
  for (const SheetRow& row : doc.rows) {
    if (row.key == "egress") egress = row.values[0];
    if (row.key == "extra_storage") storage = row.values[0];
  }
  // Kakao's egress price is not published (storage.usd_per_gb_egress keeps its default $0.09) and neither is its
  // storage price ($0.02): shown as assumed, not as Kakao's own (before: "$0.09/GB" as if Kakao said it).
  CHECK(egress.find("assumed") != std::string::npos);
  CHECK(storage.find("assumed") != std::string::npos);
  // A figure the user typed is theirs.
  kakao.storage.usd_per_gb_month = 0.05;
  for (const SheetRow& row : BuildProviderSheet({kakao}).rows)
    if (row.key == "extra_storage") CHECK(row.values[0].find("assumed") == std::string::npos);
}

// --- Finding 7: the fleet's resale default and its differences from the engine -----------------------------------------

TEST_CASE("issue 45, 7: the fleet resells owned GPUs at a sourced share of book value, and names its differences") {
  const FleetInputs in = DefaultFleet();
  // 0.72 (a used, working unit) x 0.85 (through a broker in 90 days), SpotWire's valuator data: not full book value.
  CHECK(in.owned_resale_fraction == doctest::Approx(0.612));
  Scenario s = DefaultScenario();
  FleetShape shape;
  shape.months = 24;
  const FleetResult r = PlanFleet(FleetFromScenario(s, shape));
  REQUIRE(r.ok);
  const nlohmann::json doc = nlohmann::json::parse(FleetToJson(FleetFromScenario(s, shape), r));
  std::string codes;
  for (const auto& d : doc["engine_differences"]) codes += d["code"].get<std::string>() + " ";
  CHECK(codes.find("fleet_before_tax") != std::string::npos);
  CHECK(codes.find("fleet_no_rounding") != std::string::npos);
  CHECK(codes.find("fleet_owned_held_hour") != std::string::npos);
}
