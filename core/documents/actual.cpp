// actual.cpp — a run set against its plan (actual.h): the run's figures, its bill through the one billing engine,
// and the variance.
//
// [SECTION] ActGroups and cents   [SECTION] The run's figures   [SECTION] The run's bill   [SECTION] ActVariance
#include "documents/actual.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "job/evaluate.h"
#include "job/validate.h"
#include "base/format.h"
#include "job/job.h"
#include "scenario/json_io.h"
#include "job/result.h"

namespace gpucost {

// [SECTION] ActGroups and cents ---------------------------------------------------------------------------

const char* VariancePartName(int part) {
  static const char* const kNames[kVarCount] = {"compute", "failures", "checkpoints", "idle_allocation",
                                                "billing_tax", "storage_egress", "delay", "volume", "capacity", "router"};
  return part >= 0 && part < kVarCount ? kNames[part] : "";
}

int VarianceGroupOf(int p) {
  switch (p) {
    case kPartCompute: case kPartDataStall: case kPartPrefillGpus: case kPartDecodeGpus: case kPartKvTransfer:
      return kVarCompute;
    case kPartRework: case kPartRecovery: case kPartReacquireWait: case kPartBadCheckpoint: case kPartSpotRework:
      return kVarFailures;
    case kPartCheckpoint: case kPartRestoreTest:
      return kVarCheckpoints;
    case kPartDowntime: case kPartIdleGpus: case kPartHotSpares: case kPartAllocationIdle: case kPartBringUp:
    case kPartStaging: case kPartIdleCapacity: case kPartSpotSpareCapacity: case kPartRouter: case kPartColdStart:
      return kVarIdle;
    case kPartStorage: case kPartEgress:
      return kVarStorageEgress;
    case kPartDelay:
      return kVarDelay;
    default:  // billing rounding, unused commitment, fees, support, tax
      return kVarBilling;
  }
}

int ServingVarianceGroupOf(int p) {
  switch (VarianceGroupOf(p)) {
    case kVarCompute: return kVarVolume;  // prefill, decode, KV transfer (and a training part, never set by a service)
    case kVarFailures: case kVarCheckpoints: case kVarIdle: return p == kPartRouter ? kVarRouter : kVarCapacity;
    default: return VarianceGroupOf(p);
  }
}

std::vector<std::int64_t> CentsAddingUp(const std::vector<double>& usd) {
  const double sum = std::accumulate(usd.begin(), usd.end(), 0.0);
  const std::int64_t target = std::llround(sum * 100);
  std::vector<std::int64_t> cents(usd.size());
  std::vector<std::pair<double, std::size_t>> rest;
  std::int64_t floored = 0;
  for (std::size_t i = 0; i < usd.size(); ++i) {
    const double c = usd[i] * 100;
    cents[i] = static_cast<std::int64_t>(std::floor(c));
    floored += cents[i];
    rest.push_back({c - std::floor(c), i});
  }
  // The largest remainders take the cents the floors left; ties go to the lower index.
  std::stable_sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::int64_t k = 0; k < target - floored && k < static_cast<std::int64_t>(rest.size()); ++k) ++cents[rest[k].second];
  return cents;
}

void FillVariance(const std::vector<double>& planned_usd, const std::vector<double>& actual_usd,
                  const std::vector<std::pair<int, bool>>& groups, const std::function<Message(int group)>& why, ActualDoc* d) {
  const std::vector<std::int64_t> planned = CentsAddingUp(planned_usd);
  std::vector<std::int64_t> actual = CentsAddingUp(actual_usd);
  d->planned_cents = std::accumulate(planned.begin(), planned.end(), std::int64_t{0});
  d->actual_cents = std::accumulate(actual.begin(), actual.end(), std::int64_t{0});
  if (d->run.has_invoice) {  // the invoice stands for the billed money; the delay cost is the team's, not billed
    d->actual_is_invoice = true;
    const std::int64_t target = std::llround(d->run.invoice_usd * 100) + actual[kVarDelay];
    actual[kVarBilling] += target - d->actual_cents;
    d->actual_cents = target;
  }
  std::int64_t deltas = 0, planned_sum = 0, actual_sum = 0;
  for (const auto& [g, optional] : groups) {
    planned_sum += planned[g];
    actual_sum += actual[g];
    if (optional && planned[g] == 0 && actual[g] == 0) continue;
    VarianceRow row;
    row.part = g;
    row.planned_cents = planned[g];
    row.actual_cents = actual[g];
    row.why = why(g);
    deltas += row.delta_cents();
    d->variance.push_back(std::move(row));
  }
  // The deltas add up to actual - planned exactly (whole cents), or the document is not made; every group with
  // money is one of the rows.
  if (deltas != d->actual_cents - d->planned_cents || planned_sum != d->planned_cents || actual_sum != d->actual_cents)
    d->error = {"actual.e.sum", {std::to_string(deltas), std::to_string(d->actual_cents - d->planned_cents)}};
}

[[gnu::noinline]] void AddActualNote(std::vector<ActualNote>* notes, const char* code, const char* key,
                                     std::initializer_list<MessageParam> params) {
  notes->push_back({code, {key, std::vector<MessageParam>(params)}});
}

[[gnu::noinline]] Message ActualMessage(const char* key, std::initializer_list<MessageParam> params) {
  return {key, std::vector<MessageParam>(params)};
}

double InvoiceAsCostUsd(const Scenario& plan, const RunRecord::Invoice& inv, std::vector<ActualNote>* notes) {
  const PricingInputs& pr = plan.pricing;
  double usd = inv.amount;
  if (inv.currency == "KRW") {
    usd /= pr.krw_per_usd;
    AddActualNote(notes, "invoice_krw", "actual.n.invoice_krw", {FormatNumber(pr.krw_per_usd, 6)});
  }
  const double pretax = inv.includes_tax ? usd / (1 + pr.tax_rate) : usd;
  if (!inv.includes_tax && pr.tax_rate > 0 && !pr.vat_recoverable)
    AddActualNote(notes, "invoice_tax_added", "actual.n.invoice_tax_added", {FormatPercent(pr.tax_rate)});
  if (inv.includes_tax && pr.vat_recoverable) AddActualNote(notes, "invoice_tax_recovered", "actual.n.invoice_tax_recovered", {});
  return pr.vat_recoverable ? pretax : pretax * (1 + pr.tax_rate);
}

namespace {

constexpr double kActS = 3600;

struct ActContext {
  ActContext(const Scenario& p, const RunRecord& r, ActualDoc* doc) : plan(p), rec(r), d(doc), run_s(p) {}
  const Scenario& plan;
  const RunRecord& rec;
  ActualDoc* d;
  Scenario run_s;      // the plan at the run's GPU and GPU count
  Result r_plan, r_run;
  JobPlan job;         // the billing plan of run_s (PlanJob)
  Result r_job;
  double planned_work_s = 0;  // compute and data stalls of r_run, seconds
};

std::string ActNum(double v, int digits = 4) { return FormatNumber(v, digits); }
std::string ActMoney(const ActualDoc& d, double usd) {
  const double v = usd * d.display_per_usd;
  return std::string(d.currency) == "KRW" ? FormatKrwGrouped(std::round(v)) : FormatUsd(v);
}
std::string ActSignedMoney(const ActualDoc& d, double usd) { return (usd >= 0 ? "+" : "") + ActMoney(d, usd); }

double ActHours(const Result& r, std::initializer_list<int> parts) {
  double h = 0;
  for (int p : parts) h += r.time_hours.part[p];
  return h;
}

// The plan, valid and priced; the run's scenario (the plan at the run's GPU and count) and its billing plan.
bool ActPrepare(ActContext& c) {
  ActualDoc& d = *c.d;
  if (Kind(c.plan) == WorkloadKind::kIndependent) return d.error = {"actual.e.training_only", {}}, false;
  if (const auto errors = ValidateScenario(c.plan); !errors.empty())
    return d.error = {"actual.e.plan_invalid", {MessageParam::Key(errors.front().coded.key.c_str(), errors.front().coded.params),
                                                 errors.front().path}}, false;
  c.r_plan = Evaluate(c.plan);
  const BlockingState blocked = FindBlockingState(c.plan, c.r_plan);
  if (!c.r_plan.ok || blocked.blocked || !NonFiniteResultPath(c.r_plan).empty())
    return d.error = {"actual.e.plan_blocked", {blocked.blocked ? MessageParam::From(blocked.reason_message) : MessageParam("")}}, false;
  d.currency = c.r_plan.display_currency;
  d.display_per_usd = c.r_plan.display_per_usd;
  if (const auto errors = ValidateRunRecord(c.rec); !errors.empty()) {
    for (const InputError& e : errors)  // gpu and gpus a log may lack: the plan's (CompareActual fills them)
      if (e.path != "gpu" && e.path != "gpus") return d.error = {"actual.e.record_invalid", {e.path, InputErrorParam(e)}}, false;
  }
  if (Kind(c.plan) == WorkloadKind::kInference) return false;  // a service: CompareActual sets it against its plan
  c.run_s = c.plan;
  ActualRun& run = d.run;
  run.gpu = c.rec.gpu.empty() ? std::string(c.plan.cluster.gpu) : c.rec.gpu;
  run.gpus = c.rec.gpus > 0 ? c.rec.gpus : c.plan.cluster.gpus;
  if (c.rec.gpu.empty()) AddActualNote(&c.d->notes, "gpu_from_plan", "actual.n.gpu_from_plan", {run.gpu});
  else if (run.gpu != c.plan.cluster.gpu) AddActualNote(&c.d->notes, "gpu_differs", "actual.n.gpu_differs", {run.gpu, std::string(c.plan.cluster.gpu)});
  if (c.rec.gpus <= 0) AddActualNote(&c.d->notes, "gpus_from_plan", "actual.n.gpus_from_plan", {FormatCount(static_cast<double>(run.gpus))});
  else if (run.gpus != c.plan.cluster.gpus)
    AddActualNote(&c.d->notes, "gpus_differ", "actual.n.gpus_differ", {FormatCount(static_cast<double>(run.gpus)), FormatCount(static_cast<double>(c.plan.cluster.gpus))});
  std::snprintf(c.run_s.cluster.gpu, kTextCapacity, "%s", run.gpu.c_str());
  c.run_s.cluster.gpus = run.gpus;
  c.r_run = Evaluate(c.run_s);
  if (!c.r_run.ok || !PlanJob(c.run_s, &c.job, &c.r_job)) return d.error = {"actual.e.run_scenario", {run.gpu, FormatCount(static_cast<double>(run.gpus))}}, false;
  c.planned_work_s = ActHours(c.r_run, {kPartCompute, kPartDataStall}) * kActS;
  return c.planned_work_s > 0 || (d.error = {"actual.e.plan_blocked", {""}}, false);
}

// [SECTION] The run's figures --------------------------------------------------------------------------

// Tokens, the measured rate, the MFU and the compute time.
void ActRate(const ActContext& c) {
  ActualRun& run = c.d->run;
  const Result& rp = c.r_run;
  run.planned_tokens = rp.tokens;
  run.tokens_measured = c.rec.tokens.has_value();
  run.tokens = run.tokens_measured ? *c.rec.tokens : rp.tokens;
  if (!run.tokens_measured) AddActualNote(&c.d->notes, "tokens_assumed", "actual.n.tokens_assumed", {FormatCount(rp.tokens)});
  const double flops_per_token = rp.tokens > 0 ? rp.flops / rp.tokens : rp.flops_per_token;
  const double peak = rp.peak_tflops_per_gpu * 1e12 * static_cast<double>(run.gpus);
  run.planned_tokens_per_second = rp.tokens / c.planned_work_s;
  run.planned_mfu = rp.mfu * (1 - rp.data_stall_fraction);  // the plan's effective MFU, data stalls included
  double rate = NAN;
  if (!c.rec.tokens_per_second.empty()) {
    rate = SampleMedian(c.rec.tokens_per_second);
    run.rate_samples = c.rec.tokens_per_second.size();
  } else if (!c.rec.step_seconds.empty() && c.rec.global_batch) {
    std::int64_t seq = c.rec.seq_len.value_or(0);
    if (seq <= 0 && c.plan.workload.seq_len > 0) {
      seq = c.plan.workload.seq_len;
      AddActualNote(&c.d->notes, "seq_from_plan", "actual.n.seq_from_plan", {std::to_string(seq)});
    }
    if (seq > 0) rate = static_cast<double>(*c.rec.global_batch * seq) / SampleMedian(c.rec.step_seconds);
    else AddActualNote(&c.d->notes, "no_seq", "actual.n.no_seq", {});
    run.rate_samples = c.rec.step_seconds.size();
  }
  run.rate_measured = rate > 0 && std::isfinite(rate);
  run.tokens_per_second = run.rate_measured ? rate : run.planned_tokens_per_second;
  if (run.rate_measured && run.rate_samples > 1) AddActualNote(&c.d->notes, "rate_median", "actual.n.rate_median", {std::to_string(run.rate_samples)});
  if (!run.rate_measured) AddActualNote(&c.d->notes, "rate_assumed", "actual.n.rate_assumed", {});
  run.mfu = run.rate_measured ? run.tokens_per_second * flops_per_token / peak : run.planned_mfu;
  run.compute_hours = run.tokens / run.tokens_per_second / kActS;
  run.planned_compute_hours = ActHours(c.r_plan, {kPartCompute, kPartDataStall});
}

// ActCheckpoints: counted and timed by the record, else the plan's per hour of compute.
void ActCheckpoints(const ActContext& c) {
  ActualRun& run = c.d->run;
  const double scale = run.compute_hours * kActS / c.planned_work_s;
  const double planned_block_s = c.job.unit.checkpoint_block_seconds;
  run.planned_checkpoints = c.r_plan.checkpoints_written;
  run.planned_checkpoint_seconds = planned_block_s;
  run.planned_checkpoint_hours = ActHours(c.r_plan, {kPartCheckpoint, kPartRestoreTest});
  const auto& k = c.rec.checkpoints;
  run.checkpoints_measured = k && k->count && k->write_seconds;
  run.checkpoints = k && k->count ? static_cast<double>(*k->count) : c.r_run.checkpoints_written * scale;
  run.checkpoint_seconds = k && k->write_seconds ? *k->write_seconds : planned_block_s;
  run.checkpoint_hours = run.checkpoints * run.checkpoint_seconds / kActS;
  if (!k) {  // the plan's checkpoint time (restore tests included) per hour of compute
    run.checkpoint_hours = ActHours(c.r_run, {kPartCheckpoint, kPartRestoreTest}) * scale;
    AddActualNote(&c.d->notes, "checkpoints_assumed", "actual.n.checkpoints_assumed", {});
  } else if (!k->count) {
    AddActualNote(&c.d->notes, "checkpoint_count_assumed", "actual.n.checkpoint_count_assumed", {ActNum(run.checkpoints)});
  } else if (!k->write_seconds) {
    AddActualNote(&c.d->notes, "checkpoint_write_assumed", "actual.n.checkpoint_write_assumed", {ActNum(planned_block_s)});
  }
}

struct ActLosses {
  double rework_s = 0, recovery_s = 0;
};

// ActInterruptions: the record's, each split into recovery (up to the plan's recovery time for its kind) and work
// redone; else the plan's expected per hour of compute.
ActLosses ActInterruptions(const ActContext& c) {
  ActualRun& run = c.d->run;
  const Result& rp = c.r_run;
  const double scale = run.compute_hours * kActS / c.planned_work_s;
  const double plan_lost_h = ActHours(rp, {kPartRework, kPartRecovery, kPartBadCheckpoint});
  run.expected_interruptions = c.r_plan.expected_interruptions;
  run.expected_lost_hours = ActHours(c.r_plan, {kPartRework, kPartRecovery, kPartBadCheckpoint});
  ActLosses l;
  if (!c.rec.interruptions) {
    run.interruptions = rp.expected_interruptions * scale;
    run.failures = rp.expected_failures * scale;
    run.preemptions = rp.expected_preemptions * scale;
    l.rework_s = ActHours(rp, {kPartRework, kPartBadCheckpoint}) * kActS * scale;
    l.recovery_s = ActHours(rp, {kPartRecovery}) * kActS * scale;
    run.lost_hours = (l.rework_s + l.recovery_s) / kActS;
    AddActualNote(&c.d->notes, "interruptions_assumed", "actual.n.interruptions_assumed", {});
    return l;
  }
  run.interruptions_measured = true;
  const double mean_loss_s = rp.expected_interruptions > 0 ? plan_lost_h * kActS / rp.expected_interruptions
                                                           : c.job.unit.interval_seconds / 2 + c.job.unit.failure_recovery_seconds;
  int assumed = 0;
  for (const RunInterruption& x : *c.rec.interruptions) {
    run.interruptions += 1;
    const bool preemption = x.cause == InterruptionCause::kPreemption;
    run.preemptions += preemption;
    run.failures += IsFailure(x.cause);
    const double lost = x.lost_hours ? *x.lost_hours * kActS : mean_loss_s;
    assumed += !x.lost_hours;
    const double recovery = std::min(lost, preemption ? c.job.unit.spot_recovery_seconds : c.job.unit.failure_recovery_seconds);
    l.recovery_s += recovery;
    l.rework_s += lost - recovery;
  }
  run.lost_hours = (l.rework_s + l.recovery_s) / kActS;
  if (assumed > 0) AddActualNote(&c.d->notes, "lost_assumed", "actual.n.lost_assumed", {std::to_string(assumed), ActNum(mean_loss_s / kActS)});
  return l;
}

// [SECTION] The run's bill -----------------------------------------------------------------------------

// The run's timeline through the one billing engine (BillJob: the same call that prices the plan's).
JobBill ActBill(ActContext& c, const ActLosses& l) {
  ActualRun& run = c.d->run;
  JobPlan job = c.job;
  const double busy_s = (run.compute_hours + run.checkpoint_hours) * kActS + l.rework_s + l.recovery_s;
  const auto wall = RunWallHours(c.rec);
  run.wall_measured = wall.has_value();
  run.planned_hours = c.r_plan.expected_hours;
  if (wall) {
    run.unexplained_hours = *wall - busy_s / kActS;
    if (run.unexplained_hours < 0) {
      AddActualNote(&c.d->notes, "parts_exceed_wall", "actual.n.parts_exceed_wall", {ActNum(busy_s / kActS), ActNum(*wall)});
      run.unexplained_hours = 0;
    }
    job.downtime_s = run.unexplained_hours * kActS;  // billed, every GPU idle
    job.ops.bring_up_s = job.ops.staging_s = 0;    // inside the wall time when they happened
  } else {
    AddActualNote(&c.d->notes, "wall_absent", "actual.n.wall_absent", {});
  }
  job.work_compute_s = job.unit.work_seconds = run.compute_hours * kActS;
  job.ops.restore_test_every = 0;  // in the checkpoint time
  Timeline t;
  t.work = job.unit.work_seconds;
  t.checkpoint = run.checkpoint_hours * kActS;
  t.rework = l.rework_s;
  t.recovery = l.recovery_s;
  t.interruptions = run.interruptions;
  t.failures = run.failures;
  t.preemptions = run.preemptions;
  t.checkpoints = run.checkpoints;
  JobBill bill;
  BillJob(job, t, run.preemptions, &bill);
  // Idle GPU-hours recorded, and billed GPU-hours beyond what the record's times explain: allocation idle, priced by
  // the engine's own rule (billed x (1 / efficiency - 1)).
  double idle = c.rec.idle_gpu_hours.value_or(0);
  // Idle GPU-hours inside a measured wall time are already in its unexplained hours (billed above as downtime, every
  // GPU idle): only what is beyond them is added, so no GPU-hour is billed twice.
  if (wall && idle > 0) {
    const double inside = std::min(idle, run.unexplained_hours * static_cast<double>(run.gpus));
    if (inside > 0) AddActualNote(&c.d->notes, "idle_in_wall", "actual.n.idle_in_wall", {ActNum(idle, 6), ActNum(inside, 6)});
    idle -= inside;
  }
  const double held = bill.billed_gpu_hours - bill.gpu_hours.part[kPartAllocationIdle];
  if (c.rec.billed_gpu_hours) {
    const double more = *c.rec.billed_gpu_hours - (held + idle);
    if (more >= 0) AddActualNote(&c.d->notes, "billed_used", "actual.n.billed_used", {ActNum(*c.rec.billed_gpu_hours, 6), ActNum(more, 6)});
    else AddActualNote(&c.d->notes, "billed_below", "actual.n.billed_below", {ActNum(*c.rec.billed_gpu_hours, 6), ActNum(held + idle, 6)});
    idle += std::max(0.0, more);
  }
  if (c.rec.idle_gpu_hours || c.rec.billed_gpu_hours) {
    job.ops.allocation_efficiency = held / (held + idle);
    BillJob(job, t, run.preemptions, &bill);
  } else if (c.job.ops.allocation_efficiency < 1) {
    AddActualNote(&c.d->notes, "allocation_assumed", "actual.n.allocation_assumed", {FormatPercent(c.job.ops.allocation_efficiency)});
  }
  if (job.ops.value_usd_per_s > 0) {
    AddDelay(job, 0, &bill);
    AddActualNote(&c.d->notes, "delay_start", "actual.n.delay_start", {});
  }
  run.wall_hours = bill.hours;
  run.billed_gpu_hours = bill.billed_gpu_hours;
  run.priced_usd = bill.usd;
  return bill;
}

// The invoice as a cost on the plan's terms (InvoiceAsCostUsd).
void ActInvoice(ActContext& c) {
  if (!c.rec.invoice) return;
  c.d->run.has_invoice = true;
  c.d->run.invoice_usd = InvoiceAsCostUsd(c.plan, *c.rec.invoice, &c.d->notes);
}

// [SECTION] ActVariance -----------------------------------------------------------------------------------

std::vector<double> ActGroups(const Breakdown& money) {
  std::vector<double> g(kVarCount, 0.0);
  for (int p = 0; p < kPartCount; ++p) g[VarianceGroupOf(p)] += money.part[p];
  return g;
}

double ActGroupGpuHours(const Breakdown& gpu_hours, int group) {
  double h = 0;
  for (int p = 0; p < kPartCount; ++p)
    if (VarianceGroupOf(p) == group) h += gpu_hours.part[p];
  return h;
}

Message ActWhy(const ActContext& c, int part, const JobBill& bill) {
  const ActualDoc& d = *c.d;
  const ActualRun& r = d.run;
  switch (part) {
    case kVarCompute:
      if (!r.rate_measured) return ActualMessage("actual.why.compute_assumed", {FormatPercent(r.mfu), ActNum(r.compute_hours), ActNum(r.planned_compute_hours)});
      if (r.tokens_measured && std::fabs(r.tokens - r.planned_tokens) > 1e-9 * r.planned_tokens)
        return ActualMessage("actual.why.compute_tokens", {FormatCount(std::round(r.tokens_per_second)), FormatPercent(r.mfu), FormatPercent(r.planned_mfu),
                                              ActNum(r.compute_hours), ActNum(r.planned_compute_hours), FormatCount(r.tokens), FormatCount(r.planned_tokens)});
      return ActualMessage("actual.why.compute", {FormatCount(std::round(r.tokens_per_second)), FormatPercent(r.mfu), FormatPercent(r.planned_mfu),
                                     ActNum(r.compute_hours), ActNum(r.planned_compute_hours)});
    case kVarFailures:
      if (!r.interruptions_measured) return ActualMessage("actual.why.failures_assumed", {ActNum(r.interruptions, 3), ActNum(r.lost_hours)});
      return ActualMessage("actual.why.failures", {ActNum(r.interruptions, 6), ActNum(r.failures, 6), ActNum(r.preemptions, 6), ActNum(r.lost_hours),
                                      ActNum(r.expected_interruptions, 3), ActNum(r.expected_lost_hours),
                                      ActNum(r.interruptions - r.failures - r.preemptions, 6)});  // planned stops
    case kVarCheckpoints:
      if (!c.rec.checkpoints) return ActualMessage("actual.why.checkpoints_assumed", {ActNum(r.checkpoints, 4), ActNum(r.checkpoint_seconds), ActNum(r.checkpoint_hours)});
      return ActualMessage("actual.why.checkpoints", {ActNum(r.checkpoints, 6), ActNum(r.checkpoint_seconds), ActNum(r.checkpoint_hours), ActNum(r.planned_checkpoints, 4),
                                         ActNum(r.planned_checkpoint_seconds), ActNum(r.planned_checkpoint_hours)});
    case kVarIdle:
      if (!r.wall_measured) return ActualMessage("actual.why.idle_no_wall", {ActNum(r.idle_gpu_hours), ActNum(r.planned_idle_gpu_hours)});
      return ActualMessage("actual.why.idle", {ActNum(r.idle_gpu_hours), ActNum(r.planned_idle_gpu_hours), ActNum(r.unexplained_hours), ActNum(r.wall_hours),
                                  ActNum(c.rec.idle_gpu_hours.value_or(0))});
    case kVarBilling:
      if (r.has_invoice)
        return ActualMessage("actual.why.billing_invoice", {ActMoney(d, r.invoice_usd), ActMoney(d, r.priced_usd - bill.cost_usd.part[kPartDelay]),
                                               ActSignedMoney(d, r.invoice_usd - (r.priced_usd - bill.cost_usd.part[kPartDelay]))});
      return ActualMessage("actual.why.billing", {});
    case kVarStorageEgress:
      return ActualMessage("actual.why.storage", {ActNum(r.wall_hours), ActNum(r.planned_hours)});
    default:
      return ActualMessage("actual.why.delay", {ActNum(r.wall_hours)});
  }
}

void ActVariance(ActContext& c, const JobBill& bill) {
  ActualDoc& d = *c.d;
  ActualRun& run = d.run;
  run.idle_gpu_hours = ActGroupGpuHours(bill.gpu_hours, kVarIdle);
  run.planned_idle_gpu_hours = ActGroupGpuHours(c.r_plan.gpu_hours, kVarIdle);
  FillVariance(ActGroups(c.r_plan.cost_usd), ActGroups(bill.cost_usd),
               {{kVarCompute, false}, {kVarFailures, false}, {kVarCheckpoints, false}, {kVarIdle, false}, {kVarBilling, false},
                {kVarStorageEgress, true}, {kVarDelay, true}},
               [&](int g) { return ActWhy(c, g, bill); }, &d);
}

}  // namespace

ActualDoc CompareActual(const Scenario& plan, const RunRecord& rec) {
  ActualDoc d;
  ActContext c(plan, rec, &d);
  if (!ActPrepare(c)) {
    if (d.error.empty()) CompareServingActual(plan, c.r_plan, rec, &d);  // a serving plan, valid and priced
    return d;
  }
  ActRate(c);
  ActCheckpoints(c);
  const ActLosses losses = ActInterruptions(c);
  const JobBill bill = ActBill(c, losses);
  ActInvoice(c);
  ActVariance(c, bill);
  if (!d.error.empty()) return d;
  d.calibrated = CalibrateFromRun(plan, d.run, rec, c.r_plan.expected_usd, &d.notes);
  d.ok = true;
  return d;
}

}  // namespace gpucost
