// inference_json.h — the result document of an inference scenario (gpucost eval --format json, the page's
// result()): "inference" with the field names, "cost" with its named parts, "gpu_hours", "time".
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "result.h"
#include "scenario.h"

namespace gpucost {

// The parts an inference bill is made of, in display order (result.h).
constexpr int kInferencePartOrder[] = {kPartPrefillGpus, kPartDecodeGpus, kPartIdleCapacity, kPartKvTransfer,
                                       kPartRework,      kPartRecovery,   kPartIdleGpus,     kPartStorage,
                                       kPartEgress,      kPartFees,       kPartTax};

// Fills doc (which holds schema, ok and name) for an inference result.
void WriteInferenceJson(const Scenario& s, const Result& r, nlohmann::json* doc);

// The JSON path of the first inference figure that is not finite ("" when all are).
std::string InferenceNonFinitePath(const InferenceResult& ir);

}  // namespace gpucost
