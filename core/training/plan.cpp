// plan.cpp — the layout search (see plan.h).
#include "training/plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "hardware/calibration.h"
#include "hardware/catalog.h"
#include "scenario/fields.h"

namespace gpucost {
namespace {

// Cursor dimensions.
enum Dim : int { kTensor = 0, kPipeline, kMicro, kInterleave, kRecompute, kSeqPar, kZero, kDims };

int Divisors(std::int64_t n, std::int64_t* out) {
  int count = 0;
  for (std::int64_t i = 1; i * i <= n && count < kMaxDivisors; ++i)
    if (n % i == 0) out[count++] = i;
  for (int k = count - 1; k >= 0 && count < kMaxDivisors; --k)
    if (out[k] * out[k] != n) out[count++] = n / out[k];
  return count;
}

// The layout at the cursor's current indices (levels below `upto` are meaningful).
struct Degrees {
  std::int64_t t = 1, p = 1, d = 1, b = 1, v = 1;
};

Degrees DegreesAt(const PlanSearch& s) {
  Degrees g;
  g.t = s.gpu_divisors[s.cursor[kTensor]];
  g.p = s.gpu_divisors[s.cursor[kPipeline]];
  g.d = (s.gpus / g.t) / g.p;
  g.b = s.batch_divisors[s.cursor[kMicro]];
  g.v = s.layer_divisors[s.cursor[kInterleave]];
  return g;
}

int Limit(const PlanSearch& s, int level) {
  switch (level) {
    case kTensor:
    case kPipeline: return s.gpu_divisor_count;
    case kMicro: return s.batch_divisor_count;
    case kInterleave: return s.layer_divisor_count;
    case kRecompute: return 3;
    case kSeqPar: return 2;
    case kZero: return 4;
  }
  return 0;
}

bool ValidAt(const PlanSearch& s, int level) {
  const ModelShape& m = s.shape;
  const std::int64_t global = s.base.global_batch;
  const std::int64_t t = s.gpu_divisors[s.cursor[kTensor]];
  switch (level) {
    case kTensor: return m.heads % t == 0 && m.hidden % t == 0 && m.ffn_hidden % t == 0 && (m.kv_heads <= 0 || m.kv_heads % t == 0);
    case kPipeline: {
      const std::int64_t p = s.gpu_divisors[s.cursor[kPipeline]];
      // Layers need not divide: the first and last stages hold fewer (StageLayersOf, layout.h).
      return (s.gpus / t) % p == 0 && m.layers >= p && StageLayersOf(m.layers, p).ok() && global % ((s.gpus / t) / p) == 0;
    }
    case kMicro: {
      const Degrees g = DegreesAt(s);
      return (global / g.d) % g.b == 0;
    }
    case kInterleave: {
      const Degrees g = DegreesAt(s);
      // Interleaving splits the fullest stage's layers into v equal chunks.
      if (((m.layers + g.p - 1) / g.p) % g.v != 0 || m.layers + (g.v > 1 ? 2 : 0) < g.p * g.v) return false;
      return g.v == 1 || (g.p > 1 && (global / (g.d * g.b)) % g.p == 0);
    }
    case kRecompute: return true;
    case kSeqPar: return s.cursor[kSeqPar] == 0 || t > 1;
    case kZero: return s.cursor[kZero] == 0 || DegreesAt(s).d > 1;
  }
  return false;
}

// Moves the cursor to the next valid layout. Returns false when the space is exhausted.
bool Advance(PlanSearch* s) {
  int level;
  if (!s->started) {
    s->started = true;
    for (int& c : s->cursor) c = 0;
    level = 0;
  } else {
    level = kDims - 1;
    ++s->cursor[level];
  }
  for (;;) {
    if (s->cursor[level] >= Limit(*s, level)) {
      s->cursor[level] = 0;
      if (--level < 0) return false;
      ++s->cursor[level];
      continue;
    }
    if (!ValidAt(*s, level)) {
      ++s->cursor[level];
      continue;
    }
    if (level == kDims - 1) return true;
    s->cursor[++level] = 0;
  }
}

Layout LayoutAt(const PlanSearch& s) {
  const Degrees g = DegreesAt(s);
  Layout l = s.base;
  l.tensor = g.t;
  l.pipeline = g.p;
  l.data = g.d;
  l.micro_batch = g.b;
  l.interleave = g.v;
  l.recompute = static_cast<Recompute>(s.cursor[kRecompute]);
  l.sequence_parallel = s.cursor[kSeqPar] == 1;
  l.zero_stage = s.cursor[kZero];
  return l;
}

// workload.params at its documented default (a 7B example) describes no particular shape: with a known
// shape, the parameter count comes from the shape instead (memory.h then uses its per-layer formula).
bool ParamsAtDefault(const Scenario& sc) {
  const FieldSpec* f = FindField("workload.params");
  return f != nullptr && IsDefault(sc, *f);
}

// Ties (equal ranked time) go to the faster prediction, then to the smaller memory footprint.
// Layouts predicted above the best MFU measured on the GPU class are ranked at that MFU (calibration.h).
bool Better(const StepTime& a, const MemoryBreakdown& ma, const PlanEntry& b) {
  const double sa = DoubtedSeconds(a.seconds, a.mfu, a.best_measured_mfu);
  const double sb = DoubtedSeconds(b.step.seconds, b.step.mfu, b.step.best_measured_mfu);
  if (sa != sb) return sa < sb;
  if (a.seconds != b.step.seconds) return a.seconds < b.step.seconds;  // equal doubt: the faster prediction
  return ma.total_bytes() < b.memory.total_bytes();
}

void Keep(PlanSearch* s, const Layout& l, const StepTime& t, const MemoryBreakdown& m) {
  const int cap = std::min(s->top, kMaxPlans);
  if (s->count == cap && !Better(t, m, s->best[cap - 1])) return;
  int i = s->count < cap ? s->count++ : cap - 1;
  while (i > 0 && Better(t, m, s->best[i - 1])) {
    s->best[i] = s->best[i - 1];
    --i;
  }
  s->best[i].layout = l;
  s->best[i].step = t;
  s->best[i].memory = m;
  s->best[i].job_hours = s->best[i].job_usd = 0;
}

}  // namespace

bool PlanParamsAtDefault(const Scenario& sc) { return ParamsAtDefault(sc); }

Message PlanBegin(const Scenario& sc, PlanObjective objective, int top, PlanSearch* s) {
  *s = PlanSearch{};
  s->shape = ShapeFromScenario(sc);
  if (ParamsAtDefault(sc)) s->shape.params = 0;
  if (!s->shape.known() || !HasModelShape(sc))  // the default vocabulary serves memory only (layout.h)
    return {"msg.plan_shape", {}};
  EffectiveHardware hw;
  if (!ResolveHardware(sc, &hw) || hw.peak_flops <= 0)
    return {"msg.plan_no_peak", {sc.cluster.gpu}};
  s->hw = StepHardwareFor(sc, hw);
  s->precision = GetPrecision(sc);
  s->device_bytes = hw.hbm_bytes;
  s->base = LayoutFromScenario(sc);
  s->gpus = sc.cluster.gpus;
  s->batch_auto = sc.parallel.global_batch <= 0;
  if (s->batch_auto) s->base.global_batch = std::max<std::int64_t>(1, s->gpus);  // one sequence per GPU per step
  s->objective = objective;
  s->top = std::max(1, std::min(top, kMaxPlans));
  s->gpu_divisor_count = Divisors(s->gpus, s->gpu_divisors);
  s->batch_divisor_count = Divisors(s->base.global_batch, s->batch_divisors);
  s->layer_divisor_count = Divisors(s->shape.layers, s->layer_divisors);
  // Interleave degrees: the layer count's divisors and the powers of two (uneven stages: 126 layers on 16
  // stages hold 8 per stage, split 8 ways).
  for (std::int64_t v = 2; v <= s->shape.layers && s->layer_divisor_count < kMaxDivisors; v *= 2)
    if (s->shape.layers % v != 0) s->layer_divisors[s->layer_divisor_count++] = v;
  std::sort(s->gpu_divisors, s->gpu_divisors + s->gpu_divisor_count);
  std::sort(s->batch_divisors, s->batch_divisors + s->batch_divisor_count);
  std::sort(s->layer_divisors, s->layer_divisors + s->layer_divisor_count);
  return {};
}

bool PlanStep(PlanSearch* s, std::int64_t max_layouts) {
  for (std::int64_t n = 0; n < max_layouts && !s->done; ++n) {
    if (!Advance(s)) {
      s->done = true;
      break;
    }
    const Layout l = LayoutAt(*s);
    const MemoryBreakdown m = EstimateMemory(s->shape, l, s->precision, s->device_bytes);
    ++s->evaluated;
    if (!m.fits()) continue;
    ++s->fitting;
    const StepTime t = EstimateStepTime(s->shape, l, s->hw);
    if (t.ok()) Keep(s, l, t, m);
  }
  return s->done;
}

void PlanRun(PlanSearch* s) {
  const auto start = std::chrono::steady_clock::now();
  while (!PlanStep(s, 1 << 20)) {
  }
  s->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void ApplyLayout(const Layout& l, Scenario* s) {
  ParallelInputs& p = s->parallel;
  p.tensor_parallel = l.tensor;
  p.pipeline_parallel = l.pipeline;
  p.data_parallel = l.data;
  p.micro_batch = l.micro_batch;
  p.pipeline_interleave = l.interleave;
  p.recompute = static_cast<int>(l.recompute);
  p.sequence_parallel = l.sequence_parallel;
  p.zero_stage = l.zero_stage;
  p.overlap_comm = l.overlap_comm;
  p.context_parallel = l.context;
  p.flash_attention = l.flash_attention;
  p.fused_elementwise = l.fused_elementwise;
  const FrameworkDefaults d = DefaultsOf(static_cast<Framework>(s->cluster.framework));  // auto stays auto
  if (p.tp_comm_overlap != 0 || l.tp_overlap != d.tp_overlap) p.tp_comm_overlap = l.tp_overlap ? 1 : 2;
  if (p.ep_comm_overlap != 0 || l.ep_overlap != d.ep_overlap) p.ep_comm_overlap = l.ep_overlap ? 1 : 2;
  if (l.global_batch > 0) p.global_batch = l.global_batch;
}

bool AdoptLayout(const Layout& l, Scenario* s) {
  ApplyLayout(l, s);
  // Data parallel stays automatic (cluster.gpus over the model-parallel degrees) when that is what the layout has:
  // a later change of the GPU count then keeps the scenario computable rather than refused (issue 30).
  const std::int64_t model_parallel = l.tensor * l.pipeline * std::max<std::int64_t>(1, l.context);
  if (model_parallel > 0 && l.data * model_parallel == s->cluster.gpus) s->parallel.data_parallel = 0;
  const bool cleared = s->cluster.mfu > 0;
  s->cluster.mfu = 0;  // predicted from the layout, as PlanPriceJobs prices it
  return cleared;
}

namespace {

LayoutFit FittingPlanWith(const Scenario& sc, std::int64_t gpus, PlanSearch* search, bool* can_search) {
  LayoutFit fit;
  Scenario at = sc;
  at.cluster.gpus = gpus;
  at.parallel.data_parallel = 0;
  *can_search = PlanBegin(at, PlanObjective::kTime, 1, search).empty();
  if (!*can_search) return fit;
  PlanRun(search);
  if (search->count > 0) {
    fit.found = true;
    fit.layout = search->best[0].layout;
    fit.memory = search->best[0].memory;
  }
  return fit;
}

}  // namespace

LayoutFit FittingPlanAt(const Scenario& sc, std::int64_t gpus) {
  auto search = std::make_unique<PlanSearch>();
  bool can_search = false;
  return FittingPlanWith(sc, gpus, search.get(), &can_search);
}

LayoutFit SmallestFittingPlan(const Scenario& sc, std::int64_t max_gpus) {
  auto search = std::make_unique<PlanSearch>();
  const std::int64_t gpn = std::max<std::int64_t>(1, sc.cluster.gpus_per_node);
  std::int64_t previous = 0;
  for (int k = 0;; ++k) {
    // 1, 2, 4, ... below a node; then nodes x 1, 2, 3, 4, 6, 8, 12, 16, ...
    std::int64_t n = std::int64_t{1} << std::min(k, 62);
    if (n >= gpn) {
      const int j = k - static_cast<int>(std::ceil(std::log2(static_cast<double>(gpn))));
      const std::int64_t nodes = (j % 2 == 0 ? 2 : 3) * (std::int64_t{1} << (j / 2)) / 2;
      n = gpn * std::max<std::int64_t>(1, nodes);
    }
    if (n > max_gpus) break;
    if (n == previous) continue;
    previous = n;
    bool can_search = false;
    const LayoutFit fit = FittingPlanWith(sc, n, search.get(), &can_search);
    if (!can_search || fit.found) return fit;
  }
  return LayoutFit{};
}

}  // namespace gpucost
