// gpu_probe.h — the GPU measurements of gpucost-probe-gpu, behind a plain C++ interface (no CUDA types),
// so gpu_main.cpp builds the report with the core's probe.h and nlohmann/json never meets nvcc.
// Each function fills its part of the report; a failed CUDA call throws std::runtime_error.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "hardware/probe.h"

namespace gpucost::probe_gpu {

// No GPU, no driver, or a driver older than the runtime: the caller prints one line and exits 3.
struct NoGpu : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<std::string> precisions = {"bf16", "fp16", "fp8", "tf32", "fp32"};
  std::string layer_precision = "bf16";      // the scenario's: the training-like shapes run at it
  std::vector<ProbeGemmShape> layer_shapes;  // from the scenario (TrainingGemmShapes)
  std::int64_t square = 8192;
  int samples = 20;
  double warmup_ms = 300;                    // per measurement, before the timed samples
  double sample_ms = 2;                      // launches per sample chosen to reach about this long
  double buffer_gb = 1.07374182;             // HBM buffers (1 GiB), less when memory is short
  double transfer_gb = 0.268435456;          // host<->device, peer and NCCL buffers (256 MiB)
};

// Devices, versions, peer-access matrix. Throws NoGpu.
void ReadInventory(ProbeReport* report);
// cuBLASLt GEMMs on one GPU: the square shape at every precision it supports, the layer shapes at
// options.layer_precision. Unsupported combinations are left out (and named in *skipped).
void MeasureGemm(int gpu, const Options& options, ProbeReport* report, std::vector<std::string>* skipped);
// HBM copy and triad, pinned host<->device on one GPU.
void MeasureDeviceBandwidth(int gpu, const Options& options, ProbeReport* report);
// Peer copies between every ordered pair of GPUs (when there are several).
void MeasurePeerCopies(const Options& options, ProbeReport* report);
// NCCL all-reduce bus bandwidth over all local GPUs (>= 2). Built only when CMake finds NCCL
// (GPUCOST_HAVE_NCCL).
bool MeasureNcclAllReduce(const Options& options, ProbeReport* report);

}  // namespace gpucost::probe_gpu
