// evaluate.cpp — the closed-form model of one job: work, data feed, checkpoints, interruptions, billing,
// storage, tax. See docs in reliability.h for the interruption model.
#include "job/billing_notes.h"
#include "job/inference_blocking.h"
#include "job/evaluate.h"
#include "scenario/fields.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "hardware/catalog.h"
#include "base/asserts.h"
#include "training/finetune.h"
#include "training/fp8_gain.h"
#include "money/billing.h"
#include "base/i18n.h"
#include "job/inference_evaluate.h"
#include "serving/inference.h"
#include "serving/inference_model.h"
#include "job/job.h"
#include "job/operations.h"
#include "training/datapipe.h"
#include "money/offers.h"
#include "job/parallelism.h"
#include "money/pricing_model.h"
#include "job/reliability.h"
#include "training/steptime.h"
#include "money/tco.h"
#include "money/pricing_model.h"
#include "hardware/partition.h"
#include "job/program.h"

namespace gpucost {

// Default MFU when neither given nor predictable: Llama 3 405B's 38-43% BF16 MFU (Dubey et al. 2024, Table 4).
constexpr double kDefaultMfu = 0.40;
// Best published large-scale dense-transformer MFU: 56.3% (Korthikanti et al. 2022, 1T on A100, Table 5).
constexpr double kMfuCeiling = 0.60;

namespace {

const char* const kPartNames[kPartCount] = {
    "compute", "data_stall", "checkpoint", "rework", "recovery", "reacquire_wait", "downtime", "idle_gpus",
    "hot_spares", "billing_rounding", "storage", "egress", "fees", "unused_commitment", "tax",
    "prefill_gpus", "decode_gpus", "idle_capacity", "kv_transfer", "spot_rework", "spot_spare_capacity", "bring_up",
    "restore_test", "bad_checkpoint", "staging", "allocation_idle", "support", "delay", "router", "cold_start",
    "interference", "stragglers", "infant_failures", "collective_timeouts", "stopped", "experiments", "abandoned_runs",
    "evaluation"};
double CeilDiv(double a, double b) { return std::ceil(a / b - 1e-12); }

// Step time from the model shape and layout (steptime.h). Without cluster.mfu, the MFU is predicted: from
// parallel.single_node_mfu x the scaling efficiency when given, else from the step-time model.
void PredictStep(const Scenario& s, const EffectiveHardware& hw, Result* r) {
  if (!CanPredictStep(s)) return;
  const ModelShape shape = ShapeFromScenario(s);
  const Layout layout = LayoutFromScenario(s);
  const StepHardware step_hw = StepHardwareFor(s, hw);
  if (layout.gpus() != s.cluster.gpus) {
    r->warnings.Add("layout_gpu_count", "msg.w_layout_gpu_count", {std::to_string(layout.gpus()), std::to_string(s.cluster.gpus)});
    return;
  }
  double scaling_efficiency = 0;
  r->step = EstimateStepTimeAndScaling(shape, layout, step_hw, &scaling_efficiency);  // the stage's times once
  if (!r->step.ok()) {
    r->warnings.Add("layout_invalid", "msg.w_layout_invalid", {MessageParam::Key(LayoutErrorKey(r->step.error))});
    return;
  }
  r->scaling_efficiency = scaling_efficiency;
  if (s.cluster.mfu > 0) return;
  r->mfu = s.parallel.single_node_mfu > 0 ? s.parallel.single_node_mfu * r->scaling_efficiency : r->step.mfu;
  r->mfu_source = MfuSource::kPredicted;
}

// FP8 without a model shape (issue 25): the default MFU is a BF16 figure; on the FP8 peak it would claim the
// whole 2x peak ratio. The step-time model's FP8 gain for this GPU on a reference shape instead (fp8_gain.h).
void DefaultFp8Mfu(const Scenario& s, const EffectiveHardware& hw, Result* r) {
  const double bf16_peak = DensePeakTflops(*hw.gpu, Precision::kBf16) * 1e12;
  const double gain = Fp8StepGain(s);
  if (!(gain > 0) || !(bf16_peak > 0) || s.cluster.peak_tflops > 0) return;
  r->mfu = kDefaultMfu * gain * bf16_peak / hw.peak_flops;
  r->fp8_gain = gain;
  r->warnings.Add("fp8_default_gain", "msg.w_fp8_default_gain",
                  {FormatParam("%.0f", r->mfu * 100), FormatParam("%.0f", kDefaultMfu * 100), hw.gpu->id,
                   FormatParam("%.2f", gain), FormatParam("%.1f", hw.peak_flops / bf16_peak)});
}

// Issue 50: what slows the unit's steps and what else interrupts it, each a part of its own.
//   interference  a shared GPU's neighbours slow a slice's steps (cluster.partition_interference)
//   stragglers    a synchronous step waits for its slowest node: a unit on n nodes runs slow with probability
//                 1 - (1 - f)^n, by the slowdown (reliability.slow_node_*)
//   early failures  the weak GPUs the burn-in (cluster.bring_up_hours) did not catch fail while the work runs
//                 (reliability.infant_*; their expected count spread over the unit's running time)
//   collective timeouts  per day of running, each waits the watchdog's timeout, then restarts from the checkpoint
// The GPUs that run the work, each for the copies' time one after another: the slots' GPUs (units / copies of
// them at once, busy_gpus each). Early failures come from these: a GPU left idle is not at load (money_laws found
// that counting the cluster's every GPU let more tasks spread the same failures thinner and cost less).
double RunningGpus(const JobPlan& job) { return job.units / job.copies * job.busy_gpus; }

[[gnu::noinline]] void SlowdownsAndFailureClasses(const Scenario& s, const Partition& part, double gpn, JobPlan* job) {
  const ReliabilityInputs& rel = s.reliability;
  TimelineInputs& in = job->unit;
  const double gpus_per_node = gpn * (part.on ? part.per_gpu : 1);  // slices of one node
  const double nodes = CeilDiv(job->busy_gpus, gpus_per_node);
  job->interference_s = part.on ? job->work_compute_s * (part.interference - 1) : 0;
  const double slow_chance = rel.slow_node_fraction > 0 ? -std::expm1(nodes * std::log1p(-rel.slow_node_fraction)) : 0;
  job->straggler_s = (job->work_compute_s + job->interference_s) * slow_chance * (rel.slow_node_slowdown - 1);
  in.work_seconds += job->interference_s + job->straggler_s;
  if (rel.infant_failure_fraction > 0 && in.work_seconds > 0) {
    // The cluster's weak GPUs fail within its exposure (waves of tasks one after another), spread over its units.
    const double exposure_h = job->copies * in.work_seconds / 3600;
    const double failures = InfantFailures(RunningGpus(*job), rel.infant_failure_fraction,
                                           rel.infant_mean_hours, s.ops.bring_up_hours, exposure_h);
    in.infant_rate_per_s = failures / (job->units * in.work_seconds);
    in.failure_rate_per_s += in.infant_rate_per_s;
  }
  if (rel.collective_timeouts_per_day > 0) {
    in.timeout_rate_per_s = rel.collective_timeouts_per_day / 86400;
    in.failure_rate_per_s += in.timeout_rate_per_s;
    in.timeout_recovery_seconds = (rel.collective_timeout_minutes + rel.recovery_minutes) * 60;
  }
}

// The early failures spread over the unit's expected exposure (its running, rework and recoveries: weak GPUs fail
// while powered, and the count the burn-in left cannot be exceeded). The rate r solves
//   r x units x E(r) = InfantFailures(copies x E(r))
// with E(r) the unit's expected billed time at that rate: the left side grows with r from 0 without bound, the right
// is at most the weak GPUs left (F_max), so the root lies in [0, F_max / (units x work)]; regula falsi on that
// bracket (a fixed-point step alone undershoots: the exposure at the first guess is too long).
[[gnu::noinline]] void SpreadInfantFailures(const Scenario& s, JobPlan* job) {
  TimelineInputs& in = job->unit;
  if (!(in.infant_rate_per_s > 0) || !(in.work_seconds > 0)) return;
  const ReliabilityInputs& rel = s.reliability;
  const double gpus = RunningGpus(*job);
  const auto met = [&](double exposure_s) {
    return InfantFailures(gpus, rel.infant_failure_fraction, rel.infant_mean_hours, s.ops.bring_up_hours,
                          job->copies * exposure_s / 3600);
  };
  const double others = in.failure_rate_per_s - in.infant_rate_per_s;
  const auto excess = [&](double rate, double* exposure_s) {  // r x units x E(r) - F(E(r)), increasing in r
    TimelineInputs at = in;
    at.infant_rate_per_s = rate;
    at.failure_rate_per_s = others + rate;
    *exposure_s = ExpectedTimeline(at).billed();
    return rate * job->units * *exposure_s - met(*exposure_s);
  };
  const double f_max = InfantFailures(gpus, rel.infant_failure_fraction, rel.infant_mean_hours, s.ops.bring_up_hours, 1e300);
  // The bracket's top: the rate that meets the failures of the exposure without them, F(E0) / (units x E0). The
  // root is below it, because E(r) >= E0 and F(E) / E falls as E grows (F is concave through 0), so there the
  // left side is already the larger. (The rate that meets all F_max within the work alone bounds it too, but can
  // lie thousands of times above the root, where the timeline's exposure is astronomically long and regula falsi
  // crawled: 100 steps ended near 0, and more weak GPUs priced fewer early failures; found by money_laws.)
  double lo = 0, exposure_s = 0;
  double g_lo = excess(lo, &exposure_s);
  const double e0 = exposure_s;
  double hi = std::min(f_max / (job->units * in.work_seconds), e0 > 0 ? met(e0) / (job->units * e0) : 0);
  if (!(hi > 0) || !std::isfinite(hi)) return;
  // Regula falsi with the Illinois step (a few evaluations of the timeline where bisection takes 40); a rate
  // whose timeline never finishes counts as too high.
  double g_hi = excess(hi, &exposure_s);
  if (!std::isfinite(g_hi)) g_hi = 1;
  double rate = hi;
  int side = 0;
  for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; ++i) {
    rate = g_hi - g_lo > 0 ? (lo * g_hi - hi * g_lo) / (g_hi - g_lo) : 0.5 * (lo + hi);
    if (!(rate > lo && rate < hi)) rate = 0.5 * (lo + hi);
    double g = excess(rate, &exposure_s);
    if (!std::isfinite(exposure_s) || !std::isfinite(g)) g = 1;
    if (g == 0) break;
    if (g > 0) {
      hi = rate, g_hi = g;
      if (side == 1) g_lo *= 0.5;
      side = 1;
    } else {
      lo = rate, g_lo = g;
      if (side == -1) g_hi *= 0.5;
      side = -1;
    }
    if (std::abs(g) <= 1e-12 * f_max) break;
  }
  in.failure_rate_per_s = others + rate;
  in.infant_rate_per_s = rate;
  job->rollback_rate_per_s = in.failure_rate_per_s + (in.spot_saves_on_notice ? 0 : in.spot_rate_per_s);
}

// reliability.checkpointing = false (issue 18): no checkpoint is written, so the whole work is one segment that
// every interruption restarts from the beginning, and no preemption notice can save progress. Daly's optimum
// stays in the result as advice.
void NoCheckpoints(JobPlan* job, Result* r) {
  TimelineInputs& in = job->unit;
  in.checkpointing = false;
  in.interval_seconds = in.work_seconds;
  in.checkpoint_block_seconds = in.checkpoint_write_seconds = 0;
  in.checkpoint_async = in.spot_saves_on_notice = false;
  job->rollback_rate_per_s = in.failure_rate_per_s + in.spot_rate_per_s;
  r->checkpoint_interval_minutes = in.work_seconds / 60;
  r->checkpoint_write_minutes = 0;
  r->checkpoint_gb = 0;  // nothing stored
}

}  // namespace

const char* PartName(int part) { return part >= 0 && part < kPartCount ? kPartNames[part] : ""; }
const char* PartLabel(int part) {  // assets/i18n: "part.<name>" in the current language
  return part >= 0 && part < kPartCount ? Tr((std::string("part.") + kPartNames[part]).c_str()) : "";
}
const char* MfuSourceName(MfuSource s) {
  switch (s) {
    case MfuSource::kGiven: return "given";
    case MfuSource::kPredicted: return "predicted";
    case MfuSource::kDefault: return "default";
    case MfuSource::kMeasured: return "measured";
  }
  return "";
}

namespace {

// The work of a training job: FLOPs and tokens, the compute time at the MFU, the data feed's stall, and the
// rates at which its GPUs fail and its nodes are preempted.
void PlanTrainingWork(const Scenario& s, const EffectiveHardware& hw, JobPlan& job, Result* r) {
  const WorkloadInputs& w = s.workload;
  const ClusterInputs& c = s.cluster;
  const double gpn = static_cast<double>(c.gpus_per_node);
  const double mtbf_s = s.reliability.gpu_mtbf_hours * 3600;
  const double spot_per_node_s = Model(s) == PricingModel::kSpot ? s.pricing.spot.preemptions_per_node_day / 86400 : 0;
  TimelineInputs& in = job.unit;
  const double attention = (w.layers > 0 && w.hidden > 0 && w.seq_len > 0)
                               ? 12.0 * static_cast<double>(w.layers) * static_cast<double>(w.hidden) *
                                     static_cast<double>(w.seq_len)
                               : 0;
  r->flops_include_attention = w.flops <= 0 && attention > 0;
  r->flops_per_token = WeightFlopsPerToken(s) + (r->flops_include_attention ? attention : 0);  // finetune.h
  r->batch_size_token_factor = BatchSizeTokenFactor(s);  // McCandlish et al. 2018; 1 when off
  // Issue 50: a target loss sets the tokens through the scaling-law fit (loss_fit.h).
  if (s.program.target_loss > 0) r->loss_target = LossTargetOf(s);
  const double tokens = r->loss_target.present ? r->loss_target.tokens : w.tokens;
  r->flops = (w.flops > 0 ? w.flops : r->flops_per_token * tokens) * r->batch_size_token_factor;
  r->tokens = tokens * r->batch_size_token_factor;
  const double compute_s = r->flops / (static_cast<double>(c.gpus) * hw.peak_flops * r->mfu);
  // Data feed: storage bandwidth, preprocessing cores and small-file latency (datapipe.h).
  const double required = r->tokens * w.input_bytes_per_token / compute_s;  // bytes/s
  r->data_required_gbps = required / 1e9;
  r->data_feed = ComputeDataFeed(s, r->tokens, compute_s);
  const double stall_s = r->data_feed.stall_seconds;
  r->data_stall_fraction = stall_s / (compute_s + stall_s);
  job.work_compute_s = compute_s;
  in.work_seconds = compute_s + stall_s;
  in.failure_rate_per_s = mtbf_s > 0 ? static_cast<double>(c.gpus) / mtbf_s : 0;
  // Only nodes doing the work interrupt the job; a preempted hot-spare node does not.
  in.spot_rate_per_s = spot_per_node_s * CeilDiv(static_cast<double>(c.gpus), gpn);
  job.busy_gpus = static_cast<double>(c.gpus);
  // A preemption takes one node; its rental restarts while the surviving nodes stay rented (billed, idle)
  // until capacity for the lost node is back.
  job.session_gpus = std::min(job.billed_gpus, gpn);
  job.reacquire_held_gpus = job.billed_gpus - job.session_gpus;
  r->ideal_hours = compute_s / 3600;
  r->ideal_gpu_hours = r->ideal_hours * static_cast<double>(c.gpus);
}

// The work of independent tasks: copies of the slots the cluster holds, each task's GPUs failing and preempted
// alone. Concurrent tasks share the checkpoint write bandwidth (*write_s, unless the write time was given);
// returns how many hold checkpoints in storage at once.
double PlanTaskWork(const Scenario& s, JobPlan& job, double* write_s, Result* r) {
  const WorkloadInputs& w = s.workload;
  const ClusterInputs& c = s.cluster;
  const ReliabilityInputs& rel = s.reliability;
  const PricingInputs& pr = s.pricing;
  const double gpn = static_cast<double>(c.gpus_per_node);
  const double mtbf_s = s.reliability.gpu_mtbf_hours * 3600;
  const double spot_per_node_s = Model(s) == PricingModel::kSpot ? s.pricing.spot.preemptions_per_node_day / 86400 : 0;
  TimelineInputs& in = job.unit;
  const double gpt = static_cast<double>(w.gpus_per_task);
  const double slots = std::floor(static_cast<double>(c.gpus) / gpt);
  const double tasks = static_cast<double>(w.tasks);
  job.units = tasks;
  job.copies = CeilDiv(tasks, slots);
  job.busy_gpus = gpt;
  job.work_compute_s = w.task_gpu_hours * 3600 / gpt;
  // Issue 50: a task's GPU-hours are whole GPUs'; on a slice it runs at the slice's share of the compute.
  if (r->partition.on) job.work_compute_s /= r->partition.compute_fraction;
  in.work_seconds = job.work_compute_s;
  *write_s *= slots;  // concurrent tasks share the write bandwidth (unless the write time was given)
  if (rel.checkpoint_write_minutes > 0) *write_s = rel.checkpoint_write_minutes * 60;
  in.failure_rate_per_s = mtbf_s > 0 ? gpt / mtbf_s : 0;
  in.spot_rate_per_s = spot_per_node_s * CeilDiv(gpt, gpn);
  job.session_gpus = pr.whole_nodes ? CeilDiv(gpt, gpn) * gpn : gpt;  // GPUs whose rental restarts
  // Tasks sharing a node are preempted together: one rental session ends per node, not per task.
  job.units_per_session = pr.whole_nodes && gpt < gpn ? std::floor(gpn / gpt) : 1;
  r->ideal_hours = job.copies * job.work_compute_s / 3600;
  r->ideal_gpu_hours = tasks * w.task_gpu_hours;
  r->tokens = 0;  // workload.tokens counts training tokens; no cost per token for independent tasks
  return std::min(slots, tasks);
}

// The checkpoint interval: given, or Daly's optimum for the rollback rate (failures, and preemptions not saved
// on their notice), never longer than the work.
void PlanCheckpointInterval(const Scenario& s, JobPlan& job, double write_s, Result* r) {
  const ReliabilityInputs& rel = s.reliability;
  const bool training = Kind(s) == WorkloadKind::kTraining;
  TimelineInputs& in = job.unit;
  job.rollback_rate_per_s = in.failure_rate_per_s + (in.spot_saves_on_notice ? 0 : in.spot_rate_per_s);
  double optimum_s = in.work_seconds;  // no rollbacks: checkpoint only at the end
  if (job.rollback_rate_per_s > 0) {
    const double mtbf = 1 / job.rollback_rate_per_s;
    const double delta = std::max(in.checkpoint_block_seconds, 1e-9);
    optimum_s = DalyInterval(delta, mtbf);
    if (rel.checkpoint_async) optimum_s = std::max(optimum_s, write_s);
    r->young_checkpoint_interval_minutes = YoungInterval(delta, mtbf) / 60;
  }
  if (in.failure_rate_per_s > 0 && training) r->cluster_mtbf_hours = 1 / in.failure_rate_per_s / 3600;
  optimum_s = std::min(optimum_s, in.work_seconds);
  if (r->young_checkpoint_interval_minutes == 0) r->young_checkpoint_interval_minutes = optimum_s / 60;
  in.interval_seconds = rel.checkpoint_interval_minutes > 0 ? rel.checkpoint_interval_minutes * 60 : optimum_s;
  job.optimum_interval_s = optimum_s;
  r->optimal_checkpoint_interval_minutes = optimum_s / 60;
  r->checkpoint_interval_minutes = in.interval_seconds / 60;
  job.downtime_s = rel.downtime_hours * 3600;
  if (!rel.checkpointing) NoCheckpoints(&job, r);
}

}  // namespace

bool PlanJob(const Scenario& s, JobPlan* plan, Result* r) {
  EffectiveHardware hw;
  if (!ResolveHardware(s, &hw) || hw.peak_flops <= 0) return false;
  const ClusterInputs& c = s.cluster;
  const ReliabilityInputs& rel = s.reliability;
  const PricingInputs& pr = s.pricing;
  const bool training = Kind(s) == WorkloadKind::kTraining;
  const bool spot = Model(s) == PricingModel::kSpot;
  const double gpn = static_cast<double>(c.gpus_per_node);
  JobPlan& job = *plan;
  job = JobPlan{};

  // --- GPUs billed (issue 50: slices of a GPU are rented one by one, not as whole nodes) ---
  if (s.partition.profile[0]) r->partition = PartitionOf(s, *hw.gpu);  // (guarded: the page's first frame)
  job.spares = static_cast<double>(rel.hot_spares);
  const double held = static_cast<double>(c.gpus) + job.spares;
  r->billed_gpus = static_cast<std::int64_t>(pr.whole_nodes && !r->partition.on ? CeilDiv(held, gpn) * gpn : held);
  job.billed_gpus = static_cast<double>(r->billed_gpus);

  // --- MFU and peak ---
  r->peak_tflops_per_gpu = hw.peak_flops / 1e12;
  r->mfu = c.mfu > 0 ? c.mfu : kDefaultMfu;
  r->mfu_source = c.mfu > 0 ? MfuSource::kGiven : MfuSource::kDefault;
  PredictStep(s, hw, r);
  ApplyMeasuredScaling(s, hw.peak_flops, r);  // scaling.points: fitted throughput at cluster.gpus -> MFU
  EvaluateMemory(s, hw.hbm_bytes, r);         // memory per GPU; warns (with the smallest fit) when too big
  if (training && GetPrecision(s) == Precision::kFp8 && r->mfu_source == MfuSource::kDefault) DefaultFp8Mfu(s, hw, r);
  // A named model with the batch on auto: the step-time model could predict the MFU (and its held-out band) but for
  // the global batch; said, not assumed (2026-12-07: Llama 3.1 70B read "40.0% MFU (default)" without a word why).
  if (training && r->mfu_source == MfuSource::kDefault && HasModelShape(s) && s.parallel.global_batch <= 0)
    r->warnings.Add("mfu_default_batch_auto", "msg.w_mfu_default_batch_auto", {FormatParam("%.1f", r->mfu * 100)});
  r->achieved_tflops_per_gpu = r->peak_tflops_per_gpu * r->mfu;

  // --- Checkpoint size and write time ---
  r->checkpoint_gb = rel.checkpoint_gb > 0 ? rel.checkpoint_gb : CheckpointParams(s) * rel.checkpoint_bytes_per_param / 1e9;
  const double write_bytes_per_s = s.storage.checkpoint_write_gbps * 1e9;
  double write_s = rel.checkpoint_write_minutes > 0 ? rel.checkpoint_write_minutes * 60 : r->checkpoint_gb * 1e9 / write_bytes_per_s;

  // --- Work and interruption rates ---
  TimelineInputs& in = job.unit;
  double concurrent_units = 1;  // units holding checkpoints in storage at the same time
  if (training)
    PlanTrainingWork(s, hw, job, r);
  else
    concurrent_units = PlanTaskWork(s, job, &write_s, r);
  if (r->partition.on || rel.slow_node_fraction > 0 || rel.infant_failure_fraction > 0 || rel.collective_timeouts_per_day > 0)
    SlowdownsAndFailureClasses(s, r->partition, gpn, &job);  // issue 50: interference, stragglers, early failures, timeouts
  in.checkpoint_write_seconds = write_s;
  in.checkpoint_async = rel.checkpoint_async;
  in.checkpoint_block_seconds = rel.checkpoint_async ? write_s * rel.async_stall_fraction : write_s;
  in.spot_saves_on_notice = spot && pr.spot.notice_seconds >= write_s;
  in.failure_recovery_seconds = (job.spares > 0 ? rel.hot_spare_recovery_minutes : rel.recovery_minutes) * 60;
  in.spot_recovery_seconds = rel.recovery_minutes * 60;
  in.reacquire_seconds = pr.spot.reacquire_minutes * 60;
  if (training && job.spares >= gpn) {
    // A whole spare node takes over a preempted node at once; its replacement is found in the background.
    in.spot_recovery_seconds = rel.hot_spare_recovery_minutes * 60;
    in.reacquire_seconds = 0;
  }
  r->checkpoint_write_minutes = write_s / 60;

  PlanCheckpointInterval(s, job, write_s, r);

  // --- Price per GPU-hour, billing rules, storage, egress, fees, tax: the one billing engine (billing.h) ---
  BillingNotes notes;
  PlanBilling(s, job.billed_gpus, c.gpu, &job.terms, &notes, &r->warnings);
  ApplyBillingNotes(notes, r);
  job.stored_gb = s.storage.dataset_gb +
                  concurrent_units * static_cast<double>(s.storage.checkpoints_retained) * r->checkpoint_gb;
  PlanOperations(s, r, &job);  // issue 29 (operations.h)
  if (job.unit.infant_rate_per_s > 0) SpreadInfantFailures(s, &job);  // issue 50: over the run's expected exposure, not its work alone
  if (training && job.unit.failure_rate_per_s > 0) r->cluster_mtbf_hours = 1 / job.unit.failure_rate_per_s / 3600;
  return true;
}

void BillJob(const JobPlan& job, const Timeline& t, double preemptions, JobBill* out, double exact_rounding_gpu_s) {
  *out = JobBill{};
  const double slowed_s = job.interference_s + job.straggler_s;  // issue 50
  const double stall_s = std::max(0.0, job.unit.work_seconds - job.work_compute_s - slowed_s);
  // Issue 50: of the rollbacks' rework and recovery, the early failures' and the collective timeouts'.
  const double class_rework = t.infant_rework + t.timeout_rework, class_recovery = t.infant_recovery + t.timeout_recovery;
  const double rework_s = std::max(0.0, t.rework - class_rework), recovery_s = std::max(0.0, t.recovery - class_recovery);
  double* th = out->time_hours.part;
  th[kPartCompute] = job.copies * job.work_compute_s / 3600;
  th[kPartDataStall] = job.copies * stall_s / 3600;
  th[kPartInterference] = job.copies * job.interference_s / 3600;
  th[kPartStragglers] = job.copies * job.straggler_s / 3600;
  th[kPartCheckpoint] = job.copies * t.checkpoint / 3600;
  th[kPartRework] = job.copies * rework_s / 3600;
  th[kPartRecovery] = job.copies * recovery_s / 3600;
  th[kPartInfantFailures] = job.copies * (t.infant_rework + t.infant_recovery) / 3600;
  th[kPartCollectiveTimeouts] = job.copies * (t.timeout_rework + t.timeout_recovery) / 3600;
  th[kPartReacquireWait] = job.copies * t.reacquire_wait / 3600;
  th[kPartDowntime] = job.downtime_s / 3600;
  out->hours = out->time_hours.Total();

  // GPU-hours held, as parts; the billing engine adds rounding, the commitment, storage, egress, fees, tax.
  Usage u;
  double* g = u.gpu_hours.part;
  const double busy = job.units * job.busy_gpus / 3600;  // GPU-hours per second of unit timeline
  g[kPartCompute] = busy * job.work_compute_s;
  g[kPartDataStall] = busy * stall_s;
  g[kPartInterference] = busy * job.interference_s;
  g[kPartStragglers] = busy * job.straggler_s;
  g[kPartCheckpoint] = busy * t.checkpoint;
  g[kPartRework] = busy * rework_s;
  g[kPartRecovery] = busy * recovery_s;
  g[kPartInfantFailures] = busy * (t.infant_rework + t.infant_recovery);
  g[kPartCollectiveTimeouts] = busy * (t.timeout_rework + t.timeout_recovery);
  const double billed_wall_s = job.copies * t.billed();
  g[kPartHotSpares] = job.spares * billed_wall_s / 3600;
  g[kPartIdleGpus] = std::max(0.0, (job.billed_gpus - job.spares) * billed_wall_s / 3600 - busy * t.billed());
  g[kPartIdleGpus] += job.reacquire_held_gpus * job.copies * t.reacquire_wait / 3600;  // survivors wait, billed
  g[kPartDowntime] = job.billed_gpus * job.downtime_s / 3600;
  u.billed_gpus = job.billed_gpus;
  u.wall_s = billed_wall_s + job.downtime_s;
  u.cut_sessions = preemptions;  // each spot preemption ends one rental session
  u.session_gpus = job.session_gpus;
  u.exact_rounding_gpu_s = exact_rounding_gpu_s;
  u.held_hours = u.held_above_hours = out->hours - th[kPartReacquireWait];
  // Issue 45: bring-up, staging, restore tests, unusable checkpoints and allocation idle are GPU time of the same
  // pool, priced by the engine with the run (one rounding, one commitment term, one tax; operations.h).
  AddOperationsUsage(job, t, out, &u);
  out->hours = out->time_hours.Total();
  BillGpuTime(job.terms, u, out);
  // Every GPU-hour billed once: without a cut session, the held parts (all but allocation idle) are the billed GPUs
  // held for the rental's wall time, rounded up to the increment and the minimum once.
  if (AssertsOn() && preemptions <= 0 && exact_rounding_gpu_s < 0 && std::isfinite(u.wall_s)) {
    const double inc = job.terms.billing_increment_s;
    const double billed_s = job.terms.bill_rounding && job.billed_gpus > 0
                                ? std::max(std::ceil(u.wall_s / inc - 1e-9) * inc, job.terms.minimum_billed_s)
                                : u.wall_s;
    const double rounded_gpus = std::max(0.0, job.billed_gpus - job.terms.committed_gpus);  // a commitment does not round
    double held = 0;
    for (int q = 0; q < kPartCount; ++q)
      if (q != kPartAllocationIdle) held += out->gpu_hours.part[q];
    GPUCOST_ASSERT(ApproxEqual(held, (job.billed_gpus * u.wall_s + rounded_gpus * (billed_s - u.wall_s)) / 3600, 1e-7),
                   "each billed GPU-hour counted once: the billed GPUs x the wall time, rounded once (not a commitment)");
  }
  AddOperationsServices(job, out);  // scratch storage, the support plan
  FinishBill(job.terms, job.stored_gb, out->hours, out);
  if (!std::isfinite(out->hours) || !std::isfinite(out->usd)) return;  // overflowed: refused at the edge
  GPUCOST_ASSERT(ApproxEqual(out->hours, job.copies * t.billed() / 3600 + job.copies * t.reacquire_wait / 3600 + job.downtime_s / 3600 +
                                      out->time_hours.part[kPartBringUp] + out->time_hours.part[kPartStaging] +
                                      out->time_hours.part[kPartRestoreTest] + out->time_hours.part[kPartBadCheckpoint]),
                 "a job's hours are its timeline, its waits, its downtime and its operations, each once");
  GPUCOST_ASSERT(out->gpu_hours.part[kPartCompute] <= out->billed_gpu_hours * (1 + 1e-9) + 1e-9,
                 "the GPU-hours billed hold the compute");
  if (job.terms.stopped_hours > 0) BillStopped(job.terms, job.billed_gpus, out);  // issue 50: instances kept stopped (billing.h)
}

namespace {

// Fields set that this scenario does not read (fields.h), one warning per reason: the first three by path, then how
// many more (a warning holds 200 bytes). Out of line: the page's first frame sets none (nor loads this code).
[[gnu::noinline]] void WarnFieldsNotUsed(const Scenario& s, const std::vector<FieldNotUsed>& unused, Result* r) {
  const char* const kind_key = Kind(s) == WorkloadKind::kInference ? "msg.w_fields_not_used_serving" : "msg.w_fields_not_used_job";
  for (NotUsedWhy why : {NotUsedWhy::kKind, NotUsedWhy::kMfuGiven, NotUsedWhy::kNoShape, NotUsedWhy::kNoExperts, NotUsedWhy::kNotFp8}) {
    std::string list;
    std::size_t n = 0;
    for (const FieldNotUsed& u : unused) {
      if (u.why != why) continue;
      if (n < 3) list += (n ? ", " : "") + std::string(u.field->path);
      ++n;
    }
    if (n == 0) continue;
    if (n > 3) list += ", +" + std::to_string(n - 3);
    r->warnings.Add("fields_not_used", why == NotUsedWhy::kKind       ? kind_key
                                       : why == NotUsedWhy::kMfuGiven ? "msg.w_fields_not_used_mfu"
                                       : why == NotUsedWhy::kNoShape  ? "msg.w_fields_not_used_shape"
                                       : why == NotUsedWhy::kNoExperts ? "msg.w_fields_not_used_moe"
                                                                       : "msg.w_fields_not_used_fp8",
                    {list});
  }
}

void ReportFieldsNotUsed(const Scenario& s, Result* r) {
  // A service's model has routed experts when the serving model finds them (inference_model.h), not before.
  const bool experts = Kind(s) != WorkloadKind::kInference || InferenceModelFor(s).expert_params > 0;
  const std::vector<FieldNotUsed> unused = FieldsNotUsed(s, r->memory_present && !r->memory.fits(), experts);
  if (!unused.empty()) WarnFieldsNotUsed(s, unused, r);
}

// A training or independent job (the serving path is EvaluateInference).
// Issue 50's warnings, out of line: only a scenario that gives its inputs runs them (the page's first frame does not,
// so their code is not in its first load).
[[gnu::noinline]] void Issue50Warnings(const Scenario& s, const JobPlan& job, const Result& r, Warnings* wn) {
  const PricingInputs& pr = s.pricing;
  if (pr.stopped_hours > 0 && !job.terms.stopped_billed)  // issue 50: a commitment or owned hardware (billing.h)
    wn->Add("stopped_not_billed", "msg.w_stopped_not_billed", {PricingModelName(Model(s))});
  if (pr.stopped_hours > 0 && pr.offer[0]) {  // issue 50: a provider that reclaims idle instances (offers.json)
    const Offer* offer = FindOffer(pr.offer);
    if (offer && offer->idle_reclaim_hours > 0 && pr.stopped_hours > offer->idle_reclaim_hours)
      wn->Add("stopped_reclaimed", "msg.w_stopped_reclaimed",
             {offer->provider, FormatParam("%.3g", offer->idle_reclaim_hours), FormatParam("%.4g", pr.stopped_hours)});
  }
  // Issue 50: the loss the job trains to, said where it applies (the slice: NotePartition).
  if (r.loss_target.present) {
    const LossTarget& lt = r.loss_target;
    const LossFit other = lt.fit == LossFit::kBesiroglu2024 ? LossFit::kHoffmann2022 : LossFit::kBesiroglu2024;
    const auto tokens = [](double x) { return x > 0 ? FormatParam("%.3g", x) : std::string("-"); };
    wn->Add("loss_target", "msg.w_loss_target",
           {FormatParam("%.4g", lt.loss), LossFitOf(lt.fit).name, tokens(lt.tokens), tokens(lt.tokens_low),
            tokens(lt.tokens_high), LossFitOf(other).name, tokens(lt.other_fit_tokens)});
    // The target sets the tokens: workload.tokens, whatever it holds, is not used (said, not refused: on the page
    // the tokens field always holds a number, and typing a target must not need it cleared first).
    wn->Add("tokens_set_by_target", "msg.w_tokens_by_target", {tokens(s.workload.tokens), tokens(lt.tokens)});
  }
}

void EvaluateJob(const Scenario& s, Result& r) {
  JobPlan job;
  if (!PlanJob(s, &job, &r)) return;
  r.ok = true;
  const ReliabilityInputs& rel = s.reliability;
  const PricingInputs& pr = s.pricing;
  const bool training = Kind(s) == WorkloadKind::kTraining;
  const bool spot = Model(s) == PricingModel::kSpot;
  const bool owned = Model(s) == PricingModel::kOwned;
  const TimelineInputs& in = job.unit;
  const double rollback_rate = job.rollback_rate_per_s;
  const double optimum_s = job.optimum_interval_s;
  const double write_s = in.checkpoint_write_seconds;

  // --- Expected timeline and the normal run (nothing fails) ---
  Timeline t = ExpectedTimeline(in);
  // A run of unusable checkpoints: p / (1 - p) extra rollbacks per rollback (operations.h; p = 1 is blocked).
  const double bad_run = BadCheckpointRunMean(job.ops.bad_checkpoint_probability);
  const double rollbacks = t.failures + (in.spot_saves_on_notice ? 0 : t.preemptions);
  t.bad_checkpoints = bad_run > 0 && std::isfinite(bad_run) ? rollbacks * bad_run : 0;  // never inf x 0
  TimelineInputs calm = in;
  calm.failure_rate_per_s = calm.spot_rate_per_s = 0;
  const Timeline normal = ExpectedTimeline(calm);
  r.never_finishes = t.never_finishes;
  r.expected_interruptions = job.units * t.interruptions;
  r.expected_failures = job.units * t.failures;
  r.expected_preemptions = job.units * t.preemptions;
  r.expected_infant_failures = job.units * t.infant_failures;
  r.expected_timeouts = job.units * t.timeouts;
  r.checkpoints_written = job.units * t.checkpoints;

  JobBill bill, normal_bill;
  BillJob(job, t, r.expected_preemptions / job.units_per_session, &bill);
  BillJob(job, normal, 0, &normal_bill);
  r.time_hours = bill.time_hours;
  r.gpu_hours = bill.gpu_hours;
  r.cost_usd = bill.cost_usd;
  r.expected_hours = bill.hours;
  r.billed_gpu_hours = bill.billed_gpu_hours;
  r.expected_usd = bill.usd;
  r.commitment_after_job_usd = bill.commitment_after_job_usd;
  r.vat_usd = bill.vat_usd;
  r.normal_run_hours = normal_bill.hours;
  r.normal_run_usd = normal_bill.usd;
  ApplyOutlook(job, t, normal_bill.hours, &r);  // issue 29: wait for capacity, deadline, delay cost (capacity.h)
  if (s.program.experiments > 0 || s.program.abandoned_fraction > 0 || s.program.evaluation_hours > 0)
    r.finished_model = FinishedModelOf(s, job.terms, job.billed_gpus, r.cost_usd, r.expected_usd,  // program.h
                                       r.cost_usd.part[kPartDelay], bill.stopped_usd);
  r.goodput = r.expected_hours > 0 ? r.ideal_hours / r.expected_hours : 0;
  r.usd_per_billion_tokens = r.tokens > 0 ? r.expected_usd / (r.tokens / 1e9) : 0;
  if (!r.never_finishes && std::isfinite(r.expected_hours) && std::isfinite(r.expected_usd)) {
    GPUCOST_ASSERT(ApproxEqual(r.expected_usd, bill.usd + r.cost_usd.part[kPartDelay]),
                   "the job's total is its bill and its delay cost, nothing else");
    GPUCOST_ASSERT(r.expected_hours >= r.normal_run_hours * (1 - 1e-12), "failures never shorten the job");
    GPUCOST_ASSERT(r.goodput > 0 && r.goodput <= 1 + 1e-12, "goodput is in (0, 1]");
    GPUCOST_ASSERT(r.billed_gpu_hours >= r.ideal_gpu_hours * (1 - 1e-9), "the GPU-hours billed hold the ideal work");
    GPUCOST_ASSERT(ApproxEqual(r.vat_usd * (pr.vat_recoverable ? 0 : 1), r.cost_usd.part[kPartTax]),
                   "the tax part is the VAT invoiced, unless recovered");
  }

  // --- Warnings ---
  Warnings& wn = r.warnings;
  if (r.never_finishes)
    wn.Add("never_finishes", "msg.w_never_finishes",
           {FormatParam("%.3g", rollback_rate > 0 ? 1 / rollback_rate / 3600 : 0.0), FormatParam("%.3g", in.interval_seconds / 3600)});
  if (rollback_rate > 0 && 1 / rollback_rate < write_s)
    wn.Add("mtbf_below_checkpoint", "msg.w_mtbf_below_checkpoint", {FormatParam("%.1f", 1 / rollback_rate / 60), FormatParam("%.1f", write_s / 60)});
  const double interval_used_s = std::min(in.interval_seconds, in.work_seconds);  // longer = one final checkpoint
  if (rel.checkpoint_interval_minutes > 0 && rollback_rate > 0 &&
      (interval_used_s > 2 * optimum_s || interval_used_s < 0.5 * optimum_s))
    wn.Add("interval_far_from_optimum", "msg.w_interval_far", {FormatParam("%.0f", in.interval_seconds / 60), FormatParam("%.0f", optimum_s / 60)});
  if (!rel.checkpointing && rollback_rate > 0)
    wn.Add("no_checkpoints", "msg.w_no_checkpoints", {FormatParam("%.3g", r.expected_interruptions), FormatParam("%.0f", optimum_s / 60)});
  if (training && r.mfu > kMfuCeiling)
    wn.Add("mfu_above_measured", "msg.w_mfu_above", {FormatParam("%.0f", r.mfu * 100)});
  // Issue 30: an MFU predicted from the layout (an adopted search result) above every measured run on this GPU
  // class carries the flag the Layouts table shows into the result, and so into the headline's warnings.
  if (training && r.mfu <= kMfuCeiling && r.mfu_source == MfuSource::kPredicted && r.step.ok() && r.step.beyond_evidence)
    wn.Add("mfu_beyond_evidence", "msg.w_mfu_beyond_evidence", {FormatParam("%.0f", r.mfu * 100), FormatParam("%.0f", r.step.best_measured_mfu * 100)});
  if (r.data_stall_fraction > 0.01 && std::string(r.data_feed.binding) == "preprocessing")  // datapipe.h
    wn.Add("data_stalls_preprocessing", "msg.w_data_stalls_preprocessing",
           {FormatParam("%.3g", s.ops.cpu_cores_per_gpu), FormatParam("%.0f", r.data_stall_fraction * 100)});
  else if (r.data_stall_fraction > 0.01 && std::string(r.data_feed.binding) == "small_file_latency")
    wn.Add("data_stalls_small_files", "msg.w_data_stalls_small_files",
           {FormatParam("%.3g", s.ops.files_per_sample), FormatParam("%.3g", s.ops.small_file_latency_ms),
            FormatParam("%.0f", r.data_stall_fraction * 100)});
  else if (r.data_stall_fraction > 0.01)
    wn.Add("data_stalls", "msg.w_data_stalls", {FormatParam("%.2f", r.data_required_gbps), FormatParam("%.2f", s.storage.read_gbps),
                                                FormatParam("%.0f", r.data_stall_fraction * 100)});
  if (Model(s) == PricingModel::kReserved && !pr.reserved.capacity_guaranteed)
    wn.Add("commitment_not_capacity", "msg.w_commitment_not_capacity");
  NoteCommitmentRenewal(job.terms, bill, r.expected_hours, r.display_currency, r.display_per_usd, &wn);  // A12
  if (spot && training && r.expected_preemptions > 10)
    wn.Add("spot_coupled", "msg.w_spot_coupled", {FormatParam("%.0f", r.expected_preemptions)});
  if (pr.stopped_hours > 0 || r.loss_target.present) Issue50Warnings(s, job, r, &wn);  // issue 50 (out of line)
  if (owned && r.tco.break_even_utilization > 1)
    wn.Add("owned_never_breaks_even", "msg.w_owned_never", {FormatParam("%.2f", pr.owned.compare_usd_per_gpu_hour)});
}

}  // namespace

// Issue 50: the slice a job or a service runs on (partition.h), said in the result.
[[gnu::noinline]] static void NotePartition(const Scenario& s, Result* r) {
  r->partition = ScenarioPartition(s);
  if (!r->partition.on) return;
  const GpuSpec* gpu = FindGpu(s.cluster.gpu);
  const std::int64_t slices = Kind(s) == WorkloadKind::kInference ? r->inference.gpus : s.cluster.gpus;
  r->warnings.Add("partition", "msg.w_partition",
                  {std::to_string(slices), s.partition.profile, gpu ? gpu->name : std::string(s.cluster.gpu),
                   FormatParam("%.1f", 100 * r->partition.compute_fraction), FormatParam("%.1f", 100 * r->partition.memory_fraction),
                   FormatParam("%.1f", 100 * r->partition.price_fraction), FormatParam("%.2f", r->partition.interference)});
}

Result Evaluate(const Scenario& s) {
  Result r;
  if (Kind(s) == WorkloadKind::kInference)
    EvaluateInference(s, &r);  // serving: inference.h
  else
    EvaluateJob(s, r);
  if (r.ok && s.partition.profile[0]) NotePartition(s, &r);
  if (r.ok) ReportFieldsNotUsed(s, &r);  // never ignored silently (fields.h)
  return r;
}

FailuresAdd FailuresAddOf(const Result& r) {
  FailuresAdd f;
  f.hours = r.expected_hours - r.normal_run_hours;
  f.usd = r.expected_usd - r.normal_run_usd;
  f.hours_fraction = r.normal_run_hours > 0 ? r.expected_hours / r.normal_run_hours - 1 : 0;
  f.usd_fraction = r.normal_run_usd > 0 ? r.expected_usd / r.normal_run_usd - 1 : 0;
  return f;
}

namespace {

// The JSON path of the first inference figure that is not finite ("" when all are).
std::string InferenceNonFinitePath(const InferenceResult& ir) {
  const std::pair<const char*, double> figures[] = {
      {"inference.kv_bytes_per_token", ir.kv_bytes_per_token}, {"inference.ttft_ms.p99", ir.ttft_ms.p99},
      {"inference.tpot_ms.p99", ir.tpot_ms.p99}, {"inference.e2e_ms.p99", ir.e2e_ms.p99},
      {"inference.kv_transfer_ms", ir.kv_transfer_ms},
      {"inference.capacity_requests_per_second", ir.capacity_requests_per_second},
      {"inference.utilization", ir.utilization}, {"inference.output_tokens_per_second", ir.output_tokens_per_second},
      {"inference.usd_per_request", ir.usd_per_request},
      {"inference.usd_per_million_input_tokens", ir.usd_per_million_input_tokens},
      {"inference.usd_per_million_output_tokens", ir.usd_per_million_output_tokens},
      {"inference.usd_per_hour", ir.usd_per_hour}, {"inference.hours", ir.hours}};
  for (const auto& [name, value] : figures)
    if (!std::isfinite(value)) return name;
  return "";
}

}  // namespace

std::string NonFiniteResultPath(const Result& r) {
  // The figures the result document and the tables are built from (JSON names of result_json.h). Figures
  // that are unknown on purpose (written as null) are not listed.
  const std::pair<const char*, double> figures[] = {
      {"work.flops", r.flops}, {"work.flops_per_token", r.flops_per_token}, {"work.tokens", r.tokens},
      {"work.mfu", r.mfu}, {"work.peak_tflops_per_gpu", r.peak_tflops_per_gpu},
      {"work.achieved_tflops_per_gpu", r.achieved_tflops_per_gpu}, {"time.ideal_hours", r.ideal_hours},
      {"time.normal_run_hours", r.normal_run_hours}, {"time.expected_hours", r.expected_hours},
      {"goodput", r.goodput}, {"gpu_hours.ideal", r.ideal_gpu_hours}, {"gpu_hours.billed", r.billed_gpu_hours},
      {"reliability.cluster_mtbf_hours", r.cluster_mtbf_hours},
      {"reliability.expected_interruptions", r.expected_interruptions},
      {"reliability.checkpoint_interval_minutes", r.checkpoint_interval_minutes},
      {"reliability.optimal_checkpoint_interval_minutes", r.optimal_checkpoint_interval_minutes},
      {"reliability.checkpoint_write_minutes", r.checkpoint_write_minutes},
      {"reliability.checkpoints_written", r.checkpoints_written}, {"data.required_gbps", r.data_required_gbps},
      {"cost.usd_per_gpu_hour", r.usd_per_gpu_hour}, {"cost.normal_run_usd", r.normal_run_usd},
      {"cost.expected_usd", r.expected_usd}, {"cost.usd_per_billion_tokens", r.usd_per_billion_tokens},
      {"cost.expected", r.expected_usd * r.display_per_usd}};
  for (const auto& [name, value] : figures)
    if (!std::isfinite(value)) return name;
  if (r.inference.present)
    if (std::string path = InferenceNonFinitePath(r.inference); !path.empty()) return path;
  const std::pair<const char*, const Breakdown*> breakdowns[] = {
      {"time.breakdown_hours.", &r.time_hours}, {"gpu_hours.breakdown.", &r.gpu_hours}, {"cost.breakdown.", &r.cost_usd}};
  for (const auto& [prefix, b] : breakdowns)
    for (int p = 0; p < kPartCount; ++p)
      if (!std::isfinite(b->part[p])) return std::string(prefix) + PartName(p);
  return "";
}

const char* FieldBehindPart(const Scenario& s, int part) {
  const bool training = Kind(s) == WorkloadKind::kTraining;
  switch (part) {
    case kPartCompute: return training ? "workload.tokens" : "workload.task_gpu_hours";
    case kPartDataStall: return "storage.read_gbps";
    case kPartCheckpoint: return "storage.checkpoint_write_gbps";
    case kPartRework: return "reliability.gpu_mtbf_hours";
    case kPartRecovery: return "reliability.recovery_minutes";
    case kPartReacquireWait: return "pricing.spot.reacquire_minutes";
    case kPartDowntime: return "reliability.downtime_hours";
    case kPartIdleGpus: return "cluster.gpus";
    case kPartHotSpares: return "reliability.hot_spares";
    case kPartBillingRounding: return "pricing.minimum_billed_seconds";
    case kPartBringUp: return "cluster.bring_up_hours";
    case kPartRestoreTest: return "reliability.restore_test_minutes";
    case kPartBadCheckpoint: return "reliability.bad_checkpoint_probability";
    case kPartStaging: return "storage.staging.gbps";
    case kPartAllocationIdle: return "cluster.allocation_efficiency";
  }
  return "";
}

namespace {

// Which of the three absurd-input limits a job passes (0: none); DescribeBlock names the field behind it.
enum AbsurdLimit { kNotAbsurd = 0, kAbsurdLong, kAbsurdTimes, kAbsurdGpuHours };

AbsurdLimit FindAbsurd(const Scenario& s, const Result& r) {
  if (Kind(s) == WorkloadKind::kInference || !(r.ideal_hours > 0)) return kNotAbsurd;
  if (r.expected_hours / kHoursPerYear > kAbsurdYears) return kAbsurdLong;
  if (r.expected_hours / r.ideal_hours > kAbsurdTimesNormal) return kAbsurdTimes;
  if (r.ideal_gpu_hours > 0 && r.billed_gpu_hours / r.ideal_gpu_hours > kAbsurdTimesNormal) return kAbsurdGpuHours;
  return kNotAbsurd;
}

// The largest part of a breakdown (optionally leaving out the compute itself).
int LargestPart(const Breakdown& b, bool without_compute) {
  int best = -1;
  for (int p = 0; p < kPartCount; ++p) {
    if (without_compute && p == kPartCompute) continue;
    if (p == kPartDelay || !(b.part[p] > 0)) continue;
    if (best < 0 || b.part[p] > b.part[best]) best = p;
  }
  return best;
}

// Why a job is blocked: FindBlockingState decides (cheap tests, run on every evaluation the page draws) and this
// says it (messages, their parameters and their English text), only for a blocked job. Kept apart so that the page's
// first frame, which draws a job that runs, carries none of it (web/first_frame_funcs.txt; docs/bundle-size.md).
enum class Block { kNone, kQuote, kNotOffered, kMemory, kNever, kBadCheckpoints, kAbsurd, kLayout };

[[gnu::noinline]] BlockingState DescribeBlock(Block which, const Scenario& s, const Result& r) {
  BlockingState b;
  switch (which) {
    case Block::kNone: break;
    case Block::kQuote: {  // a price-by-quote offer (offers.h): no number from nowhere
      const Offer& offer = *FindOffer(s.pricing.offer);
      b.Block("price_by_quote", {"quote.reason", {offer.provider, offer.product}}, {"quote.fix", {}});
      break;
    }
    case Block::kNotOffered: {  // issue 45: a pricing model the offer does not list, without a price of the user's own
      const Offer& offer = *FindOffer(s.pricing.offer);
      const std::string model_key = std::string("choice.pricing.model.") + PricingModelName(Model(s));
      b.Block("model_not_offered",
              {"msg.b_not_offered", {offer.provider + " " + offer.product, MessageParam::Key(model_key.c_str())}},
              {"msg.b_not_offered_fix", {MessageParam::Key(model_key.c_str())}});
      break;
    }
    case Block::kMemory: {
      // The cluster as it is when a layout fits on it (issue 47), else the smallest count that fits.
      const bool here = r.memory_fit_at_gpus.found;
      const LayoutFit& fit = here ? r.memory_fit_at_gpus : r.memory_smallest_fit;
      Message fix{"msg.b_no_fit", {}};
      if (fit.found)
        fix = {here ? "msg.b_fit_here" : "msg.b_smallest", {std::to_string(fit.layout.gpus()), std::to_string(fit.layout.tensor),
                                  std::to_string(fit.layout.pipeline), std::to_string(fit.layout.data),
                                  std::to_string(fit.layout.micro_batch), std::to_string(fit.layout.zero_stage)}};
      b.Block("memory_does_not_fit",
              {"msg.b_memory", {FormatParam("%.1f", r.memory.total_bytes() / kBytesPerGib), FormatParam("%.1f", r.memory.device_bytes / kBytesPerGib)}},
              fix);
      break;
    }
    case Block::kNever: b.Block("never_finishes", {"msg.b_never", {}}, {"msg.b_never_fix", {}}); break;
    case Block::kBadCheckpoints:  // issue 45: every checkpoint unusable: a rollback never recovers (p / (1 - p))
      b.Block("bad_checkpoints_never_recover",
              {"msg.b_bad_checkpoint", {FormatParam("%.3g", s.ops.bad_checkpoint_probability)}}, {"msg.b_bad_checkpoint_fix", {}});
      break;
    case Block::kAbsurd: {  // issue 45: the field behind the largest part, and how far past the limit the job is
      const AbsurdLimit limit = FindAbsurd(s, r);
      const char* key = "msg.b_absurd_long";
      double figure = r.expected_hours / kHoursPerYear;
      int part = LargestPart(r.time_hours, false);
      if (limit == kAbsurdTimes) {
        key = "msg.b_absurd_times";
        figure = r.expected_hours / r.ideal_hours;
        part = LargestPart(r.time_hours, true);
      } else if (limit == kAbsurdGpuHours) {
        key = "msg.b_absurd_gpu_hours";
        figure = r.billed_gpu_hours / r.ideal_gpu_hours;
        part = LargestPart(r.gpu_hours, true);
      }
      const char* field = part >= 0 ? FieldBehindPart(s, part) : "";
      if (!field[0]) field = "cluster.gpus";
      b.Block("absurd_input", {key, {field, FormatParam("%.3g", figure)}}, {"msg.b_absurd_fix", {field}});
      break;
    }
    case Block::kLayout: {
      const bool count = LayoutFromScenario(s).gpus() != s.cluster.gpus;
      b.Block("no_valid_layout", {"msg.b_no_layout", {MessageParam::Key(count ? "msg.b_layout_count" : LayoutErrorKey(r.step.error))}},
              {"msg.b_layout_fix", {}});
      break;
    }
  }
  return b;
}

}  // namespace

Message OutOfRangeMessage(const std::string& result_path) { return {"msg.out_of_range", {result_path}}; }

BlockingState FindBlockingState(const Scenario& s, const Result& r) {
  if (!r.ok) return {};
  Block which = Block::kNone;
  const Offer* offer = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  // A model the offer does not list is said first: a quote offer's spot or reserved row is not priced because the
  // provider offers neither, not for want of a quote (the quote typed prices its on-demand row).
  if (offer && !OfferListsModel(*offer, Model(s)) && s.pricing.usd_per_gpu_hour <= 0 && s.pricing.krw_per_gpu_hour <= 0)
    which = Block::kNotOffered;  // WithPricingModel leaves it without a price: said, not priced (issue 45)
  else if (Model(s) != PricingModel::kOwned && AwaitsQuote(s))
    which = Block::kQuote;
  else if (r.inference.present)
    return FindServingBlockingState(s, r);  // inference_blocking.h (issue 31)
  else if (r.memory_present && !r.memory.fits())
    which = Block::kMemory;
  else if (r.never_finishes)
    which = Block::kNever;
  else if (EffectiveBadCheckpointProbability(s) >= 1 && r.expected_interruptions > 0)
    which = Block::kBadCheckpoints;
  else if (FindAbsurd(s, r) != kNotAbsurd)
    which = Block::kAbsurd;
  else if (CanPredictStep(s) && !r.step.ok())
    which = Block::kLayout;
  return which == Block::kNone ? BlockingState{} : DescribeBlock(which, s, r);
}

void BlockingState::Block(const char* blocking_code, Message why, Message what_to_do) {
  blocked = true;
  code = blocking_code;
  reason_message = std::move(why);
  fix_message = std::move(what_to_do);
  reason = reason_message.Text(Lang::kEn);
  fix = fix_message.Text(Lang::kEn);
}

}  // namespace gpucost
