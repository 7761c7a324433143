// Issue 31: hostile and extreme input. Each case is an observation of the issue; expectations are worked by
// hand from datasheets and the inputs (not from the code under test).
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "documents/inference_sim_json.h"
#include "job/validate.h"
#include "job/evaluate.h"
#include "explore/inference_sim.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "documents/presets.h"
#include "hardware/probe.h"
#include "documents/result_json.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

json ChatPreset() {
  return json::parse(test::ReadFile(test::AssetPath("presets/llama2-70b-chat-h100.json")))["scenario"];
}

Scenario HostileParse(const json& doc) { return test::MustParse(doc.dump()); }

bool HasError(const std::vector<InputError>& errors, const std::string& path, const std::string& words = "") {
  for (const InputError& e : errors)
    if (e.path == path && e.message.find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

// --- Observation 3: a serving job that does not fit, or cannot meet its load, is not priced ---

TEST_CASE("serving: 10T parameters on one H100 are blocked, not priced, and no memory is negative") {
  json doc = ChatPreset();
  doc["workload"]["params"] = 1e13;
  doc["parallel"]["tensor_parallel"] = 1;
  const Scenario s = HostileParse(doc);
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const BlockingState b = FindBlockingState(s, r);
  REQUIRE(b.blocked);
  CHECK(std::string(b.code) == "serving_does_not_fit");
  // By hand: 1e13 parameters x 2 bytes (bf16) = 2e13 bytes = 18,626 GiB of weights (18,630 to 4 digits) on the one GPU,
  // which has 80 GiB (memory in GiB everywhere, as HBM is counted).
  CHECK(b.reason.find("18,630 GiB") != std::string::npos);
  CHECK(r.inference.decode.kv_gb_per_gpu >= 0);
  CHECK(r.inference.prefill.kv_gb_per_gpu >= 0);
  const json out = json::parse(ResultToJson(s, r));
  CHECK(out["blocking"]["code"] == "serving_does_not_fit");
  CHECK(out["inference"]["decode"]["kv_gb_per_gpu"].get<double>() >= 0);
}

TEST_CASE("serving: 1e7 output tokens per request are blocked (one request's KV cache is terabytes)") {
  json doc = ChatPreset();
  doc["inference"]["output_tokens"] = 1e7;
  const Scenario s = HostileParse(doc);
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const BlockingState b = FindBlockingState(s, r);
  REQUIRE(b.blocked);
  CHECK(std::string(b.code) == "serving_does_not_fit");
  // By hand: 2 (K, V) x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes per token for the model, a
  // quarter per GPU at TP4: 81,920 x ~1e7 tokens (paged: input + output / 2) = hundreds of GB > 80 GiB.
  CHECK(b.reason.find("KV cache") != std::string::npos);
  // The preset itself runs (the check blocks what cannot run, nothing else).
  const Scenario ok = HostileParse(ChatPreset());
  CHECK_FALSE(FindBlockingState(ok, Evaluate(ok)).blocked);
}

TEST_CASE("serving: given replicas that cannot carry the mean load are blocked with the count that would") {
  json doc = ChatPreset();
  doc["inference"]["requests_per_second"] = 1000;
  doc["inference"]["decode"]["replicas"] = 1;
  const Scenario s = HostileParse(doc);
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.inference.utilization > 1);
  const BlockingState b = FindBlockingState(s, r);
  REQUIRE(b.blocked);
  CHECK(std::string(b.code) == "serving_over_capacity");
  CHECK(b.fix.find("replicas") != std::string::npos);
}

// --- Observation 4: impossible probe reports and scaling points are refused with the field and the range ---

TEST_CASE("probe: a GEMM faster than the H100 datasheet allows, or 1e-300, is refused") {
  const json base = json::parse(test::ReadFile(test::DataPath("probe_h100_8gpu.json")));
  REQUIRE(ParseProbeJson(base.dump()).ok());  // the fixture itself is plausible
  json fast = base;
  fast["gemm"][0]["tflops"] = {{"min", 99999}, {"median", 99999}, {"max", 99999}};  // the issue's report
  ProbeParse p = ParseProbeJson(fast.dump());
  CHECK_FALSE(p.ok());
  // H100 SXM5 dense BF16: 989.4 TFLOP/s (NVIDIA H100 whitepaper, assets/gpus.json); 110% = 1,088.
  CHECK(HasError(p.errors, "gemm[0].tflops.median", "at most 1088"));
  json tiny = base;
  tiny["gemm"][0]["tflops"] = {{"min", 1e-300}, {"median", 1e-300}, {"max", 1e-300}};
  p = ParseProbeJson(tiny.dump());
  CHECK(HasError(p.errors, "gemm[0].tflops.median", "not a physical measurement"));
  json hbm = base;
  hbm["bandwidth"][0]["gbps"] = {{"min", 9000}, {"median", 9000}, {"max", 9000}};  // H100 SXM5 HBM3: 3.35 TB/s
  p = ParseProbeJson(hbm.dump());
  CHECK(HasError(p.errors, "bandwidth[0].gbps.median", "at most 3685"));
}

TEST_CASE("scaling: points implying more than 110% of the dense peak are refused") {
  // 7e9 parameters: 6 x 7e9 = 4.2e10 FLOPs per token (no shape: no attention term). 8 H100s at bf16 989.4
  // TFLOP/s (the catalog's datasheet figure): 8 x 989.4e12 / 4.2e10 = 188,457 tokens/s at 100%; 110% = 207,303.
  Scenario s = DefaultScenario();
  s.workload.params = 7e9;
  s.scaling.point_count = 2;
  s.scaling.points[0] = {8, 1e6};   // 5x the peak
  s.scaling.points[1] = {16, 1.5e5};
  const std::vector<InputError> e = ValidateScenario(s);
  CHECK(HasError(e, "scaling.points[0].tokens_per_second", "to 2.073e+05 tokens/s at 8 GPUs"));
  CHECK_FALSE(HasError(e, "scaling.points[1].tokens_per_second"));
  s.scaling.points[0] = {8, 1e-300};
  CHECK(HasError(ValidateScenario(s), "scaling.points[0].tokens_per_second", "must be from"));
  s.scaling.points[0] = {8, 9e4};
  CHECK_FALSE(HasError(ValidateScenario(s), "scaling.points[0].tokens_per_second"));
}

// --- Observation 5: size bounds before parsing, the same on every path ---

TEST_CASE("size: a 2 MB link and a 2 MB scenario are refused by their bounds before any parsing") {
  const std::string huge_link = "#s=1." + std::string(2 << 20, 'A');
  LinkPayload out;
  std::vector<InputError> errors;
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(DecodeLink(huge_link, &out, &errors));
  CHECK(LinkErrorText(errors).find("longer than 64 KiB") != std::string::npos);
  const std::string huge_json = "{\"name\": \"" + std::string(2 << 20, 'x') + "\"}";
  const ScenarioParse p = ParseScenarioJson(huge_json);
  CHECK(HasError(p.errors, "", "larger than 1 MiB"));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 0.5);
}

// --- Observation 6: the request simulation's work and memory are bounded, and it says so ---

TEST_CASE("simulation: 1e9 requests/s and peak-to-mean 1000 run on a bounded set of replicas, said in the result") {
  for (const auto& [field_name, value] : {std::pair{"requests_per_second", 1e9}, {"peak_to_mean", 1000.0}}) {
    const char* field = field_name;  // clang 14: a structured binding cannot be captured (CAPTURE's lambda)
    CAPTURE(field);
    json doc = ChatPreset();
    doc["inference"][field] = value;
    const Scenario s = HostileParse(doc);
    const Result closed = Evaluate(s);
    REQUIRE(closed.ok);
    const auto start = std::chrono::steady_clock::now();
    const InferenceSimResult r = SimulateInference(s, 100000, 1);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(r.ok);
    // Was 33 s and 4.7 GB (1e9), bad_alloc (peak-to-mean 1000). The bound is the simulated replicas (checked below),
    // not a clock: wall time under ASan on a loaded 2-core machine reached 10.4 s; it is reported, not asserted.
    MESSAGE(field << ": " << seconds << " s for 100,000 requests");
    CHECK(r.capped_replicas == (closed.inference.decode.replicas > kInferenceSimMaxReplicas));
    CHECK(r.simulated_decode_replicas <= kInferenceSimMaxReplicas);
    const json d = json::parse(InferenceSimToJson(s, r));
    if (r.capped_replicas) CHECK(d["capped"]["replicas"] == true);
    // The whole pool's output rate, from a sample of replicas: close to the offered load (rate x tokens).
    const double offered = closed.inference.requests_per_second * s.inference.output_tokens;
    CHECK(r.output_tokens_per_second == doctest::Approx(offered).epsilon(0.05));
  }
}

TEST_CASE("simulation: long requests simulate fewer of them, by the work cap, and say so") {
  json doc = ChatPreset();
  doc["inference"]["output_tokens"] = 4000;  // 4,000 decode steps each: 100,000 of them would be 4e8 request-steps
  const Scenario s = HostileParse(doc);
  const InferenceSimResult r = SimulateInference(s, 100000, 1, 4e6);
  REQUIRE(r.ok);
  CHECK(r.capped_requests);
  CHECK(r.requests_asked == 100000);
  CHECK(r.requests == 4e6 / 4000);  // floor(4e6 / (3,999 steps + 1))
  CHECK(json::parse(InferenceSimToJson(s, r))["capped"]["requests"] == true);
}

// --- Observation 8: duplicate keys, links inside a URL, exchange rates, a commitment larger than the job ---

TEST_CASE("json: a key given twice is refused with its path, in scenarios, links and probe reports") {
  ScenarioParse p = ParseScenarioJson(R"({"pricing": {"usd_per_gpu_hour": 2, "usd_per_gpu_hour": 0.01}})");
  CHECK(HasError(p.errors, "pricing.usd_per_gpu_hour", "given twice"));
  p = ParseScenarioJson(R"({"cluster": {"gpus": 8}, "cluster": {"gpus": 9}})");
  CHECK(HasError(p.errors, "cluster", "given twice"));
  CHECK(DuplicateKeyPath(R"({"a": [{"x": 1}, {"y": 1, "y": 2}]})") == "a[1].y");
  CHECK(DuplicateKeyPath(R"({"a": {"x": 1}, "b": {"x": 1}})") == "");
  const std::string link = "#s=1." + Base64UrlEncode(R"({"s":{"cluster":{"gpus":8,"gpus":16}}})");
  LinkPayload out;
  std::vector<InputError> errors;
  CHECK_FALSE(DecodeLink(link, &out, &errors));
  CHECK(HasError(errors, "s.cluster.gpus", "given twice"));
  std::string probe = test::ReadFile(test::DataPath("probe_h100_8gpu.json"));
  probe.insert(probe.find('{') + 1, "\"note\": \"first\",");
  CHECK(HasError(ParseProbeJson(probe).errors, "note", "given twice"));
}

TEST_CASE("link: a page served at an address holding s= opens its own links") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 256;
  const std::string fragment = EncodeLink({s, {}}, "");
  for (const std::string base : {"https://example.org/docs=1/", "https://example.org/gpucost/?s=2&x=1", "https://example.org/as=3.html"}) {
    CAPTURE(base);
    LinkPayload out;
    std::vector<InputError> errors;
    REQUIRE(DecodeLink(base + fragment, &out, &errors));
    CHECK(out.scenario.cluster.gpus == 256);
  }
}

TEST_CASE("fx: 1e-9 KRW per USD is refused with the plausible range") {
  const ScenarioParse p = ParseScenarioJson(R"({"pricing": {"currency": "KRW", "krw_per_usd": 1e-9}})");
  CHECK(HasError(p.errors, "pricing.krw_per_usd", "700"));
  CHECK(ParseScenarioJson(R"({"pricing": {"currency": "KRW", "krw_per_usd": 1484.1}})").ok());
}

TEST_CASE("commitment: 200 committed GPUs for a 64-GPU job cost the whole term; failures never add negative money") {
  // By hand: the commitment bills 200 GPUs x 1 month (730 h) x $2 = $292,000 whatever the job does inside it.
  for (double increment : {1.0, 3600.0, 86400.0}) {
    CAPTURE(increment);
    const Scenario s = test::MustParse(R"({"cluster": {"gpus": 64, "mfu": 0.4}, "workload": {"params": 7e10, "tokens": 2e10},
      "reliability": {"gpu_mtbf_hours": 2000}, "pricing": {"model": "reserved", "usd_per_gpu_hour": 2,
      "billing_increment_seconds": )" + std::to_string(increment) + R"(, "reserved": {"term_months": 1, "committed_gpus": 200}}})");
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    CHECK(r.expected_usd >= r.normal_run_usd);  // was -5,704 USD at a day's increment
    const double compute = r.expected_usd - r.cost_usd.part[kPartStorage] - r.cost_usd.part[kPartEgress] - r.cost_usd.part[kPartFees];
    CHECK(compute == doctest::Approx(200 * 730.0 * 2).epsilon(1e-3));
  }
}
