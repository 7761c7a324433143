// evidence_band.h — the uncertainty every headline carries (issue 46): next to a predicted step time / MFU, and the
// time and cost built on it, the held-out errors of the published runs most like the scenario ("-8 .. +14% on 6
// similar runs"), or word that no validated run is like it.
//
// The held-out errors come from assets/held_out.json, the leave-one-source-out errors of `gpucost catalog
// evidence` (evidence.h) with each run's features, written by scripts/refresh_held_out.py; a core test fails when the
// file differs from the computed evidence, so the band the CLI prints and the page draws are the evidence's, not a
// copy gone stale. The file is small (a few KB) and needs none of the fits that computing the evidence takes.
//
// Similar runs: training — the same GPU generation and kernel path (FP8 training apart: framework.h KernelArch), then
// by the distance NearestRuns uses (log model size, half the log GPU count, the framework) plus a step for another
// category (pre-training vs fine-tuning); serving — the same GPU generation and dense / MoE kind, then model size and
// tensor parallelism. Up to kBandRuns runs within kBandDistance count; none within it: the scenario is unlike every
// validated run, and the band says so instead of borrowing distant runs' errors.
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace gpucost {

constexpr int kBandRuns = 8;
// The table's asset path (assets/held_out.json; the page fetches it after its first frame, like the offers).
constexpr const char* kHeldOutAsset = "held_out.json";
constexpr double kBandDistance = 2.0;  // about a 7x model size, or a 55x GPU count, or another category and a 3x size

struct EvidenceBand {
  bool applies = false;   // the scenario has a predicted step (training without cluster.mfu, or serving)
  bool serving = false;
  std::string category;   // "pre-training" | "fine-tuning" | "serving"
  int runs = 0;           // similar runs found (0: unlike every validated run)
  double low = 0, high = 0, mean = 0;  // their held-out errors (predicted / measured - 1)
  std::vector<std::string> run_ids;
  bool unlike() const { return applies && runs == 0; }
};

// The band for a scenario (applies = false when nothing of it is predicted: a given MFU, or no model shape).
// `predicted`: whether the scenario's step (training) is the model's prediction.
EvidenceBand EvidenceBandFor(const Scenario& s, bool predicted);

// "-8% .. +14% on 6 similar runs" / "unlike every validated run", in the current language.
std::string EvidenceBandText(const EvidenceBand& b);

// The held-out table's text as scripts/refresh_held_out.py writes it, from the computed evidence (the test compares).
std::string HeldOutTableJson();

}  // namespace gpucost
