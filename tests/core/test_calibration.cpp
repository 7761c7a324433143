// Calibration of the step-time model (issue 18): every measured training step in tests/data/measured_runs.json,
// entered as a scenario (workload shape, cluster, parallel layout), predicted by EstimateStepTime() and compared
// with the measured step time. Prints the per-run error table and holds the three error bounds; also holds the
// model-error band (calibration.h) equal to the residuals it was derived from.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibration.h"
#include "catalog.h"
#include "evaluate.h"
#include "layout.h"
#include "montecarlo.h"
#include "plan.h"
#include "result_json.h"
#include "steptime.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

struct RunResult {
  std::string id, gpu;
  bool excluded = false;  // printed, not held to the bounds (the run says why)
  std::int64_t gpus = 0;
  double predicted_seconds = 0, measured_seconds = 0, error = 0, predicted_mfu = 0, measured_mfu = 0;
  StepTime step;
};

// The run as a gpucost scenario document (the public schema), so the calibration goes through the field table.
json ScenarioDoc(const json& data, const json& run) {
  const json& hw = data["hardware"][run["hardware"].get<std::string>()];
  json workload = data["shapes"][run["shape"].get<std::string>()];
  workload["precision"] = run["precision"];
  workload["tokens"] = 1e9;
  json parallel = run["layout"];
  const std::int64_t gpus = parallel["tensor"].get<std::int64_t>() * parallel["pipeline"].get<std::int64_t>() *
                            parallel["data"].get<std::int64_t>() * parallel.value("context", std::int64_t{1});
  json p = {{"tensor_parallel", parallel["tensor"]},
            {"pipeline_parallel", parallel["pipeline"]},
            {"data_parallel", parallel["data"]},
            {"global_batch", parallel["global_batch"]},
            {"micro_batch", parallel["micro_batch"]},
            {"pipeline_interleave", parallel.value("interleave", 1)},
            {"recompute", parallel.value("recompute", std::string("none"))},
            {"sequence_parallel", parallel.value("sequence_parallel", false)},
            {"zero_stage", parallel.value("zero_stage", 0)},
            {"overlap_comm", parallel.value("overlap_comm", true)},
            {"context_parallel", parallel.value("context", 1)},
            {"flash_attention", parallel.value("flash_attention", false)}};
  return {{"workload", workload},
          {"cluster", {{"gpu", hw["gpu"]}, {"gpus", gpus}, {"gpus_per_node", hw["gpus_per_node"]},
                       {"node_network_gbps", hw["node_network_gbps"]}}},
          {"parallel", p}};
}

// Measured seconds per step: given, or from TFLOP/s per GPU under the source's FLOP convention.
double MeasuredSeconds(const json& run, const ModelShape& m, const Layout& l, const StepTime& t) {
  if (run.contains("seconds")) return run["seconds"].get<double>();
  const double tflops = run["tflops_per_gpu"].get<double>() * 1e12 * static_cast<double>(l.gpus());
  const std::string convention = run["flops_convention"].get<std::string>();
  if (convention == "model") return t.model_flops / tflops;
  REQUIRE(convention == "megatron_full_recompute");
  // Narayanan et al. 2021 eq. 3: 96 B s L h^2 (1 + s / 6h + V / 16 L h).
  const double B = static_cast<double>(l.global_batch), s = static_cast<double>(m.seq_len);
  const double L = static_cast<double>(m.layers), h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
  return 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h)) / tflops;
}

std::vector<RunResult> RunAll() {
  const json data = json::parse(test::ReadFile(test::DataPath("measured_runs.json")));
  std::vector<RunResult> out;
  for (const json& run : data["runs"]) {
    const Scenario s = test::MustParse(ScenarioDoc(data, run).dump());
    EffectiveHardware hw;
    REQUIRE(ResolveHardware(s, &hw));
    const ModelShape shape = ShapeFromScenario(s);
    const Layout layout = LayoutFromScenario(s);
    RunResult r;
    r.id = run["id"].get<std::string>();
    r.excluded = run.contains("excluded");
    r.gpu = s.cluster.gpu;
    r.gpus = layout.gpus();
    r.step = EstimateStepTime(shape, layout, StepHardwareFor(s, hw));
    CAPTURE(r.id);
    REQUIRE(r.step.ok());
    r.predicted_seconds = r.step.seconds;
    r.measured_seconds = MeasuredSeconds(run, shape, layout, r.step);
    r.error = r.predicted_seconds / r.measured_seconds - 1;
    r.predicted_mfu = r.step.mfu;
    r.measured_mfu = r.step.mfu * r.predicted_seconds / r.measured_seconds;
    out.push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("calibration: every measured run within 12%, mean absolute error <= 5%, mean signed error within 3%") {
  const json data = json::parse(test::ReadFile(test::DataPath("measured_runs.json")));
  const std::vector<RunResult> runs = RunAll();
  double sum_abs = 0, sum = 0, worst = 0;
  int held = 0;
  std::printf("\n%-28s %6s %11s %11s %8s %7s %7s  %s\n", "run", "GPUs", "predicted s", "measured s", "error",
              "MFU", "meas.", "(compute/memory/recompute/comm/bubble/optimizer s)");
  for (const RunResult& r : runs) {
    const StepTime& t = r.step;
    std::printf("%-28s %6lld %11.3f %11.3f %+7.1f%% %6.1f%% %6.1f%%  (%.2f/%.2f/%.2f/%.2f/%.2f/%.2f)%s\n", r.id.c_str(),
                static_cast<long long>(r.gpus), r.predicted_seconds, r.measured_seconds, r.error * 100,
                r.predicted_mfu * 100, r.measured_mfu * 100, t.compute_seconds, t.memory_bound_seconds,
                t.recompute_seconds, t.exposed_comm_seconds, t.bubble_seconds, t.optimizer_seconds,
                r.excluded ? "  excluded" : "");
    if (r.excluded) continue;
    ++held;
    sum_abs += std::fabs(r.error);
    sum += r.error;
    worst = std::max(worst, std::fabs(r.error));
  }
  const double n = static_cast<double>(held);
  std::printf("%d runs held to the bounds: mean absolute error %.2f%%, mean signed error %+.2f%%, worst %.2f%%\n\n", held,
              sum_abs / n * 100, sum / n * 100, worst * 100);
  const json& targets = data["targets"];
  CHECK(held >= 20);
  CHECK(sum_abs / n <= targets["mean_abs_error"].get<double>());
  CHECK(std::fabs(sum / n) <= targets["mean_signed_error"].get<double>());
  CHECK(worst <= targets["max_abs_error"].get<double>());
}

TEST_CASE("calibration: the model-error band and the best measured MFUs are the residuals of the held runs") {
  const std::vector<RunResult> runs = RunAll();
  double sum = 0, lo = 1, hi = -1, best_ampere = 0, best_hopper = 0;
  int n = 0;
  for (const RunResult& r : runs) {
    if (r.excluded) continue;
    sum += r.error, lo = std::min(lo, r.error), hi = std::max(hi, r.error), ++n;
    const std::string arch = FindGpu(r.gpu.c_str())->arch;
    if (arch == "Ampere") best_ampere = std::max(best_ampere, r.measured_mfu);
    if (arch == "Hopper") best_hopper = std::max(best_hopper, r.measured_mfu);
  }
  const double mean = sum / n;
  double var = 0;
  for (const RunResult& r : runs)
    if (!r.excluded) var += (r.error - mean) * (r.error - mean);
  const double sd = std::sqrt(var / n);
  MESSAGE("step-time error over " << n << " runs: mean " << mean << ", sd " << sd << ", min " << lo << ", max " << hi
                                  << "; best measured MFU Ampere " << best_ampere << ", Hopper " << best_hopper);
  CHECK(kStepModelError.runs == n);
  CHECK(std::fabs(kStepModelError.mean - mean) < 0.0005);
  CHECK(std::fabs(kStepModelError.sd - sd) < 0.0005);
  CHECK(std::fabs(kStepModelError.min - lo) < 0.0005);
  CHECK(std::fabs(kStepModelError.max - hi) < 0.0005);
  CHECK(std::fabs(BestMeasuredMfu("Ampere") - best_ampere) < 0.002);
  CHECK(std::fabs(BestMeasuredMfu("Hopper") - best_hopper) < 0.002);
  CHECK(BestMeasuredMfu("Blackwell") == 0);  // no measured run: no evidence bound
  // Every held run's measured MFU lies inside its prediction's band.
  for (const RunResult& r : runs) {
    if (r.excluded) continue;
    CAPTURE(r.id);
    CHECK(r.measured_mfu >= r.step.mfu_low * (1 - 1e-9));
    CHECK(r.measured_mfu <= r.step.mfu_high * (1 + 1e-9));
  }
  // The triangular draw spans the band and is monotone.
  CHECK(StepTimeErrorFactor(1e-12) == doctest::Approx(1 / (1 + kStepModelError.min)).epsilon(1e-4));
  CHECK(StepTimeErrorFactor(1 - 1e-12) == doctest::Approx(1 / (1 + kStepModelError.max)).epsilon(1e-4));
  CHECK(StepTimeErrorFactor(0.3) > StepTimeErrorFactor(0.7));
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
    CHECK(t.best_measured_mfu == doctest::Approx(0.563));
    CHECK(t.beyond_evidence == (t.mfu > 0.563));
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
  CHECK(flagged >= 1);  // the model's optimum lies above what A100s have been measured to reach
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
