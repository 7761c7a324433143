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
  // Inside the node: (k-1)/k of the buffer over NVLink.
  double seconds = k > 1 ? Fraction(k) * bytes / l.nvlink_bytes_per_s + (k - 1) * kNvlinkHopSeconds : 0;
  // Across nodes: each of the k GPUs moves its 1/k share of the buffer over its own network share.
  if (nodes > 1)
    seconds += Fraction(nodes) * (bytes / static_cast<double>(k)) / l.network_bytes_per_s +
               static_cast<double>(nodes - 1) * kNetworkHopSeconds;
  return seconds;
}

}  // namespace

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

double SendSeconds(double bytes, bool cross_node, const Links& l) {
  if (bytes <= 0) return 0;
  return cross_node ? bytes / l.network_bytes_per_s + kNetworkHopSeconds : bytes / l.nvlink_bytes_per_s + kNvlinkHopSeconds;
}

}  // namespace gpucost
