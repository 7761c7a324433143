// bench_util.h — the one timing loop the benchmarks share.
#pragma once
#include <chrono>

namespace gpucost::bench {

// Runs f at least min_ops times and for at least min_seconds; returns seconds per call.
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

}  // namespace gpucost::bench
