// gpucost_bench — measured speed of the core's hot paths. Prints one line per benchmark:
//   name  per-op time  (target)
#include <chrono>
#include <cstdio>

#include "evaluate.h"
#include "scenario.h"

namespace gpucost {
void BenchMonteCarlo();  // bench_mc.cpp
void BenchStepTime();    // bench_steptime.cpp
void BenchMemory();      // bench_memory.cpp
}  // namespace gpucost

namespace {

template <class F>
double SecondsPerOp(F&& f, int min_ops = 1000, double min_seconds = 0.3) {
  using clock = std::chrono::steady_clock;
  int ops = 0;
  const auto start = clock::now();
  double elapsed = 0;
  do {
    f();
    ++ops;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  } while (ops < min_ops || elapsed < min_seconds);
  return elapsed / ops;
}

volatile double g_sink;

}  // namespace

int main() {
  using namespace gpucost;
  Scenario s = DefaultScenario();
  const double eval = SecondsPerOp([&] {
    s.cluster.gpus = s.cluster.gpus == 64 ? 128 : 64;  // defeat caching by the optimiser
    g_sink = Evaluate(s).expected_usd;
  });
  std::printf("evaluate_default_scenario  %8.3f us/op  (target <= 20 us)\n", eval * 1e6);
  BenchMonteCarlo();  // bench_mc.cpp
  BenchStepTime();    // bench_steptime.cpp
  BenchMemory();      // bench_memory.cpp
  return 0;
}
