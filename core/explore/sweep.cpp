// sweep.cpp — the GPU-count sweep (see sweep.h).
#include "explore/sweep.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "base/i18n.h"

namespace gpucost {
namespace {

// Marks a point infeasible with its reason: the string table's key and its English text (documents carry both).
void Infeasible(SweepPoint& p, const char* key) {
  p.feasible = false;
  p.infeasible_key = key;
  p.infeasible_reason = Tr(Lang::kEn, key);
}

std::int64_t RoundUpTo(std::int64_t v, std::int64_t unit) { return (v + unit - 1) / unit * unit; }

// GPU count rounded to a multiple of the model-parallel size, and of whole nodes once it exceeds one node.
std::int64_t RoundGpus(double n, std::int64_t model_parallel, std::int64_t gpus_per_node) {
  std::int64_t v = RoundUpTo(std::max<std::int64_t>(1, std::llround(n)), model_parallel);
  if (v > gpus_per_node) {
    const std::int64_t unit = std::lcm(model_parallel, gpus_per_node);
    v = RoundUpTo(v, unit);
  }
  return v;
}

void Mark(const SweepOptions& o, SweepResult* out) {
  for (int i = 0; i < static_cast<int>(out->points.size()); ++i) {
    SweepPoint& p = out->points[i];
    if (!p.feasible) continue;
    p.within_budget = o.budget_usd > 0 && p.expected_usd <= o.budget_usd;
    p.within_deadline = o.deadline_hours > 0 && p.expected_hours <= o.deadline_hours;
    auto better = [&](int best, bool by_cost) {
      if (best < 0) return true;
      const SweepPoint& b = out->points[best];
      return by_cost ? p.expected_usd < b.expected_usd : p.expected_hours < b.expected_hours;
    };
    if (better(out->cheapest, true)) out->cheapest = i;
    if (better(out->fastest, false)) out->fastest = i;
    if (p.within_budget && better(out->fastest_within_budget, false)) out->fastest_within_budget = i;
    if (p.within_deadline && better(out->cheapest_within_deadline, true)) out->cheapest_within_deadline = i;
  }
  if (out->cheapest < 0) return;
  const double limit = out->points[out->cheapest].expected_usd * (1 + kSweetSpotSlack);
  for (int i = 0; i < static_cast<int>(out->points.size()); ++i) {
    const SweepPoint& p = out->points[i];
    if (p.feasible && p.expected_usd <= limit &&
        (out->sweet_spot < 0 || p.expected_hours < out->points[out->sweet_spot].expected_hours))
      out->sweet_spot = i;
  }
}

// Policy 3 of sweep.h: the step-time model predicts the MFU at every count when the shape is known.
bool PredictsMfu(const Scenario& s) {
  return CanPredictStep(s) && s.scaling.point_count == 0;
}

// The single-node MFU a given cluster.mfu implies: divided by the scaling efficiency at the scenario's own
// count when its layout is valid (then the point at cluster.gpus equals eval), else taken as single-node.
double SingleNodeMfu(const Scenario& base) {
  if (!PredictsMfu(base) || base.cluster.mfu <= 0) return 0;
  const Result r = Evaluate(base);
  const double single = r.ok && r.step.ok() && r.scaling_efficiency > 0 ? base.cluster.mfu / r.scaling_efficiency
                                                                         : base.cluster.mfu;
  return std::min(single, 1.0);
}

SweepPoint EvaluatePoint(const SweepRun& run, std::int64_t gpus) {
  const Scenario& base = run.base;
  const SweepOptions& o = run.options;
  const std::int64_t mp = base.parallel.tensor_parallel * base.parallel.pipeline_parallel;
  Scenario s = base;
  SweepPoint p;
  p.gpus = gpus;
  s.cluster.gpus = gpus;
  s.parallel.data_parallel = 0;  // auto: gpus / (tensor x pipeline)
  p.data_parallel = gpus / mp;
  if (o.batch_grows_with_gpus && base.parallel.global_batch > 0)
    s.parallel.global_batch = std::max<std::int64_t>(
        1, std::llround(static_cast<double>(base.parallel.global_batch) * static_cast<double>(gpus) /
                        static_cast<double>(base.cluster.gpus)));
  p.global_batch = s.parallel.global_batch;
  if (run.result.single_node_mfu > 0) {
    s.cluster.mfu = 0;  // predicted: the single-node figure scaled by the communication model
    s.parallel.single_node_mfu = run.result.single_node_mfu;
  }
  if (o.mfu_at_gpus) {
    const double mfu = o.mfu_at_gpus(s, o.mfu_context);
    if (mfu > 0 && mfu <= 1) s.cluster.mfu = mfu;
  }
  const Result r = Evaluate(s);
  p.feasible = true;
  if (!r.ok) Infeasible(p, "msg.sweep_cannot_evaluate");
  if (p.feasible && PredictsMfu(s) && !o.mfu_at_gpus && !r.step.ok()) {
    Infeasible(p, "msg.sweep_no_layout");
  }
  if (p.feasible && p.global_batch > 0 && p.data_parallel * s.parallel.micro_batch > p.global_batch) {
    Infeasible(p, "msg.sweep_batch");
  }
  p.expected_hours = r.expected_hours;
  p.expected_usd = r.expected_usd;
  p.expected_cost = r.expected_usd * r.display_per_usd;
  p.normal_run_hours = r.normal_run_hours;
  p.normal_run_usd = r.normal_run_usd;
  p.goodput = r.goodput;
  p.mfu = r.mfu;
  p.mfu_source = r.mfu_source;
  p.scaling_efficiency = r.scaling_present ? r.scaling_at_gpus.efficiency : r.scaling_efficiency;
  p.scaling_extrapolated = r.scaling_present && r.scaling_at_gpus.extrapolated;
  p.expected_interruptions = r.expected_interruptions;
  p.cluster_mtbf_hours = r.cluster_mtbf_hours;
  p.batch_size_token_factor = r.batch_size_token_factor;
  p.memory_known = r.memory_present;
  p.memory_total_gb = r.memory_present ? r.memory.total_bytes() / 1e9 : 0;
  if (p.feasible && r.memory_present && !r.memory.fits()) {
    Infeasible(p, "msg.sweep_memory");
  }
  if (p.feasible && r.never_finishes) {
    Infeasible(p, "msg.sweep_never");
  }
  if (p.feasible && !(std::isfinite(p.expected_usd) && std::isfinite(p.expected_hours))) {
    Infeasible(p, "msg.sweep_range");
  }
  return p;
}

}  // namespace

int SweepGpuCounts(const Scenario& base, const SweepOptions& o, std::int64_t* out) {
  const std::int64_t mp = std::max<std::int64_t>(1, base.parallel.tensor_parallel * base.parallel.pipeline_parallel);
  const std::int64_t gpn = std::max<std::int64_t>(1, base.cluster.gpus_per_node);
  const std::int64_t lo = std::max(mp, o.min_gpus > 0 ? o.min_gpus : mp);
  const std::int64_t hi = std::max(lo, o.max_gpus > 0 ? o.max_gpus : 16 * base.cluster.gpus);
  const double per_doubling = std::max(1, o.points_per_doubling);
  int n = 0;
  bool have_base = false;
  double prev = -1;
  for (int k = 0; n < kMaxSweepPoints - 1; ++k) {
    const double target = static_cast<double>(lo) * std::pow(2.0, k / per_doubling);
    if (target > static_cast<double>(hi) * (1 + 1e-9)) break;
    const std::int64_t g = RoundGpus(target, mp, gpn);
    if (g > hi || static_cast<double>(g) == prev) continue;
    prev = static_cast<double>(g);
    out[n++] = g;
    have_base = have_base || g == base.cluster.gpus;
  }
  if (!have_base && base.cluster.gpus % mp == 0) {  // the scenario's own size, in order
    out[n++] = base.cluster.gpus;
    std::sort(out, out + n);
  }
  return n;
}

void SweepBegin(const Scenario& base, const SweepOptions& o, SweepRun* run) {
  run->base = base;
  run->options = o;
  run->count = SweepGpuCounts(base, o, run->counts);
  run->result = SweepResult{};
  run->result.points.reserve(run->count);
  run->result.single_node_mfu = o.mfu_at_gpus ? 0 : SingleNodeMfu(base);
  const bool krw = base.pricing.currency == static_cast<int>(Currency::kKrw);
  run->result.currency = krw ? "KRW" : "USD";
  run->result.per_usd = krw ? base.pricing.krw_per_usd : 1.0;
  run->done = run->count == 0;
}

bool SweepStep(SweepRun* run, int max_points) {
  SweepResult& out = run->result;
  for (int k = 0; k < max_points && !run->done; ++k) {
    out.points.push_back(EvaluatePoint(*run, run->counts[out.points.size()]));
    run->done = static_cast<int>(out.points.size()) >= run->count;
  }
  if (!run->done) return false;
  if (out.cheapest < 0 && out.fastest < 0) {  // once
    double first_mfu = -1;
    bool varies = false;
    for (const SweepPoint& p : out.points) {
      if (!p.feasible) continue;
      if (first_mfu < 0) first_mfu = p.mfu;
      varies = varies || std::fabs(p.mfu - first_mfu) > 1e-12;
    }
    out.flat_mfu = !varies;
    Mark(run->options, &out);
  }
  return true;
}

SweepResult SweepGpuCount(const Scenario& base, const SweepOptions& o) {
  auto run = std::make_unique<SweepRun>();
  SweepBegin(base, o, run.get());
  SweepStep(run.get(), kMaxSweepPoints);
  return std::move(run->result);
}

std::string SweepMarks(const SweepResult& r, int i, Lang lang) {
  std::string text;
  for (auto [at, key] : {std::pair{r.cheapest, "msg.mark_cheapest"}, {r.sweet_spot, "msg.mark_sweet_spot"},
                         {r.fastest, "msg.mark_fastest"}, {r.fastest_within_budget, "msg.mark_fastest_budget"},
                         {r.cheapest_within_deadline, "msg.mark_cheapest_deadline"}})
    if (at == i) text += (text.empty() ? "" : ", ") + std::string(Tr(lang, key));
  return text;
}


}  // namespace gpucost
