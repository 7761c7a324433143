#include "hardware/catalog.h"

#include <algorithm>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/assets.h"
#include "hardware/partition.h"

namespace gpucost {
namespace {

std::string& ProbeReferenceDefault() {
  static std::string id;
  return id;
}

const std::vector<GpuSpec>& GpuCatalog() {
  static const std::vector<GpuSpec> catalog = [] {
    std::vector<GpuSpec> out;
    const EmbeddedAsset* asset = FindAsset("gpus.json");
    if (!asset) return out;
    nlohmann::json doc = nlohmann::json::parse(asset->data, asset->data + asset->size, nullptr, false);
    if (!doc.is_object() || !doc.contains("gpus")) return out;
    ProbeReferenceDefault() = doc.value("probe_reference_default", "");
    auto num = [](const nlohmann::json& o, const char* key) {
      auto it = o.find(key);
      return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    for (const nlohmann::json& g : doc["gpus"]) {
      GpuSpec spec;
      spec.id = g.value("id", "");
      spec.name = g.value("name", "");
      spec.arch = g.value("arch", "");
      spec.source = g.value("source", "");
      const nlohmann::json& t = g["dense_tflops"];
      spec.dense_tflops[static_cast<int>(Precision::kBf16)] = num(t, "bf16");
      spec.dense_tflops[static_cast<int>(Precision::kFp16)] = num(t, "fp16");
      spec.dense_tflops[static_cast<int>(Precision::kFp8)] = num(t, "fp8");
      spec.dense_tflops[static_cast<int>(Precision::kTf32)] = num(t, "tf32");
      spec.dense_tflops[static_cast<int>(Precision::kFp32)] = num(t, "fp32");
      spec.fp64_tflops = num(t, "fp64");
      spec.int8_tops = num(t, "int8");
      spec.hbm_gb = num(g, "hbm_gb");
      spec.hbm_tbps = num(g, "hbm_tbps");
      spec.nvlink_gbps = num(g, "nvlink_gbps");
      spec.pcie_gbps = num(g, "pcie_gbps");
      spec.sms = static_cast<std::int64_t>(num(g, "sms"));
      spec.nvlink_domain = static_cast<std::int64_t>(g.value("nvlink_domain", spec.nvlink_gbps > 0 ? 8.0 : 1.0));
      spec.tdp_w = num(g, "tdp_w");
      spec.server_kw_per_gpu = num(g, "server_kw_per_gpu");
      spec.server_source = g.value("server_source", "");
      spec.server_usd_per_gpu = num(g, "server_usd_per_gpu");
      spec.server_price_source = g.value("server_price_source", "");
      if (auto r = g.find("probe_reference"); r != g.end() && r->is_object()) {
        for (int p = 0; p < 5; ++p) spec.probe_gemm_fraction[p] = num(*r, PrecisionName(static_cast<Precision>(p)));
        spec.probe_hbm_fraction = num(*r, "hbm");
        spec.probe_reference_source = r->value("source", "");
      }
      out.push_back(std::move(spec));
    }
    return out;
  }();
  return catalog;
}

}  // namespace

const GpuSpec* Gpus() { return GpuCatalog().data(); }

std::vector<MigProfile> StandardMigProfiles(double hbm_gb) {
  static const int kLayout[][3] = {{1, 1, 7}, {1, 2, 4}, {2, 2, 3}, {3, 4, 2}, {4, 4, 1}, {7, 8, 1}};
  std::vector<MigProfile> out;
  for (const auto& l : kLayout)
    out.push_back({std::to_string(l[0]) + "g." + std::to_string(static_cast<long>(std::floor(hbm_gb * l[1] / 8 + 0.5))) + "gb",
                   l[0], l[1], l[2]});
  return out;
}

const MigSpec& MigOf(const GpuSpec& gpu) {
  static const std::vector<MigSpec> migs = [] {  // in the catalog's order
    std::vector<MigSpec> out(GpuCatalog().size());
    const EmbeddedAsset* asset = FindAsset("gpus.json");
    if (!asset) return out;
    const nlohmann::json doc = nlohmann::json::parse(asset->data, asset->data + asset->size, nullptr, false);
    auto gpus = doc.is_object() ? doc.find("gpus") : doc.end();
    if (!doc.is_object() || gpus == doc.end() || !gpus->is_array()) return out;
    // Read with find() only: every other nlohmann accessor is more code in the page.
    const auto num = [](const nlohmann::json& o, const char* key) {
      auto it = o.find(key);
      return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    for (std::size_t i = 0; i < gpus->size() && i < out.size(); ++i) {
      const nlohmann::json& g = (*gpus)[i];
      auto m = g.find("mig");
      if (m == g.end() || !m->is_object()) continue;
      MigSpec& spec = out[i];
      if (m->find("profiles") == m->end()) spec.profiles = StandardMigProfiles(GpuCatalog()[i].hbm_gb);  // the page's
      else if (auto ps = m->find("profiles"); ps->is_array())
        for (const nlohmann::json& p : *ps) {
          auto name = p.find("name");
          spec.profiles.push_back({name != p.end() && name->is_string() ? name->get<std::string>() : std::string(),
                                   static_cast<int>(num(p, "compute")), static_cast<int>(num(p, "memory")),
                                   static_cast<int>(num(p, "instances"))});
        }
      const double sm_share = num(*m, "sm_share");
      spec.sm_share = sm_share > 0 ? sm_share : 1.0;
      for (auto [key, field] : {std::pair<const char*, std::string*>{"sm_share_source", &spec.sm_share_source},
                                {"source", &spec.source}})
        if (auto it = m->find(key); it != m->end() && it->is_string()) *field = it->get<std::string>();
    }
    return out;
  }();
  static const MigSpec none;
  const std::vector<GpuSpec>& catalog = GpuCatalog();
  for (std::size_t i = 0; i < catalog.size() && i < migs.size(); ++i)
    if (catalog[i].id == gpu.id) return migs[i];
  return none;
}
std::size_t GpuCount() { return GpuCatalog().size(); }

const char* ProbeReferenceDefaultGpu() {
  GpuCatalog();
  return ProbeReferenceDefault().c_str();
}

const GpuSpec* FindGpu(const char* id) {
  // The GPU found last is asked again by every evaluation of a scenario (the catalog never changes once read).
  // Two kept: a split service asks for its two pools' GPUs in turn.
  thread_local const GpuSpec* last[2] = {nullptr, nullptr};
  for (const GpuSpec* g : last)
    if (g && g->id == id) return g;
  for (const GpuSpec& g : GpuCatalog()) {
    if (g.id != id) continue;
    last[1] = last[0];
    return last[0] = &g;
  }
  return nullptr;
}

const char* PrecisionName(Precision p) {
  static const char* const kNames[] = {"bf16", "fp16", "fp8", "tf32", "fp32"};
  return kNames[static_cast<int>(p)];
}

bool ResolveHardware(const Scenario& s, EffectiveHardware* out) {
  const GpuSpec* gpu = FindGpu(s.cluster.gpu);
  if (!gpu) return false;
  out->gpu = gpu;
  const double tflops = s.cluster.peak_tflops > 0 ? s.cluster.peak_tflops : DensePeakTflops(*gpu, GetPrecision(s));
  out->peak_flops = tflops * 1e12;
  out->hbm_bytes_per_s = (s.cluster.hbm_tbps > 0 ? s.cluster.hbm_tbps : gpu->hbm_tbps) * 1e12;
  out->nvlink_bytes_per_s = 0.5e9 * (s.cluster.nvlink_gbps > 0 ? s.cluster.nvlink_gbps : gpu->nvlink_gbps);
  out->pcie_bytes_per_s = 0.5e9 * gpu->pcie_gbps;
  // The catalog's NVLink island; a typed link figure for a GPU the catalog gives none describes the link between
  // all of the node's GPUs (cluster.nvlink_gbps: "the GPU-to-GPU link inside a node").
  out->nvlink_domain = gpu->nvlink_gbps > 0 ? std::max<std::int64_t>(1, gpu->nvlink_domain)
                       : out->nvlink_bytes_per_s > 0 ? std::max<std::int64_t>(1, s.cluster.gpus_per_node) : 1;
  // Memory capacity: datasheets' "80 GB" HBM parts hold 80 GiB (nvidia-smi: A100 80GB 81,920 MiB; H100 SXM
  // 81,559 MiB; H200 143,771 MiB for "141 GB"; issue 18: the memory model understated capacity by 7%).
  out->hbm_bytes = gpu->hbm_gb * kBytesPerGib;
  if (const Partition part = s.partition.profile[0] ? PartitionOf(s, *gpu) : Partition{}; part.on) {  // issue 50: one MIG slice
    out->peak_flops *= part.compute_fraction;
    out->hbm_bytes_per_s *= part.memory_fraction;
    out->hbm_bytes *= part.memory_fraction;
    out->nvlink_bytes_per_s = 0.5e9 * gpu->pcie_gbps;  // through the host: no peer access between MIG instances
  }
  return true;
}

namespace {
// The GPU's error, said out of line (AddError in scenario/json_io.h: a valid scenario's check carries none of it).
[[gnu::noinline]] void GpuError(const Scenario& s, const GpuSpec* gpu, std::vector<InputError>* e) {
  if (!gpu) {
    std::string ids;
    for (std::size_t i = 0; i < GpuCount(); ++i) ids += (i ? ", " : "") + Gpus()[i].id;
    e->push_back(CodedError("cluster.gpu", {"msg.unknown_gpu", {ShortenForMessage(s.cluster.gpu), ids}}));
  } else {
    e->push_back(CodedError("workload.precision", {"msg.precision_unsupported", {PrecisionName(GetPrecision(s)), gpu->name}}));
  }
}
}  // namespace

const GpuSpec* ValidateGpu(const Scenario& s, std::vector<InputError>* e) {
  const GpuSpec* gpu = FindGpu(s.cluster.gpu);
  if (!gpu || (s.cluster.peak_tflops == 0 && DensePeakTflops(*gpu, GetPrecision(s)) <= 0)) GpuError(s, gpu, e);
  if (s.partition.profile[0]) ValidatePartition(s, gpu, e);  // issue 50 (partition.h)
  return gpu;
}

}  // namespace gpucost
