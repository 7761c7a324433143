// catalog.h — the hardware catalog (assets/gpus.json, embedded at build time).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <vector>

#include "base/numeric.h"
#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

// A MIG profile (issue 50; hardware/partition.h): NVIDIA's name, its compute slices (of 7) and memory slices (of 8),
// and how many of it one GPU holds.
struct MigProfile {
  std::string name;        // "3g.40gb"
  int compute_slices = 0;  // g
  int memory_slices = 0;   // m
  int instances = 0;       // the most of this profile on one GPU
};
struct MigSpec {
  std::vector<MigProfile> profiles;  // empty: the GPU has no MIG
  double sm_share = 1;               // SMs available in MIG mode / all SMs (a compute slice is 1/7 of those)
  std::string sm_share_source, source;
};

struct GpuSpec {
  std::string id;     // "h100-sxm"
  std::string name;   // "NVIDIA H100 SXM5 80GB"
  std::string arch;
  // Dense peaks, TFLOP/s (0 = the part has no such mode). Index: Precision (bf16, fp16, fp8, tf32, fp32).
  double dense_tflops[5] = {0, 0, 0, 0, 0};
  double fp64_tflops = 0;
  double int8_tops = 0;
  double hbm_gb = 0;       // as the datasheet writes it; the capacity is hbm_gb GiB (EffectiveHardware::hbm_bytes)
  double hbm_tbps = 0;     // 1e12 bytes/s
  double nvlink_gbps = 0;  // per GPU, both directions
  double pcie_gbps = 0;
  std::int64_t sms = 0;    // streaming multiprocessors (issue 46: block-scaled FP8 decode GEMMs; 0 = not given)
  // Issue 46: the GPUs one NVLink island joins all-to-all (8 on an HGX / DGX board through NVSwitch, 2 for PCIe
  // cards joined by an NVLink bridge, 1 without NVLink); beyond it a node's GPUs talk over PCIe (comm.h).
  std::int64_t nvlink_domain = 1;
  double tdp_w = 0;
  // IT power per GPU of its reference server (host, network included): the server's maximum / its GPUs; 0 when
  // no datasheet gives one. Owned hardware's power (tco.h OwnedFor) comes from here.
  double server_kw_per_gpu = 0;
  std::string server_source;
  // Purchase price per GPU of its 8-GPU server with its share of network and installation (USD before tax; 0 when
  // no price is given). Owned hardware's capex (tco.h OwnedFor) comes from here; mostly estimates, said in the source.
  double server_usd_per_gpu = 0;
  std::string server_price_source;
  std::string source;
  // The probe's healthy reference (assets/probes/README.md): the fraction of the dense peak a healthy GPU of this
  // kind sustains in the probe's square GEMM, per precision (index: Precision; 0 = not measured), and of hbm_tbps
  // in its device copy (0 = not measured), with where the figures come from. The probe import divides a measured
  // rate by it, so that a healthy machine keeps its datasheet figure.
  double probe_gemm_fraction[5] = {0, 0, 0, 0, 0};
  double probe_hbm_fraction = 0;
  std::string probe_reference_source;
};

// Issue 50: the GPU's MIG profiles (NVIDIA's MIG User Guide; none when it has no MIG). Read from gpus.json the first
// time a slice is asked for, not with the catalog: the page's first frame never needs them (its first load).
const MigSpec& MigOf(const GpuSpec& gpu);
// NVIDIA's MIG layout on a GPU of hbm_gb: the same six profiles on every GPU that has MIG (compute slices, memory slices,
// instances: 1/1/7, 1/2/4, 2/2/3, 3/4/2, 4/4/1, 7/8/1), named "<g>g.<round(hbm_gb x m / 8)>gb" (MIG User Guide). The
// page's gpus.json leaves the listed profiles out and reads these (a test checks they equal the listed ones).
std::vector<MigProfile> StandardMigProfiles(double hbm_gb);

// All GPUs of the catalog (parsed once from the embedded asset).
const GpuSpec* Gpus();
std::size_t GpuCount();
const GpuSpec* FindGpu(const char* id);
// The GPU whose probe reference stands in for a GPU without its own (gpus.json probe_reference_default).
const char* ProbeReferenceDefaultGpu();

// Dense peak TFLOP/s of `gpu` for precision p (0 if unsupported).
inline double DensePeakTflops(const GpuSpec& gpu, Precision p) { return gpu.dense_tflops[static_cast<int>(p)]; }

// No GPU's best GEMM reaches its dense peak (which assumes boost clocks large GEMMs do not sustain): a tuned
// large bf16 GEMM on a healthy H100 SXM ran at 780.2 of 989.4 TFLOP/s = 0.79 (H. He, "H100 peak matmul FLOPS",
// 2024, https://gist.github.com/Chillee/2ec89696db8b7ed1c24461159e325405; torch.compile max-autotune). Such a
// short benchmark runs at boost clocks: sustained at the power limit an H200 reaches 0.68 (assets/probes). So the
// step-time model scales its GEMM curve to each GPU's measured sustained fraction (StepHardware::gemm_ceiling,
// GpuSpec::probe_gemm_fraction) and the probe import divides by it; this constant is the curve's own top and the
// ceiling of a GPU and precision without a reference.
constexpr double kBestGemmFractionOfDensePeak = 0.79;

const char* PrecisionName(Precision p);

// The hardware's check of a scenario (gathered by ValidateScenario, job/validate.h): cluster.gpu is in the catalog
// and runs workload.precision (unless cluster.peak_tflops is given). Returns the GPU, nullptr when unknown.
const GpuSpec* ValidateGpu(const Scenario& s, std::vector<InputError>* errors);

// The hardware figures a scenario runs with: the catalog's, replaced by the scenario's cluster.peak_tflops,
// hbm_tbps and nvlink_gbps where given (e.g. from a probe report).
struct EffectiveHardware {
  const GpuSpec* gpu = nullptr;
  double peak_flops = 0;         // FLOP/s per GPU, dense, at the workload's precision
  double hbm_bytes_per_s = 0;
  double nvlink_bytes_per_s = 0; // per GPU, one direction (half the catalog's bidirectional figure)
  double hbm_bytes = 0;
  double pcie_bytes_per_s = 0;   // per GPU, one direction (issue 46: the path beyond the NVLink island)
  std::int64_t nvlink_domain = 1;
};
// Returns false if the GPU id is unknown. With cluster.partition (hardware/partition.h) the figures are one slice's:
// its share of the compute, memory and memory bandwidth, and the host's PCIe in place of NVLink (MIG has no
// peer-to-peer access between instances).
bool ResolveHardware(const Scenario& s, EffectiveHardware* out);

}  // namespace gpucost
