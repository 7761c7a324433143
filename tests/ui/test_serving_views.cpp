// Issue 17: the page's views of an inference scenario are the CLI verbs' documents from the same core functions
// (app_views.cpp, ui_serving.cpp), without drawing: mc is the request simulation, plan the serving plan,
// sensitivity the serving tornado, sweep and fleet have none; "Compare serving options" pins ServingOptions' three
// columns; the text mirror speaks of requests and tokens, not completed jobs.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdio>

#include "documents/inference_sim_json.h"
#include "documents/sensitivity_json.h"
#include "documents/inference_plan_json.h"
#include "app.h"
#include "documents/compare.h"
#include "job/evaluate.h"
#include "explore/inference_plan.h"
#include "explore/inference_sim.h"
#include "documents/inference_views.h"
#include "explore/sensitivity.h"

using namespace gpucost;
using namespace gpucost::app;

namespace {
// The serving plan runs in slices, one a frame (issue 31): the frames that follow until it is done.
int FinishServingPlan(AppState& app) {
  int frames = 0;
  for (; app.serving.plan_search && frames < 100000; ++frames) AppStepServingPlan(app);
  return frames;
}
// So does the request simulation (the frames that draw the Charts view).
int FinishServingSim(AppState& app) {
  int frames = 0;
  for (; app.serving.sim_run && frames < 100000; ++frames) AppUpdateServingSim(app);
  return frames;
}
}  // namespace

TEST_CASE("an inference scenario's views are the serving documents; sweep and fleet have none") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadPreset(app, "llama2-70b-chat-h100") == "");
  for (const char* name : {"mc", "plan", "sensitivity", "sweep", "fleet"}) REQUIRE(AppShowView(app, name));
  FinishServingSim(app);
  CHECK(AppViewDocument(app, "mc") == InferenceSimToJson(app.scenario, SimulateInference(app.scenario, kServingPageRequests, kMcSeed)));
  FinishServingPlan(app);
  InferencePlan plan = PlanInference(app.scenario, kServingPlanTop);
  plan.seconds = app.serving.plan.seconds;  // the page's own wall time
  CHECK(AppViewDocument(app, "plan") == InferencePlanToJson(app.scenario, plan));
  CHECK(AppViewDocument(app, "sensitivity") == SensitivityToJson(AnalyzeSensitivity(app.scenario)));
  CHECK(AppViewDocument(app, "sweep") == "");
  CHECK(AppViewDocument(app, "fleet") == "");
  const std::string mirror = AppTextMirror(app);
  CHECK(mirror.find("per request") != std::string::npos);
  CHECK(mirror.find("per completed job") == std::string::npos);
}

TEST_CASE("\"Compare serving options\" replaces the pinned columns with the three serving options") {
  AppState app;
  AppInit(app);
  CHECK(AppPin(app));  // a training column pinned before
  REQUIRE(AppLoadPreset(app, "llama2-70b-chat-h100") == "");
  REQUIRE(AppPinServingOptions(app) == 3);
  REQUIRE(app.pinned.size() == 3);
  Comparison c;
  Message error;
  REQUIRE(ServingOptions(app.scenario, &c, &error));
  CHECK(AppViewDocument(app, "compare") == CompareToJson(c));
  CHECK(app.pinned[2].scenario.inference.mode == static_cast<int>(InferenceMode::kDisaggregated));
  // A training scenario has no serving options: nothing is pinned and the page says why.
  AppState training;
  AppInit(training);
  CHECK(AppPinServingOptions(training) == 0);
  CHECK(training.error.find("not an inference scenario") != std::string::npos);
}

TEST_CASE("the comparison's CSV carries the serving rows of inference columns") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadPreset(app, "llama2-70b-chat-h100") == "");
  REQUIRE(AppPinServingOptions(app) == 3);
  const std::string csv = CompareCsv(app);
  for (const char* row : {"serving.usd_per_request,Cost per request,USD,", "serving.per_million_output_tokens,Per million output tokens,USD,",
                          "serving.ttft_p90_ms,TTFT P90,ms,", "serving.tpot_p90_ms,TPOT P90,ms,",
                          "serving.slo_met,Latency target met,true/false,true,true,true", "serving.gpus,GPUs (serving),GPUs,"})
    CHECK_MESSAGE(csv.find(row) != std::string::npos, row);
  // The figure of a column is its result's (money in the comparison's currency: USD here), at full precision.
  const std::string per_request = "serving.usd_per_request,Cost per request,USD," + nlohmann::json(app.pinned[0].result.inference.usd_per_request).dump() + ",";
  CHECK(csv.find(per_request) != std::string::npos);
}

TEST_CASE("the serving plan is searched when first shown and on the button, not on every edit") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadPreset(app, "llama2-70b-chat-h100") == "");
  REQUIRE(AppShowView(app, "plan"));
  const long searched = app.serving.plan_for;
  CHECK(searched == app.evaluations);
  app.scenario.inference.requests_per_second = 12;  // an edit
  AppScenarioEdited(app);
  AppRefresh(app);
  CHECK(app.serving.plan_for == searched);          // the old plan stays, no document for the new scenario
  CHECK(AppViewDocument(app, "plan") == "");
  AppUpdateServingPlan(app);                        // what the button does: a new search, run in slices
  FinishServingPlan(app);
  CHECK(AppViewDocument(app, "plan").find("\"evaluated\"") != std::string::npos);
}

// Issue 30: the serving plan has Adopt, as the layout plan does. Adopting a configuration puts what gpucost plan
// says to set (mode, pools, batch cap) into the scenario, whose evaluation then costs what the plan's row said.
TEST_CASE("the serving plan's Adopt puts a configuration into the scenario at the plan's cost per request") {
  AppState app;
  AppInit(app);
  REQUIRE(AppLoadPreset(app, "llama2-70b-chat-h100") == "");
  REQUIRE(AppShowView(app, "plan"));
  FinishServingPlan(app);
  REQUIRE(app.serving.plan.ok);
  REQUIRE(app.serving.plan.best.size() >= 2);
  for (int index : {1, 0}) {
    CAPTURE(index);
    const InferenceCandidate c = app.serving.plan.best[static_cast<std::size_t>(index)];
    AppAdoptServingPlan(app, index);
    REQUIRE(app.result.ok);
    const InferenceInputs& in = app.scenario.inference;
    CHECK(in.mode == static_cast<int>(c.disaggregated ? InferenceMode::kDisaggregated : InferenceMode::kColocated));
    CHECK(std::string(in.decode.gpu) == c.decode_gpu);
    CHECK(in.decode.tensor_parallel == c.decode_tp);
    CHECK(in.max_batch == c.max_batch);
    // Independent of the page: the core's evaluation of the plan's own configuration.
    CHECK(app.result.inference.usd_per_request == doctest::Approx(c.usd_per_request).epsilon(1e-9));
    CHECK(app.result.inference.usd_per_request == doctest::Approx(Evaluate(ApplyInferenceCandidate(app.scenario, c)).inference.usd_per_request).epsilon(1e-12));
    CHECK(app.serving.plan_for == app.evaluations);  // the plan still stands: not "changed since the search"
    CHECK(app.notice.find("#" + std::to_string(index + 1)) != std::string::npos);
  }
  AppAdoptServingPlan(app, 99);  // out of range: nothing happens
  CHECK(app.result.ok);
}

TEST_CASE("a pool of one replica reads \"1 replica\", in English and Korean (issue 30)") {
  InferencePool p;
  p.gpu_id = "h100-sxm";
  p.tensor_parallel = 8;
  p.utilization = 0.5;
  p.replicas = 1;
  CHECK(InferencePoolText(p) == "1 replica x 8 NVIDIA H100 SXM5 80GB, average load 50.0% of capacity");
  p.replicas = 3;
  CHECK(InferencePoolText(p) == "3 replicas x 8 NVIDIA H100 SXM5 80GB, average load 50.0% of capacity");
  SetLanguage(Lang::kKo);
  p.replicas = 1;
  CHECK(InferencePoolText(p) == "복제본 1개 x 8 NVIDIA H100 SXM5 80GB, 평균 부하는 용량의 50.0%");
  SetLanguage(Lang::kEn);
}
