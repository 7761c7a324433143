// comm.cpp — ring and hierarchical collectives (see comm.h for the model and its source).
#include "hardware/comm.h"

#include <algorithm>

namespace gpucost {
namespace {

double Fraction(std::int64_t n) { return n > 1 ? static_cast<double>(n - 1) / static_cast<double>(n) : 0.0; }

// One ring phase (all-gather or reduce-scatter) of `bytes` over the group.
double RingPhaseSeconds(double bytes, const Group& g, const Links& l) {
  if (g.ranks <= 1 || bytes <= 0) return 0;
  const std::int64_t k = std::max<std::int64_t>(1, std::min(g.per_node, g.ranks));
  const std::int64_t nodes = g.ranks / k;
  // Inside the node: (k-1)/k of the buffer over NVLink, or PCIe beyond the NVLink island (issue 46).
  const IntraNodePath path = IntraNodePathOf(k, l);
  double seconds = k > 1 ? Fraction(k) * bytes / path.bytes_per_s + static_cast<double>(k - 1) * path.hop_seconds : 0;
  // Across nodes: each of the k GPUs moves its 1/k share of the buffer over its own network share.
  if (nodes > 1)
    seconds += Fraction(nodes) * (bytes / static_cast<double>(k)) / l.network_bytes_per_s +
               static_cast<double>(nodes - 1) * kNetworkHopSeconds;
  return seconds;
}

}  // namespace

IntraNodePath IntraNodePathOf(std::int64_t k, const Links& l) {
  IntraNodePath p;
  const bool island = k <= std::max<std::int64_t>(1, l.nvlink_domain) && l.nvlink_bytes_per_s > 0;
  if (island || !(l.pcie_bytes_per_s > 0)) {
    p.bytes_per_s = l.nvlink_bytes_per_s > 0 ? l.nvlink_bytes_per_s : l.pcie_bytes_per_s;
    p.hop_seconds = kNvlinkHopSeconds;
    p.nvlink = l.nvlink_bytes_per_s > 0;
    if (p.bytes_per_s > 0) return p;
  }
  p.nvlink = false;
  p.hop_seconds = kPcieHopSeconds;
  p.bytes_per_s = l.pcie_bytes_per_s;
  // Over more than half the node's GPUs the ring crosses between the two CPU sockets.
  if (2 * k > l.gpus_per_node && l.host_bridge_bytes_per_s > 0) p.bytes_per_s = std::min(p.bytes_per_s, l.host_bridge_bytes_per_s);
  return p;
}

Links LinksFor(double nvlink_gbps, double pcie_gbps, std::int64_t nvlink_domain, double network_bytes_per_s,
               std::int64_t gpus_per_node, double efficiency) {
  Links l;
  l.nvlink_bytes_per_s = 0.5e9 * nvlink_gbps * efficiency;
  l.pcie_bytes_per_s = 0.5e9 * pcie_gbps * efficiency;
  l.network_bytes_per_s = network_bytes_per_s * efficiency;
  l.gpus_per_node = std::max<std::int64_t>(1, gpus_per_node);
  l.nvlink_domain = nvlink_gbps > 0 ? std::max<std::int64_t>(1, nvlink_domain) : 1;
  return l;
}

Group GroupOf(std::int64_t ranks, std::int64_t stride, std::int64_t gpus_per_node) {
  Group g;
  g.ranks = std::max<std::int64_t>(1, ranks);
  // Members stride GPUs apart: a node of gpn GPUs holds gpn / stride of them (at least 1), at most all.
  const std::int64_t fit = stride >= gpus_per_node ? 1 : gpus_per_node / std::max<std::int64_t>(1, stride);
  g.per_node = std::max<std::int64_t>(1, std::min(g.ranks, fit));
  while (g.ranks % g.per_node != 0) --g.per_node;  // whole nodes only (per_node divides ranks)
  return g;
}

double AllGatherSeconds(double bytes, const Group& g, const Links& l) { return RingPhaseSeconds(bytes, g, l); }
double ReduceScatterSeconds(double bytes, const Group& g, const Links& l) { return RingPhaseSeconds(bytes, g, l); }
double AllReduceSeconds(double bytes, const Group& g, const Links& l) { return 2 * RingPhaseSeconds(bytes, g, l); }

double RingCallLatencySeconds(const Group& g) {
  if (g.ranks <= 1) return 0;
  const std::int64_t nodes = g.ranks / std::max<std::int64_t>(1, std::min(g.per_node, g.ranks));
  return kSimpleCallSeconds + static_cast<double>(g.ranks - nodes) * kSimpleNvlinkStepSeconds +
         static_cast<double>(nodes - 1) * kSimpleNetworkStepSeconds;
}

double NcclAllReduceSeconds(double bytes, const Group& g, const Links& l) {
  if (g.ranks <= 1 || bytes <= 0) return 0;
  const std::int64_t k = std::max<std::int64_t>(1, std::min(g.per_node, g.ranks));
  const std::int64_t nodes = g.ranks / k;
  const IntraNodePath path = IntraNodePathOf(k, l);
  const double n = static_cast<double>(g.ranks);
  const double steps = 2 * (n - 1), inter_steps = 2 * static_cast<double>(nodes - 1);
  // Bus bandwidth per GPU: the ring's slowest link (the network share across nodes).
  const double bus = nodes > 1 ? std::min(path.bytes_per_s, l.network_bytes_per_s * static_cast<double>(k)) : path.bytes_per_s;
  double best = 1e300;
  for (int p = 0; p < 3; ++p) {
    if (p == 1 && !path.nvlink) continue;  // LL128 only over NVLink
    const double hop = path.nvlink ? kNcclNvlinkStepSeconds[p] : kNcclPcieStepSeconds[p];
    const double latency = kNcclBaseSeconds[p] + (steps - inter_steps) * hop + inter_steps * kNcclNetworkStepSeconds[p];
    const double seconds = latency + bytes * steps / n / (bus * kNcclBandwidthShare[p]);
    best = std::min(best, seconds);
  }
  return best;
}

double CustomAllReduceSeconds(double bytes, const Group& g, const Links& l) {
  if (g.ranks <= 1 || bytes <= 0) return 0;
  const double peers = static_cast<double>(g.ranks - 1);
  const double bw = std::min(kCustomPeerBytesPerS, l.nvlink_bytes_per_s);
  const double barrier = kCustomBarrierSeconds + kCustomBarrierPerPeerSeconds * peers;
  const double one_shot = barrier + peers * bytes / bw;
  const double two_shot = 2 * barrier + 2 * peers / static_cast<double>(g.ranks) * bytes / bw;
  return std::min(one_shot, two_shot);
}

double ServingAllReduceSeconds(double bytes, const Group& g, const Links& l, bool custom) {
  // Large messages: the ring's bandwidth term and hop latencies (AllReduceSeconds, as the serving model had them and
  // the validation's large-batch throughput runs hold); small ones: NCCL's low-latency protocols or the engine's kernel.
  const double nccl = std::min(AllReduceSeconds(bytes, g, l), NcclAllReduceSeconds(bytes, g, l));
  const bool island = g.per_node >= g.ranks && IntraNodePathOf(g.ranks, l).nvlink;
  return custom && island ? std::min(nccl, CustomAllReduceSeconds(bytes, g, l)) : nccl;
}

double SendSeconds(double bytes, bool cross_node, const Links& l) {
  if (bytes <= 0) return 0;
  if (cross_node) return bytes / l.network_bytes_per_s + kNetworkHopSeconds;
  // Neighbouring stages sit the model-parallel group below them apart; inside a node they share an NVLink island
  // only when the island spans the node (issue 46: else the send goes over both GPUs' PCIe links).
  const bool island = l.nvlink_bytes_per_s > 0 && (l.nvlink_domain >= l.gpus_per_node || !(l.pcie_bytes_per_s > 0));
  return island ? bytes / l.nvlink_bytes_per_s + kNvlinkHopSeconds : bytes / l.pcie_bytes_per_s + kPcieHopSeconds;
}

}  // namespace gpucost
