// app_views.cpp — window.gpucost.view(name) / show(name): every view's document is the CLI's --format json of
// the same question, from the same core function (issue 14). "" until the view's (sliced) work has finished.
//   result       gpucost eval                     pricing   gpucost pricing
//   sweep        gpucost sweep --gpus             sensitivity  gpucost sensitivity
//   mc           gpucost mc --trials N --seed S   plan      gpucost plan --top 10 [--objective cost]
//   compare      gpucost compare <pinned...>      fleet     gpucost fleet <the document's "input">
//   evidence     gpucost catalog evidence <scenario> --format json (the published runs, fetched on first use)
//   actual       gpucost actual <scenario> <the run record or log dropped, picked or pasted> (issue 49)
// An inference scenario (issue 17): mc is `gpucost mc --trials 20000 --seed 1 --max-work 3000000`
// (the request simulation under the page's work cap), plan is
// `gpucost plan --top 10` (the serving plan), sensitivity the serving tornado; sweep and fleet have no document
// (the CLI refuses them with the words the views show).
#include <string>
#include <vector>

#include "documents/montecarlo_json.h"
#include "documents/sweep_json.h"
#include "documents/pricing_json.h"
#include "app.h"
#include "app_actual.h"
#include "documents/compare.h"
#include "documents/plan_json.h"
#include "documents/result_json.h"

namespace gpucost::app {
namespace {

struct ViewTarget {
  const char* name;
  View view;
};
const ViewTarget kTargets[] = {{"result", View::kResults}, {"pricing", View::kCompare},   {"sweep", View::kCharts},
                               {"sensitivity", View::kSensitivity}, {"mc", View::kCharts}, {"plan", View::kPlan},
                               {"compare", View::kCompare}, {"fleet", View::kFleet}, {"evidence", View::kEvidence},
                               {"actual", View::kActual}};

}  // namespace

Comparison AppComparison(const AppState& app) {
  std::vector<CompareColumn> columns;
  for (const Pinned& p : app.pinned)
    columns.push_back({"", ScenarioLabel(p.scenario), p.scenario, p.result, p.note.Text(Lang::kEn), p.label, p.note});
  Comparison c = CompareScenarios(std::move(columns));
  // One price source for every column (the serving options, issue 45): named as `compare --serving-options` does.
  bool shared = !app.pinned.empty();
  for (const Pinned& p : app.pinned) shared = shared && !p.price_source.empty() && p.price_source == app.pinned[0].price_source;
  if (shared) c.price_source = app.pinned[0].price_source;
  return c;
}

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
  if (name == "evidence") return AppUpdateEvidence(app) ? app.evidence.document : "";
  if (name == "actual") return app.actual && AppUpdateActual(app) ? app.actual->document : "";
  if (!app.result.ok) return "";
  if (name == "pricing") {
    AppUpdatePricing(app);
    return app.pricing.document;
  }
  const bool serving = Kind(app.scenario) == WorkloadKind::kInference;  // issue 17: its own documents
  if (serving && (name == "sweep" || name == "fleet")) return "";      // refused, in words (ui_serving.cpp)
  if (serving && name == "mc") return app.serving.sim_for == app.evaluations ? app.serving.sim_document : "";
  if (serving && name == "plan") return app.serving.plan_for == app.evaluations ? app.serving.plan_document : "";
  if (name == "sweep") {
    const GpuSweepState& g = app.charts.gpus;
    return !g.stale && g.run && g.run->done ? SweepToJson(g.run->options, g.run->result) : "";
  }
  if (name == "sensitivity")
    return app.sensitivity.for_evaluation == app.evaluations ? app.sensitivity.document : "";
  if (name == "mc") {
    const McState& mc = app.charts.mc;
    return mc.have_summary && !mc.stale && !mc.run ? McSummaryToJson(mc.summary, app.result) : "";
  }
  if (name == "plan") {
    const PlanState& p = app.plan;
    return p.search && p.search->done && !p.running && p.for_evaluation == app.evaluations ? PlanToJson(*p.search) : "";
  }
  if (name == "compare") return app.pinned.empty() ? "" : CompareToJson(AppComparison(app));
  if (name == "fleet") return !app.fleet.stale && app.fleet.for_evaluation == app.evaluations ? app.fleet.document : "";
  return "";
}

bool AppShowView(AppState& app, const std::string& name) {
  for (const ViewTarget& t : kTargets) {
    if (name != t.name) continue;
    app.request_view = static_cast<int>(t.view);
    AppRefresh(app);
    if (t.view == View::kActual) {  // the run dropped or picked (gpucost actual SCENARIO RUN); its strings on first use
      if (app.actual) AppUpdateActual(app);
      app.busy = true;
      return true;
    }
    if (t.view == View::kEvidence) {  // fetches the published runs on first use
      AppUpdateEvidence(app);
      app.busy = true;
      return true;
    }
    if (Kind(app.scenario) == WorkloadKind::kInference) {  // an inference scenario's views (ui_serving.cpp)
      if (name == "mc") AppUpdateServingSim(app);
      if (t.view == View::kPlan) AppUpdateServingPlan(app);
      if (t.view == View::kSensitivity) AppUpdateSensitivity(app);
      if (name == "pricing") AppUpdatePricing(app);
      app.busy = true;
      return true;
    }
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
