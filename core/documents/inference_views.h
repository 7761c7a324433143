// inference_views.h — the questions every view asks, answered for an inference scenario (issue 17): the
// serving options side by side (`gpucost compare --serving-options`, the page's Compare button), and the
// words for the questions that do not apply to serving (the GPU-count sweep, the fleet planner), shared by the
// CLI verb and the page so both say the same thing.
#pragma once
#include <string>
#include <vector>

#include "documents/compare.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

// The three ways of serving the scenario's load that a rental decision starts from: colocated H100, colocated
// A100, and a split with H100 prefill and A100 decode (the disaggregated-serving papers' pairing: compute-bound
// prefill on the faster GPU, bandwidth-bound decode on the cheaper one).
//   * GPUs from the catalog: the scenario's own H100 (SXM, PCIe or NVL) or A100 variant where it uses one,
//     else h100-sxm and a100-sxm-80gb.
//   * Prices (per GPU-hour, on the scenario's tax basis) from one source for every GPU type, named in the
//     document (Comparison::price_source) and in each column: the scenario's own when it prices both GPUs, else
//     one provider's offer sheet listing both on demand (issue 45: never the scenario's H100 beside another
//     sheet's A100).
//   * Precision: the scenario's, unless a GPU cannot run it (an A100 has no FP8): then INT8 weights (else BF16)
//     and a BF16 KV cache, said in the column's label and note.
//   * Replica shape (issue 28): tensor parallelism 1, 2, 4 and 8 for each pool (those the heads permit), each
//     with replicas sized for the peak load and the target; the column keeps the cheapest per request that
//     fits and meets the target (its label names the shape). Everything else as given.
//   * A column needing more than kServingGpusWarnRatio times the GPUs of the cheapest carries the warning
//     serving_many_gpus.
//   * Cost per request is the headline; the per-million-token figures split shared costs by one convention
//     for every column (kPerMillionTokensConvention, inference.h).
// Returns false with *error when the scenario is not a valid inference scenario or a GPU has no price.
bool ServingOptions(const Scenario& s, Comparison* out, Message* error);
constexpr int kServingGpusWarnRatio = 4;
constexpr std::size_t kServingOptionCount = 3;  // its columns

// The serving options again for columns that were pinned from them (a share link carries the scenarios, not where
// their prices came from): when `pinned` are ServingOptions(s)'s scenarios exactly, in order, *out is that comparison
// (its price source, each column's note and label) and true; else false (another scenario, or options priced
// otherwise since: the offers changed, the scenario was edited after pinning).
bool PinnedServingOptions(const Scenario& s, const std::vector<Scenario>& pinned, Comparison* out);

// The questions of the page's views and the CLI's verbs that have no serving answer. The message (an i18n
// key; the same text from the CLI verb, with its refusal exit code, and on the page) says why and what
// answers the question for serving instead.
enum class ServingQuestion { kGpuSweep, kFleet };
const char* ServingRefusalKey(ServingQuestion q);

// The text is a scenario document (schema gpucost/scenario@1) of an inference scenario: for verbs that take
// another document (gpucost fleet) to say why instead of listing the keys they do not know.
bool IsInferenceScenario(const std::string& json_text);

}  // namespace gpucost
