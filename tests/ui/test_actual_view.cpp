// Plan vs actual on the page (issue 49, web/ui_actual.cpp): a run handed to the page becomes the view's run, its
// document is `gpucost actual`'s (the same core function on the same scenario and text), and Adopt puts the calibrated
// scenario in the editor, which then prices at the document's next_job_usd.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "app.h"
#include "app_actual.h"
#include "documents/actual.h"
#include "documents/result_json.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"

using namespace gpucost;
using namespace gpucost::app;

namespace {

const char* kPlan = R"({"name": "plan", "workload": {"params": 7e9, "tokens": 2e11},
  "cluster": {"gpu": "h100-sxm", "gpus": 64, "mfu": 0.42}, "parallel": {"tensor_parallel": 8},
  "reliability": {"gpu_mtbf_hours": 40000}, "pricing": {"usd_per_gpu_hour": 2.4}})";
const char* kRun = R"({"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 64, "wall_hours": 90, "tokens": 2e11,
  "tokens_per_second": [610000, 640000, 655000], "checkpoints": {"count": 40, "write_seconds": 35},
  "interruptions": [{"lost_hours": 0.9, "cause": "hardware"}]})";

}  // namespace

TEST_CASE("a run handed to the page: view(\"actual\") is gpucost actual's document for the edited scenario") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadScenario(app, kPlan) == "");
  CHECK(AppViewDocument(app, "actual") == "");  // no run yet
  REQUIRE(AppImportText(app, "run.json", kRun) == "");  // routed to Plan vs actual, not loaded as a scenario
  CHECK(app.request_view == static_cast<int>(View::kActual));
  REQUIRE(AppShowView(app, "actual"));
  const Scenario plan = ParseScenarioJson(ScenarioToJson(app.scenario, false)).scenario;
  const RunInput run = ReadRunInput(kRun, "run.json");
  REQUIRE(run.ok);
  const ActualDoc d = CompareActual(plan, run.record);
  REQUIRE(d.ok);
  CHECK(AppViewDocument(app, "actual") == ActualToJson(plan, d));
  // An edit of the scenario: the document follows it.
  app.scenario.pricing.usd_per_gpu_hour = 3.1;
  AppScenarioEdited(app);
  const nlohmann::json after = nlohmann::json::parse(AppViewDocument(app, "actual"));
  CHECK(after["planned_usd"].get<double>() > nlohmann::json::parse(ActualToJson(plan, d))["planned_usd"].get<double>());
}

TEST_CASE("Adopt: the calibrated scenario goes into the editor and prices at next_job_usd") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadScenario(app, kPlan) == "");
  REQUIRE(AppLoadRun(app, "run.json", kRun) == "");
  REQUIRE(AppUpdateActual(app));
  const nlohmann::json doc = nlohmann::json::parse(app.actual->document);
  AppAdoptCalibrated(app);
  AppRefresh(app);
  CHECK(app.scenario.cluster.mfu == doctest::Approx(doc["calibrated"]["scenario"]["cluster"]["mfu"].get<double>()));
  CHECK(app.result.expected_usd == doc["calibrated"]["next_job_usd"].get<double>());
  CHECK(app.notice.rfind("Adopted the calibrated scenario: cluster.mfu", 0) == 0);
}

TEST_CASE("a log dropped on the page is read as gpucost log reads it; a bad one is refused and the run kept") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadScenario(app, kPlan) == "");
  const std::string log =
      " [2025-06-01 10:00:20.000000] iteration       10/    1000 | consumed samples:         2560 | elapsed time per "
      "iteration (ms): 2000.0 | global batch size:   256 |\n"
      " [2025-06-01 10:00:40.000000] iteration       20/    1000 | consumed samples:         5120 | elapsed time per "
      "iteration (ms): 2000.0 | global batch size:   256 |\n";
  REQUIRE(AppImportText(app, "train.log", log) == "");
  REQUIRE(app.actual);
  CHECK(app.actual->input.from_log);
  CHECK(app.actual->input.record.step_seconds.size() == 2);
  // A file that is neither a run nor a scenario: refused by the import as before, the run stays.
  CHECK(!AppImportText(app, "notes.txt", "hello there\n").empty());
  CHECK(app.actual->run_name == "train.log");
  // A log cut mid-line: the log reader's refusal, as gpucost log words it (not the scenario importer's); the run stays.
  const std::string cut =
      " [2025-06-01 10:00:20.000000] iteration       10/    1000 | consumed samples:         2560 | elapsed time per "
      "iteration (ms):\n"
      " [2025-06-01 10:00:40.000000] iteration       20/    1000 | consumed samples:         5120 | elapsed time per "
      "iteration (ms):\n";
  CHECK(AppImportText(app, "cut.log", cut).find("2 lines look like iteration lines but none could be read (first: line 1)") !=
        std::string::npos);
  CHECK(app.actual->run_name == "train.log");
  // A run record with a bad field: refused naming the field; the run stays.
  CHECK(AppLoadRun(app, "bad.json", R"({"gpu": "h100-sxm", "gpus": -1})").find("gpus") != std::string::npos);
  CHECK(app.actual->run_name == "train.log");
}
