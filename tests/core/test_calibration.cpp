// Calibration of the step-time model (issue 18): every measured training step in tests/data/measured_runs.json,
// entered as a scenario (workload shape, cluster, parallel layout), predicted by EstimateStepTime() and compared
// with the measured step time. Prints the per-run error table and holds the three error bounds; also holds the
// model-error band (calibration.h) equal to the residuals it was derived from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "layout.h"
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
