// inference_techniques.cpp — MoE serving, prefix caching, speculative decoding (inference_techniques.h).
#include "serving/inference_techniques.h"
#include "base/numeric.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "hardware/comm.h"
#include "training/layout.h"
#include "scenario/models.h"
#include "training/moe.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {

// Prompt tokens served from the prefix cache (at least the last token is computed).
double CachedPromptTokens(const InferenceModel& m, double tokens) {
  return std::min(m.prefix_cached_tokens, std::max(0.0, tokens - 1));
}

}  // namespace

double SpeculativeTokensPerStep(double a, double k) {
  if (k <= 0) return 1;
  if (a >= 1) return k + 1;
  if (a <= 0) return 1;
  return (1 - std::pow(a, k + 1)) / (1 - a);
}

bool SpeculativeDraftGiven(const Scenario& s) {
  const InferenceSpeculativeInputs& sp = s.inference.speculative;
  return sp.draft_model[0] || sp.draft_params > 0;
}

std::int64_t SpeculativeTokens(const Scenario& s) {
  const InferenceSpeculativeInputs& sp = s.inference.speculative;
  if (!SpeculativeDraftGiven(s)) return 0;
  return sp.tokens_per_step > 0 ? sp.tokens_per_step : kDefaultSpeculativeTokens;
}

void ApplyServingTechniques(const Scenario& s, InferenceModel* m) {
  const InferenceInputs& in = s.inference;
  // --- Mixture of experts: active parameters for FLOPs, all of them for memory ---
  const double active = ActiveParams(s);
  m->active_matmul_params = m->matmul_params;
  if (active > 0 && active < m->params) {
    m->active_matmul_params = std::max(0.5 * active, active - m->vocab * m->hidden);
    const double e = D(s.arch.experts), k = D(s.arch.active_experts);
    if (e > 0 && k > 0 && k < e) {
      m->experts = e;
      m->active_experts = k;
      m->moe_layers = std::max(0.0, m->layers - D(s.arch.dense_layers));
      m->expert_width = ShapeFromScenario(s).expert_width();  // the training shape's rule (auto: ffn, then 4 h)
      // Routed-expert weights R from params - active = R (1 - k / E) (the shared part is the same in both).
      m->expert_params = std::min(m->params, (m->params - active) / (1 - k / e));
    }
  }
  // --- Prefix caching ---
  if (in.prefix_tokens > 0 && in.prefix_cache_hit > 0) {
    const double prefix = std::min(in.prefix_tokens, std::max(0.0, in.input_tokens - 1));
    m->prefix_cached_tokens = prefix * in.prefix_cache_hit;
    m->shared_prefix_tokens = prefix;
    // A hit's sequence does not reserve the prefix's blocks: they are the replica's one shared copy.
    m->reserved_tokens = std::max(1.0, m->reserved_tokens - m->prefix_cached_tokens);
  }
  // --- Speculative decoding ---
  const InferenceSpeculativeInputs& sp = in.speculative;
  if (SpeculativeDraftGiven(s) && sp.acceptance_rate > 0) {
    m->spec_draft_tokens = D(SpeculativeTokens(s));
    m->spec_tokens_per_step = SpeculativeTokensPerStep(sp.acceptance_rate, m->spec_draft_tokens);
    if (const ModelSpec* draft = sp.draft_model[0] ? FindModel(sp.draft_model) : nullptr) {
      m->draft_params = draft->params;
      const double kv_heads = D(draft->kv_heads > 0 ? draft->kv_heads : draft->heads);
      const double head_dim = draft->head_dim > 0 ? D(draft->head_dim) : draft->heads > 0 ? D(draft->hidden) / D(draft->heads) : 0;
      m->draft_kv_bytes_per_token = 2 * D(draft->layers) * kv_heads * head_dim * m->kv_bytes_per_element;
    } else {
      m->draft_params = sp.draft_params;
    }
  }
  m->router_latency_s = in.router.latency_ms / 1e3;
}

double PrefillFlops(const InferenceModel& m, double tokens) {
  const double fresh = tokens - CachedPromptTokens(m, tokens);
  return 2 * m.active_matmul_params * fresh + PrefillAttentionFlops(m, tokens) + 2 * m.hidden * m.vocab;
}

double PrefillAttentionFlops(const InferenceModel& m, double tokens) {
  const double cached = CachedPromptTokens(m, tokens);
  const double width = m.prefill_attention_width > 0 ? m.prefill_attention_width : m.attention_width;  // MLA (issue 46)
  return 2 * m.layers * width * (tokens * tokens - cached * cached);
}

double ExpertPrefillFlops(const InferenceModel& m, double tokens) {
  if (m.expert_params <= 0 || m.experts <= 0) return 0;
  return 2 * (tokens - CachedPromptTokens(m, tokens)) * m.expert_params * m.active_experts / m.experts;
}

double ExpertReadShare(const InferenceModel& m, double tokens) {
  if (m.expert_params <= 0 || m.experts <= 0) return 0;
  return 1 - std::pow(1 - m.active_experts / m.experts, std::max(1.0, tokens));
}

double DecodeWeightShare(const InferenceModel& m, double tokens) {
  if (m.expert_params <= 0 || m.params <= 0) return 1;
  return (m.params - m.expert_params * (1 - ExpertReadShare(m, tokens))) / m.params;
}

double MoeAllToAllSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens) {
  if (m.expert_params <= 0 || r.tp <= 1) return 0;
  const double t = D(r.tp);
  // Dispatch and combine: each GPU sends its share of the tokens' k copies to the other t - 1 GPUs.
  const double bytes_out = tokens * m.active_experts * m.hidden * m.act_bytes / t * (t - 1) / t;
  const bool cross_node = r.tp > r.links.gpus_per_node;
  const IntraNodePath path = IntraNodePathOf(r.tp, r.links);  // NVLink, or PCIe beyond the island (issue 46)
  const double bw = cross_node ? r.links.network_bytes_per_s : path.bytes_per_s;
  const double hop = cross_node ? kNetworkHopSeconds : path.hop_seconds;
  return bw > 0 ? m.moe_layers * 2 * (bytes_out / bw + hop) : 0;
}

double DraftSeconds(const InferenceModel& m, const ReplicaModel& r, double batch) {
  if (m.spec_draft_tokens <= 0 || m.draft_params <= 0) return 0;
  const double t = D(r.tp);
  const double b = std::max(1.0, batch);
  const double bytes = (m.draft_params * m.weight_bytes_per_param + b * m.mean_context * m.draft_kv_bytes_per_token) / t;
  const double memory = bytes / (r.hbm_bytes_per_s * m.decode_bw_eff);
  const double compute = 2 * m.draft_params * b / (t * r.peak_flops * m.prefill_mfu);
  return m.spec_draft_tokens * (std::max(memory, compute) + m.step_overhead_s);
}

double DraftWeightBytesPerGpu(const InferenceModel& m, const ReplicaModel& r) {
  return m.spec_draft_tokens > 0 ? m.draft_params * m.weight_bytes_per_param / D(r.tp) : 0;
}

double SharedPrefixBytesPerGpu(const InferenceModel& m, const ReplicaModel& r) {
  return m.shared_prefix_tokens * r.kv_bytes_per_token_per_gpu;
}

void ValidateServingTechniques(const Scenario& s, std::vector<InputError>* e) {
  const InferenceInputs& in = s.inference;
  if (in.prefix_tokens > 0 && in.prefix_cache_hit <= 0)
    e->push_back(CodedError("inference.prefix_cache_hit", {"msg.v.prefix_hit_needed", {}}));
  if (in.prefix_cache_hit > 0 && in.prefix_tokens <= 0)
    e->push_back(CodedError("inference.prefix_cache_hit", {"msg.v.prefix_hit_unused", {}}));
  if (in.prefix_tokens > 0 && in.prefix_tokens >= in.input_tokens)
    e->push_back(CodedError("inference.prefix_tokens", {"msg.v.prefix_tokens", {std::to_string(static_cast<long long>(in.input_tokens))}}));
  const InferenceSpeculativeInputs& sp = in.speculative;
  // A draft turns speculative decoding on; its depth has a sourced default, its acceptance rate is required.
  const bool draft_given = SpeculativeDraftGiven(s);
  if (draft_given && sp.acceptance_rate <= 0)
    e->push_back(CodedError("inference.speculative.acceptance_rate", {"msg.v.spec_acceptance", {}}));
  if (!draft_given && (sp.tokens_per_step > 0 || sp.acceptance_rate > 0))
    e->push_back(CodedError("inference.speculative.draft_model", {"msg.v.spec_draft", {}}));
  if (sp.draft_model[0] && sp.draft_params > 0)
    e->push_back(CodedError("inference.speculative.draft_params", {"msg.v.spec_draft_both", {}}));
  if (sp.draft_model[0] && !FindModel(sp.draft_model))
    e->push_back(CodedError("inference.speculative.draft_model", {"msg.unknown_model", {sp.draft_model, ModelIds()}}));
  if (draft_given && sp.draft_params >= s.workload.params && s.workload.params > 0)
    e->push_back(CodedError("inference.speculative.draft_params", {"msg.v.spec_draft_large", {}}));
  const InferenceAutoscaleInputs& a = in.autoscale;
  if (a.max_replicas > 0 && a.min_replicas > a.max_replicas)
    e->push_back(CodedError("inference.autoscale.min_replicas", {"msg.v.autoscale_min", {std::to_string(a.max_replicas)}}));
  const bool autoscale = in.autoscale_given || a.min_replicas > 0 || a.max_replicas > 0 || a.scale_up_minutes > 0 ||
                         a.scale_down_minutes > 0;
  const auto profile = static_cast<LoadProfile>(in.load_profile.profile);
  if (autoscale && profile == LoadProfile::kNone)
    e->push_back(CodedError("inference.autoscale", {"msg.v.autoscale_profile", {}}));
  if (profile != LoadProfile::kNone && in.requests > 0)
    e->push_back(CodedError("inference.load_profile", {"msg.v.profile_batch", {}}));
  if (autoscale && (in.decode.replicas > 0 || in.prefill.replicas > 0))
    e->push_back(CodedError("inference.autoscale", {"msg.v.autoscale_fixed", {}}));
}

}  // namespace gpucost
