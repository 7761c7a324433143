// spares.h — hot spares as a pool (issue 29).
//
// A failure takes the fast path (reliability.hot_spare_recovery_minutes) only while a spare is free; the spare
// it takes is out until the failed part is repaired (reliability.repair_hours) and then returns to the pool.
// Failures arrive as a Poisson process (rate: GPUs / gpu_mtbf_hours), so the pool is an Erlang loss system
// M/G/c/c: with offered load a = rate x repair time, a failure finds every spare busy with probability
// Erlang B(c, a) (Erlang 1917; insensitive to the repair-time distribution), and then recovers the slow way
// (reliability.recovery_minutes: wait for a replacement). The pool counts nodes when the spares fill whole
// nodes (a failed node is swapped whole), else single GPUs.
// A managed service may include the buffer in its price (reliability.spares_included): the spares then
// recover failures as above but are not billed.
// SparesSweep: the job's expected cost and goodput against the spare count, in steps of a node, and the
// cheapest count (the document of `gpucost spares`, schema gpucost/spares@1).
#pragma once
#include <string>
#include <vector>

#include "job/reliability.h"
#include "scenario/scenario.h"

namespace gpucost {

struct SpareRow {
  std::int64_t spares = 0;        // GPUs
  double fast_fraction = 0;       // failures taken over by a free spare
  double expected_hours = 0;
  double goodput = 0;
  double expected_usd = 0;        // billed spares
  double managed_usd = 0;         // the same pool included in the price (not billed)
};

struct SparesSweepDoc {
  bool ok = false;
  std::vector<SpareRow> rows;
  int cheapest = 0;               // index of the lowest expected_usd
  double failures_expected = 0;   // at the scenario's spare count
  double repair_hours = 0;
};

SparesSweepDoc SparesSweep(const Scenario& s, int max_steps = 32);

}  // namespace gpucost
