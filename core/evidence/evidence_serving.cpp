// evidence_serving.cpp — the serving model against published serving measurements (see evidence.h).
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "hardware/catalog.h"
#include "evidence/evidence.h"
#include "base/format.h"
#include "base/i18n.h"
#include "serving/inference_model.h"
#include "scenario/json_io.h"

namespace gpucost {

ServingEvidence ComputeServingEvidence(const std::string& runs_json) {
  using nlohmann::json;
  ServingEvidence e;
  const json data = json::parse(runs_json, nullptr, false);
  if (data.is_discarded() || !data.contains("runs") || !data["runs"].is_array()) {
    e.error = "the serving runs document is not valid JSON with a 'runs' array";
    return e;
  }
  if (data.contains("sources") && data["sources"].is_object())
    for (auto it = data["sources"].begin(); it != data["sources"].end(); ++it)
      e.sources.push_back({it.key(), it.value().is_string() ? it.value().get<std::string>() : ""});
  for (const json& run : data["runs"]) {
    ServingEvidenceRun r;
    r.id = run.value("id", std::string());
    r.source = run.value("source", std::string());
    r.model = run.value("model", std::string());
    r.gpu = run.value("gpu", std::string());
    r.metric = run.value("metric", std::string());
    r.tensor_parallel = run.value("tensor_parallel", std::int64_t{1});
    r.concurrency = run.value("concurrency", std::int64_t{1});
    r.input_tokens = run.value("input_tokens", 0.0);
    r.output_tokens = run.value("output_tokens", 0.0);
    r.measured = run.value("measured", 0.0);
    json doc = {{"workload", {{"kind", "inference"}, {"model", r.model}}},
                {"cluster", {{"gpu", r.gpu}, {"gpus", r.tensor_parallel}}},
                {"parallel", {{"tensor_parallel", r.tensor_parallel}}},
                {"inference", {{"weight_precision", run.value("weight_precision", std::string("bf16"))},
                               {"input_tokens", r.input_tokens},
                               {"output_tokens", r.output_tokens}}}};
    // How the engine ran, where the source says (data-parallel attention, MTP, the all-to-all overlap): merged
    // into the scenario as typed, so an unknown or out-of-range field fails the run like any other.
    if (data.contains("engines") && data["engines"].contains(r.source)) doc.merge_patch(data["engines"][r.source]);
    if (run.contains("engine") && run["engine"].is_object()) doc.merge_patch(run["engine"]);
    const bool decode_only = run.value("decode_only", false);  // a disaggregated decode pool: no prefills
    const ScenarioParse p = ParseScenarioJson(doc.dump());
    const GpuSpec* gpu = FindGpu(r.gpu.c_str());
    if (!p.ok() || gpu == nullptr || !(r.measured > 0)) {
      e.error = "run " + r.id + ": " + (p.ok() ? std::string("unknown GPU or no measured figure") : p.errors[0].Text());
      return e;
    }
    const InferenceModel m = InferenceModelFor(p.scenario);
    const ReplicaModel replica = ReplicaFor(p.scenario, m, *gpu, r.tensor_parallel);
    if (r.metric == "itl_ms") {
      // Closed loop at `concurrency` sequences: each decode step carries the batch, and the engine (colocated,
      // continuous batching) also runs the prefills of the requests that replace finished ones: while one
      // request decodes its `output_tokens` steps, each of the other c - 1 sequences is replaced once, and each
      // replacement's prefill rides in (or stalls) its steps, as the product's colocated model stalls decodes
      // for arriving prompts (ReplicaLatencyAt). A request's own prefill comes before its first token, not between
      // its tokens: at concurrency 1 nothing interleaves. The time between tokens a client sees is their sum.
      const double batch = static_cast<double>(std::min<std::int64_t>(r.concurrency, std::max<std::int64_t>(1, replica.max_concurrency)));
      const double prefill_share =
          decode_only ? 0 : (batch - 1) * ColocatedPrefillSeconds(m, replica) / std::max(1.0, r.output_tokens);
      // A step yields spec_tokens_per_step tokens per sequence when speculating (1 otherwise).
      r.predicted = 1e3 * (DecodeStepSeconds(m, replica, batch) / m.spec_tokens_per_step + prefill_share);
    } else if (r.metric == "ttft_ms") {
      // One request at a time: its path to the engine (HTTP, tokenising), then its prefill; no queue.
      r.predicted = 1e3 * (FrontLatencySeconds(m) + PrefillSeconds(m, replica, r.input_tokens));
    } else if (r.metric == "latency_ms") {
      // One offline batch of `concurrency` prompts given as token ids (no request path): one prefill step of
      // all their tokens, which yields each request's first token, then output_tokens - 1 decode steps of the
      // batch (their mean context is the prompt plus half the output, as everywhere).
      const double batch = static_cast<double>(std::max<std::int64_t>(1, r.concurrency));
      const double steps = std::max(0.0, r.output_tokens - 1) / m.spec_tokens_per_step;
      r.predicted = 1e3 * (PrefillSeconds(m, replica, batch * r.input_tokens) + steps * DecodeStepSeconds(m, replica, batch));
    } else if (r.metric == "output_tokens_per_s") {
      // Offline maximum throughput (every request queued at once): the replica at its full batch; where the
      // source states how many requests the run served, over the whole run, its last partial wave included.
      const double service_s = ColocatedPrefillSeconds(m, replica);
      const double requests = run.value("requests", 0.0);
      const double seconds = requests > 0 ? OfflineBatchSeconds(m, replica, requests, service_s) : 0;
      r.predicted = seconds > 0 ? requests * r.output_tokens / seconds
                                : SaturatedRate(m, replica, service_s, true, true, true) * r.output_tokens;
    } else {
      e.error = "run " + r.id + ": metric must be itl_ms, ttft_ms, latency_ms or output_tokens_per_s";
      return e;
    }
    r.error = r.predicted / r.measured - 1;
    e.runs.push_back(r);
  }
  const double n = static_cast<double>(e.runs.size());
  for (const ServingEvidenceRun& r : e.runs) {
    e.mean_abs_error += std::fabs(r.error) / n;
    e.mean_error += r.error / n;
    const bool throughput = r.metric == "output_tokens_per_s";
    MetricError& own = throughput ? e.throughput : r.metric == "ttft_ms" ? e.ttft : r.metric == "latency_ms" ? e.e2e : e.itl;
    own.mean_abs_error += std::fabs(r.error);  // (a sum until divided below)
    ++own.measurements;
    if (!throughput) {
      e.latency.mean_abs_error += std::fabs(r.error);
      ++e.latency.measurements;
    }
  }
  for (const auto& source : e.sources) {  // each source held out on its own (nothing is fitted on any of them)
    MetricError m;
    for (const ServingEvidenceRun& r : e.runs)
      if (r.source == source.first) m.mean_abs_error += std::fabs(r.error), ++m.measurements;
    if (m.measurements > 0) e.by_source.push_back({source.first, m});
  }
  for (MetricError* m : {&e.itl, &e.ttft, &e.e2e, &e.latency, &e.throughput})
    if (m->measurements > 0) m->mean_abs_error /= m->measurements;
  for (auto& s : e.by_source) s.second.mean_abs_error /= s.second.measurements;
  return e;
}

std::string ServingByMetricText(const ServingEvidence& e) {
  auto n = [](const MetricError& m) { return std::to_string(m.measurements); };
  // A metric above its target says so (2026-12-07: "time between tokens 15.8%" stood under "target 15.0% each").
  auto verdict = [](const MetricError& m) {
    return m.measurements > 0 && m.mean_abs_error > kServingHeldOutTarget ? std::string(Tr("evidence.metric_not_met")) : std::string();
  };
  auto pct = [](const MetricError& m) { return FormatPercent(m.mean_abs_error); };
  return TrFormat("evidence.serving_by_metric",
                  {FormatPercent(kServingHeldOutTarget), pct(e.throughput), n(e.throughput), pct(e.latency), n(e.latency),
                   pct(e.itl), n(e.itl), pct(e.ttft), n(e.ttft), pct(e.e2e), n(e.e2e), verdict(e.throughput),
                   verdict(e.latency), verdict(e.itl), verdict(e.ttft), verdict(e.e2e)});
}

std::string ServingSummaryText(const ServingEvidence& e) {
  const bool met = e.mean_abs_error <= kServingOverallHeldOutTarget;
  return TrFormat("evidence.serving_summary",
                  {std::to_string(e.runs.size()), std::to_string(e.sources.size()), FormatPercent(e.mean_abs_error),
                   FormatPercent(kServingOverallHeldOutTarget), Tr(met ? "evidence.target_met" : "evidence.target_not_met"),
                   FormatSignedPercent(e.mean_error)});
}

std::string ServingBySourceText(const ServingEvidence& e) {
  std::string list;
  for (const auto& s : e.by_source)
    list += (list.empty() ? "" : "; ") + TrFormat("evidence.serving_source", {s.first, FormatPercent(s.second.mean_abs_error),
                                                                              std::to_string(s.second.measurements)});
  return TrFormat("evidence.serving_by_source", {list});
}

}  // namespace gpucost
