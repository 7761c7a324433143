// probe_suggestions.cpp — a probe report's suggestions for a scenario (probe_suggestions.h).
#include "documents/probe_suggestions.h"

#include <algorithm>

#include "hardware/catalog.h"
#include "job/evaluate.h"

namespace gpucost {

void DeriveSuggestions(const Scenario& s, ProbeReport* report) {
  ProbeSuggestions& out = report->suggestions;
  out = ProbeSuggestions{};
  if (!report->gpus.empty()) out.catalog_gpu = MatchCatalogGpu(report->gpus[0].name, report->gpus[0].memory_gb);
  if (const GpuSpec* gpu = FindGpu(out.catalog_gpu.c_str())) {
    for (int p = 0; p <= static_cast<int>(Precision::kFp32); ++p) {
      const char* name = PrecisionName(static_cast<Precision>(p));
      const double measured = MeasuredGemmTflops(*report, name);
      const double peak = DensePeakTflops(*gpu, static_cast<Precision>(p));
      if (measured > 0 && peak > 0) out.peak_fraction.push_back({name, measured, peak, measured / peak});
    }
  }
  const Result r = Evaluate(s);  // the checkpoint size exactly as the model computes it
  const double write_gbps = MeasuredStorageGbps(*report, "checkpoint_write");
  if (r.ok && write_gbps > 0) {
    out.checkpoint_gb = r.checkpoint_gb;
    out.checkpoint_write_minutes = r.checkpoint_gb / write_gbps / 60;
  }
  double busbw = 0;
  for (const ProbeBandwidth& b : report->bandwidth)
    if (b.kind == "nccl_allreduce") busbw = std::max(busbw, b.gbps.median);
  const double peer = MeasuredPeerGbps(*report);
  if (busbw > 0 && peer > 0) out.nccl_busbw_fraction_of_peer = busbw / peer;
}

}  // namespace gpucost
