// actual_json.cpp — the document of `gpucost actual` (schema gpucost/actual@1; actual.h).
#include <nlohmann/json.hpp>

#include "documents/actual.h"
#include "hardware/catalog.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {

using ojson = nlohmann::ordered_json;

// Whole cents as a JSON number: the decimal text of an exact sum (ojson writes the shortest text that reads back).
double AjUsd(std::int64_t cents) { return static_cast<double>(cents) / 100; }

// A message as the documents carry one: its English text, its key and its parameters.
void AjMessage(ojson& o, const char* text_name, const char* key_name, const char* params_name, const Message& m) {
  o[text_name] = m.Text(Lang::kEn);
  o[key_name] = m.key;
  o[params_name] = ojson(MessageParamsJson(m.params));
}

const char* AjBasis(bool measured) { return measured ? "measured" : "plan"; }

// Figures in order, from one table (one loop: small code in the page's wasm, not one call per key).
using AjFigures = std::initializer_list<std::pair<const char*, double>>;
void AjNumbers(ojson& o, AjFigures figures) {
  for (const auto& [name, v] : figures) o[name] = v;
}
void AjStrings(ojson& o, std::initializer_list<std::pair<const char*, const char*>> texts) {
  for (const auto& [name, v] : texts) o[name] = v;
}
void AjMeasuredOrNull(ojson& o, const char* name, double v) {
  if (v > 0) o[name] = v;
  else o[name] = nullptr;
}

// A service's run and plan: requests, output tokens, replica-hours held, the work at full batch, the latencies.
ojson AjServingRunJson(const ActualDoc& d) {
  const ActualRun& r = d.run;
  ojson o;
  o["gpu"] = r.gpu;
  o["gpus"] = r.gpus;
  AjNumbers(o, {{"requests", r.requests}, {"output_tokens", r.output_tokens}, {"replica_hours", r.replica_hours},
                {"gpus_per_replica", r.gpus_per_replica}, {"held_gpu_hours", r.held_gpu_hours},
                {"work_gpu_hours", r.work_gpu_hours}, {"wall_hours", r.wall_hours}});
  AjStrings(o, {{"requests_basis", AjBasis(r.requests_measured)}, {"output_tokens_basis", AjBasis(r.output_tokens_measured)},
                {"replica_hours_basis", AjBasis(r.held_measured)}, {"wall_basis", AjBasis(r.wall_measured)},
                {"interruptions_basis", AjBasis(r.interruptions_measured)}});
  AjMeasuredOrNull(o, "ttft_ms_p50", r.ttft_p50_ms);
  AjMeasuredOrNull(o, "tpot_ms_p50", r.tpot_p50_ms);
  AjNumbers(o, {{"interruptions", r.interruptions}, {"failures", r.failures}, {"usd_per_request", r.usd_per_request},
                {"billed_gpu_hours", r.billed_gpu_hours}, {"priced_usd", r.priced_usd}});
  if (r.has_invoice) o["invoice_usd"] = r.invoice_usd;
  return o;
}

ojson AjServingPlanJson(const Scenario& plan, const ActualDoc& d) {
  const ActualRun& r = d.run;
  ojson o;
  o["name"] = std::string(plan.name);
  AjNumbers(o, {{"requests", r.planned_requests}, {"output_tokens", r.planned_output_tokens},
                {"replica_hours", r.planned_replica_hours}, {"held_gpu_hours", r.planned_held_gpu_hours},
                {"work_gpu_hours", r.planned_work_gpu_hours}, {"hours", r.planned_hours}, {"ttft_ms_p50", r.planned_ttft_p50_ms},
                {"tpot_ms_p50", r.planned_tpot_p50_ms}, {"usd_per_request", r.planned_usd_per_request}});
  return o;
}

ojson AjRunJson(const ActualDoc& d) {
  if (d.run.serving) return AjServingRunJson(d);
  const ActualRun& r = d.run;
  ojson o;
  o["gpu"] = r.gpu;
  o["gpus"] = r.gpus;
  AjNumbers(o, {{"tokens", r.tokens}});
  AjStrings(o, {{"tokens_basis", AjBasis(r.tokens_measured)}});
  AjNumbers(o, {{"tokens_per_second", r.tokens_per_second}});
  AjStrings(o, {{"tokens_per_second_basis", AjBasis(r.rate_measured)}});
  o["rate_samples"] = r.rate_samples;
  AjNumbers(o, {{"mfu", r.mfu}, {"compute_hours", r.compute_hours}, {"interruptions", r.interruptions}, {"failures", r.failures},
                {"preemptions", r.preemptions}, {"lost_hours", r.lost_hours}});
  AjStrings(o, {{"interruptions_basis", AjBasis(r.interruptions_measured)}});
  AjNumbers(o, {{"checkpoints", r.checkpoints}, {"checkpoint_seconds", r.checkpoint_seconds}, {"checkpoint_hours", r.checkpoint_hours}});
  AjStrings(o, {{"checkpoints_basis", AjBasis(r.checkpoints_measured)}});
  AjNumbers(o, {{"wall_hours", r.wall_hours}});
  AjStrings(o, {{"wall_basis", r.wall_measured ? "measured" : "parts"}});
  AjNumbers(o, {{"unexplained_hours", r.unexplained_hours}, {"idle_gpu_hours", r.idle_gpu_hours},
                {"billed_gpu_hours", r.billed_gpu_hours}, {"priced_usd", r.priced_usd}});
  if (r.has_invoice) o["invoice_usd"] = r.invoice_usd;
  return o;
}

ojson AjPlanJson(const Scenario& plan, const ActualDoc& d) {
  if (d.run.serving) return AjServingPlanJson(plan, d);
  const ActualRun& r = d.run;
  ojson o;
  o["name"] = std::string(plan.name);
  o["gpu"] = std::string(plan.cluster.gpu);
  o["gpus"] = plan.cluster.gpus;
  AjNumbers(o, {{"tokens", r.planned_tokens}, {"tokens_per_second", r.planned_tokens_per_second},  // at the run's GPU count
                {"mfu", r.planned_mfu}, {"compute_hours", r.planned_compute_hours},
                {"expected_interruptions", r.expected_interruptions}, {"expected_lost_hours", r.expected_lost_hours},
                {"checkpoints", r.planned_checkpoints}, {"checkpoint_seconds", r.planned_checkpoint_seconds},
                {"checkpoint_hours", r.planned_checkpoint_hours}, {"expected_hours", r.planned_hours},
                {"idle_gpu_hours", r.planned_idle_gpu_hours}});
  return o;
}

ojson AjCalibratedJson(const ActualCalibration& c) {
  ojson o;
  o["scenario"] = ojson::parse(ScenarioToJson(c.scenario, true, -1));
  if (c.ok) o["next_job_usd"] = c.next_job_usd;
  else o["next_job_usd"] = nullptr;
  o["plan_said_usd"] = c.plan_usd;
  o["mtbf_hours"] = c.scenario.reliability.gpu_mtbf_hours;
  if (c.mtbf_updated) o["mtbf_interval_hours"] = {c.mtbf.low_hours, c.mtbf.high_hours};
  else o["mtbf_interval_hours"] = nullptr;
  o["mtbf_credible_level"] = kMtbfCredibleLevel;
  o["mtbf_prior"] = {{"gpu_mtbf_hours", c.mtbf.prior_mtbf_hours}, {"weight_failures", c.mtbf.prior_failures},
                     {"weight_gpu_hours", c.mtbf.prior_gpu_hours}, {"share", c.mtbf.prior_share}};
  o["mtbf_observed"] = {{"failures", c.mtbf.failures}, {"exposure_gpu_hours", c.mtbf.exposure_gpu_hours}};
  o["mtbf_updated"] = c.mtbf_updated;
  o["mfu_measured"] = c.mfu_measured;
  o["checkpoint_measured"] = c.checkpoint_measured;
  o["decode_measured"] = c.decode_measured;
  o["prefill_measured"] = c.prefill_measured;
  ojson changes = ojson::array();
  for (const CalibratedChange& ch : c.changes) {
    ojson e;
    e["field"] = ch.field;
    e["planned"] = ch.planned;
    e["calibrated"] = ch.calibrated;
    AjMessage(e, "why", "why_key", "why_params", ch.why);
    changes.push_back(e);
  }
  o["changes"] = changes;
  return o;
}

}  // namespace

RunInput ReadRunInput(const std::string& text, const std::string& name, const LogHints& hints, bool log_only) {
  RunInput in;
  if (!hints.gpu.empty() && !FindGpu(hints.gpu.c_str())) {
    in.refusal = {"log.refuse.gpu", {hints.gpu}};
    return in;
  }
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const bool object = first != std::string::npos && text[first] == '{';
  if (object && !log_only && text.find("\"log_history\"") == std::string::npos) {
    RunParse p = ParseRunRecordJson(text);
    if (!p.ok()) {
      in.refusal = p.errors.front().coded;
      in.refusal_path = p.errors.front().path;
      return in;
    }
    in.record = std::move(p.record);
    in.ok = true;
    return in;
  }
  LogRead read = ReadRunLog(text, name, hints);
  if (!read.ok) {
    in.refusal = read.refusal;
    return in;
  }
  in.record = std::move(read.record);
  in.ok = in.from_log = true;
  return in;
}

std::string ActualToJson(const Scenario& plan, const ActualDoc& d, int indent) {
  ojson doc;
  doc["schema"] = kActualSchema;
  if (!d.ok) {
    doc["error"] = ojson::object();
    AjMessage(doc["error"], "message", "key", "params", d.error);
    return doc.dump(indent, ' ', false, ojson::error_handler_t::replace);
  }
  doc["workload"] = d.run.serving ? "serving" : "training";
  doc["currency"] = d.currency;
  doc["display_per_usd"] = d.display_per_usd;
  doc["planned_usd"] = AjUsd(d.planned_cents);
  doc["actual_usd"] = AjUsd(d.actual_cents);
  doc["delta_usd"] = AjUsd(d.actual_cents - d.planned_cents);
  doc["actual_basis"] = d.actual_is_invoice ? "invoice" : "priced";
  ojson rows = ojson::array();
  for (const VarianceRow& v : d.variance) {
    ojson e;
    e["part"] = VariancePartName(v.part);
    e["planned_usd"] = AjUsd(v.planned_cents);
    e["actual_usd"] = AjUsd(v.actual_cents);
    e["delta_usd"] = AjUsd(v.delta_cents());
    AjMessage(e, "why", "why_key", "why_params", v.why);
    rows.push_back(e);
  }
  doc["variance"] = rows;
  doc["plan"] = AjPlanJson(plan, d);
  doc["run"] = AjRunJson(d);
  doc["calibrated"] = AjCalibratedJson(d.calibrated);
  ojson notes = ojson::array();
  for (const ActualNote& n : d.notes) {
    ojson e;
    e["code"] = n.code;
    AjMessage(e, "message", "key", "params", n.message);
    notes.push_back(e);
  }
  doc["notes"] = notes;
  return doc.dump(indent, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace gpucost
