#include <doctest/doctest.h>

#include <cstring>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "money/offers.h"
#include "../test_util.h"

using namespace gpucost;

TEST_CASE("offers catalog: the embedded asset parses without errors and matches the file") {
  std::vector<InputError> errors;
  const std::vector<Offer> file = ParseOffersJson(test::ReadFile(test::AssetPath("offers.json")), &errors);
  for (const InputError& e : errors) FAIL_CHECK(e.Text());
  REQUIRE(OfferCount() == file.size());
  CHECK(OfferCount() >= 10);
}

TEST_CASE("offers catalog: every offer is dated, sourced, on a known GPU, and consistent per GPU and per instance") {
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    CAPTURE(o.id);
    CHECK(FindGpu(o.gpu.c_str()) != nullptr);
    CHECK(o.date.size() >= 7);  // YYYY-MM at least
    CHECK(o.source.rfind("https://", 0) == 0);
    CHECK(o.usd_per_gpu_hour * o.gpus_per_instance == doctest::Approx(o.usd_per_instance_hour).epsilon(0.01));
    CHECK(FindOffer(o.id) == &o);
  }
  CHECK(FindOffer("no-such-offer") == nullptr);
}

TEST_CASE("offers golden: 8-GPU H100 node prices and spot prices as published") {
  const nlohmann::json f = nlohmann::json::parse(test::ReadFile(test::DataPath("tco_public_figures.json")));
  for (const nlohmann::json& node : f["h100_8gpu_nodes"]) {
    const Offer* o = FindOffer(node["offer"].get<std::string>());
    REQUIRE(o != nullptr);
    CAPTURE(o->id);
    CHECK(o->gpu == "h100-sxm");
    CHECK(o->gpus_per_instance == 8);
    CHECK(o->usd_per_instance_hour == doctest::Approx(node["usd_per_node_hour"].get<double>()));
    CHECK(o->date == node["date"].get<std::string>());
  }
  const Offer* cw = FindOffer("coreweave-hgx-h100");
  REQUIRE(cw);
  CHECK(cw->spot_usd_per_gpu_hour * 8 == doctest::Approx(f["spot_vs_on_demand"][0]["spot_usd_per_node_hour"].get<double>()));
}

TEST_CASE("apply an offer: GPU, node size, price, model and spot discount") {
  Scenario s = DefaultScenario();
  s.pricing.krw_per_gpu_hour = 5000;
  const Offer* p5 = FindOffer("aws-p5.48xlarge-us-east-1");
  REQUIRE(p5);
  ApplyOffer(*p5, &s);
  CHECK(std::strcmp(s.cluster.gpu, "h100-sxm") == 0);
  CHECK(s.cluster.gpus_per_node == 8);
  CHECK(s.pricing.usd_per_gpu_hour == doctest::Approx(6.88));
  CHECK(s.pricing.krw_per_gpu_hour == 0);
  CHECK(Evaluate(s).usd_per_gpu_hour == doctest::Approx(6.88));

  const Offer* gcp = FindOffer("gcp-a3-ultragpu-8g-us-central1");
  REQUIRE(gcp);
  ApplyOffer(*gcp, &s);
  CHECK(std::strcmp(s.cluster.gpu, "h200-sxm") == 0);
  CHECK(s.pricing.spot.discount == doctest::Approx(1 - 6.2607 / 10.4365));

  const Offer* block = FindOffer("aws-p5.48xlarge-capacity-block-us-east-1");
  REQUIRE(block);
  ApplyOffer(*block, &s);
  CHECK(Model(s) == PricingModel::kReserved);
  CHECK(s.pricing.reserved.capacity_guaranteed);
}

TEST_CASE("offers parser: errors name the path and the rule") {
  std::vector<InputError> errors;
  ParseOffersJson(R"({"schema": "gpucost/offers@1", "offers": [
      {"id": "x", "provider": "p", "product": "q", "gpu": "h100-sxm", "region": "r", "model": "on_demand",
       "gpus_per_instance": 8, "usd_per_gpu_hour": 2, "usd_per_instance_hour": 20, "date": "2026", "source": "s"},
      {"id": "x", "provider": "p", "product": "q", "gpu": "h100-sxm", "region": "r", "model": "rent",
       "gpus_per_instance": 8, "usd_per_gpu_hour": -1, "usd_per_instance_hour": 16, "date": "2026", "source": "s"}]})",
                  &errors);
  std::string all;
  for (const InputError& e : errors) all += e.Text() + "\n";
  CHECK(all.find("offers[0].usd_per_gpu_hour: must equal usd_per_instance_hour / gpus_per_instance") != std::string::npos);
  CHECK(all.find("offers[1].model: must be one of: on_demand, reserved") != std::string::npos);
  CHECK(all.find("offers[1].usd_per_gpu_hour: must be a number > 0") != std::string::npos);
  CHECK(all.find("offers[1].id: duplicate id") != std::string::npos);
  errors.clear();
  ParseOffersJson("[1, 2", &errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].path == "");
}

TEST_CASE("offers golden: billing increment and minimum per provider as published; unconfirmed ones left out") {
  const nlohmann::json f = nlohmann::json::parse(test::ReadFile(test::DataPath("offer_billing_rules.json")));
  for (const nlohmann::json& rule : f["rules"])
    for (const nlohmann::json& id : rule["offers"]) {
      const Offer* o = FindOffer(id.get<std::string>());
      REQUIRE(o != nullptr);
      CAPTURE(o->id);
      CHECK(o->billing.id == rule["rule"].get<std::string>());
      CHECK(o->billing.source.rfind("https://", 0) == 0);
      CHECK(o->billing.date.size() >= 10);
      const nlohmann::json& inc = rule["billing_increment_seconds"];
      const nlohmann::json& min = rule["minimum_billed_seconds"];
      CHECK(o->billing.increment_seconds.has_value() == !inc.is_null());
      CHECK(o->billing.minimum_seconds.has_value() == !min.is_null());
      if (!inc.is_null() && o->billing.increment_seconds) CHECK(*o->billing.increment_seconds == inc.get<double>());
      if (!min.is_null() && o->billing.minimum_seconds) CHECK(*o->billing.minimum_seconds == min.get<double>());
    }
  // Every offer either names a rule or has none: the Capacity Block (paid up front for its dates) and the
  // price-by-quote offers of Korean clouds (no published increment or minimum; what is public is in their facts).
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    CAPTURE(o.id);
    CHECK((!o.billing.id.empty() || o.id == "aws-p5.48xlarge-capacity-block-us-east-1" || o.price_by_quote));
  }
}

TEST_CASE("apply an offer: billing increment, minimum and whole instances where confirmed; the rest kept and named") {
  Scenario s = DefaultScenario();
  s.pricing.billing_increment_seconds = 3600;
  s.pricing.minimum_billed_seconds = 300;
  s.pricing.whole_nodes = false;
  const Offer* p5 = FindOffer("aws-p5.48xlarge-us-east-1");
  REQUIRE(p5);
  ApplyOffer(*p5, &s);
  CHECK(s.pricing.billing_increment_seconds == 1);
  CHECK(s.pricing.minimum_billed_seconds == 60);
  CHECK(s.pricing.whole_nodes);
  CHECK(s.cluster.gpus_per_node == 8);
  CHECK(OfferUnconfirmedFields(*p5).empty());
  CHECK(OfferBillingText(*p5, &s, false) == "billed in 1 s increments, minimum 60 s, whole instances of 8 GPUs");

  s.pricing.minimum_billed_seconds = 300;
  const Offer* azure = FindOffer("azure-nd96isr-h100-v5-eastus");
  REQUIRE(azure);
  ApplyOffer(*azure, &s);
  CHECK(s.pricing.billing_increment_seconds == 1);
  CHECK(s.pricing.minimum_billed_seconds == 300);  // not confirmed: the scenario's own value stays
  const std::vector<const char*> unconfirmed = OfferUnconfirmedFields(*azure);
  REQUIRE(unconfirmed.size() == 1);
  CHECK(std::strcmp(unconfirmed[0], "pricing.minimum_billed_seconds") == 0);
  CHECK(OfferBillingText(*azure, &s, false) ==
        "billed in 1 s increments, minimum not confirmed (kept 300 s), whole instances of 8 GPUs");
  CHECK(OfferBillingText(*azure).find("(https://azure.microsoft.com/") != std::string::npos);

  const Offer* lambda = FindOffer("lambda-8x-h100-sxm");
  REQUIRE(lambda);
  ApplyOffer(*lambda, &s);
  CHECK(s.pricing.billing_increment_seconds == 60);
  const Offer* coreweave = FindOffer("coreweave-hgx-h100");
  REQUIRE(coreweave);
  ApplyOffer(*coreweave, &s);
  CHECK(s.pricing.billing_increment_seconds == 60);
  CHECK(s.pricing.minimum_billed_seconds == 0);
  CHECK(OfferBillingText(*coreweave, &s, false) == "billed in 60 s increments, no minimum, whole instances of 8 GPUs");
  const Offer* nebius = FindOffer("nebius-h200-1gpu");
  REQUIRE(nebius);
  CHECK(OfferBillingText(*nebius, nullptr, false) == "billed in 1 s increments, no minimum, 1 GPU per instance");

  const nlohmann::json doc = nlohmann::json::parse(OfferBillingJson(*azure, &s).dump());
  CHECK(doc["billing_increment_seconds"] == 1);
  CHECK(doc["minimum_billed_seconds"].is_null());
  CHECK(doc["unconfirmed"][0] == "pricing.minimum_billed_seconds");
  CHECK(doc["whole_instances"] == true);
}

TEST_CASE("offers parser: billing rules are checked and offers must name a known one") {
  std::vector<InputError> errors;
  ParseOffersJson(R"({"schema": "gpucost/offers@1",
      "billing_rules": [{"id": "r", "provider": "p", "applies_to": "a", "date": "2026-12-02", "source": "s",
                         "billing_increment_seconds": 0, "minimum_billed_seconds": -5}],
      "offers": [
      {"id": "x", "provider": "p", "product": "q", "gpu": "h100-sxm", "region": "r", "model": "on_demand", "billing": "nope",
       "gpus_per_instance": 8, "usd_per_gpu_hour": 2, "usd_per_instance_hour": 16, "date": "2026", "source": "s"}]})",
                  &errors);
  std::string all;
  for (const InputError& e : errors) all += e.Text() + "\n";
  CHECK(all.find("billing_rules[0].billing_increment_seconds: must be a number of seconds from 1 to 86,400") != std::string::npos);
  CHECK(all.find("billing_rules[0].minimum_billed_seconds: must be a number of seconds from 0 to 86,400") != std::string::npos);
  CHECK(all.find("offers[0].billing: must name one of billing_rules[].id") != std::string::npos);
}

TEST_CASE("offer list price: in the scenario's display currency, the dollars beside won (new user's walk-through)") {
  const Offer* p5 = FindOffer("aws-p5.48xlarge-us-east-1");
  const Offer* block = FindOffer("aws-p5.48xlarge-capacity-block-us-east-1");
  const Offer* quote = FindOffer("samsung-sds-scp-gpu-server-h100");
  REQUIRE(p5 != nullptr);
  REQUIRE(block != nullptr);
  REQUIRE(quote != nullptr);
  REQUIRE(p5->usd_per_gpu_hour == 6.88);
  Scenario s = DefaultScenario();
  CHECK(OfferListPrice(*p5, s) == "$6.88/GPU-h (" + p5->date + ")");
  CHECK(OfferListPrice(*block, s) == "$4.916/GPU-h reserved (" + block->date + ")");
  CHECK(OfferListPrice(*quote, s) == "price by quote (" + quote->date + ")");
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  s.pricing.krw_per_usd = 1439;  // $6.88 x 1,439 = 9,900.32 won (by hand)
  CHECK(OfferListPrice(*p5, s) == "₩9,900/GPU-h ($6.88, " + p5->date + ")");
  s.pricing.krw_per_usd = 1500;  // $4.916 x 1,500 = 7,374 won
  CHECK(OfferListPrice(*block, s) == "₩7,374/GPU-h reserved ($4.916, " + block->date + ")");
  CHECK(OfferListPrice(*quote, s) == "price by quote (" + quote->date + ")");
}
