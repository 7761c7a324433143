// partition.h — a slice of a GPU (issue 50): cluster.partition names a MIG profile as NVIDIA does ("3g.40gb" on an
// A100 80GB, "1g.10gb" on an H100). A profile of g compute slices and m memory slices gets g/7 of the SMs available
// in MIG mode (an A100 keeps 98 of its 108 SMs in MIG mode: GpuSpec::mig.sm_share) and m/8 of the memory's
// capacity and bandwidth (NVIDIA Multi-Instance GPU User Guide, 'Concepts': a memory slice is "roughly one eighth
// of the total GPU memory resources, including both capacity and bandwidth"). MIG instances have no GPU-to-GPU
// peer access (NVLink or PCIe): slices of one job talk through the host.
//
// The price of a slice is its share of the GPU's price: cluster.partition_price_fraction, by default the larger of
// its compute (g/7) and memory (m/8) shares (assumed: no per-slice price list was confirmed). The interference of
// other tenants of the GPU (cluster.partition_interference, a step-time factor) slows the step; the job shows it as
// a part of its own (parts.h kPartInterference).
#pragma once
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

struct GpuSpec;
struct MigProfile;

// Every field but `on` is meaningful only when on (PartitionOf sets them all); off, all are zero, so that a Result
// (which holds one) is built without a constructor of its own (the page's first load).
struct Partition {
  bool on = false;                 // a valid cluster.partition on this GPU
  const MigProfile* profile = nullptr;
  double compute_fraction = 0;     // of the GPU's dense peak: g/7 x sm_share
  double memory_fraction = 0;      // of its memory capacity and bandwidth: m/8
  double share = 0;                // of the GPU the slice occupies: max(g/7, m/8)
  double price_fraction = 0;       // cluster.partition_price_fraction, else `share`
  double interference = 0;         // cluster.partition_interference
  int per_gpu = 0;                 // slices of this profile one GPU holds
};

// The profile of `gpu` named `name`, nullptr when the GPU has none of that name.
const MigProfile* FindMigProfile(const GpuSpec& gpu, const char* name);

// The slice a scenario runs on: off without cluster.partition, or when cluster.gpu has no such profile (refused by
// ValidatePartition).
Partition PartitionOf(const Scenario& s, const GpuSpec& gpu);
// The same for cluster.gpu (off when it is not in the catalog).
Partition ScenarioPartition(const Scenario& s);

// The hardware's check of cluster.partition (gathered by ValidateGpu): the GPU has MIG and this profile, and no
// parallelism needs peer access between slices (tensor, pipeline, context, expert; a serving replica's tensor
// parallelism).
void ValidatePartition(const Scenario& s, const GpuSpec* gpu, std::vector<InputError>* errors);

}  // namespace gpucost
