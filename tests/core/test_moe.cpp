// Mixture of experts (moe.h): FLOPs from the active parameters, memory from all of them, experts split over
// expert-parallel ranks, and the all-to-all as its own step term.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "training/memory.h"
#include "training/moe.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

Scenario Mixtral(const std::string& parallel) {
  return test::MustParse(R"({"workload": {"model": "mixtral-8x7b", "seq_len": 4096}, "cluster": {"gpus": 64},
      "parallel": {"tensor_parallel": 2, "micro_batch": 1, "global_batch": 512, "zero_stage": 1, "sequence_parallel": true)" +
                         parallel + "}}");
}

}  // namespace

TEST_CASE("moe: FLOPs per token from the active parameters, memory from all") {
  Scenario s = Mixtral("");
  s.cluster.mfu = 0.4;
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  const double attention = 12.0 * 32 * 4096 * 4096;
  CHECK(r.flops_per_token == doctest::Approx(6 * 12.9e9 + attention));
  REQUIRE(r.memory_present);
  // Weights on a GPU (tensor 2, one stage) hold every expert: about 46.7B / 2 x 2 bytes.
  CHECK(r.memory.weights_bytes == doctest::Approx(46.7e9).epsilon(0.01));
  // Without workload.active_params, the MoE shape's active share gives it.
  Scenario derived = s;
  derived.arch.active_params = 0;
  CHECK(ActiveParams(derived) == doctest::Approx(12.88e9).epsilon(0.01));
  CHECK(ActiveParams(test::MustParse(R"({"workload": {"params": 7e9}})")) == 7e9);  // dense: all of them
}

TEST_CASE("moe: expert parallelism splits the experts' unsharded states, not the ZeRO-sharded ones") {
  const Scenario one = Mixtral(""), eight = Mixtral(R"(, "expert_parallel": 8)");
  const MemoryBreakdown a = EstimateMemory(ShapeFromScenario(one), LayoutFromScenario(one), Precision::kBf16, 80e9);
  const MemoryBreakdown b = EstimateMemory(ShapeFromScenario(eight), LayoutFromScenario(eight), Precision::kBf16, 80e9);
  const ModelShape m = ShapeFromScenario(one);
  const double experts_per_gpu = StageExpertParams(m, LayoutFromScenario(one), 32);
  CHECK(experts_per_gpu == doctest::Approx(32 * 8 * 3.0 * 4096 * 14336 / 2));
  CHECK(a.weights_bytes - b.weights_bytes == doctest::Approx(experts_per_gpu * 7 / 8 * 2));
  CHECK(a.gradients_bytes - b.gradients_bytes == doctest::Approx(experts_per_gpu * 7 / 8 * 2));
  CHECK(b.optimizer_bytes == doctest::Approx(a.optimizer_bytes));  // ZeRO-1: over d / e ranks instead of d
  CHECK(b.total_bytes() < a.total_bytes());
}

TEST_CASE("moe: the all-to-all is a named step term, zero without expert parallelism, dearer across nodes") {
  const Result none = Evaluate(Mixtral(""));
  const Result inside = Evaluate(Mixtral(R"(, "expert_parallel": 4)"));   // 4 ranks 2 apart: one node
  const Result across = Evaluate(Mixtral(R"(, "expert_parallel": 8)"));   // 8 ranks 2 apart: two nodes
  for (const Result* r : {&none, &inside, &across}) {
    REQUIRE(r->step.ok());
    const StepTime& t = r->step;
    CHECK(t.seconds == doctest::Approx(t.compute_seconds + t.memory_bound_seconds + t.recompute_seconds +
                                       t.tp_comm_seconds + t.pp_comm_seconds + t.dp_comm_seconds + t.ep_comm_seconds +
                                       t.bubble_seconds + t.optimizer_seconds));
    CHECK(t.exposed_comm_seconds == doctest::Approx(t.tp_comm_seconds + t.pp_comm_seconds + t.dp_comm_seconds + t.ep_comm_seconds));
  }
  CHECK(none.step.ep_comm_seconds == 0);
  CHECK(inside.step.ep_comm_seconds > 0);
  CHECK(across.step.ep_comm_seconds > 2 * inside.step.ep_comm_seconds);
  // Model FLOPs per step are those of the active parameters (6 N_active + attention per token).
  const double tokens = 512.0 * 4096;
  CHECK(none.step.model_flops == doctest::Approx(tokens * (6 * 12.88e9 + 12.0 * 32 * 4096 * 4096)).epsilon(0.02));
  MESSAGE("Mixtral 8x7B on 64 H100, TP2: step " << none.step.seconds << " s (EP1), " << inside.step.seconds
          << " s (EP4, all-to-all " << inside.step.ep_comm_seconds << " s), " << across.step.seconds
          << " s (EP8, all-to-all " << across.step.ep_comm_seconds << " s); MFU " << none.step.mfu);
}

TEST_CASE("moe: expert_parallel must divide the experts and the data-parallel degree") {
  auto error = [](const std::string& text) {
    const ScenarioParse p = ParseScenarioJson(text);
    return p.errors.empty() ? std::string() : p.errors[0].Text();
  };
  const std::string base = R"({"workload": {"model": "mixtral-8x7b"}, "cluster": {"gpus": 64}, "parallel": {"tensor_parallel": 2, )";
  CHECK(error(base + R"("expert_parallel": 3}})").find("parallel.expert_parallel: must divide workload.experts (8)") == 0);
  CHECK(error(base + R"("expert_parallel": 8, "data_parallel": 4, "pipeline_parallel": 8}})")
            .find("parallel.expert_parallel: must divide the data-parallel degree (4)") == 0);
  CHECK(error(R"({"parallel": {"expert_parallel": 2}})").find("needs a mixture-of-experts model") != std::string::npos);
  CHECK(error(R"({"workload": {"experts": 8}})").find("workload.active_experts") == 0);
  CHECK(error(base + R"("expert_parallel": 8}})").empty());
}

TEST_CASE("moe: DeepSeek-V3 evaluates with its 671B in memory and 37B per token") {
  // DeepSeek trained with 16 pipeline stages over its 61 layers (uneven stages: issue 18's other half); here
  // one stage, 64-way expert parallelism over 2,048 GPUs.
  Scenario s = test::MustParse(R"({"workload": {"model": "deepseek-v3"}, "cluster": {"gpus": 2048},
      "parallel": {"expert_parallel": 64, "micro_batch": 1, "global_batch": 16384, "zero_stage": 1,
                   "recompute": "full"}})");
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.step.ok());
  CHECK(r.flops_per_token == doctest::Approx(6 * 37e9 + 12.0 * 61 * 7168 * 4096));
  CHECK(r.step.ep_comm_seconds > 0);
  CHECK(std::isfinite(r.step.mfu));
  CHECK(r.memory_present);
  MESSAGE("DeepSeek-V3 on 2048 H100 (EP64, one stage): step " << r.step.seconds << " s, MFU " << r.step.mfu << ", memory "
          << r.memory.total_bytes() / 1e9 << " GB per GPU");
}
