// bench_memory.cpp — speed of the memory model, the smallest-fit search, the scaling fit and the GPU-count
// sweep (issue 4). Targets: EstimateMemory <= 0.1 us natively (the layout search calls it for hundreds of
// thousands of layouts); SmallestFittingLayout <= 5 ms; FitScaling (16 points) <= 10 us; a 30-point sweep
// <= 5 ms.
#include <chrono>

#include "bench_util.h"
#include <cstdio>

#include "training/memory.h"
#include "training/scaling_fit.h"
#include "explore/sweep.h"

namespace gpucost {
namespace {

volatile double g_sink;

template <class F>
double SecondsPerOp(F&& f, int min_ops = 20) { return bench::SecondsPerOp(f, min_ops); }

// GPT-3 175B (Brown et al. 2020) as Korthikanti et al. 2022 trained it (Table 3).
ModelShape Gpt3() {
  ModelShape m;
  m.params = 175e9;
  m.layers = 96;
  m.hidden = 12288;
  m.heads = 96;
  m.seq_len = 2048;
  m.vocab = 51200;
  m.ffn_hidden = 4 * 12288;
  return m;
}

}  // namespace

void BenchMemory() {
  const ModelShape m = Gpt3();
  Layout l;
  l.sequence_parallel = true;
  l.recompute = Recompute::kSelective;
  l.global_batch = 1536;
  std::int64_t i = 0;
  const double one = SecondsPerOp([&] {
    for (int k = 0; k < 1000; ++k, ++i) {
      l.tensor = 1 << (i & 3);
      l.pipeline = 1 << ((i >> 2) & 3);
      l.data = 1 << ((i >> 4) & 7);
      l.zero_stage = (i >> 7) & 3;
      g_sink = EstimateMemory(m, l, Precision::kBf16, 80e9).total_bytes();
    }
  }) / 1000;
  std::printf("estimate_memory_gpt3_175b   %8.4f us/op  (%.1fM layouts/s; target <= 0.1 us)\n", one * 1e6, 1e-6 / one);
  const double fit = SecondsPerOp([&] {
    g_sink = SmallestFittingLayout(m, l, Precision::kBf16, 80e9).layout.gpus();
  });
  std::printf("smallest_fitting_layout_175b %7.3f ms/op  (target <= 5 ms)\n", fit * 1e3);

  ScalingPointInputs p[kMaxScalingPoints];
  for (int k = 0; k < kMaxScalingPoints; ++k) {
    const double n = 8.0 * (k + 1);
    p[k] = {static_cast<std::int64_t>(n), 3000 * n / (1 + 0.01 * (n - 1) + 1e-5 * n * (n - 1)) * (1 + 0.01 * (k % 3 - 1))};
  }
  const double scaling = SecondsPerOp([&] { g_sink = FitScaling(p, kMaxScalingPoints).best().sigma; }, 1000);
  std::printf("fit_scaling_16_points       %8.3f us/op  (target <= 10 us)\n", scaling * 1e6);

  Scenario s = DefaultScenario();
  SweepOptions o;
  o.min_gpus = 8;
  o.max_gpus = 8 << 14;  // 8 .. 131,072 GPUs, 2 points per doubling: 29 points
  int points = 0;
  const double sweep = SecondsPerOp([&] {
    const SweepResult r = SweepGpuCount(s, o);
    points = static_cast<int>(r.points.size());
    g_sink = r.cheapest;
  });
  std::printf("sweep_gpu_count_%d_points    %8.3f ms/op  (target <= 5 ms)\n", points, sweep * 1e3);
}

}  // namespace gpucost
