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
// bandwidth (NCCL src/graph/topo.h: SRP_QPI_BW 22 GB/s for Intel Sapphire Rapids, the servers of the catalog's
// PCIe GPUs (MLPerf Training v4.0's L40S nodes: Xeon Gold 6448Y); SKL_QPI_BW 10 for Skylake-Ice Lake, ERP_QPI_BW 40
// for Emerald Rapids, AMD_ZEN34_BW 24 for Zen 3-4; NCCL moves such traffic through host memory when peer-to-peer
// across the sockets is off). One ring step over PCIe
// costs NCCL's PCI hop latency (hwLat PCI Ring/Simple 5.7 us against 3.4 us over NVLink, src/graph/tuning.cc).
constexpr double kHostBridgeBytesPerS = 22e9;
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
// Issue 46: all-reduces at small messages, as serving runs them once per layer on a decode step's few tokens.
// NCCL picks for each call the fastest of its protocols by its own tuning model (NCCL 2.19-2.23 src/graph/tuning.cc,
// Ring algorithm): time = base latency + steps x hop latency + bytes / bus bandwidth, with
//   LL:     base 6.6 us, per step 0.6 us over NVLink (1.0 PCIe, 2.7 network), half the bus bandwidth;
//   LL128:  base 14 us,  1.9 us (2.5, 4.0), 92% of it (over NVLink only: NCCL enables it there);
//   Simple: base 8.4 us, 3.4 us (5.7, 14), all of it.
// A ring all-reduce of n ranks takes 2 (n - 1) steps and moves 2 (n - 1) / n of the buffer per GPU.
constexpr double kNcclBaseSeconds[3] = {6.6e-6, 14e-6, 8.4e-6};        // LL, LL128, Simple
constexpr double kNcclNvlinkStepSeconds[3] = {0.6e-6, 1.9e-6, 3.4e-6};
constexpr double kNcclPcieStepSeconds[3] = {1.0e-6, 2.5e-6, 5.7e-6};
constexpr double kNcclNetworkStepSeconds[3] = {2.7e-6, 4.0e-6, 14e-6};
constexpr double kNcclBandwidthShare[3] = {0.5, 0.92, 1.0};
double NcclAllReduceSeconds(double bytes, const Group& g, const Links& l);
// Serving engines' own all-reduce inside one NVLink island (vLLM's custom_all_reduce, SGLang's and TensorRT-LLM's
// one-shot / two-shot kernels): after a flag barrier each GPU reads its peers' buffers over NVLink peer-to-peer.
// One-shot reads (n - 1) x the buffer; two-shot reduce-scatters then all-gathers (2 (n - 1) / n of it, two
// barriers); the faster of the two. Fitted on SGLang PR #2904's H100 table (custom all-reduce, TP 2, 4 and 8 x
// 512 B - 1 MB, 18 points; mean absolute error 6.6%): a barrier of 3.7 us + 0.2 us per peer, 70 GB/s of
// peer-to-peer reads per GPU (the kernel's thread blocks, well under NVLink's 450 GB/s). Measured on no serving
// validation run.
constexpr double kCustomBarrierSeconds = 3.7e-6;
constexpr double kCustomBarrierPerPeerSeconds = 0.2e-6;
constexpr double kCustomPeerBytesPerS = 70e9;
double CustomAllReduceSeconds(double bytes, const Group& g, const Links& l);
// The per-layer all-reduce of a serving engine: the fastest of the ring (AllReduceSeconds: bandwidth and 2 us hops,
// what large batches move), NCCL's protocols, and the engine's custom kernel where it has one (`custom`: an engine
// with CUDA graphs, inside one node on one NVLink island).
double ServingAllReduceSeconds(double bytes, const Group& g, const Links& l, bool custom);

// One point-to-point send of `bytes` between neighbouring pipeline stages (across nodes when `cross_node`; inside a
// node over NVLink when the two stages share an NVLink island, else over PCIe).
double SendSeconds(double bytes, bool cross_node, const Links& l);

}  // namespace gpucost
