// Issue 25: the page's views of a scenario are the core documents, whatever its workload, pricing model, offer or
// currency: view("result") is `gpucost eval`'s document, view("pricing") prices the scenario's own model at what
// eval says, and the comparison's column of the pinned scenario holds the same total (1e-9 relative).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "app.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "documents/result_json.h"
#include "money/tco.h"

using namespace gpucost;
using namespace gpucost::app;
using nlohmann::json;

namespace {

bool Near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

const char* kShape = R"("params": 68.98e9, "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "ffn_hidden": 28672,
                        "ffn_gated": true, "vocab": 32000, "tied_embeddings": false)";

}  // namespace

TEST_CASE("the page's result, pricing and compare views agree with eval for serving and training, offers and VAT") {
  const std::string workloads[] = {
      R"("workload": {"kind": "training", "params": 7e9, "tokens": 2e10}, "cluster": {"gpus": 60, "mfu": 0.4})",
      std::string(R"("workload": {"kind": "inference", )") + kShape +
          R"(}, "parallel": {"tensor_parallel": 4}, "inference": {"requests": 200000, "decode": {"replicas": 3}})",
      std::string(R"("workload": {"kind": "inference", )") + kShape +
          R"(}, "parallel": {"tensor_parallel": 4}, "inference": {"requests_per_second": 2, "decode": {"replicas": 3}})"};
  const char* const pricings[] = {
      R"("model": "spot", "usd_per_gpu_hour": 1.9)",
      R"("model": "reserved", "offer": "aws-p5.48xlarge-ap-northeast-2", "usd_per_gpu_hour": 6, "currency": "KRW")",
      R"("model": "owned", "offer": "samsung-sds-scp-gpu-server-h100", "krw_per_gpu_hour": 9500, "currency": "KRW", "vat_recoverable": true)",
      R"("model": "on_demand", "offer": "gcp-a3-ultragpu-8g-us-central1")"};
  for (const std::string& w : workloads)
    for (const char* p : pricings) {
      const std::string text = "{" + w + R"(, "pricing": {)" + p + "}}";
      CAPTURE(text);
      AppState app;
      AppInit(app);
      REQUIRE(AppLoadScenario(app, text) == "");
      const ScenarioParse parsed = ParseScenarioJson(text);
      REQUIRE(parsed.ok());
      const Result r = Evaluate(parsed.scenario);
      REQUIRE(r.ok);
      CHECK(AppViewDocument(app, "result") == ResultToJson(parsed.scenario, r));
      REQUIRE(AppShowView(app, "pricing"));
      const json pricing = json::parse(AppViewDocument(app, "pricing"));
      const int model = parsed.scenario.pricing.model;
      CHECK(Near(pricing["models"][model]["total_usd"].get<double>(), r.expected_usd));
      REQUIRE(AppPin(app));
      REQUIRE(AppShowView(app, "compare"));
      const json compare = json::parse(AppViewDocument(app, "compare"));
      CHECK(Near(compare["scenarios"][0]["result"]["cost"]["expected_usd"].get<double>(), r.expected_usd));
    }
}
