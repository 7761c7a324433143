// models.h — open models by name (assets/models.json, embedded at build time): the published shape of each
// (layers, hidden, heads, kv_heads, head_dim, ffn, vocabulary, embeddings, pre-training context; mixture-of-
// experts layout; DeepSeek's multi-head latent attention) with its source. `workload.model: "<id>"` fills
// the scenario's shape fields and workload.params from it; fields given explicitly win (json_io.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace gpucost {

struct ModelSpec {
  std::string id;            // "llama-3.1-70b"
  std::string name;          // "Llama 3.1 70B"
  std::string source;        // config.json / paper
  double params = 0;         // published total count
  double active_params = 0;  // published count per token (MoE; 0: dense)
  std::int64_t layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, ffn_hidden = 0, vocab = 0,
               seq_len = 0;
  bool ffn_gated = false, tied_embeddings = true;
  std::int64_t experts = 0, active_experts = 0, shared_experts = 0, expert_ffn_hidden = 0, dense_layers = 0;
  double attention_params = 0;  // computed from the MLA projection sizes (0: from heads and widths)
  std::int64_t kv_lora_rank = 0, rope_head_dim = 0;  // MLA's cached latent and rope key (issue 26; 0: not MLA)
};

// DeepSeek multi-head latent attention's weights per layer (DeepSeek-V2, arXiv:2405.04434, section 2.1; V3's
// config.json): queries through a rank-q_rank down/up projection (with a norm), or one direct projection when the
// model has no query latent (q_rank 0: DeepSeek-V2-Lite); keys and values through a shared rank-kv_rank latent
// (plus one rope key per token); the output projection from heads x v.
double MlaAttentionParams(double hidden, double heads, double q_rank, double kv_rank, double nope, double rope, double v);

// All models of the catalog, in file order (parsed once from the embedded asset).
const ModelSpec* Models();
std::size_t ModelCount();
const ModelSpec* FindModel(const char* id);
// "llama-2-7b, llama-2-13b, ..." for messages.
std::string ModelIds();

// The scenario fields a model fills, as (JSON path, value) pairs: workload.params, layers, hidden, heads,
// seq_len, vocab, ffn_hidden, kv_heads, ffn_gated, tied_embeddings, head_dim, attention_params, experts,
// active_experts, shared_experts, expert_ffn_hidden, dense_layers, active_params.
// A value of 0 for an auto field means "not given" (the model derives it).
struct ModelFieldValue {
  const char* path;
  double value;
};
std::vector<ModelFieldValue> ModelFieldValues(const ModelSpec& m);

// Sets every field of ModelFieldValues(m) on *s, except those whose path `keep(path)` returns true for
// (fields the user gave explicitly). Sets workload.model to m.id.
template <typename Keep>
void ApplyModel(const ModelSpec& m, Scenario* s, Keep keep);
void ApplyModelField(Scenario* s, const ModelFieldValue& v);  // one field through the field table
void SetModelId(Scenario* s, const ModelSpec& m);

template <typename Keep>
void ApplyModel(const ModelSpec& m, Scenario* s, Keep keep) {
  SetModelId(s, m);
  for (const ModelFieldValue& v : ModelFieldValues(m))
    if (!keep(v.path)) ApplyModelField(s, v);
}

}  // namespace gpucost
