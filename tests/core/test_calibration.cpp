// Validation of the step-time model (issues 18 and 26): every published training step in
// tests/data/measured_runs.json (= assets/validation/measured_runs.json) predicted in-sample and with the
// constants refitted leaving its source out (evidence.h). Prints the per-run and per-source table and holds
// the held-out error to the issue's target; checks the product's constants against the in-sample fit and the
// band against runs it was not built from.
#include <doctest/doctest.h>

#include <set>

#include <algorithm>
#include <memory>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hardware/calibration.h"
#include "evidence/evidence.h"
#include "evidence/evidence_band.h"
#include "scenario/models.h"
#include "hardware/framework.h"
#include "hardware/catalog.h"
#include "job/evaluate.h"
#include "training/layout.h"
#include "explore/montecarlo.h"
#include "documents/plan_json.h"
#include "training/plan.h"
#include "documents/result_json.h"
#include "training/steptime.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

// The runs document as the tests see it (the same file the product embeds: tests/data/measured_runs.json is
// a link to assets/validation/measured_runs.json).
const StepEvidence& Evidence() {
  static const StepEvidence e = ComputeStepEvidence(test::ReadFile(test::DataPath("measured_runs.json")));
  return e;
}

void PrintTable(const StepEvidence& e) {
  std::printf("\n%-32s %-10s %6s %10s %10s %8s %8s %7s %7s\n", "run", "framework", "GPUs", "measured s", "held-out s",
              "in-samp.", "held-out", "MFU", "meas.");
  for (const EvidenceRun& r : e.runs)
    std::printf("%-32s %-10s %6lld %10.3f %10.3f %+7.1f%% %+7.1f%% %6.1f%% %6.1f%%%s%s\n", r.id.c_str(), r.framework.c_str(),
                static_cast<long long>(r.gpus), r.measured_seconds, r.held_out_seconds, r.error * 100, r.held_out_error * 100,
                r.held_out_mfu * 100, r.measured_mfu * 100, r.cause.empty() ? "" : "  cause: ", r.cause.c_str());
  std::printf("\n%-12s %5s %12s %12s %12s\n", "source", "runs", "in-sample", "held-out", "held-out mean");
  for (const EvidenceSource& s : e.sources)
    std::printf("%-12s %5d %11.2f%% %11.2f%% %+11.2f%%\n", s.id.c_str(), s.runs, s.in_sample_mae * 100, s.held_out_mae * 100,
                s.held_out_mean * 100);
  std::printf("%zu runs, %zu sources: in-sample mean absolute error %.2f%% (mean %+.2f%%); held out %.2f%% (mean %+.2f%%, "
              "sd %.2f%%, %+.1f%% .. %+.1f%%), %.0f%% within +/-%.0f%%\n",
              e.runs.size(), e.sources.size(), e.in_sample_mae * 100, e.in_sample_mean * 100, e.held_out_mae * 100,
              e.held_out_mean * 100, e.held_out_sd * 100, e.held_out_min * 100, e.held_out_max * 100,
              e.held_out_within_bound * 100, kEvidenceBound * 100);
  std::printf("in-sample fit: tile overhead %.0f, backward GEMM rate %.2f;", e.in_sample.tile_overhead, e.in_sample.backward_gemm_rate);
  for (int i = 0; i < e.in_sample.kernels.count; ++i)
    std::printf(" %s/%s %.3f (%d runs)", FrameworkName(e.in_sample.kernels.rows[i].framework), e.in_sample.kernels.rows[i].arch,
                e.in_sample.kernels.rows[i].value, e.in_sample.kernels.rows[i].runs);
  std::printf("\n\n");
}

}  // namespace

TEST_CASE("evidence: >= 40 published runs from >= 8 sources, none dropped, each beyond the bound with its cause") {
  const json data = json::parse(test::ReadFile(test::DataPath("measured_runs.json")));
  const StepEvidence& e = Evidence();
  REQUIRE(e.error.empty());
  PrintTable(e);
  CHECK(e.runs.size() == data["runs"].size());  // every run in the figures
  CHECK(e.runs.size() >= 40);
  CHECK(e.sources.size() >= 8);
  // A guard near today's held-out error of the pre-training runs (6.9% on 155; 6.4% on 143 before torchtitan's 500 W
  // H100 tables, whose FP8 rows no other source measures): a change that makes predictions on unseen sources worse
  // fails (the 8% target has a test of its own, below). Issue 46: per category, the fine-tuning runs apart (9.1% on
  // 35 today, 10.1% before packed SFT attended within each document; their target, 10%, has its own test below).
  // Pre-training reads 6.99% (6.9% before the refit that packed SFT moved: input gradients 1.00 -> 0.90).
  REQUIRE(e.categories.size() == 2);
  CHECK(e.categories[0].name == "pre-training");
  CHECK(e.categories[0].runs == 155);
  CHECK(e.categories[0].held_out_mae <= 0.07);
  CHECK(e.categories[1].name == "fine-tuning");
  CHECK(e.categories[1].runs >= 20);
  CHECK(e.categories[1].held_out_mae <= 0.095);
  // A run beyond the bound names the modelled term that leaves it there.
  for (const EvidenceRun& r : e.runs) {
    CAPTURE(r.id);
    CHECK(r.cause.empty() == (std::fabs(r.held_out_error) <= kEvidenceBound));
  }
  // Held out is never better than in-sample on average (the fit saw the in-sample runs).
  CHECK(e.held_out_mae >= e.in_sample_mae - 1e-9);
}

// Issue 26's target, met: the held-out error is 6.6% on 104 runs from 10 sources (12.4% on 54 before MLPerf's other
// six scales, the data-parallel buckets' ring latency and the causal mask's skipped blocks in fused attention;
// 8.1% with the first two alone, 7.1% on 60 with all three; 6.6% with NVIDIA's DGX Cloud recipes, 44 runs, 5.3%
// held out). Without the causal mask's term it reads 9.6% and fails. The largest held-out errors left:
// llm-foundry's H100 rows at large micro-batches (+29..+33%) and torchtitan's Llama 2 70B with selective
// recompute (-23%).
TEST_CASE("evidence: the leave-one-source-out mean absolute error is at most 8% (issue 26 target)") {
  const StepEvidence& e = Evidence();
  REQUIRE(e.error.empty());
  REQUIRE_FALSE(e.categories.empty());
  CHECK(e.categories[0].held_out_mae <= kHeldOutTarget);  // pre-training, as issue 26 set it
}

// Issue 46's targets, held out: fine-tuning <= 10% (met: 9.1% on 35 runs; 10.1% before NeMo's packed SQuAD rows
// attended within each example, workload.packed_document_tokens).
TEST_CASE("evidence: fine-tuning within 10%, held out (issue 46 target)") {
  const StepEvidence& e = Evidence();
  REQUIRE(e.categories.size() == 2);
  CHECK(e.categories[1].held_out_mae <= kFineTuningHeldOutTarget);
}

// All training <= 6.5%: met, 6.46% on 190 (7.4% until torchtitan's H100 rows ran at their 500 W part's peak, FP8
// without FP8 runs of its own took the 16-bit rate times the generation's FP8 share instead of Megatron-LM's 1.00, and
// eager PyTorch's unfused norms and activation entered the step: issue 46, 2026-12-06). It fails if it gets worse.
TEST_CASE("evidence: all training within 6.5%, held out (issue 46 target)") {
  const StepEvidence& e = Evidence();
  CHECK(e.held_out_mae <= kTrainingHeldOutTarget);
  // The summary the CLI and the Evidence view print states this target (it stated issue 26's 8% on the page until a new
  // user's walk-through, 2026-12-07), with its verdict read from the figure.
  CHECK(TrainingSummaryText(e).find("(target 6.5%: met;") != std::string::npos);
  StepEvidence worse = e;
  worse.held_out_mae = 0.0651;
  CHECK(TrainingSummaryText(worse).find("(target 6.5%: not met;") != std::string::npos);
}

// Issue 46's evidence, as the issue asks for it: >= 3 independent sources and >= 20 fine-tuning runs with LoRA,
// QLoRA and full fine-tuning, 1 to >= 64 GPUs, on A100, H100 and a GPU without NVLink.
TEST_CASE("evidence: the fine-tuning runs cover LoRA, QLoRA and full fine-tuning, 1-1,024 GPUs, A100, H100, L40S") {
  const json data = json::parse(test::ReadFile(test::DataPath("measured_runs.json")));
  const StepEvidence& e = Evidence();
  std::set<std::string> sources, modes, gpus;
  std::int64_t fewest = 1 << 30, most = 0;
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const EvidenceRun& r = e.runs[i];
    if (r.category != "fine-tuning") continue;
    sources.insert(r.source);
    modes.insert(data["runs"][i]["finetune"]["mode"].get<std::string>());
    gpus.insert(r.gpu);
    fewest = std::min(fewest, r.gpus);
    most = std::max(most, r.gpus);
  }
  CHECK(sources.size() >= 3);
  CHECK(modes == std::set<std::string>{"full", "lora", "qlora"});
  CHECK(fewest == 1);
  CHECK(most >= 64);
  CHECK(gpus.count("a100-sxm-80gb") == 1);
  CHECK(gpus.count("h100-sxm") == 1);
  CHECK(gpus.count("l40s") == 1);  // PCIe, no NVLink
}

TEST_CASE("evidence: the product's constants are the in-sample fit of the published runs") {
  const StepEvidence& e = Evidence();
  REQUIRE(e.error.empty());
  const Scenario any = test::MustParse(R"({"cluster": {"gpu": "h100-sxm"}})");
  EffectiveHardware hw;
  REQUIRE(ResolveHardware(any, &hw));
  const StepHardware product_hw = StepHardwareFor(any, hw);
  CHECK(product_hw.tile_overhead == e.in_sample.tile_overhead);
  CHECK(product_hw.backward_gemm_rate == doctest::Approx(e.in_sample.backward_gemm_rate));
  CHECK(product_hw.input_grad_gemm_rate == doctest::Approx(e.in_sample.input_grad_gemm_rate));
  const KernelEfficiencyTable& product = MeasuredKernelEfficiency();
  CHECK(product.count == e.in_sample.kernels.count);
  for (int i = 0; i < e.in_sample.kernels.count; ++i) {
    const KernelEfficiencyRow& k = e.in_sample.kernels.rows[i];
    CAPTURE(FrameworkName(k.framework));
    CAPTURE(k.arch);
    CHECK(LookupKernelEfficiency(product, k.framework, k.arch) == doctest::Approx(k.value).epsilon(0.003));
  }
  // The held-out MFU band and the best measured MFUs are the evidence's (they change only with it).
  double best_ampere = 0, best_hopper = 0;
  for (const EvidenceRun& r : e.runs) {
    if (r.arch == "Ampere") best_ampere = std::max(best_ampere, r.measured_mfu);
    if (r.arch == "Hopper") best_hopper = std::max(best_hopper, r.measured_mfu);
  }
  CHECK(kStepModelError.runs == static_cast<int>(e.runs.size()));
  CHECK(kStepModelError.mean == doctest::Approx(e.held_out_mean).epsilon(0.002));
  CHECK(kStepModelError.min == doctest::Approx(e.held_out_min).epsilon(0.002));
  CHECK(kStepModelError.max == doctest::Approx(e.held_out_max).epsilon(0.002));
  CHECK(BestMeasuredMfu("Ampere") == doctest::Approx(best_ampere).epsilon(0.003));
  CHECK(BestMeasuredMfu("Hopper") == doctest::Approx(best_hopper).epsilon(0.003));
  CHECK(BestMeasuredMfu("Blackwell") == 0);  // no measured run: no evidence bound
}

// MLPerf Training v3.1, NVIDIA's GPT-3 175B on Eos: the same software and layout from 512 to 10,752 GPUs; the
// per-GPU throughput falls to 0.71 of the 512-GPU run's (the published logs, assets/validation/measured_runs.json).
// The model's drop comes from its own terms (pipeline bubble at 8 micro-batches, data-parallel buckets' latency,
// validation passes); without the buckets' latency it keeps 0.90 and this check fails.
TEST_CASE("evidence: MLPerf's per-GPU throughput from 512 to 10,752 GPUs falls as published") {
  const StepEvidence& e = Evidence();
  REQUIRE(e.error.empty());
  const EvidenceRun* small = nullptr;
  const EvidenceRun* large = nullptr;
  for (const EvidenceRun& r : e.runs) {
    if (r.id == "mlperf-gpt3-512") small = &r;
    if (r.id == "mlperf-gpt3-10752") large = &r;
  }
  REQUIRE(small != nullptr);
  REQUIRE(large != nullptr);
  const auto per_gpu = [](const EvidenceRun& r, double seconds) { return r.tokens_per_step / (seconds * static_cast<double>(r.gpus)); };
  const double measured = per_gpu(*large, large->measured_seconds) / per_gpu(*small, small->measured_seconds);
  const double predicted = per_gpu(*large, large->predicted_seconds) / per_gpu(*small, small->predicted_seconds);
  MESSAGE("per-GPU throughput at 10,752 / 512 GPUs: measured " << measured << ", model " << predicted);
  CHECK(measured == doctest::Approx(0.71).epsilon(0.01));  // the published logs' ratio (5,154,997 / 10,752) / (345,645 / 512)
  CHECK(std::fabs(predicted - measured) <= 0.10);
}

TEST_CASE("evidence: a band built without a source covers that source's runs (nested leave-one-source-out)") {
  // The band of the product is [min, max] of the held-out errors. Built from every source but one, it must
  // still cover most of the left-out source's runs: otherwise the band is narrower than the model's real
  // error on unseen runs. (Not true by construction: a source unlike the others falls outside.)
  const StepEvidence& e = Evidence();
  REQUIRE(e.error.empty());
  int covered = 0, total = 0;
  for (const EvidenceSource& s : e.sources) {
    double lo = 1, hi = -1;
    for (const EvidenceRun& r : e.runs)
      if (r.source != s.id) lo = std::min(lo, r.held_out_error), hi = std::max(hi, r.held_out_error);
    for (const EvidenceRun& r : e.runs) {
      if (r.source != s.id) continue;
      ++total;
      covered += r.held_out_error >= lo && r.held_out_error <= hi ? 1 : 0;
    }
  }
  MESSAGE("nested band covers " << covered << " of " << total << " runs");
  CHECK(covered >= 0.8 * total);  // 46 of 54 (85%) today: FP8 and the 405B runs fall outside
  // The triangular draw spans the band and is monotone.
  CHECK(StepTimeErrorFactor(1e-12) == doctest::Approx(1 / (1 + kStepModelError.min)).epsilon(1e-4));
  CHECK(StepTimeErrorFactor(1 - 1e-12) == doctest::Approx(1 / (1 + kStepModelError.max)).epsilon(1e-4));
  CHECK(StepTimeErrorFactor(0.3) > StepTimeErrorFactor(0.7));
}

TEST_CASE("evidence: the document lists every run and, for a scenario, its nearest runs and error band") {
  const StepEvidence& e = Evidence();
  Scenario s = test::MustParse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 64, "framework": "fsdp"},
                                   "workload": {"params": 13e9}})");
  const json doc = json::parse(EvidenceToJson(e, &ServingValidation(), &s));
  CHECK(doc["training"]["runs"].size() == e.runs.size());
  CHECK(doc["training"]["summary"]["held_out_mean_abs_error"].get<double>() == doctest::Approx(e.held_out_mae));
  const json& nearest = doc["scenario"]["nearest_runs"];
  // The runs the headline's band names (one notion of "similar" on every surface, 2026-12-07), in its order.
  const EvidenceBand band = EvidenceBandFor(s, true);
  REQUIRE(band.runs >= 5);
  REQUIRE(nearest.size() == static_cast<std::size_t>(band.runs));
  for (int i = 0; i < band.runs; ++i) CHECK(nearest[static_cast<std::size_t>(i)]["id"] == band.run_ids[static_cast<std::size_t>(i)]);
  CHECK(doc["scenario"]["error_band"]["low"].get<double>() == band.low);
  CHECK(doc["scenario"]["error_band"]["high"].get<double>() == band.high);
  // The nearest run: MPT-13B under FSDP on 64 H100 (llm-foundry), the same size, GPU count and framework.
  CHECK(nearest[0]["id"] == "llmfoundry-13b-h100-64");
  for (const json& r : nearest) CHECK(r["arch"] == "Hopper");
  CHECK(doc["scenario"]["error_band"]["low"].get<double>() <= doc["scenario"]["error_band"]["high"].get<double>());
}

TEST_CASE("evidence: an FP8 training scenario's nearest runs are FP8 runs; a serving scenario's are serving measurements") {
  const StepEvidence& e = Evidence();
  Scenario fp8 = test::MustParse(R"({"cluster": {"gpu": "h100-sxm", "gpus": 64, "framework": "nemo"},
                                     "workload": {"params": 70e9, "precision": "fp8"}})");
  const ScenarioEvidence at = EvidenceAt(e, &ServingValidation(), fp8);
  REQUIRE(at.similar);
  REQUIRE(static_cast<int>(at.runs.size()) == EvidenceBandFor(fp8, true).runs);
  CHECK_FALSE(at.serving);
  // NeMo's FP8 table has Llama 2 and Llama 3 70B on 64 H100: the generation as the fit names it ("Hopper-fp8"),
  // not "Hopper" (which matched none of them before).
  const std::string first = e.runs[static_cast<std::size_t>(at.runs[0])].id;
  CHECK((first == "nemo-llama2-70b-64" || first == "nemo-llama3-70b-64"));
  for (int i : at.runs) CHECK(e.runs[static_cast<std::size_t>(i)].precision == "fp8");

  const ServingEvidence& serving = ServingValidation();
  Scenario chat = test::MustParse(R"({"workload": {"kind": "inference", "model": "llama-3.1-70b"},
                                      "cluster": {"gpu": "h100-sxm", "gpus": 2}, "parallel": {"tensor_parallel": 2}})");
  const ScenarioEvidence here = EvidenceAt(e, &serving, chat, 3);
  REQUIRE(here.serving);
  REQUIRE(here.similar);
  const EvidenceBand chat_band = EvidenceBandFor(chat, true);
  REQUIRE(static_cast<int>(here.runs.size()) == chat_band.runs);
  double lo = 1e9, hi = -1e9, sum = 0;
  for (std::size_t k = 0; k < here.runs.size(); ++k) {
    const ServingEvidenceRun& r = serving.runs[static_cast<std::size_t>(here.runs[k])];
    CHECK(r.id == chat_band.run_ids[k]);
    lo = std::min(lo, r.error), hi = std::max(hi, r.error), sum += r.error;
  }
  // The band's figures (its table rounds each error to 1e-4): the headline's and this view's are one.
  CHECK(here.low == chat_band.low);
  CHECK(here.high == chat_band.high);
  CHECK(here.low == doctest::Approx(lo).epsilon(1e-3));
  CHECK(here.high == doctest::Approx(hi).epsilon(1e-3));
  CHECK(here.mean == doctest::Approx(sum / static_cast<double>(here.runs.size())).epsilon(1e-3));
  const json doc = json::parse(EvidenceToJson(e, &serving, &chat));
  CHECK(doc["scenario"]["kind"] == "inference");
  CHECK(doc["scenario"]["nearest_serving_runs"].size() == static_cast<std::size_t>(chat_band.runs));
  CHECK(doc["scenario"]["model"] == "llama-3.1-70b");
}

namespace {
const char* const kGpt3On64 = R"({
  "cluster": {"gpu": "a100-sxm-80gb", "gpus": 64, "node_network_gbps": 1600},
  "workload": {"params": 175e9, "tokens": 300e9, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048,
               "vocab": 51200},
  "parallel": {"global_batch": 64, "tensor_parallel": 8, "pipeline_parallel": 8, "pipeline_interleave": 3,
               "sequence_parallel": true, "recompute": "selective", "zero_stage": 0}})";
}  // namespace

TEST_CASE("plan: a layout predicted above the best measured MFU of its GPU class is flagged and ranked at that MFU") {
  const Scenario s = test::MustParse(kGpt3On64);
  auto search = std::make_unique<PlanSearch>();
  REQUIRE(PlanBegin(s, PlanObjective::kTime, 10, search.get()).empty());
  PlanRun(search.get());
  REQUIRE(search->count == 10);
  int flagged = 0;
  double last = 0;
  for (int i = 0; i < search->count; ++i) {
    const StepTime& t = search->best[i].step;
    CAPTURE(i);
    CHECK(t.best_measured_mfu == doctest::Approx(0.6911));  // torchtune, Llama 3.2 3B full fine-tune on one A100 (calibration.cpp; issue 46)
    CHECK(t.beyond_evidence == (t.mfu > 0.6911));
    CHECK(t.mfu_low < t.mfu);
    CHECK(t.mfu_high > t.mfu);
    const double ranked = DoubtedSeconds(t.seconds, t.mfu, t.best_measured_mfu);
    CHECK(ranked >= last);  // ranked by the doubted time
    CHECK(ranked >= t.seconds);
    last = ranked;
    flagged += t.beyond_evidence ? 1 : 0;
  }
  MESSAGE("GPT-3 175B on 64 A100: plan 1 predicted MFU " << search->best[0].step.mfu << ", " << flagged
                                                         << " of 10 plans beyond the evidence");
  // Worked by hand: a 10 s step predicted at 70% MFU where 64% was the best measured is ranked as 10 x 70/64.
  CHECK(DoubtedSeconds(10, 0.70, 0.6414) == doctest::Approx(10 * 0.70 / 0.6414));
  CHECK(DoubtedSeconds(10, 0.50, 0.6414) == 10);
  const nlohmann::json doc = nlohmann::json::parse(PlanToJson(*search));
  CHECK(doc["plans"][0]["step"].contains("mfu_low"));
  CHECK(doc["plans"][0]["step"].contains("beyond_evidence"));
  // The result document carries the band too.
  const Result r = Evaluate(s);
  REQUIRE(r.step.ok());
  const nlohmann::json result = nlohmann::json::parse(ResultToJson(s, r));
  CHECK(result["step"]["mfu_high"].get<double>() > result["step"]["mfu_low"].get<double>());
  CHECK(result["step"].contains("beyond_evidence"));
}

TEST_CASE("Monte Carlo: with a predicted MFU each trial draws the model error, widening P10-P90; seeded") {
  Scenario s = test::MustParse(kGpt3On64);
  s.reliability.gpu_mtbf_hours = 0;  // no failures: the spread is the model's error alone
  MonteCarlo predicted(s, 7, 4000);
  REQUIRE(predicted.ok());
  predicted.Run(4000);
  const McSummary a = predicted.Summary();
  CHECK(a.model_error_sampled);
  const double mid = a.closed_form_hours;
  MESSAGE("P10 " << a.time_hours.p10 << " h, P50 " << a.time_hours.p50 << " h, P90 " << a.time_hours.p90
                 << " h; prediction " << mid << " h");
  CHECK(a.time_hours.p90 > mid * 1.04);  // the model has been up to 11.7% fast
  CHECK(a.time_hours.p10 < mid * 1.0);   // and up to 6.6% slow
  CHECK(a.time_hours.max <= mid / (1 + kStepModelError.min) * (1 + 1e-9));
  CHECK(a.time_hours.min >= mid / (1 + kStepModelError.max) * (1 - 1e-9));
  MonteCarlo again(s, 7, 4000);
  again.Run(4000);
  CHECK(again.Summary().time_hours.p90 == a.time_hours.p90);  // deterministic for a seed
  // A given MFU carries no model error: no spread without failures.
  const Result r = Evaluate(s);
  s.cluster.mfu = r.mfu;
  MonteCarlo given(s, 7, 1000);
  given.Run(1000);
  const McSummary b = given.Summary();
  CHECK_FALSE(b.model_error_sampled);
  CHECK(b.time_hours.p90 == doctest::Approx(b.time_hours.p10));
}

TEST_CASE("evidence: serving measurements (time between tokens, time to first token) against the serving model") {
  const ServingEvidence e = ComputeServingEvidence(test::ReadFile(test::DataPath("../../assets/validation/serving_runs.json")));
  REQUIRE(e.error.empty());
  std::printf("\n%-42s %-19s %5s %8s %10s %10s %8s\n", "serving run", "metric", "TP", "conc.", "measured", "predicted", "error");
  for (const ServingEvidenceRun& r : e.runs)
    std::printf("%-42s %-19s %5lld %8lld %10.2f %10.2f %+7.1f%%\n", r.id.c_str(), r.metric.c_str(),
                static_cast<long long>(r.tensor_parallel), static_cast<long long>(r.concurrency), r.measured, r.predicted,
                r.error * 100);
  std::printf("%zu serving measurements: mean absolute error %.1f%%, mean %+.1f%%\n\n", e.runs.size(), e.mean_abs_error * 100,
              e.mean_error * 100);
  CHECK(e.runs.size() >= 93);
  // Guards at today's errors, per kind of model (they fail if predictions on these published figures get worse):
  // dense models 12.0% on 75 measurements (TensorRT-LLM's throughput tables 8.9% on 60; Splitwise's vLLM of 2023
  // -54..-67% on time between tokens at batch 1), mixtures of experts 15.4% on 18 (TensorRT-LLM's Qwen3-235B-A22B
  // rows, RTP-LLM's DeepSeek-V3 -29%; 27.1% before the experts' GEMMs ran at their own size, and the guard below
  // fails so). The experts' thin GEMMs use the training fit's tile overhead, nothing fitted here, and follow it:
  // 13.1% at 192 (60 training runs), 14.4% at 128 (94), 15.4% at 96 (104, with the DGX Cloud recipes). Dense read 10.8% on 71
  // before Splitwise's Table IV was read right (2026-12-05). TensorRT-LLM's throughput over the whole run (its stated
  // request counts: the last, smaller wave included) took dense 11.8% -> 11.2% and MoE 13.8% -> 11.9%; without it the
  // guards below fail. Splitwise's engine run eager as it was (inference.cuda_graphs false) took dense 11.2% -> 9.5%;
  // the kernel boundaries (30 us per layer) with the engine overhead at 1 ms (both from Hazy Research's Llama-3.2-1B
  // measurements, not from these) took dense 9.5% -> 7.9% and MoE 11.9% -> 11.1%; without them the guards fail.
  // Issue 46: the kernels MLA and the MoE routing add to a layer (kernel boundaries per kernel, counted from the
  // engines' code, not fitted) took MoE 11.2% -> 10.3% on these 21 (dense unchanged).
  // GPUStack's DeepSeek-R1 runs on 8 H200 (issue 46, rule fixed before any was predicted) are guarded apart: the model
  // reads them 148% held out at first (144% with the MLA / MoE kernels; 112% once SGLang's rows ran their experts
  // tensor-parallel as that engine does with --enable-dp-attention and no --ep-size, inference.moe_split tensor, set
  // after the first predictions and said so in the source): their prefill runs at ~16-18K prompt tokens/s on the
  // node at every length, 1.4-3x slower than predicted (the block-scaled FP8 grouped GEMMs of the experts are not
  // modelled), and the 128-in / 4-out runs take 6-22 ms a request that neither the request path nor the GPU work
  // explains. 97.5% once a prompt's attention ran at the KV cache's precision (bf16 beside the fp8 weights), not the
  // weights' fp8 peak (32K: +87 / +143% -> +48 / +79%); NIM's fp8 Llama 3.3 70B rows moved with it (TTFT -4.6 -> -0.8%,
  // time between tokens at 25 and 50 sequences +11.4 / +8.1 -> +13.3 / +10.3%), the other 102 stay at 8.5%.
  // 56.6% once SGLang's four rows ran as that engine runs GPUStack's command (SGLang turns DP attention off at its
  // default DP size of 1, and the command gives no --dp-size: tensor-parallel attention and experts, as vLLM; set after
  // their errors were seen, said so in the source): +79 / +184 / +149 / +92% -> +42 / +43 / +21 / +29%.
  // 50.8% once vLLM's and SGLang's separate sum of each token's k expert outputs was counted (inference.fused_moe_finalize
  // false, their default; TensorRT-LLM's rows fuse it, said in its source): +42 / +43 / +21 / +29% (SGLang) and
  // +48 / +54 / +32 / +193% (vLLM) -> +36 / +37 / +16 / +22% and +42 / +47 / +26 / +184%.
  // 48.3% once DeepSeek's own FP8 checkpoint was read with its 128 x 128 block scales (inference.weight_scaling block,
  // set on these rows after their errors were seen, said in the source): at decode batch sizes the engines' block-FP8
  // kernels read a GEMM's weights through ceil(n / 128) thread blocks (4.2 ms a step at one sequence); time between
  // tokens at concurrency 4 -45 -> -30%, the throughput rows 1-2 points.
  // 42.7% once the engines' quantisation of each block-FP8 GEMM's input (a kernel of its own, and its bytes; counted
  // from vLLM's and SGLang's code, no row changed) was modelled: time between tokens -30 -> -20%, throughput 4-6 points.
  // The guard fails if they get worse.
  double dense = 0, moe = 0, dense_n = 0, moe_n = 0, r1 = 0, r1_n = 0, before = 0, before_n = 0;
  for (const ServingEvidenceRun& r : e.runs) {
    const ModelSpec* m = FindModel(r.model.c_str());
    REQUIRE(m != nullptr);
    if (r.source == "gpustack") {
      r1 += std::fabs(r.error), r1_n += 1;
      continue;
    }
    before += std::fabs(r.error), before_n += 1;
    (m->experts > 0 ? moe : dense) += std::fabs(r.error);
    (m->experts > 0 ? moe_n : dense_n) += 1;
  }
  std::printf("dense models: %.0f measurements, mean absolute error %.1f%%; mixtures of experts: %.0f, %.1f%%; "
              "GPUStack's DeepSeek-R1 on 8 H200: %.0f, %.1f%%\n", dense_n, 100 * dense / dense_n, moe_n, 100 * moe / moe_n,
              r1_n, 100 * r1 / r1_n);
  CHECK(dense / dense_n <= 0.085);
  CHECK(moe / moe_n <= 0.11);
  CHECK(before_n == 102);
  CHECK(before / before_n <= 0.087);  // 8.5% on the 102 of the other sources (8.7% before the MLA / MoE kernels)
  CHECK(r1_n == 9);
  CHECK(r1 / r1_n <= 0.45);  // 42.7% (112% before the prefill attention ran at the KV cache's precision, 97.5% before
                              // SGLang's rows ran without DP attention, 56.6% before the experts' separate sum, 50.8%
                              // before the block scales, 48.3% before their inputs' quantisation)
  // Per metric. Time to first token at concurrency 1 is the request's path to the engine and its prefill: 13.6% on
  // 6 with the request path (2.5 ms + 2.2 us per prompt token, fitted on another source: vLLM 0.19 on MI300X), 17.3%
  // without it, and the guard fails so.
  std::printf("%s\n", ServingByMetricText(e).c_str());
  // Counted by hand from the runs, against the evidence's own figures.
  int itl = 0, ttft = 0, e2e = 0, throughput = 0;
  double ttft_sum = 0;
  for (const ServingEvidenceRun& r : e.runs) {
    itl += r.metric == "itl_ms";
    throughput += r.metric == "output_tokens_per_s";
    e2e += r.metric == "latency_ms";
    if (r.metric == "ttft_ms") ++ttft, ttft_sum += std::fabs(r.error);
  }
  CHECK(e.itl.measurements == itl);
  CHECK(e.throughput.measurements == throughput);
  CHECK(e.e2e.measurements == e2e);
  CHECK(e.latency.measurements == itl + ttft + e2e);
  CHECK(itl + ttft + e2e + throughput == static_cast<int>(e.runs.size()));
  REQUIRE(e.ttft.measurements == 6);
  CHECK(e.ttft.mean_abs_error == doctest::Approx(ttft_sum / 6).epsilon(1e-12));
  CHECK(e.ttft.mean_abs_error <= 0.13);  // 12.5% with the kernel boundaries, 13.6% without
  // Per source, counted by hand: each source's runs and mean absolute error; together they are every run.
  std::printf("%s\n", ServingBySourceText(e).c_str());
  REQUIRE(e.by_source.size() == e.sources.size());
  int in_sources = 0;
  double weighted = 0;
  for (const auto& s : e.by_source) {
    int n = 0;
    double sum = 0;
    for (const ServingEvidenceRun& r : e.runs)
      if (r.source == s.first) ++n, sum += std::fabs(r.error);
    CAPTURE(s.first);
    CHECK(s.second.measurements == n);
    CHECK(s.second.mean_abs_error == doctest::Approx(sum / n).epsilon(1e-12));
    in_sources += n;
    weighted += s.second.mean_abs_error * n;
  }
  CHECK(in_sources == static_cast<int>(e.runs.size()));
  CHECK(weighted / in_sources == doctest::Approx(e.mean_abs_error).epsilon(1e-12));
  // Issue 46's target for every serving measurement together (8%) is stated beside the figure, with its verdict read
  // from the figure: the summary says "not met" at today's 11.3%, and "met" for the same evidence at 8% or below.
  const std::string summary = ServingSummaryText(e);
  std::printf("%s\n", summary.c_str());
  CHECK(summary.find("(target 8.0% all together: " + std::string(e.mean_abs_error <= 0.08 ? "met" : "not met") + ")") !=
        std::string::npos);
  ServingEvidence within = e;
  within.mean_abs_error = 0.08;
  CHECK(ServingSummaryText(within).find("(target 8.0% all together: met)") != std::string::npos);
  within.mean_abs_error = 0.0801;
  CHECK(ServingSummaryText(within).find("(target 8.0% all together: not met)") != std::string::npos);
  // Each metric's line says when it is above issue 26's 15% (2026-12-07: "time between tokens 15.8% on 11" stood
  // under "target 15.0% each" without a word); at 15.0% it is within.
  ServingEvidence metrics = e;
  metrics.itl.mean_abs_error = 0.158;
  metrics.ttft.mean_abs_error = 0.15;
  const std::string line = ServingByMetricText(metrics);
  CHECK(line.find("time between tokens 15.8% on " + std::to_string(metrics.itl.measurements) + " (not met)") != std::string::npos);
  CHECK(line.find("time to first token 15.0% on " + std::to_string(metrics.ttft.measurements) + ",") != std::string::npos);
}

// Issue 26's serving target, met: 12.6% on 93 measurements from 4 sources (dense models 12.0%: TensorRT-LLM's
// throughput tables 8.9%, the NIM rows 9.5%, Splitwise's vLLM of 2023 37.6% (tens of ms per step of that engine's
// host overhead, not modelled); mixtures of experts 15.4%, 13.1% before the training refits of 2026-12-05 moved the
// tile overhead the experts share, 192 -> 96). It read 14.1% on 89 until 2026-12-05, then 15.1% on 93
// once Splitwise's Table IV was read right (its coding column had been entered as BLOOM-176B at the
// conversation's sizes; its TTFT row was added) and a request's own prefill left the time between its tokens at
// concurrency 1; the routed experts' GEMMs at their own size (with the training fit's tile overhead) brought it to
// 12.4%, the request's path to the engine (fitted on another source) to 12.2%, the training refits to 12.6%.
// Nothing is fitted on them; one
// reading of a source (the attention split of Qwen3's rows) was taken after its errors were seen. vLLM's latency
// tests (9 batches of 8, end to end) joined on 2026-12-05: 12.2% on 102 from 5 sources; 11.4% with TensorRT-LLM's
// runs read over their stated request counts; 10.0% with Splitwise's vLLM described as it ran (eager, no CUDA graphs).
// NOT MET since 2026-12-06 (issue 46): GPUStack's nine DeepSeek-R1 runs on 8 H200 joined, by a rule fixed before
// any was predicted, and read +36..+262% (throughput) and -64% (time between tokens at concurrency 4) at first;
// +34..+199% and -47% with the MLA / MoE kernels and SGLang's tensor-parallel experts: 16.9% on 111 from 6 sources
// (8.5% on the other 102); +32..+184% and -47% (15.7% on 111) with the prefill attention at the KV cache's precision.
// They stay in (no run is dropped once its error is known); the guard on the other sources is in the test above.
// MET AGAIN (2026-12-06 night): 12.4% on 111 once SGLang's rows ran as the engine ran them (no DP attention at its
// default DP size of 1; +21..+43% and +193% / -47% on vLLM's 128/4 and time between tokens).
TEST_CASE("evidence: serving held-out mean absolute error at most 15% (issue 26 target)") {
  CHECK(ServingValidation().mean_abs_error <= kServingHeldOutTarget);
}

// The same target read per metric: throughput 7.8% on 77, latency 10.9% on 25 (9.0% and 12.9% before the kernel
// boundaries). Latency read 18.5% until the
// engine of Splitwise's runs was described as it ran (vLLM of 2023 had no CUDA graphs: inference.cuda_graphs false,
// its host time per layer from another measurement, vLLM PR #1440); its time between tokens at batch 1 went from
// -54..-67% to -4..-48% (the A100 system's slower host CPU is not modelled). The guard fails without it (18.5%).
// NOT MET since 2026-12-06 (issue 46, GPUStack's DeepSeek-R1 runs, above): throughput 18.3% on 85, time between
// tokens 17.8% on 11; latency 12.5% on 26 still within. With the prefill attention at the KV cache's precision:
// throughput 16.7%, time between tokens 18.2% (NIM's fp8 70B rows at 25 and 50 sequences), latency 12.5%. MET AGAIN
// once SGLang's rows ran without DP attention (as that engine runs GPUStack's command): throughput 12.4% on 85, latency
// 12.5% on 26. Time between tokens, guarded at 16% (15.0% on 10) until GPUStack's row at concurrency 4 joined (-47%;
// 17.8% on 11, when this test was may_fail), is guarded at its figure now, 18.2%: it fails if it gets worse.
TEST_CASE("evidence: serving throughput and latency each held out at most 15% (issue 26 target)") {
  const ServingEvidence& e = ServingValidation();
  CHECK(e.throughput.mean_abs_error <= kServingHeldOutTarget);
  CHECK(e.latency.mean_abs_error <= kServingHeldOutTarget);
  CHECK(e.itl.mean_abs_error <= 0.17);  // 16.7% on 11 (15.0% on 10 before GPUStack's row; 18.2% before DeepSeek's
                                        // block scales; 31.5% with Splitwise's engine in CUDA-graph mode)
}

// A framework's GEMM rate is fitted only where a rate in 0.4-1.4 of Megatron-LM's zeroes its runs' mean error.
// DeepSeek-V3 (arXiv:2412.19437) is bound by its expert all-to-all, overlapped with compute: a faster GEMM only
// exposes more of it, so no rate zeroes its +3.6%. Its framework (other) must not take a bound of the range as a
// measured FP8 rate, which every FP8 scenario on Hopper of that framework would then use.
TEST_CASE("evidence: no fitted GEMM rate where the rate cannot explain the runs (DeepSeek-V3, all-to-all bound)") {
  const StepEvidence& e = Evidence();
  REQUIRE(e.error.empty());
  const EvidenceRun* ds = nullptr;
  for (const EvidenceRun& r : e.runs)
    if (r.id == "deepseek-v3-pretrain-2048") ds = &r;
  REQUIRE(ds != nullptr);
  for (int i = 0; i < e.in_sample.kernels.count; ++i)
    CHECK_FALSE((e.in_sample.kernels.rows[i].framework == Framework::kOther &&
                 std::string(e.in_sample.kernels.rows[i].arch) == "Hopper-fp8"));
  CHECK(ds->error == doctest::Approx(ds->held_out_error).epsilon(1e-9));  // the same constants in and out
  CHECK(std::fabs(ds->held_out_error) < 0.10);  // 1,543 tokens/s per H800, from its published 180K GPU hours / 1e12 tokens
  // No FP8 row of its own: its BF16 rate on Hopper (Llama 3's) times the FP8 share NeMo and MaxText measure there.
  KernelBorrow how = KernelBorrow::kOwn;
  const double other_fp8 = LookupKernelEfficiency(MeasuredKernelEfficiency(), Framework::kOther, "Hopper-fp8", &how);
  CHECK(how == KernelBorrow::kSixteenBit);
  CHECK(other_fp8 < LookupKernelEfficiency(MeasuredKernelEfficiency(), Framework::kOther, "Hopper"));
}

// Issue 46: FP8 on a generation where a framework has no FP8 runs: its 16-bit rate there times the FP8 share of the
// frameworks that run both there, weighted by the smaller run count of each pair. Worked by hand:
// share = (0.85 / 1.00 x 10 + 0.90 / 1.00 x 6) / 16 = 0.86875; fsdp's Hopper-fp8 = 0.80 x 0.86875 = 0.695.
TEST_CASE("kernel efficiency: FP8 without FP8 runs borrows the 16-bit rate times the generation's FP8 share") {
  KernelEfficiencyTable t;
  t.Set(Framework::kNemo, "Hopper", 1.00, 10);
  t.Set(Framework::kNemo, "Hopper-fp8", 0.85, 20);
  t.Set(Framework::kMaxtext, "Hopper", 1.00, 6);
  t.Set(Framework::kMaxtext, "Hopper-fp8", 0.90, 6);
  t.Set(Framework::kFsdp, "Hopper", 0.80, 4);
  t.Set(Framework::kFsdp, "Ampere", 0.95, 4);
  KernelBorrow how = KernelBorrow::kOwn;
  CHECK(LookupKernelEfficiency(t, Framework::kFsdp, "Hopper-fp8", &how) == doctest::Approx(0.695));
  CHECK(how == KernelBorrow::kSixteenBit);
  // Its family's 16-bit rate when it has none of its own (torchtitan: PyTorch FSDP's family).
  CHECK(LookupKernelEfficiency(t, Framework::kTorchtitan, "Hopper-fp8", &how) == doctest::Approx(0.695));
  // A generation where no framework runs both: no share, so the older rule (its own FP8 elsewhere, else 1).
  CHECK(LookupKernelEfficiency(t, Framework::kFsdp, "Blackwell-fp8", &how) == doctest::Approx(1.0));
  CHECK(how == KernelBorrow::kMegatron);
  // 16-bit lookups are untouched.
  CHECK(LookupKernelEfficiency(t, Framework::kFsdp, "Hopper") == doctest::Approx(0.80));
}
