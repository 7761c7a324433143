// evidence_band.cpp — the held-out error band beside a headline (see evidence_band.h).
#include "evidence/evidence_band.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/assets.h"
#include "base/format.h"
#include "base/i18n.h"
#include "base/numeric.h"
#include "evidence/evidence.h"
#include "hardware/catalog.h"
#include "hardware/framework.h"
#include "scenario/models.h"

namespace gpucost {
namespace {

using nlohmann::json;

// A run of the table as the band reads it.
struct BandRun {
  std::string id, category, arch, framework, gpu;
  double params = 0, gpus = 1, error = 0;
  bool frozen = false, moe = false;
};
struct BandTable {
  bool ok = false;
  std::vector<BandRun> training, serving;
};

// Rounded to a multiple of `unit` (1e6: whole millions; 1e-4: four decimals, divided so that the double is the
// nearest to the decimal and prints as it).
double Round(double v, double unit) { return unit >= 1 ? std::round(v / unit) * unit : std::round(v / unit) / (1 / unit); }

BandTable ParseTable(const std::string& text) {
  BandTable t;
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.contains("training") || !doc.contains("serving")) return t;
  for (const json& r : doc["training"]) {
    if (!r.is_array() || r.size() != 8) return t;
    BandRun b;
    b.id = r[0].get<std::string>();
    b.category = r[1].get<std::string>();
    b.frozen = r[2].get<int>() != 0;
    b.arch = r[3].get<std::string>();
    b.params = r[4].get<double>();
    b.gpus = r[5].get<double>();
    b.framework = r[6].get<std::string>();
    b.error = r[7].get<double>();
    t.training.push_back(b);
  }
  for (const json& r : doc["serving"]) {
    if (!r.is_array() || r.size() != 7) return t;
    BandRun b;
    b.id = r[0].get<std::string>();
    b.gpu = r[1].get<std::string>();
    b.arch = r[2].get<std::string>();
    b.params = r[3].get<double>();
    b.moe = r[4].get<int>() != 0;
    b.gpus = r[5].get<double>();  // tensor parallelism
    b.error = r[6].get<double>();
    b.category = "serving";
    t.serving.push_back(b);
  }
  t.ok = true;
  return t;
}

const BandTable& Table() {
  static BandTable table;
  static bool loaded = false;
  if (!loaded) {
    if (const EmbeddedAsset* a = LoadAsset(kHeldOutAsset)) {
      table = ParseTable(std::string(a->data, a->size));
      loaded = true;  // (a page whose fetch failed tries again on the next call)
    }
  }
  return table;
}

double FrameworkDistance(const std::string& a, Framework b) {
  Framework fa = Framework::kOther;
  if (!FrameworkFromName(a, &fa)) return 0.5;
  return fa == b ? 0 : FrameworkFamily(fa) == FrameworkFamily(b) ? 0.25 : 0.5;
}

}  // namespace

EvidenceBand EvidenceBandFor(const Scenario& s, bool predicted) {
  EvidenceBand band;
  const GpuSpec* gpu = FindGpu(s.cluster.gpu);
  const BandTable& table = Table();
  if (gpu == nullptr || !table.ok) return band;
  band.serving = Kind(s) == WorkloadKind::kInference;
  if (!band.serving && (Kind(s) != WorkloadKind::kTraining || !predicted)) return band;
  band.applies = true;
  const double params = s.workload.params > 0 ? s.workload.params : 1e9;
  std::vector<std::pair<double, const BandRun*>> scored;
  if (band.serving) {
    band.category = "serving";
    const double tp = D(std::max<std::int64_t>(1, s.parallel.tensor_parallel));
    const bool moe = s.arch.experts > 0;
    for (const BandRun& r : table.serving) {
      if (r.arch != gpu->arch || r.moe != moe) continue;
      const double d = std::fabs(std::log(std::max(1.0, r.params) / params)) + 0.5 * std::fabs(std::log(r.gpus / tp)) +
                       (r.gpu == s.cluster.gpu ? 0 : 0.25);
      if (d <= kBandDistance) scored.push_back({d, &r});
    }
  } else {
    const bool frozen = static_cast<Finetune>(s.finetune.mode) != Finetune::kFull;
    band.category = frozen ? "fine-tuning" : "pre-training";
    const std::string arch = KernelArch(gpu->arch, static_cast<int>(GetPrecision(s)));
    const double gpus = D(std::max<std::int64_t>(1, s.cluster.gpus));
    const Framework fw = static_cast<Framework>(s.cluster.framework);
    for (const BandRun& r : table.training) {
      if (r.arch != arch) continue;
      const double d = std::fabs(std::log(std::max(1.0, r.params) / params)) + 0.5 * std::fabs(std::log(r.gpus / gpus)) +
                       FrameworkDistance(r.framework, fw) + (r.frozen != frozen ? 1.0 : 0.0);
      if (d <= kBandDistance) scored.push_back({d, &r});
    }
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (scored.size() > static_cast<std::size_t>(kBandRuns)) scored.resize(static_cast<std::size_t>(kBandRuns));
  for (const auto& [d, r] : scored) {
    band.low = band.runs == 0 ? r->error : std::min(band.low, r->error);
    band.high = band.runs == 0 ? r->error : std::max(band.high, r->error);
    band.mean += r->error;
    ++band.runs;
    band.run_ids.push_back(r->id);
  }
  if (band.runs > 0) band.mean /= band.runs;
  return band;
}

std::string EvidenceBandText(const EvidenceBand& b) {
  if (!b.applies) return "";
  if (b.runs == 0) return Tr("band.unlike");
  return TrFormat(b.runs == 1 ? "band.one" : "band.runs",
                  {FormatSignedPercent(b.low), FormatSignedPercent(b.high), std::to_string(b.runs)});
}

std::string HeldOutTableJson() {
  const StepEvidence& e = TrainingEvidence();
  const ServingEvidence& s = ServingValidation();
  if (!e.error.empty() || !s.error.empty()) return "";
  json training = json::array(), serving = json::array();
  for (const EvidenceRun& r : e.runs)
    training.push_back({r.id, r.category, r.shape.frozen_base() ? 1 : 0, r.arch, Round(r.params, 1e6), r.gpus, r.framework,
                        Round(r.held_out_error, 1e-4)});
  for (const ServingEvidenceRun& r : s.runs) {
    const GpuSpec* gpu = FindGpu(r.gpu.c_str());
    const ModelSpec* m = FindModel(r.model.c_str());
    serving.push_back({r.id, r.gpu, gpu != nullptr ? gpu->arch : "", m != nullptr ? Round(m->params, 1e6) : 0.0,
                       m != nullptr && m->experts > 0 ? 1 : 0, r.tensor_parallel, Round(r.error, 1e-4)});
  }
  json doc = {{"schema", "gpucost/held-out@1"},
              {"about", "The held-out (leave-one-source-out) error of every published run `gpucost catalog evidence` "
                        "checks, with what the headline's error band compares (core/evidence/evidence_band.h). "
                        "Training: [id, category, frozen base (LoRA/QLoRA), GPU generation and kernel path, parameters, "
                        "GPUs, framework, held-out error]; serving: [id, GPU, generation, parameters, MoE, tensor "
                        "parallel, error]. Written from the computed evidence; test_evidence_band.cpp fails when it "
                        "differs (it writes the fresh copy to copy over this one)."},
              {"training", training},
              {"serving", serving}};
  std::string out = "{\n";
  out += "  \"schema\": " + doc["schema"].dump() + ",\n";
  out += "  \"about\": " + doc["about"].dump() + ",\n";
  for (const char* key : {"training", "serving"}) {
    out += std::string("  \"") + key + "\": [\n";
    const json& rows = doc[key];
    for (std::size_t i = 0; i < rows.size(); ++i) out += "    " + rows[i].dump() + (i + 1 < rows.size() ? ",\n" : "\n");
    out += std::string("  ]") + (std::string(key) == "training" ? ",\n" : "\n");
  }
  out += "}\n";
  return out;
}

}  // namespace gpucost
