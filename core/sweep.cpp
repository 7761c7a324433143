// sweep.cpp — the GPU-count sweep (see sweep.h).
#include "sweep.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "evaluate.h"

namespace gpucost {
namespace {

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

SweepResult SweepGpuCount(const Scenario& base, const SweepOptions& o) {
  SweepResult out;
  std::int64_t counts[kMaxSweepPoints];
  const int n = SweepGpuCounts(base, o, counts);
  out.points.reserve(n);
  const std::int64_t mp = base.parallel.tensor_parallel * base.parallel.pipeline_parallel;
  bool mfu_varies = false;
  double first_mfu = -1;
  for (int i = 0; i < n; ++i) {
    Scenario s = base;
    SweepPoint p;
    p.gpus = counts[i];
    s.cluster.gpus = counts[i];
    s.parallel.data_parallel = 0;  // auto: gpus / (tensor x pipeline)
    p.data_parallel = counts[i] / mp;
    if (o.batch_grows_with_gpus && base.parallel.global_batch > 0)
      s.parallel.global_batch = std::max<std::int64_t>(
          1, std::llround(static_cast<double>(base.parallel.global_batch) * static_cast<double>(counts[i]) /
                          static_cast<double>(base.cluster.gpus)));
    p.global_batch = s.parallel.global_batch;
    if (o.mfu_at_gpus) {
      const double mfu = o.mfu_at_gpus(s, o.mfu_context);
      if (mfu > 0 && mfu <= 1) s.cluster.mfu = mfu;
    }
    const Result r = Evaluate(s);
    p.feasible = r.ok;
    p.infeasible_reason = r.ok ? "" : "cannot be evaluated";
    if (r.ok && p.global_batch > 0 && p.data_parallel * s.parallel.micro_batch > p.global_batch) {
      p.feasible = false;
      p.infeasible_reason = "global batch smaller than data parallel x micro-batch";
    }
    p.expected_hours = r.expected_hours;
    p.expected_usd = r.expected_usd;
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
      p.feasible = false;
      p.infeasible_reason = "does not fit in GPU memory";
    }
    if (p.feasible && r.never_finishes) {
      p.feasible = false;
      p.infeasible_reason = "never finishes (interruptions outpace checkpoints)";
    }
    if (r.ok) {
      if (first_mfu < 0) first_mfu = r.mfu;
      mfu_varies = mfu_varies || std::fabs(r.mfu - first_mfu) > 1e-12;
    }
    out.points.push_back(p);
  }
  out.flat_mfu = !mfu_varies;
  Mark(o, &out);
  return out;
}

}  // namespace gpucost
