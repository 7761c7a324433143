// The comparison table (core/documents/compare.h CompareTable, issue 25): the marks and ratios the page's Compare view
// shows are the core's, and the document's "table" carries them. Checked against figures worked from each
// column's own result, not from the table's code.
#include <cmath>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "documents/compare.h"
#include "documents/compare_csv.h"
#include "job/evaluate.h"
#include "documents/presets.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

CompareColumn TableColumn(const Scenario& s) {
  CompareColumn c;
  c.label = s.name;
  c.scenario = s;
  c.result = Evaluate(s);
  REQUIRE(c.result.ok);
  return c;
}

const CompareRow* Row(const std::vector<CompareRow>& rows, const std::string& key) {
  for (const CompareRow& r : rows)
    if (key == r.key) return &r;
  return nullptr;
}

Scenario TablePreset(const char* id) {
  Scenario s;
  std::string error;
  REQUIRE_MESSAGE(LoadPreset(id, &s, &error), error);
  return s;
}

}  // namespace

TEST_CASE("compare table: training columns, marks on the lowest cost and time, ratios to the first") {
  Scenario a = test::MustParse(R"({"name": "64 at $2", "cluster": {"gpus": 64}, "pricing": {"usd_per_gpu_hour": 2}})");
  Scenario b = test::MustParse(R"({"name": "128 at $3", "cluster": {"gpus": 128}, "pricing": {"usd_per_gpu_hour": 3}})");
  const Comparison c = CompareScenarios({TableColumn(a), TableColumn(b)});
  const Result& ra = c.columns[0].result;
  const Result& rb = c.columns[1].result;
  const std::vector<CompareRow> rows = CompareTable(c);
  CHECK(Row(rows, "serving.cost_per_request") == nullptr);  // no serving column: no serving rows
  REQUIRE(Row(rows, "eval.mfu") != nullptr);

  const CompareRow& cost = *Row(rows, "eval.cost_per_job");
  CHECK(cost.mark == CompareMark::kCheapest);
  CHECK(cost.marked == (ra.expected_usd <= rb.expected_usd ? 0 : 1));
  CHECK(cost.marked == c.cheapest);  // the same column the document calls cheapest
  CHECK(std::isnan(cost.vs_first[0]));
  CHECK(cost.vs_first[1] == doctest::Approx(rb.expected_usd / ra.expected_usd).epsilon(1e-12));

  const CompareRow& time = *Row(rows, "eval.expected_time");
  CHECK(time.mark == CompareMark::kFastest);
  CHECK(time.marked == 1);  // twice the GPUs finish sooner
  CHECK(time.vs_first[1] < 1);

  const CompareRow& gpus = *Row(rows, "compare.gpus");  // read from the scenarios: 128 / 64
  CHECK(gpus.values[0] == 64);
  CHECK(gpus.vs_first[1] == 2);
  CHECK(gpus.marked == -1);

  // The document's table is the same rows; money in the comparison's currency (USD here).
  const json doc = json::parse(CompareToJson(c));
  REQUIRE(doc["table"].size() == rows.size());
  CHECK(doc["table"][0]["key"] == "eval.cost_per_job");
  CHECK(doc["table"][0]["marked"] == c.cheapest);
  CHECK(doc["table"][0]["values"][1].get<double>() == doctest::Approx(rb.expected_usd).epsilon(1e-12));
  CHECK(doc["table"][0]["vs_first"][0].is_null());
}

// 2026-12-07's walk-through: on-demand, reserved and owned took the same 387 days, and the first was marked fastest.
TEST_CASE("compare table: a time several columns share marks none fastest; the cheapest is still marked") {
  Scenario a = test::MustParse(R"({"name": "at $2", "cluster": {"gpus": 64}, "pricing": {"usd_per_gpu_hour": 2}})");
  Scenario b = test::MustParse(R"({"name": "at $3", "cluster": {"gpus": 64}, "pricing": {"usd_per_gpu_hour": 3}})");
  const Comparison c = CompareScenarios({TableColumn(a), TableColumn(b)});
  REQUIRE(c.columns[0].result.expected_hours == c.columns[1].result.expected_hours);
  CHECK(c.fastest == -1);
  CHECK(c.cheapest == 0);
  const std::vector<CompareRow> rows = CompareTable(c);  // kept: Row points into it
  const CompareRow& time = *Row(rows, "eval.expected_time");
  CHECK(time.marked == -1);
  CHECK(json::parse(CompareToJson(c))["scenarios"][0]["fastest"] == false);
}

TEST_CASE("compare table: an invalid column is never marked and has no figure") {
  Scenario a = test::MustParse(R"({"cluster": {"gpus": 64}})");
  CompareColumn bad;
  bad.label = "broken";
  bad.scenario = a;
  bad.result.ok = false;
  bad.result.expected_usd = 1;  // cheaper than anything, but not a result
  const Comparison c = CompareScenarios({TableColumn(a), bad});
  for (const CompareRow& row : CompareTable(c)) {
    CAPTURE(row.key);
    CHECK(row.marked != 1);
    CHECK(std::isnan(row.values[1]));
    CHECK(std::isnan(row.vs_first[1]));
  }
}

TEST_CASE("compare table: serving columns drop the training rows, and the period carries no fastest mark") {
  const Scenario chat = TablePreset("llama2-70b-chat-h100");
  Scenario cheaper = chat;
  cheaper.pricing.usd_per_gpu_hour = chat.pricing.usd_per_gpu_hour / 2;  // the same service at half the price
  const Comparison c = CompareScenarios({TableColumn(chat), TableColumn(cheaper)});
  const std::vector<CompareRow> rows = CompareTable(c);
  CHECK(Row(rows, "eval.mfu") == nullptr);
  CHECK(Row(rows, "eval.goodput") == nullptr);
  CHECK(Row(rows, "eval.cost_per_job") == nullptr);
  const CompareRow& period_cost = *Row(rows, "serving.cost_of_period");
  CHECK(period_cost.marked == 1);
  CHECK(period_cost.vs_first[1] == doctest::Approx(c.columns[1].result.expected_usd / c.columns[0].result.expected_usd));
  const CompareRow& period = *Row(rows, "serving.period");
  CHECK(period.mark == CompareMark::kNone);
  CHECK(period.marked == -1);
  const CompareRow& per_request = *Row(rows, "serving.cost_per_request");
  CHECK(per_request.marked == 1);
  CHECK(per_request.values[1] < per_request.values[0]);
  const CompareRow& met = *Row(rows, "serving.slo_met");
  CHECK(std::isnan(met.vs_first[1]));  // no ratio of yes and no
}

TEST_CASE("compare table: a serving column beside a training one has '-' for the other's figures") {
  const Comparison c = CompareScenarios({TableColumn(test::MustParse("{}")), TableColumn(TablePreset("llama2-70b-chat-h100"))});
  const std::vector<CompareRow> rows = CompareTable(c);
  REQUIRE(Row(rows, "eval.mfu") != nullptr);  // a training column keeps its rows
  const CompareRow& ttft = *Row(rows, "serving.ttft_p90");
  CHECK(std::isnan(ttft.values[0]));
  CHECK(ttft.values[1] == c.columns[1].result.inference.ttft_ms.p90);
  CHECK(ttft.marked == 1);
  CHECK(std::isnan(ttft.vs_first[1]));  // the first column has no TTFT to compare with
}

TEST_CASE("compare: an unnamed column is named in the reader's language; the English name is the documents'") {
  // A new user saw "h100-sxm x16 on-demand" as a pinned column in Korean (2026-12-07).
  Scenario s = DefaultScenario();
  s.name[0] = 0;
  std::snprintf(s.cluster.gpu, kTextCapacity, "%s", "h100-sxm");
  s.cluster.gpus = 16;
  s.pricing.model = static_cast<int>(PricingModel::kSpot);
  CHECK(ScenarioDisplayName(s, Lang::kEn) == "h100-sxm x16 spot");
  CHECK(ScenarioDisplayName(s, Lang::kKo) == "h100-sxm 16장 선점형(스팟)");
  // A LoRA and a QLoRA plan of the same cluster read apart (2026-12-07: both "h100-sxm x8 on-demand").
  s.finetune.mode = static_cast<int>(Finetune::kLora);
  CHECK(ScenarioDisplayName(s, Lang::kEn) == "h100-sxm x16 spot LoRA");
  s.finetune.mode = static_cast<int>(Finetune::kQlora);
  CHECK(ScenarioDisplayName(s, Lang::kKo) == "h100-sxm 16장 선점형(스팟) QLoRA");
  std::snprintf(s.name, sizeof s.name, "%s", "my plan");  // a name is used as typed
  CHECK(ScenarioDisplayName(s, Lang::kKo) == "my plan");
}
