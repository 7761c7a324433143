#include "scenario/link_binary.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "scenario/fields.h"
#include "scenario/models.h"

namespace gpucost {
namespace {

using nlohmann::json;

// Frozen order (see link_binary.h): append only.
const char* const kPaths[] = {
    "name", "workload.kind", "workload.params", "workload.tokens", "workload.flops", "workload.precision",
    "workload.layers", "workload.hidden", "workload.heads", "workload.seq_len", "workload.vocab",
    "workload.ffn_hidden", "workload.kv_heads", "workload.ffn_gated", "workload.tied_embeddings",
    "workload.input_bytes_per_token", "workload.tasks", "workload.task_gpu_hours", "workload.gpus_per_task",
    "workload.model", "workload.head_dim", "workload.attention_params", "workload.experts",
    "workload.active_experts", "workload.shared_experts", "workload.expert_ffn_hidden", "workload.dense_layers",
    "workload.active_params", "parallel.expert_parallel", "workload.finetune", "workload.lora_rank",
    "workload.lora_targets", "reliability.checkpointing", "cluster.gpu", "cluster.gpus", "cluster.gpus_per_node",
    "cluster.mfu", "cluster.node_network_gbps", "cluster.link_efficiency", "cluster.peak_tflops",
    "cluster.hbm_tbps", "cluster.nvlink_gbps", "parallel.data_parallel", "parallel.tensor_parallel",
    "parallel.pipeline_parallel", "parallel.zero_stage", "parallel.micro_batch", "parallel.global_batch",
    "parallel.pipeline_interleave", "parallel.sequence_parallel", "parallel.recompute", "parallel.optimizer",
    "parallel.overlap_comm", "parallel.single_node_mfu", "parallel.critical_batch_tokens",
    "parallel.reference_batch_tokens", "parallel.context_parallel", "parallel.flash_attention",
    "reliability.gpu_mtbf_hours", "reliability.recovery_minutes", "reliability.checkpoint_write_minutes",
    "reliability.checkpoint_interval_minutes", "reliability.checkpoint_async", "reliability.async_stall_fraction",
    "reliability.checkpoint_bytes_per_param", "reliability.checkpoint_gb", "reliability.downtime_hours",
    "reliability.hot_spares", "reliability.hot_spare_recovery_minutes", "reliability.failure_shape",
    "storage.read_gbps", "storage.checkpoint_write_gbps", "storage.dataset_gb", "storage.checkpoints_retained",
    "storage.retention_days", "storage.usd_per_gb_month", "storage.egress_gb", "storage.usd_per_gb_egress",
    "pricing.model", "pricing.usd_per_gpu_hour", "pricing.billing_increment_seconds",
    "pricing.minimum_billed_seconds", "pricing.whole_nodes", "pricing.fixed_fees_usd", "pricing.tax_rate",
    "pricing.price_includes_tax", "pricing.currency", "pricing.krw_per_usd", "pricing.krw_per_usd_date",
    "pricing.krw_per_gpu_hour", "pricing.offer", "pricing.spot.preemptions_per_node_day",
    "pricing.spot.reacquire_minutes", "pricing.spot.notice_seconds", "pricing.spot.discount",
    "pricing.reserved.term_months", "pricing.reserved.committed_gpus", "pricing.reserved.capacity_guaranteed",
    "pricing.reserved.usd_per_gpu_hour_on_demand", "pricing.reserved.discount",
    "pricing.reserved.other_use_fraction", "pricing.owned.capex_usd_per_gpu", "pricing.owned.lifetime_years",
    "pricing.owned.residual_fraction", "pricing.owned.power_kw_per_gpu", "pricing.owned.pue",
    "pricing.owned.usd_per_kwh", "pricing.owned.opex_usd_per_gpu_year", "pricing.owned.spares_fraction",
    "pricing.owned.utilization", "pricing.owned.compare_usd_per_gpu_hour",
    "pricing.owned.colocation_usd_per_kw_month", "pricing.owned.maintenance_fraction_per_year",
    "pricing.owned.staff_usd_per_gpu_year", "pricing.owned.repair_hours_per_failure", "inference.input_tokens",
    "inference.output_tokens", "inference.requests_per_second", "inference.peak_to_mean", "inference.requests",
    "inference.hours", "inference.weight_precision", "inference.kv_precision", "inference.slo.ttft_ms",
    "inference.slo.tpot_ms", "inference.slo.percentile", "inference.mode", "inference.prefill.gpu",
    "inference.prefill.tensor_parallel", "inference.prefill.replicas", "inference.prefill.usd_per_gpu_hour",
    "inference.decode.gpu", "inference.decode.tensor_parallel", "inference.decode.replicas",
    "inference.decode.usd_per_gpu_hour", "inference.kv_link_gbps", "inference.kv_transfer_overlap",
    "inference.max_batch", "inference.kv_reserve", "inference.gpu_memory_fraction", "inference.prefill_mfu",
    "inference.decode_bandwidth_efficiency", "inference.step_overhead_ms", "provider.provider", "provider.cpu",
    "provider.ram", "provider.storage_performance", "provider.tenancy", "provider.interconnect",
    "provider.os_driver", "provider.minimum_term", "provider.setup_fee", "provider.support_scope",
    "provider.data_location", "provider.access_control", "provider.encryption", "provider.audit_logs",
    "provider.backup_location", "provider.staff_access", "provider.incident_response", "provider.sla",
    "provider.certifications",
    // Appended after the merge of issues 25, 26, 29 and 31 (append-only: older version-2 links keep their indices).
    "workload.kv_lora_rank",
    "workload.rope_head_dim",
    "cluster.framework",
    "parallel.tp_comm_overlap",
    "parallel.ep_comm_overlap",
    "pricing.vat_recoverable",
    "pricing.owned.other_use_fraction",
    "inference.service_months",
    "workload.deadline_hours",
    "workload.value_per_day_usd",
    "capacity.on_demand_wait_hours",
    "cluster.bring_up_hours",
    "cluster.allocation_efficiency",
    "reliability.restore_test_every",
    "reliability.restore_test_minutes",
    "reliability.bad_checkpoint_probability",
    "reliability.repair_hours",
    "reliability.spares_included",
    "data.preprocess.cpu_cores_per_gpu",
    "data.preprocess.samples_per_core_second",
    "data.tokens_per_sample",
    "storage.small_file_latency_ms",
    "storage.files_per_sample",
    "storage.staging.dataset_gb",
    "storage.staging.gbps",
    "storage.staging.billed",
    "storage.scratch_usd_per_gb_month",
    "pricing.support_usd_per_month",
    "pricing.owned.interest_rate",
    // Issue 28 (appended).
    "inference.prefix_tokens",
    "inference.prefix_cache_hit",
    "inference.speculative.draft_model",
    "inference.speculative.draft_params",
    "inference.speculative.tokens_per_step",
    "inference.speculative.acceptance_rate",
    "inference.router.usd_per_hour",
    "inference.router.latency_ms",
    "inference.autoscale.min_replicas",
    "inference.autoscale.max_replicas",
    "inference.autoscale.scale_up_minutes",
    "inference.autoscale.scale_down_minutes",
    "inference.attention",  // appended after issue 28
    "inference.chunked_prefill",  // issue 26
    "inference.request_overhead_ms",  // issue 26
    "inference.request_overhead_us_per_token",
    "inference.cuda_graphs",  // issue 26
    "pricing.owned.lead_time_days",  // issue 45
    "workload.frozen_precision",  // issue 46
    "workload.real_token_fraction",
    "inference.weight_group_size",
    "workload.packed_document_tokens",
    "inference.moe_split",
    // Issue 50 (appended).
    "cluster.partition",
    "cluster.partition_interference",
    "cluster.partition_price_fraction",
    "workload.program.experiments",
    "workload.program.abandoned_fraction",
    "workload.program.evaluation_hours",
    "workload.target_loss",
    "workload.loss_fit",
    "reliability.infant_failure_fraction",
    "reliability.infant_mean_hours",
    "reliability.slow_node_fraction",
    "reliability.slow_node_slowdown",
    "reliability.collective_timeouts_per_day",
    "reliability.collective_timeout_minutes",
    "pricing.stopped_hours",
    "pricing.stopped_price_fraction",
    "pricing.stopped_discount_hours",
    "parallel.fused_elementwise",  // issue 46 (appended)
    "inference.fused_moe_finalize",  // issue 46 (appended)
    "inference.weight_scaling",
};
constexpr std::size_t kPathCount = sizeof kPaths / sizeof kPaths[0];

const FieldSpec* SpecAt(std::size_t i) { return FindField(kPaths[i]); }

// As ScenarioToJson: a field that is absent from the compact JSON (its default, or an automatic 0).
// Whether the scenario's file holds the field. A scenario naming a model (workload.model) gets the model's
// shape for every shape field its file omits (models.h ApplyModel): such a field is held when it differs from
// the model's value, which may be the default (ffn_gated false on a gated model).
bool Present(const Scenario& s, const FieldSpec& f) {
  if (s.arch.model[0] && std::strncmp(f.path, "workload.", 9) == 0)
    if (const ModelSpec* m = FindModel(s.arch.model))
      for (const ModelFieldValue& v : ModelFieldValues(*m))
        if (std::strcmp(v.path, f.path) == 0) return GetNumber(s, f) != v.value;
  if (IsDefault(s, f)) return false;
  return !(f.is_auto && f.kind != FieldKind::kText && GetNumber(s, f) == 0);
}


void PutVarint(std::string* out, std::uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
std::uint64_t ZigZag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
std::int64_t UnZigZag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

// The shortest decimal m x 10^e that reads back as v.
void PutNumber(std::string* out, double v) {
  std::int64_t m = 0;
  int e = 0;
  if (v != 0) {
    char buf[40];
    for (int precision = 1; precision <= 17; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*e", precision - 1, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
    // buf: [-]d[.ddd]e[+-]xx
    const char* p = buf;
    const bool negative = *p == '-';
    if (negative) ++p;
    int digits = 0;
    for (; *p && *p != 'e'; ++p)
      if (*p >= '0' && *p <= '9') {
        m = m * 10 + (*p - '0');
        ++digits;
      }
    e = (*p == 'e' ? std::atoi(p + 1) : 0) - (digits - 1);
    while (m != 0 && m % 10 == 0) {
      m /= 10;
      ++e;
    }
    if (negative) m = -m;
  }
  PutVarint(out, ZigZag(e));
  PutVarint(out, ZigZag(m));
}

struct LinkReader {
  const std::string& bytes;
  std::size_t pos;
  std::size_t end;
  bool ok = true;
  std::uint64_t Varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) break;
      const unsigned char b = static_cast<unsigned char>(bytes[pos++]);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok = false;
    return 0;
  }
  // A number as JSON: an integer when it is one (and fits exactly), else a double.
  json Number() {
    const std::int64_t e = UnZigZag(Varint()), m = UnZigZag(Varint());
    if (!ok || e < -400 || e > 400) {
      ok = false;
      return 0;
    }
    if (e >= 0 && e <= 15) {
      std::int64_t v = m, scale = 1;
      for (int i = 0; i < e; ++i) scale *= 10;
      if (v <= (std::int64_t{1} << 53) / scale && v >= -(std::int64_t{1} << 53) / scale) return v * scale;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%llde%lld", static_cast<long long>(m), static_cast<long long>(e));
    return std::strtod(buf, nullptr);
  }
  bool Byte(unsigned char* b) {
    if (pos >= end) return ok = false;
    *b = static_cast<unsigned char>(bytes[pos++]);
    return true;
  }
};

void PutValue(std::string* out, const Scenario& s, const FieldSpec& f) {
  switch (f.kind) {
    case FieldKind::kText: {
      const char* t = GetText(s, f);
      PutVarint(out, std::strlen(t));
      *out += t;
      break;
    }
    case FieldKind::kBool: out->push_back(GetNumber(s, f) != 0 ? 1 : 0); break;
    case FieldKind::kEnum: PutVarint(out, static_cast<std::uint64_t>(GetNumber(s, f))); break;
    case FieldKind::kInteger:
    case FieldKind::kNumber: PutNumber(out, GetNumber(s, f)); break;
  }
}

bool SameScaling(const ScalingInputs& a, const ScalingInputs& b) {
  if (a.point_count != b.point_count) return false;
  for (int i = 0; i < a.point_count; ++i)
    if (a.points[i].gpus != b.points[i].gpus || a.points[i].tokens_per_second != b.points[i].tokens_per_second) return false;
  return true;
}

bool SameLoadProfile(const InferenceLoadProfileInputs& a, const InferenceLoadProfileInputs& b) {
  if (a.profile != b.profile) return false;
  if (a.profile != static_cast<int>(LoadProfile::kCustom)) return true;
  for (int h = 0; h < kLoadProfileHours; ++h)
    if (a.multipliers[h] != b.multipliers[h]) return false;
  return true;
}

// One scenario against a base (nullptr: the defaults). False when a differing field is not in the table.
bool PutScenario(std::string* out, const Scenario& s, const Scenario& base, std::size_t base_index) {
  std::string changes;
  std::size_t count = 0, listed = 0;
  long previous = -1;
  for (std::size_t i = 0; i < kPathCount; ++i) {
    const FieldSpec* f = SpecAt(i);
    if (!f) continue;
    ++listed;
    const bool here = Present(s, *f), there = Present(base, *f);
    if (!here && !there) continue;
    if (here && there && SameValue(s, base, *f)) continue;
    PutVarint(&changes, (static_cast<std::uint64_t>(static_cast<long>(i) - previous - 1) << 1) | (here ? 0 : 1));
    if (here) PutValue(&changes, s, *f);
    previous = static_cast<long>(i);
    ++count;
  }
  if (listed != FieldCount()) {  // a field the table lacks: does it differ from the base?
    for (std::size_t i = 0; i < FieldCount(); ++i) {
      const FieldSpec& f = Fields()[i];
      bool known = false;
      for (std::size_t k = 0; k < kPathCount && !known; ++k) known = std::strcmp(kPaths[k], f.path) == 0;
      if (!known && (Present(s, f) || Present(base, f))) return false;
    }
  }
  PutVarint(out, base_index);
  PutVarint(out, count);
  *out += changes;
  // The tail byte (link_binary.h): bits 0-1 the scaling points, bits 2-3 inference.load_profile, bit 4 an
  // "inference.autoscale": {} given or taken away. Links made before issue 28 have bits 2-4 clear.
  const int scaling = SameScaling(s.scaling, base.scaling) ? 0 : s.scaling.point_count == 0 ? 1 : 2;
  const InferenceLoadProfileInputs& lp = s.inference.load_profile;
  const int custom = static_cast<int>(LoadProfile::kCustom);
  const int profile = SameLoadProfile(lp, base.inference.load_profile) ? 0 : lp.profile == 0 ? 1 : lp.profile == custom ? 3 : 2;
  const bool autoscale = s.inference.autoscale_given != base.inference.autoscale_given;
  out->push_back(static_cast<char>(scaling | (profile << 2) | (autoscale ? 16 : 0)));
  if (scaling == 2) {
    PutVarint(out, static_cast<std::uint64_t>(s.scaling.point_count));
    for (int i = 0; i < s.scaling.point_count; ++i) {
      PutNumber(out, static_cast<double>(s.scaling.points[i].gpus));
      PutNumber(out, s.scaling.points[i].tokens_per_second);
    }
  }
  if (profile == 2) PutVarint(out, static_cast<std::uint64_t>(lp.profile));
  if (profile == 3)
    for (double m : lp.multipliers) PutNumber(out, m);
  return true;
}

// Sets (or with `value` null, removes) a dotted path in a JSON object.
void SetPath(json* doc, const std::string& path, const json* value) {
  json* node = doc;
  std::size_t begin = 0;
  std::vector<std::pair<json*, std::string>> trail;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', begin)) {
    const std::string key = path.substr(begin, dot - begin);
    if (!value && (!node->is_object() || !node->contains(key))) return;
    trail.push_back({node, key});
    node = &(*node)[key];
    begin = dot + 1;
  }
  const std::string leaf = path.substr(begin);
  if (value) {
    (*node)[leaf] = *value;
    return;
  }
  if (node->is_object()) node->erase(leaf);
  for (auto it = trail.rbegin(); it != trail.rend(); ++it) {  // no empty sections left behind
    json& child = (*it->first)[it->second];
    if (child.is_object() && child.empty()) it->first->erase(it->second);
  }
}

}  // namespace

const char* const* LinkFieldPaths() { return kPaths; }
std::size_t LinkFieldPathCount() { return kPathCount; }

std::uint32_t Crc32(const std::string& bytes, std::size_t n) {
  std::uint32_t crc = 0xffffffffu;
  for (std::size_t i = 0; i < n && i < bytes.size(); ++i) {
    crc ^= static_cast<unsigned char>(bytes[i]);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

bool EncodeLinkBinary(const std::vector<const Scenario*>& scenarios, std::string* bytes) {
  bytes->clear();
  bytes->push_back(2);
  PutVarint(bytes, scenarios.size());
  const Scenario defaults = DefaultScenario();
  for (std::size_t k = 0; k < scenarios.size(); ++k) {
    std::string best;
    for (std::size_t b = 0; b <= k; ++b) {  // the defaults, or an earlier scenario of this link
      std::string candidate;
      if (!PutScenario(&candidate, *scenarios[k], b == 0 ? defaults : *scenarios[b - 1], b)) return false;
      if (best.empty() || candidate.size() < best.size()) best = candidate;
    }
    *bytes += best;
  }
  const std::uint32_t crc = Crc32(*bytes, bytes->size());
  for (int i = 0; i < 4; ++i) bytes->push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  return true;
}

namespace {
Message Corrupted(const char* what) { return {"msg.link_corrupted", {MessageParam::Key(what)}}; }
}  // namespace

Message DecodeLinkBinary(const std::string& bytes, std::vector<std::string>* scenario_json) {
  scenario_json->clear();
  if (bytes.size() < 6) return Corrupted("msg.lb.too_short");
  const std::size_t body = bytes.size() - 4;
  std::uint32_t stored = 0;
  for (int i = 0; i < 4; ++i) stored |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[body + i])) << (8 * i);
  if (Crc32(bytes, body) != stored) return {"msg.link_checksum", {}};
  if (bytes[0] != 2) return Corrupted("msg.lb.version");
  LinkReader r{bytes, 1, body};
  const std::uint64_t count = r.Varint();
  if (!r.ok || count == 0 || count > 9) return Corrupted("msg.lb.scenario_count");
  std::vector<json> docs;
  for (std::uint64_t k = 0; k < count; ++k) {
    const std::uint64_t base = r.Varint();
    if (!r.ok || base > k) return Corrupted("msg.lb.base");
    json doc = base == 0 ? json::object() : docs[base - 1];
    const std::uint64_t changes = r.Varint();
    if (!r.ok || changes > kPathCount) return Corrupted("msg.lb.change_count");
    long index = -1;
    for (std::uint64_t c = 0; c < changes; ++c) {
      const std::uint64_t key = r.Varint();
      if (!r.ok || (key >> 1) >= kPathCount) return Corrupted("msg.lb.field_index");
      index += static_cast<long>(key >> 1) + 1;
      if (index >= static_cast<long>(kPathCount)) return Corrupted("msg.lb.field_index");
      const FieldSpec* f = SpecAt(static_cast<std::size_t>(index));
      if (!f) return Corrupted("msg.lb.unknown_field");
      if (key & 1) {
        SetPath(&doc, f->path, nullptr);
        continue;
      }
      json value;
      switch (f->kind) {
        case FieldKind::kText: {
          const std::uint64_t n = r.Varint();
          if (!r.ok || n > r.end - r.pos) return Corrupted("msg.lb.text_length");
          value = std::string(bytes, r.pos, static_cast<std::size_t>(n));
          r.pos += static_cast<std::size_t>(n);
          break;
        }
        case FieldKind::kBool: {
          unsigned char b = 0;
          if (!r.Byte(&b) || b > 1) return Corrupted("msg.lb.bool");
          value = b == 1;
          break;
        }
        case FieldKind::kEnum: {
          const std::uint64_t i = r.Varint();
          std::uint64_t n = 0;
          while (f->choices && f->choices[n]) ++n;
          if (!r.ok || i >= n) return Corrupted("msg.lb.choice");
          value = f->choices[i];
          break;
        }
        case FieldKind::kInteger:
        case FieldKind::kNumber: value = r.Number(); break;
      }
      if (!r.ok) return Corrupted("msg.lb.truncated");
      SetPath(&doc, f->path, &value);
    }
    unsigned char tail = 0;
    if (!r.Byte(&tail) || tail > 31 || (tail & 3) > 2) return Corrupted("msg.lb.scaling");
    const int scaling = tail & 3, profile = (tail >> 2) & 3;
    if (scaling == 1) doc.erase("scaling");
    if (scaling == 2) {
      const std::uint64_t n = r.Varint();
      if (!r.ok || n > static_cast<std::uint64_t>(kMaxScalingPoints)) return Corrupted("msg.lb.scaling_points");
      json points = json::array();
      for (std::uint64_t i = 0; i < n; ++i) {
        json gpus = r.Number(), tps = r.Number();
        points.push_back({{"gpus", gpus}, {"tokens_per_second", tps}});
      }
      if (!r.ok) return Corrupted("msg.lb.scaling_points");
      doc["scaling"] = {{"points", points}};
    }
    if (profile == 1 && doc.contains("inference")) doc["inference"].erase("load_profile");
    if (profile == 2) {
      const std::uint64_t i = r.Varint();
      if (!r.ok || i == 0 || i >= static_cast<std::uint64_t>(LoadProfile::kCustom)) return Corrupted("msg.lb.load_profile");
      doc["inference"]["load_profile"] = kLoadProfileNames[i];
    }
    if (profile == 3) {
      json hours = json::array();
      for (int h = 0; h < kLoadProfileHours; ++h) hours.push_back(r.Number());
      if (!r.ok) return Corrupted("msg.lb.load_profile");
      doc["inference"]["load_profile"] = hours;
    }
    if (tail & 16) {  // "inference.autoscale": {} given (kept when it holds fields) or taken away (when empty)
      json& inference = doc["inference"];
      if (!inference.contains("autoscale")) inference["autoscale"] = json::object();
      else if (inference["autoscale"].empty()) inference.erase("autoscale");
    }
    docs.push_back(doc);
  }
  if (r.pos != body) return {"msg.link_corrupted", {MessageParam::Key("msg.lb.left_over", {std::to_string(body - r.pos)})}};
  for (const json& d : docs) scenario_json->push_back(d.dump());
  return {};
}

}  // namespace gpucost
