// inference_techniques.h — what serving engines do beyond plain batching (issue 28), as changes to one replica's
// physics (inference_model.h): mixture-of-experts serving, a cached shared prefix, speculative decoding,
// quantised weights. Each is a separate function the replica model calls; with none of the inputs given the
// model is unchanged. Plain values, no allocation.
//
// Mixture of experts (workload.experts, active_experts, shared_experts; moe.h): compute follows the active
// parameters (ActiveParams), memory holds all of them. The routed experts of a replica are split over its t
// GPUs (expert parallel inside the replica); a decode step at batch B reads the weights of the experts its
// tokens touch: with E routed experts and k per token, an expert is untouched by B tokens with probability
// (1 - k/E)^B (uniform routing), so the expected share read is 1 - (1 - k/E)^B (all of them at large B).
// Each MoE layer sends every token to its k experts and back: two all-to-alls (dispatch and combine) moving
// B x k x hidden x 2 bytes per replica, (t-1)/t of it over the links, plus one hop latency each; the dense
// all-reduce of the MLP is replaced by them (attention keeps its all-reduce).
//
// Prefix caching (inference.prefix_tokens shared by all requests, inference.prefix_cache_hit of them find it
// cached): vLLM's automatic prefix caching and SGLang's RadixAttention reuse the KV blocks of a prompt prefix
// already computed, so a hit skips the prefix's prefill (its linear work and its share of the causal
// attention: cached c of s tokens leave 2 P (s - c) + 2 L h (s^2 - c^2) FLOPs), and the prefix's KV blocks are
// held once per replica and shared by every sequence (vLLM docs, 'Automatic Prefix Caching'; Zheng et al. 2024,
// SGLang, arXiv:2312.07104). A miss computes and stores its own copy.
//
// Speculative decoding (inference.speculative): a draft proposes k = tokens_per_step tokens, the target verifies
// them in one step (k + 1 positions per sequence) and keeps the accepted prefix plus one token of its own.
// With an acceptance rate a per token (i.i.d.), the expected tokens per target step are (1 - a^(k+1)) / (1 - a)
// (Leviathan, Kalman, Matias 2023, 'Fast Inference from Transformers via Speculative Decoding', ICML,
// arXiv:2211.17192, eq. 1). Each step costs the target's verification (weights read once, k + 1 times the
// FLOPs and all-reduce of a plain step) plus k decode steps of the draft (its weights, its KV cache, its
// compute, each with the engine's per-step overhead). Memory holds the draft's weights and, for a draft model,
// its KV cache per token (draft_params alone: a draft head whose KV is not counted, reported in the result).
#pragma once
#include "serving/inference_model.h"
#include "scenario/scenario.h"

namespace gpucost {

// Fills the issue-28 fields of m from the scenario (called by InferenceModelFor).
void ApplyServingTechniques(const Scenario& s, InferenceModel* m);

// Expected tokens per target step with k drafted tokens at acceptance rate a (Leviathan et al. 2023, eq. 1).
double SpeculativeTokensPerStep(double acceptance_rate, double draft_tokens);

// Speculative decoding is on when a draft is given (inference.speculative.draft_model or draft_params). Its
// drafted tokens per step, left on auto: 5, the depth of vLLM's draft-model example (docs.vllm.ai v0.6.3,
// 'Speculative decoding in vLLM': num_speculative_tokens=5) and SGLang's EAGLE default speculative_num_steps 5
// (SGLang docs, 'Speculative Decoding'). The acceptance rate has no such default (it is a property of the draft
// and the traffic, 0.6-0.9 in the papers): it is required with a draft (issue 47: an "auto" that was required).
constexpr std::int64_t kDefaultSpeculativeTokens = 5;
bool SpeculativeDraftGiven(const Scenario& s);
std::int64_t SpeculativeTokens(const Scenario& s);  // tokens_per_step, or the default with a draft; 0 without

// Prefill FLOPs of a prompt of `tokens` tokens of which the cached prefix is skipped.
double PrefillFlops(const InferenceModel& m, double tokens);
// The attention core's share of those FLOPs (QK^T and AV over the prompt, causal: each query over the keys before it;
// a cached prefix's own pairs skipped). Issue 46: it multiplies activations by keys and values, not weights, so it runs
// at the KV cache's precision (ReplicaModel::attention_peak_flops), as in decode.
double PrefillAttentionFlops(const InferenceModel& m, double tokens);
// The routed experts' share of those FLOPs: each fresh token runs k of the E experts' MLPs (expert_params x k / E);
// 0 for a dense model.
double ExpertPrefillFlops(const InferenceModel& m, double tokens);

// Share of the weights a decode step reads with `tokens` tokens in flight (MoE: the touched experts; dense: 1).
double DecodeWeightShare(const InferenceModel& m, double tokens);

// Share of the routed experts' weights a decode step reads with `tokens` tokens in flight (0 for a dense model).
double ExpertReadShare(const InferenceModel& m, double tokens);

// Seconds of the MoE all-to-alls (dispatch and combine) of one step moving `tokens` tokens over the replica
// (0 for a dense model or one GPU).
double MoeAllToAllSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens);

// Seconds the draft spends proposing k tokens for `batch` sequences (0 without speculation).
double DraftSeconds(const InferenceModel& m, const ReplicaModel& r, double batch);

// Memory per GPU the techniques add: the draft's weights; the shared prefix's KV held once per replica.
double DraftWeightBytesPerGpu(const InferenceModel& m, const ReplicaModel& r);
double SharedPrefixBytesPerGpu(const InferenceModel& m, const ReplicaModel& r);

// Decode steps a request needs after its first token (output - 1, divided by the tokens per step).
inline double DecodeSteps(const InferenceModel& m) {
  const double steps = m.output_tokens - 1 > 0 ? m.output_tokens - 1 : 0.0;
  return steps / (m.spec_tokens_per_step > 0 ? m.spec_tokens_per_step : 1.0);
}

// Cross-field checks of the issue-28 inputs (prefix caching, speculative decoding, router, load profile,
// autoscale) for ValidateInference.
void ValidateServingTechniques(const Scenario& s, std::vector<InputError>* errors);

}  // namespace gpucost
