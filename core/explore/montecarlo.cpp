// montecarlo.cpp — discrete-event simulation of the job timeline (see montecarlo.h for the model).
#include "explore/montecarlo.h"
#include "base/asserts.h"

#include "hardware/calibration.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "job/evaluate.h"
#include "base/format.h"
#include "base/i18n.h"

namespace gpucost {
namespace {

constexpr double kNever = 1e300;  // a clock that never rings (rate 0); finite so that subtraction stays exact

// Billing rounding of one rental session of `seconds` (same rule as BillJob: increments, then the minimum).
double SessionRoundingSeconds(const JobPlan& plan, double seconds) {
  const double inc = plan.terms.billing_increment_s;
  const double billed = std::max(std::ceil(seconds / inc - 1e-9) * inc, plan.terms.minimum_billed_s);
  return std::max(0.0, billed - seconds);
}

void AddTimeline(const Timeline& t, Timeline* sum) {
  sum->work += t.work;
  sum->checkpoint += t.checkpoint;
  sum->rework += t.rework;
  sum->recovery += t.recovery;
  sum->reacquire_wait += t.reacquire_wait;
  sum->interruptions += t.interruptions;
  sum->failures += t.failures;
  sum->preemptions += t.preemptions;
  sum->checkpoints += t.checkpoints;
  sum->bad_checkpoints += t.bad_checkpoints;
  sum->infant_failures += t.infant_failures, sum->timeouts += t.timeouts;
  sum->infant_rework += t.infant_rework, sum->infant_recovery += t.infant_recovery;
  sum->timeout_rework += t.timeout_rework, sum->timeout_recovery += t.timeout_recovery;
}

void ScaleTimeline(double k, Timeline* t) {
  t->work *= k, t->checkpoint *= k, t->rework *= k, t->recovery *= k, t->reacquire_wait *= k;
  t->interruptions *= k, t->failures *= k, t->preemptions *= k, t->checkpoints *= k;
  t->bad_checkpoints *= k;
  t->infant_failures *= k, t->timeouts *= k, t->infant_rework *= k, t->infant_recovery *= k;
  t->timeout_rework *= k, t->timeout_recovery *= k;
}

McStats StatsOf(std::vector<double>* values) {  // sorts *values
  McStats s;
  if (values->empty()) return s;
  double sum = 0;
  for (double v : *values) sum += v;  // in trial order: deterministic
  s.mean = sum / static_cast<double>(values->size());
  std::sort(values->begin(), values->end());
  s.p10 = Percentile(*values, 0.10);
  s.p50 = Percentile(*values, 0.50);
  s.p90 = Percentile(*values, 0.90);
  s.min = values->front();
  s.max = values->back();
  return s;
}

McHistogram HistogramOf(const std::vector<double>& sorted) {
  McHistogram h;
  if (sorted.empty()) return h;
  h.center = Percentile(sorted, 0.5);
  const double tolerance = kMcAxisResolution * std::fabs(h.center);
  for (double v : sorted) h.within += std::fabs(v - h.center) <= tolerance ? 1 : 0;
  h.lo = Percentile(sorted, kMcAxisTailFraction);
  h.hi = Percentile(sorted, 1 - kMcAxisTailFraction);
  if (!(h.hi - h.lo > tolerance)) {  // the bulk is one value at this resolution: bins over everything, in words
    h.resolved = false;
    h.lo = sorted.front();
    h.hi = sorted.back();
  }
  const double width = (h.hi - h.lo) / kMcHistogramBins;
  for (double v : sorted) {
    h.below += v < h.lo ? 1 : 0;
    h.above += v > h.hi ? 1 : 0;
    int bin = width > 0 ? static_cast<int>((v - h.lo) / width) : 0;
    ++h.counts[std::min(std::max(bin, 0), kMcHistogramBins - 1)];
  }
  return h;
}

}  // namespace

double Percentile(const std::vector<double>& sorted, double p) {
  const double rank = p * static_cast<double>(sorted.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(rank);
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

// The 32-bit draws k in [0, 2^32) with (k + 0.5) / 2^32 < share: k < ceil(share 2^32 - 0.5) (exact: a power of
// two's scaling, and a half below 2^32).
static std::uint64_t Below32(double share) {
  const double y = std::ceil(std::min(1.0, std::max(0.0, share)) * 0x1.0p32 - 0.5);
  return static_cast<std::uint64_t>(std::max(0.0, y));
}

void MonteCarlo::Refuse(Message why) {
  std::snprintf(error_, sizeof error_, "%s", why.Text(Lang::kEn).c_str());
  error_message_ = std::move(why);
}

MonteCarlo::MonteCarlo(const Scenario& s, std::uint64_t seed, std::int64_t trials)
    : seed_(seed), trials_(trials), wait_rng_(seed ^ 0x9E3779B97F4A7C15ull) {
  std::uint64_t key = seed;
  stream_key_ = SplitMix64(&key);
  if (trials < 1 || trials > kMcMaxTrials) {
    Refuse({"msg.mc_trials", {FormatBound(static_cast<double>(kMcMaxTrials)), std::to_string(trials)}});
    trials_ = 0;
    return;
  }
  closed_form_ = Evaluate(s);
  Result planned;
  if (!closed_form_.ok || !PlanJob(s, &plan_, &planned)) {
    Refuse({"msg.mc_cannot_evaluate", {}});
    trials_ = 0;
    return;
  }
  const TimelineInputs& in = plan_.unit;
  const bool training = Kind(s) == WorkloadKind::kTraining;
  tasks_per_trial_ = training ? 1 : std::min<std::int64_t>(s.workload.tasks, kMcMaxTasksPerTrial);
  const double per_unit = closed_form_.expected_interruptions / plan_.units;
  if (closed_form_.never_finishes || per_unit * static_cast<double>(tasks_per_trial_) > kMcMaxInterruptionsPerTrial) {
    Refuse({"msg.mc_never", {FormatParam("%.3g", closed_form_.expected_interruptions)}});
    trials_ = 0;
    return;
  }
  max_events_ = static_cast<std::int64_t>(std::min(1e15, 100 * per_unit + 10000));
  plan_.ops.deadline_s = closed_form_.schedule.deadline_hours * 3600;  // given, or the normal run (capacity.h)

  segments_ = SegmentsOf(in);
  model_error_ = training && tasks_per_trial_ == 1 && plan_.units == 1 && closed_form_.mfu_source == MfuSource::kPredicted;
  for (Lane& lane : lanes_) lane.own = plan_;  // a trial's plan with its own work (model error)
  // Checkpoint k restarts at k x segment; it is complete only `write` after its blocking part began.
  commit_lag_s_ = in.checkpoint_async ? std::max(0.0, in.checkpoint_write_seconds - in.checkpoint_block_seconds) : 0;

  failure_shape_ = s.reliability.failure_shape;
  mean_failure_s_ = in.failure_rate_per_s > 0 ? 1 / in.failure_rate_per_s : 0;
  mean_preemption_s_ = in.spot_rate_per_s > 0 ? 1 / in.spot_rate_per_s : 0;
  if (in.failure_rate_per_s > 0) {  // issue 50: the failure classes' shares (reliability.h)
    infant_share_ = std::min(1.0, in.infant_rate_per_s / in.failure_rate_per_s);
    timeout_share_ = std::min(1.0 - infant_share_, in.timeout_rate_per_s / in.failure_rate_per_s);
  }
  // Issue 50: a failure's class and spare drawn together (DrawOutcome); early failures a share of the others.
  const OpsPlan& ops = plan_.ops;
  spare_draw_ = ops.spare_fast_fraction > 0 && ops.spare_fast_fraction < 1;
  other_recovery_s_ = ops.spare_fast_fraction >= 1 ? ops.fast_recovery_s : in.failure_recovery_seconds;
  draw_outcome_ = spare_draw_ || timeout_share_ > 0;
  timeout_below_ = Below32(timeout_share_);
  spare_below_ = Below32(ops.spare_fast_fraction);
  spare_recovery_s_[0] = ops.slow_recovery_s;
  spare_recovery_s_[1] = ops.fast_recovery_s;
  infant_of_other_ = timeout_share_ < 1 ? std::min(1.0, infant_share_ / (1 - timeout_share_)) : 0;
  // Unusable checkpoints: 1 / ln(1 - p) for the geometric skips (a series below 1e-4, where 1 - p loses digits).
  const double p_bad = ops.bad_checkpoint_probability;
  if (p_bad > 0) {
    const double log_good = p_bad >= 1 ? -1e300
                            : p_bad < 1e-4 ? -p_bad * (1 + p_bad * (0.5 + p_bad * (1.0 / 3 + p_bad * 0.25)))
                                           : PortableLog(1 - p_bad);
    inv_log_good_ = 1 / log_good;
  }
  exponential_failures_ = mean_failure_s_ > 0 && failure_shape_ == 1;
  if (in.failure_rate_per_s > 0 && failure_shape_ != 1)
    weibull_scale_s_ = WeibullScaleForMean(1 / in.failure_rate_per_s, failure_shape_);
  // Rental sessions per node, for the billing of spot preemptions of a single unit (a coupled job).
  if (in.spot_rate_per_s > 0 && plan_.units == 1 && tasks_per_trial_ == 1 && plan_.terms.bill_rounding &&
      plan_.session_gpus > 0) {
    nodes_ = std::max(1.0, std::round(plan_.billed_gpus / plan_.session_gpus));
    if (nodes_ <= kMcMaxTrackedNodes) {
      node_stamp_.assign(static_cast<std::size_t>(nodes_), -1);
      node_session_start_s_.assign(static_cast<std::size_t>(nodes_), 0.0);
      touched_nodes_.reserve(static_cast<std::size_t>(nodes_));
    }
  }
  // Two trials walked at once when nothing is shared between them (preemptions' rental sessions are): the same
  // results, each trial drawing from its own stream, with the processor overlapping two event chains.
  pairable_ = tasks_per_trial_ == 1 && plan_.units == 1 && !(mean_preemption_s_ > 0);
  time_hours_.resize(static_cast<std::size_t>(trials));
  cost_usd_.resize(static_cast<std::size_t>(trials));
  finish_hours_.resize(static_cast<std::size_t>(trials));
}

// Trial i's own stream: splitmix64's sequence from the seed's hash, four words a trial (Rng::Seed), so that
// the trials' streams never overlap and a trial's draws do not depend on the order in which trials run.
Rng MonteCarlo::TrialRng(std::int64_t trial) const {
  Rng rng;
  rng.Seed(stream_key_ + 4 * static_cast<std::uint64_t>(trial) * 0x9e3779b97f4a7c15ull);
  return rng;
}

// The unit's schedule: full segments of interval + block, then the rest + block (the final checkpoint).
MonteCarlo::Segments MonteCarlo::SegmentsOf(const TimelineInputs& in) {
  Segments g;
  const double interval = in.interval_seconds > 0 ? in.interval_seconds : in.work_seconds;
  g.full = std::floor(in.work_seconds / interval);
  const double rest = in.work_seconds - g.full * interval;
  g.segment_s = interval + in.checkpoint_block_seconds;
  g.inv_segment_s = 1 / g.segment_s;  // a multiply per rollback instead of a divide
  g.checkpoints = in.checkpointing ? g.full + (rest > 0 ? 1 : 0) : 0;
  g.total_running_s = g.full * g.segment_s + (rest > 0 ? rest + in.checkpoint_block_seconds : 0);
  return g;
}

// The hot state of one unit's timeline: the generator, the two clocks, the running sums, the position. A local
// whose address never escapes (every function that takes it is inlined), so that it lives in registers: a
// generator and sums in memory cost a store and a reload per draw and per sum (issue 50: with every term on,
// 721 interruptions a trial took 32 ns each).
struct MonteCarlo::Walk {
  Rng rng;
  Timeline t;
  double held_s = 0;
  std::int64_t events = 0, failures = 0, timeouts = 0, preemptions = 0;  // counted as integers, Timeline's at the end
  double fail = 0, spot = 0;  // time to the next failure / preemption
  double committed = 0;       // running position of the last completed checkpoint (0: the start)
  double goods_before_bad = 0;  // usable checkpoints the rollbacks find before the next unusable one
  double preempt_rework = 0, preempt_recovery = 0;  // the preemptions' (the other failures' are what is left)
  bool truncated = false;
  const TimelineInputs* in = nullptr;  // the trial's plan
  const Segments* seg = nullptr;
  UnitTrial* unit = nullptr;  // for the rental sessions (spot only, out of line)
};

#define GPUCOST_HOT [[gnu::always_inline]] inline

GPUCOST_HOT double MonteCarlo::DrawFailure(Rng& rng) const {
  if (exponential_failures_) return mean_failure_s_ * SampleUnitExponential(rng, *exp_tables_);
  if (mean_failure_s_ <= 0) return kNever;
  return SampleWeibull(rng, failure_shape_, weibull_scale_s_);
}

GPUCOST_HOT double MonteCarlo::DrawPreemption(Rng& rng) const {
  return mean_preemption_s_ > 0 ? mean_preemption_s_ * SampleUnitExponential(rng, *exp_tables_) : kNever;
}

// A spot preemption cuts the rental of the preempted node (a random one; its billing restarts when capacity
// returns) while the other GPUs keep theirs (JobPlan::reacquire_held_gpus).
void MonteCarlo::CutSession(UnitTrial* u) {
  if (node_stamp_.empty()) return;  // not tracked (tasks, or too many nodes): BillJob estimates
  const std::size_t node = std::min(node_stamp_.size() - 1, static_cast<std::size_t>(rng_.Uniform() * nodes_));
  if (node_stamp_[node] != completed_) {  // first cut of this node in this trial: its rental began at 0
    node_stamp_[node] = completed_;
    node_session_start_s_[node] = 0;
    touched_nodes_.push_back(node);  // within the capacity reserved at construction
  }
  const double len = u->held_s - node_session_start_s_[node];
  u->rounding_gpu_s += plan_.session_gpus * SessionRoundingSeconds(plan_, len);
  node_session_start_s_[node] = u->held_s;
}

// Rounding of the rentals that run to the end of the job (all GPUs; cut nodes from their last restart).
double MonteCarlo::FinalRoundingGpuSeconds(const UnitTrial& u) {
  const double wall = u.held_s + plan_.downtime_s;
  const double untouched = plan_.billed_gpus - static_cast<double>(touched_nodes_.size()) * plan_.session_gpus;
  double gpu_s = u.rounding_gpu_s + std::max(0.0, untouched) * SessionRoundingSeconds(plan_, wall);
  for (std::size_t node : touched_nodes_)
    gpu_s += plan_.session_gpus * SessionRoundingSeconds(plan_, wall - node_session_start_s_[node]);
  touched_nodes_.clear();
  return gpu_s;
}

// A preemption's cut of a rental session (out of line, spot only): the walk's generator and held time pass
// through the members and back, so that the walk itself is never address-taken.
GPUCOST_HOT void MonteCarlo::CutSessionOf(Walk& w) {
  if (node_stamp_.empty()) return;  // not tracked: no draw
  rng_ = w.rng;
  w.unit->held_s = w.held_s;
  CutSession(w.unit);
  w.rng = rng_;
}

// A failure's class and its recovery (issue 50): a collective timeout recovers by its own restart, any other
// failure through the spare pool (spares.h: fast while a spare is free). Early failures and hardware failures
// behave alike (the same recovery), so the walk does not tell them apart: EndWalk gives the early ones their
// share of the other failures. One 64-bit draw decides both the class (its upper 32 bits) and the spare (its
// lower 32 bits), compared as integers with the shares on a grid of 2^-32 (a probability off by less than 1e-9);
// no draw when neither is random.
struct MonteCarlo::Outcome {
  bool timeout;
  double recovery_s;
};

GPUCOST_HOT MonteCarlo::Outcome MonteCarlo::DrawOutcome(Rng& rng) const {
  if (!draw_outcome_) return {false, other_recovery_s_};
  const std::uint64_t bits = rng.Next();
  if ((bits >> 32) < timeout_below_) return {true, plan_.unit.timeout_recovery_seconds};
  return {false, spare_draw_ ? spare_recovery_s_[(bits & 0xffffffffu) < spare_below_] : other_recovery_s_};
}

// Recovery time `seconds` of an interruption (a timeout, a preemption or another failure), to its parts.
GPUCOST_HOT void MonteCarlo::ChargeRecovery(Walk& w, int which, double seconds) const {
  w.t.recovery += seconds;
  if (which != 0) {
    if (which == 2) w.t.timeout_recovery += seconds;
    else w.preempt_recovery += seconds;
  }
}

// The checkpoints a rollback finds unusable (operations.h): a run of them, each with chance p. The Bernoulli
// draws of every rollback in a row are one stream; the walk skips through it by its usable checkpoints before the
// next unusable one (geometric: a logarithm per unusable checkpoint instead of a draw per rollback). A rollback
// takes one usable checkpoint off the count; when there was none left, this: the run of unusable ones, until
// the next usable one (which the new count already includes, so it is taken off).
[[gnu::noinline]] void MonteCarlo::BadCheckpointRun(Walk& w) const {
  for (int run = 0; run < 100000; ++run) {  // the cap keeps a loop finite (p = 1 is blocked before)
    w.t.bad_checkpoints += 1;
    const double goods = DrawGoodsBeforeBad(w.rng);
    if (goods > 0) {
      w.goods_before_bad = goods - 1;
      return;
    }
  }
  w.goods_before_bad = 0;
}

// Usable checkpoints before the next unusable one: geometric, P(G >= g) = (1 - p)^g.
double MonteCarlo::DrawGoodsBeforeBad(Rng& rng) const {
  return std::min(1e15, std::floor(PortableLog(rng.Uniform()) * inv_log_good_));
}

// Recovery of `seconds` (billed); an interruption during it restarts the recovery of its own class.
// kSpot: preemptions are possible (without them the walk keeps no preemption clock and no held time).
template <bool kSpot>
GPUCOST_HOT void MonteCarlo::Recover(double seconds, int which, Walk& w) {
  const TimelineInputs& in = plan_.unit;
  double left = seconds;
  for (;;) {
    const bool f = !kSpot || w.fail <= w.spot;
    const double next = f ? w.fail : w.spot;
    if (next >= left) {
      w.fail -= left;
      if constexpr (kSpot) w.spot -= left, w.held_s += left;
      ChargeRecovery(w, which, left);
      return;
    }
    if (++w.events > max_events_) {
      w.truncated = true;
      return;
    }
    w.fail -= next;
    if constexpr (kSpot) w.spot -= next, w.held_s += next;
    ChargeRecovery(w, which, next);
    if (f) {
      ++w.failures;
      w.fail = DrawFailure(w.rng);
      const Outcome o = DrawOutcome(w.rng);
      which = o.timeout ? 2 : 0;
      w.timeouts += o.timeout;
      left = o.recovery_s;
    } else {
      which = -1;
      ++w.preemptions;
      w.spot = DrawPreemption(w.rng);
      CutSessionOf(w);
      w.t.reacquire_wait += in.reacquire_seconds;
      left = in.spot_recovery_seconds;
    }
  }
}

// The walk of a unit at its start: no time held, the first failure and preemption drawn.
GPUCOST_HOT void MonteCarlo::StartWalk(const JobPlan& plan, const Segments& seg, Rng rng, UnitTrial* u, Walk& w) const {
  *u = UnitTrial{};
  w.rng = rng;
  w.unit = u;
  w.in = &plan.unit;
  w.seg = &seg;
  w.t.work = plan.unit.work_seconds;
  w.t.checkpoints = seg.checkpoints;
  w.t.checkpoint = seg.checkpoints * plan.unit.checkpoint_block_seconds;
  w.fail = DrawFailure(w.rng);
  w.spot = DrawPreemption(w.rng);
  if (inv_log_good_ < 0) w.goods_before_bad = DrawGoodsBeforeBad(w.rng);
}

// The walk's next interruption and its recovery, or the end of the unit's last segment: false when it has ended
// (or stopped at the event cap).
template <bool kSpot>
GPUCOST_HOT bool MonteCarlo::Step(Walk& w) {
  const TimelineInputs& in = *w.in;
  const Segments& seg = *w.seg;
  Timeline& t = w.t;
  const double remaining = seg.total_running_s - w.committed;
  const bool failure = !kSpot || w.fail <= w.spot;
  const double next = failure ? w.fail : w.spot;
  if (next >= remaining) {
    if constexpr (kSpot) w.held_s += remaining;
    return false;
  }
  if (++w.events > max_events_) {
    w.truncated = true;
    return false;
  }
  w.fail -= next;
  if constexpr (kSpot) w.spot -= next, w.held_s += next;
  const double pos = w.committed + next;
  Outcome outcome{false, 0};  // a failure's class and recovery (issue 50), drawn at its rollback
  if (!failure && in.spot_saves_on_notice) {
    w.committed = pos;  // a checkpoint written on notice: nothing lost
    t.checkpoint += in.checkpoint_write_seconds;
    w.held_s += in.checkpoint_write_seconds;
  } else {
    // Roll back to the last checkpoint completed before pos (async: `commit lag` after it began).
    // floor() of a value clamped to [0, full segments] is its truncation: one conversion instead of the
    // floor's mask-and-blend sequence (a quarter of this loop's time without SSE4.1); the same bits.
    const double x = std::min(seg.full, std::max(0.0, (pos - commit_lag_s_) * seg.inv_segment_s));
    const double k = x < 0x1p52 ? static_cast<double>(static_cast<std::int64_t>(x)) : std::floor(x);
    const double restart = std::max(w.committed, k * seg.segment_s);
    t.rework += pos - restart;
    // Issue 50: a failure's class, and its rework to that class's part.
    if (failure) {
      outcome = DrawOutcome(w.rng);
      if (outcome.timeout) t.timeout_rework += pos - restart;
    } else {
      w.preempt_rework += pos - restart;
    }
    w.committed = restart;
    // The last checkpoint may be unusable (operations.h), and the one before it too: each one more interval
    // lost (billed by BillJob).
    if (inv_log_good_ < 0 && --w.goods_before_bad < 0) BadCheckpointRun(w);
  }
  if (failure) {
    ++w.failures;
    w.timeouts += outcome.timeout;
    w.fail = DrawFailure(w.rng);
    Recover<kSpot>(outcome.recovery_s, outcome.timeout ? 2 : 0, w);
  } else {
    ++w.preemptions;
    w.spot = DrawPreemption(w.rng);
    CutSessionOf(w);
    t.reacquire_wait += in.reacquire_seconds;
    Recover<kSpot>(in.spot_recovery_seconds, -1, w);
  }
  return !w.truncated;
}

template <bool kSpot>
GPUCOST_HOT Rng MonteCarlo::EndWalk(const Walk& w) const {
  w.unit->t = w.t;
  // The early failures' share of the failures that are neither timeouts nor preemptions (issue 50): their count,
  // rework and recovery in this trial, as expected given what the trial drew (they recover like any failure).
  Timeline& t = w.unit->t;
  t.failures = static_cast<double>(w.failures);
  t.timeouts = static_cast<double>(w.timeouts);
  t.preemptions = static_cast<double>(w.preemptions);
  t.interruptions = t.failures + t.preemptions;  // every interruption is one or the other
  const double other_rework = std::max(0.0, t.rework - t.timeout_rework - w.preempt_rework);
  const double other_recovery = std::max(0.0, t.recovery - t.timeout_recovery - w.preempt_recovery);
  t.infant_failures = infant_of_other_ * (t.failures - t.timeouts);
  t.infant_rework = infant_of_other_ * other_rework;
  t.infant_recovery = infant_of_other_ * other_recovery;
  // Held time (running and recovering): counted as it went with preemptions (their rentals need it), else its sum.
  w.unit->held_s = kSpot ? w.held_s : t.work + t.checkpoint + t.rework + t.recovery;
  w.unit->events = static_cast<double>(w.events);
  w.unit->truncated = w.truncated;
  return w.rng;
}

// One timeline of the unit, from the first segment to the end of the last one; *rng continues its stream.
template <bool kSpot>
void MonteCarlo::SimulateUnit(const JobPlan& plan, const Segments& seg, Rng* rng, UnitTrial* u) {
  Walk w;
  StartWalk(plan, seg, *rng, u, w);
  while (Step<kSpot>(w)) {
  }
  *rng = EndWalk<kSpot>(w);
}

// One walk at a time is the general one (preemptions or not: without them their clock never rings); the page's
// deferred code keeps one copy (a walk without preemptions alone would add 3 KB for a few leftover trials).
void MonteCarlo::SimulateUnit(const JobPlan& plan, const Segments& seg, Rng* rng, UnitTrial* u) {
  SimulateUnit<true>(plan, seg, rng, u);
}

// Two trials' timelines walked together, an event of each in turn: two independent chains of dependent
// arithmetic that the processor overlaps. The same results as one after the other (each has its own stream).
template <bool kSpot>
void MonteCarlo::SimulatePair(Lane& a, Lane& b) {
  Walk wa, wb;
  StartWalk(*a.plan, a.seg, a.rng, &a.unit, wa);
  StartWalk(*b.plan, b.seg, b.rng, &b.unit, wb);
  bool more_a = true, more_b = true;
  while (more_a && more_b) {
    more_a = Step<kSpot>(wa);
    more_b = Step<kSpot>(wb);
  }
  while (more_a) more_a = Step<kSpot>(wa);
  while (more_b) more_b = Step<kSpot>(wb);
  a.rng = EndWalk<kSpot>(wa);
  b.rng = EndWalk<kSpot>(wb);
}

// Pairs walk without preemptions only (pairable_): a job with them tracks its nodes' rentals, shared by trials.
void MonteCarlo::SimulatePair(Lane& a, Lane& b) {
  GPUCOST_ASSERT(!(mean_preemption_s_ > 0), "paired walks have no preemption clock");
  SimulatePair<false>(a, b);
}

#undef GPUCOST_HOT

// Trial `trial`'s plan and stream: with the step-time model's error, its own work (compute only).
void MonteCarlo::PrepareLane(std::int64_t trial, Lane* lane) {
  lane->rng = TrialRng(trial);
  lane->plan = &plan_;
  lane->seg = segments_;
  if (!model_error_) return;
  const double compute_s = plan_.work_compute_s * StepTimeErrorFactor(lane->rng.Uniform());
  lane->own.unit.work_seconds = plan_.unit.work_seconds + (compute_s - plan_.work_compute_s);
  lane->own.work_compute_s = compute_s;
  lane->plan = &lane->own;
  lane->seg = SegmentsOf(lane->own.unit);
}

// Trial completed_: bills its timeline, draws its wait for capacity (in trial order: a stream of its own), and
// records it.
void MonteCarlo::RecordTrial(const Lane& lane) {
  const UnitTrial& u = lane.unit;
  JobBill bill;
  BillJob(*lane.plan, u.t, u.t.preemptions, &bill, node_stamp_.empty() ? -1 : FinalRoundingGpuSeconds(u));
  Record(&bill, u.t.interruptions, u.t.failures, u.t.preemptions, u.truncated);
}

void MonteCarlo::Record(JobBill* bill, double interruptions, double failures, double preemptions, bool truncated) {
  // The wait for capacity before this trial's timeline, and its delay cost (capacity.h).
  // (and owned hardware's lead time before it: a fixed delay, issue 45)
  const double wait_h = plan_.ops.lead_s / 3600 +
                        (plan_.ops.wait_mean_s > 0 ? SampleExponential(wait_rng_, plan_.ops.wait_mean_s) / 3600 : 0);
  AddDelay(plan_, wait_h, bill);
  const std::size_t i = static_cast<std::size_t>(completed_);
  finish_hours_[i] = wait_h + bill->hours;
  if (plan_.ops.deadline_given && finish_hours_[i] > plan_.ops.deadline_s / 3600) ++missed_;
  time_hours_[i] = bill->hours;
  cost_usd_[i] = bill->usd;
  for (int p = 0; p < kPartCount; ++p) {
    sum_time_.part[p] += bill->time_hours.part[p];
    sum_cost_.part[p] += bill->cost_usd.part[p];
  }
  sum_interruptions_ += interruptions;
  sum_failures_ += failures;
  sum_preemptions_ += preemptions;
  if (truncated) ++truncated_;
  ++completed_;
}

void MonteCarlo::RunTrial() {
  Lane& lane = lanes_[0];
  PrepareLane(completed_, &lane);
  if (tasks_per_trial_ == 1 && plan_.units == 1) {
    SimulateUnit(*lane.plan, lane.seg, &lane.rng, &lane.unit);
    RecordTrial(lane);
    return;
  }
  Timeline sum;
  bool truncated = false;
  for (std::int64_t i = 0; i < tasks_per_trial_; ++i) {
    SimulateUnit(plan_, segments_, &lane.rng, &lane.unit);
    AddTimeline(lane.unit.t, &sum);
    truncated = truncated || lane.unit.truncated;
  }
  ScaleTimeline(1 / static_cast<double>(tasks_per_trial_), &sum);  // the mean task
  // Tasks sharing a node are preempted together: one ended rental per units_per_session preemptions.
  JobBill bill;
  BillJob(plan_, sum, sum.preemptions / plan_.units_per_session, &bill);
  Record(&bill, sum.interruptions * plan_.units, sum.failures * plan_.units, sum.preemptions * plan_.units, truncated);
}

void MonteCarlo::RunPair() {
  PrepareLane(completed_, &lanes_[0]);
  PrepareLane(completed_ + 1, &lanes_[1]);
  SimulatePair(lanes_[0], lanes_[1]);
  RecordTrial(lanes_[0]);
  RecordTrial(lanes_[1]);
}

std::int64_t MonteCarlo::Run(std::int64_t max_trials) {
  std::int64_t ran = 0;
  while (ran < max_trials && !done()) {
    if (pairable_ && max_trials - ran >= 2 && trials_ - completed_ >= 2) {
      RunPair();
      ran += 2;
    } else {
      RunTrial();
      ++ran;
    }
  }
  return ran;
}

McSummary MonteCarlo::Summary() const {
  McSummary s;
  s.seed = seed_;
  s.trials = completed_;
  s.closed_form_hours = closed_form_.expected_hours;
  s.closed_form_usd = closed_form_.expected_usd;
  s.model_error_sampled = model_error_;
  s.truncated_trials = truncated_;
  if (completed_ == 0) return s;
  const double n = static_cast<double>(completed_);
  std::vector<double> values(time_hours_.begin(), time_hours_.begin() + completed_);
  s.time_hours = StatsOf(&values);
  s.time_hist = HistogramOf(values);
  values.assign(cost_usd_.begin(), cost_usd_.begin() + completed_);
  s.cost_usd = StatsOf(&values);
  s.cost_hist = HistogramOf(values);
  for (int p = 0; p < kPartCount; ++p) {
    s.mean_time_hours.part[p] = sum_time_.part[p] / n;
    s.mean_cost_usd.part[p] = sum_cost_.part[p] / n;
  }
  s.mean_interruptions = sum_interruptions_ / n;
  s.mean_failures = sum_failures_ / n;
  s.mean_preemptions = sum_preemptions_ / n;
  values.assign(finish_hours_.begin(), finish_hours_.begin() + completed_);
  s.finish_hours = StatsOf(&values);
  s.wait_mean_hours = (plan_.ops.lead_s + plan_.ops.wait_mean_s) / 3600;
  s.deadline_given = plan_.ops.deadline_given;
  s.deadline_hours = plan_.ops.deadline_s / 3600;
  s.p_miss_deadline = static_cast<double>(missed_) / n;
  GPUCOST_ASSERT(s.cost_usd.min <= s.cost_usd.p10 && s.cost_usd.p10 <= s.cost_usd.p50 && s.cost_usd.p50 <= s.cost_usd.p90 &&
                     s.cost_usd.p90 <= s.cost_usd.max,
                 "the trials' cost percentiles are in order");
  GPUCOST_ASSERT(ApproxEqual(s.mean_cost_usd.Total(), s.cost_usd.mean, 1e-7), "the mean parts add up to the mean cost");
  return s;
}


std::string McHistogramNote(const McHistogram& h, std::int64_t trials, double scale,
                            const std::function<std::string(double)>& format) {
  const auto count = [](std::int64_t n) { return FormatCount(static_cast<double>(n)); };
  const std::string resolution = FormatPercent(kMcAxisResolution);
  if (!h.resolved && h.within == trials)
    return TrFormat("mc.all_within", {resolution, format(h.center * scale)});
  if (!h.resolved)
    return TrFormat("mc.most_within", {count(h.within), count(trials), resolution, format(h.center * scale),
                                       format(h.lo * scale), format(h.hi * scale)});
  if (h.below + h.above == 0) return "";
  return TrFormat("mc.outliers", {count(h.below), count(h.above)});
}


}  // namespace gpucost
