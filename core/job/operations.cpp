// operations.cpp — bring-up, staging, restore tests, unusable checkpoints, the spare pool, allocation
// efficiency, support and the delay cost (see operations.h).
#include "job/operations.h"

#include <algorithm>
#include <cmath>

#include "money/capacity.h"
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
  p.scratch_usd_per_gb_month = o.scratch_usd_per_gb_month / plan->terms.tax_divisor;
  TimelineInputs& in = plan->unit;
  if (in.checkpointing) {
    p.restore_test_every = static_cast<double>(o.restore_test_every);
    p.restore_test_s = o.restore_test_every > 0 ? o.restore_test_minutes * 60 : 0;
    const double tested = o.restore_test_every > 0 ? 1 / static_cast<double>(o.restore_test_every) : 0;
    p.bad_checkpoint_probability = o.bad_checkpoint_probability * (1 - tested);
    p.bad_checkpoint_loss_s = std::min(in.interval_seconds, in.work_seconds) + in.checkpoint_block_seconds +
                              s.reliability.recovery_minutes * 60;
  }
  p.allocation_efficiency = o.allocation_efficiency > 0 ? o.allocation_efficiency : 1;
  p.support_usd_per_hour = o.support_usd_per_month / kHoursPerMonth / plan->terms.tax_divisor;

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
  p.deadline_given = o.deadline_hours > 0;
  p.deadline_s = o.deadline_hours * 3600;
  p.value_usd_per_s = o.value_per_day_usd / 86400;
  r->schedule.wait_basis = basis;
  r->schedule.capacity_guaranteed = guaranteed;
}

void BillOperations(const JobPlan& job, const Timeline& t, JobBill* out) {
  const OpsPlan& p = job.ops;
  double* th = out->time_hours.part;
  double* g = out->gpu_hours.part;
  double* m = out->cost_usd.part;
  const bool coupled = job.units == 1;
  const double blocked_gpus = coupled ? job.billed_gpus : job.units * job.busy_gpus;  // held while a unit waits
  // Time (hours).
  th[kPartBringUp] = p.bring_up_s / 3600;
  th[kPartStaging] = p.staging_s / 3600;
  const double tests = p.restore_test_every > 0 ? std::floor(t.checkpoints / p.restore_test_every) : 0;
  th[kPartRestoreTest] = job.copies * tests * p.restore_test_s / 3600;
  th[kPartBadCheckpoint] = job.copies * t.bad_checkpoints * p.bad_checkpoint_loss_s / 3600;
  double extra_hours = 0;
  for (int q : {kPartBringUp, kPartStaging, kPartRestoreTest, kPartBadCheckpoint}) extra_hours += th[q];
  // GPU-hours.
  g[kPartBringUp] = job.billed_gpus * th[kPartBringUp];
  g[kPartStaging] = p.staging_billed ? job.billed_gpus * th[kPartStaging] : 0;
  const double per_copy = coupled ? 1 : 1 / job.copies;  // tasks: each unit's own stretches
  g[kPartRestoreTest] = blocked_gpus * th[kPartRestoreTest] * per_copy;
  g[kPartBadCheckpoint] = blocked_gpus * th[kPartBadCheckpoint] * per_copy;
  double billed_gpu_hours = 0;
  for (int q = 0; q < kPartCount; ++q)
    if (q != kPartAllocationIdle) billed_gpu_hours += g[q];
  g[kPartAllocationIdle] = billed_gpu_hours * (1 / p.allocation_efficiency - 1);
  // Money (pre-tax) at the billing engine's price (billing.h), then its tax on the same terms (owned hardware: on
  // what it buys; a recoverable VAT is shown, not paid).
  const BillingTerms& terms = job.terms;
  double added = 0;
  for (int q : {kPartBringUp, kPartStaging, kPartRestoreTest, kPartBadCheckpoint, kPartAllocationIdle}) {
    m[q] = g[q] * terms.price_pretax;
    added += m[q] * terms.taxable_fraction;
  }
  const double hours = out->time_hours.Total();
  const double storage_more = job.stored_gb * terms.usd_per_gb_month * extra_hours / kHoursPerMonth +
                              p.scratch_gb * p.scratch_usd_per_gb_month * hours / kHoursPerMonth;
  m[kPartStorage] += storage_more;
  m[kPartSupport] = p.support_usd_per_hour * hours;
  added += storage_more + m[kPartSupport];
  out->vat_usd += added * terms.tax_rate;
  if (!terms.vat_recoverable) m[kPartTax] += added * terms.tax_rate;
  out->hours = hours;
  out->billed_gpu_hours = out->gpu_hours.Total();
  out->usd = out->cost_usd.Total();
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
                               deadline_h, p.value_usd_per_s * 86400);
  r->schedule.wait_basis = basis;
  r->schedule.capacity_guaranteed = guaranteed;
  r->cost_usd.part[kPartDelay] = r->schedule.delay_usd;
  r->expected_usd = r->cost_usd.Total();
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
    // E[(U + R + W + B)^2] with independent parts, B = L w.p. pl.
    const double b1 = pl * l, b2 = pl * l * l;
    return u2 + r * r + w2 + b2 + 2 * (u1 * r + u1 * w1 + u1 * b1 + r * w1 + r * b1 + w1 * b1);
  };
  const double var = t.failures * second_moment(in.failure_recovery_seconds, 0, true) +
                     t.preemptions * second_moment(in.spot_recovery_seconds, in.reacquire_seconds, spot_rolls_back);
  // Independent tasks: copies units one after another per slot.
  return std::sqrt(std::max(0.0, var) * job.copies) / 3600;
}

}  // namespace gpucost
