// Adopting a searched layout (the Layouts view's Adopt, issue 30): the layout goes into the scenario, and the table
// it came from is not called stale ("the scenario changed since this search") by the change Adopt itself made.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "job/validate.h"
#include "app.h"
#include "scenario/json_io.h"

using namespace gpucost;
using namespace gpucost::app;

TEST_CASE("Adopt puts the plan's layout in the scenario and keeps the search current") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadScenario(app, R"({"workload": {"model": "llama-2-7b", "tokens": 1e11}, "cluster": {"gpus": 64},
                                   "parallel": {"global_batch": 512}})") == "");
  AppRefresh(app);
  AppStartPlanSearch(app);
  REQUIRE(app.plan.running);
  PlanRun(app.plan.search.get());
  PlanPriceJobs(app.scenario, app.plan.search.get());
  app.plan.running = false;
  REQUIRE(app.plan.search->count > 0);
  const Layout chosen = app.plan.search->best[0].layout;
  AppAdoptPlan(app, 0);
  CHECK(app.scenario.parallel.tensor_parallel == chosen.tensor);
  CHECK(app.scenario.parallel.pipeline_parallel == chosen.pipeline);
  CHECK(app.result.ok);
  CHECK(app.plan.for_evaluation == app.evaluations);  // no "changed since this search" right after Adopt
  CHECK(app.scenario.parallel.data_parallel == 0);  // automatic: the GPU count decides it
  app.scenario.cluster.gpus = 128;  // a real change afterwards: stale again, and still computable (issue 30)
  AppScenarioEdited(app);
  AppRefresh(app);
  CHECK(app.plan.for_evaluation != app.evaluations);
  CHECK(ValidateScenario(app.scenario).empty());
  CHECK(app.result.ok);
}

TEST_CASE("an adopted plan's MFU beyond the evidence carries the Layouts table's flag into the result (issue 30)") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadScenario(app, R"({"workload": {"model": "llama-2-7b", "tokens": 1e11}, "cluster": {"gpus": 64},
                                   "parallel": {"global_batch": 512}})") == "");
  AppRefresh(app);
  AppStartPlanSearch(app);
  PlanRun(app.plan.search.get());
  PlanPriceJobs(app.scenario, app.plan.search.get());
  app.plan.running = false;
  const PlanSearch plans = *app.plan.search;
  int flagged = 0;
  for (int i = 0; i < plans.count; ++i) {
    const Scenario before = app.scenario;
    app.plan.search = std::make_unique<PlanSearch>(plans);
    AppAdoptPlan(app, i);
    bool warned = false;
    for (int w = 0; w < app.result.warnings.count; ++w)
      warned = warned || std::string(app.result.warnings.code[w]) == "mfu_beyond_evidence";
    CAPTURE(i);
    CHECK(warned == plans.best[i].step.beyond_evidence);  // the table's "(!)" and the headline's warning agree
    flagged += plans.best[i].step.beyond_evidence;
    app.scenario = before;
    AppScenarioEdited(app);
  }
  MESSAGE(flagged << " of " << plans.count << " plans are beyond the evidence");
}

TEST_CASE("a batch on auto: the Layouts view searches, Adopt sets the batch it ran at and costs what the row said") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadScenario(app, R"({"workload": {"model": "llama-2-7b", "tokens": 1e11}, "cluster": {"gpus": 64}})") == "");
  AppRefresh(app);
  REQUIRE(app.scenario.parallel.global_batch == 0);
  AppStartPlanSearch(app);
  REQUIRE(app.plan.error.empty());  // it was "parallel.global_batch is needed to plan" (issue 30)
  REQUIRE(app.plan.running);
  PlanRun(app.plan.search.get());
  PlanPriceJobs(app.scenario, app.plan.search.get());
  app.plan.running = false;
  REQUIRE(app.plan.search->count > 0);
  const PlanEntry row = app.plan.search->best[0];
  AppAdoptPlan(app, 0);
  CHECK(app.scenario.parallel.global_batch == 64);  // one sequence per GPU, as searched
  CHECK(app.notice.find("64") != std::string::npos);
  REQUIRE(app.result.ok);
  CHECK(app.result.expected_usd == doctest::Approx(row.job_usd).epsilon(1e-9));
}
