// operations.cpp — bring-up, staging, restore tests, unusable checkpoints, the spare pool, allocation
// efficiency, support and the delay cost (see operations.h).
#include "job/operations.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "money/capacity.h"
#include "base/asserts.h"
#include "job/job.h"
#include "scenario/json_io.h"
#include "job/reliability.h"
#include "money/tco.h"

namespace gpucost {

void PlanOperations(const Scenario& s, Result* r, JobPlan* plan) {
  const OperationsInputs& o = s.ops;
  OpsPlan& p = plan->ops;
  p = OpsPlan{};
  const bool training = Kind(s) == WorkloadKind::kTraining;
  // Inputs the model cannot use here are reported (never silently dropped).
  const bool pipeline = o.cpu_cores_per_gpu > 0 || o.samples_per_core_second > 0 || o.small_file_latency_ms > 0 ||
                        o.tokens_per_sample > 0;
  if (!training && pipeline)
    r->warnings.Add("data_pipeline_unused", "msg.w_data_pipeline_unused");
  else if ((o.samples_per_core_second > 0 || o.small_file_latency_ms > 0) && o.cpu_cores_per_gpu <= 0)
    r->warnings.Add("data_cores_missing", "msg.w_data_cores_missing");
  else if (o.cpu_cores_per_gpu > 0 && o.tokens_per_sample <= 0 && s.workload.seq_len <= 0)
    r->warnings.Add("data_sample_size_missing", "msg.w_data_sample_size_missing");
  if (o.staging_dataset_gb > 0 && o.staging_gbps <= 0)
    r->warnings.Add("staging_rate_missing", "msg.w_staging_rate_missing");
  p.bring_up_s = o.bring_up_hours * 3600;
  p.staging_s = o.staging_gbps > 0 ? o.staging_dataset_gb / o.staging_gbps : 0;
  p.staging_billed = o.staging_billed;
  p.scratch_gb = o.staging_dataset_gb;
  p.scratch_usd_per_gb_month = o.scratch_usd_per_gb_month;
  TimelineInputs& in = plan->unit;
  if (in.checkpointing) {
    p.restore_test_every = static_cast<double>(o.restore_test_every);
    p.restore_test_s = o.restore_test_every > 0 ? o.restore_test_minutes * 60 : 0;
    p.bad_checkpoint_probability = EffectiveBadCheckpointProbability(s);
    p.bad_checkpoint_loss_s = std::min(in.interval_seconds, in.work_seconds) + in.checkpoint_block_seconds +
                              s.reliability.recovery_minutes * 60;
  }
  p.allocation_efficiency = o.allocation_efficiency > 0 ? o.allocation_efficiency : 1;
  p.support_usd_per_month = o.support_usd_per_month;

  // The spare pool: whole nodes when the spares fill them, else single GPUs.
  const double gpn = static_cast<double>(s.cluster.gpus_per_node);
  const double pool = plan->spares >= gpn ? std::floor(plan->spares / gpn) : plan->spares;
  const double repair_h = o.repair_hours > 0 ? o.repair_hours : s.pricing.owned.repair_hours_per_failure;
  const double failures_per_hour = in.failure_rate_per_s * 3600 * (training ? 1 : plan->units / plan->copies);
  p.fast_recovery_s = s.reliability.hot_spare_recovery_minutes * 60;
  p.slow_recovery_s = s.reliability.recovery_minutes * 60;
  p.spare_fast_fraction = plan->spares > 0 ? SpareFastFraction(pool, failures_per_hour, repair_h) : 0;
  in.failure_recovery_seconds = p.spare_fast_fraction * p.fast_recovery_s + (1 - p.spare_fast_fraction) * p.slow_recovery_s;
  r->spare_fast_fraction = plan->spares > 0 ? p.spare_fast_fraction : 1;
  if (o.spares_included) {  // the buffer is in the service's price: held, not billed
    plan->billed_gpus = std::max(0.0, plan->billed_gpus - plan->spares);
    plan->reacquire_held_gpus = std::max(0.0, plan->reacquire_held_gpus - plan->spares);
    plan->spares = 0;
    r->billed_gpus = static_cast<std::int64_t>(plan->billed_gpus);
  }

  bool guaranteed = false;
  const char* basis = "";
  p.wait_mean_s = CapacityWaitMeanHours(s, &guaranteed, &basis) * 3600;
  p.lead_s = CapacityLeadHours(s) * 3600;
  p.deadline_given = o.deadline_hours > 0;
  p.deadline_s = o.deadline_hours * 3600;
  p.value_usd_per_s = o.value_per_day_usd / 86400;
  r->schedule.wait_basis = basis;
  r->schedule.capacity_guaranteed = guaranteed;
}

void AddOperationsUsage(const JobPlan& job, const Timeline& t, JobBill* out, Usage* u) {
  const OpsPlan& p = job.ops;
  double* th = out->time_hours.part;
  double* g = u->gpu_hours.part;
  const bool coupled = job.units == 1;
  const double blocked_gpus = coupled ? job.billed_gpus : job.units * job.busy_gpus;  // held while a unit waits
  // Time (hours).
  th[kPartBringUp] = p.bring_up_s / 3600;
  th[kPartStaging] = p.staging_s / 3600;
  const double tests = p.restore_test_every > 0 ? std::floor(t.checkpoints / p.restore_test_every) : 0;
  th[kPartRestoreTest] = tests > 0 ? job.copies * tests * p.restore_test_s / 3600 : 0;  // never inf x 0
  th[kPartBadCheckpoint] = t.bad_checkpoints > 0 ? job.copies * t.bad_checkpoints * p.bad_checkpoint_loss_s / 3600 : 0;
  // GPU-hours, held in the same rental as the run: rounded with it and inside a commitment's held hours.
  g[kPartBringUp] = job.billed_gpus * th[kPartBringUp];
  g[kPartStaging] = p.staging_billed ? job.billed_gpus * th[kPartStaging] : 0;
  const double per_copy = coupled ? 1 : 1 / job.copies;  // tasks: each unit's own stretches
  g[kPartRestoreTest] = blocked_gpus * th[kPartRestoreTest] * per_copy;
  g[kPartBadCheckpoint] = blocked_gpus * th[kPartBadCheckpoint] * per_copy;
  const double held_h = th[kPartBringUp] + (p.staging_billed ? th[kPartStaging] : 0) + th[kPartRestoreTest] +
                        th[kPartBadCheckpoint];
  // Every billed GPU is held through these stretches: those a task's restore test or rollback does not block idle.
  const double ops_gpu_h = g[kPartBringUp] + g[kPartStaging] + g[kPartRestoreTest] + g[kPartBadCheckpoint];
  g[kPartIdleGpus] += std::max(0.0, u->billed_gpus * held_h - ops_gpu_h);
  u->wall_s += held_h * 3600;
  u->held_hours += held_h;
  u->held_above_hours += held_h;
  // Allocated GPUs idle between jobs (a shared cluster), charged to the job: GPU time of the same GPUs outside the
  // job's rental (not rounded), inside a commitment's term (the term after the job starts after it).
  const double idle_per_held = 1 / p.allocation_efficiency - 1;  // 0 for a dedicated cluster (never inf x 0)
  g[kPartAllocationIdle] = 0;
  if (idle_per_held > 0) {
    double held_gpu_h = 0;
    for (int q = 0; q < kPartCount; ++q)
      if (q != kPartAllocationIdle && q != kPartReacquireWait) held_gpu_h += g[q];
    g[kPartAllocationIdle] = held_gpu_h * idle_per_held;
  }
  if (u->billed_gpus > 0) {
    u->held_hours += g[kPartAllocationIdle] / u->billed_gpus;
    u->held_above_hours += g[kPartAllocationIdle] / u->billed_gpus;
  }
  GPUCOST_ASSERT(AmountOk(held_h) && AmountOk(g[kPartAllocationIdle]),
                 "operations add non-negative held time");
}

void AddOperationsServices(const JobPlan& job, JobBill* out) {
  const OpsPlan& p = job.ops;
  const double months = out->hours / kHoursPerMonth;
  if (p.scratch_gb > 0 && p.scratch_usd_per_gb_month > 0)
    AddService(job.terms, kPartStorage, p.scratch_gb * p.scratch_usd_per_gb_month * months, out);
  if (p.support_usd_per_month > 0) AddService(job.terms, kPartSupport, p.support_usd_per_month * months, out);
}

void AddDelay(const JobPlan& job, double start_wait_h, JobBill* out) {
  const OpsPlan& p = job.ops;
  if (p.value_usd_per_s <= 0) return;
  const double finish_s = start_wait_h * 3600 + out->hours * 3600;
  const double delay = std::max(0.0, finish_s - p.deadline_s);
  out->cost_usd.part[kPartDelay] = delay * p.value_usd_per_s;
  out->usd = out->cost_usd.Total();
}

void ApplyOutlook(const JobPlan& job, const Timeline& t, double normal_run_hours, Result* r) {
  const OpsPlan& p = job.ops;
  const char* basis = r->schedule.wait_basis;
  const bool guaranteed = r->schedule.capacity_guaranteed;
  const double deadline_h = p.deadline_given ? p.deadline_s / 3600 : normal_run_hours;
  r->schedule = ComputeOutlook(p.wait_mean_s / 3600, r->expected_hours, RunSdHours(job, t), p.deadline_given,
                               deadline_h, p.value_usd_per_s * 86400, p.lead_s / 3600);
  r->schedule.wait_basis = basis;
  r->schedule.capacity_guaranteed = guaranteed;
  r->cost_usd.part[kPartDelay] = r->schedule.delay_usd;
  r->expected_usd = r->cost_usd.Total();
  // The normal run (nothing fails) waits and meets the same deadline: the delay of its own lateness is its cost too,
  // so "failures add" holds only the delay failures cause (fresh2 A13: the whole delay was put on failures while the
  // failure-free run also missed the deadline).
  const double calm_delay_h = ExpectedHoursPast(deadline_h, p.wait_mean_s / 3600, normal_run_hours + p.lead_s / 3600, 0);
  r->normal_run_delay_usd = p.value_usd_per_s * 3600 * calm_delay_h;
  r->normal_run_usd += r->normal_run_delay_usd;
  GPUCOST_ASSERT(!std::isfinite(r->expected_usd) || r->normal_run_delay_usd <= r->schedule.delay_usd * (1 + 1e-9) + 1e-6 * (1 + r->expected_usd),
                 "the failure-free run is never later than the expected one");
}

double EffectiveBadCheckpointProbability(const Scenario& s) {
  const OperationsInputs& o = s.ops;
  if (!s.reliability.checkpointing || Kind(s) == WorkloadKind::kInference) return 0;
  const double tested = o.restore_test_every > 0 ? 1 / static_cast<double>(o.restore_test_every) : 0;
  return o.bad_checkpoint_probability * (1 - tested);
}

double BadCheckpointRunMean(double p) {
  if (p <= 0) return 0;
  if (p >= 1) return std::numeric_limits<double>::infinity();
  return p / (1 - p);
}

double RunSdHours(const JobPlan& job, const Timeline& t) {
  // Compound Poisson: Var = sum over interruptions of E[X^2], X = lost progress U (uniform over a segment) +
  // recovery R (+ reacquisition wait W, exponential, for spot) + an unusable checkpoint's loss L (Bernoulli p).
  const TimelineInputs& in = job.unit;
  const double seg = std::min(in.interval_seconds > 0 ? in.interval_seconds : in.work_seconds, in.work_seconds) +
                     in.checkpoint_block_seconds;
  const bool spot_rolls_back = !in.spot_saves_on_notice;
  auto second_moment = [&](double recovery, double wait, bool rolls_back) {
    const double u1 = rolls_back ? seg / 2 : 0, u2 = rolls_back ? seg * seg / 3 : 0;
    const double r = recovery, w1 = wait, w2 = 2 * wait * wait;
    const double pl = rolls_back ? job.ops.bad_checkpoint_probability : 0, l = job.ops.bad_checkpoint_loss_s;
    // E[(U + R + W + B)^2] with independent parts, B = N L, N the run of unusable checkpoints (geometric:
    // E[N] = p / (1 - p), E[N^2] = p (1 + p) / (1 - p)^2).
    const double n1 = pl < 1 ? pl / (1 - pl) : 0, n2 = pl < 1 ? pl * (1 + pl) / ((1 - pl) * (1 - pl)) : 0;
    const double b1 = n1 * l, b2 = n2 * l * l;
    return u2 + r * r + w2 + b2 + 2 * (u1 * r + u1 * w1 + u1 * b1 + r * w1 + r * b1 + w1 * b1);
  };
  const double var = t.failures * second_moment(in.failure_recovery_seconds, 0, true) +
                     t.preemptions * second_moment(in.spot_recovery_seconds, in.reacquire_seconds, spot_rolls_back);
  // Independent tasks: copies units one after another per slot.
  return std::sqrt(std::max(0.0, var) * job.copies) / 3600;
}

}  // namespace gpucost
