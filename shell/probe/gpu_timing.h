// gpu_timing.h — CUDA error checks and event timing shared by the probe's .cu files.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_probe.h"

#define GPUCOST_CUDA(call) ::gpucost::probe_gpu::Check((call), #call, __FILE__, __LINE__)

namespace gpucost::probe_gpu {

inline void Check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                             cudaGetErrorString(e));
}

// Times `samples` samples of `launches` calls of op() on `stream` with CUDA events; milliseconds per call.
template <typename Op>
std::vector<double> TimeMs(cudaStream_t stream, int samples, int launches, Op op) {
  cudaEvent_t start, stop;
  GPUCOST_CUDA(cudaEventCreate(&start));
  GPUCOST_CUDA(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int s = 0; s < samples; ++s) {
    GPUCOST_CUDA(cudaEventRecord(start, stream));
    for (int l = 0; l < launches; ++l) op();
    GPUCOST_CUDA(cudaEventRecord(stop, stream));
    GPUCOST_CUDA(cudaEventSynchronize(stop));
    float elapsed = 0;
    GPUCOST_CUDA(cudaEventElapsedTime(&elapsed, start, stop));
    ms.push_back(static_cast<double>(elapsed) / launches);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// Warms up for about options.warmup_ms, then picks launches per sample (>= 1) to last about sample_ms.
// Returns {warmup launches, launches per sample}.
template <typename Op>
std::pair<int, int> WarmUp(cudaStream_t stream, const Options& options, Op op) {
  op();  // the first call loads kernels (lazy loading) and picks algorithms: not representative
  GPUCOST_CUDA(cudaStreamSynchronize(stream));
  const double one_ms = std::max(1e-4, TimeMs(stream, 1, 1, op)[0]);
  const int warmup = static_cast<int>(std::clamp(options.warmup_ms / one_ms, 1.0, 100000.0));
  TimeMs(stream, 1, warmup, op);
  const double settled_ms = std::max(1e-4, TimeMs(stream, 1, 3, op)[0]);
  return {warmup + 5, static_cast<int>(std::clamp(std::ceil(options.sample_ms / settled_ms), 1.0, 10000.0))};
}

// Rates (units per second, scaled) from per-call milliseconds: min, median, max.
inline ProbeStats RateStats(std::vector<double> ms, double units_per_call, double scale) {
  std::sort(ms.begin(), ms.end());
  auto rate = [&](double t) { return units_per_call / (t * 1e-3) * scale; };
  const std::size_t n = ms.size();
  const double median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  return {rate(ms.back()), rate(median_ms), rate(ms.front())};
}

// Device memory freed on every path out.
struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(std::size_t bytes) { GPUCOST_CUDA(cudaMalloc(&ptr, bytes)); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { GPUCOST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

}  // namespace gpucost::probe_gpu
