// inference_json.h — the result document of an inference scenario (gpucost eval --format json, the page's
// result()): "inference" with the field names, "cost" with its named parts, "gpu_hours", "time".
#pragma once
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

// Fills doc (which holds schema, ok and name) for an inference result.
void WriteInferenceJson(const Scenario& s, const Result& r, nlohmann::json* doc);


}  // namespace gpucost
