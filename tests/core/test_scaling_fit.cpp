#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "training/scaling_fit.h"

using namespace gpucost;

namespace {

// Points of a known law at the given GPU counts, each throughput scaled by (1 + noise[i]).
int MakePoints(double lambda, double sigma, double kappa, const std::int64_t* gpus, int count,
               ScalingPointInputs* out, const double* noise = nullptr) {
  for (int i = 0; i < count; ++i) {
    const double n = static_cast<double>(gpus[i]);
    out[i].gpus = gpus[i];
    out[i].tokens_per_second = lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)) * (1 + (noise ? noise[i] : 0));
  }
  return count;
}

}  // namespace

TEST_CASE("scaling fit: recovers Amdahl's law and prefers it when the USL adds nothing") {
  const std::int64_t gpus[] = {1, 2, 4, 8, 16};
  ScalingPointInputs p[5];
  const int n = MakePoints(1000, 0.05, 0, gpus, 5, p);
  const ScalingFit fit = FitScaling(p, n);
  REQUIRE(fit.ok());
  CHECK(fit.chosen == ScalingLaw::kAmdahl);
  CHECK(fit.amdahl.lambda_tokens_per_s == doctest::Approx(1000));
  CHECK(fit.amdahl.sigma == doctest::Approx(0.05));
  CHECK(fit.amdahl.rms_relative_error < 1e-9);
  CHECK(fit.peak_gpus == 0);
  CHECK(fit.min_gpus == 1);
  CHECK(fit.max_gpus == 16);
}

TEST_CASE("scaling fit: recovers the USL, chooses it over Amdahl and finds the throughput peak") {
  const std::int64_t gpus[] = {1, 4, 8, 16, 32, 64};
  ScalingPointInputs p[6];
  const int n = MakePoints(500, 0.02, 0.0005, gpus, 6, p);
  const ScalingFit fit = FitScaling(p, n);
  REQUIRE(fit.ok());
  CHECK(fit.chosen == ScalingLaw::kUsl);
  CHECK(fit.usl.sigma == doctest::Approx(0.02).epsilon(1e-6));
  CHECK(fit.usl.kappa == doctest::Approx(0.0005).epsilon(1e-6));
  CHECK(fit.peak_gpus == doctest::Approx(std::sqrt(0.98 / 0.0005)));
  CHECK(fit.amdahl.rms_relative_error > fit.usl.rms_relative_error);
  // Past the peak, more GPUs deliver less.
  CHECK(PredictScaling(fit, 128).tokens_per_second < PredictScaling(fit, 44).tokens_per_second);
}

TEST_CASE("scaling fit: noisy measurements give small residuals that are reported per point") {
  const std::int64_t gpus[] = {8, 16, 32, 64};
  const double noise[] = {0.02, -0.015, 0.01, -0.02};
  ScalingPointInputs p[4];
  const int n = MakePoints(3000, 0.01, 0, gpus, 4, p, noise);
  const ScalingFit fit = FitScaling(p, n);
  REQUIRE(fit.ok());
  CHECK(fit.best().rms_relative_error > 0.001);
  CHECK(fit.best().rms_relative_error < 0.03);
  double sum_sq = 0;
  for (int i = 0; i < n; ++i) sum_sq += fit.best().relative_error[i] * fit.best().relative_error[i];
  CHECK(std::sqrt(sum_sq / n) == doctest::Approx(fit.best().rms_relative_error));
  CHECK(fit.best().sigma == doctest::Approx(0.01).epsilon(0.5));
}

TEST_CASE("scaling fit: refuses one point or one GPU count; rejects bad points") {
  ScalingPointInputs p[3] = {{8, 1e5}, {8, 1.1e5}, {16, 0}};
  CHECK(FitScaling(p, 1).error == ScalingFitError::kTooFewPoints);
  CHECK(FitScaling(p, 0).error == ScalingFitError::kTooFewPoints);
  CHECK(FitScaling(p, 2).error == ScalingFitError::kOneGpuCount);
  CHECK(FitScaling(p, 3).error == ScalingFitError::kBadPoint);
  CHECK(std::string(ScalingFitErrorText(ScalingFitError::kTooFewPoints)).find("one point") != std::string::npos);
  CHECK(PredictScaling(FitScaling(p, 1), 64).tokens_per_second == 0);
}

TEST_CASE("scaling fit: two points fit Amdahl; extrapolation beyond the measured range is flagged") {
  ScalingPointInputs p[2] = {{8, 8 * 1000.0}, {64, 64 * 900.0}};
  const ScalingFit fit = FitScaling(p, 2);
  REQUIRE(fit.ok());
  CHECK(fit.chosen == ScalingLaw::kAmdahl);
  CHECK_FALSE(fit.usl.valid);
  CHECK(fit.amdahl.rms_relative_error < 1e-9);
  const ScalingPrediction inside = PredictScaling(fit, 32);
  CHECK_FALSE(inside.extrapolated);
  CHECK(inside.efficiency < 1);
  const ScalingPrediction beyond = PredictScaling(fit, 1024);
  CHECK(beyond.extrapolated);
  CHECK(beyond.extrapolation_factor == doctest::Approx(16));
  CHECK(beyond.efficiency < inside.efficiency);
  CHECK(PredictScaling(fit, 2).extrapolated);
}

TEST_CASE("scaling fit: superlinear data are clamped to linear scaling and reported") {
  ScalingPointInputs p[3] = {{1, 100}, {2, 210}, {4, 440}};
  const ScalingFit fit = FitScaling(p, 3);
  REQUIRE(fit.ok());
  CHECK(fit.superlinear);
  CHECK(fit.amdahl.sigma == 0);
  CHECK(PredictScaling(fit, 4).efficiency == doctest::Approx(1));
}

TEST_CASE("scaling.points: JSON round trip and errors naming the point") {
  const char* doc = R"({"scaling": {"points": [{"gpus": 8, "tokens_per_second": 80000},
                                              {"gpus": 64, "tokens_per_second": 576000}]}})";
  ScenarioParse p = ParseScenarioJson(doc);
  REQUIRE(p.ok());
  CHECK(p.scenario.scaling.point_count == 2);
  CHECK(p.scenario.scaling.points[1].gpus == 64);
  CHECK(p.scenario.scaling.points[1].tokens_per_second == 576000);
  ScenarioParse again = ParseScenarioJson(ScenarioToJson(p.scenario));
  REQUIRE(again.ok());
  CHECK(again.scenario.scaling.point_count == 2);
  CHECK(again.scenario.scaling.points[0].tokens_per_second == 80000);

  auto first_error = [](const char* text) {
    ScenarioParse bad = ParseScenarioJson(text);
    return bad.errors.empty() ? std::string() : bad.errors[0].Text();
  };
  CHECK(first_error(R"({"scaling": {"points": [{"gpus": 8, "tokens_per_second": 1}, {"gpus": 16, "tokens_per_second": 2},
                      {"gpus": 0.5, "tokens_per_second": 3}]}})")
            .rfind("scaling.points[2].gpus: must be an integer", 0) == 0);
  CHECK(first_error(R"({"scaling": {"points": [{"gpus": 8}]}})").rfind("scaling.points[0].tokens_per_second: missing", 0) == 0);
  CHECK(first_error(R"({"scaling": {"points": [{"gpus": 8, "tokens_per_second": 1e5}]}})")
            .rfind("scaling.points: at least two measured points", 0) == 0);
  CHECK(first_error(R"({"scaling": {"pts": []}})").rfind("scaling.pts: unknown key", 0) == 0);
  CHECK(first_error(R"({"scaling": [1]})").rfind("scaling: expected an object", 0) == 0);
}

namespace {

bool HasWarning(const Result& r, const char* code) {
  for (int i = 0; i < r.warnings.count; ++i)
    if (std::string(r.warnings.code[i]) == code) return true;
  return false;
}

}  // namespace

TEST_CASE("Evaluate: MFU from measured points at cluster.gpus, with a warning beyond the measured range") {
  Scenario s = DefaultScenario();  // 7B on 64 H100 (989.4 dense bf16 TFLOP/s)
  s.scaling.point_count = 2;
  s.scaling.points[0] = {8, 8 * 9000.0};
  s.scaling.points[1] = {32, 32 * 8500.0};
  Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.scaling_present);
  CHECK(r.mfu_source == MfuSource::kMeasured);
  const double x64 = r.scaling_fit.best().Throughput(64);
  CHECK(x64 < 64 * 8500.0);
  CHECK(r.mfu == doctest::Approx(x64 * 6 * 7e9 / (64 * 989.4e12)));
  CHECK(r.scaling_at_gpus.extrapolated);
  CHECK(HasWarning(r, "scaling_extrapolated"));
  // Inside the measured range: no warning.
  s.cluster.gpus = 16;
  r = Evaluate(s);
  CHECK_FALSE(HasWarning(r, "scaling_extrapolated"));
  CHECK(r.mfu == doctest::Approx(r.scaling_fit.best().Throughput(16) * 6 * 7e9 / (16 * 989.4e12)));
  // A given MFU wins; the fit is still reported.
  s.cluster.mfu = 0.3;
  r = Evaluate(s);
  CHECK(r.mfu == 0.3);
  CHECK(r.mfu_source == MfuSource::kGiven);
  CHECK(r.scaling_present);
}

TEST_CASE("Evaluate: batch-size effect (McCandlish et al. 2018) is off by default and scales tokens when on") {
  Scenario s = DefaultScenario();
  const Result off = Evaluate(s);
  CHECK(off.batch_size_token_factor == 1);
  s.workload.seq_len = 4096;
  s.parallel.global_batch = 1024;  // 4.19M tokens
  CHECK(Evaluate(s).batch_size_token_factor == 1);  // no critical batch given: off
  s.parallel.critical_batch_tokens = 2e6;
  const double batch = 1024.0 * 4096;
  Result on = Evaluate(s);
  CHECK(on.batch_size_token_factor == doctest::Approx(1 + batch / 2e6));
  CHECK(on.tokens == doctest::Approx(140e9 * (1 + batch / 2e6)));
  CHECK(on.ideal_hours > off.ideal_hours * 2);
  // Reference batch: the tokens were planned at 1M-token batches.
  s.parallel.reference_batch_tokens = 1e6;
  on = Evaluate(s);
  CHECK(on.batch_size_token_factor == doctest::Approx((1 + batch / 2e6) / (1 + 1e6 / 2e6)));
  // At the reference batch itself: no change.
  s.parallel.reference_batch_tokens = batch;
  CHECK(Evaluate(s).batch_size_token_factor == doctest::Approx(1));
}
