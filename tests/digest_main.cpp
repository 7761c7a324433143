// Prints a digest (FNV-1a over the bits of every number) of many evaluations. The native and WebAssembly
// builds must print the same digest: the page and the CLI give bit-identical numbers.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "job/validate.h"
#include "base/assets.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/presets.h"
#include "explore/montecarlo.h"

namespace {

std::uint64_t g_hash = 1469598103934665603ull;
void Mix(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; ++i) {
    g_hash ^= (bits >> (8 * i)) & 0xff;
    g_hash *= 1099511628211ull;
  }
}

void MixResult(const gpucost::Result& r) {
  Mix(r.expected_hours);
  Mix(r.normal_run_hours);
  Mix(r.billed_gpu_hours);
  Mix(r.expected_usd);
  Mix(r.normal_run_usd);
  Mix(r.expected_interruptions);
  Mix(r.optimal_checkpoint_interval_minutes);
  for (double v : r.cost_usd.part) Mix(v);
  for (double v : r.time_hours.part) Mix(v);
}

}  // namespace

int main() {
  using namespace gpucost;
  int evaluated = 0;
  // Every preset, then each numeric field of the default scenario at a few values in its range.
  const std::vector<PresetInfo> presets = Presets();
  if (presets.empty()) {
    std::fprintf(stderr, "gpucost_digest: no presets found\n");
    return 1;
  }
  for (const PresetInfo& info : presets) {
    Scenario s;
    std::string error;
    if (!LoadPreset(info.id, &s, &error)) {
      std::fprintf(stderr, "gpucost_digest: %s\n", error.c_str());
      return 1;
    }
    MixResult(Evaluate(s));
    ++evaluated;
  }
  const Scenario base = DefaultScenario();
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (f.kind != FieldKind::kNumber) continue;
    for (double scale : {0.5, 2.0, 7.3}) {
      Scenario s = base;
      double v = f.default_value > 0 ? f.default_value * scale : scale;
      if (!ValueInRange(f, v)) continue;
      SetNumber(s, f, v);
      if (!ValidateScenario(s).empty()) continue;
      MixResult(Evaluate(s));
      ++evaluated;
    }
  }
  for (int model = 0; model < 4; ++model) {
    Scenario s = base;
    s.pricing.model = model;
    MixResult(Evaluate(s));
    s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
    MixResult(Evaluate(s));
    evaluated += 2;
  }
  // Monte Carlo (montecarlo.h): every trial of a few seeded runs (exponential and Weibull, spot, tasks).
  for (int variant = 0; variant < 4; ++variant) {
    Scenario s = base;
    s.reliability.gpu_mtbf_hours = 3000;
    if (variant == 1) s.reliability.failure_shape = 0.7;
    if (variant == 2) s.pricing.model = static_cast<int>(PricingModel::kSpot), s.reliability.checkpoint_async = true;
    if (variant == 3) s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
    MonteCarlo mc(s, 1000 + variant, 200);
    mc.Run(200);
    for (double v : mc.time_hours()) Mix(v);
    for (double v : mc.cost_usd()) Mix(v);
    const McSummary m = mc.Summary();
    Mix(m.cost_usd.p90), Mix(m.time_hours.p50), Mix(m.mean_interruptions);
    ++evaluated;
  }
  std::printf("%d evaluations, digest %016llx\n", evaluated, static_cast<unsigned long long>(g_hash));
  return 0;
}
