// reliability.h — checkpoint/restart under interruptions: the expected timeline of a job.
//
// Model (Daly 2006, "A higher order estimate of the optimum checkpoint interval for restart dumps",
// FGCS 22:303-312): work W is done in segments of `interval` running time, each followed by a checkpoint.
// Interruptions that roll back (hardware/software failures; spot preemptions without enough notice) arrive
// as a Poisson process of rate lambda while the job runs. A segment of length a (work + blocking checkpoint)
// must run without interruption; its expected time is M e^{R/M} (e^{a/M} - 1) for M = 1/lambda and recovery R
// during which further interruptions restart the recovery. The expected time is split exactly into named
// parts: the segment's own length a, rework M(e^{a/M}-1) - a, and recovery M(e^{a/M}-1)(e^{R/M}-1).
// This is exact for exponentially distributed interruptions with one recovery length; with two interruption
// classes (failures and spot preemptions), interruptions during a recovery are charged that recovery's length.
#pragma once

namespace gpucost {

struct TimelineInputs {
  double work_seconds = 0;           // productive running time (compute + data stalls)
  double interval_seconds = 0;       // running time between checkpoints (> 0)
  double checkpoint_block_seconds = 0; // training blocked per checkpoint (the write, or the async stall)
  double checkpoint_write_seconds = 0; // full write time (async: the checkpoint completes this late)
  bool checkpoint_async = false;
  double failure_rate_per_s = 0;     // rolling-back failures (hardware/software)
  double spot_rate_per_s = 0;        // spot preemptions
  bool spot_saves_on_notice = false; // notice covers a checkpoint write: a preemption loses no progress
  double failure_recovery_seconds = 0; // billed: detect + restart + reload (hot spare: shorter)
  double spot_recovery_seconds = 0;    // billed: restart + reload after capacity returns
  double reacquire_seconds = 0;        // not billed: waiting for spot capacity
  bool checkpointing = true;           // false: no checkpoint at all (interval = the whole work, no block)
  // Issue 50: two classes of failure_rate_per_s with parts of their own. Early failures the burn-in left
  // (recovered as any failure: failure_recovery_seconds) and collective timeouts (a restart after the watchdog's
  // wait: timeout_recovery_seconds, no spare needed). Expected time is charged to each class by its share of the
  // rollbacks (rework: the same per rollback whatever its cause) and of the recovery time.
  double infant_rate_per_s = 0;        // of failure_rate_per_s
  double timeout_rate_per_s = 0;       // of failure_rate_per_s
  double timeout_recovery_seconds = 0; // billed: the watchdog's wait + restart and reload
};

struct Timeline {  // expected seconds; the parts sum to total()
  double work = 0;            // = inputs.work_seconds
  double checkpoint = 0;      // blocking checkpoint time (incl. writes on spot notice)
  double rework = 0;          // progress lost to rollbacks, redone
  double recovery = 0;        // billed recovery
  double reacquire_wait = 0;  // not billed
  double interruptions = 0;   // expected count (failures + preemptions, incl. during recovery)
  double failures = 0;        // of which hardware/software failures
  double preemptions = 0;     // of which spot preemptions
  double checkpoints = 0;     // checkpoints written (incl. the final one)
  double bad_checkpoints = 0; // rollbacks that found the last checkpoint unusable (issue 29, operations.h)
  // Issue 50: of failures, rework and recovery, the early failures' and the collective timeouts'.
  double infant_failures = 0, timeouts = 0;
  double infant_rework = 0, infant_recovery = 0;
  double timeout_rework = 0, timeout_recovery = 0;
  bool never_finishes = false; // the expected time explodes (interval x rate far beyond 1), or the time
                               // lost exceeds 100x the useful running time
  double total() const { return work + checkpoint + rework + recovery + reacquire_wait; }
  double billed() const { return work + checkpoint + rework + recovery; }
};

Timeline ExpectedTimeline(const TimelineInputs& in);

// Optimum checkpoint interval (running time between checkpoints) for checkpoint cost delta and MTBF M.
double YoungInterval(double delta_seconds, double mtbf_seconds);  // sqrt(2 delta M)
double DalyInterval(double delta_seconds, double mtbf_seconds);   // Daly's higher-order estimate

// The recovery of one failure of class `which` (0 hardware, 1 early failure, 2 collective timeout).
inline double ClassRecoverySeconds(const TimelineInputs& in, int which) {
  return which == 2 ? in.timeout_recovery_seconds : in.failure_recovery_seconds;
}

// Issue 50: the expected early failures a job meets (job/reliability.cpp): gpus x fraction x e^(-burn_in/mean) x
// (1 - e^(-exposure/mean)), the weak GPUs the burn-in did not catch that fail within the exposure (hours at load).
double InfantFailures(double gpus, double fraction, double mean_hours, double burn_in_hours, double exposure_hours);

// Hot spares as a pool (explore/spares.h has the whole model): a failure takes the fast path only while a spare
// is free, and the pool is an Erlang loss system M/G/c/c (Erlang 1917).
// Erlang B: the probability that a Poisson arrival finds all c servers busy at offered load a.
double ErlangB(double c, double offered_load);

// The share of failures a free spare takes over: 1 - ErlangB(pool, rate x repair); pool_units: spares in the
// pool's units (nodes or GPUs).
double SpareFastFraction(double pool_units, double failures_per_hour, double repair_hours);

}  // namespace gpucost
