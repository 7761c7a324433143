#include <doctest/doctest.h>

#include <cstring>

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "evaluate.h"
#include "offers.h"
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
