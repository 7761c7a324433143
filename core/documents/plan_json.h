// plan_json.h — the plan document.
#pragma once
#include <string>

#include "job/result.h"
#include "scenario/scenario.h"
#include "training/plan.h"
#include "explore/plan_prices.h"

namespace gpucost {

// The plan document of `gpucost plan --format json` and the page's view("plan"): {"evaluated", "fitting",
// "seconds", "objective", "top", "currency", "plans": [{"parallel", "step", "memory", "job"}]}. "seconds" is
// the search's own time (the only figure that differs between runs).
std::string PlanToJson(const PlanSearch& search, int indent = 2);

// What the Results' "apply a layout that fits" does for a training job whose layout does not fit in memory (issue
// 47): the fastest layout that fits on the scenario's own GPU count when there is one (result memory_fit_at_gpus;
// the cluster stays), else the smallest GPU count that fits with its layout (memory_smallest_fit; the cluster
// grows to it). Data parallelism stays automatic, and a global batch left on auto stays on auto: the search's batch
// of one sequence per GPU is not written into the scenario, so typing another GPU count later keeps the job priced.
// A given cluster.mfu is cleared only when the step can then be predicted (a global batch is given), so that the
// headline runs at the layout's predicted step. `applied` is false when no layout fits.
struct MemoryFix {
  bool applied = false;
  bool kept_gpus = false;     // the cluster's GPU count stayed
  bool mfu_cleared = false;   // a given MFU was cleared (say so)
  std::int64_t gpus = 0;      // the GPU count after
};
MemoryFix ApplyMemoryFit(const Result& r, Scenario* s);

}  // namespace gpucost
