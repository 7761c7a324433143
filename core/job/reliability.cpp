#include "job/reliability.h"

#include <algorithm>
#include <cmath>

namespace gpucost {
namespace {

// Beyond this many expected interruptions per segment (e^50) the job practically never finishes; the
// exponent is capped so every figure stays finite.
constexpr double kMaxExponent = 50.0;
// Lost time (rework, recovery, waits) beyond this multiple of the useful running time also counts as
// "practically never finishes": a job expected to take over 100x its normal run is not a plan.
constexpr double kNeverFinishesFactor = 100.0;

struct Segment {
  double failures_before_success;  // e^{lambda a} - 1
  double lost_seconds;             // expected progress lost, M(e^{a/M}-1) - a
};

Segment RunSegment(double a, double rate, bool* exploded) {
  if (rate <= 0 || a <= 0) return {0, 0};
  double x = rate * a;
  if (x > kMaxExponent) {
    *exploded = true;
    x = kMaxExponent;
  }
  const double n = std::expm1(x);
  // lost = expm1(x)/rate - a = a (expm1(x)/x - 1); use the series where the difference cancels.
  const double lost = x < 1e-4 ? a * (x / 2 + x * x / 6 + x * x * x / 24) : n / rate - a;
  return {n, lost};
}

// One stage between durable checkpoints (asynchronous checkpoints become durable `lag` after they begin).
// After the last durable point became durable, the job needs `first` more seconds without a rollback to
// reach its next target (the next checkpoint durable, or the end); a rollback returns it to the durable
// point, `lag` further back than where that attempt started, and from there every retry needs `retry` =
// first + lag seconds. Expected rollbacks: (1 - e^{-r first}) e^{r retry}; expected lost progress:
// q lag + lost(first) / e^{r first} + q lost(retry), q = 1 - e^{-r first}, lost(L) = (e^{rL} - 1)/r - L.
// With lag = 0 this is Daly's segment: e^{rL} - 1 rollbacks and lost(L).
Segment RunStage(double first, double lag, double rate, bool* exploded) {
  if (rate <= 0 || first <= 0) return {0, 0};
  const Segment a = RunSegment(first, rate, exploded);
  if (lag <= 0) return a;
  const Segment b = RunSegment(first + lag, rate, exploded);
  const double q = a.failures_before_success / (1 + a.failures_before_success);
  return {q * (1 + b.failures_before_success), q * lag + a.lost_seconds / (1 + a.failures_before_success) + q * b.lost_seconds};
}

}  // namespace

double YoungInterval(double delta, double mtbf) { return std::sqrt(2 * delta * mtbf); }

double DalyInterval(double delta, double mtbf) {
  if (delta >= 2 * mtbf) return mtbf;
  const double r = delta / (2 * mtbf);
  return std::sqrt(2 * delta * mtbf) * (1 + std::sqrt(r) / 3 + r / 9) - delta;
}

Timeline ExpectedTimeline(const TimelineInputs& in) {
  Timeline t;
  t.work = in.work_seconds;
  if (in.work_seconds <= 0) return t;
  const double interval = in.interval_seconds > 0 ? in.interval_seconds : in.work_seconds;
  const double rollback_rate = in.failure_rate_per_s + (in.spot_saves_on_notice ? 0 : in.spot_rate_per_s);
  const double total_rate = in.failure_rate_per_s + in.spot_rate_per_s;

  // Segments: n_full of (interval + block), then the remainder (if any) + the final checkpoint. Checkpoint k
  // starts at k x segment and is durable `lag` later (0 for synchronous ones); the job ends at `end` without
  // waiting for its last checkpoint. Stages run from one durable point to the next target (RunStage): the
  // first to checkpoint 1 durable (or the end), the middle ones a segment each, the last to the end.
  const double n_full = std::floor(in.work_seconds / interval);
  const double rest = in.work_seconds - n_full * interval;
  const double block = in.checkpoint_block_seconds;
  const double segment = interval + block;
  const double end = n_full * segment + (rest > 0 ? rest + block : 0);
  const double lag = in.checkpoint_async ? std::max(0.0, in.checkpoint_write_seconds - block) : 0;
  // Durable checkpoints reached before the end: k = 1..durable with k x segment + lag < end.
  const double durable = std::max(0.0, std::min(n_full, std::ceil((end - lag) / segment) - 1));
  Segment first{0, 0}, middle{0, 0}, last{0, 0};
  if (durable < 1) {
    first = RunStage(end, 0, rollback_rate, &t.never_finishes);
  } else {
    first = RunStage(segment + lag, 0, rollback_rate, &t.never_finishes);
    if (durable > 1) middle = RunStage(segment, lag, rollback_rate, &t.never_finishes);
    last = RunStage(end - (durable * segment + lag), lag, rollback_rate, &t.never_finishes);
  }
  const double middles = std::max(0.0, durable - 1);
  const double rollbacks = first.failures_before_success + middles * middle.failures_before_success +
                           last.failures_before_success;
  t.checkpoints = in.checkpointing ? n_full + (rest > 0 ? 1 : 0) : 0;
  t.checkpoint = t.checkpoints * block;
  t.rework = first.lost_seconds + middles * middle.lost_seconds + last.lost_seconds;

  // Recovery after each rollback, by class; interruptions during recovery restart it (Daly's e^{R/M}).
  auto recovery = [&](double r_seconds, double* nested) {
    if (total_rate <= 0) {
      *nested = 0;
      return r_seconds;
    }
    const double x = std::min(total_rate * r_seconds, kMaxExponent);
    *nested = std::expm1(x);
    return *nested / total_rate;
  };
  // Issue 50: a failure is hardware, an early failure or a collective timeout (shares of failure_rate_per_s); their
  // mean recovery weighs each class's by its rate.
  const double f_rate = in.failure_rate_per_s;
  const double infant_share = f_rate > 0 ? std::min(1.0, in.infant_rate_per_s / f_rate) : 0;
  const double timeout_share = f_rate > 0 ? std::min(1.0 - infant_share, in.timeout_rate_per_s / f_rate) : 0;
  const double failure_recovery = (1 - timeout_share) * in.failure_recovery_seconds +
                                  timeout_share * in.timeout_recovery_seconds;
  double nested_f = 0, nested_s = 0;
  const double rec_f = recovery(failure_recovery, &nested_f);
  const double rec_s = recovery(in.spot_recovery_seconds, &nested_s);
  const double share_f = rollback_rate > 0 ? in.failure_rate_per_s / rollback_rate : 0;
  const double share_s = rollback_rate > 0 ? 1 - share_f : 0;
  const double spot_share_total = total_rate > 0 ? in.spot_rate_per_s / total_rate : 0;

  auto charge = [&](double events, double share_failure, double share_spot) {
    // events first interruptions, split into classes; each brings its recovery and nested interruptions.
    const double ev_f = events * share_failure, ev_s = events * share_spot;
    t.recovery += ev_f * rec_f + ev_s * rec_s;
    const double nested = ev_f * nested_f + ev_s * nested_s;
    t.interruptions += events + nested;
    t.failures += ev_f + nested * (1 - spot_share_total);
    t.preemptions += ev_s + nested * spot_share_total;
    t.reacquire_wait += (ev_s + nested * spot_share_total) * in.reacquire_seconds;
  };
  charge(rollbacks, share_f, share_s);
  // Spot preemptions with enough notice: a checkpoint is written on notice, no progress is lost.
  if (in.spot_saves_on_notice && in.spot_rate_per_s > 0) {
    const double running = t.work + t.checkpoint + t.rework;
    double events = in.spot_rate_per_s * running;
    // Writing on notice and recovering are themselves running time exposed to further notices.
    const double per_event = in.checkpoint_write_seconds;
    events /= std::max(1e-12, 1 - std::min(0.999999, in.spot_rate_per_s * per_event));
    t.checkpoint += events * per_event;
    charge(events, 0, 1);
  }
  // The classes' parts: rollbacks (and so rework) split by rate; recovery by rate x recovery length.
  if (infant_share > 0 || timeout_share > 0) {
    const double failure_rework = rollback_rate > 0 ? t.rework * f_rate / rollback_rate : 0;
    const double failure_recovery_time = rollbacks * share_f * rec_f;
    const double weight = failure_recovery > 0 ? 1 / failure_recovery : 0;
    t.infant_failures = t.failures * infant_share;
    t.timeouts = t.failures * timeout_share;
    t.infant_rework = failure_rework * infant_share;
    t.timeout_rework = failure_rework * timeout_share;
    t.infant_recovery = failure_recovery_time * infant_share * in.failure_recovery_seconds * weight;
    t.timeout_recovery = failure_recovery_time * timeout_share * in.timeout_recovery_seconds * weight;
  }

  if (t.rework + t.recovery + t.reacquire_wait > kNeverFinishesFactor * (t.work + t.checkpoint))
    t.never_finishes = true;
  return t;
}

double InfantFailures(double gpus, double fraction, double mean_hours, double burn_in_hours, double exposure_hours) {
  if (!(gpus > 0) || !(fraction > 0) || !(mean_hours > 0) || !(exposure_hours > 0)) return 0;
  return gpus * fraction * std::exp(-std::max(0.0, burn_in_hours) / mean_hours) * -std::expm1(-exposure_hours / mean_hours);
}

double ErlangB(double c, double a) {
  if (a <= 0) return c > 0 ? 0 : 1;
  double b = 1;  // B(0, a)
  const long n = static_cast<long>(std::floor(c));
  for (long k = 1; k <= n; ++k) b = a * b / (static_cast<double>(k) + a * b);
  return b;
}

double SpareFastFraction(double pool, double failures_per_hour, double repair_hours) {
  if (pool < 1) return 0;
  return 1 - ErlangB(pool, failures_per_hour * repair_hours);
}

}  // namespace gpucost
