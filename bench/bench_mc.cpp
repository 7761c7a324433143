// bench_mc.cpp — Monte Carlo speed: 10,000 trials of a Llama-3-405B-scale job (16,384 H100s, about 70 days,
// about 460 interruptions per trial). Target: <= 0.12 s natively (issue 29), <= 2x that as WebAssembly under Node;
// with every term on (issue 50's, about 720 interruptions a trial) <= 0.10 s.
//
// Scale: Llama 3 405B was trained on up to 16,384 H100s with 3.8e25 FLOPs and saw 419 unexpected
// interruptions in 54 days (Dubey et al. 2024, "The Llama 3 Herd of Models", arXiv:2407.21783, sec. 3.3.4).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "explore/montecarlo.h"
#include "scenario/scenario.h"

namespace gpucost {

Scenario BenchMonteCarloScenario() {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 16384;
  s.workload.params = 405e9;
  s.workload.tokens = 13e12;    // 6 x 405e9 x 13e12 = 3.2e25 FLOPs: 56 days of compute at 40% MFU
  s.reliability.gpu_mtbf_hours = 58000;  // cluster MTBF 3.5 h (Llama 3: 54 days x 24 h / 419 = 3.1 h)
  s.storage.checkpoint_write_gbps = 100;
  return s;
}

namespace {

void TimeMonteCarlo(const Scenario& s, const char* label, double target_s) {
  const std::int64_t trials = 10000;
  using clock = std::chrono::steady_clock;
  double best_wall = 1e9, best_cpu = 1e9;  // CPU time too: on a shared machine wall time includes waiting
  McSummary summary;
  for (int rep = 0; rep < 3; ++rep) {
    const auto start = clock::now();
    const std::clock_t cpu_start = std::clock();
    MonteCarlo mc(s, 1 + rep, trials);
    while (!mc.done()) mc.Run(500);  // sliced, as the page runs it
    summary = mc.Summary();
    best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
    best_wall = std::min(best_wall, std::chrono::duration<double>(clock::now() - start).count());
  }
  std::printf("%-40s %8.3f s wall, %.3f s CPU  (target <= %.2f s native: %s; %.0f "
              "interruptions/trial, mean %.1f days, P50 %.1f, P90 %.1f)\n",
              label, best_wall, best_cpu, target_s, best_cpu <= target_s ? "met" : "MISSED", summary.mean_interruptions, summary.time_hours.mean / 24,
              summary.time_hours.p50 / 24, summary.time_hours.p90 / 24);
}

}  // namespace

void BenchMonteCarlo() {
  const Scenario s = BenchMonteCarloScenario();
  TimeMonteCarlo(s, "montecarlo_10k_trials_16384_gpus", 0.12);
  // Issue 29's terms sampled: the wait for capacity, a deadline, a spare pool that runs out, unusable checkpoints.
  Scenario t = s;
  t.ops.on_demand_wait_hours = 24;
  t.ops.deadline_hours = 24 * 75;
  t.ops.value_per_day_usd = 1e6;
  t.reliability.hot_spares = 64;
  t.ops.repair_hours = 48;
  t.ops.bad_checkpoint_probability = 0.05;
  t.ops.restore_test_every = 10;
  t.ops.restore_test_minutes = 10;
  TimeMonteCarlo(t, "montecarlo_10k_16384_gpus_issue29_terms", 0.12);
  // Issue 50's terms with them: early failures the burn-in left, slow nodes, collective timeouts (Llama 3: 7 NCCL
  // watchdog timeouts in 54 days, 0.13 a day), stopped instances, the finished model's programme.
  t.reliability.infant_failure_fraction = 0.01;
  t.ops.bring_up_hours = 24;
  t.reliability.slow_node_fraction = 0.002;
  t.reliability.collective_timeouts_per_day = 0.13;
  t.pricing.stopped_hours = 48;
  t.pricing.stopped_price_fraction = 0.1;
  t.program.experiments = 0.3;
  t.program.evaluation_hours = 24;
  TimeMonteCarlo(t, "montecarlo_10k_16384_gpus_issue50_terms", 0.10);  // issue 50: every term on
}

}  // namespace gpucost
