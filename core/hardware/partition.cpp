// partition.cpp — a MIG slice of a GPU (partition.h).
#include "hardware/partition.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "hardware/catalog.h"

namespace gpucost {

const MigProfile* FindMigProfile(const GpuSpec& gpu, const char* name) {
  for (const MigProfile& p : MigOf(gpu).profiles)
    if (p.name == name) return &p;
  return nullptr;
}

Partition PartitionOf(const Scenario& s, const GpuSpec& gpu) {
  Partition out;
  if (!s.partition.profile[0]) return out;
  const MigProfile* p = FindMigProfile(gpu, s.partition.profile);
  if (!p || p->compute_slices <= 0 || p->memory_slices <= 0) return out;
  out.on = true;
  out.profile = p;
  const double compute = p->compute_slices / 7.0, memory = p->memory_slices / 8.0;
  out.compute_fraction = compute * MigOf(gpu).sm_share;
  out.memory_fraction = memory;
  out.share = std::max(compute, memory);
  out.price_fraction = s.partition.price_fraction > 0 ? s.partition.price_fraction : out.share;
  out.interference = s.partition.interference >= 1 ? s.partition.interference : 1;
  out.per_gpu = std::max(1, p->instances);
  return out;
}

Partition ScenarioPartition(const Scenario& s) {
  const GpuSpec* gpu = FindGpu(s.cluster.gpu);
  return gpu ? PartitionOf(s, *gpu) : Partition{};
}

void ValidatePartition(const Scenario& s, const GpuSpec* gpu, std::vector<InputError>* e) {
  if (!s.partition.profile[0] || !gpu) return;
  if (MigOf(*gpu).profiles.empty()) {
    std::string with;
    for (std::size_t i = 0; i < GpuCount(); ++i)
      if (!MigOf(Gpus()[i]).profiles.empty()) with += (with.empty() ? "" : ", ") + Gpus()[i].id;
    e->push_back(CodedError("cluster.partition", {"msg.partition_no_mig", {gpu->name, with}}));
    return;
  }
  if (!FindMigProfile(*gpu, s.partition.profile)) {
    std::string names;
    for (const MigProfile& p : MigOf(*gpu).profiles) names += (names.empty() ? "" : ", ") + p.name;
    e->push_back(CodedError("cluster.partition",
                            {"msg.partition_unknown", {ShortenForMessage(s.partition.profile), gpu->name, names}}));
    return;
  }
  // Slices have no peer access: parallelism that splits a layer or the model over GPUs is refused.
  const std::pair<const char*, std::int64_t> splits[] = {
      {"parallel.tensor_parallel", s.parallel.tensor_parallel}, {"parallel.pipeline_parallel", s.parallel.pipeline_parallel},
      {"parallel.context_parallel", s.parallel.context_parallel}, {"parallel.expert_parallel", s.arch.expert_parallel}};
  const bool serving = Kind(s) == WorkloadKind::kInference;
  for (const auto& [path, degree] : splits)
    if (degree > 1 && !(serving && std::strcmp(path, "parallel.tensor_parallel") == 0 && s.inference.decode.tensor_parallel > 0))
      e->push_back(CodedError(path, {"msg.partition_split", {std::to_string(degree), s.partition.profile}}));
  if (serving && s.inference.decode.tensor_parallel > 1)
    e->push_back(CodedError("inference.decode.tensor_parallel",
                            {"msg.partition_split", {std::to_string(s.inference.decode.tensor_parallel), s.partition.profile}}));
}

}  // namespace gpucost
