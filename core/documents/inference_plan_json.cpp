// inference_plan_json.cpp — the serving plan document (inference_plan_json.h).
#include "documents/inference_plan_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "serving/inference_model.h"
#include "money/offers.h"
#include "job/result.h"

namespace gpucost {

std::string InferencePlanToJson(const Scenario& s, const InferencePlan& p, int indent) {
  using nlohmann::ordered_json;
  auto entry = [](const InferenceCandidate& c) {
    return ordered_json{{"mode", c.disaggregated ? "disaggregated" : "colocated"},
                        {"prefill", {{"gpu", c.prefill_gpu}, {"tensor_parallel", c.prefill_tp}, {"replicas", c.prefill_replicas},
                                     {"usd_per_gpu_hour", c.prefill_usd_per_gpu_hour}}},
                        {"decode", {{"gpu", c.decode_gpu}, {"tensor_parallel", c.decode_tp}, {"replicas", c.decode_replicas},
                                    {"usd_per_gpu_hour", c.decode_usd_per_gpu_hour}}},
                        {"max_batch", c.max_batch},
                        {"gpus", c.gpus},
                        {"fits", c.fits},
                        {"slo_met", c.slo_met},
                        {"ttft_ms", c.ttft_ms},
                        {"tpot_ms", c.tpot_ms},
                        {"kv_transfer_ms", c.kv_transfer_ms},
                        {"usd_per_request", c.usd_per_request},
                        {"usd_per_million_output_tokens", c.usd_per_million_output_tokens},
                        {"usd_per_hour", c.usd_per_hour},
                        {"verdict", c.verdict},
                        {"verdict_key", c.verdict_message.key},
                        {"verdict_params", MessageParamsJson(c.verdict_message.params)}};
  };
  ordered_json doc;
  doc["schema"] = "gpucost/inference-plan@1";
  doc["ok"] = p.ok;
  if (!p.ok) {
    doc["error"] = p.error;
    return doc.dump(indent);
  }
  if (s.name[0]) doc["name"] = s.name;
  doc["evaluated"] = p.evaluated;
  doc["fitting"] = p.fitting;
  doc["meeting_target"] = p.meeting;
  doc["gpu_types"] = p.gpu_types;
  doc["seconds"] = p.seconds;
  doc["slo_percentile"] = s.inference.slo.percentile;
  ordered_json best = ordered_json::array(), families = ordered_json::array();
  for (const InferenceCandidate& c : p.best) best.push_back(entry(c));
  for (const InferenceCandidate& c : p.families) families.push_back(entry(c));
  doc["best"] = best;
  doc["families"] = families;
  return doc.dump(indent);
}

}  // namespace gpucost
