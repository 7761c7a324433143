// plan.h — search over parallel layouts (issue 10): for a scenario's GPU count and global batch, enumerate
// tensor, pipeline and data-parallel degrees, micro-batch, pipeline interleaving, recompute, sequence
// parallelism, ZeRO stage and overlap of the gradient reduction; drop layouts that do not fit in memory
// (memory.h); rank the rest by step time (steptime.h) and keep the best K with their breakdowns.
//
// No allocation per layout: the candidate lists are fixed arrays inside PlanSearch and the best plans are
// kept in a fixed, sorted array. The search can run at once (PlanRun) or in slices (PlanStep), so the page
// can spread it over frames with a progress bar.
//
// Objective "cost": at a fixed GPU count, price and billing, the expected cost per completed job grows
// with the step time, so the order is the same as for "time"; each kept plan carries its cost from
// Evaluate() with the layout and its predicted MFU.
#pragma once
#include <cstdint>
#include <string>

#include "training/layout.h"
#include "training/memory.h"
#include "scenario/scenario.h"
#include "training/steptime.h"
#include "base/message.h"

namespace gpucost {

enum class PlanObjective : int { kTime = 0, kCost };
constexpr int kMaxPlans = 32;
constexpr int kMaxDivisors = 1536;  // a count up to 1e9 has at most 1344 divisors

struct PlanEntry {
  Layout layout;
  StepTime step;
  MemoryBreakdown memory;
  double job_hours = 0;       // expected hours of the whole job (Evaluate with the predicted MFU)
  double job_usd = 0;         // expected USD per completed job
  double job_cost = 0;        // the same in the scenario's currency (PlanSearch::currency)
};

struct PlanSearch {
  // Inputs (PlanBegin fills them from the scenario).
  ModelShape shape;
  Layout base;                // optimizer, global batch
  // parallel.global_batch left on auto: the search runs at one sequence per GPU per step (the smallest batch every
  // layout of `gpus` GPUs can split), so that a search and its smallest-fit advice exist for any batch setting.
  bool batch_auto = false;
  StepHardware hw;
  Precision precision = Precision::kBf16;
  double device_bytes = 0;
  std::int64_t gpus = 0;
  PlanObjective objective = PlanObjective::kTime;
  int top = 5;
  // Candidate degrees (divisors), fixed arrays.
  std::int64_t gpu_divisors[kMaxDivisors] = {};
  int gpu_divisor_count = 0;
  std::int64_t batch_divisors[kMaxDivisors] = {};
  int batch_divisor_count = 0;
  std::int64_t layer_divisors[kMaxDivisors] = {};
  int layer_divisor_count = 0;
  // Cursor over the space (indices per dimension), and progress.
  int cursor[8] = {};
  bool started = false;
  bool done = false;
  std::int64_t evaluated = 0;   // layouts whose memory (and, when they fit, step time) was computed
  std::int64_t fitting = 0;     // of those, layouts that fit in memory
  double seconds = 0;           // search time so far (filled by the caller or PlanRun)
  // Best plans, best first.
  int count = 0;
  PlanEntry best[kMaxPlans];
  const char* currency = "USD";  // of job_cost (PlanPriceJobs)
};

// Prepares a search for scenario s. Returns an empty message or an error naming the input that is missing or
// invalid (model shape, unknown GPU). parallel.global_batch on auto: one sequence per GPU (PlanSearch::batch_auto).
Message PlanBegin(const Scenario& s, PlanObjective objective, int top, PlanSearch* out);
// Evaluates up to `max_layouts` more layouts. Returns true when the search is complete.
bool PlanStep(PlanSearch* search, std::int64_t max_layouts);
// Runs the whole search and measures its time (search->seconds).
void PlanRun(PlanSearch* search);
// True when workload.params is at its default (the search then counts the parameters from the shape).
bool PlanParamsAtDefault(const Scenario& s);
// Applies a layout to a scenario (what "adopt this layout" does in the page).
void ApplyLayout(const Layout& l, Scenario* s);
// Adopting a layout: applies it and clears a given cluster.mfu, so that the job runs at the layout's predicted
// step (the headline then equals the search's row). Returns true when a given MFU was cleared (say so).
bool AdoptLayout(const Layout& l, Scenario* s);

// The smallest GPU count at which this same search finds a layout that fits in memory (counts tried: powers
// of two up to a node, then whole nodes 1, 2, 3, 4, 6, 8, 12, ... up to max_gpus), with the fastest fitting
// layout there. found = false when none fits or the search cannot run (no shape or global batch).
LayoutFit SmallestFittingPlan(const Scenario& s, std::int64_t max_gpus = 1 << 20);
// The same search at one GPU count (data parallelism on auto): the fastest layout that fits on `gpus` GPUs.
LayoutFit FittingPlanAt(const Scenario& s, std::int64_t gpus);

}  // namespace gpucost
