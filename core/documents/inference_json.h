// inference_json.h — the result document of an inference scenario (gpucost eval --format json, the page's
// result()): "inference" with the field names, "cost" with its named parts, "gpu_hours", "time".
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "job/result.h"
#include "scenario/scenario.h"
#include "job/inference_evaluate.h"
#include "serving/inference.h"
#include "serving/inference_day.h"

namespace gpucost {

// The parts an inference bill is made of, in display order (result.h).
constexpr int kInferencePartOrder[] = {kPartPrefillGpus,      kPartDecodeGpus,        kPartIdleCapacity,
                                       kPartKvTransfer,       kPartColdStart,         kPartRework,
                                       kPartRecovery,         kPartSpotRework,        kPartSpotSpareCapacity,
                                       kPartIdleGpus,         kPartBillingRounding,   kPartRouter,
                                       kPartUnusedCommitment, kPartStorage,           kPartEgress,
                                       kPartFees,             kPartTax};

// The label of a cost part as a serving bill names it (rework: a failed replica's in-flight requests are
// recomputed; recovery: the failed replica; idle GPUs: whole nodes), else PartLabel(); in the current language.
const char* InferencePartLabel(int part);
// The label of part `part` of result r: InferencePartLabel for an inference result, else PartLabel.
const char* PartLabelOf(const Result& r, int part);

// What speculative decoding and prefix caching did (issue 47): the same service without each technique (the
// scenario evaluated again with it off, its replicas sized anew for the same load and target), beside its own
// figures. The result document carries it as inference.techniques; the page's Results draws it.
struct ServingWithout {
  double ttft_ms_p50 = 0, tpot_ms_p50 = 0;  // latency without the technique
  double usd_per_request = 0;
  double usd_per_million_output_tokens_all_in = 0;
  std::int64_t gpus = 0;
  bool ok = false;                          // the scenario without it could be evaluated
};
struct ServingTechniqueEffects {
  bool speculative = false;
  double draft_tokens_per_step = 0;         // k (the default on auto)
  double acceptance_rate = 0;
  double tokens_per_step = 1;               // expected tokens per target step, (1 - a^(k+1)) / (1 - a)
  ServingWithout without_speculation;
  bool prefix_cache = false;
  double prefix_tokens = 0, prefix_cache_hit = 0;
  double prefill_saved_share = 0;           // of the prefill FLOPs
  double kv_saved_gb_per_replica = 0;
  ServingWithout without_prefix_cache;
};
ServingTechniqueEffects ServingTechniques(const Scenario& s, const Result& r);

// Fills doc (which holds schema, ok and name) for an inference result.
void WriteInferenceJson(const Scenario& s, const Result& r, nlohmann::json* doc);


}  // namespace gpucost
