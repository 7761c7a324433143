#include "documents/result_json.h"
#include "money/tco.h"
#include "base/json_number.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "documents/inference_json.h"
#include "documents/evidence_band_json.h"
#include "base/i18n.h"
#include "base/assets.h"
#include "scenario/json_io.h"
#include "money/offers.h"
#include "job/parallelism.h"
#include "training/finetune.h"

namespace gpucost {

nlohmann::json BlockingJson(const BlockingState& b) {
  return {{"code", b.code}, {"reason", b.reason}, {"fix", b.fix},
          {"reason_key", b.reason_message.key}, {"reason_params", MessageParamsJson(b.reason_message.params)},
          {"fix_key", b.fix_message.key}, {"fix_params", MessageParamsJson(b.fix_message.params)}};
}

namespace {

using nlohmann::json;

json Parts(const Breakdown& b, bool skip_zero_time_parts) {
  json o = json::object();
  for (int p = 0; p < kPartCount; ++p) {
    if (skip_zero_time_parts && b.part[p] == 0) continue;
    if (p >= kPartPrefillGpus && b.part[p] == 0) continue;  // inference's parts (inference_json.cpp)
    o[PartName(p)] = NumOrNull(b.part[p]);
  }
  return o;
}

}  // namespace

static void WritePartitionAndTarget(const Scenario& s, const Result& r, json* doc) {
  if (r.partition.on) {  // the slice (partition.h)
    const Partition& p = r.partition;
    const GpuSpec* gpu = FindGpu(s.cluster.gpu);
    (*doc)["partition"] = {{"profile", p.profile->name}, {"gpu", gpu ? gpu->id : ""},
                           {"compute_slices", p.profile->compute_slices}, {"memory_slices", p.profile->memory_slices},
                           {"per_gpu", p.per_gpu}, {"compute_fraction", NumOrNull(p.compute_fraction)},
                           {"memory_fraction", NumOrNull(p.memory_fraction)},
                           {"memory_gib", NumOrNull(gpu ? gpu->hbm_gb * p.memory_fraction : 0)},
                           {"hbm_tbps", NumOrNull(gpu ? gpu->hbm_tbps * p.memory_fraction : 0)},
                           {"share", NumOrNull(p.share)}, {"price_fraction", NumOrNull(p.price_fraction)},
                           {"price_fraction_source", s.partition.price_fraction > 0 ? "given" : "share (assumed)"},
                           {"usd_per_slice_hour", NumOrNull(r.usd_per_gpu_hour)}, {"interference", NumOrNull(p.interference)}};
  }
  if (r.loss_target.present) {  // the loss trained to (loss_fit.h)
    const LossTarget& t = r.loss_target;
    const LossFit other = t.fit == LossFit::kBesiroglu2024 ? LossFit::kHoffmann2022 : LossFit::kBesiroglu2024;
    (*doc)["work"]["target_loss"] = {{"loss", NumOrNull(t.loss)}, {"fit", LossFitOf(t.fit).name},
                                     {"floor", NumOrNull(t.floor)}, {"tokens", NumOrNull(t.tokens)},
                                     {"tokens_low", NumOrNull(t.tokens_low)}, {"tokens_high", NumOrNull(t.tokens_high)},
                                     {"other_fit", LossFitOf(other).name}, {"other_fit_tokens", NumOrNull(t.other_fit_tokens)},
                                     {"source", LossFitOf(t.fit).source}};
  }
}

// What every result document says about its money, training or serving alike (issue 25): the VAT line, the
// owned hardware's terms and outlay, the offer the prices came from.
void WriteMoneyTerms(const Scenario& s, const Result& r, json* doc) {
  (*doc)["cost"]["vat"] = {{"rate", NumOrNull(s.pricing.tax_rate)},
                           {"vat_usd", NumOrNull(r.vat_usd)},
                           {"recoverable", s.pricing.vat_recoverable},
                           {"in_cost", !s.pricing.vat_recoverable}};
  if (r.tco.present) (*doc)["tco"] = OwnedTermsJson(s, r.tco, static_cast<double>(r.billed_gpus));
  if (s.pricing.offer[0]) (*doc)["offer"] = OfferAppliedJson(s);
}

// Issue 46: the held-out error band of the published runs most like the scenario (evidence_band.h), beside the
// predicted step (training without a given MFU) or the serving figures; absent when nothing is predicted.
void WriteEvidenceBand(const Scenario& s, const Result& r, json* doc) {
  const EvidenceBand b = ResultEvidenceBand(s, r);
  if (!b.applies) return;
  json band = {{"kind", b.serving ? "serving" : "training"}, {"category", b.category}, {"runs", b.runs},
               {"similar", b.runs > 0}, {"nearest_runs", b.run_ids},
               {"about", "held-out errors (predicted / measured - 1) of the published runs most like this scenario "
                         "(gpucost catalog evidence; up to 8 within a fixed distance): the measured figure is expected "
                         "within [1 / (1 + high), 1 / (1 + low)] x the prediction; runs 0: unlike every validated run"}};
  band["low"] = b.runs > 0 ? NumOrNull(b.low) : json(nullptr);
  band["high"] = b.runs > 0 ? NumOrNull(b.high) : json(nullptr);
  band["mean"] = b.runs > 0 ? NumOrNull(b.mean) : json(nullptr);
  if (!b.serving && r.step.ok() && b.runs > 0)
    band["step_seconds_range"] = {NumOrNull(r.step.seconds / (1 + b.high)), NumOrNull(r.step.seconds / (1 + b.low))};
  (*doc)["evidence_band"] = band;
}

// Issue 45's refusal law: a job that cannot run or finish is never priced, in the document as on the page and in the
// pricing document's blocked rows (null). Its parts and "if nothing fails" stay: they say what was computed.
namespace {
void WriteBlocked(const BlockingState& b, json* doc) {
  (*doc)["blocking"] = BlockingJson(b);
  json& cost = (*doc)["cost"];
  cost["expected_usd"] = cost["expected"] = nullptr;
  // A training job's finished model; a service's prices per request, token and hour (inference_json.cpp).
  for (const char* key : {"finished_model_usd", "finished_model", "per_request", "per_million_input_tokens",
                          "per_million_output_tokens", "per_million_output_tokens_all_in", "per_hour"})
    if (cost.contains(key)) cost[key] = nullptr;
}
}  // namespace

std::string ResultToJson(const Scenario& s, const Result& r, int indent) {
  json doc;
  doc["schema"] = kResultSchema;
  doc["ok"] = r.ok;
  if (!r.ok) return doc.dump(indent);
  if (s.name[0]) doc["name"] = s.name;
  if (r.inference.present) {  // serving (inference.h): its own figures and parts
    WriteInferenceJson(s, r, &doc);
    if (const BlockingState b = FindBlockingState(s, r); b.blocked) WriteBlocked(b, &doc);  // cannot run (issue 31)
    WriteMoneyTerms(s, r, &doc);
    WriteEvidenceBand(s, r, &doc);
    WritePartitionAndTarget(s, r, &doc);  // issue 50: a service on MIG slices
    return doc.dump(indent);
  }
  const GpuSpec* gpu = FindGpu(s.cluster.gpu);
  doc["work"] = {{"flops", NumOrNull(r.flops)},
                 {"flops_convention", r.flops_include_attention ? "6ND + attention (12 x layers x hidden x seq_len per token)"
                                      : s.workload.flops > 0 ? "given (workload.flops)" : "6ND"},
                 {"flops_per_token", NumOrNull(r.flops_per_token)},
                 {"tokens", NumOrNull(r.tokens)},
                 {"gpu", gpu ? gpu->id : ""},
                 {"precision", PrecisionName(GetPrecision(s))},
                 {"peak_tflops_per_gpu", NumOrNull(r.peak_tflops_per_gpu)},
                 {"mfu", NumOrNull(r.mfu)},
                 {"mfu_source", MfuSourceName(r.mfu_source)},
                 {"achieved_tflops_per_gpu", NumOrNull(r.achieved_tflops_per_gpu)},
                 {"billed_gpus", r.billed_gpus}};
  doc["time"] = {{"ideal_hours", NumOrNull(r.ideal_hours)},
                 {"normal_run_hours", NumOrNull(r.normal_run_hours)},
                 {"expected_hours", NumOrNull(r.expected_hours)},
                 {"expected_days", NumOrNull(r.expected_hours / 24)},
                 {"breakdown_hours", Parts(r.time_hours, false)}};
  // Time has no money-only parts; drop them for readability.
  for (const char* money_only : {"idle_gpus", "hot_spares", "billing_rounding", "storage", "egress", "fees",
                                 "unused_commitment", "tax", "allocation_idle", "support", "delay"})
    doc["time"]["breakdown_hours"].erase(money_only);
  doc["gpu_hours"] = {{"ideal", NumOrNull(r.ideal_gpu_hours)}, {"billed", NumOrNull(r.billed_gpu_hours)},
                      {"breakdown", Parts(r.gpu_hours, false)}};
  for (const char* money_only : {"reacquire_wait", "storage", "egress", "fees", "unused_commitment", "tax", "support", "delay"})
    doc["gpu_hours"]["breakdown"].erase(money_only);
  doc["goodput"] = NumOrNull(r.goodput);
  if (r.step.ok()) {  // step time of one global batch (steptime.h); MFU 6ND + attention, HFU incl. recompute
    NamedValue fields[kStepFieldCount];
    StepTimeFields(r.step, fields);
    json step = json::object();
    for (const NamedValue& f : fields) step[f.name] = NumOrNull(f.value);
    step["scaling_efficiency"] = NumOrNull(r.scaling_efficiency);
    step["beyond_evidence"] = r.step.beyond_evidence;  // issue 18: predicted above the best measured MFU
    step["mfu_convention"] = MfuConventionFor(ShapeFromScenario(s));
    step["hfu_convention"] = kHfuConvention;
    doc["step"] = step;
  }
  WriteEvidenceBand(s, r, &doc);
  doc["reliability"] = {{"cluster_mtbf_hours", NumOrNull(r.cluster_mtbf_hours)},
                        {"expected_interruptions", NumOrNull(r.expected_interruptions)},
                        {"expected_failures", NumOrNull(r.expected_failures)},
                        {"expected_preemptions", NumOrNull(r.expected_preemptions)},
                        {"checkpoint_interval_minutes", NumOrNull(r.checkpoint_interval_minutes)},
                        {"optimal_checkpoint_interval_minutes", NumOrNull(r.optimal_checkpoint_interval_minutes)},
                        {"young_checkpoint_interval_minutes", NumOrNull(r.young_checkpoint_interval_minutes)},
                        {"checkpoint_write_minutes", NumOrNull(r.checkpoint_write_minutes)},
                        {"checkpoint_gb", NumOrNull(r.checkpoint_gb)},
                        {"checkpoints_written", NumOrNull(r.checkpoints_written)},
                        {"never_finishes", r.never_finishes}};
  doc["data"] = {{"required_gbps", NumOrNull(r.data_required_gbps)}, {"stall_fraction", NumOrNull(r.data_stall_fraction)},
                 {"binding", r.data_feed.binding}};  // issue 29: which limit of the pipeline binds (datapipe.h)
  if (r.schedule.present) {  // issue 29: the wait for capacity, the finish and the deadline (capacity.h)
    const ScheduleOutlook& o = r.schedule;
    doc["schedule"] = {{"wait_basis", o.wait_basis}, {"capacity_guaranteed", o.capacity_guaranteed},
                       {"wait_mean_hours", NumOrNull(o.wait_mean_hours)}, {"lead_hours", NumOrNull(o.lead_hours)}, {"start_p50_hours", NumOrNull(o.start_p50_hours)},
                       {"start_p90_hours", NumOrNull(o.start_p90_hours)}, {"run_sd_hours", NumOrNull(o.run_sd_hours)},
                       {"finish_mean_hours", NumOrNull(o.finish_mean_hours)}, {"finish_p50_hours", NumOrNull(o.finish_p50_hours)},
                       {"finish_p90_hours", NumOrNull(o.finish_p90_hours)},
                       {"expected_delay_hours", NumOrNull(o.expected_delay_hours)}, {"delay_usd", NumOrNull(o.delay_usd)}};
    if (o.deadline_given) {  // absent without a deadline (null means a non-finite figure)
      doc["schedule"]["deadline_hours"] = NumOrNull(o.deadline_hours);
      doc["schedule"]["p_miss_deadline"] = NumOrNull(o.p_miss_deadline);
    }
  }
  if (r.spare_fast_fraction < 1) doc["reliability"]["spare_fast_fraction"] = NumOrNull(r.spare_fast_fraction);
  // Issue 50: of the failures, early ones the burn-in left and collective timeouts (absent when there are none).
  if (r.expected_infant_failures > 0) doc["reliability"]["expected_infant_failures"] = NumOrNull(r.expected_infant_failures);
  if (r.expected_timeouts > 0) doc["reliability"]["expected_timeouts"] = NumOrNull(r.expected_timeouts);
  WritePartitionAndTarget(s, r, &doc);
  WriteParallelismJson(s, r, &doc);  // memory, scaling fit, work.batch_size_token_factor
  json breakdown = Parts(r.cost_usd, false);
  breakdown.erase("reacquire_wait");
  doc["cost"] = {{"usd_per_gpu_hour", NumOrNull(r.usd_per_gpu_hour)},
                 {"normal_run_usd", NumOrNull(r.normal_run_usd)},
                 {"expected_usd", NumOrNull(r.expected_usd)},
                 {"breakdown", breakdown},
                 {"usd_per_billion_tokens", NumOrNull(r.usd_per_billion_tokens)},
                 {"currency", r.display_currency},
                 {"per_usd", NumOrNull(r.display_per_usd)},
                 {"expected", NumOrNull(r.expected_usd * r.display_per_usd)},
                 {"normal_run", NumOrNull(r.normal_run_usd * r.display_per_usd)}};
  // A13: of the normal run's money, the delay cost of its own lateness (absent when it meets the deadline).
  if (r.normal_run_delay_usd > 0) doc["cost"]["normal_run_delay_usd"] = NumOrNull(r.normal_run_delay_usd);
  if (r.finished_model.present) {  // issue 50 (program.h): the finished model beside the cost per run
    const FinishedModel& f = r.finished_model;
    doc["cost"]["finished_model_usd"] = NumOrNull(f.total_usd);
    doc["cost"]["finished_model"] = NumOrNull(f.total_usd * r.display_per_usd);
    doc["finished_model"] = {{"usd", NumOrNull(f.total_usd)}, {"breakdown", Parts(f.usd, false)},
                             {"run_basis_usd", NumOrNull(f.run_basis_usd)}, {"abandoned_runs", NumOrNull(f.abandoned_runs)},
                             {"evaluation_gpu_hours", NumOrNull(f.evaluation_gpu_hours)}};
  }
  if (r.fp8_gain > 0) doc["work"]["fp8_gain"] = NumOrNull(r.fp8_gain);
  const FailuresAdd fa = FailuresAddOf(r);  // the results panel's "failures add" column
  doc["failures_add"] = {{"hours", NumOrNull(fa.hours)}, {"usd", NumOrNull(fa.usd)}, {"hours_fraction", NumOrNull(fa.hours_fraction)},
                         {"usd_fraction", NumOrNull(fa.usd_fraction)}};  // FP8 without a shape (fp8_gain.h)
  WriteMoneyTerms(s, r, &doc);
  if (const BlockingState b = FindBlockingState(s, r); b.blocked) WriteBlocked(b, &doc);  // said instead of a price
  json warnings = json::array();
  for (int i = 0; i < r.warnings.count; ++i)
    warnings.push_back(WarningJson(r.warnings, i));
  doc["warnings"] = warnings;
  return doc.dump(indent);
}

EvidenceBand ResultEvidenceBand(const Scenario& s, const Result& r) {
  if (!r.ok) return EvidenceBand{};
  return EvidenceBandFor(s, r.inference.present || r.mfu_source == MfuSource::kPredicted);
}

bool EvidenceBandReady() { return AssetReady(kHeldOutAsset); }

std::string EvidenceBandLine(const EvidenceBand& b) {
  return b.applies ? std::string(Tr("band.label")) + ": " + EvidenceBandText(b) : std::string();
}

}  // namespace gpucost
