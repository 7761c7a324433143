// models.cpp — the model catalog (see models.h).
#include "scenario/models.h"

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "base/assets.h"
#include "scenario/fields.h"

namespace gpucost {

double MlaAttentionParams(double hidden, double heads, double q_rank, double kv_rank, double nope, double rope, double v) {
  // Without a query latent (q_lora_rank null, DeepSeek-V2-Lite) the queries are one direct projection h -> H (nope + rope).
  const double queries = q_rank > 0 ? hidden * q_rank + q_rank + q_rank * heads * (nope + rope) : hidden * heads * (nope + rope);
  return queries + hidden * (kv_rank + rope) + kv_rank + kv_rank * heads * (nope + v) + heads * v * hidden;
}

namespace {

const std::vector<ModelSpec>& ModelCatalog() {
  static const std::vector<ModelSpec> catalog = [] {
    std::vector<ModelSpec> out;
    const EmbeddedAsset* asset = FindAsset("models.json");
    if (!asset) return out;
    const nlohmann::json doc = nlohmann::json::parse(asset->data, asset->data + asset->size, nullptr, false);
    if (!doc.is_object() || !doc.contains("models") || !doc["models"].is_array()) return out;
    for (const nlohmann::json& j : doc["models"]) {
      ModelSpec m;
      m.id = j.value("id", "");
      m.name = j.value("name", "");
      m.source = j.value("source", "");
      m.params = j.value("params", 0.0);
      m.active_params = j.value("active_params", 0.0);
      m.layers = j.value("layers", std::int64_t{0});
      m.hidden = j.value("hidden", std::int64_t{0});
      m.heads = j.value("heads", std::int64_t{0});
      m.kv_heads = j.value("kv_heads", m.heads);
      m.head_dim = j.value("head_dim", std::int64_t{0});
      m.ffn_hidden = j.value("ffn_hidden", std::int64_t{0});
      m.vocab = j.value("vocab", std::int64_t{0});
      m.seq_len = j.value("seq_len", std::int64_t{0});
      m.ffn_gated = j.value("ffn_gated", false);
      m.tied_embeddings = j.value("tied_embeddings", true);
      m.experts = j.value("experts", std::int64_t{0});
      m.active_experts = j.value("active_experts", std::int64_t{0});
      m.shared_experts = j.value("shared_experts", std::int64_t{0});
      m.expert_ffn_hidden = j.value("expert_ffn_hidden", std::int64_t{0});
      m.dense_layers = j.value("dense_layers", std::int64_t{0});
      if (j.contains("mla") && j["mla"].is_object()) {
        const nlohmann::json& a = j["mla"];
        m.attention_params = MlaAttentionParams(static_cast<double>(m.hidden), static_cast<double>(m.heads),
                                                a.value("q_lora_rank", 0.0), a.value("kv_lora_rank", 0.0),
                                                a.value("qk_nope_head_dim", 0.0), a.value("qk_rope_head_dim", 0.0),
                                                a.value("v_head_dim", 0.0));
        m.kv_lora_rank = j["mla"].value("kv_lora_rank", std::int64_t{0});
        m.rope_head_dim = j["mla"].value("qk_rope_head_dim", std::int64_t{0});
      }
      out.push_back(std::move(m));
    }
    return out;
  }();
  return catalog;
}

}  // namespace

const ModelSpec* Models() { return ModelCatalog().data(); }
std::size_t ModelCount() { return ModelCatalog().size(); }

const ModelSpec* FindModel(const char* id) {
  for (const ModelSpec& m : ModelCatalog())
    if (m.id == id) return &m;
  return nullptr;
}

std::string ModelIds() {
  std::string ids;
  for (const ModelSpec& m : ModelCatalog()) ids += (ids.empty() ? "" : ", ") + m.id;
  return ids;
}

std::vector<ModelFieldValue> ModelFieldValues(const ModelSpec& m) {
  auto d = [](std::int64_t v) { return static_cast<double>(v); };
  return {{"workload.params", m.params},
          {"workload.layers", d(m.layers)},
          {"workload.hidden", d(m.hidden)},
          {"workload.heads", d(m.heads)},
          {"workload.seq_len", d(m.seq_len)},
          {"workload.vocab", d(m.vocab)},
          {"workload.ffn_hidden", d(m.ffn_hidden)},
          {"workload.kv_heads", d(m.kv_heads)},
          {"workload.ffn_gated", m.ffn_gated ? 1.0 : 0.0},
          {"workload.tied_embeddings", m.tied_embeddings ? 1.0 : 0.0},
          {"workload.head_dim", d(m.head_dim)},
          {"workload.attention_params", m.attention_params},
          {"workload.kv_lora_rank", d(m.kv_lora_rank)},
          {"workload.rope_head_dim", d(m.rope_head_dim)},
          {"workload.experts", d(m.experts)},
          {"workload.active_experts", d(m.active_experts)},
          {"workload.shared_experts", d(m.shared_experts)},
          {"workload.expert_ffn_hidden", d(m.expert_ffn_hidden)},
          {"workload.dense_layers", d(m.dense_layers)},
          {"workload.active_params", m.active_params}};
}

void ApplyModelField(Scenario* s, const ModelFieldValue& v) {
  if (const FieldSpec* f = FindField(v.path)) SetNumber(*s, *f, v.value);
}

void SetModelId(Scenario* s, const ModelSpec& m) {
  std::snprintf(s->arch.model, kTextCapacity, "%s", m.id.c_str());
}

}  // namespace gpucost
