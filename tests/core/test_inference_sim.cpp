// The request simulation (inference_sim.h) against the closed form (inference.h): agreement at low load, the
// queue at high load, the share of requests within a target, determinism.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "documents/inference_sim_json.h"
#include "job/evaluate.h"
#include "explore/inference_sim.h"
#include "documents/presets.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

Scenario OneReplica(double rps, const std::string& extra = "") {
  return test::MustParse(R"({"workload": {"kind": "inference", "params": 68.98e9, "layers": 80, "hidden": 8192,
    "heads": 64, "kv_heads": 8, "vocab": 32000}, "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 4},
    "pricing": {"whole_nodes": false}, "inference": {"decode": {"replicas": 1}, "requests_per_second": )" +
                         std::to_string(rps) + extra + "}}");
}

double Error(double sim, double closed) { return closed / sim - 1; }

}  // namespace

TEST_CASE("simulation agrees with the closed form at low and moderate load (TTFT, TPOT percentiles)") {
  for (double rps : {0.5, 2.0, 6.0}) {
    const InferenceSimResult r = SimulateInference(OneReplica(rps), 100000, 7);
    REQUIRE(r.ok);
    CAPTURE(rps);
    MESSAGE(rps << " req/s on one H100 TP4 replica: TTFT P50/P90 sim " << r.ttft_ms.p50 << "/" << r.ttft_ms.p90
                << " closed " << r.closed_ttft_ms.p50 << "/" << r.closed_ttft_ms.p90 << " ms; TPOT mean/P90 sim "
                << r.tpot_ms.mean << "/" << r.tpot_ms.p90 << " closed " << r.closed_tpot_ms.mean << "/"
                << r.closed_tpot_ms.p90 << " ms (closed-form errors: TTFT P90 "
                << Error(r.ttft_ms.p90, r.closed_ttft_ms.p90) * 100 << "%, TPOT P90 "
                << Error(r.tpot_ms.p90, r.closed_tpot_ms.p90) * 100 << "%)");
    CHECK(std::fabs(Error(r.tpot_ms.mean, r.closed_tpot_ms.mean)) < 0.05);
    CHECK(std::fabs(Error(r.tpot_ms.p90, r.closed_tpot_ms.p90)) < 0.10);
    CHECK(std::fabs(Error(r.ttft_ms.p90, r.closed_ttft_ms.p90)) < 0.15);
    CHECK(std::fabs(Error(r.ttft_ms.p50, r.closed_ttft_ms.p50)) < 0.15);
  }
  // A split at low load: the prefill pool is M/D/1 exactly; decode without stalls.
  const Scenario split = test::MustParse(R"({"workload": {"kind": "inference", "params": 68.98e9, "layers": 80,
    "hidden": 8192, "heads": 64, "kv_heads": 8, "vocab": 32000}, "cluster": {"gpu": "h100-sxm"},
    "parallel": {"tensor_parallel": 4}, "inference": {"mode": "disaggregated", "requests_per_second": 8,
    "decode": {"gpu": "a100-sxm-80gb"}}})");
  const InferenceSimResult s = SimulateInference(split, 100000, 3);
  REQUIRE(s.ok);
  CHECK(s.ttft_ms.mean == doctest::Approx(s.closed_ttft_ms.mean).epsilon(0.05));
  CHECK(s.tpot_ms.mean == doctest::Approx(s.closed_tpot_ms.mean).epsilon(0.05));
}

TEST_CASE("simulation: the request path is on every simulated first token, as in the closed form") {
  // Same seed, same arrivals: 10 ms + 2 us x 1,020 prompt tokens = 12.04 ms (by hand) later, each request alike.
  const InferenceSimResult a = SimulateInference(OneReplica(2.0, R"(, "request_overhead_ms": 0, "request_overhead_us_per_token": 0)"), 20000, 5);
  const InferenceSimResult b = SimulateInference(OneReplica(2.0, R"(, "request_overhead_ms": 10, "request_overhead_us_per_token": 2)"), 20000, 5);
  REQUIRE(a.ok);
  REQUIRE(b.ok);
  CHECK(b.ttft_ms.p50 - a.ttft_ms.p50 == doctest::Approx(12.04).epsilon(1e-9));
  CHECK(b.ttft_ms.p99 - a.ttft_ms.p99 == doctest::Approx(12.04).epsilon(1e-9));
  CHECK(b.e2e_ms.mean - a.e2e_ms.mean == doctest::Approx(12.04).epsilon(1e-9));
  CHECK(b.tpot_ms.mean == a.tpot_ms.mean);
  CHECK(b.closed_ttft_ms.mean - a.closed_ttft_ms.mean == doctest::Approx(12.04).epsilon(1e-9));
}

TEST_CASE("simulation: at high load the queue shows; the share within the target follows the percentile") {
  const InferenceSimResult low = SimulateInference(OneReplica(2.0), 100000, 11);
  const InferenceSimResult high = SimulateInference(OneReplica(10.0), 100000, 11);
  REQUIRE(low.ok);
  REQUIRE(high.ok);
  CHECK(high.ttft_ms.p99 > 3 * low.ttft_ms.p99);
  CHECK(high.tpot_ms.p50 > 3 * low.tpot_ms.p50);
  CHECK(high.mean_batch > 5 * low.mean_batch);
  MESSAGE("10 req/s: TTFT P99 sim " << high.ttft_ms.p99 << " ms vs closed form " << high.closed_ttft_ms.p99
                                    << " ms (the KV limit and prefill-first bursts the closed form does not model)");
  // A TPOT target at the closed form's P90: about 90% of simulated requests meet it.
  const Result closed = Evaluate(OneReplica(6.0));
  const double target = closed.inference.tpot_ms.p90;
  const InferenceSimResult at = SimulateInference(OneReplica(6.0, R"(, "slo": {"tpot_ms": )" + std::to_string(target) + "}"), 100000, 5);
  REQUIRE(at.ok);
  MESSAGE("TPOT target " << target << " ms (closed-form P90): " << at.share_tpot_within * 100 << "% within");
  CHECK(at.share_tpot_within > 0.80);
  CHECK(at.share_tpot_within < 0.97);
  CHECK(at.share_within_target == doctest::Approx(at.share_tpot_within));
}

TEST_CASE("simulation: deterministic per seed; batch jobs; errors") {
  const InferenceSimResult a = SimulateInference(OneReplica(4.0), 20000, 42);
  const InferenceSimResult b = SimulateInference(OneReplica(4.0), 20000, 42);
  const InferenceSimResult c = SimulateInference(OneReplica(4.0), 20000, 43);
  REQUIRE(a.ok);
  CHECK(a.ttft_ms.p99 == b.ttft_ms.p99);
  CHECK(a.tpot_ms.mean == b.tpot_ms.mean);
  CHECK(a.ttft_ms.p99 != c.ttft_ms.p99);
  const InferenceSimResult batch = SimulateInference(OneReplica(1.0, R"(, "requests": 5000)"), 5000, 1);
  REQUIRE(batch.ok);
  CHECK(batch.mean_batch > 100);  // all requests at once: the replica runs near its KV/batch cap
  const Scenario training = DefaultScenario();
  CHECK_FALSE(SimulateInference(training, 100, 1).ok);
  CHECK_FALSE(SimulateInference(OneReplica(1.0), 0, 1).ok);
  const InferenceSimResult huge = SimulateInference(OneReplica(1.0, R"(, "input_tokens": 1e7)"), 10, 1);
  CHECK_FALSE(huge.ok);  // no KV cache fits: said, not simulated
  CHECK(huge.error.find("does not fit") != std::string::npos);
}

TEST_CASE("simulation in slices (the page's, issue 31): the same document as in one go, colocated and split") {
  for (const char* id : {"llama2-70b-chat-h100", "llama2-70b-split-h100-a100"}) {
    CAPTURE(id);
    Scenario s;
    std::string error;
    REQUIRE_MESSAGE(LoadPreset(id, &s, &error), error);
    const InferenceSimResult whole = SimulateInference(s, 3000, 7);
    REQUIRE(whole.ok);
    InferenceSimulation sliced(s, 3000, 7);
    int slices = 0;
    double last = -1;
    while (!sliced.Step(97)) {  // 97 iterations a slice: many slices, cut mid-replica
      CHECK(sliced.progress() >= last);
      last = sliced.progress();
      ++slices;
    }
    CHECK(slices > 10);
    CHECK(sliced.done());
    CHECK(InferenceSimToJson(s, sliced.Finish()) == InferenceSimToJson(s, whole));
  }
  // A refusal is known at once: nothing to run.
  InferenceSimulation training(DefaultScenario(), 100, 1);
  CHECK(training.done());
  CHECK(!training.Finish().ok);
}
