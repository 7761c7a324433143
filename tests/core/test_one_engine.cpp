// Issue 25: one cost engine. Training, batch inference and an online service are billed by the same function
// (billing.h) under every pricing model, offer and currency: eval equals its row in `pricing` and its column in
// `compare`, and every billing rule moves every workload's cost the way the rule says.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "documents/compare.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "scenario/money_input.h"
#include "money/offers.h"
#include "documents/result_json.h"
#include "documents/pricing_json.h"
#include "money/tco.h"

using namespace gpucost;
using nlohmann::json;

namespace {

// Llama 2 70B's shape (Touvron et al. 2023, arXiv:2307.09288; the published config.json), as the chat preset.
const char* kShape = R"("params": 68.98e9, "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8,
                        "ffn_hidden": 28672, "ffn_gated": true, "vocab": 32000, "tied_embeddings": false)";

enum Workload { kTrainingJob, kBatchInference, kOnlineService };
const char* const kWorkloadNames[] = {"training", "batch inference", "online service"};

// The workload part of a scenario: a 7B training job of ~10 h on 60 GPUs (not a whole number of 8-GPU nodes, not
// a whole number of hours), a batch of 200,000 requests, a 100.5-hour service at 2 requests/s (MLPerf targets), each
// with 3 replicas of TP4 (12 GPUs: not whole nodes).
std::string WorkloadJson(Workload w) {
  switch (w) {
    case kTrainingJob:
      return R"("workload": {"kind": "training", "params": 7e9, "tokens": 2e10}, "cluster": {"gpus": 60, "mfu": 0.4})";
    case kBatchInference:
      return std::string(R"("workload": {"kind": "inference", )") + kShape +
             R"(}, "parallel": {"tensor_parallel": 4}, "inference": {"requests": 200000, "decode": {"replicas": 3}})";
    case kOnlineService:
      return std::string(R"("workload": {"kind": "inference", )") + kShape +
             R"(}, "parallel": {"tensor_parallel": 4}, "inference": {"requests_per_second": 2, "decode": {"replicas": 3}, "hours": 100.5,
                "slo": {"ttft_ms": 2000, "tpot_ms": 200, "percentile": 99}})";
  }
  return "";
}

Scenario OneEngineParse(const std::string& body) {
  const ScenarioParse p = ParseScenarioJson("{" + body + "}");
  std::string all;
  for (const InputError& e : p.errors) all += e.Text() + "; ";
  INFO(body);
  INFO(all);
  REQUIRE(p.ok());
  return p.scenario;
}

double Cost(const std::string& body) {
  const Result r = Evaluate(OneEngineParse(body));
  REQUIRE(r.ok);
  return r.expected_usd;
}

bool Near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

}  // namespace

TEST_CASE("rules matrix: eval = its pricing row = its compare column for every workload, model, offer and currency") {
  const char* const models[] = {"on_demand", "spot", "reserved", "owned"};
  // Offers: none; a US cloud with a published spot price; AWS Seoul; a Korean price-by-quote offer with the quote
  // typed in won. Where the offer lists no price for the model, the scenario gives its own (the user wins).
  struct OfferCase {
    const char* name;
    const char* pricing;
  };
  const OfferCase offers[] = {
      {"none", R"("usd_per_gpu_hour": 2.99)"},
      {"gcp us-central1", R"("offer": "gcp-a3-ultragpu-8g-us-central1")"},
      {"aws seoul", R"("offer": "aws-p5.48xlarge-ap-northeast-2")"},
      {"samsung sds quote", R"("offer": "samsung-sds-scp-gpu-server-h100", "krw_per_gpu_hour": 9500)"}};
  const char* const currencies[] = {R"("currency": "USD")", R"("currency": "KRW", "tax_rate": 0.1)",
                                    R"("currency": "KRW", "tax_rate": 0.1, "vat_recoverable": true)"};
  int cells = 0;
  for (int w = 0; w < 3; ++w)
    for (int m = 0; m < 4; ++m)
      for (const OfferCase& o : offers)
        for (const char* cur : currencies) {
          std::string pricing = std::string(R"("model": ")") + models[m] + "\", " + o.pricing + ", " + cur;
          const bool offer_lists = std::string(o.name) == "none" || (m == 0) || (m == 1 && std::string(o.name) == "gcp us-central1") || m == 3;
          if (!offer_lists) pricing += R"(, "usd_per_gpu_hour": 2.5)";  // the user's price for a model the offer does not list
          const std::string body = WorkloadJson(static_cast<Workload>(w)) + R"(, "pricing": {)" + pricing + "}";
          CAPTURE(body);
          const Scenario s = OneEngineParse(body);
          const Result r = Evaluate(s);
          REQUIRE(r.ok);
          CHECK(r.expected_usd > 0);
          CHECK(Near(r.cost_usd.Total(), r.expected_usd));
          // Its row in `pricing`.
          const PricingComparison c = ComparePricingModels(s);
          REQUIRE(c.ok);
          CHECK(Near(c.models[m].total_usd, r.expected_usd));
          const json pricing_doc = json::parse(PricingToJson(s, c));
          CHECK(Near(pricing_doc["models"][m]["total_usd"].get<double>(), r.expected_usd));
          // Its column in `compare`.
          CompareColumn col;
          col.scenario = s;
          col.result = Evaluate(s);
          const Comparison cmp = CompareScenarios({col});
          const json compare_doc = json::parse(CompareToJson(cmp));
          CHECK(Near(compare_doc["scenarios"][0]["expected_cost"].get<double>(), cmp.Money(0, r.expected_usd)));
          // The result names the offer and its date.
          const json doc = json::parse(ResultToJson(s, r));
          if (s.pricing.offer[0]) {
            CHECK(doc["offer"]["id"] == s.pricing.offer);
            CHECK(!doc["offer"]["date"].get<std::string>().empty());
          }
          // VAT: a recoverable VAT is shown but not in the cost.
          if (s.pricing.tax_rate > 0) {
            CHECK(r.vat_usd > 0);
            CHECK(doc["cost"]["vat"]["vat_usd"].get<double>() > 0);
            CHECK((r.cost_usd.part[kPartTax] > 0) == !s.pricing.vat_recoverable);
          }
          ++cells;
        }
  CHECK(cells == 3 * 4 * 4 * 3);
}

TEST_CASE("rules matrix: each billing rule moves every workload's cost the way it says") {
  for (int w = 0; w < 3; ++w) {
    const std::string work = WorkloadJson(static_cast<Workload>(w));
    CAPTURE(kWorkloadNames[w]);
    auto cost = [&](const std::string& pricing) { return Cost(work + R"(, "pricing": {"usd_per_gpu_hour": 2.99, )" + pricing + "}"); };
    const double base = cost(R"("whole_nodes": false)");
    // A billing increment of an hour rounds every rental up (none of these runs a whole number of hours).
    CHECK(cost(R"("whole_nodes": false, "billing_increment_seconds": 3600)") > base);
    // A 60-day minimum per rental session.
    CHECK(cost(R"("whole_nodes": false, "minimum_billed_seconds": 5184000)") > base);
    // Whole nodes: 60 or 12 GPUs are billed as 64 or 16.
    CHECK(cost(R"("whole_nodes": true)") > base);
    // Spot: preemptions cost (rework, survivors or spare nodes held while capacity is reacquired, sessions rounded
    // again), although a reclaimed node is not billed while it is away. Billed by the second: with a coarser
    // increment the whole job's own rounding (a sawtooth in its wall time, up to an increment on every GPU) can
    // exceed what 0.1 expected preemptions of a 2-hour batch job cost, either way.
    const double calm = cost(R"("model": "spot", "spot": {"preemptions_per_node_day": 0, "notice_seconds": 0}, "billing_increment_seconds": 1)");
    CHECK(cost(R"("model": "spot", "spot": {"preemptions_per_node_day": 1, "notice_seconds": 0}, "billing_increment_seconds": 1)") > calm);
    // A 12-month commitment pays the term the work does not use.
    const double month = cost(R"("model": "reserved", "reserved": {"term_months": 1})");
    CHECK(cost(R"("model": "reserved", "reserved": {"term_months": 12})") > month);
    // A support contract of USD 1,000 a month, over the run's hours (730 hours a month), for every workload: a
    // service paid none before (the serving bill skipped it).
    {
      const Scenario with = OneEngineParse(work + R"(, "pricing": {"usd_per_gpu_hour": 2.99, "whole_nodes": false, "support_usd_per_month": 1000})");
      const Result r = Evaluate(with);
      REQUIRE(r.ok);
      CHECK(r.cost_usd.part[kPartSupport] == doctest::Approx(1000 * r.time_hours.Total() / 730).epsilon(1e-9));
      CHECK(r.expected_usd == doctest::Approx(base + r.cost_usd.part[kPartSupport]).epsilon(1e-9));
    }
    // Tax, on every pricing model (owned hardware pays it on what it buys); recovered VAT is not a cost.
    for (const char* model : {"on_demand", "spot", "reserved", "owned"}) {
      CAPTURE(model);
      const std::string m = std::string(R"("model": ")") + model + "\"";
      const double untaxed = cost(m);
      CHECK(cost(m + R"(, "tax_rate": 0.1)") > untaxed);
      CHECK(Near(cost(m + R"(, "tax_rate": 0.1, "vat_recoverable": true)"), untaxed));
    }
  }
}
