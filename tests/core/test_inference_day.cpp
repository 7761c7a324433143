// Issue 28: a serving day by the hour (inference_day.h): the autoscaled day between the mean-rate floor and the
// fixed fleet, scale events billed by the offer's rules, DeepSeek's disclosed day, the JSON and the refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/numeric.h"  // D()
#include "job/validate.h"
#include "job/evaluate.h"
#include "serving/inference.h"
#include "serving/inference_day.h"
#include "scenario/json_io.h"
#include "documents/presets.h"
#include "job/result.h"
#include "documents/result_json.h"
#include "base/rng.h"

using namespace gpucost;
using nlohmann::json;

namespace {

Scenario DayChat() {
  Scenario s;
  std::string error;
  REQUIRE_MESSAGE(LoadPreset("llama2-70b-chat-h100", &s, &error), error);
  s.inference.load_profile = {};
  s.inference.autoscale = {};
  s.inference.autoscale_given = false;
  return s;
}

json DayData() {
  std::ifstream f(std::string(GPUCOST_TEST_DATA_DIR) + "/inference_techniques_published.json");
  REQUIRE(f.good());
  return json::parse(f);
}

void Custom(Scenario* s, const double mult[kLoadProfileHours]) {
  s->inference.load_profile.profile = static_cast<int>(LoadProfile::kCustom);
  for (int h = 0; h < kLoadProfileHours; ++h) s->inference.load_profile.multipliers[h] = mult[h];
}

}  // namespace

TEST_CASE("day: the autoscaled day never costs more than the fixed fleet for the peak, nor less than the mean rate at capacity") {
  Rng rng(2028);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Scenario s = DayChat();
    s.inference.requests_per_second = 0.5 + 30 * rng.Uniform();
    s.inference.peak_to_mean = 1 + rng.Uniform();
    const int kind = trial % 4;
    if (kind < 3) {
      s.inference.load_profile.profile = kind + 1;  // flat, business-day, consumer-evening
    } else {
      double mult[kLoadProfileHours];
      for (double& x : mult) x = 0.05 + 3 * rng.Uniform();
      Custom(&s, mult);
    }
    s.inference.autoscale_given = true;
    s.inference.autoscale.scale_up_minutes = 60 * rng.Uniform();
    s.inference.autoscale.scale_down_minutes = 30 * rng.Uniform();
    s.pricing.billing_increment_seconds = trial % 3 == 0 ? 3600 : trial % 3 == 1 ? 60 : 1;
    s.pricing.minimum_billed_seconds = trial % 5 == 0 ? 4 * 3600 : 0;
    REQUIRE(ValidateScenario(s).empty());
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    const ServingDay& d = r.inference.day;
    REQUIRE(d.present);
    CAPTURE(trial);
    CHECK(d.autoscaled);
    CHECK(d.usd <= d.fixed_usd * (1 + 1e-12));
    CHECK(d.usd >= d.mean_rate_floor_usd * (1 - 1e-12));
    // The fixed fleet is what the closed form sizes for the peak hour without autoscaling (another path).
    Scenario fixed = s;
    fixed.inference.autoscale = {};
    fixed.inference.autoscale_given = false;
    const Result f = Evaluate(fixed);
    REQUIRE(f.ok);
    CHECK(f.inference.day.usd == doctest::Approx(d.fixed_usd));
    CHECK(f.inference.gpus == d.fixed_gpus);
    CHECK(f.inference.day.fixed_usd == doctest::Approx(D(f.inference.gpus) * f.inference.decode.usd_per_gpu_hour * 24));
    // The headline follows the day: autoscaling never raises the bill of the period.
    CHECK(r.expected_usd <= f.expected_usd * (1 + 1e-9));
    ++checked;
  }
  CHECK(checked == 60);
}

TEST_CASE("day: a one-hour spike's extra replicas are billed by the offer's increment and minimum (hand-worked)") {
  Scenario s = DayChat();
  s.inference.peak_to_mean = 1;
  s.pricing.whole_nodes = false;  // replicas rented one by one (whole nodes would fill 5 x TP4 up to 6 replicas)
  const Result base = Evaluate(s);
  REQUIRE(base.ok);
  const double cap = base.inference.decode.capacity_rps;  // per replica within the target
  REQUIRE(cap > 0);
  // 23 hours need 2 replicas, hour 12 needs 5: three extra replicas for one hour.
  s.inference.requests_per_second = cap;
  double mult[kLoadProfileHours];
  for (double& x : mult) x = 1.9;
  mult[12] = 4.9;
  Custom(&s, mult);
  s.inference.autoscale_given = true;
  s.inference.autoscale.scale_up_minutes = 6;
  s.inference.autoscale.scale_down_minutes = 0;
  const double tp = D(base.inference.decode.tensor_parallel);
  const double price = base.inference.decode.usd_per_gpu_hour;
  struct Rule {
    double increment_s, minimum_s, billed_h_per_replica;
  };
  // Held per extra replica: 1 h serving + 0.1 h cold start = 1.1 h.
  const Rule rules[] = {{1, 0, 1.1}, {3600, 0, 2.0}, {60, 4 * 3600, 4.0}};
  for (const Rule& rule : rules) {
    CAPTURE(rule.increment_s);
    s.pricing.billing_increment_seconds = rule.increment_s;
    s.pricing.minimum_billed_seconds = rule.minimum_s;
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    const ServingDay& d = r.inference.day;
    CHECK(d.scale_events == 3);
    CHECK(d.hour[12].replicas == 5);
    CHECK(d.hour[3].replicas == 2);
    CHECK(d.fixed_replicas == 5);
    CHECK(d.cold_start_gpu_hours == doctest::Approx(3 * 0.1 * tp));
    CHECK(d.rounding_gpu_hours == doctest::Approx(3 * (rule.billed_h_per_replica - 1.1) * tp));
    const double expected = (2 * 24 + 3 * rule.billed_h_per_replica) * tp * price;
    CHECK(d.usd == doctest::Approx(expected));
    CHECK(d.fixed_usd == doctest::Approx(5 * 24 * tp * price));
    CHECK(d.attainment == doctest::Approx(1));
  }
}

TEST_CASE("day: DeepSeek's disclosed day (278 peak, 226.75 mean nodes of 8 GPUs at USD 2) billed by the hour") {
  const json src = DayData()["deepseek_v3_day"];
  Scenario s = DayChat();
  s.parallel.tensor_parallel = 8;  // one node per replica
  s.pricing.usd_per_gpu_hour = src["usd_per_gpu_hour"].get<double>();
  s.inference.peak_to_mean = 1;
  const Result base = Evaluate(s);
  REQUIRE(base.ok);
  const double cap = base.inference.decode.capacity_rps;
  // An hourly profile with the disclosed peak and mean: 9 hours at 278 nodes, 15 at 196 (5,442 node-hours).
  s.inference.requests_per_second = cap;
  double mult[kLoadProfileHours];
  for (int h = 0; h < kLoadProfileHours; ++h) mult[h] = (h >= 9 && h < 18 ? 278 : 196) - 0.5;
  Custom(&s, mult);
  s.inference.autoscale_given = true;
  s.inference.autoscale.scale_up_minutes = 1e-9;  // the disclosure counts occupied nodes only
  s.pricing.billing_increment_seconds = 1;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const ServingDay& d = r.inference.day;
  double nodes = 0;
  for (const ServingDayHour& h : d.hour) nodes += D(h.replicas) / 24;
  CHECK(nodes == doctest::Approx(src["mean_nodes"].get<double>()));
  CHECK(d.fixed_replicas == src["peak_nodes"].get<std::int64_t>());
  CHECK(d.usd == doctest::Approx(src["usd_per_day"].get<double>()).epsilon(1e-4));
  CHECK(d.fixed_usd == doctest::Approx(278.0 * 8 * 2 * 24));
}

TEST_CASE("day: presets have mean 1; the JSON carries the day; the inputs are refused where they do not apply") {
  for (int p = 1; p <= 3; ++p) {
    InferenceLoadProfileInputs in{};
    in.profile = p;
    double m[kLoadProfileHours];
    LoadProfileMultipliers(in, m);
    double sum = 0;
    for (double x : m) sum += x;
    CHECK(sum / 24 == doctest::Approx(1));
  }
  Scenario s = DayChat();
  s.inference.load_profile.profile = static_cast<int>(LoadProfile::kBusinessDay);
  s.inference.autoscale_given = true;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const json doc = json::parse(ResultToJson(s, r));
  REQUIRE(doc["inference"].contains("day"));
  CHECK(doc["inference"]["day"]["hours"].size() == 24);
  CHECK(doc["inference"]["day"]["autoscaled"].get<bool>());
  CHECK(doc["inference"]["day"]["fixed_fleet"]["usd"].get<double>() >= doc["inference"]["day"]["usd"].get<double>());
  // Round trip: the profile by name, a custom one by its numbers, an empty autoscale object.
  const ScenarioParse back = ParseScenarioJson(ScenarioToJson(s));
  REQUIRE(back.ok());
  CHECK(back.scenario.inference.load_profile.profile == static_cast<int>(LoadProfile::kBusinessDay));
  CHECK(back.scenario.inference.autoscale_given);
  // Refusals: a bad name, a wrong length, autoscaling without a profile.
  const std::string head = R"({"schema": "gpucost/scenario@1", "workload": {"kind": "inference", "model": "llama-2-70b"},
                              "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 4}, "inference": )";
  auto errors_at = [&](const std::string& inference) {
    const ScenarioParse p = ParseScenarioJson(head + inference + "}");
    std::string paths;
    for (const InputError& e : p.errors) paths += e.path + ";";
    return paths;
  };
  CHECK(errors_at(R"({"load_profile": "weekend"})").find("inference.load_profile") != std::string::npos);
  CHECK(errors_at(R"({"load_profile": [1, 2, 3]})").find("inference.load_profile") != std::string::npos);
  CHECK(errors_at(R"({"autoscale": {"min_replicas": 2}})").find("inference.autoscale") != std::string::npos);
  CHECK(errors_at(R"({"load_profile": "flat", "autoscale": {"min_replicas": 3, "max_replicas": 2}})").find("inference.autoscale.min_replicas") != std::string::npos);
  CHECK(errors_at(R"({"load_profile": "business-day", "autoscale": {}})").empty());
}

TEST_CASE("day: a cap below an hour's need misses the target in that hour and says so") {
  Scenario s = DayChat();
  s.inference.requests_per_second = 20;
  s.inference.load_profile.profile = static_cast<int>(LoadProfile::kBusinessDay);
  s.inference.autoscale_given = true;
  s.inference.autoscale.max_replicas = 2;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  CHECK(r.inference.day.attainment < 1);
  bool warned = false;
  for (int i = 0; i < r.warnings.count; ++i) warned = warned || std::string(r.warnings.code[i]) == "day_target_missed";
  CHECK(warned);
}

// A day whose busiest hour needs more replicas than any fleet (found by the sanitizer's random scenarios: the
// replica count times the GPUs per replica overflowed): sized at the bound, said, every figure finite.
TEST_CASE("a day beyond the replica bound: sized at the bound, warned, finite") {
  const ScenarioParse p = ParseScenarioJson(R"({"workload": {"kind": "inference", "model": "llama-2-70b"},
    "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 4}, "pricing": {"usd_per_gpu_hour": 2},
    "inference": {"requests_per_second": 1e9, "peak_to_mean": 100, "load_profile": "business-day",
                  "autoscale": {"min_replicas": 1}}})");
  REQUIRE_MESSAGE(p.ok(), (p.errors.empty() ? "" : p.errors[0].Text()));
  const Result r = Evaluate(p.scenario);
  REQUIRE(r.ok);
  REQUIRE(r.inference.day.present);
  CHECK(r.inference.day.replicas_capped);
  CHECK(r.inference.day.fixed_replicas <= static_cast<std::int64_t>(kInferenceMaxSizedReplicas));
  CHECK(std::isfinite(r.expected_usd));
  bool warned = false;
  for (int i = 0; i < r.warnings.count; ++i) warned = warned || std::string(r.warnings.code[i]) == "replicas_beyond_bound";
  CHECK(warned);
}
