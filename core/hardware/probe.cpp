// probe.cpp — the probe report (gpucost/probe@1): [SECTION] reading, [SECTION] validation, [SECTION] writing,
// [SECTION] measured figures, suggestions and import.
#include "hardware/probe.h"
#include "base/format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "scenario/fields.h"

namespace gpucost {
namespace {

using nlohmann::json;

const char* const kGpuStatuses[] = {"ok", "unavailable", "skipped", nullptr};
const char* const kPrecisions[] = {"bf16", "fp16", "fp8", "tf32", "fp32", nullptr};
// How bytes are counted: hbm_copy reads + writes (2 x buffer), hbm_triad a = b + s c (3 x buffer),
// h2d/d2h/peer_copy the buffer once, nccl_allreduce bus bandwidth = buffer / time x 2 (n - 1) / n.
const char* const kBandwidthKinds[] = {"hbm_copy", "hbm_triad", "h2d_pinned", "d2h_pinned", "peer_copy",
                                       "nccl_allreduce", nullptr};
const char* const kStorageKinds[] = {"dataset_read", "checkpoint_write", nullptr};

bool OneOf(const std::string& v, const char* const* names) {
  for (int i = 0; names[i]; ++i)
    if (v == names[i]) return true;
  return false;
}

std::string Names(const char* const* names) {
  std::string out;
  for (int i = 0; names[i]; ++i) out += (i ? ", " : "") + std::string(names[i]);
  return out;
}

std::string Idx(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

// [SECTION] reading: types only (ranges are ValidateProbe's), every error collected with its path.
class ProbeReader {
 public:
  explicit ProbeReader(std::vector<InputError>* errors) : errors_(errors) {}

  bool Object(const json& o, const std::string& path, std::initializer_list<const char*> keys) {
    if (!o.is_object()) return Fail(path, {"msg.expected_object", {JsonTypeParam(o)}});
    std::string allowed;
    for (const char* k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
    for (auto it = o.begin(); it != o.end(); ++it)
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return it.key() == k; }))
        Fail(Join(path, it.key()), {"msg.unknown_key_allowed", {allowed}});
    return true;
  }
  const json* Array(const json& o, const std::string& path, const char* key) {
    auto it = o.find(key);
    if (it == o.end()) return nullptr;
    if (!it->is_array()) return Fail(Join(path, key), {"msg.expected_array", {JsonTypeParam(*it)}}), nullptr;
    return &*it;
  }
  void Str(const json& o, const std::string& path, const char* key, std::string* out) {
    auto it = o.find(key);
    if (it == o.end()) return;
    if (!it->is_string()) return void(Fail(Join(path, key), {"msg.expected_string", {JsonTypeParam(*it)}}));
    *out = it->get<std::string>();
  }
  void Num(const json& o, const std::string& path, const char* key, double* out) {
    auto it = o.find(key);
    if (it == o.end()) return;
    if (!it->is_number()) return void(Fail(Join(path, key), {"msg.p.number", {JsonTypeParam(*it)}}));
    *out = it->get<double>();
  }
  void Int(const json& o, const std::string& path, const char* key, std::int64_t* out) {
    auto it = o.find(key);
    if (it == o.end()) return;
    if (!it->is_number_integer()) return void(Fail(Join(path, key), {"msg.p.integer", {JsonTypeParam(*it)}}));
    *out = it->get<std::int64_t>();
  }
  void Bool(const json& o, const std::string& path, const char* key, bool* out) {
    auto it = o.find(key);
    if (it == o.end()) return;
    if (!it->is_boolean()) return void(Fail(Join(path, key), {"msg.expected_bool", {JsonTypeParam(*it)}}));
    *out = it->get<bool>();
  }
  void Stats(const json& o, const std::string& path, const char* key, ProbeStats* out) {
    auto it = o.find(key);
    if (it == o.end()) return;
    const std::string p = Join(path, key);
    if (!Object(*it, p, {"min", "median", "max"})) return;
    Num(*it, p, "min", &out->min);
    Num(*it, p, "median", &out->median);
    Num(*it, p, "max", &out->max);
  }
  static std::string Join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
  bool Fail(const std::string& path, Message message) {
    errors_->push_back(CodedError(path, std::move(message)));
    return false;
  }

 private:
  std::vector<InputError>* errors_;
};

void ReadGpus(ProbeReader& r, const json& doc, ProbeReport* out) {
  const json* gpus = r.Array(doc, "", "gpus");
  for (std::size_t i = 0; gpus && i < gpus->size(); ++i) {
    const json& g = (*gpus)[i];
    const std::string p = Idx("gpus", i);
    ProbeGpu gpu;
    if (r.Object(g, p, {"index", "name", "pci_bus_id", "compute_capability", "sm_count", "memory_gb",
                        "max_sm_clock_mhz", "max_memory_clock_mhz", "memory_bus_bits"})) {
      r.Int(g, p, "index", &gpu.index);
      r.Str(g, p, "name", &gpu.name);
      r.Str(g, p, "pci_bus_id", &gpu.pci_bus_id);
      r.Str(g, p, "compute_capability", &gpu.compute_capability);
      r.Int(g, p, "sm_count", &gpu.sm_count);
      r.Num(g, p, "memory_gb", &gpu.memory_gb);
      r.Num(g, p, "max_sm_clock_mhz", &gpu.max_sm_clock_mhz);
      r.Num(g, p, "max_memory_clock_mhz", &gpu.max_memory_clock_mhz);
      r.Int(g, p, "memory_bus_bits", &gpu.memory_bus_bits);
    }
    out->gpus.push_back(gpu);
  }
  const json* matrix = r.Array(doc, "", "peer_access");
  for (std::size_t i = 0; matrix && i < matrix->size(); ++i) {
    const json& row = (*matrix)[i];
    std::vector<bool> cells;
    if (!row.is_array() || !std::all_of(row.begin(), row.end(), [](const json& c) { return c.is_boolean(); })) {
      r.Fail(Idx("peer_access", i), {"msg.p.bool_row", {}});
    } else {
      for (const json& c : row) cells.push_back(c.get<bool>());
    }
    out->peer_access.push_back(cells);
  }
}

void ReadGemm(ProbeReader& r, const json& doc, ProbeReport* out) {
  const json* list = r.Array(doc, "", "gemm");
  for (std::size_t i = 0; list && i < list->size(); ++i) {
    const json& g = (*list)[i];
    const std::string p = Idx("gemm", i);
    ProbeGemm e;
    if (r.Object(g, p, {"gpu", "precision", "shape", "m", "n", "k", "warmup", "samples", "launches_per_sample",
                        "tflops"})) {
      r.Int(g, p, "gpu", &e.gpu);
      r.Str(g, p, "precision", &e.precision);
      r.Str(g, p, "shape", &e.shape);
      r.Int(g, p, "m", &e.m);
      r.Int(g, p, "n", &e.n);
      r.Int(g, p, "k", &e.k);
      r.Int(g, p, "warmup", &e.warmup);
      r.Int(g, p, "samples", &e.samples);
      r.Int(g, p, "launches_per_sample", &e.launches_per_sample);
      r.Stats(g, p, "tflops", &e.tflops);
    }
    out->gemm.push_back(e);
  }
}

void ReadBandwidth(ProbeReader& r, const json& doc, ProbeReport* out) {
  const json* list = r.Array(doc, "", "bandwidth");
  for (std::size_t i = 0; list && i < list->size(); ++i) {
    const json& b = (*list)[i];
    const std::string p = Idx("bandwidth", i);
    ProbeBandwidth e;
    if (r.Object(b, p, {"kind", "gpu", "peer", "bytes", "samples", "gbps"})) {
      r.Str(b, p, "kind", &e.kind);
      r.Int(b, p, "gpu", &e.gpu);
      r.Int(b, p, "peer", &e.peer);
      r.Num(b, p, "bytes", &e.bytes);
      r.Int(b, p, "samples", &e.samples);
      r.Stats(b, p, "gbps", &e.gbps);
    }
    out->bandwidth.push_back(e);
  }
}

void ReadStorage(ProbeReader& r, const json& doc, ProbeReport* out) {
  const json* list = r.Array(doc, "", "storage");
  for (std::size_t i = 0; list && i < list->size(); ++i) {
    const json& s = (*list)[i];
    const std::string p = Idx("storage", i);
    ProbeStorage e;
    if (r.Object(s, p, {"kind", "dir", "bytes", "files", "seconds", "gbps", "cache_dropped", "fsync"})) {
      r.Str(s, p, "kind", &e.kind);
      r.Str(s, p, "dir", &e.dir);
      r.Num(s, p, "bytes", &e.bytes);
      r.Int(s, p, "files", &e.files);
      r.Num(s, p, "seconds", &e.seconds);
      r.Num(s, p, "gbps", &e.gbps);
      r.Bool(s, p, "cache_dropped", &e.cache_dropped);
      r.Bool(s, p, "fsync", &e.fsync);
    }
    out->storage.push_back(e);
  }
}

void ReadHostAndSuggestions(ProbeReader& r, const json& doc, ProbeReport* out) {
  if (auto it = doc.find("host"); it != doc.end() && r.Object(*it, "host", {"hostname", "cpu_model", "os",
                                                                            "logical_cpus", "ram_gb"})) {
    r.Str(*it, "host", "hostname", &out->host.hostname);
    r.Str(*it, "host", "cpu_model", &out->host.cpu_model);
    r.Str(*it, "host", "os", &out->host.os);
    r.Int(*it, "host", "logical_cpus", &out->host.logical_cpus);
    r.Num(*it, "host", "ram_gb", &out->host.ram_gb);
  }
  auto it = doc.find("suggestions");
  if (it == doc.end()) return;
  const char* p = "suggestions";
  if (!r.Object(*it, p, {"catalog_gpu", "peak_fraction", "checkpoint_gb", "checkpoint_write_minutes",
                         "nccl_busbw_fraction_of_peer"}))
    return;
  ProbeSuggestions& s = out->suggestions;
  r.Str(*it, p, "catalog_gpu", &s.catalog_gpu);
  r.Num(*it, p, "checkpoint_gb", &s.checkpoint_gb);
  r.Num(*it, p, "checkpoint_write_minutes", &s.checkpoint_write_minutes);
  r.Num(*it, p, "nccl_busbw_fraction_of_peer", &s.nccl_busbw_fraction_of_peer);
  const json* list = r.Array(*it, p, "peak_fraction");
  for (std::size_t i = 0; list && i < list->size(); ++i) {
    const json& f = (*list)[i];
    const std::string fp = Idx("suggestions.peak_fraction", i);
    ProbePeakFraction e;
    if (r.Object(f, fp, {"precision", "measured_tflops", "dense_peak_tflops", "fraction"})) {
      r.Str(f, fp, "precision", &e.precision);
      r.Num(f, fp, "measured_tflops", &e.measured_tflops);
      r.Num(f, fp, "dense_peak_tflops", &e.dense_peak_tflops);
      r.Num(f, fp, "fraction", &e.fraction);
    }
    s.peak_fraction.push_back(e);
  }
}

// [SECTION] validation helpers
struct Checker {
  std::vector<InputError>* errors;
  void Range(const std::string& path, double v, double lo, double hi, bool lo_exclusive = false) {
    const bool ok = std::isfinite(v) && (lo_exclusive ? v > lo : v >= lo) && v <= hi;
    if (ok) return;
    errors->push_back(CodedError(path, {"msg.must_be", {NumberRangeMessage(FormatBound(lo), FormatBound(hi), lo_exclusive),
                                                        FormatParam("%.17g", v)}}));
  }
  void Stats(const std::string& path, const ProbeStats& s, double hi) {
    Range(path + ".min", s.min, 0, hi, true);
    Range(path + ".median", s.median, 0, hi, true);
    Range(path + ".max", s.max, 0, hi, true);
    if (!(s.min <= s.median && s.median <= s.max))
      errors->push_back(CodedError(path, {"msg.p.stats_order", {}}));
  }
  void Choice(const std::string& path, const std::string& v, const char* const* names) {
    if (!OneOf(v, names))
      errors->push_back(CodedError(path, {"msg.must_be", {MessageParam::Key("msg.range_one_of", {Names(names)}), "\"" + v + "\""}}));
  }
  void Gpu(const std::string& path, std::int64_t index, std::size_t gpus) {
    if (index < 0 || static_cast<std::size_t>(index) >= gpus)
      errors->push_back(CodedError(path, {"msg.p.gpu_index", {std::to_string(gpus), std::to_string(index)}}));
  }
};

void ValidateInventory(const ProbeReport& r, Checker& c) {
  c.Range("host.logical_cpus", static_cast<double>(r.host.logical_cpus), 0, 1e6);
  c.Range("host.ram_gb", r.host.ram_gb, 0, 1e7);
  for (std::size_t i = 0; i < r.gpus.size(); ++i) {
    const ProbeGpu& g = r.gpus[i];
    const std::string p = Idx("gpus", i);
    if (g.index != static_cast<std::int64_t>(i)) c.errors->push_back(CodedError(p + ".index", {"msg.p.index", {std::to_string(i)}}));
    if (g.name.empty()) c.errors->push_back(CodedError(p + ".name", {"msg.p.not_empty", {}}));
    c.Range(p + ".sm_count", static_cast<double>(g.sm_count), 1, 1e5);
    c.Range(p + ".memory_gb", g.memory_gb, 0, 1e5, true);
    c.Range(p + ".max_sm_clock_mhz", g.max_sm_clock_mhz, 0, 1e5);
    c.Range(p + ".max_memory_clock_mhz", g.max_memory_clock_mhz, 0, 1e6);
    c.Range(p + ".memory_bus_bits", static_cast<double>(g.memory_bus_bits), 0, 1e5);
  }
  if (!r.peer_access.empty() && r.peer_access.size() != r.gpus.size())
    c.errors->push_back(CodedError("peer_access", {"msg.p.peer_rows", {std::to_string(r.gpus.size())}}));
  for (std::size_t i = 0; i < r.peer_access.size(); ++i)
    if (r.peer_access[i].size() != r.gpus.size())
      c.errors->push_back(CodedError(Idx("peer_access", i), {"msg.p.peer_cells", {std::to_string(r.gpus.size())}}));
}

void ValidateMeasurements(const ProbeReport& r, Checker& c) {
  for (std::size_t i = 0; i < r.gemm.size(); ++i) {
    const ProbeGemm& g = r.gemm[i];
    const std::string p = Idx("gemm", i);
    c.Gpu(p + ".gpu", g.gpu, r.gpus.size());
    c.Choice(p + ".precision", g.precision, kPrecisions);
    if (g.shape.empty()) c.errors->push_back(CodedError(p + ".shape", {"msg.p.not_empty", {}}));
    for (auto [key, v] : {std::pair{".m", g.m}, {".n", g.n}, {".k", g.k}})
      c.Range(p + key, static_cast<double>(v), 1, 1e7);
    c.Range(p + ".warmup", static_cast<double>(g.warmup), 0, 1e9);
    c.Range(p + ".samples", static_cast<double>(g.samples), 1, 1e9);
    c.Range(p + ".launches_per_sample", static_cast<double>(g.launches_per_sample), 1, 1e9);
    c.Stats(p + ".tflops", g.tflops, 1e5);
  }
  for (std::size_t i = 0; i < r.bandwidth.size(); ++i) {
    const ProbeBandwidth& b = r.bandwidth[i];
    const std::string p = Idx("bandwidth", i);
    c.Choice(p + ".kind", b.kind, kBandwidthKinds);
    c.Gpu(p + ".gpu", b.gpu, r.gpus.size());
    if (b.kind == "peer_copy") {
      c.Gpu(p + ".peer", b.peer, r.gpus.size());
      if (b.peer == b.gpu) c.errors->push_back(CodedError(p + ".peer", {"msg.p.peer_self", {}}));
    } else if (b.kind == "nccl_allreduce") {
      c.Range(p + ".peer", static_cast<double>(b.peer), 2, static_cast<double>(r.gpus.size()));
    }
    c.Range(p + ".bytes", b.bytes, 0, 1e15, true);
    c.Range(p + ".samples", static_cast<double>(b.samples), 1, 1e9);
    c.Stats(p + ".gbps", b.gbps, 1e6);
  }
  for (std::size_t i = 0; i < r.storage.size(); ++i) {
    const ProbeStorage& s = r.storage[i];
    const std::string p = Idx("storage", i);
    c.Choice(p + ".kind", s.kind, kStorageKinds);
    c.Range(p + ".bytes", s.bytes, 0, 1e15, true);
    c.Range(p + ".files", static_cast<double>(s.files), 1, 1e12);
    c.Range(p + ".seconds", s.seconds, 0, 1e7, true);
    c.Range(p + ".gbps", s.gbps, 0, 1e6, true);
  }
}

// Issue 31: a measurement beyond what the hardware can do is refused, not applied (an impossible GEMM rate moved
// a job's cost 120x). The ceiling is 110% of the catalog datasheet (assets/gpus.json) of the GPU the report's
// driver name matches: dense peak FLOP/s at the GEMM's precision; HBM bandwidth (hbm_copy and hbm_triad count
// read + write bytes, so they approach it: the README's table); NVLink per direction (half the catalog's
// both-directions figure) for peer copies, PCIe per direction for host copies. 10% covers boost clocks above the
// datasheet's and rounding. The floor: 1% of the datasheet, and for a GPU not in the catalog 0.01 TFLOP/s and
// 0.01 GB/s: nothing a working datacenter GPU measures (a 1e-300 is a broken report, not a slow machine).
// NCCL's bus bandwidth is left to the general range (NVLink SHARP can exceed the per-link figure).
constexpr double kDatasheetCeiling = 1.10, kDatasheetFloor = 0.01;

const GpuSpec* ReportGpuSpec(const ProbeReport& r, std::int64_t index) {
  if (index < 0 || static_cast<std::size_t>(index) >= r.gpus.size()) return nullptr;
  return FindGpu(MatchCatalogGpu(r.gpus[static_cast<std::size_t>(index)].name, r.gpus[static_cast<std::size_t>(index)].memory_gb).c_str());
}

void Physical(Checker& c, const std::string& path, const ProbeStats& s, double datasheet, const std::string& gpu_name,
              const MessageParam& what, const char* unit, double floor_absolute) {
  const double lo = datasheet > 0 ? kDatasheetFloor * datasheet : floor_absolute;
  const double hi = datasheet > 0 ? kDatasheetCeiling * datasheet : 0;
  for (auto [key, v] : {std::pair{".min", s.min}, {".median", s.median}, {".max", s.max}}) {
    if (!(v > 0)) continue;  // the general range reports it
    if (hi > 0 && v > hi)
      c.errors->push_back(CodedError(path + key, {"msg.p.beyond", {FormatParam("%.6g", v), unit, gpu_name, FormatParam("%.4g", hi),
                                                                   what, FormatParam("%.4g", datasheet)}}));
    else if (v < lo)
      c.errors->push_back(CodedError(path + key, {"msg.p.not_physical", {FormatParam("%.6g", v), unit, FormatParam("%.4g", lo),
                                                                         MessageParam::Key(datasheet > 0 ? "msg.p.floor_sheet" : "msg.p.floor_any")}}));
  }
}

void ValidateAgainstDatasheet(const ProbeReport& r, Checker& c) {
  for (std::size_t i = 0; i < r.gemm.size(); ++i) {
    const ProbeGemm& g = r.gemm[i];
    const GpuSpec* gpu = ReportGpuSpec(r, g.gpu);
    int p = 0;
    while (kPrecisions[p] && g.precision != kPrecisions[p]) ++p;
    const double peak = gpu && kPrecisions[p] ? DensePeakTflops(*gpu, static_cast<Precision>(p)) : 0;
    const MessageParam what = MessageParam::Key("msg.p.what_peak", {kPrecisions[p] ? kPrecisions[p] : ""});
    Physical(c, Idx("gemm", i) + ".tflops", g.tflops, peak, gpu ? gpu->name : "", what, "TFLOP/s", 0.01);
  }
  for (std::size_t i = 0; i < r.bandwidth.size(); ++i) {
    const ProbeBandwidth& b = r.bandwidth[i];
    const GpuSpec* gpu = ReportGpuSpec(r, b.gpu);
    double sheet = 0;
    const char* what = "";
    if (gpu && (b.kind == "hbm_copy" || b.kind == "hbm_triad")) sheet = gpu->hbm_tbps * 1e3, what = "msg.p.what_hbm";
    else if (gpu && b.kind == "peer_copy")
      sheet = (gpu->nvlink_gbps > 0 ? gpu->nvlink_gbps : gpu->pcie_gbps) / 2,
      what = gpu->nvlink_gbps > 0 ? "msg.p.what_nvlink" : "msg.p.what_pcie";
    else if (gpu && (b.kind == "h2d_pinned" || b.kind == "d2h_pinned")) sheet = gpu->pcie_gbps / 2, what = "msg.p.what_pcie";
    if (b.kind == "nccl_allreduce") sheet = 0;
    if (b.kind == "nccl_allreduce" || !gpu || sheet <= 0) {  // floor only
      Physical(c, Idx("bandwidth", i) + ".gbps", b.gbps, 0, "", MessageParam(""), "GB/s", 0.01);
      continue;
    }
    Physical(c, Idx("bandwidth", i) + ".gbps", b.gbps, sheet, gpu->name, MessageParam::Key(what), "GB/s", 0.01);
  }
}

// Issue 45: storage measured on this host is bounded like GEMM and HBM. Whatever a file system delivers to one
// server passes through its memory: a two-socket AMD EPYC 9005 ("Turin") server has 2 x 12 channels of DDR5-6400,
// 2 x 614.4 GB/s = 1,228.8 GB/s (AMD EPYC 9005 product brief, 2024), the most of any server sold; 110% of it is
// the ceiling (1 PB/s was accepted). The floor: 100 KB/s, below any working storage (a broken report).
constexpr double kHostMemoryGbps = 1228.8, kStorageFloorGbps = 1e-4;

void ValidateStorageBounds(const ProbeReport& r, Checker& c) {
  const double hi = kDatasheetCeiling * kHostMemoryGbps;
  for (std::size_t i = 0; i < r.storage.size(); ++i) {
    const double v = r.storage[i].gbps;
    if (!(v > 0)) continue;  // the general range reports it
    const std::string path = Idx("storage", i) + ".gbps";
    if (v > hi)
      c.errors->push_back(CodedError(path, {"msg.p.beyond", {FormatParam("%.6g", v), "GB/s", MessageParam::Key("msg.p.one_host"),
                                                           FormatParam("%.4g", hi), MessageParam::Key("msg.p.what_host_memory"),
                                                           FormatParam("%.5g", kHostMemoryGbps)}}));
    else if (v < kStorageFloorGbps)
      c.errors->push_back(CodedError(path, {"msg.p.not_physical", {FormatParam("%.6g", v), "GB/s", FormatParam("%.4g", kStorageFloorGbps),
                                                                 MessageParam::Key("msg.p.floor_storage")}}));
  }
}

void ValidateSuggestions(const ProbeReport& r, Checker& c) {
  const ProbeSuggestions& s = r.suggestions;
  c.Range("suggestions.checkpoint_gb", s.checkpoint_gb, 0, 1e9);
  c.Range("suggestions.checkpoint_write_minutes", s.checkpoint_write_minutes, 0, 1e9);
  c.Range("suggestions.nccl_busbw_fraction_of_peer", s.nccl_busbw_fraction_of_peer, 0, 100);
  for (std::size_t i = 0; i < s.peak_fraction.size(); ++i) {
    const ProbePeakFraction& f = s.peak_fraction[i];
    const std::string p = Idx("suggestions.peak_fraction", i);
    c.Choice(p + ".precision", f.precision, kPrecisions);
    c.Range(p + ".measured_tflops", f.measured_tflops, 0, 1e5, true);
    c.Range(p + ".dense_peak_tflops", f.dense_peak_tflops, 0, 1e5, true);
    c.Range(p + ".fraction", f.fraction, 0, 10, true);
  }
}

// [SECTION] writing
json StatsJson(const ProbeStats& s) { return {{"min", s.min}, {"median", s.median}, {"max", s.max}}; }

json MeasurementsJson(const ProbeReport& r, json doc) {
  doc["gemm"] = json::array();
  for (const ProbeGemm& g : r.gemm)
    doc["gemm"].push_back({{"gpu", g.gpu}, {"precision", g.precision}, {"shape", g.shape}, {"m", g.m}, {"n", g.n},
                           {"k", g.k}, {"warmup", g.warmup}, {"samples", g.samples},
                           {"launches_per_sample", g.launches_per_sample}, {"tflops", StatsJson(g.tflops)}});
  doc["bandwidth"] = json::array();
  for (const ProbeBandwidth& b : r.bandwidth)
    doc["bandwidth"].push_back({{"kind", b.kind}, {"gpu", b.gpu}, {"peer", b.peer}, {"bytes", b.bytes},
                                {"samples", b.samples}, {"gbps", StatsJson(b.gbps)}});
  doc["storage"] = json::array();
  for (const ProbeStorage& s : r.storage)
    doc["storage"].push_back({{"kind", s.kind}, {"dir", s.dir}, {"bytes", s.bytes}, {"files", s.files},
                              {"seconds", s.seconds}, {"gbps", s.gbps}, {"cache_dropped", s.cache_dropped},
                              {"fsync", s.fsync}});
  json fractions = json::array();
  for (const ProbePeakFraction& f : r.suggestions.peak_fraction)
    fractions.push_back({{"precision", f.precision}, {"measured_tflops", f.measured_tflops},
                         {"dense_peak_tflops", f.dense_peak_tflops}, {"fraction", f.fraction}});
  doc["suggestions"] = {{"catalog_gpu", r.suggestions.catalog_gpu}, {"peak_fraction", fractions},
                        {"checkpoint_gb", r.suggestions.checkpoint_gb},
                        {"checkpoint_write_minutes", r.suggestions.checkpoint_write_minutes},
                        {"nccl_busbw_fraction_of_peer", r.suggestions.nccl_busbw_fraction_of_peer}};
  return doc;
}

// [SECTION] measured figures
double SlowestOfBest(const ProbeReport& r, bool (*wanted)(const ProbeBandwidth&), double scale) {
  std::vector<double> best(r.gpus.size(), 0);
  for (const ProbeBandwidth& b : r.bandwidth)
    if (wanted(b) && b.gpu >= 0 && static_cast<std::size_t>(b.gpu) < best.size())
      best[b.gpu] = std::max(best[b.gpu], b.gbps.median);
  double slowest = 0;
  for (double v : best)
    if (v > 0) slowest = slowest == 0 ? v : std::min(slowest, v);
  return slowest * scale;
}

}  // namespace

ProbeParse ParseProbeJson(std::string_view text) {
  ProbeParse out;
  out.report.schema.clear();
  Message problem;
  if (text.size() > 8 * kMaxJsonBytes) problem = {"msg.p.too_large", {}};
  else if (!CheckJsonDepth(text).empty()) problem = {"msg.too_deep", {std::to_string(kMaxJsonDepth)}};
  if (problem.empty())
    if (const std::string dup = DuplicateKeyPath(text); !dup.empty()) {
      out.errors.push_back(CodedError(dup, {"msg.duplicate_key", {}}));
      return out;
    }
  json doc;
  if (problem.empty()) doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (problem.empty() && doc.is_discarded()) problem = {"msg.p.malformed", {}};
  if (!problem.empty()) {
    out.errors.push_back(CodedError("", std::move(problem)));
    return out;
  }
  ProbeReader r(&out.errors);
  if (!r.Object(doc, "", {"schema", "created_utc", "tool_version", "note", "host", "gpu_status", "gpu_message",
                          "driver_version", "runtime_version", "gpus", "peer_access", "gemm", "bandwidth",
                          "storage", "suggestions"}))
    return out;
  ProbeReport& rep = out.report;
  r.Str(doc, "", "schema", &rep.schema);
  r.Str(doc, "", "created_utc", &rep.created_utc);
  r.Str(doc, "", "tool_version", &rep.tool_version);
  r.Str(doc, "", "note", &rep.note);
  r.Str(doc, "", "gpu_status", &rep.gpu_status);
  r.Str(doc, "", "gpu_message", &rep.gpu_message);
  r.Str(doc, "", "driver_version", &rep.driver_version);
  r.Str(doc, "", "runtime_version", &rep.runtime_version);
  ReadGpus(r, doc, &rep);
  ReadGemm(r, doc, &rep);
  ReadBandwidth(r, doc, &rep);
  ReadStorage(r, doc, &rep);
  ReadHostAndSuggestions(r, doc, &rep);
  if (out.errors.empty()) out.errors = ValidateProbe(rep);
  return out;
}

std::vector<InputError> ValidateProbe(const ProbeReport& report) {
  std::vector<InputError> errors;
  if (report.schema != kProbeSchema)
    errors.push_back(CodedError("schema", {"msg.must_be", {"\"" + std::string(kProbeSchema) + "\"", "\"" + report.schema + "\""}}));
  Checker c{&errors};
  c.Choice("gpu_status", report.gpu_status, kGpuStatuses);
  if (report.gpu_status == "ok" && report.gpus.empty()) errors.push_back(CodedError("gpus", {"msg.p.no_gpus", {}}));
  ValidateInventory(report, c);
  ValidateMeasurements(report, c);
  ValidateAgainstDatasheet(report, c);
  ValidateStorageBounds(report, c);
  ValidateSuggestions(report, c);
  return errors;
}

std::string ProbeToJson(const ProbeReport& r, int indent) {
  json doc;
  doc["schema"] = r.schema;
  doc["created_utc"] = r.created_utc;
  doc["tool_version"] = r.tool_version;
  doc["note"] = r.note;
  doc["host"] = {{"hostname", r.host.hostname}, {"cpu_model", r.host.cpu_model}, {"os", r.host.os},
                 {"logical_cpus", r.host.logical_cpus}, {"ram_gb", r.host.ram_gb}};
  doc["gpu_status"] = r.gpu_status;
  doc["gpu_message"] = r.gpu_message;
  doc["driver_version"] = r.driver_version;
  doc["runtime_version"] = r.runtime_version;
  doc["gpus"] = json::array();
  for (const ProbeGpu& g : r.gpus)
    doc["gpus"].push_back({{"index", g.index}, {"name", g.name}, {"pci_bus_id", g.pci_bus_id},
                           {"compute_capability", g.compute_capability}, {"sm_count", g.sm_count},
                           {"memory_gb", g.memory_gb}, {"max_sm_clock_mhz", g.max_sm_clock_mhz},
                           {"max_memory_clock_mhz", g.max_memory_clock_mhz}, {"memory_bus_bits", g.memory_bus_bits}});
  doc["peer_access"] = json::array();
  for (const std::vector<bool>& row : r.peer_access) doc["peer_access"].push_back(row);
  // Paths and names may hold bytes that are not UTF-8: replaced (U+FFFD), never an exception.
  return MeasurementsJson(r, std::move(doc)).dump(indent, ' ', false, json::error_handler_t::replace);
}

std::vector<ProbeGemmShape> TrainingGemmShapes(const Scenario& s) {
  const WorkloadInputs& w = s.workload;
  const bool shaped = w.hidden > 0 && w.seq_len > 0;
  const std::int64_t hidden = shaped ? w.hidden : 4096;
  const std::int64_t ffn = shaped ? (w.ffn_hidden > 0 ? w.ffn_hidden : 4 * w.hidden) : 11008;
  const std::int64_t tokens = (shaped ? w.seq_len : 4096) * s.parallel.micro_batch;
  const std::int64_t tp = s.parallel.tensor_parallel;
  auto split = [tp](std::int64_t v) { return std::max<std::int64_t>(1, v / tp); };
  // Grouped-query attention narrows K and V; a gated MLP's gate and up projections run as one GEMM (fused).
  const std::int64_t kv = shaped && w.kv_heads > 0 && w.heads > 0 ? hidden * w.kv_heads / w.heads : hidden;
  return {{"qkv", tokens, split(hidden + 2 * kv), hidden},
          {"attn_out", tokens, hidden, split(hidden)},
          {"ffn_up", tokens, split(w.ffn_gated ? 2 * ffn : ffn), hidden},
          {"ffn_down", tokens, hidden, split(ffn)}};
}

std::string MatchCatalogGpu(const std::string& driver_name, double memory_gb) {
  std::string n = driver_name;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char ch) { return std::tolower(ch); });
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  if (has("h200")) return "h200-sxm";
  if (has("b200")) return "b200";
  if (has("l40s")) return "l40s";
  if (has("h100")) return has("pcie") ? "h100-pcie" : has("nvl") ? "h100-nvl" : "h100-sxm";
  if (has("a100")) {
    if (has("pcie")) return memory_gb > 60 ? "a100-pcie-80gb" : "";
    return memory_gb > 60 ? "a100-sxm-80gb" : "a100-sxm-40gb";
  }
  return "";
}

double MeasuredGemmTflops(const ProbeReport& r, const char* precision) {
  std::vector<double> best(r.gpus.size(), 0);
  for (const ProbeGemm& g : r.gemm)
    if (g.shape == "square" && g.precision == precision && g.gpu >= 0 && static_cast<std::size_t>(g.gpu) < best.size())
      best[g.gpu] = std::max(best[g.gpu], g.tflops.median);
  double slowest = 0;
  for (double v : best)
    if (v > 0) slowest = slowest == 0 ? v : std::min(slowest, v);
  return slowest;
}

double MeasuredHbmTbps(const ProbeReport& r) {
  return SlowestOfBest(r, [](const ProbeBandwidth& b) { return b.kind == "hbm_copy" || b.kind == "hbm_triad"; }, 1e-3);
}

double MeasuredPeerGbps(const ProbeReport& r) {
  double slowest = 0;
  for (const ProbeBandwidth& b : r.bandwidth)
    if (b.kind == "peer_copy") slowest = slowest == 0 ? b.gbps.median : std::min(slowest, b.gbps.median);
  return slowest;
}

double MeasuredStorageGbps(const ProbeReport& r, const char* kind) {
  double v = 0;
  for (const ProbeStorage& s : r.storage)
    if (s.kind == kind) v = s.gbps;  // the last measurement of the kind
  return v;
}

namespace {

std::string MeasuredCatalogGpu(const ProbeReport& report) {
  return report.gpus.empty() ? std::string() : MatchCatalogGpu(report.gpus[0].name, report.gpus[0].memory_gb);
}

template <typename Fraction>
ProbeReference ReferenceOf(const std::string& measured_gpu, Fraction fraction) {
  if (const GpuSpec* own = FindGpu(measured_gpu.c_str()); own && fraction(*own) > 0)
    return {fraction(*own), own->id, false};
  if (const GpuSpec* stand_in = FindGpu(ProbeReferenceDefaultGpu()); stand_in && fraction(*stand_in) > 0)
    return {fraction(*stand_in), stand_in->id, true};
  return {};
}

}  // namespace

Message ProbeGpuMismatchMessage(const ProbeReport& report, const Scenario& s) {
  if (report.gpus.empty()) return {};
  const std::string matched = MeasuredCatalogGpu(report);
  if (matched == s.cluster.gpu) return {};
  return {"msg.probe_mismatch", {report.gpus[0].name, matched.empty() ? MessageParam::Key("msg.probe_not_in_catalog") : MessageParam(matched),
                                 s.cluster.gpu}};
}

std::string ProbeGpuMismatch(const ProbeReport& report, const Scenario& s) { return ProbeGpuMismatchMessage(report, s).Text(Lang::kEn); }

ProbeReference ProbeGemmReference(const std::string& measured_gpu, Precision p) {
  return ReferenceOf(measured_gpu, [p](const GpuSpec& g) { return g.probe_gemm_fraction[static_cast<int>(p)]; });
}

ProbeReference ProbeHbmReference(const std::string& measured_gpu) {
  return ReferenceOf(measured_gpu, [](const GpuSpec& g) { return g.probe_hbm_fraction; });
}

Message ProbeImportNote(const ProbeReport& report, const Scenario& s) {
  const std::string measured = MeasuredCatalogGpu(report);
  const Precision p = GetPrecision(s);
  const ProbeReference gemm = ProbeGemmReference(measured, p), hbm = ProbeHbmReference(measured);
  if (MeasuredGemmTflops(report, PrecisionName(p)) <= 0 || gemm.fraction <= 0) return {};
  auto from = [&](const ProbeReference& r) {
    return r.assumed ? MessageParam::Key("fmt.probe_reference_assumed", {r.gpu, measured.empty() ? report.gpus[0].name : measured})
                     : MessageParam(r.gpu);
  };
  return {"msg.probe_peak_note", {FormatParam("%.3f", gemm.fraction), PrecisionName(p), from(gemm),
                                  FormatParam("%.3f", hbm.fraction), from(hbm)}};
}

std::vector<std::string> ApplyProbe(const ProbeReport& report, Scenario* s) {
  std::vector<std::string> set;
  const std::string measured = MeasuredCatalogGpu(report);
  const Precision p = GetPrecision(*s);
  if (double t = MeasuredGemmTflops(report, PrecisionName(p)); t > 0) {
    if (const ProbeReference r = ProbeGemmReference(measured, p); r.fraction > 0) {
      s->cluster.peak_tflops = t / r.fraction;
      set.push_back("cluster.peak_tflops");
    }
  }
  if (double t = MeasuredHbmTbps(report); t > 0) {
    if (const ProbeReference r = ProbeHbmReference(measured); r.fraction > 0) {
      s->cluster.hbm_tbps = t / r.fraction;
      set.push_back("cluster.hbm_tbps");
    }
  }
  if (double g = MeasuredPeerGbps(report); g > 0) {
    s->cluster.nvlink_gbps = 2 * g;  // the field counts both directions (catalog convention)
    set.push_back("cluster.nvlink_gbps");
  }
  if (double g = MeasuredStorageGbps(report, "dataset_read"); g > 0) {
    s->storage.read_gbps = g;
    set.push_back("storage.read_gbps");
  }
  if (double g = MeasuredStorageGbps(report, "checkpoint_write"); g > 0) {
    s->storage.checkpoint_write_gbps = g;
    set.push_back("storage.checkpoint_write_gbps");
  }
  return set;
}

}  // namespace gpucost
