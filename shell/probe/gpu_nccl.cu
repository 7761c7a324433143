// gpu_nccl.cu — NCCL all-reduce (sum, float) over all local GPUs in one process (ncclCommInitAll), timed
// on the host around all streams like nccl-tests. Bus bandwidth = size / time x 2 (n - 1) / n, the
// figure nccl-tests prints as busbw and the one to compare with link rates.
#include <nccl.h>

#include <chrono>

#include "gpu_timing.h"

namespace gpucost::probe_gpu {
namespace {

void CheckNccl(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + " failed: " + ncclGetErrorString(r));
}

}  // namespace

bool MeasureNcclAllReduce(const Options& options, ProbeReport* report) {
  const int n = static_cast<int>(report->gpus.size());
  if (n < 2) return true;
  const std::size_t bytes = static_cast<std::size_t>(options.transfer_gb * 2e9) / 4 * 4;  // 512 MiB
  std::vector<ncclComm_t> comms(n);
  CheckNccl(ncclCommInitAll(comms.data(), n, nullptr), "ncclCommInitAll");
  std::vector<void*> buffers(n, nullptr);
  std::vector<cudaStream_t> streams(n, nullptr);
  auto release = [&] {
    for (int d = 0; d < n; ++d) {
      cudaSetDevice(d);
      if (buffers[d]) cudaFree(buffers[d]);
      if (streams[d]) cudaStreamDestroy(streams[d]);
      ncclCommDestroy(comms[d]);
    }
  };
  try {
    for (int d = 0; d < n; ++d) {
      GPUCOST_CUDA(cudaSetDevice(d));
      GPUCOST_CUDA(cudaMalloc(&buffers[d], bytes));
      GPUCOST_CUDA(cudaMemset(buffers[d], 0, bytes));
      GPUCOST_CUDA(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking));
    }
    auto all_reduce_ms = [&] {
      const auto start = std::chrono::steady_clock::now();
      CheckNccl(ncclGroupStart(), "ncclGroupStart");
      for (int d = 0; d < n; ++d)
        CheckNccl(ncclAllReduce(buffers[d], buffers[d], bytes / 4, ncclFloat, ncclSum, comms[d], streams[d]),
                  "ncclAllReduce");
      CheckNccl(ncclGroupEnd(), "ncclGroupEnd");
      for (int d = 0; d < n; ++d) GPUCOST_CUDA(cudaStreamSynchronize(streams[d]));
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    for (int i = 0; i < 5; ++i) all_reduce_ms();  // warm-up: NCCL sets up its channels on first use
    std::vector<double> ms;
    for (int i = 0; i < options.samples; ++i) ms.push_back(all_reduce_ms());
    const double bus_factor = 2.0 * (n - 1) / n;
    report->bandwidth.push_back(
        ProbeBandwidth{"nccl_allreduce", 0, n, static_cast<double>(bytes), options.samples,
                       RateStats(ms, bus_factor * static_cast<double>(bytes), 1e-9)});
  } catch (...) {
    release();
    throw;
  }
  release();
  return true;
}

}  // namespace gpucost::probe_gpu
