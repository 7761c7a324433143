// probe.h — a measurement report of one machine (schema gpucost/probe@1): what `gpucost probe` writes and
// `gpucost eval --probe` / the page's import read. Parse, validate, serialise, derive suggestions, and apply
// the measured figures to a scenario.
//
// Units are in the names: TFLOP/s = 1e12 FLOP/s, GB/s = 1e9 bytes/s, GB = 1e9 bytes. Rates are given as
// min / median / max over the timed samples. Bandwidth conventions (how bytes are counted) are part of each
// measurement's `kind` (see kBandwidthKinds in probe.cpp and assets/probes/README.md).
// Not a hot path: the report uses std::string and std::vector.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr const char* kProbeSchema = "gpucost/probe@1";

struct ProbeStats {  // of a rate over the timed samples
  double min = 0, median = 0, max = 0;
};

struct ProbeHost {
  std::string hostname, cpu_model, os;
  std::int64_t logical_cpus = 0;
  double ram_gb = 0;
};

struct ProbeGpu {
  std::int64_t index = 0;
  std::string name;             // as the driver reports it, e.g. "NVIDIA H100 80GB HBM3"
  std::string pci_bus_id;       // "0000:18:00.0"
  std::string compute_capability;  // "9.0"
  std::int64_t sm_count = 0;
  double memory_gb = 0;
  double max_sm_clock_mhz = 0;     // peak (boost) clock the driver reports
  double max_memory_clock_mhz = 0;
  std::int64_t memory_bus_bits = 0;
};

struct ProbeGemm {
  std::int64_t gpu = 0;
  std::string precision;        // bf16 | fp16 | fp8 | tf32 | fp32 (names of workload.precision)
  std::string shape;            // "square" or a model layer ("qkv", "attn_out", "ffn_up", "ffn_down")
  std::int64_t m = 0, n = 0, k = 0;  // D[m x n] = A[m x k] B[k x n]; 2 m n k FLOPs per GEMM
  std::int64_t warmup = 0, samples = 0, launches_per_sample = 0;
  ProbeStats tflops;
};

struct ProbeBandwidth {
  std::string kind;             // hbm_copy | hbm_triad | h2d_pinned | d2h_pinned | peer_copy | nccl_allreduce
  std::int64_t gpu = 0;         // source GPU (nccl_allreduce: first GPU)
  std::int64_t peer = -1;       // destination GPU for peer_copy, GPUs taking part for nccl_allreduce; else -1
  double bytes = 0;             // transfer size of one operation (buffer size)
  std::int64_t samples = 0;
  ProbeStats gbps;              // counted as the kind's convention says
};

struct ProbeStorage {
  std::string kind;             // dataset_read | checkpoint_write
  std::string dir;
  double bytes = 0;
  std::int64_t files = 0;
  double seconds = 0;
  double gbps = 0;
  bool cache_dropped = false;   // dataset_read: page cache dropped first (posix_fadvise DONTNEED)
  bool fsync = false;           // checkpoint_write: time includes fsync
};

struct ProbePeakFraction {
  std::string precision;
  double measured_tflops = 0;   // best median of the square GEMM over the GPUs' slowest
  double dense_peak_tflops = 0; // catalog
  double fraction = 0;          // measured / dense peak: a ceiling for MFU
};

struct ProbeSuggestions {
  std::string catalog_gpu;      // matched catalog id ("" if none)
  std::vector<ProbePeakFraction> peak_fraction;
  double checkpoint_gb = 0;     // of the scenario the suggestion was made for
  double checkpoint_write_minutes = 0;
  double nccl_busbw_fraction_of_peer = 0;  // all-reduce bus bandwidth / peer copy bandwidth (0: not measured)
};

struct ProbeReport {
  std::string schema = kProbeSchema;
  std::string created_utc;      // ISO 8601, "2026-12-02T10:00:00Z"
  std::string tool_version;
  std::string note;             // free text: machine, provider, offer, anything a reader should know
  ProbeHost host;
  std::string gpu_status;       // ok | unavailable | skipped
  std::string gpu_message;      // why unavailable ("" when ok)
  std::string driver_version, runtime_version;  // "13.0"
  std::vector<ProbeGpu> gpus;
  std::vector<std::vector<bool>> peer_access;   // [i][j]: GPU i can access GPU j's memory directly
  std::vector<ProbeGemm> gemm;
  std::vector<ProbeBandwidth> bandwidth;
  std::vector<ProbeStorage> storage;
  ProbeSuggestions suggestions;
};

struct ProbeParse {
  ProbeReport report;
  std::vector<InputError> errors;  // paths like "gemm[2].tflops.median"
  bool ok() const { return errors.empty(); }
};

// Parses and validates a report (every error collected, paths named). Unknown keys are errors.
ProbeParse ParseProbeJson(std::string_view text);
// Checks ranges and consistency of a report built in code (what ParseProbeJson runs after reading).
std::vector<InputError> ValidateProbe(const ProbeReport& report);
std::string ProbeToJson(const ProbeReport& report, int indent = 2);

// A GEMM shape the probe times: D[m x n] = A[m x k] B[k x n].
struct ProbeGemmShape {
  std::string name;  // "square", "qkv", "attn_out", "ffn_up", "ffn_down"
  std::int64_t m = 0, n = 0, k = 0;
};
// The forward GEMMs of one transformer layer as one GPU runs them (tensor-parallel split; m = micro-batch
// x sequence tokens). Without a model shape in the scenario: Llama 2 7B's (hidden 4096, FFN 11008,
// sequence 4096; Touvron et al. 2023, arXiv:2307.09288), matching the default 7B parameters.
std::vector<ProbeGemmShape> TrainingGemmShapes(const Scenario& s);

// Catalog id for a GPU name as the driver reports it ("NVIDIA H100 80GB HBM3" -> "h100-sxm"), "" if unknown.
std::string MatchCatalogGpu(const std::string& driver_name, double memory_gb);

// Figures a synchronous job on this machine can count on (the slowest GPU's median; 0 = not measured).
double MeasuredGemmTflops(const ProbeReport& report, const char* precision);  // square GEMM
double MeasuredHbmTbps(const ProbeReport& report);        // best of device copy and triad
double MeasuredPeerGbps(const ProbeReport& report);       // one direction, slowest pair
double MeasuredStorageGbps(const ProbeReport& report, const char* kind);

// "" when the report's first GPU matches the scenario's cluster.gpu, else a one-line explanation.
std::string ProbeGpuMismatch(const ProbeReport& report, const Scenario& s);  // English ("" when they match)
Message ProbeGpuMismatchMessage(const ProbeReport& report, const Scenario& s);  // the same as a code (empty when they match)

// MFU is counted against the datasheet's dense peak (README, Conventions), and a default or measured MFU
// means that; the model's memory-bound times likewise start from the datasheet's HBM rate. A healthy GPU reaches
// neither in the probe: sustained at its power limit, a healthy H200's square bf16 GEMM runs at 0.684 of the dense
// peak and its device copy at 0.878 of the HBM rate (assets/probes/README.md). The import therefore divides each
// measured rate by the healthy reference of the measured GPU (gpus.json probe_reference): a healthy machine keeps
// its datasheet figures (MFU means what it meant), a throttled or faulty one is slower in proportion.
struct ProbeReference {
  double fraction = 0;   // of the datasheet figure; 0 = none
  std::string gpu;       // the catalog GPU it was measured on
  bool assumed = false;  // it stands in for the measured GPU, which has none of its own
};
// References for a report whose GPU matched catalog id `measured_gpu` ("" when it matched none): that GPU's own,
// else the default GPU's (gpus.json probe_reference_default), marked assumed.
ProbeReference ProbeGemmReference(const std::string& measured_gpu, Precision p);
ProbeReference ProbeHbmReference(const std::string& measured_gpu);

// What the import divided by, for the CLI's and the page's import messages (empty when it set no peak).
Message ProbeImportNote(const ProbeReport& report, const Scenario& s);

// Applies the measured figures to *s: cluster.peak_tflops (square GEMM at the scenario's precision over its
// healthy reference), cluster.hbm_tbps (best of copy and triad over its reference), cluster.nvlink_gbps (2 x
// one-direction peer copy: the field counts both directions), storage.read_gbps, storage.checkpoint_write_gbps.
// Returns the field paths it set (fields.h), in that order.
std::vector<std::string> ApplyProbe(const ProbeReport& report, Scenario* s);

}  // namespace gpucost
