// Golden tests: the model against figures published for real training runs and in Daly's checkpoint paper.
// The figures, their sources, the scenarios and the tolerances (with the reason for each) live in
// tests/data/published_runs.json; this file only evaluates and compares.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

// The model's value of a check's metric; false if the metric is unknown.
bool Metric(const Result& r, const json& check, double* out) {
  const std::string m = check.at("metric").get<std::string>();
  if (m == "time.ideal_hours") *out = r.ideal_hours;
  else if (m == "time.ideal_days") *out = r.ideal_hours / 24;
  else if (m == "time.expected_days") *out = r.expected_hours / 24;
  else if (m == "gpu_hours.ideal") *out = r.ideal_gpu_hours;
  else if (m == "gpu_hours.billed") *out = r.billed_gpu_hours;
  else if (m == "goodput") *out = r.goodput;
  else if (m == "work.flops") *out = r.flops;
  else if (m == "reliability.optimal_checkpoint_interval_minutes") *out = r.optimal_checkpoint_interval_minutes;
  else if (m == "failures_per_window")
    *out = r.expected_failures / r.expected_hours * check.at("window_hours").get<double>();
  else if (m == "implied_mfu")
    *out = r.flops / (check.at("gpu_hours").get<double>() * 3600 * r.peak_tflops_per_gpu * 1e12);
  else return false;
  return true;
}

void CheckRun(const json& run) {
  const std::string id = run.at("id").get<std::string>();
  CAPTURE(id);
  REQUIRE(run.at("source").get<std::string>().size() > 20);
  const Scenario s = test::MustParse(run.at("scenario").dump());
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(!run.at("checks").empty());
  for (const json& check : run.at("checks")) {
    const std::string metric = check.at("metric").get<std::string>();
    CAPTURE(metric);
    REQUIRE(check.at("why").get<std::string>().size() > 10);  // every tolerance is explained
    double v = 0;
    REQUIRE(Metric(r, check, &v));
    CAPTURE(v);
    CHECK(std::isfinite(v));
    if (check.contains("published")) {
      const double published = check.at("published").get<double>();
      CAPTURE(published);
      REQUIRE((check.contains("rel_tol") || check.contains("abs_tol")));
      const double tol = check.contains("rel_tol") ? check.at("rel_tol").get<double>() * std::fabs(published)
                                                    : check.at("abs_tol").get<double>();
      CHECK(std::fabs(v - published) <= tol);
    }
    if (check.contains("min")) CHECK(v >= check.at("min").get<double>());
    if (check.contains("max")) CHECK(v <= check.at("max").get<double>());
    REQUIRE((check.contains("published") || check.contains("min") || check.contains("max")));
  }
}

json Runs() { return json::parse(test::ReadFile(test::DataPath("published_runs.json"))).at("runs"); }

}  // namespace

TEST_CASE("published runs: every figure reproduced within its stated tolerance") {
  const json runs = Runs();
  REQUIRE(runs.size() >= 10);
  for (const json& run : runs) CheckRun(run);
}

TEST_CASE("published runs: Llama 2's GPU-hours follow 6ND / (peak x MFU) across model sizes") {
  // One MFU must explain all three sizes: the ratio of GPU-hours equals the ratio of parameters (same
  // tokens, same GPU), and the MFU each size implies stays within a few points of the others.
  double implied[3] = {0, 0, 0};
  int n = 0;
  for (const json& run : Runs()) {
    const std::string id = run.at("id").get<std::string>();
    if (id.rfind("llama2-", 0) != 0) continue;
    const Result r = Evaluate(test::MustParse(run.at("scenario").dump()));
    for (const json& check : run.at("checks"))
      if (check.at("metric") == "implied_mfu") REQUIRE(Metric(r, check, &implied[n]));
    ++n;
  }
  REQUIRE(n == 3);
  const double lo = std::min({implied[0], implied[1], implied[2]});
  const double hi = std::max({implied[0], implied[1], implied[2]});
  CHECK(hi - lo < 0.07);
}
