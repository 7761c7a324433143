// comm.h — time of the collective operations of data-, tensor- and pipeline-parallel training, from link
// bandwidths (issue 4, communication per step). Plain arithmetic, no allocation.
//
// Model: the bandwidth term of ring collectives (Thakur, Rabenseifner, Gropp 2005, "Optimization of
// Collective Communication Operations in MPICH", IJHPCA 19(1)): on n ranks, a ring all-gather or
// reduce-scatter of a buffer of B bytes moves (n-1)/n x B bytes over each rank's outgoing link; an
// all-reduce (reduce-scatter + all-gather) moves 2 (n-1)/n x B. Each step also pays a latency; a ring has
// n-1 steps per phase. A hierarchical all-reduce (NCCL's tree/ring across nodes) does a reduce-scatter over
// the k ranks inside a node on NVLink, an all-reduce of the 1/k shard across the n/k nodes on the network
// (each GPU drives its own NIC share), then an all-gather inside the node.
// Bandwidths are per GPU and one direction, already multiplied by the achieved link efficiency.
#pragma once
#include <cstdint>

namespace gpucost {

// Latency of one ring step. Assumption of the order of NCCL's measured small-message latencies (a few
// microseconds per hop on NVLink, more across InfiniBand); it matters only for small buffers.
constexpr double kNvlinkHopSeconds = 2e-6;
constexpr double kNetworkHopSeconds = 5e-6;
// Large buffers go by NCCL's Simple protocol, whose latency NCCL's own tuning model puts at 8.4 us per call
// plus, per ring step, 3.4 us over NVLink and 14 us across the network (NCCL src/graph/tuning.cc: baseLat
// and hwLat, Ring/Simple). A flat ring of n ranks on N nodes takes n - 1 steps, N - 1 of them between nodes.
constexpr double kSimpleCallSeconds = 8.4e-6;
constexpr double kSimpleNvlinkStepSeconds = 3.4e-6;
constexpr double kSimpleNetworkStepSeconds = 14e-6;

// Issue 46: GPUs without NVLink, or whose NVLink joins only pairs (PCIe cards with an NVLink bridge: A100 PCIe,
// H100 PCIe / NVL), reach the node's other GPUs over PCIe. A ring of k GPUs inside a node runs over NVLink only
// when all k share one NVLink island (links.nvlink_domain: 8 on HGX / DGX boards, 2 for bridged pairs, 1 without
// NVLink); otherwise every GPU sends and receives over its own PCIe link (pcie_bytes_per_s), and a ring over more
// than half the node's GPUs crosses between the two CPU sockets, where NCCL's path has the host bridge's
// bandwidth (NCCL src/graph/topo.h: SKL_QPI_BW 10 GB/s for Intel Skylake and later, AMD_BW 16 GB/s; NCCL
// moves such traffic through host memory when peer-to-peer across the sockets is off). One ring step over PCIe
// costs NCCL's PCI hop latency (hwLat PCI Ring/Simple 5.7 us against 3.4 us over NVLink, src/graph/tuning.cc).
constexpr double kHostBridgeBytesPerS = 10e9;
constexpr double kPcieHopSeconds = 5.7e-6 / 3.4 * kNvlinkHopSeconds;  // NCCL's PCI : NVLink ring-step ratio

struct Links {
  double nvlink_bytes_per_s = 0;   // per GPU, one direction, achieved (inside an NVLink island)
  double network_bytes_per_s = 0;  // per GPU, one direction, achieved (between nodes)
  std::int64_t gpus_per_node = 8;
  // Issue 46 (see above): the GPUs one NVLink island joins, and the PCIe path beyond it.
  std::int64_t nvlink_domain = 8;
  double pcie_bytes_per_s = 0;       // per GPU, one direction, achieved (0: as NVLink)
  double host_bridge_bytes_per_s = kHostBridgeBytesPerS;
};

// Bandwidth (bytes/s per GPU, one direction) and ring-step latency of a ring of `k` GPUs inside one node.
struct IntraNodePath {
  double bytes_per_s = 0;
  double hop_seconds = 0;
  bool nvlink = true;
};
IntraNodePath IntraNodePathOf(std::int64_t k, const Links& l);

// The links a GPU's catalog entry gives (catalog.h: nvlink_gbps, pcie_gbps, nvlink_domain), one direction, times
// `efficiency`; `nvlink_gbps` is the catalog's figure or a measured override (both directions).
Links LinksFor(double nvlink_gbps, double pcie_gbps, std::int64_t nvlink_domain, double network_bytes_per_s,
               std::int64_t gpus_per_node, double efficiency);

// A group of n ranks of which `per_node` share a node (per_node >= 1; n = per_node x nodes).
struct Group {
  std::int64_t ranks = 1;
  std::int64_t per_node = 1;
};

// The ranks of a group that share a node when the group's members are `stride` GPUs apart in rank order
// (tensor parallel: stride 1; data parallel: stride t; pipeline: stride t x d).
Group GroupOf(std::int64_t ranks, std::int64_t stride, std::int64_t gpus_per_node);

// Ring all-gather / reduce-scatter of `bytes` (the full, gathered buffer) over the group. A group inside one
// node uses NVLink; a group spanning nodes is limited by the network (hierarchical when per_node > 1).
double AllGatherSeconds(double bytes, const Group& g, const Links& l);
double ReduceScatterSeconds(double bytes, const Group& g, const Links& l);
// All-reduce = reduce-scatter + all-gather (hierarchical across nodes).
double AllReduceSeconds(double bytes, const Group& g, const Links& l);
// Latency of one ring all-gather or reduce-scatter call of a large buffer (Simple protocol) over the group:
// what each data-parallel bucket pays on top of its bytes (steptime.cpp).
double RingCallLatencySeconds(const Group& g);
// One point-to-point send of `bytes` between neighbouring pipeline stages (across nodes when `cross_node`; inside a
// node over NVLink when the two stages share an NVLink island, else over PCIe).
double SendSeconds(double bytes, bool cross_node, const Links& l);

}  // namespace gpucost
