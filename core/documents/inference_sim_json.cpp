// inference_sim_json.cpp — the request simulation document (inference_sim_json.h).
#include "documents/inference_sim_json.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>
#include <nlohmann/json.hpp>
#include "job/evaluate.h"
#include "serving/inference_model.h"
#include "scenario/json_io.h"
#include "base/rng.h"

namespace gpucost {

std::string InferenceSimToJson(const Scenario& s, const InferenceSimResult& r, int indent) {
  using nlohmann::ordered_json;
  auto latency = [](const LatencyMs& l) {
    return ordered_json{{"mean", l.mean}, {"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}};
  };
  ordered_json doc;
  doc["schema"] = "gpucost/inference-sim@1";
  doc["ok"] = r.ok;
  if (!r.ok) {
    doc["error"] = r.error;
    return doc.dump(indent);
  }
  if (s.name[0]) doc["name"] = s.name;
  doc["requests"] = r.requests;
  doc["requests_asked"] = r.requests_asked;
  doc["simulated_prefill_replicas"] = r.simulated_prefill_replicas;
  doc["simulated_decode_replicas"] = r.simulated_decode_replicas;
  if (r.capped_requests || r.capped_replicas) {  // bounded work (inference_sim.h), said rather than silent
    doc["capped"] = {{"requests", r.capped_requests}, {"replicas", r.capped_replicas},
                     {"max_work_request_steps", r.max_work}, {"max_replicas", kInferenceSimMaxReplicas}};
  }
  doc["measured"] = r.measured;
  doc["prefill_replicas"] = r.prefill_replicas;
  doc["decode_replicas"] = r.decode_replicas;
  doc["ttft_ms"] = latency(r.ttft_ms);
  doc["tpot_ms"] = latency(r.tpot_ms);
  doc["e2e_ms"] = latency(r.e2e_ms);
  doc["share_within_target"] = r.share_within_target;
  doc["share_ttft_within"] = r.share_ttft_within;
  doc["share_tpot_within"] = r.share_tpot_within;
  doc["slo_percentile"] = s.inference.slo.percentile;
  doc["mean_batch"] = r.mean_batch;
  doc["simulated_seconds"] = r.simulated_seconds;
  doc["output_tokens_per_second"] = r.output_tokens_per_second;
  doc["closed_form"] = {{"ttft_ms", latency(r.closed_ttft_ms)}, {"tpot_ms", latency(r.closed_tpot_ms)},
                        {"utilization", r.closed_utilization}};
  return doc.dump(indent);
}

}  // namespace gpucost
