// Step-time model (steptime.h, comm.h): golden tests against measured Megatron-LM runs and MLPerf, and the
// model's structure (parts sum to the total, bubble formula, monotone responses, errors).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "hardware/comm.h"
#include "job/evaluate.h"
#include "documents/result_json.h"
#include "training/steptime.h"
#include "../test_util.h"

using namespace gpucost;
using nlohmann::json;

namespace {

json LoadSteptimeData(const char* name) { return json::parse(test::ReadFile(test::DataPath(name))); }

// A scenario on the hardware of a golden file, with the model shape of one row.
Scenario ScenarioFor(const json& doc, const json& row) {
  Scenario s = DefaultScenario();
  const json& hw = doc["hardware"];
  std::snprintf(s.cluster.gpu, sizeof s.cluster.gpu, "%s", hw["gpu"].get<std::string>().c_str());
  s.cluster.gpus_per_node = hw["gpus_per_node"].get<std::int64_t>();
  s.cluster.node_network_gbps = hw["node_network_gbps"].get<double>();
  const std::string precision = hw["precision"].get<std::string>();
  s.workload.precision = static_cast<int>(precision == "fp8" ? Precision::kFp8 : precision == "fp16" ? Precision::kFp16 : Precision::kBf16);
  const json& model = row.contains("layers") ? row : doc["model"];
  s.workload.layers = model["layers"].get<std::int64_t>();
  s.workload.hidden = model["hidden"].get<std::int64_t>();
  s.workload.heads = model["heads"].get<std::int64_t>();
  s.workload.seq_len = doc.contains("seq_len") ? doc["seq_len"].get<std::int64_t>() : model["seq_len"].get<std::int64_t>();
  s.workload.vocab = doc.contains("vocab") ? doc["vocab"].get<std::int64_t>() : model["vocab"].get<std::int64_t>();
  return s;
}

StepHardware HardwareOf(const Scenario& s) {
  EffectiveHardware hw;
  REQUIRE(ResolveHardware(s, &hw));
  return StepHardwareFor(s, hw);
}

Layout LayoutOf(const json& row) {
  Layout l;
  l.tensor = row["tensor"].get<std::int64_t>();
  l.pipeline = row["pipeline"].get<std::int64_t>();
  l.data = row["gpus"].get<std::int64_t>() / (l.tensor * l.pipeline);
  l.global_batch = row["global_batch"].get<std::int64_t>();
  l.micro_batch = row.value("micro_batch", std::int64_t{1});
  l.interleave = row.value("interleave", std::int64_t{1});
  l.zero_stage = 0;
  return l;
}

double SumOfParts(const StepTime& t) {
  return t.compute_seconds + t.memory_bound_seconds + t.recompute_seconds + t.tp_comm_seconds + t.pp_comm_seconds +
         t.dp_comm_seconds + t.bubble_seconds + t.optimizer_seconds;
}

// GPT-3 175B on 64 A100-80GB (Korthikanti et al. Table 3 layout) with sequence parallelism + selective.
struct Gpt3 {
  ModelShape shape;
  Layout layout;
  StepHardware hw;
  Gpt3() {
    Scenario s = DefaultScenario();
    std::snprintf(s.cluster.gpu, sizeof s.cluster.gpu, "%s", "a100-sxm-80gb");
    s.cluster.node_network_gbps = 1600;
    s.workload.layers = 96;
    s.workload.hidden = 12288;
    s.workload.heads = 96;
    s.workload.seq_len = 2048;
    s.workload.vocab = 51200;
    shape = ShapeFromScenario(s);
    hw = HardwareOf(s);
    layout.tensor = 8;
    layout.pipeline = 8;
    layout.data = 1;
    layout.global_batch = 64;
    layout.micro_batch = 1;
    layout.interleave = 3;
    layout.sequence_parallel = true;
    layout.recompute = Recompute::kSelective;
  }
};

}  // namespace

TEST_CASE("Korthikanti et al. 2022 Table 5: measured iteration times within 10% mean absolute error") {
  const json doc = LoadSteptimeData("korthikanti_table5.json");
  double sum_abs = 0;
  int rows = 0;
  for (const json& row : doc["rows"]) {
    const Scenario s = ScenarioFor(doc, row);
    Layout l = LayoutOf(row);
    const bool full = row["mode"].get<std::string>() == "full";
    l.recompute = full ? Recompute::kFull : Recompute::kSelective;
    l.sequence_parallel = !full;
    const StepTime t = EstimateStepTime(ShapeFromScenario(s), l, HardwareOf(s));
    REQUIRE(t.ok());
    const double measured = row["seconds"].get<double>();
    const double error = t.seconds / measured - 1;
    CAPTURE(row["model"].get<std::string>());
    CAPTURE(row["mode"].get<std::string>());
    CAPTURE(t.seconds);
    CAPTURE(measured);
    MESSAGE(row["model"].get<std::string>() << " " << row["mode"].get<std::string>() << ": predicted "
                                             << t.seconds << " s, measured " << measured << " s (" << error * 100 << "%)");
    CHECK(std::fabs(error) <= doc["targets"]["max_abs_error_per_row"].get<double>());
    if (row.contains("mfu")) {  // the published MFU/HFU use the same FLOP convention as the model
      const double mfu_from_measured = t.model_flops / (measured * static_cast<double>(l.gpus()) * 312e12);
      CHECK(mfu_from_measured == doctest::Approx(row["mfu"].get<double>()).epsilon(0.02));
    }
    sum_abs += std::fabs(error);
    ++rows;
  }
  const double mae = sum_abs / rows;
  MESSAGE("Korthikanti Table 5 mean absolute error: " << mae * 100 << "%");
  CHECK(rows == 8);
  CHECK(mae <= doc["targets"]["mean_abs_error"].get<double>());
}

TEST_CASE("Megatron-LM weak scaling (Narayanan et al. 2021 Table 1): HFU 44-52% roughly reproduced") {
  const json doc = LoadSteptimeData("megatron_weak_scaling.json");
  double sum_abs = 0, lowest = 1, highest = 0;
  int rows = 0;
  for (const json& row : doc["rows"]) {
    const Scenario s = ScenarioFor(doc, row);
    Layout l = LayoutOf(row);
    l.recompute = Recompute::kFull;
    l.overlap_comm = false;
    const StepTime t = EstimateStepTime(ShapeFromScenario(s), l, HardwareOf(s));
    REQUIRE(t.ok());
    const double measured = row["percent_of_peak"].get<double>() / 100;
    const double error = t.hfu / measured - 1;
    MESSAGE(row["params_b"].get<double>() << "B on " << row["gpus"].get<int>() << " GPUs: HFU " << t.hfu * 100
                                          << "%, measured " << measured * 100 << "% (" << error * 100 << "%)");
    CHECK(std::fabs(error) <= doc["targets"]["max_abs_error_per_row"].get<double>());
    sum_abs += std::fabs(error);
    lowest = std::min(lowest, t.hfu);
    highest = std::max(highest, t.hfu);
    ++rows;
  }
  CHECK(rows == 10);
  CHECK(sum_abs / rows <= doc["targets"]["mean_abs_error_hfu"].get<double>());
  CHECK(lowest > 0.35);  // no size collapses or exceeds what A100s reach
  CHECK(highest < 0.65);
}

TEST_CASE("MLPerf GPT-3 175B strong scaling 3,584 -> 10,752 H100: about 93% efficiency") {
  const json doc = LoadSteptimeData("mlperf_gpt3_scaling.json");
  const Scenario s = ScenarioFor(doc, doc["model"]);
  const json& lj = doc["layout"];
  Layout l;
  l.tensor = lj["tensor"].get<std::int64_t>();
  l.pipeline = lj["pipeline"].get<std::int64_t>();
  l.interleave = lj["interleave"].get<std::int64_t>();
  l.micro_batch = lj["micro_batch"].get<std::int64_t>();
  l.zero_stage = lj["zero_stage"].get<std::int64_t>();
  l.sequence_parallel = lj["sequence_parallel"].get<bool>();
  l.recompute = Recompute::kSelective;
  l.global_batch = lj["global_batch"].get<std::int64_t>();
  const ModelShape shape = ShapeFromScenario(s);
  const StepHardware hw = HardwareOf(s);
  double per_gpu[2];
  for (int i = 0; i < 2; ++i) {
    const std::int64_t gpus = doc["runs"][i]["gpus"].get<std::int64_t>();
    l.data = gpus / (l.tensor * l.pipeline);
    const StepTime t = EstimateStepTime(shape, l, hw);
    REQUIRE(t.ok());
    per_gpu[i] = t.tokens_per_second / static_cast<double>(gpus);
  }
  const double efficiency = per_gpu[1] / per_gpu[0];
  const double measured = doc["strong_scaling_efficiency"].get<double>();
  const double m0 = doc["runs"][0]["minutes"].get<double>(), m1 = doc["runs"][1]["minutes"].get<double>();
  CHECK(measured == doctest::Approx((m0 / m1) / 3.0).epsilon(0.002));
  MESSAGE("predicted strong-scaling efficiency " << efficiency << ", measured " << measured);
  CHECK(std::fabs(efficiency - measured) <= doc["targets"]["efficiency_abs_error"].get<double>());
}

TEST_CASE("the step is the sum of its named parts; MFU <= HFU; labels of the FLOP conventions") {
  Gpt3 g;
  for (Recompute r : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
    g.layout.recompute = r;
    const StepTime t = EstimateStepTime(g.shape, g.layout, g.hw);
    REQUIRE(t.ok());
    CHECK(t.seconds == doctest::Approx(SumOfParts(t)).epsilon(1e-12));
    CHECK(t.exposed_comm_seconds == doctest::Approx(t.tp_comm_seconds + t.pp_comm_seconds + t.dp_comm_seconds));
    CHECK(t.mfu <= t.hfu);
    CHECK(t.mfu > 0.3);
    CHECK(t.mfu < 0.8);
    if (r == Recompute::kNone) {
      CHECK(t.recompute_seconds == 0);
      CHECK(t.hfu == doctest::Approx(t.mfu));
    }
  }
  // Model FLOPs: Korthikanti et al.'s 72 B s l h^2 (1 + s/6h + V/12lh).
  const StepTime t = EstimateStepTime(g.shape, g.layout, g.hw);
  const double B = 64, s = 2048, l = 96, h = 12288, V = 51200;
  CHECK(t.model_flops == doctest::Approx(72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h))).epsilon(1e-12));
}

TEST_CASE("recompute costs time in the order none < selective < full") {
  Gpt3 g;
  double last = -1;
  for (Recompute r : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
    g.layout.recompute = r;
    const StepTime t = EstimateStepTime(g.shape, g.layout, g.hw);
    CHECK(t.recompute_seconds > last);
    last = t.recompute_seconds;
  }
}

// Issue 26: MaxText's save-dot remat policies, worked by hand on the DGX Cloud recipe's Llama 2 70B layout
// (maxtext/README_70b.md: FSDP on 64 H100, per-device batch 2, sequence 4,096).
// A gated-MLP model with grouped-query attention on H100 (the DGX and Grand Teton nodes' 8 x 400 Gb/s).
Scenario GqaOnH100(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t ffn, std::int64_t seq,
                   std::int64_t vocab) {
  Scenario s = DefaultScenario();
  std::snprintf(s.cluster.gpu, sizeof s.cluster.gpu, "%s", "h100-sxm");
  s.cluster.node_network_gbps = 3200;
  s.workload.layers = layers;
  s.workload.hidden = hidden;
  s.workload.heads = heads;
  s.workload.kv_heads = 8;
  s.workload.ffn_hidden = ffn;
  s.workload.ffn_gated = true;
  s.workload.seq_len = seq;
  s.workload.vocab = vocab;
  return s;
}

struct MaxtextLlama2 {
  ModelShape shape;
  Layout layout;
  StepHardware hw;
  MaxtextLlama2() {
    const Scenario s = GqaOnH100(80, 8192, 64, 28672, 4096, 32000);
    shape = ShapeFromScenario(s);
    hw = HardwareOf(s);
    layout.data = 64;
    layout.zero_stage = 3;
    layout.micro_batch = 2;
    layout.global_batch = 128;
    layout.flash_attention = true;
  }
};

TEST_CASE("MaxText's save-dot policies recompute the attention core and the MLP input projections") {
  MaxtextLlama2 g;
  g.layout.recompute = Recompute::kNone;
  const StepTime none = EstimateStepTime(g.shape, g.layout, g.hw);
  REQUIRE(none.ok());
  // The README's model FLOPs of one sequence: 4096 x (attention 104.69e9 + MLP 338.23e9 + embedding 1.57e9)
  // = 1.82e15; gpucost's convention (6 N + 12 L h s per token) counts the same within 0.5%.
  CHECK(none.model_flops / 128 == doctest::Approx(4096 * (104689827840.0 + 338228674560.0 + 1572864000.0)).epsilon(0.005));
  g.layout.recompute = Recompute::kSaveDotExceptMlpwi;
  const StepTime wi = EstimateStepTime(g.shape, g.layout, g.hw);
  g.layout.recompute = Recompute::kSaveDotExceptMlp;
  const StepTime mlp = EstimateStepTime(g.shape, g.layout, g.hw);
  REQUIRE(wi.ok());
  REQUIRE(mlp.ok());
  // Recomputed per token, by hand: the gate and up projections' forward, 2 x 80 x 2 x 8192 x 28672 = 75.16e9,
  // plus the attention core's forward, 4 x 80 x 8192 x 4096 = 10.74e9 (a third of 12 L h s).
  const double tokens = 128.0 * 4096;
  CHECK((wi.hardware_flops - wi.model_flops) / tokens == doctest::Approx(75161927680.0 + 10737418240.0).epsilon(1e-9));
  // The MLP-out output is not needed by the backward: both policies recompute the same work.
  CHECK(mlp.recompute_seconds == doctest::Approx(wi.recompute_seconds).epsilon(1e-12));
  // More than the fused kernel's selective (nothing) and less than full (every GEMM of the forward).
  g.layout.recompute = Recompute::kFull;
  const StepTime full = EstimateStepTime(g.shape, g.layout, g.hw);
  CHECK(none.recompute_seconds == 0);
  CHECK(wi.recompute_seconds > 0);
  CHECK(wi.recompute_seconds < full.recompute_seconds);
  CHECK(wi.seconds == doctest::Approx(SumOfParts(wi)).epsilon(1e-12));
}

TEST_CASE("torchtitan's per-op checkpointing recomputes every second matmul: key, output and up projections") {
  // torchtitan 9dec370, parallelize_llama.py: "Saves output of all compute ops, except every second mm", the count
  // restarting in each block; Llama's matmuls run query, key, value, output, gate, up, down.
  const Scenario s = GqaOnH100(32, 4096, 32, 14336, 8192, 128256);
  const ModelShape shape = ShapeFromScenario(s);
  const StepHardware hw = HardwareOf(s);
  Layout l;
  l.data = 8;
  l.zero_stage = 3;
  l.micro_batch = 2;
  l.global_batch = 16;
  l.flash_attention = true;
  l.recompute = Recompute::kSelectiveOp;
  const StepTime op = EstimateStepTime(shape, l, hw);
  l.recompute = Recompute::kSelective;  // Megatron's: with a fused kernel, nothing to recompute
  const StepTime megatron = EstimateStepTime(shape, l, hw);
  l.recompute = Recompute::kFull;
  const StepTime full = EstimateStepTime(shape, l, hw);
  REQUIRE(op.ok());
  // By hand, per token: 2 x 32 layers x (4096 x 1024 + 4096 x 4096 + 4096 x 14336) = 5,100,273,664 FLOPs.
  CHECK((op.hardware_flops - op.model_flops) / (16.0 * 8192) == doctest::Approx(5100273664.0).epsilon(1e-9));
  CHECK(megatron.recompute_seconds == 0);
  CHECK(op.recompute_seconds > 0);
  CHECK(op.recompute_seconds < full.recompute_seconds);
  CHECK(op.seconds == doctest::Approx(SumOfParts(op)).epsilon(1e-12));
}

TEST_CASE("the pipeline bubble is (p-1)/(m v) of the ideal pipeline time") {
  Gpt3 g;
  for (std::int64_t v : {1, 2, 3, 4}) {
    g.layout.interleave = v;
    const StepTime t = EstimateStepTime(g.shape, g.layout, g.hw);
    REQUIRE(t.ok());
    const double busy = t.compute_seconds + t.memory_bound_seconds + t.recompute_seconds + t.tp_comm_seconds + t.pp_comm_seconds;
    const double m = 64;
    CHECK(t.bubble_seconds == doctest::Approx(busy * 7.0 / (m * static_cast<double>(v))).epsilon(1e-12));
  }
  g.layout.pipeline = 1;
  g.layout.interleave = 1;
  g.layout.tensor = 8;
  g.layout.data = 8;
  CHECK(EstimateStepTime(g.shape, g.layout, g.hw).bubble_seconds == 0);
}

TEST_CASE("faster links, overlap and sequence parallelism help where they should") {
  Gpt3 g;
  const StepTime base = EstimateStepTime(g.shape, g.layout, g.hw);
  StepHardware fast = g.hw;
  fast.nvlink_bytes_per_s *= 2;
  CHECK(EstimateStepTime(g.shape, g.layout, fast).tp_comm_seconds < base.tp_comm_seconds);
  // Sequence parallelism splits norms and dropouts over the tensor group.
  Layout no_sp = g.layout;
  no_sp.sequence_parallel = false;
  CHECK(EstimateStepTime(g.shape, no_sp, g.hw).memory_bound_seconds > base.memory_bound_seconds);
  // Data parallel across nodes: overlap hides part of the reduction; a slower network exposes more.
  Layout dp = g.layout;
  dp.tensor = 8;
  dp.pipeline = 4;
  dp.interleave = 1;
  dp.data = 16;
  dp.global_batch = 256;
  dp.zero_stage = 1;
  dp.overlap_comm = false;
  const StepTime plain = EstimateStepTime(g.shape, dp, g.hw);
  dp.overlap_comm = true;
  const StepTime overlapped = EstimateStepTime(g.shape, dp, g.hw);
  CHECK(plain.dp_comm_seconds == doctest::Approx(plain.dp_comm_total_seconds));
  CHECK(overlapped.dp_comm_seconds < plain.dp_comm_seconds);
  StepHardware slow = g.hw;
  slow.network_bytes_per_s /= 8;
  CHECK(EstimateStepTime(g.shape, dp, slow).dp_comm_total_seconds > overlapped.dp_comm_total_seconds);
  // ZeRO-3 gathers the weights for every micro-batch: more data-parallel traffic than ZeRO-1.
  dp.zero_stage = 3;
  CHECK(EstimateStepTime(g.shape, dp, g.hw).dp_comm_total_seconds > overlapped.dp_comm_total_seconds);
}

TEST_CASE("GEMM and HBM efficiency curves are monotone and bounded") {
  double last = 0;
  for (double flops = 1e6; flops < 1e13; flops *= 1.7) {
    const double e = GemmEfficiency(flops);
    CHECK(e >= last);
    CHECK(e > 0);
    CHECK(e <= 0.8);
    last = e;
  }
  CHECK(GemmEfficiency(1e12) == doctest::Approx(0.79));
  last = 0;
  for (double bytes = 1e3; bytes < 1e10; bytes *= 1.9) {
    const double e = HbmEfficiency(bytes);
    CHECK(e >= last);
    last = e;
  }
  CHECK(HbmEfficiency(1e9) == doctest::Approx(0.95));
}

TEST_CASE("ring collectives: bandwidth term and the hierarchy across nodes") {
  Links l;
  l.nvlink_bytes_per_s = 200e9;
  l.network_bytes_per_s = 20e9;
  const Group node = GroupOf(8, 1, 8);
  CHECK(node.per_node == 8);
  const double bytes = 1e9;
  CHECK(AllGatherSeconds(bytes, node, l) == doctest::Approx(7.0 / 8 * bytes / 200e9 + 7 * kNvlinkHopSeconds));
  CHECK(AllReduceSeconds(bytes, node, l) == doctest::Approx(2 * AllGatherSeconds(bytes, node, l)));
  // 64 data-parallel ranks 8 apart: one per node, all traffic on the network.
  const Group spread = GroupOf(64, 8, 8);
  CHECK(spread.per_node == 1);
  CHECK(AllGatherSeconds(bytes, spread, l) == doctest::Approx(63.0 / 64 * bytes / 20e9 + 63 * kNetworkHopSeconds));
  // 16 ranks 4 apart: 2 per node; the network carries half the buffer per GPU.
  const Group pairs = GroupOf(16, 4, 8);
  CHECK(pairs.per_node == 2);
  CHECK(AllGatherSeconds(bytes, pairs, l) ==
        doctest::Approx(0.5 * bytes / 200e9 + kNvlinkHopSeconds + 7.0 / 8 * (bytes / 2) / 20e9 + 7 * kNetworkHopSeconds));
  CHECK(AllGatherSeconds(bytes, GroupOf(1, 1, 8), l) == 0);
}

TEST_CASE("invalid layouts are errors, never NaN") {
  Gpt3 g;
  Layout l = g.layout;
  l.tensor = 7;
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kTensorHeads);
  l = g.layout;
  l.pipeline = 40;  // 96 layers cannot fill 40 stages x 3 chunks
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kPipelineLayers);
  l.interleave = 1;
  l.global_batch = 40;
  l.pipeline = 5;  // uneven stages are fine: 18, 20, 20, 20, 18
  CHECK(EstimateStepTime(g.shape, l, g.hw).ok());
  l = g.layout;
  l.context = 3;  // 2048 tokens do not split into 2 x 3 chunks
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kContextSeq);
  l = g.layout;
  l.micro_batch = 2;
  l.global_batch = 63;
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kBatchSplit);
  l = g.layout;
  l.global_batch = 0;
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kGlobalBatchUnknown);
  l = g.layout;
  l.global_batch = 8 * 4;  // 32 micro-batches: fine; 36 would not divide by p = 8 with interleaving
  CHECK(EstimateStepTime(g.shape, l, g.hw).ok());
  l.global_batch = 36;
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kInterleave);
  l = g.layout;
  l.zero_stage = 4;
  CHECK(EstimateStepTime(g.shape, l, g.hw).error == LayoutError::kBadDegree);
  CHECK(EstimateStepTime(ModelShape{}, g.layout, g.hw).error == LayoutError::kShapeUnknown);
  for (LayoutError e : {LayoutError::kShapeUnknown, LayoutError::kBatchSplit, LayoutError::kInterleave})
    CHECK(std::string(LayoutErrorText(e)).size() > 10);
}

TEST_CASE("scaling: a single-node MFU predicts the MFU at N GPUs; efficiency <= 1, worse on a slow network") {
  Gpt3 g;
  Layout l = g.layout;
  l.interleave = 1;
  l.pipeline = 1;
  l.tensor = 8;
  l.data = 128;
  l.global_batch = 128 * 4;
  l.zero_stage = 1;
  const double fast = ScalingEfficiency(g.shape, l, g.hw);
  StepHardware slow = g.hw;
  slow.network_bytes_per_s /= 16;
  const double slower = ScalingEfficiency(g.shape, l, slow);
  CHECK(fast <= 1.0 + 1e-12);
  CHECK(fast > 0.5);
  CHECK(slower < fast);
  CHECK(PredictMfuFromSingleNode(0.5, g.shape, l, g.hw) == doctest::Approx(0.5 * fast));
}

TEST_CASE("Evaluate uses the predicted MFU when cluster.mfu is absent, and says so") {
  Scenario s = test::MustParse(R"({
    "cluster": {"gpu": "a100-sxm-80gb", "gpus": 64, "node_network_gbps": 1600},
    "workload": {"params": 175e9, "tokens": 300e9, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048,
                 "vocab": 51200},
    "parallel": {"tensor_parallel": 8, "pipeline_parallel": 8, "global_batch": 64, "pipeline_interleave": 3,
                 "sequence_parallel": true, "recompute": "selective", "zero_stage": 0}})");
  Result r = Evaluate(s);
  REQUIRE(r.ok);
  REQUIRE(r.step.ok());
  CHECK(r.mfu_source == MfuSource::kPredicted);
  CHECK(r.mfu == doctest::Approx(r.step.mfu));
  const json doc = json::parse(ResultToJson(s, r));
  for (const char* key : {"seconds", "compute_seconds", "recompute_seconds", "exposed_comm_seconds", "bubble_seconds",
                          "mfu", "hfu", "memory_bound_seconds", "optimizer_seconds"}) {
    CAPTURE(key);
    CHECK(doc["step"].contains(key));
  }
  CHECK(doc["work"]["mfu_source"].get<std::string>() == "predicted");
  // Given MFU wins; a single-node MFU is scaled by the modelled efficiency.
  s.cluster.mfu = 0.45;
  r = Evaluate(s);
  CHECK(r.mfu_source == MfuSource::kGiven);
  CHECK(r.mfu == 0.45);
  CHECK(r.step.ok());
  s.cluster.mfu = 0;
  s.parallel.single_node_mfu = 0.5;
  r = Evaluate(s);
  CHECK(r.mfu_source == MfuSource::kPredicted);
  CHECK(r.mfu == doctest::Approx(0.5 * r.scaling_efficiency));
  // A layout that does not match the GPU count: no prediction (an invalid scenario, or a warning).
  s.parallel.single_node_mfu = 0;
  s.cluster.gpus = 100;
  r = Evaluate(s);
  CHECK(!r.step.ok());
  CHECK(r.mfu_source != MfuSource::kPredicted);
  CHECK((!r.ok || r.warnings.count >= 1));
  CHECK(json::parse(ResultToJson(s, r)).contains("step") == false);
}

TEST_CASE("step time: grouped-query attention is faster and a gated MLP slower, as their GEMMs say") {
  Scenario s = DefaultScenario();
  s.workload.layers = 80, s.workload.hidden = 8192, s.workload.heads = 64, s.workload.ffn_hidden = 28672;
  s.workload.vocab = 32000, s.workload.seq_len = 4096;
  Layout l;
  l.tensor = 8, l.pipeline = 4, l.data = 2, l.global_batch = 64;
  const StepHardware hw = HardwareOf(s);
  ModelShape m = ShapeFromScenario(s);
  const StepTime mha = EstimateStepTime(m, l, hw);
  m.kv_heads = 8;
  const StepTime gqa = EstimateStepTime(m, l, hw);
  m.ffn_gated = true;
  const StepTime gated = EstimateStepTime(m, l, hw);
  REQUIRE(mha.ok());
  REQUIRE(gqa.ok());
  REQUIRE(gated.ok());
  CHECK(gqa.compute_seconds < mha.compute_seconds);
  CHECK(gated.compute_seconds > gqa.compute_seconds);
  CHECK(gqa.params < mha.params);
  CHECK(gated.params == doctest::Approx(gqa.params + 80 * 8192.0 * 28672));  // one more h x ffn matrix a layer
  m.kv_heads = 12;  // 12 KV heads cannot be split 8 ways
  CHECK(EstimateStepTime(m, l, hw).error == LayoutError::kTensorHeads);
}

// Issue 46: eager PyTorch (parallel.fused_elementwise false) runs a composed RMSNorm (pow, mean, + eps, rsqrt, x * r,
// * weight) and silu(gate) x up as a kernel per op. Worked by hand for one Llama 3 8B layer on one H100, one sequence
// of 8,192 tokens, no recompute (e = 2 bytes): forward, two norms x 5e on h = 4,096 and 2e on the gated MLP's
// f = 14,336 per token: 8,192 x (4,096 x 20 + 14,336 x 4) = 1,140,850,688 bytes; backward twice that; 32 layers.
// The extra memory-bound time is those bytes at the HBM rate the model gives a pass over b·s·h. A GPT-style shape
// (LayerNorm, GeLU: one ATen kernel each even in eager mode) is unchanged.
TEST_CASE("eager PyTorch norms and gated activation: the extra passes, worked by hand") {
  Scenario s = DefaultScenario();
  std::snprintf(s.cluster.gpu, sizeof s.cluster.gpu, "h100-sxm");
  s.workload.layers = 32;
  s.workload.hidden = 4096;
  s.workload.heads = 32;
  s.workload.kv_heads = 8;
  s.workload.ffn_hidden = 14336;
  s.workload.ffn_gated = 1;
  s.workload.seq_len = 8192;
  s.workload.vocab = 128256;
  Layout l;
  l.tensor = l.pipeline = l.data = 1;
  l.global_batch = l.micro_batch = 1;
  l.flash_attention = true;
  const StepHardware hw = HardwareOf(s);
  const StepTime fused = EstimateStepTime(ShapeFromScenario(s), l, hw);
  l.fused_elementwise = false;
  const StepTime eager = EstimateStepTime(ShapeFromScenario(s), l, hw);
  REQUIRE(fused.ok());
  REQUIRE(eager.ok());
  const double per_layer_forward = 8192.0 * (4096 * 20 + 14336 * 4);
  CHECK(per_layer_forward == 1140850688.0);
  const double extra = 32 * 3 * per_layer_forward / (hw.hbm_bytes_per_s * HbmEfficiency(8192.0 * 4096 * 2));
  CHECK(eager.memory_bound_seconds - fused.memory_bound_seconds == doctest::Approx(extra).epsilon(1e-9));
  CHECK(eager.compute_seconds == fused.compute_seconds);
  // GPT-style: LayerNorm and GeLU are single kernels in eager mode too.
  s.workload.ffn_gated = 0;
  s.workload.kv_heads = 0;
  s.workload.ffn_hidden = 0;
  l.fused_elementwise = true;
  const StepTime gpt_fused = EstimateStepTime(ShapeFromScenario(s), l, hw);
  l.fused_elementwise = false;
  CHECK(EstimateStepTime(ShapeFromScenario(s), l, hw).seconds == gpt_fused.seconds);
}
