// actual_serving.cpp — a service set against its plan (actual.h, CompareServingActual): the record's requests,
// output tokens, replica-hours and latencies against the plan's, the service's bill through the one billing engine
// (job/inference_evaluate.h EvaluateServingUsage: the plan's service with the run's usage, priced by BillServing),
// and the variance in a service's groups: volume (the requests' work), capacity (the replica-hours held beyond it),
// the router, storage and egress, billing and tax.
#include <cmath>

#include "base/format.h"
#include "documents/actual.h"
#include "job/evaluate.h"
#include "job/inference_evaluate.h"
#include "job/validate.h"

namespace gpucost {
namespace {

struct ServingContext {
  const Scenario& plan;
  const Result& r_plan;
  const RunRecord& rec;
  ActualDoc* d;
  Result r_run;
  double hours = 0, planned_hours = 0;
};

std::string SvNum(double v, int digits = 4) { return FormatNumber(v, digits); }

// The record's figures that set a service against its plan; false (with the error) when it has none of them.
bool SvFields(ServingContext& c) {
  const RunRecord& r = c.rec;
  if (!r.requests && !r.output_tokens && !r.replica_hours && !r.ttft_ms.any() && !r.tpot_ms.any()) {
    c.d->error = {"actual.e.no_serving_fields", {}};
    return false;
  }
  // The GPU: a service's pools name theirs; a record on another GPU is another service (plan it on that GPU).
  const InferenceResult& ir = c.r_plan.inference;
  if (!r.gpu.empty() && r.gpu != ir.decode.gpu_id && !(ir.disaggregated && r.gpu == ir.prefill.gpu_id)) {
    c.d->error = {"actual.e.serving_gpu", {r.gpu, std::string(ir.decode.gpu_id)}};
    return false;
  }
  // What a training record has that a service does not use: said, never silently dropped.
  std::string unused;
  auto add = [&](bool has, const char* name) {
    if (has) unused += (unused.empty() ? "" : ", ") + std::string(name);
  };
  add(r.tokens.has_value(), "tokens");
  add(!r.tokens_per_second.empty(), "tokens_per_second");
  add(!r.step_seconds.empty(), "step_seconds");
  add(r.global_batch.has_value(), "global_batch");
  add(r.seq_len.has_value(), "seq_len");
  add(r.checkpoints.has_value(), "checkpoints");
  add(r.idle_gpu_hours.has_value(), "idle_gpu_hours");
  add(r.billed_gpu_hours.has_value(), "billed_gpu_hours");
  if (!unused.empty()) AddActualNote(&c.d->notes, "serving_unused", "actual.n.serving_unused", {unused});
  return true;
}

// The run's usage (measured, else the plan's, said) through the one engine.
bool SvBill(ServingContext& c) {
  ActualDoc& d = *c.d;
  ActualRun& run = d.run;
  const RunRecord& r = c.rec;
  const InferenceResult& ip = c.r_plan.inference;
  c.planned_hours = ip.hours;
  const auto wall = RunWallHours(r);
  run.wall_measured = wall.has_value() && *wall > 0;
  c.hours = run.wall_measured ? *wall : ip.hours;
  if (!run.wall_measured) AddActualNote(&c.d->notes, "serving_wall_absent", "actual.n.serving_wall_absent", {SvNum(ip.hours)});
  ServingUsage use;
  if (run.wall_measured) use.hours = c.hours;
  if (r.requests) use.requests = *r.requests;
  if (r.output_tokens) use.output_tokens = *r.output_tokens;
  ServingHeld held;
  // Held GPU-hours: the replica-hours at the plan's GPUs per replica, else the record's GPUs over its wall time.
  Result probe;
  if (!EvaluateServingUsage(c.plan, use, &probe, &held)) return d.error = {"actual.e.plan_blocked", {""}}, false;
  run.gpus_per_replica = held.gpus_per_replica;
  if (r.replica_hours) {
    use.held_gpu_hours = *r.replica_hours * held.gpus_per_replica;
    run.held_measured = true;
    if (ip.disaggregated) AddActualNote(&c.d->notes, "replica_hours_split", "actual.n.replica_hours_split", {SvNum(held.gpus_per_replica)});
  } else if (r.gpus > 0 && run.wall_measured) {
    use.held_gpu_hours = static_cast<double>(r.gpus) * c.hours;
    run.held_measured = true;
    AddActualNote(&c.d->notes, "held_from_gpus", "actual.n.held_from_gpus", {FormatCount(static_cast<double>(r.gpus)), SvNum(c.hours)});
  } else {
    AddActualNote(&c.d->notes, "replica_hours_assumed", "actual.n.replica_hours_assumed", {SvNum(held.planned_replica_hours * c.hours / std::max(1e-300, ip.hours))});
  }
  if (!r.requests) AddActualNote(&c.d->notes, "requests_assumed", "actual.n.requests_assumed", {FormatCount(std::round(held.requests))});
  if (!r.output_tokens) AddActualNote(&c.d->notes, "output_tokens_assumed", "actual.n.output_tokens_assumed", {FormatCount(std::round(held.output_tokens))});
  if (r.gpus > 0 && r.gpus != ip.gpus)
    AddActualNote(&c.d->notes, "serving_gpus_differ", "actual.n.serving_gpus_differ", {FormatCount(static_cast<double>(r.gpus)), FormatCount(static_cast<double>(ip.gpus))});
  if (!EvaluateServingUsage(c.plan, use, &c.r_run, &held) || !NonFiniteResultPath(c.r_run).empty())
    return d.error = {"actual.e.plan_blocked", {""}}, false;
  // The record held less than the model's work: said, as billed.
  if (const int w = c.r_run.warnings.Find("run_faster_than_model"); w >= 0)
    AddActualNote(&c.d->notes, "run_faster_than_model", "msg.w_run_faster_than_model", {c.r_run.warnings.Params(w).at(0)});
  run.serving = true;
  run.gpu = r.gpu.empty() ? std::string(ip.decode.gpu_id) : r.gpu;
  run.gpus = r.gpus > 0 ? r.gpus : ip.gpus;
  run.requests = held.requests;
  run.planned_requests = held.planned_requests;
  run.requests_measured = r.requests.has_value();
  run.output_tokens = held.output_tokens;
  run.planned_output_tokens = held.planned_output_tokens;
  run.output_tokens_measured = r.output_tokens.has_value();
  run.replica_hours = held.replica_hours;
  run.planned_replica_hours = held.planned_replica_hours;
  run.held_gpu_hours = held.gpu_hours;
  run.planned_held_gpu_hours = held.planned_gpu_hours;
  run.work_gpu_hours = held.work_gpu_hours;
  run.planned_work_gpu_hours = held.planned_work_gpu_hours;
  run.wall_hours = c.hours;
  run.planned_hours = ip.hours;
  run.billed_gpu_hours = c.r_run.billed_gpu_hours;
  run.priced_usd = c.r_run.expected_usd;
  run.exposure_gpu_hours = held.gpu_hours;
  run.ttft_p50_ms = r.ttft_ms.p50.value_or(0);
  run.tpot_p50_ms = r.tpot_ms.p50.value_or(0);
  run.planned_ttft_p50_ms = ip.ttft_ms.p50;
  run.planned_tpot_p50_ms = ip.tpot_ms.p50;
  if ((r.ttft_ms.any() && !r.ttft_ms.p50) || (r.tpot_ms.any() && !r.tpot_ms.p50)) AddActualNote(&c.d->notes, "latency_p50_only", "actual.n.latency_p50_only", {});
  if (r.interruptions) {
    run.interruptions_measured = true;
    for (const RunInterruption& x : *r.interruptions) {
      run.interruptions += 1;
      run.failures += IsFailure(x.cause);
      run.preemptions += x.cause == InterruptionCause::kPreemption;
    }
  }
  return true;
}

Message SvWhy(const ServingContext& c, int group) {
  const ActualRun& r = c.d->run;
  auto share = [](double a, double b) { return b > 0 ? FormatPercent(a / b) : std::string("-"); };
  switch (group) {
    case kVarVolume:
      return ActualMessage("actual.why.volume", {FormatCount(std::round(r.requests)), FormatCount(std::round(r.planned_requests)),
                                    FormatCount(std::round(r.output_tokens)), FormatCount(std::round(r.planned_output_tokens)),
                                    SvNum(r.work_gpu_hours), SvNum(r.planned_work_gpu_hours)});
    case kVarCapacity:
      return ActualMessage("actual.why.capacity", {SvNum(r.replica_hours), SvNum(r.planned_replica_hours), SvNum(r.gpus_per_replica, 3),
                                      share(std::min(r.work_gpu_hours, r.held_gpu_hours), r.held_gpu_hours),  // (a faster run: all of it, noted)
                                      share(r.planned_work_gpu_hours, r.planned_held_gpu_hours)});
    case kVarRouter:
      return ActualMessage("actual.why.router", {SvNum(c.hours), SvNum(c.planned_hours)});
    case kVarStorageEgress:
      return ActualMessage("actual.why.storage", {SvNum(c.hours), SvNum(c.planned_hours)});
    default: {
      if (!r.has_invoice) return ActualMessage("actual.why.billing", {});
      auto money = [&](double usd) {
        const double v = usd * c.d->display_per_usd;
        return std::string(c.d->currency) == "KRW" ? FormatKrwGrouped(std::round(v)) : FormatUsd(v);
      };
      const double diff = r.invoice_usd - r.priced_usd;
      return ActualMessage("actual.why.billing_invoice", {money(r.invoice_usd), money(r.priced_usd), (diff >= 0 ? "+" : "") + money(diff)});
    }
  }
}

std::vector<double> SvGroups(const Breakdown& money) {
  std::vector<double> g(kVarCount, 0.0);
  for (int p = 0; p < kPartCount; ++p) g[ServingVarianceGroupOf(p)] += money.part[p];
  return g;
}

}  // namespace

void CompareServingActual(const Scenario& plan, const Result& r_plan, const RunRecord& rec, ActualDoc* d) {
  ServingContext c{plan, r_plan, rec, d, {}};
  if (!SvFields(c) || !SvBill(c)) return;
  ActualRun& run = d->run;
  if (rec.invoice) {
    run.has_invoice = true;
    run.invoice_usd = InvoiceAsCostUsd(plan, *rec.invoice, &d->notes);
  }
  run.planned_usd_per_request = r_plan.inference.usd_per_request;
  FillVariance(SvGroups(r_plan.cost_usd), SvGroups(c.r_run.cost_usd),
               {{kVarVolume, false}, {kVarCapacity, false}, {kVarRouter, true}, {kVarStorageEgress, true}, {kVarBilling, false}},
               [&](int g) { return SvWhy(c, g); }, d);
  if (!d->error.empty()) return;
  run.usd_per_request = run.requests > 0 ? static_cast<double>(d->actual_cents) / 100 / run.requests : 0;
  d->calibrated = CalibrateServingFromRun(plan, r_plan, run, &d->notes);
  d->ok = true;
}

}  // namespace gpucost
