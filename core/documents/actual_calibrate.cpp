// actual_calibrate.cpp — the plan's scenario with what the run measured, and the next job priced with it
// (actual.h, Calibration).
#include <cmath>

#include "documents/actual.h"
#include "job/evaluate.h"
#include "job/validate.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "scenario/json_io.h"

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
    notes->push_back({"calibration_out_of_range", {"actual.n.calibration_out_of_range", {path, FormatParam("%.6g", v)}}});
    return false;
  }
  CalibratedChange c;
  c.field = f->path;
  c.planned = planned;
  c.calibrated = v;
  c.why = std::move(why);
  SetNumber(cal->scenario, *f, v);
  cal->changes.push_back(std::move(c));
  return true;
}

void CalMfu(const Scenario& plan, const Result& r, const ActualRun& run, ActualCalibration* cal, std::vector<ActualNote>* notes) {
  if (!run.rate_measured) return;
  // The measured rate holds the run's data stalls; the scenario's MFU is the compute's, its data feed modelled
  // on top: the plan's own stall share is taken out so that it is not counted twice.
  const double stall = r.data_stall_fraction;
  const double mfu = run.mfu / (1 - stall);
  const Message why = stall > 0 ? Message{"actual.c.mfu_stall", {FormatPercent(run.mfu), FormatPercent(stall)}}
                                : Message{"actual.c.mfu", {FormatCount(std::round(run.tokens_per_second)), FormatCount(static_cast<double>(run.gpus))}};
  cal->mfu_measured = CalChange(cal, notes, "cluster.mfu", r.mfu, mfu, why);
  if (cal->mfu_measured && run.gpus != plan.cluster.gpus)
    notes->push_back({"mfu_transfer", {"actual.n.mfu_transfer", {FormatCount(static_cast<double>(run.gpus)), FormatCount(static_cast<double>(plan.cluster.gpus))}}});
}

void CalCheckpoint(const Scenario& plan, const Result& r, const ActualRun& run, const RunRecord& rec, ActualCalibration* cal,
                std::vector<ActualNote>* notes) {
  if (!rec.checkpoints || !rec.checkpoints->write_seconds || !plan.reliability.checkpointing) return;
  const double blocked_s = *rec.checkpoints->write_seconds;
  // The record times what blocked training; an asynchronous write blocks for its stall share of the write.
  const bool async = plan.reliability.checkpoint_async && plan.reliability.async_stall_fraction > 0;
  const double write_min = (async ? blocked_s / plan.reliability.async_stall_fraction : blocked_s) / 60;
  const Message why = async ? Message{"actual.c.checkpoint_async", {FormatNumber(blocked_s, 4), FormatPercent(plan.reliability.async_stall_fraction)}}
                            : Message{"actual.c.checkpoint", {FormatNumber(blocked_s, 4), FormatNumber(run.checkpoints, 6)}};
  cal->checkpoint_measured = CalChange(cal, notes, "reliability.checkpoint_write_minutes", r.checkpoint_write_minutes, write_min, why);
}

void CalMtbf(const Scenario& plan, const ActualRun& run, ActualCalibration* cal, std::vector<ActualNote>* notes) {
  if (!run.interruptions_measured) return;
  // Exposure: the run's GPUs over its wall time (the record's, else the sum of its parts).
  const double exposure = static_cast<double>(run.gpus) * run.wall_hours;
  cal->mtbf = UpdateMtbf(plan.reliability.gpu_mtbf_hours, kMtbfPriorFailures, run.failures, exposure);
  notes->push_back({"mtbf_exposure", {"actual.n.mtbf_exposure", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure)),
                                                                  FormatCount(static_cast<double>(run.gpus)), FormatNumber(run.wall_hours, 4)}}});
  if (!(cal->mtbf.mtbf_hours > 0)) return;  // no failure assumed and none seen: stays "no failures"
  const Message why = cal->mtbf.prior_failures > 0
                          ? Message{"actual.c.mtbf", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure)),
                                                      FormatCount(plan.reliability.gpu_mtbf_hours), FormatNumber(cal->mtbf.prior_failures, 3),
                                                      FormatPercent(cal->mtbf.prior_share)}}
                          : Message{"actual.c.mtbf_no_prior", {FormatNumber(run.failures, 6), FormatCount(std::round(exposure))}};
  cal->mtbf_updated = CalChange(cal, notes, "reliability.gpu_mtbf_hours", plan.reliability.gpu_mtbf_hours, cal->mtbf.mtbf_hours, why);
}

}  // namespace

ActualCalibration CalibrateFromRun(const Scenario& plan, const ActualRun& run, const RunRecord& rec, double plan_usd,
                                   std::vector<ActualNote>* notes) {
  ActualCalibration cal;
  cal.scenario = plan;
  cal.plan_usd = plan_usd;
  const Result planned = Evaluate(plan);
  CalMfu(plan, planned, run, &cal, notes);
  CalCheckpoint(plan, planned, run, rec, &cal, notes);
  CalMtbf(plan, run, &cal, notes);
  if (!ValidateScenario(cal.scenario).empty()) {
    notes->push_back({"calibrated_invalid", {"actual.n.calibrated_invalid", {}}});
    return cal;
  }
  const Result r = Evaluate(cal.scenario);
  const BlockingState blocked = FindBlockingState(cal.scenario, r);
  if (!r.ok || blocked.blocked || !NonFiniteResultPath(r).empty()) {
    notes->push_back({"calibrated_blocked", {"actual.n.calibrated_blocked", {blocked.blocked ? MessageParam::From(blocked.reason_message) : MessageParam("")}}});
    return cal;
  }
  cal.next_job_usd = r.expected_usd;
  cal.ok = true;
  return cal;
}

}  // namespace gpucost
