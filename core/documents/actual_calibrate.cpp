// actual_calibrate.cpp — the plan's scenario with what the run measured, and the next job priced with it
// (actual.h, Calibration).
#include <algorithm>
#include <cmath>

#include "documents/actual.h"
#include "job/evaluate.h"
#include "job/validate.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "scenario/json_io.h"
#include "serving/inference_model.h"

namespace gpucost {
namespace {

bool CalInRange(const char* path, double v) {
  const FieldSpec* f = FindField(path);
  return f && std::isfinite(v) && (f->min_exclusive ? v > f->min : v >= f->min) && v <= f->max;
}

// Sets `path` to v when it is in the field's range, recording the change from `planned` (the figure the plan used:
// the field's value, or what the model derived where it is automatic); otherwise a note says why not.
bool CalChange(ActualCalibration* cal, std::vector<ActualNote>* notes, const char* path, double planned, double v, Message why) {
  const FieldSpec* f = FindField(path);
  if (!CalInRange(path, v)) {
    AddActualNote(notes, "calibration_out_of_range", "actual.n.calibration_out_of_range", {path, FormatParam("%.6g", v)});
    return false;
  }
  SetNumber(cal->scenario, *f, v);
  // A figure the run confirms (the plan already assumed it: "0.38817 -> 0.38817") is measured, not a change.
  if (std::fabs(v - planned) <= 1e-9 * std::max(std::fabs(v), std::fabs(planned))) return true;
  CalibratedChange c;
  c.field = f->path;
  c.planned = planned;
  c.calibrated = v;
  c.why = std::move(why);
  cal->changes.push_back(std::move(c));
  return true;
}

void CalMfu(const Scenario& plan, const Result& r, const ActualRun& run, ActualCalibration* cal, std::vector<ActualNote>* notes) {
  if (!run.rate_measured) return;
  // The measured rate holds the run's data stalls; the scenario's MFU is the compute's, its data feed modelled
  // on top: the plan's own stall share is taken out so that it is not counted twice.
  const double stall = r.data_stall_fraction;
  const double mfu = run.mfu / (1 - stall);
  const Message why = stall > 0 ? ActualMessage("actual.c.mfu_stall", {FormatPercent(run.mfu), FormatPercent(stall)})
                                : ActualMessage("actual.c.mfu", {FormatCount(std::round(run.tokens_per_second)), FormatCount(static_cast<double>(run.gpus))});
  cal->mfu_measured = CalChange(cal, notes, "cluster.mfu", r.mfu, mfu, why);
  if (cal->mfu_measured && run.gpus != plan.cluster.gpus)
    AddActualNote(notes, "mfu_transfer", "actual.n.mfu_transfer", {FormatCount(static_cast<double>(run.gpus)), FormatCount(static_cast<double>(plan.cluster.gpus))});
}

void CalCheckpoint(const Scenario& plan, const Result& r, const ActualRun& run, const RunRecord& rec, ActualCalibration* cal,
                std::vector<ActualNote>* notes) {
  if (!rec.checkpoints || !rec.checkpoints->write_seconds || !plan.reliability.checkpointing) return;
  const double blocked_s = *rec.checkpoints->write_seconds;
  // The record times what blocked training; an asynchronous write blocks for its stall share of the write.
  const bool async = plan.reliability.checkpoint_async && plan.reliability.async_stall_fraction > 0;
  const double write_min = (async ? blocked_s / plan.reliability.async_stall_fraction : blocked_s) / 60;
  const Message why = async ? ActualMessage("actual.c.checkpoint_async", {FormatNumber(blocked_s, 4), FormatPercent(plan.reliability.async_stall_fraction)})
                            : ActualMessage("actual.c.checkpoint", {FormatNumber(blocked_s, 4), FormatNumber(run.checkpoints, 6)});
  cal->checkpoint_measured = CalChange(cal, notes, "reliability.checkpoint_write_minutes", r.checkpoint_write_minutes, write_min, why);
}

void CalMtbf(const Scenario& plan, const ActualRun& run, ActualCalibration* cal, std::vector<ActualNote>* notes) {
  if (!run.interruptions_measured) return;
  // Exposure: the run's GPUs over its wall time (the record's, else the sum of its parts); a service's, the GPU-hours
  // its replicas were held.
  const double exposure = run.exposure_gpu_hours > 0 ? run.exposure_gpu_hours : static_cast<double>(run.gpus) * run.wall_hours;
  cal->mtbf = UpdateMtbf(plan.reliability.gpu_mtbf_hours, kMtbfPriorFailures, run.failures, exposure);
  if (run.exposure_gpu_hours > 0)
    AddActualNote(notes, "mtbf_exposure", "actual.n.mtbf_exposure_held", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure))});
  else
    AddActualNote(notes, "mtbf_exposure", "actual.n.mtbf_exposure", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure)),
                                                                    FormatCount(static_cast<double>(run.gpus)), FormatNumber(run.wall_hours, 4)});
  if (!(cal->mtbf.mtbf_hours > 0)) return;  // no failure assumed and none seen: stays "no failures"
  const Message why = cal->mtbf.prior_failures > 0
                          ? ActualMessage("actual.c.mtbf", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure)),
                                                      FormatCount(plan.reliability.gpu_mtbf_hours), FormatNumber(cal->mtbf.prior_failures, 3),
                                                      FormatPercent(cal->mtbf.prior_share)})
                          : ActualMessage("actual.c.mtbf_no_prior", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure))});
  cal->mtbf_updated = CalChange(cal, notes, "reliability.gpu_mtbf_hours", plan.reliability.gpu_mtbf_hours, cal->mtbf.mtbf_hours, why);
}

// A service's speeds, from what its run measured: inference.decode_bandwidth_efficiency such that the model's median time
// between tokens is the record's tpot_ms.p50, and inference.prefill_mfu such that its median time to first token is the
// record's ttft_ms.p50. Both on the plan's replicas (held fixed: a faster or slower engine must not re-size them while
// it is solved) at the run's load (the plan's rate scaled by the run's requests per replica-hour over the plan's; a
// batch job at its own). Each figure is monotone in its field (a faster decode or prefill never lengthens a wait), so
// each is solved by bisection on the model itself; they are coupled (a colocated prefill stalls the decode steps, and
// the first token waits for the decode step in progress and the prompts queued ahead), so the two solves alternate
// until neither moves. What is not the GPUs' stays as planned: the whole difference in time to first token is put on
// the prefill's speed, the request path (inference.request_overhead_ms) and the router kept, and the document says so.
// The first-order figures, field x predicted / measured (every part scaled), are stated beside each for a check by hand.
// The model's median time between tokens (or to the first token) with the field at v (infinite beyond the replicas).
[[gnu::noinline]] double CalServingAt(Scenario* x, double* field, double v, bool ttft) {
  *field = v;
  const Result r = Evaluate(*x);
  const double ms = !r.ok ? 0 : ttft ? r.inference.ttft_ms.p50 : r.inference.tpot_ms.p50;
  return ms > 0 && std::isfinite(ms) ? ms : INFINITY;
}

// Bisection for the field value (within its range) at which the figure is `target`; false when no value in range gives
// it. The figure falls as the field rises; it is infinite where the replicas cannot keep up (a queue without bound), so
// the value returned is the bracket's faster end, to 1e-9, and only where its figure is the target (to 1e-6).
bool CalSolve(Scenario* x, double* field, const char* path, double target, bool ttft, double* out) {
  const FieldSpec* f = FindField(path);
  double lo = std::max(1e-3, f->min), hi = f->max;
  if (CalServingAt(x, field, hi, ttft) > target || CalServingAt(x, field, lo, ttft) < target) return false;
  for (int i = 0; i < 60 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = std::sqrt(lo * hi);
    (CalServingAt(x, field, mid, ttft) > target ? lo : hi) = mid;
  }
  // The side whose figure is within the target: finite (next to a queue's edge the other may not be). Where the figure
  // jumps there (the replicas saturate before it reaches the target), no value gives it.
  *field = hi;
  if (!(std::fabs(CalServingAt(x, field, hi, ttft) / target - 1) <= 1e-6)) return false;
  *out = hi;
  return true;
}

void CalServingSpeeds(const Scenario& plan, const Result& rp, const ActualRun& run, ActualCalibration* cal,
                      std::vector<ActualNote>* notes) {
  const bool tpot_given = run.tpot_p50_ms > 0, ttft_given = run.ttft_p50_ms > 0;
  if (!tpot_given) AddActualNote(notes, "decode_not_measured", "actual.n.decode_not_measured", {});
  if (!ttft_given) AddActualNote(notes, "prefill_not_measured", "actual.n.prefill_not_measured", {});
  if (!tpot_given && !ttft_given) return;
  Scenario x = cal->scenario;
  const InferenceResult& ip = rp.inference;
  x.inference.decode.replicas = ip.decode.replicas;
  if (ip.disaggregated) x.inference.prefill.replicas = ip.prefill.replicas;
  double load = 1;
  if (!ip.batch_job && run.requests_measured && run.held_measured && run.replica_hours > 0 && run.planned_replica_hours > 0 &&
      run.planned_requests > 0) {
    load = (run.requests / run.replica_hours) / (run.planned_requests / run.planned_replica_hours);
    x.inference.requests_per_second *= load;
  }
  double& eff = x.inference.decode_bandwidth_efficiency;
  double& mfu = x.inference.prefill_mfu;
  const double planned_eff = plan.inference.decode_bandwidth_efficiency, planned_mfu = plan.inference.prefill_mfu;
  // The plan's figures at the run's load: what each measure is set against.
  const double tpot_at_plan = CalServingAt(&x, &eff, planned_eff, false);
  const double ttft_at_plan = CalServingAt(&x, &eff, planned_eff, true);
  if (tpot_given)
    AddActualNote(notes, "decode_load", "actual.n.decode_load", {FormatNumber(run.tpot_p50_ms, 4), FormatNumber(run.planned_tpot_p50_ms, 4),
                                                                FormatNumber(tpot_at_plan, 4), FormatPercent(load)});
  if (ttft_given)
    AddActualNote(notes, "prefill_load", "actual.n.prefill_load", {FormatNumber(run.ttft_p50_ms, 4), FormatNumber(run.planned_ttft_p50_ms, 4),
                                                                  FormatNumber(ttft_at_plan, 4), FormatPercent(load)});
  // First the decode at the plan's prefill, then the prefill beside it; then both again, in turn, until neither moves.
  double e = planned_eff, m = planned_mfu;
  mfu = m;
  bool decode_ok = tpot_given && CalSolve(&x, &eff, "inference.decode_bandwidth_efficiency", run.tpot_p50_ms, false, &e);
  eff = e;
  bool prefill_ok = ttft_given && CalSolve(&x, &mfu, "inference.prefill_mfu", run.ttft_p50_ms, true, &m);
  mfu = m;
  const double decode_alone = e;  // the decode's speed at the plan's prefill
  bool inconsistent = false;
  for (int round = 1; round < 12 && decode_ok && prefill_ok; ++round) {
    const double e0 = e, m0 = m;
    const bool d = CalSolve(&x, &eff, "inference.decode_bandwidth_efficiency", run.tpot_p50_ms, false, &e);
    eff = e;
    const bool p = d && CalSolve(&x, &mfu, "inference.prefill_mfu", run.ttft_p50_ms, true, &m);
    mfu = m;
    if (!p) {
      inconsistent = true;
      break;
    }
    if (std::fabs(e - e0) <= 1e-7 * e && std::fabs(m - m0) <= 1e-7 * m) break;
  }
  // No pair in range gives both: a prefill slow enough for the first token stalls a colocated replica's decode steps
  // past the measured time between tokens. The time between tokens is the decode's own measure; the first token's
  // wait also holds the queue, the request path and the router, which the model keeps as planned. So the decode is
  // calibrated beside the plan's prefill, the prefill kept, and the document says why.
  if (inconsistent) {
    e = decode_alone;
    m = planned_mfu;
    prefill_ok = false;
    AddActualNote(notes, "calibration_out_of_range", "actual.n.prefill_inconsistent",
                  {FormatNumber(run.ttft_p50_ms, 4), FormatNumber(run.tpot_p50_ms, 4)});
  }
  if (tpot_given && !decode_ok)
    AddActualNote(notes, "calibration_out_of_range", "actual.n.decode_out_of_range",
                  {FormatNumber(run.tpot_p50_ms, 4), FormatNumber(planned_eff * tpot_at_plan / run.tpot_p50_ms, 4)});
  if (ttft_given && !prefill_ok && !inconsistent)
    AddActualNote(notes, "calibration_out_of_range", "actual.n.prefill_out_of_range",
                  {FormatNumber(run.ttft_p50_ms, 4), FormatNumber(planned_mfu * ttft_at_plan / run.ttft_p50_ms, 4)});
  if (decode_ok && prefill_ok) AddActualNote(notes, "speeds_together", "actual.n.speeds_together", {});
  if (decode_ok)
    cal->decode_measured = CalChange(cal, notes, "inference.decode_bandwidth_efficiency", planned_eff, e,
                                     ActualMessage("actual.c.decode", {FormatNumber(run.tpot_p50_ms, 4), FormatNumber(tpot_at_plan, 4),
                                                                       FormatNumber(planned_eff * tpot_at_plan / run.tpot_p50_ms, 4)}));
  if (prefill_ok)
    cal->prefill_measured = CalChange(cal, notes, "inference.prefill_mfu", planned_mfu, m,
                                      ActualMessage("actual.c.prefill", {FormatNumber(run.ttft_p50_ms, 4), FormatNumber(ttft_at_plan, 4),
                                                                         FormatNumber(planned_mfu * ttft_at_plan / run.ttft_p50_ms, 4),
                                                                         FormatNumber(1e3 * FrontLatencySeconds(InferenceModelFor(plan)), 4)}));
}

ActualCalibration CalPriced(ActualCalibration cal, std::vector<ActualNote>* notes) {
  if (!ValidateScenario(cal.scenario).empty()) {
    AddActualNote(notes, "calibrated_invalid", "actual.n.calibrated_invalid", {});
    return cal;
  }
  const Result r = Evaluate(cal.scenario);
  const BlockingState blocked = FindBlockingState(cal.scenario, r);
  if (!r.ok || blocked.blocked || !NonFiniteResultPath(r).empty()) {
    AddActualNote(notes, "calibrated_blocked", "actual.n.calibrated_blocked", {blocked.blocked ? MessageParam::From(blocked.reason_message) : MessageParam("")});
    return cal;
  }
  cal.next_job_usd = r.expected_usd;
  cal.ok = true;
  return cal;
}

}  // namespace

ActualCalibration CalibrateServingFromRun(const Scenario& plan, const Result& r_plan, const ActualRun& run,
                                          std::vector<ActualNote>* notes) {
  ActualCalibration cal;
  cal.scenario = plan;
  cal.plan_usd = r_plan.expected_usd;
  CalServingSpeeds(plan, r_plan, run, &cal, notes);
  CalMtbf(plan, run, &cal, notes);
  return CalPriced(std::move(cal), notes);
}

ActualCalibration CalibrateFromRun(const Scenario& plan, const ActualRun& run, const RunRecord& rec, double plan_usd,
                                   std::vector<ActualNote>* notes) {
  ActualCalibration cal;
  cal.scenario = plan;
  cal.plan_usd = plan_usd;
  const Result planned = Evaluate(plan);
  CalMfu(plan, planned, run, &cal, notes);
  CalCheckpoint(plan, planned, run, rec, &cal, notes);
  CalMtbf(plan, run, &cal, notes);
  return CalPriced(std::move(cal), notes);
}

}  // namespace gpucost
