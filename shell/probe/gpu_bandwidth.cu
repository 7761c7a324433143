// gpu_bandwidth.cu — HBM (device copy: 2 x buffer per copy, read + write; triad a = b + s c: 3 x buffer),
// pinned host<->device (buffer once), peer copies between GPUs (buffer once, one direction).
#include "gpu_timing.h"

namespace gpucost::probe_gpu {
namespace {

__global__ void Triad(float4* a, const float4* b, const float4* c, float s, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

// HBM buffer: options.buffer_gb, or less so that three fit in a quarter of the free memory.
std::size_t HbmBufferBytes(const Options& options) {
  std::size_t free_bytes = 0, total = 0;
  GPUCOST_CUDA(cudaMemGetInfo(&free_bytes, &total));
  const std::size_t want = static_cast<std::size_t>(options.buffer_gb * 1e9);
  return std::min(want, free_bytes / 12) / (1u << 20) * (1u << 20);  // whole MiB
}

template <typename Op>
ProbeBandwidth Time(const char* kind, int gpu, int peer, double bytes, double bytes_counted, cudaStream_t s,
                    const Options& options, Op op) {
  WarmUp(s, options, op);
  const std::vector<double> ms = TimeMs(s, options.samples, 1, op);
  return ProbeBandwidth{kind, gpu, peer, bytes, options.samples, RateStats(ms, bytes_counted, 1e-9)};
}

}  // namespace

void MeasureDeviceBandwidth(int gpu, const Options& options, ProbeReport* report) {
  GPUCOST_CUDA(cudaSetDevice(gpu));
  Stream stream;
  const std::size_t bytes = HbmBufferBytes(options);
  {
    DeviceBuffer a(bytes), b(bytes), c(bytes);
    GPUCOST_CUDA(cudaMemsetAsync(b.ptr, 1, bytes, stream.s));
    GPUCOST_CUDA(cudaMemsetAsync(c.ptr, 2, bytes, stream.s));
    report->bandwidth.push_back(Time("hbm_copy", gpu, -1, bytes, 2.0 * bytes, stream.s, options, [&] {
      GPUCOST_CUDA(cudaMemcpyAsync(a.ptr, b.ptr, bytes, cudaMemcpyDeviceToDevice, stream.s));
    }));
    cudaDeviceProp p{};
    GPUCOST_CUDA(cudaGetDeviceProperties(&p, gpu));
    const std::size_t n4 = bytes / sizeof(float4);
    report->bandwidth.push_back(Time("hbm_triad", gpu, -1, bytes, 3.0 * bytes, stream.s, options, [&] {
      Triad<<<p.multiProcessorCount * 8, 256, 0, stream.s>>>(static_cast<float4*>(a.ptr), static_cast<float4*>(b.ptr),
                                                              static_cast<float4*>(c.ptr), 0.5f, n4);
      GPUCOST_CUDA(cudaGetLastError());
    }));
  }
  const std::size_t transfer = static_cast<std::size_t>(options.transfer_gb * 1e9);
  void* host = nullptr;
  GPUCOST_CUDA(cudaMallocHost(&host, transfer));
  try {
    DeviceBuffer d(transfer);
    report->bandwidth.push_back(Time("h2d_pinned", gpu, -1, transfer, transfer, stream.s, options, [&] {
      GPUCOST_CUDA(cudaMemcpyAsync(d.ptr, host, transfer, cudaMemcpyHostToDevice, stream.s));
    }));
    report->bandwidth.push_back(Time("d2h_pinned", gpu, -1, transfer, transfer, stream.s, options, [&] {
      GPUCOST_CUDA(cudaMemcpyAsync(host, d.ptr, transfer, cudaMemcpyDeviceToHost, stream.s));
    }));
  } catch (...) {
    cudaFreeHost(host);
    throw;
  }
  cudaFreeHost(host);
}

void MeasurePeerCopies(const Options& options, ProbeReport* report) {
  const int count = static_cast<int>(report->gpus.size());
  const std::size_t bytes = static_cast<std::size_t>(options.transfer_gb * 1e9);
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j) {
      if (i == j) continue;
      GPUCOST_CUDA(cudaSetDevice(j));
      DeviceBuffer dst(bytes);
      GPUCOST_CUDA(cudaSetDevice(i));
      if (report->peer_access[i][j]) {  // direct copies over NVLink/PCIe; else the driver stages them
        const cudaError_t e = cudaDeviceEnablePeerAccess(j, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // clear it
        else GPUCOST_CUDA(e);
      }
      DeviceBuffer src(bytes);
      Stream stream;
      report->bandwidth.push_back(Time("peer_copy", i, j, bytes, bytes, stream.s, options, [&] {
        GPUCOST_CUDA(cudaMemcpyPeerAsync(dst.ptr, j, src.ptr, i, bytes, stream.s));
      }));
    }
}

}  // namespace gpucost::probe_gpu
