// app_views.cpp — window.gpucost.view(name) / show(name): every view's document is the CLI's --format json of
// the same question, from the same core function (issue 14). "" until the view's (sliced) work has finished.
//   result       gpucost eval                     pricing   gpucost pricing
//   sweep        gpucost sweep --gpus             sensitivity  gpucost sensitivity
//   mc           gpucost mc --trials N --seed S   plan      gpucost plan --top 10 [--objective cost]
//   compare      gpucost compare <pinned...>      fleet     gpucost fleet <the document's "input">
#include <string>
#include <vector>

#include "app.h"
#include "compare.h"
#include "montecarlo.h"
#include "plan.h"
#include "result_json.h"
#include "sweep.h"

namespace gpucost::app {
namespace {

struct ViewTarget {
  const char* name;
  View view;
};
const ViewTarget kTargets[] = {{"result", View::kResults}, {"pricing", View::kCompare},   {"sweep", View::kCharts},
                               {"sensitivity", View::kSensitivity}, {"mc", View::kCharts}, {"plan", View::kPlan},
                               {"compare", View::kCompare}, {"fleet", View::kFleet}};

std::string CompareDocument(const AppState& app) {
  std::vector<CompareColumn> columns;
  for (const Pinned& p : app.pinned) columns.push_back({"", ScenarioLabel(p.scenario), p.scenario, p.result});
  return CompareToJson(CompareScenarios(std::move(columns)));
}

}  // namespace

void AppUpdatePricing(AppState& app) {
  PricingState& p = app.pricing;
  if (p.for_evaluation == app.evaluations) return;
  p.for_evaluation = app.evaluations;
  p.document.clear();
  if (!app.result.ok) return;
  p.comparison = ComparePricingModels(app.scenario);
  if (p.comparison.ok) p.document = PricingToJson(app.scenario, p.comparison);
}

std::string AppViewDocument(AppState& app, const std::string& name) {
  AppRefresh(app);
  if (name == "result") return app.result.ok ? ResultToJson(app.scenario, app.result) : "";
  if (!app.result.ok) return "";
  if (name == "pricing") {
    AppUpdatePricing(app);
    return app.pricing.document;
  }
  if (name == "sweep") {
    const GpuSweepState& g = app.charts.gpus;
    return !g.stale && g.run && g.run->done ? SweepToJson(g.run->options, g.run->result) : "";
  }
  if (name == "sensitivity")
    return app.sensitivity.for_evaluation == app.evaluations ? app.sensitivity.document : "";
  if (name == "mc") {  // an inference scenario's request simulation is not a page view yet (issue 17's)
    if (Kind(app.scenario) == WorkloadKind::kInference) return "";
    const McState& mc = app.charts.mc;
    return mc.have_summary && !mc.stale && !mc.run ? McSummaryToJson(mc.summary, app.result) : "";
  }
  if (name == "plan") {
    const PlanState& p = app.plan;
    return p.search && p.search->done && !p.running && p.for_evaluation == app.evaluations ? PlanToJson(*p.search) : "";
  }
  if (name == "compare") return app.pinned.empty() ? "" : CompareDocument(app);
  if (name == "fleet") return !app.fleet.stale && app.fleet.for_evaluation == app.evaluations ? app.fleet.document : "";
  return "";
}

bool AppShowView(AppState& app, const std::string& name) {
  for (const ViewTarget& t : kTargets) {
    if (name != t.name) continue;
    app.request_view = static_cast<int>(t.view);
    AppRefresh(app);
    if (t.view == View::kPlan && app.result.ok && (!app.plan.search || app.plan.for_evaluation != app.evaluations))
      AppStartPlanSearch(app);
    if (t.view == View::kSensitivity) AppUpdateSensitivity(app);
    if (t.view == View::kFleet) AppUpdateFleet(app);
    if (name == "pricing") AppUpdatePricing(app);
    app.busy = true;  // draw the frames that run the view's sliced work
    return true;
  }
  return false;
}

}  // namespace gpucost::app
