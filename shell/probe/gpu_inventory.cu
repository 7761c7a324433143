// gpu_inventory.cu — devices, driver and runtime versions, peer-access matrix.
#include <cstdio>

#include "gpu_timing.h"

namespace gpucost::probe_gpu {
namespace {

std::string VersionText(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

int Attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  return cudaDeviceGetAttribute(&v, attr, device) == cudaSuccess ? v : 0;
}

}  // namespace

void ReadInventory(ProbeReport* report) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) throw NoGpu(std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e));
  if (count == 0) throw NoGpu("cudaGetDeviceCount: no CUDA device");
  int driver = 0, runtime = 0;
  GPUCOST_CUDA(cudaDriverGetVersion(&driver));
  GPUCOST_CUDA(cudaRuntimeGetVersion(&runtime));
  report->driver_version = VersionText(driver);
  report->runtime_version = VersionText(runtime);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    GPUCOST_CUDA(cudaGetDeviceProperties(&p, d));
    ProbeGpu g;
    g.index = d;
    g.name = p.name;
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
    g.pci_bus_id = bus;
    g.compute_capability = std::to_string(p.major) + "." + std::to_string(p.minor);
    g.sm_count = p.multiProcessorCount;
    g.memory_gb = static_cast<double>(p.totalGlobalMem) / 1e9;
    g.max_sm_clock_mhz = Attribute(cudaDevAttrClockRate, d) / 1000.0;
    g.max_memory_clock_mhz = Attribute(cudaDevAttrMemoryClockRate, d) / 1000.0;
    g.memory_bus_bits = p.memoryBusWidth;
    report->gpus.push_back(g);
  }
  report->peer_access.assign(count, std::vector<bool>(count, false));
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j) {
      int can = 0;
      if (i != j) GPUCOST_CUDA(cudaDeviceCanAccessPeer(&can, i, j));
      report->peer_access[i][j] = can != 0;
    }
}

}  // namespace gpucost::probe_gpu
