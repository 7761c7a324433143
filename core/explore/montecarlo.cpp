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

struct MonteCarlo::UnitTrial {
  Timeline t;                   // seconds and counts of this unit's simulated timeline
  double held_s = 0;            // billed time so far (running + recovery)
  double rounding_gpu_s = 0;    // billing rounding of the rental sessions cut so far
  double events = 0;
  bool truncated = false;
};

void MonteCarlo::Refuse(Message why) {
  std::snprintf(error_, sizeof error_, "%s", why.Text(Lang::kEn).c_str());
  error_message_ = std::move(why);
}

MonteCarlo::MonteCarlo(const Scenario& s, std::uint64_t seed, std::int64_t trials)
    : rng_(seed), seed_(seed), trials_(trials), wait_rng_(seed ^ 0x9E3779B97F4A7C15ull) {
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
  max_events_ = 100 * per_unit + 10000;
  plan_.ops.deadline_s = closed_form_.schedule.deadline_hours * 3600;  // given, or the normal run (capacity.h)

  Schedule(in);
  trial_plan_ = plan_;
  model_error_ = training && tasks_per_trial_ == 1 && plan_.units == 1 && closed_form_.mfu_source == MfuSource::kPredicted;
  // Checkpoint k restarts at k x segment; it is complete only `write` after its blocking part began.
  commit_lag_s_ = in.checkpoint_async ? std::max(0.0, in.checkpoint_write_seconds - in.checkpoint_block_seconds) : 0;

  failure_shape_ = s.reliability.failure_shape;
  mean_failure_s_ = in.failure_rate_per_s > 0 ? 1 / in.failure_rate_per_s : 0;
  mean_preemption_s_ = in.spot_rate_per_s > 0 ? 1 / in.spot_rate_per_s : 0;
  if (in.failure_rate_per_s > 0) {  // issue 50: the failure classes' shares (reliability.h)
    infant_share_ = std::min(1.0, in.infant_rate_per_s / in.failure_rate_per_s);
    timeout_share_ = std::min(1.0 - infant_share_, in.timeout_rate_per_s / in.failure_rate_per_s);
  }
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
  time_hours_.resize(static_cast<std::size_t>(trials));
  cost_usd_.resize(static_cast<std::size_t>(trials));
  finish_hours_.resize(static_cast<std::size_t>(trials));
}

double MonteCarlo::FailureRecoverySeconds() {
  const OpsPlan& p = plan_.ops;
  if (p.spare_fast_fraction >= 1) return p.fast_recovery_s;
  if (p.spare_fast_fraction <= 0) return plan_.unit.failure_recovery_seconds;  // no spares: the slow path
  return rng_.Uniform() < p.spare_fast_fraction ? p.fast_recovery_s : p.slow_recovery_s;
}

// The unit's schedule: full segments of interval + block, then the rest + block (the final checkpoint).
void MonteCarlo::Schedule(const TimelineInputs& in) {
  const double interval = in.interval_seconds > 0 ? in.interval_seconds : in.work_seconds;
  full_segments_ = std::floor(in.work_seconds / interval);
  const double rest = in.work_seconds - full_segments_ * interval;
  segment_s_ = interval + in.checkpoint_block_seconds;
  inv_segment_s_ = 1 / segment_s_;  // a multiply per rollback instead of a divide
  checkpoints_ = in.checkpointing ? full_segments_ + (rest > 0 ? 1 : 0) : 0;
  total_running_s_ = full_segments_ * segment_s_ + (rest > 0 ? rest + in.checkpoint_block_seconds : 0);
}

double MonteCarlo::DrawFailure() {
  if (mean_failure_s_ <= 0) return kNever;
  if (failure_shape_ == 1) return SampleExponential(rng_, mean_failure_s_);
  return SampleWeibull(rng_, failure_shape_, weibull_scale_s_);
}

double MonteCarlo::DrawPreemption() { return mean_preemption_s_ > 0 ? SampleExponential(rng_, mean_preemption_s_) : kNever; }

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

// Issue 50: the class of a failure (0 hardware, 1 an early failure, 2 a collective timeout), drawn by the classes'
// shares of the failure rate; no draw (hardware) when there are none, so such runs keep their random stream.
int MonteCarlo::DrawFailureClass(UnitTrial* u) {
  if (infant_share_ <= 0 && timeout_share_ <= 0) return 0;
  const double x = rng_.Uniform();
  const int c = x < infant_share_ ? 1 : x < infant_share_ + timeout_share_ ? 2 : 0;
  u->t.infant_failures += c == 1 ? 1 : 0;
  u->t.timeouts += c == 2 ? 1 : 0;
  return c;
}

// Recovery of a failure of class `which` (issue 50: a timeout's is its own, the others' the spare pool's).
double MonteCarlo::ClassRecovery(int which) {
  return which == 2 ? plan_.unit.timeout_recovery_seconds : FailureRecoverySeconds();
}

// Recovery time `seconds` of a class-`which` interruption (-1: a preemption), to that class's part.
static void ChargeRecovery(Timeline* t, int which, double seconds) {
  t->recovery += seconds;
  if (which == 1) t->infant_recovery += seconds;
  if (which == 2) t->timeout_recovery += seconds;
}

// Recovery of `seconds` (billed); an interruption during it restarts the recovery of its own class.
void MonteCarlo::Recover(double seconds, int which, UnitTrial* u, double* fail, double* spot) {
  const TimelineInputs& in = plan_.unit;
  double left = seconds;
  for (;;) {
    const bool f = *fail <= *spot;
    const double next = f ? *fail : *spot;
    if (next >= left) {
      *fail -= left, *spot -= left;
      ChargeRecovery(&u->t, which, left);
      u->held_s += left;
      return;
    }
    if (++u->events > max_events_) {
      u->truncated = true;
      return;
    }
    *fail -= next, *spot -= next;
    ChargeRecovery(&u->t, which, next);
    u->held_s += next;
    u->t.interruptions += 1;
    if (f) {
      u->t.failures += 1;
      *fail = DrawFailure();
      which = DrawFailureClass(u);
      left = ClassRecovery(which);
    } else {
      which = -1;
      u->t.preemptions += 1;
      *spot = DrawPreemption();
      CutSession(u);
      u->t.reacquire_wait += in.reacquire_seconds;
      left = in.spot_recovery_seconds;
    }
  }
}

// One timeline of the unit, from the first segment to the end of the last one.
void MonteCarlo::SimulateUnit(UnitTrial* u) {
  *u = UnitTrial{};
  const TimelineInputs& in = Active().unit;
  Timeline& t = u->t;
  t.work = in.work_seconds;
  t.checkpoints = checkpoints_;
  t.checkpoint = checkpoints_ * in.checkpoint_block_seconds;
  double fail = DrawFailure(), spot = DrawPreemption();
  double committed = 0;  // running position of the last completed checkpoint (0: the start)
  for (;;) {
    const double remaining = total_running_s_ - committed;
    const bool failure = fail <= spot;
    const double next = failure ? fail : spot;
    if (next >= remaining) {
      u->held_s += remaining;
      return;
    }
    if (++u->events > max_events_) {
      u->truncated = true;
      return;
    }
    fail -= next, spot -= next;
    u->held_s += next;
    const double pos = committed + next;
    t.interruptions += 1;
    int which = 0;  // a failure's class (issue 50), drawn at its rollback
    if (!failure && in.spot_saves_on_notice) {
      committed = pos;  // a checkpoint written on notice: nothing lost
      t.checkpoint += in.checkpoint_write_seconds;
      u->held_s += in.checkpoint_write_seconds;
    } else {
      // Roll back to the last checkpoint completed before pos (async: `commit lag` after it began).
      // floor() of a value clamped to [0, full segments] is its truncation: one conversion instead of the
      // floor's mask-and-blend sequence (a quarter of this loop's time without SSE4.1); the same bits.
      const double x = std::min(full_segments_, std::max(0.0, (pos - commit_lag_s_) * inv_segment_s_));
      const double k = x < 0x1p52 ? static_cast<double>(static_cast<std::int64_t>(x)) : std::floor(x);
      const double restart = std::max(committed, k * segment_s_);
      t.rework += pos - restart;
      // Issue 50: a failure's class, and its rework to that class's part.
      which = failure ? DrawFailureClass(u) : -1;
      if (which == 1) t.infant_rework += pos - restart;
      if (which == 2) t.timeout_rework += pos - restart;
      committed = restart;
      // The last checkpoint may be unusable (operations.h), and the one before it too: a run of them, each one
      // more interval lost (billed by BillJob). p = 1 never recovers: blocked before it is simulated (the cap
      // only keeps a loop finite).
      const double p_bad = Active().ops.bad_checkpoint_probability;
      if (p_bad > 0)
        for (int run = 0; run < 100000 && rng_.Uniform() < p_bad; ++run) t.bad_checkpoints += 1;
    }
    if (failure) {
      t.failures += 1;
      fail = DrawFailure();
      Recover(ClassRecovery(which), which, u, &fail, &spot);
    } else {
      t.preemptions += 1;
      spot = DrawPreemption();
      CutSession(u);
      t.reacquire_wait += in.reacquire_seconds;
      Recover(in.spot_recovery_seconds, -1, u, &fail, &spot);
    }
    if (u->truncated) return;
  }
}

void MonteCarlo::RunTrial() {
  UnitTrial u;
  JobBill bill;
  double interruptions = 0, failures = 0, preemptions = 0;
  bool truncated = false;
  if (tasks_per_trial_ == 1 && plan_.units == 1) {
    if (model_error_) {  // this trial's step time: the prediction times the model's error (compute only)
      trial_plan_ = plan_;
      const double compute_s = plan_.work_compute_s * StepTimeErrorFactor(rng_.Uniform());
      trial_plan_.unit.work_seconds += compute_s - plan_.work_compute_s;
      trial_plan_.work_compute_s = compute_s;
      Schedule(trial_plan_.unit);
    }
    SimulateUnit(&u);
    BillJob(Active(), u.t, u.t.preemptions, &bill, node_stamp_.empty() ? -1 : FinalRoundingGpuSeconds(u));
    interruptions = u.t.interruptions, failures = u.t.failures, preemptions = u.t.preemptions;
    truncated = u.truncated;
  } else {
    Timeline sum;
    for (std::int64_t i = 0; i < tasks_per_trial_; ++i) {
      SimulateUnit(&u);
      AddTimeline(u.t, &sum);
      truncated = truncated || u.truncated;
    }
    ScaleTimeline(1 / static_cast<double>(tasks_per_trial_), &sum);  // the mean task
    interruptions = sum.interruptions * plan_.units;
    failures = sum.failures * plan_.units;
    preemptions = sum.preemptions * plan_.units;
    // Tasks sharing a node are preempted together: one ended rental per units_per_session preemptions.
    BillJob(plan_, sum, preemptions / plan_.units_per_session, &bill);
  }
  // The wait for capacity before this trial's timeline, and its delay cost (capacity.h).
  // (and owned hardware's lead time before it: a fixed delay, issue 45)
  const double wait_h = plan_.ops.lead_s / 3600 +
                        (plan_.ops.wait_mean_s > 0 ? SampleExponential(wait_rng_, plan_.ops.wait_mean_s) / 3600 : 0);
  AddDelay(plan_, wait_h, &bill);
  const std::size_t i = static_cast<std::size_t>(completed_);
  finish_hours_[i] = wait_h + bill.hours;
  if (plan_.ops.deadline_given && finish_hours_[i] > plan_.ops.deadline_s / 3600) ++missed_;
  time_hours_[i] = bill.hours;
  cost_usd_[i] = bill.usd;
  for (int p = 0; p < kPartCount; ++p) {
    sum_time_.part[p] += bill.time_hours.part[p];
    sum_cost_.part[p] += bill.cost_usd.part[p];
  }
  sum_interruptions_ += interruptions;
  sum_failures_ += failures;
  sum_preemptions_ += preemptions;
  if (truncated) ++truncated_;
  ++completed_;
}

std::int64_t MonteCarlo::Run(std::int64_t max_trials) {
  std::int64_t ran = 0;
  while (ran < max_trials && !done()) {
    RunTrial();
    ++ran;
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
