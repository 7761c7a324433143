// cmd_inference.cpp — the inference tables of gpucost eval (inference_cli.h).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "documents/inference_sim_json.h"
#include "documents/inference_plan_json.h"
#include "documents/catalog.h"
#include "documents/evidence_band_json.h"
#include "cli.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "inference_cli.h"
#include "documents/inference_json.h"

namespace gpucost::cli {
namespace {

std::string Ms(double ms) { return FormatDuration(ms / 3.6e6); }
std::string Percentiles(const LatencyMs& l) { return Ms(l.p50) + " / " + Ms(l.p90) + " / " + Ms(l.p99); }

std::string PoolText(const InferencePool& p, bool colocated) {
  const GpuSpec* gpu = FindGpu(p.gpu_id);
  std::string text = TrFormat("cli.inf.pool_text", {std::to_string(p.replicas), Tr(p.replicas == 1 ? "cli.inf.replica" : "cli.inf.replicas"),
                                                    std::to_string(p.tensor_parallel), gpu ? gpu->name : std::string(p.gpu_id),
                                                    Tr(p.replicas_given ? "cli.inf.given" : "cli.inf.sized"), FormatPercent(p.utilization)});
  if (colocated) text += Tr("cli.inf.prefill_and_decode");
  return text;
}

}  // namespace

void PrintInferenceTable(const Scenario& s, const Result& r) {
  const InferenceResult& ir = r.inference;
  const char* cur = r.display_currency;
  const double k = r.display_per_usd;
  const std::int64_t pct = s.inference.slo.percentile;
  std::printf("%s\n", s.name[0] ? TerminalSafe(s.name).c_str() : Tr("cli.inf.scenario"));
  if (const BlockingState b = FindBlockingState(s, r); b.blocked) {  // not priced: the reason and the fix (issue 31)
    std::printf("\n! %s\n  %s\n\n%s\n", TerminalSafe(b.reason_message.Text(CurrentLanguage())).c_str(),
                TerminalSafe(TrFormat("results.fix", {b.fix_message.Text(CurrentLanguage())})).c_str(), Tr(std::string(b.code) == "price_by_quote" ? "quote.not_priced" : "results.not_priced"));
    if (r.warnings.count) std::printf("\n%s\n", Tr("cli.inf.warnings"));
    for (int i = 0; i < r.warnings.count; ++i) std::printf("  ! %s\n", TerminalSafe(r.warnings.Text(i, CurrentLanguage())).c_str());
    return;
  }
  Table head;
  head.Row({"", ""});
  head.Row({Tr("cli.inf.per_request"), FormatSmallMoney(ir.usd_per_request * k, cur)});
  head.Row({Tr("cli.inf.per_m_input"), FormatSmallMoney(ir.usd_per_million_input_tokens * k, cur)});
  head.Row({Tr("cli.inf.per_m_output"), FormatSmallMoney(ir.usd_per_million_output_tokens * k, cur)});
  head.Row({Tr("cli.inf.per_hour"), FormatSmallMoney(ir.usd_per_hour * k, cur)});
  head.Row({Tr(ir.batch_job ? "cli.inf.batch_cost" : "cli.inf.period_cost"),
            TrFormat("cli.inf.period_value", {FormatMoney(r.expected_usd * k, cur), FormatDuration(ir.hours), FormatCount(ir.requests)})});
  head.Row({"TTFT P50 / P90 / P99", Percentiles(ir.ttft_ms) + (ir.batch_job ? Tr("cli.inf.no_queue") : "")});
  head.Row({"TPOT P50 / P90 / P99", Percentiles(ir.tpot_ms)});
  head.Row({Tr("cli.inf.e2e"), Percentiles(ir.e2e_ms)});
  // Issue 46: the error of the serving measurements most like this service, beside its latencies.
  if (const EvidenceBand band = ResultEvidenceBand(s, r); band.applies) head.Row({Tr("band.label"), EvidenceBandText(band)});
  std::string target = Tr("cli.inf.target_none");
  if (s.inference.slo.ttft_ms > 0 || s.inference.slo.tpot_ms > 0) {
    target = "P" + std::to_string(pct);
    if (s.inference.slo.ttft_ms > 0) target += " TTFT <= " + Ms(s.inference.slo.ttft_ms);
    if (s.inference.slo.tpot_ms > 0) target += std::string(s.inference.slo.ttft_ms > 0 ? "," : "") + " TPOT <= " + Ms(s.inference.slo.tpot_ms);
    target += Tr(ir.slo_met ? "cli.inf.met" : "cli.inf.not_met");
  }
  head.Row({Tr("cli.inf.target"), target});
  head.Row({Tr("cli.inf.load"), TrFormat("cli.inf.load_value", {FormatNumber(ir.requests_per_second, 4), FormatNumber(ir.peak_requests_per_second, 4),
                                                                FormatPercent(ir.utilization), FormatNumber(ir.capacity_requests_per_second, 4)})});
  head.Row({Tr("cli.inf.output_tps"), TrFormat("cli.inf.output_tps_value", {FormatNumber(ir.output_tokens_per_second, 4),
                                                                            FormatNumber(ir.output_tokens_per_second_per_gpu, 4)})});
  if (ir.disaggregated) {
    head.Row({Tr("cli.inf.prefill_pool"), PoolText(ir.prefill, false)});
    head.Row({Tr("cli.inf.decode_pool"), PoolText(ir.decode, false)});
    head.Row({Tr("cli.inf.ratio"), std::to_string(ir.prefill.replicas) + " : " + std::to_string(ir.decode.replicas)});
    head.Row({Tr("cli.inf.kv_transfer"), Ms(ir.kv_transfer_ms) + Tr(s.inference.kv_transfer_overlap ? "cli.inf.layer_by_layer" : "cli.inf.after_prefill")});
  } else {
    head.Row({Tr("cli.inf.pool"), PoolText(ir.decode, true)});
  }
  head.Row({"GPUs", TrFormat("cli.inf.gpus_value", {std::to_string(ir.gpus), std::to_string(r.billed_gpus)})});
  head.Row({Tr("cli.inf.prefill"), Ms(ir.prefill_ms)});
  head.Row({Tr("inference.request_path"), Ms(ir.request_path_ms)});
  head.Row({Tr("cli.inf.decode_step"), TrFormat("cli.inf.decode_step_value", {Ms(ir.decode_step_ms), FormatNumber(ir.decode.batch, 3)})});
  head.Row({Tr("cli.inf.weights"), FormatGib(ir.weights_gb_per_gpu * 1e9) + (ir.fits ? "" : Tr("cli.inf.does_not_fit"))});
  head.Row({Tr("cli.inf.kv_cache"), TrFormat("cli.inf.kv_value", {FormatCount(ir.kv_bytes_per_token), FormatGib(ir.decode.kv_gb_per_gpu * 1e9),
                                                                  std::to_string(ir.max_concurrency)})});
  head.Print(stdout);
  std::printf("%s\n", Tr("cli.inf.where_money"));
  Table t;
  t.Row({Tr("cli.inf.col_part"), Tr("cli.inf.col_gpu_hours"), std::string(cur), Tr("cli.inf.col_share")});
  t.Rule();
  for (int p : kInferencePartOrder) {
    if (r.gpu_hours.part[p] == 0 && r.cost_usd.part[p] == 0) continue;
    t.Row({InferencePartLabel(p), FormatCount(r.gpu_hours.part[p]), FormatMoney(r.cost_usd.part[p] * k, cur),
           FormatPercent(r.expected_usd > 0 ? r.cost_usd.part[p] / r.expected_usd : 0)});
  }
  t.Rule();
  t.Row({Tr("cli.inf.total"), FormatCount(r.billed_gpu_hours), FormatMoney(r.expected_usd * k, cur), "100.0%"});
  t.Print(stdout);
  const ServingDay& d = ir.day;  // issue 28: the day by the hour (the page's day section, same words)
  if (d.present) {
    std::printf("\n%s\n", Tr(d.autoscaled ? "inference.day_title_autoscaled" : "inference.day_title_fixed"));
    std::printf("  %s\n", TrFormat("inference.day_bill", {FormatMoney(d.usd * k, cur), FormatSmallMoney(d.usd_per_request * k, cur),
                                                          FormatCount(d.requests), FormatPercent(d.attainment)}).c_str());
    std::printf("  %s\n", TrFormat("inference.day_fixed", {std::to_string(d.fixed_gpus), FormatMoney(d.fixed_usd * k, cur),
                                                           FormatSmallMoney(d.fixed_usd_per_request * k, cur)}).c_str());
    if (d.autoscaled)
      std::printf("  %s\n", TrFormat("inference.day_scaling", {std::to_string(d.scale_events), FormatNumber(d.scale_up_minutes, 3),
                                                               FormatCount(d.cold_start_gpu_hours), FormatCount(d.scale_down_gpu_hours),
                                                               FormatCount(d.rounding_gpu_hours)}).c_str());
    Table hours;
    hours.Row({Tr("inference.day_col_hour"), Tr("inference.day_col_rate"), Tr("inference.day_col_replicas"), Tr("inference.day_col_gpus"),
               Tr("inference.day_col_cost"), "TTFT", "TPOT", Tr("inference.day_col_target")});
    hours.Rule();
    for (int h = 0; h < kLoadProfileHours; ++h) {
      const ServingDayHour& hr = d.hour[h];
      char hour[8];
      std::snprintf(hour, sizeof hour, "%02d:00", h);
      hours.Row({hour, FormatNumber(hr.requests_per_second, 3),
                 ir.disaggregated ? std::to_string(hr.prefill_replicas) + " + " + std::to_string(hr.replicas) : std::to_string(hr.replicas),
                 FormatNumber(hr.gpus, 3), FormatMoney(hr.usd * k, cur), Ms(hr.ttft_ms), Ms(hr.tpot_ms),
                 Tr(hr.slo_met ? "inference.target_met" : "inference.target_missed")});
    }
    hours.Print(stdout);
  }
  if (r.warnings.count) std::printf("%s\n", Tr("cli.inf.warnings"));
  for (int i = 0; i < r.warnings.count; ++i) std::printf("  ! %s\n", TerminalSafe(r.warnings.Text(i, CurrentLanguage())).c_str());
}

int RunInferenceMc(const Scenario& s, const std::string& name, std::int64_t requests, std::uint64_t seed, double max_work, bool json) {
  const InferenceSimResult r = SimulateInference(s, requests, seed, max_work);
  if (!r.ok) {
    Error(name + ": " + r.error_message.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  if (json) {
    std::printf("%s\n", InferenceSimToJson(s, r).c_str());
    return kExitOk;
  }
  const InferenceInputs& in = s.inference;
  std::printf("%s\n\n", TrFormat("cli.inf.mc_title", {s.name[0] ? TerminalSafe(s.name) : Tr("cli.inf.scenario"), std::to_string(r.requests),
                                                     std::to_string(r.measured), std::to_string(r.prefill_replicas),
                                                     std::to_string(r.decode_replicas), in.mode == 0 ? Tr("cli.inf.mc_colocated") : ""}).c_str());
  if (r.capped_requests || r.capped_replicas)  // bounded work (inference_sim.h): said, never silent
    std::printf("%s\n\n", TrFormat("sim.capped", {std::to_string(r.requests), std::to_string(r.requests_asked),
                                                  std::to_string(r.simulated_prefill_replicas), std::to_string(r.simulated_decode_replicas)}).c_str());
  Table t;
  t.Row({"", Tr("cli.inf.col_sim_p50"), "P90", "P99", Tr("cli.inf.col_mean"), Tr("cli.inf.col_closed_p50"), "P90", "P99"});
  t.Rule();
  auto row = [&](const char* label, const LatencyMs& sim, const LatencyMs* closed) {
    t.Row({label, Ms(sim.p50), Ms(sim.p90), Ms(sim.p99), Ms(sim.mean), closed ? Ms(closed->p50) : "-",
           closed ? Ms(closed->p90) : "-", closed ? Ms(closed->p99) : "-"});
  };
  row("TTFT", r.ttft_ms, &r.closed_ttft_ms);
  row("TPOT", r.tpot_ms, &r.closed_tpot_ms);
  row(Tr("cli.inf.e2e"), r.e2e_ms, nullptr);
  t.Print(stdout);
  std::printf("\n");
  Table head;
  if (in.slo.ttft_ms > 0 || in.slo.tpot_ms > 0) {
    head.Row({Tr("cli.inf.within"), TrFormat("cli.inf.within_value", {FormatPercent(r.share_within_target), std::to_string(in.slo.percentile)})});
    if (in.slo.ttft_ms > 0) head.Row({"  TTFT <= " + Ms(in.slo.ttft_ms), FormatPercent(r.share_ttft_within)});
    if (in.slo.tpot_ms > 0) head.Row({"  TPOT <= " + Ms(in.slo.tpot_ms), FormatPercent(r.share_tpot_within)});
  } else {
    head.Row({Tr("cli.inf.target"), Tr("cli.inf.none")});
  }
  head.Row({Tr("cli.inf.mean_batch"), TrFormat("cli.inf.sequences", {FormatNumber(r.mean_batch, 4)})});
  head.Row({Tr("cli.inf.output_tps"), TrFormat("cli.inf.over", {FormatNumber(r.output_tokens_per_second, 4), FormatDuration(r.simulated_seconds / 3600)})});
  head.Row({Tr("cli.inf.utilisation"), FormatPercent(r.closed_utilization)});
  head.Print(stdout);
  return kExitOk;
}

int RunInferencePlan(const Scenario& s, const std::string& name, int top, bool json) {
  const auto start = std::chrono::steady_clock::now();
  InferencePlan p = PlanInference(s, top);
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!p.ok) {
    Error(name + ": " + p.error_message.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  if (json) {
    std::printf("%s\n", InferencePlanToJson(s, p).c_str());
    return kExitOk;
  }
  const Result base = Evaluate(s);
  const char* cur = base.display_currency;
  const double k = base.display_per_usd;
  const InferenceInputs& in = s.inference;
  std::string target = Tr("cli.iplan.no_target");
  if (in.slo.ttft_ms > 0 || in.slo.tpot_ms > 0)
    target = "P" + std::to_string(in.slo.percentile) + (in.slo.ttft_ms > 0 ? " TTFT <= " + Ms(in.slo.ttft_ms) : "") +
             (in.slo.tpot_ms > 0 ? " TPOT <= " + Ms(in.slo.tpot_ms) : "");
  const std::string load = in.requests > 0 ? TrFormat("cli.iplan.batch_load", {FormatCount(in.requests), FormatDuration(in.hours)})
                                            : TrFormat("cli.iplan.rate_load", {FormatNumber(in.requests_per_second, 4),
                                                                               FormatNumber(base.inference.peak_requests_per_second, 4)});
  std::printf("%s\n\n", TrFormat("cli.iplan.title", {std::to_string(p.evaluated), std::to_string(p.gpu_types),
                                                     FormatDuration(p.seconds / 3600), std::to_string(p.fitting),
                                                     std::to_string(p.meeting), target, load}).c_str());
  auto pools = [](const InferenceCandidate& c) {
    const std::string pre = std::to_string(c.prefill_replicas) + "x" + std::to_string(c.prefill_tp) + " " + c.prefill_gpu;
    const std::string dec = std::to_string(c.decode_replicas) + "x" + std::to_string(c.decode_tp) + " " + c.decode_gpu;
    return c.disaggregated ? pre + " : " + dec : dec;
  };
  auto print = [&](const std::vector<InferenceCandidate>& rows, bool verdicts) {
    Table t;
    t.Row({"#", Tr("cli.iplan.col_mode"), Tr("cli.iplan.col_pools"), Tr("cli.iplan.col_batch"), "GPUs", "TTFT", "TPOT",
           Tr("cli.iplan.col_per_request"), Tr("cli.iplan.col_per_m_output"), Tr(verdicts ? "cli.iplan.col_verdict" : "cli.iplan.col_per_hour")});
    t.Rule();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const InferenceCandidate& c = rows[i];
      t.Row({std::to_string(i + 1), Tr(c.disaggregated ? "cli.iplan.split" : "cli.iplan.colocated"), pools(c), std::to_string(c.max_batch),
             std::to_string(c.gpus), Ms(c.ttft_ms), Ms(c.tpot_ms), FormatSmallMoney(c.usd_per_request * k, cur),
             FormatSmallMoney(c.usd_per_million_output_tokens * k, cur),
             verdicts ? c.verdict_message.Text(CurrentLanguage()) : FormatSmallMoney(c.usd_per_hour * k, cur)});
    }
    t.Print(stdout);
  };
  if (p.best.empty()) {
    std::printf("%s\n", Tr("cli.iplan.none"));
  } else {
    std::printf("%s\n", TrFormat("cli.iplan.cheapest", {std::to_string(in.slo.percentile)}).c_str());
    print(p.best, false);
    std::printf("%s\n", Tr("cli.iplan.why"));
  }
  print(p.families, true);
  std::printf("%s\n", Tr("cli.iplan.adopt"));
  return kExitOk;
}

}  // namespace gpucost::cli
