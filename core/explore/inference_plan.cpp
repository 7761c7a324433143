// inference_plan.cpp — the configuration search (inference_plan.h).
#include "explore/inference_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "job/inference_evaluate.h"
#include "serving/inference_model.h"
#include "money/offers.h"
#include "job/result.h"

namespace gpucost {
namespace {

// Why there is no plan: the message and its English text.
void SetError(InferencePlan& p, Message why) {
  p.error = why.Text(Lang::kEn);
  p.error_message = std::move(why);
}

// A candidate's verdict as a message (rendered in the reader's language) and its English text for the documents.
void SetVerdict(InferenceCandidate& c, Message m) {
  c.verdict = m.Text(Lang::kEn);
  c.verdict_message = std::move(m);
}

constexpr std::int64_t kTensorDegrees[] = {1, 2, 4, 8};

}  // namespace

std::vector<PricedGpu> PricedGpus(const Scenario& s) {
  const PricingInputs& pr = s.pricing;
  const double own = pr.krw_per_gpu_hour > 0 ? pr.krw_per_gpu_hour / pr.krw_per_usd : pr.usd_per_gpu_hour;
  const double with_tax = pr.price_includes_tax ? 1 + pr.tax_rate : 1.0;
  std::vector<PricedGpu> out;
  for (std::size_t i = 0; i < GpuCount(); ++i) {
    const GpuSpec& g = Gpus()[i];
    double price = 0;
    std::string source;
    for (const InferencePoolInputs* pool : {&s.inference.prefill, &s.inference.decode})
      if (pool->usd_per_gpu_hour > 0 && std::strcmp(InferencePoolGpu(s, *pool)->id.c_str(), g.id.c_str()) == 0) {
        price = pool->usd_per_gpu_hour;
        source = "the scenario";
      }
    if (price <= 0 && g.id == s.cluster.gpu) {
      price = own;
      source = "the scenario";
    }
    if (price <= 0) {
      for (std::size_t k = 0; k < OfferCount(); ++k) {
        const Offer& o = Offers()[k];
        if (o.gpu != g.id || o.model != PricingModel::kOnDemand || o.usd_per_gpu_hour <= 0) continue;
        if (price <= 0 || o.usd_per_gpu_hour * with_tax < price) {
          price = o.usd_per_gpu_hour * with_tax;
          source = o.id + " (" + o.date + ")";
        }
      }
    }
    if (price > 0) out.push_back({&g, price, source});
  }
  return out;
}

namespace {

bool TensorDegreeFits(const Scenario& s, std::int64_t tp) {
  const std::int64_t heads = s.workload.heads, kv = s.workload.kv_heads > 0 ? s.workload.kv_heads : heads;
  return heads % tp == 0 && (kv % tp == 0 || tp % kv == 0);
}

bool PrecisionRuns(const Scenario& s, const GpuSpec& g) {
  if (InferencePeakTflops(g, static_cast<WeightPrecision>(s.inference.weight_precision)) <= 0) return false;
  return static_cast<KvPrecision>(s.inference.kv_precision) != KvPrecision::kFp8 || DensePeakTflops(g, Precision::kFp8) > 0;
}

void SetPool(InferencePoolInputs* pool, const std::string& gpu, std::int64_t tp, double price) {
  std::snprintf(pool->gpu, kTextCapacity, "%s", gpu.c_str());
  pool->tensor_parallel = tp;
  pool->usd_per_gpu_hour = price;
  pool->replicas = 0;
}

void Evaluate(const Scenario& s, InferenceCandidate* c) {
  const Scenario x = ApplyInferenceCandidate(s, *c);
  Result r;
  if (!EvaluateInference(x, &r)) return;
  const InferenceResult& ir = r.inference;
  const std::int64_t pct = s.inference.slo.percentile;
  c->fits = ir.fits;
  c->slo_met = ir.slo_met && ir.fits;
  c->prefill_replicas = ir.prefill.replicas;
  c->decode_replicas = ir.decode.replicas;
  c->gpus = ir.gpus;
  c->usd_per_request = ir.usd_per_request;
  c->usd_per_million_output_tokens = ir.usd_per_million_output_tokens;
  c->usd_per_hour = ir.usd_per_hour;
  c->ttft_ms = ir.ttft_ms.At(pct);
  c->tpot_ms = ir.tpot_ms.At(pct);
  c->kv_transfer_ms = ir.kv_transfer_ms;
}

std::string FamilyKey(const InferenceCandidate& c) {
  return (c.disaggregated ? "split " : "colocated ") + c.prefill_gpu + (c.disaggregated ? " + " + c.decode_gpu : "");
}

bool Cheaper(const InferenceCandidate& a, const InferenceCandidate& b) {
  if (a.usd_per_request != b.usd_per_request) return a.usd_per_request < b.usd_per_request;
  return a.gpus < b.gpus;
}

// How close a candidate that misses the target comes (smaller is better): the worse of the two ratios.
double Miss(const Scenario& s, const InferenceCandidate& c) {
  double m = 0;
  if (s.inference.slo.ttft_ms > 0) m = std::max(m, c.ttft_ms / s.inference.slo.ttft_ms);
  if (s.inference.slo.tpot_ms > 0) m = std::max(m, c.tpot_ms / s.inference.slo.tpot_ms);
  return m;
}

}  // namespace

Scenario ApplyInferenceCandidate(const Scenario& s, const InferenceCandidate& c) {
  Scenario x = s;
  x.inference.mode = static_cast<int>(c.disaggregated ? InferenceMode::kDisaggregated : InferenceMode::kColocated);
  SetPool(&x.inference.decode, c.decode_gpu, c.decode_tp, c.decode_usd_per_gpu_hour);
  // Colocated, one pool serves both phases: the prefill pool is left unset, as nothing reads it (issue 47: the serving
  // options warned about fields they had set themselves).
  if (c.disaggregated) SetPool(&x.inference.prefill, c.prefill_gpu, c.prefill_tp, c.prefill_usd_per_gpu_hour);
  else x.inference.prefill = InferencePoolInputs{};  // every field on auto
  // Prices are entered on the scenario's tax basis: PoolPricePretax removes an included tax again.
  x.inference.max_batch = c.max_batch;
  return x;
}

InferencePlanSearch::InferencePlanSearch(const Scenario& s, int top) : s_(s), top_(std::clamp(top, 1, kInferencePlanMaxTop)) {
  if (Kind(s) != WorkloadKind::kInference) {
    SetError(plan_, {"msg.sim_not_inference", {}});
    return;
  }
  gpus_ = PricedGpus(s);
  plan_.gpu_types = static_cast<std::int64_t>(gpus_.size());
  for (std::size_t g = 0; g < gpus_.size(); ++g)
    if (PrecisionRuns(s, *gpus_[g].gpu))
      for (std::int64_t tp : kTensorDegrees)
        if (TensorDegreeFits(s, tp)) pools_.push_back({g, tp});
  if (pools_.empty()) {
    SetError(plan_, {"msg.plan_no_pool", {}});
    return;
  }
  const std::int64_t n = static_cast<std::int64_t>(pools_.size());
  total_ = static_cast<std::int64_t>(std::size(kInferencePlanBatchCaps)) * (n + n * n);
}

// Configuration i, in the order of a nested search: each batch cap, its colocated pools, then its
// (prefill, decode) pairs.
InferenceCandidate InferencePlanSearch::Candidate(std::int64_t i) const {
  const std::int64_t n = static_cast<std::int64_t>(pools_.size()), block = n + n * n;
  std::int64_t r = i % block;
  InferenceCandidate c;
  c.max_batch = kInferencePlanBatchCaps[i / block];
  auto pool = [&](std::int64_t k, bool prefill) {
    const PricedGpu& g = gpus_[pools_[static_cast<std::size_t>(k)].gpu];
    (prefill ? c.prefill_gpu : c.decode_gpu) = g.gpu->id;
    (prefill ? c.prefill_tp : c.decode_tp) = pools_[static_cast<std::size_t>(k)].tp;
    (prefill ? c.prefill_usd_per_gpu_hour : c.decode_usd_per_gpu_hour) = g.usd_per_gpu_hour;
  };
  if (r < n) {
    pool(r, true);
    pool(r, false);
  } else {
    r -= n;
    c.disaggregated = true;
    pool(r / n, true);
    pool(r % n, false);
  }
  return c;
}

bool InferencePlanSearch::Step(std::int64_t configurations) {
  for (std::int64_t k = 0; k < configurations && next_ < total_; ++k, ++next_) {
    InferenceCandidate c = Candidate(next_);
    Evaluate(s_, &c);
    ++plan_.evaluated;
    plan_.fitting += c.fits;
    if (c.slo_met) {
      ++plan_.meeting;
      meeting_.push_back(c);
    }
    auto [it, inserted] = family_.emplace(FamilyKey(c), c);
    if (inserted) continue;
    InferenceCandidate& f = it->second;  // best per family: meeting first, then fitting, then any
    const int rank_c = c.slo_met ? 2 : c.fits ? 1 : 0, rank_f = f.slo_met ? 2 : f.fits ? 1 : 0;
    if (rank_c > rank_f || (rank_c == rank_f && (rank_c == 1 ? Miss(s_, c) < Miss(s_, f) : Cheaper(c, f)))) f = c;
  }
  return done();
}

const InferencePlan& InferencePlanSearch::Finish() {
  if (finished_ || !plan_.error.empty()) return plan_;
  while (!Step(total_)) {
  }
  finished_ = true;
  InferencePlan& plan = plan_;
  const Scenario& s = s_;
  const int top = top_;
  std::vector<InferenceCandidate>& meeting = meeting_;
  std::map<std::string, InferenceCandidate>& family = family_;
  // Stable: equal costs keep the search order, so the ranking is the same natively and in the browser.
  std::stable_sort(meeting.begin(), meeting.end(), [](const InferenceCandidate& a, const InferenceCandidate& b) {
    if (a.usd_per_request != b.usd_per_request || a.gpus != b.gpus) return Cheaper(a, b);
    return a.max_batch > b.max_batch;
  });
  for (const InferenceCandidate& c : meeting) {
    if (static_cast<int>(plan.best.size()) >= top) break;
    bool same = false;  // the same pools and replicas at another batch cap and the same cost
    for (const InferenceCandidate& b : plan.best)
      same |= FamilyKey(b) == FamilyKey(c) && b.prefill_tp == c.prefill_tp && b.decode_tp == c.decode_tp &&
              b.prefill_replicas == c.prefill_replicas && b.decode_replicas == c.decode_replicas &&
              std::fabs(b.usd_per_request - c.usd_per_request) <= 1e-9 * b.usd_per_request;
    if (!same) plan.best.push_back(c);
  }
  for (std::size_t i = 0; i < plan.best.size(); ++i) SetVerdict(plan.best[i], {i == 0 ? "msg.verdict_best" : "msg.verdict_runner_up", {}});
  // Families: why each loses.
  const double best_usd = plan.best.empty() ? 0 : plan.best[0].usd_per_request;
  for (auto& [key, c] : family) {
    if (!c.fits)
      SetVerdict(c, {c.disaggregated ? "msg.verdict_pool" : "msg.verdict_gpu", {std::to_string(std::max(c.prefill_tp, c.decode_tp))}});
    else if (!c.slo_met)
      SetVerdict(c, {"msg.verdict_misses", {std::to_string(s.inference.slo.percentile), FormatParam("%.0f", c.ttft_ms),
                                            FormatParam("%.1f", c.tpot_ms)}});
    else if (best_usd > 0 && c.usd_per_request <= best_usd * (1 + 1e-12))
      SetVerdict(c, {"msg.verdict_best", {}});
    else
      SetVerdict(c, {"msg.verdict_ratio", {FormatParam("%.2f", best_usd > 0 ? c.usd_per_request / best_usd : 0.0)}});
    plan.families.push_back(c);
  }
  std::stable_sort(plan.families.begin(), plan.families.end(), [](const InferenceCandidate& a, const InferenceCandidate& b) {
    const int ra = a.slo_met ? 2 : a.fits ? 1 : 0, rb = b.slo_met ? 2 : b.fits ? 1 : 0;
    if (ra != rb) return ra > rb;
    return Cheaper(a, b);
  });
  plan.ok = true;
  return plan;
}

InferencePlan PlanInference(const Scenario& s, int top) {
  InferencePlanSearch search(s, top);
  return search.Finish();
}



}  // namespace gpucost
