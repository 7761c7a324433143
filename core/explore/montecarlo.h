// montecarlo.h — the job's timeline simulated many times: mean, P10/P50/P90 and a histogram of the time and
// cost per completed job, alongside the closed-form expectation (Evaluate()).
//
// One trial is a discrete-event simulation of the plan PlanJob() makes (job.h):
//   - compute in segments of `interval` running time, each closed by a checkpoint that blocks training for
//     `block` seconds; an asynchronous checkpoint completes `write` seconds after it starts, so an interruption
//     during that write rolls back to the previous completed checkpoint;
//   - failures: a renewal process in held time (running or recovering; the clock pauses while waiting for
//     spot capacity), exponential by default, Weibull with reliability.failure_shape (scale chosen so the mean
//     time between failures is unchanged); spot preemptions: Poisson in held time;
//   - a failure, or a preemption whose notice is too short to save, rolls back to the last completed
//     checkpoint; a preemption with enough notice writes a checkpoint (`write` seconds, not exposed to further
//     interruptions) and loses nothing; preemptions then wait `reacquire` (not billed);
//   - recovery (billed) after every interruption; an interruption during recovery restarts it (with the
//     recovery of the new interruption's class);
//   - issue 50's failure classes: a failure is a collective timeout (its own restart) with the timeouts' share
//     of the rate, else recovered through the spare pool; early failures recover like hardware ones, so the
//     walk does not tell the two apart and gives the early ones their share of the others' count, rework and
//     recovery (their expectation given the trial: the same mean, less noise). One 64-bit draw decides a
//     failure's class and spare, each share compared on a grid of 2^-32;
//   - unusable checkpoints (operations.h): the rollbacks' Bernoulli draws skipped through geometrically (a
//     logarithm per unusable checkpoint, not a draw per rollback);
//   - the trial's timeline is billed with BillJob(): known downtime, whole nodes, hot spares, storage, fees,
//     tax, the survivors' rental while a preempted node waits, and billing increments/minimums per rental as
//     simulated: every GPU rents for the whole job except that a preemption cuts the rental of one random
//     node, which restarts when capacity returns (above kMcMaxTrackedNodes nodes: BillJob's estimate).
// The job ends when its last segment (work + final checkpoint's blocking part) completes, as in the closed form.
//
// Independent tasks (documented shortcut): each trial simulates min(tasks, kMcMaxTasksPerTrial) tasks, each
// with fresh failure clocks; their mean timeline is the unit timeline BillJob() scales to all tasks (wall time
// = waves x mean task time, as the closed form). Billing rounding for tasks uses BillJob's estimate from the
// trial's preemption count.
//
// Deterministic: the same scenario and seed give bit-identical results natively and in WebAssembly (rng.h).
// Each trial draws from a stream of its own (the seed's and the trial's number), so any slicing of Run(n)
// gives the result of one big run, and two trials can be walked at once: an event of each in turn, two
// independent chains of arithmetic the processor overlaps (issue 50: 10,000 trials on 16,384 GPUs with every
// term on in <= 0.1 s; bench_mc.cpp). The wait for capacity keeps one stream of its own, drawn in trial order.
// No allocation per trial: results are stored in buffers sized at construction.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "job/job.h"
#include "job/result.h"
#include "base/rng.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr std::int64_t kMcMaxTrials = 10000000;       // bound on --trials (memory: 16 bytes per trial)
constexpr std::int64_t kMcMaxTasksPerTrial = 1024;    // independent tasks simulated per trial
constexpr double kMcMaxInterruptionsPerTrial = 1e6;   // expected; above this the simulation is refused
constexpr int kMcHistogramBins = 20;
constexpr double kMcMaxTrackedNodes = 1 << 20;       // rental sessions tracked per node up to this many nodes

struct McStats {  // of one quantity over the trials
  double mean = 0, p10 = 0, p50 = 0, p90 = 0, min = 0, max = 0;
};

// The histogram's axis is fitted to the data: from the trials' P0.5 to their P99.5, so that a few outliers do not
// squeeze every other trial into one bar; the trials outside are counted in the end bins (below, above) and the
// note says so. A spread below kMcAxisResolution of the median cannot be drawn as bars: resolved is false, the
// bins then span min..max, and the note says in words how many trials lie within that resolution of the median.
constexpr double kMcAxisTailFraction = 0.005;  // the axis spans P0.5..P99.5
constexpr double kMcAxisResolution = 0.001;    // relative to the median: "every trial within 0.1% of X"

struct McHistogram {  // kMcHistogramBins equal bins from lo to hi
  double lo = 0, hi = 0;
  std::int64_t counts[kMcHistogramBins] = {};
  std::int64_t below = 0, above = 0;  // trials below lo / above hi, counted in the first / last bin
  bool resolved = true;               // false: the spread is below the axis resolution (say it in words)
  double center = 0;                  // the median
  std::int64_t within = 0;            // trials within kMcAxisResolution of the median
};

// The histogram's note in words (the page under the chart, the CLI under its bars): the outliers counted in the
// end bins, or, for a spread below the axis resolution, "Every trial within 0.1% of $1.23M". format writes a
// value of the histogram's quantity times scale (the display rate for cost, 1 for time). "" when nothing to say.
std::string McHistogramNote(const McHistogram& h, std::int64_t trials, double scale,
                            const std::function<std::string(double)>& format);

struct McSummary {
  std::int64_t trials = 0;           // completed trials summarised
  std::uint64_t seed = 0;
  McStats time_hours, cost_usd;      // per completed job
  McHistogram time_hist, cost_hist;
  Breakdown mean_time_hours;         // mean of each named part; sums to time_hours.mean
  Breakdown mean_cost_usd;           // sums to cost_usd.mean
  double mean_interruptions = 0;     // per job (tasks: all tasks)
  double mean_failures = 0;
  double mean_preemptions = 0;
  std::int64_t truncated_trials = 0; // trials stopped at the event cap (should be 0)
  double closed_form_hours = 0;      // Evaluate(): the expectation the mean should approach (exponential)
  double closed_form_usd = 0;
  // Issue 18: with a predicted MFU each trial also draws the step-time model's error (calibration.h), so the
  // spread (P90) includes model error; the closed form stays at the prediction.
  bool model_error_sampled = false;
  // Issue 29 (capacity.h): each trial also waits for capacity (exponential, its own random stream) before its
  // timeline; finish = that wait + the trial's time; the delay cost of hours past the deadline is a part.
  McStats finish_hours;
  double wait_mean_hours = 0;
  bool deadline_given = false;
  double deadline_hours = 0;         // given, else the normal run
  double p_miss_deadline = 0;        // share of trials finishing after the deadline (deadline given)
};


// Percentile p (0..1) of sorted values, linear between ranks (sorted.size() > 0).
double Percentile(const std::vector<double>& sorted, double p);

class MonteCarlo {
 public:
  // Plans the job and reserves storage for `trials` results. Check ok() / error().
  MonteCarlo(const Scenario& s, std::uint64_t seed, std::int64_t trials);

  bool ok() const { return error_[0] == 0; }
  const char* error() const { return error_; }                     // English
  const Message& error_message() const { return error_message_; }  // the same as a key and parameters

  // Runs up to max_trials more trials (fewer when done or cancelled); returns how many ran.
  std::int64_t Run(std::int64_t max_trials);
  void Cancel() { cancelled_ = true; }
  bool cancelled() const { return cancelled_; }
  bool done() const { return completed_ >= trials_ || cancelled_ || !ok(); }
  std::int64_t completed() const { return completed_; }
  std::int64_t trials() const { return trials_; }
  double progress() const { return trials_ > 0 ? static_cast<double>(completed_) / trials_ : 1; }

  // Summary of the completed trials (sorts copies of the results: call it once at the end, not per frame).
  McSummary Summary() const;

  // The per-trial results, in trial order (completed() of them).
  const std::vector<double>& time_hours() const { return time_hours_; }
  const std::vector<double>& cost_usd() const { return cost_usd_; }

 private:
  struct UnitTrial {  // one simulated timeline of the unit
    Timeline t;                  // seconds and counts of this unit's simulated timeline
    double held_s = 0;           // billed time so far (running + recovery)
    double rounding_gpu_s = 0;   // billing rounding of the rental sessions cut so far
    double events = 0;
    bool truncated = false;
  };
  struct Walk;       // its hot state while it is simulated, kept in registers (montecarlo.cpp)
  struct Segments {  // the unit's checkpoint segments for its work
    double segment_s = 0, inv_segment_s = 0, total_running_s = 0, full = 0, checkpoints = 0;
  };
  struct Lane {  // a trial being simulated: its plan (model error: its own work), segments and stream
    JobPlan own;
    const JobPlan* plan = nullptr;
    Segments seg;
    Rng rng;
    UnitTrial unit;
  };
  static Segments SegmentsOf(const TimelineInputs& in);
  Rng TrialRng(std::int64_t trial) const;
  void PrepareLane(std::int64_t trial, Lane* lane);
  void RunTrial();
  void RunPair();
  void RecordTrial(const Lane& lane);
  void Record(JobBill* bill, double interruptions, double failures, double preemptions, bool truncated);
  // The walks, with and without preemptions (kSpot: a preemption clock and the held time for rentals).
  void SimulateUnit(const JobPlan& plan, const Segments& seg, Rng* rng, UnitTrial* u);
  void SimulatePair(Lane& a, Lane& b);
  template <bool kSpot> void SimulateUnit(const JobPlan& plan, const Segments& seg, Rng* rng, UnitTrial* u);
  template <bool kSpot> void SimulatePair(Lane& a, Lane& b);
  void StartWalk(const JobPlan& plan, const Segments& seg, Rng rng, UnitTrial* u, Walk& w) const;
  template <bool kSpot> bool Step(Walk& w);
  template <bool kSpot> Rng EndWalk(const Walk& w) const;
  double DrawFailure(Rng& rng) const;
  double DrawPreemption(Rng& rng) const;
  template <bool kSpot> void Recover(double seconds, int which, Walk& w);
  struct Outcome;                          // a failure's class and recovery (montecarlo.cpp)
  Outcome DrawOutcome(Rng& rng) const;
  void ChargeRecovery(Walk& w, int which, double seconds) const;
  void BadCheckpointRun(Walk& w) const;
  double DrawGoodsBeforeBad(Rng& rng) const;
  void CutSession(UnitTrial* u);  // draws from rng_, uses u->held_s
  void CutSessionOf(Walk& w);     // CutSession with the walk's generator and held time
  double FinalRoundingGpuSeconds(const UnitTrial& u);

  JobPlan plan_;
  Result closed_form_;
  Rng rng_;                     // the rental sessions' draws pass through it (CutSessionOf)
  std::uint64_t seed_, stream_key_ = 0;
  std::int64_t trials_ = 0, completed_ = 0, truncated_ = 0;
  bool cancelled_ = false;
  char error_[200] = {};
  Message error_message_;
  void Refuse(Message why);  // cannot run: says why
  bool model_error_ = false;    // draw the step-time model's error per trial (predicted MFU)
  bool pairable_ = false;       // trials may be walked two at a time (nothing shared between them)
  Segments segments_;           // of the plan's work
  Lane lanes_[2];
  double commit_lag_s_ = 0;
  double weibull_scale_s_ = 0, failure_shape_ = 1;
  double mean_failure_s_ = 0, mean_preemption_s_ = 0;  // 0: none
  double infant_share_ = 0, timeout_share_ = 0;        // issue 50: of the failures, early ones and timeouts
  double infant_of_other_ = 0;    // early failures' share of the failures that are not timeouts
  bool draw_outcome_ = false;     // a failure's class or spare is random (DrawOutcome draws)
  bool spare_draw_ = false;       // some failures find a spare free, some do not (spares.h)
  std::uint64_t timeout_below_ = 0, spare_below_ = 0;  // the shares as 32-bit thresholds (DrawOutcome)
  double spare_recovery_s_[2] = {};  // no spare free, a spare free
  double other_recovery_s_ = 0;   // recovery of a failure that is not a timeout when no spare is drawn
  bool exponential_failures_ = false;  // failures at a constant rate (failure_shape 1)
  const ExpZiggurat* exp_tables_ = &ExpTables();
  double inv_log_good_ = 0;       // 1 / ln(1 - p) of unusable checkpoints (< 0), 0 when none
  std::int64_t max_events_ = 0;
  std::int64_t tasks_per_trial_ = 1;
  double nodes_ = 0;                           // rental holders a preemption picks from
  std::vector<std::int64_t> node_stamp_;       // trial in which the node was last cut (-1: never)
  std::vector<double> node_session_start_s_;   // held time when its current rental began
  std::vector<std::size_t> touched_nodes_;     // nodes cut in this trial
  // Results and running sums.
  std::vector<double> time_hours_, cost_usd_, finish_hours_;
  Rng wait_rng_;                    // the wait for capacity: a stream of its own (the timeline's stays as it was)
  std::int64_t missed_ = 0;
  Breakdown sum_time_, sum_cost_;
  double sum_interruptions_ = 0, sum_failures_ = 0, sum_preemptions_ = 0;
};

}  // namespace gpucost
