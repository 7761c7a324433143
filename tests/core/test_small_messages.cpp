// test_small_messages.cpp — serving's collectives at small messages and the other serving physics of issue 46:
// NCCL's protocols, the engines' custom all-reduce against a published measurement, batch-1 decode at TP 8,
// int4 weight-only de-quantisation and multi-head latent attention's prefill.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hardware/catalog.h"
#include "hardware/comm.h"
#include "serving/inference_model.h"
#include "serving/inference_techniques.h"
#include "scenario/models.h"
#include "../test_util.h"

using namespace gpucost;

TEST_CASE("custom all-reduce: SGLang PR #2904's H100 table (TP 2, 4, 8 x 512 B - 1 MB) within 8% on average") {
  // sgl-project/sglang PR #2904 (2025-01-15), 'unit test performance in H100', custom allreduce latency (ms).
  const double sizes[] = {512, 4096, 32768, 262144, 524288, 1048576};
  const double measured[3][6] = {{0.0037, 0.0039, 0.0045, 0.0079, 0.0125, 0.0199},
                                 {0.0048, 0.0037, 0.0048, 0.0139, 0.0202, 0.0311},
                                 {0.0059, 0.0057, 0.0078, 0.0167, 0.0221, 0.0338}};
  const Links h100 = LinksFor(900, 128, 8, 3200e9 / 8 / 8, 8, 0.8);
  double sum = 0;
  int n = 0;
  const int tps[] = {2, 4, 8};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 6; ++k) {
      const double ms = CustomAllReduceSeconds(sizes[k], GroupOf(tps[i], 1, 8), h100) * 1e3;
      sum += std::fabs(ms / measured[i][k] - 1);
      ++n;
    }
  CHECK(sum / n <= 0.08);
}

TEST_CASE("NCCL's protocols: a 16 KB all-reduce over 8 NVLink GPUs takes LL's latency, a 64 MB one the ring's bandwidth") {
  const Links l = LinksFor(900, 128, 8, 3200e9 / 8 / 8, 8, 0.8);
  const Group g = GroupOf(8, 1, 8);
  // LL: 6.6 us + 14 steps x 0.6 us + 16 KB x 14/8 / (half of 360 GB/s): 15.2 us.
  CHECK(NcclAllReduceSeconds(16384, g, l) == doctest::Approx(6.6e-6 + 14 * 0.6e-6 + 16384 * 14.0 / 8 / 180e9));
  // Large: Simple, 8.4 + 14 x 3.4 us + 64 MB x 14/8 / 360 GB/s.
  CHECK(NcclAllReduceSeconds(64e6, g, l) == doctest::Approx(8.4e-6 + 14 * 3.4e-6 + 64e6 * 14.0 / 8 / 360e9));
  // The serving engines' own kernel wins at small sizes, only inside one NVLink island and with CUDA graphs.
  CHECK(ServingAllReduceSeconds(16384, g, l, true) < 0.5 * ServingAllReduceSeconds(16384, g, l, false));
  const Links pcie = LinksFor(0, 64, 1, 400e9 / 8 / 8, 8, 0.8);
  CHECK(ServingAllReduceSeconds(16384, g, pcie, true) == ServingAllReduceSeconds(16384, g, pcie, false));
}

namespace {
Scenario Serve(const std::string& model, const std::string& gpu, int tp, const std::string& extra = "") {
  return test::MustParse(R"({"workload": {"kind": "inference", "model": ")" + model + R"("}, "cluster": {"gpu": ")" + gpu +
                         R"("}, "parallel": {"tensor_parallel": )" + std::to_string(tp) +
                         R"(}, "inference": {"requests_per_second": 1, "input_tokens": 128, "output_tokens": 128)" + extra + "}}");
}
}  // namespace

TEST_CASE("batch-1 decode at TP 8: the per-layer all-reduces cost the custom kernel's ~6 us, not a ring's 28 us") {
  // Llama 3.1 70B on 8 H100: 160 all-reduces of 16 KB per token. Issue 46: a ring with 2 us per hop put 4.5 ms of a
  // ~14 ms step in them; the engines' one-shot kernel takes 5.1 us + 7 x 16 KB / 70 GB/s = 6.7 us each.
  const Scenario s = Serve("llama-3.1-70b", "h100-sxm", 8);
  const InferenceModel m = InferenceModelFor(s);
  const ReplicaModel r = ReplicaFor(s, m, *FindGpu("h100-sxm"), 8);
  const double comm = StepCommSeconds(m, r, 1, 0);
  CHECK(comm == doctest::Approx(160 * (3.7e-6 + 7 * 0.2e-6 + 7 * 16384 / 70e9)).epsilon(0.01));
  // An eager engine (no custom kernel) pays NCCL's LL protocol: 15.2 us each.
  const Scenario eager = Serve("llama-3.1-70b", "h100-sxm", 8, R"(, "cuda_graphs": false)");
  const InferenceModel me = InferenceModelFor(eager);
  const ReplicaModel re = ReplicaFor(eager, me, *FindGpu("h100-sxm"), 8);
  CHECK(StepCommSeconds(me, re, 1, 0) == doctest::Approx(160 * (6.6e-6 + 14 * 0.6e-6 + 16384 * 14.0 / 8 / 180e9)).epsilon(0.01));
}

TEST_CASE("int4 weight-only: group scales read with the weights; de-quantisation bounds the step on a slow CUDA core") {
  const Scenario s = Serve("llama-3.1-70b", "h100-sxm", 2, R"(, "weight_precision": "int4", "weight_group_size": 64)");
  const InferenceModel m = InferenceModelFor(s);
  CHECK(m.weight_bytes_per_param == doctest::Approx(0.5 + 2.5 / 64));
  CHECK(m.dequant_instructions_per_weight == 1.5);
  // On an H100 the reads bind (35 GB at 3.35 TB/s x 0.8 = 13 ms per GPU-pair against 35e9 x 1.5 / 33.5 T = 1.6 ms);
  // the de-quantisation time is what the CUDA cores need: weights x 1.5 / (FP32 peak / 2).
  const ReplicaModel r = ReplicaFor(s, m, *FindGpu("h100-sxm"), 2);
  CHECK(r.cuda_core_instructions_per_s == doctest::Approx(DensePeakTflops(*FindGpu("h100-sxm"), Precision::kFp32) * 1e12 / 2));
}

TEST_CASE("MLA prefill: DeepSeek-V3's attention is 128 heads x (192 + 128) / 2 wide per query-key pair, not 7,168") {
  const Scenario s = Serve("deepseek-v3", "h200-sxm", 8);
  const InferenceModel m = InferenceModelFor(s);
  CHECK(m.prefill_attention_width == doctest::Approx(128.0 * (128 + 64 + 128) / 2));
  // A 32K-token prompt: the attention term 2 L w t^2 is 2.86x the hidden-width one, and half the prompt's FLOPs grow
  // with it (issue 46: a DeepSeek-R1-class 32K prefill was predicted about twice as fast as measured).
  const double t = 32768, attention = 2 * m.layers * m.prefill_attention_width * t * t;
  const double without = PrefillFlops(m, t) - attention + 2 * m.layers * m.hidden * t * t;
  CHECK(m.prefill_attention_width / m.hidden == doctest::Approx(20480.0 / 7168));
  CHECK(PrefillFlops(m, t) / without > 1.5);
}

// Issue 46: a prompt's attention multiplies activations by its keys and values, not by weights: beside fp8 weights and
// a 16-bit KV cache (DeepSeek-R1's fp8 checkpoint as vLLM and SGLang serve it by default) it runs at the 16-bit peak,
// as decode's attention does. Worked by hand: moving the cache to fp8 moves only the attention's term, from the
// H200's 989 to its 1,979 dense TFLOP/s, and the difference is that term's FLOPs at the two rates.
TEST_CASE("MoE finalize: vLLM's and SGLang's separate sum of the k expert outputs, none when fused or expert parallel") {
  // Hand-worked: DeepSeek-V3 (58 MoE layers, k = 8, hidden 7,168) on 8 H200 (4.8 TB/s) with tensor-split experts: each
  // GPU writes the k 16-bit outputs of every token and a moe_sum kernel reads them back and writes the sum, (8 + 1) x
  // 7,168 x 2 bytes per token and MoE layer, at the default streaming efficiency (0.8). A 4,000-token prompt:
  // 4,000 x 58 x 9 x 7,168 x 2 B = 29.9 GB, 7.8 ms.
  const Scenario vllm = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "kv_precision": "bf16")");
  const Scenario trt = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "kv_precision": "bf16", "fused_moe_finalize": true)");
  const GpuSpec& gpu = *FindGpu("h200-sxm");
  REQUIRE(gpu.hbm_tbps == 4.8);
  const InferenceModel m = InferenceModelFor(vllm), mf = InferenceModelFor(trt);
  const ReplicaModel r = ReplicaFor(vllm, m, gpu, 8), rf = ReplicaFor(trt, mf, gpu, 8);
  REQUIRE(m.moe_layers == 58);
  const double pass = 4000.0 * 58 * 9 * 7168 * 2 / (4.8e12 * 0.8);
  CHECK(MoeFinalizeSeconds(m, r, 4000) == doctest::Approx(pass));
  CHECK(MoeFinalizeSeconds(mf, rf, 4000) == 0);
  // The prompt's time differs by the pass and by the sum's kernel boundary, one per MoE layer (of 6.25 per dense layer).
  CHECK(PrefillSeconds(m, r, 4000) - PrefillSeconds(mf, rf, 4000) ==
        doctest::Approx(pass + 58 * kKernelBoundarySecondsPerLayer / kKernelsPerDenseLayer).epsilon(1e-9));
  // A decode step of 64 sequences carries 64 tokens' pass.
  CHECK(DecodeStepSeconds(m, r, 64) - DecodeStepSeconds(mf, rf, 64) ==
        doctest::Approx(64.0 * 58 * 9 * 7168 * 2 / (4.8e12 * 0.8) + 58 * kKernelBoundarySecondsPerLayer / kKernelsPerDenseLayer).epsilon(1e-9));
  // Expert parallel (data attention, whole experts per GPU): the combine all-to-all sums them; a dense model has none.
  const Scenario ep = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "attention": "data")");
  const InferenceModel me = InferenceModelFor(ep);
  CHECK(MoeFinalizeSeconds(me, ReplicaFor(ep, me, gpu, 8), 4000) == 0);
  const Scenario dense = Serve("llama-3.1-70b", "h100-sxm", 4);
  const InferenceModel md = InferenceModelFor(dense);
  CHECK(MoeFinalizeSeconds(md, ReplicaFor(dense, md, *FindGpu("h100-sxm"), 4), 4000) == 0);
}

TEST_CASE("block-scaled FP8 decode GEMMs: ceil(n / 128) thread blocks read the weights; published kernel times agree") {
  // Independent checks (kernel measurements, not fitted): H100 SXM, 3.35 TB/s, 132 SMs.
  const GpuSpec& h100 = *FindGpu("h100-sxm");
  REQUIRE(h100.sms == 132);
  // vLLM PR #23280: CUTLASS block FP8, DeepSeek-V3's n = 2112, k = 7168, one row: 34 us. 17 blocks: 15.1 MB at 17 / 132
  // of 3.35 TB/s = 35.1 us.
  CHECK(BlockScaledReadSeconds(2112, 7168, 1, 1, 3.35e12, 132, 0.8) == doctest::Approx(2112.0 * 7168 / (3.35e12 * 17 / 132)));
  CHECK(BlockScaledReadSeconds(2112, 7168, 1, 1, 3.35e12, 132, 0.8) == doctest::Approx(34e-6).epsilon(0.10));
  // SGLang PR #5207, vLLM's kernel, n = 7168, k = 16384 (rows 1-128): 90 us; 56 blocks: 82.6 us.
  CHECK(BlockScaledReadSeconds(7168, 16384, 64, 1, 3.35e12, 132, 0.8) == doctest::Approx(90e-6).epsilon(0.10));
  // Enough thread blocks (a large batch: 64-row tiles) read at the streaming efficiency, as any GEMM.
  CHECK(BlockScaledReadSeconds(7168, 16384, 4096, 1, 3.35e12, 132, 0.8) == doctest::Approx(7168.0 * 16384 / (3.35e12 * 0.8)));

  // DeepSeek-V3 on 8 H200 (132 SMs), one sequence, its own FP8 checkpoint against per-tensor FP8: the step adds, per
  // layer, the latent down-projection (n = 1536 + 576 = 2112, k = 7168, whole on each GPU: 17 blocks), the queries'
  // up-projection (n = 128 x 192 / 8 = 3072, k = 1536: 24), the output projection (n = 7168, k = 128 x 128 / 8 = 2048:
  // 56); the 3 dense layers' MLP (n = 2 x 18432 / 8 = 4608, k = 7168: 36; n = 7168, k = 2304: 56); the 58 MoE layers'
  // shared expert (n = 2 x 2048 / 8 = 512: 4; n = 7168, k = 256: 56) and the 8 routed experts one token touches
  // (8 x 4 and 8 x 56 blocks), each at blocks / 132 of 4.8 TB/s instead of 0.8 of it.
  const Scenario tensor = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8")");
  const Scenario block = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "weight_scaling": "block")");
  const GpuSpec& h200 = *FindGpu("h200-sxm");
  const InferenceModel mt = InferenceModelFor(tensor), mb = InferenceModelFor(block);
  const ReplicaModel rt = ReplicaFor(tensor, mt, h200, 8), rb = ReplicaFor(block, mb, h200, 8);
  REQUIRE(mb.q_lora == 1536);
  auto over = [](double n, double k, double blocks) { return n * k * (1 / (4.8e12 * std::min(0.8, blocks / 132)) - 1 / (4.8e12 * 0.8)); };
  const double hand = 61 * (over(2112, 7168, 17) + over(3072, 1536, 24) + over(7168, 2048, 56)) +
                      3 * (over(4608, 7168, 36) + over(7168, 2304, 56)) +
                      58 * (over(512, 7168, 4) + over(7168, 256, 56)) +
                      58 * (8 * 512 * 7168 * (1 / (4.8e12 * (8 * 4 / 132.0)) - 1 / (4.8e12 * 0.8)) +
                            8 * 7168 * 256 * (1 / (4.8e12 * 0.8) - 1 / (4.8e12 * 0.8)));
  const double touched = 256 * ExpertReadShare(mb, 1);
  REQUIRE(touched == doctest::Approx(8));
  CHECK(BlockScaledDecodeSeconds(mb, rb, 1) == doctest::Approx(hand).epsilon(1e-9));
  // The activation quantisation before each block-FP8 GEMM (next test case) is the rest of the difference.
  const double quant = BlockQuantSeconds(mb, rb, 1) + (KernelBoundarySeconds(mb) - KernelBoundarySeconds(mt));
  CHECK(DecodeStepSeconds(mb, rb, 1) - DecodeStepSeconds(mt, rt, 1) == doctest::Approx(hand + quant).epsilon(1e-9));
  MESSAGE("DeepSeek-V3, 8 H200, batch 1: block scales add " << hand * 1e3 << " ms a step to the reads, " << quant * 1e3
                                                            << " ms of quantisation kernels");
  CHECK(BlockScaledDecodeSeconds(mt, rt, 1) == 0);
  // Every catalog GPU gives its SM count (assets/gpus.json's conventions say where from).
  for (std::size_t i = 0; i < GpuCount(); ++i) CHECK_MESSAGE(Gpus()[i].sms > 0, Gpus()[i].id);
}

TEST_CASE("block-scaled FP8: a quantisation kernel before each block-FP8 GEMM, counted by hand for DeepSeek-V3 on 8 H200") {
  // Counted from vLLM's and SGLang's code (per_token_group_quant_fp8 before each W8A8 block linear; fused_moe's
  // moe_kernel_quantize_input before each expert GEMM): per layer MLA's three inputs (the fused down-projection, the
  // queries' up-projection, the output projection), the 3 dense layers' MLP two, the 58 MoE layers' shared expert two and
  // routed experts two: 61 x 3 + 3 x 2 + 58 x 4 = 421 kernels a step.
  const Scenario tensor = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8")");
  const Scenario block = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "weight_scaling": "block")");
  const GpuSpec& h200 = *FindGpu("h200-sxm");
  const InferenceModel mt = InferenceModelFor(tensor), mb = InferenceModelFor(block);
  const ReplicaModel rt = ReplicaFor(tensor, mt, h200, 8), rb = ReplicaFor(block, mb, h200, 8);
  CHECK(mb.extra_kernels_per_step - mt.extra_kernels_per_step == doctest::Approx(421));
  CHECK(KernelBoundarySeconds(mb) - KernelBoundarySeconds(mt) == doctest::Approx(421 / kKernelsPerDenseLayer * kKernelBoundarySecondsPerLayer));
  // Bytes: each input's 16-bit rows read, fp8 written, a 4-byte scale per 128. Input widths per token on one GPU (TP 8):
  // 7,168 + 1,536 + 128 x 128 / 8 = 2,048 (attention, 61 layers); 7,168 + 18,432 / 8 (dense MLP, 3); 7,168 + 2,048 / 8
  // (shared expert, 58); 7,168 + 8 x 2,048 / 8 (routed, 58).
  const double elements = 61.0 * (7168 + 1536 + 2048) + 3.0 * (7168 + 2304) + 58.0 * (7168 + 256) + 58.0 * (7168 + 2048);
  CHECK(BlockQuantSeconds(mb, rb, 1000) == doctest::Approx(1000 * elements * (3 + 4.0 / 128) / (4.8e12 * 0.8)).epsilon(1e-9));
  MESSAGE("DeepSeek-V3, 8 H200: 421 quantisation kernels, " << (KernelBoundarySeconds(mb) - KernelBoundarySeconds(mt)) * 1e3
                                                            << " ms of boundaries a step; 1,000 tokens' quantisation "
                                                            << BlockQuantSeconds(mb, rb, 1000) * 1e3 << " ms");
  // Per-tensor fp8 (the norm's or the activation's kernel quantises): nothing.
  CHECK(BlockQuantSeconds(mt, rt, 1000) == 0);
  // A prefill pays it too: the prompt's compute with block scales exceeds the per-tensor one by at least the bytes.
  CHECK(PrefillSeconds(mb, rb, 4000) - PrefillSeconds(mt, rt, 4000) >= BlockQuantSeconds(mb, rb, 4000));
}

TEST_CASE("block-scaled FP8 without MLA's query down-projection: two linears quantise the hidden state, counted by hand") {
  // DeepSeek-V2-Lite's MLA has no query latent: the queries' projection (7,168 -> 128 x 192 / 8 on one GPU) and the
  // latent's down-projection (7,168 -> 576) are two linears, each quantising the hidden state before its GEMM (vLLM's
  // DeepseekV2MLAAttention: q_proj and kv_a_proj_with_mqa, no fused_qkv_a_proj). DeepSeek-V3's shape with its attention
  // weights stated as the rest alone (workload.attention_params 138,347,008 = 7,168 x 576 + 512 + 512 x 128 x 256 +
  // 128 x 128 x 7,168) has no query latent. Per token on one GPU (TP 8): 7,168 + 7,168 + 2,048 for attention (61
  // layers), the rest as with the latent: 3 kernels per attention, 421 in all. Before one list fed the bytes, the
  // kernels and the reads, the bytes took the hidden state once (7,168 + 0 + 2,048).
  auto no_query_latent = [](const std::string& scaling) {
    return test::MustParse(R"({"workload": {"kind": "inference", "model": "deepseek-v3", "attention_params": 138347008},)"
                           R"( "cluster": {"gpu": "h200-sxm"}, "parallel": {"tensor_parallel": 8}, "inference": )"
                           R"({"requests_per_second": 1, "input_tokens": 128, "output_tokens": 128, "weight_precision": "fp8")" +
                           scaling + "}}");
  };
  const Scenario block = no_query_latent(R"(, "weight_scaling": "block")"), tensor = no_query_latent("");
  const GpuSpec& h200 = *FindGpu("h200-sxm");
  const InferenceModel mb = InferenceModelFor(block), mt = InferenceModelFor(tensor);
  const ReplicaModel rb = ReplicaFor(block, mb, h200, 8);
  REQUIRE(mb.q_lora == 0);
  REQUIRE(mb.kv_latent == 576);
  CHECK(mb.extra_kernels_per_step - mt.extra_kernels_per_step == doctest::Approx(421));
  const double elements = 61.0 * (7168 + 7168 + 2048) + 3.0 * (7168 + 2304) + 58.0 * (7168 + 256) + 58.0 * (7168 + 2048);
  CHECK(BlockQuantSeconds(mb, rb, 1000) == doctest::Approx(1000 * elements * (3 + 4.0 / 128) / (4.8e12 * 0.8)).epsilon(1e-9));
  // The same attention stated whole, its direct query projection included (7,168 x 128 x 192 = 176,160,768 more, as a
  // V2-Lite-style model's attention weights are counted): still no query latent (a latent of ~5,550 before), the
  // same kernels and bytes.
  const Scenario whole = test::MustParse(
      R"({"workload": {"kind": "inference", "model": "deepseek-v3", "attention_params": 314507776},)"
      R"( "cluster": {"gpu": "h200-sxm"}, "parallel": {"tensor_parallel": 8}, "inference": )"
      R"({"requests_per_second": 1, "input_tokens": 128, "output_tokens": 128, "weight_precision": "fp8", "weight_scaling": "block"}})");
  const InferenceModel mw = InferenceModelFor(whole);
  CHECK(mw.q_lora == 0);
  CHECK(mw.extra_kernels_per_step == mb.extra_kernels_per_step);
  CHECK(BlockQuantSeconds(mw, ReplicaFor(whole, mw, h200, 8), 1000) == doctest::Approx(BlockQuantSeconds(mb, rb, 1000)).epsilon(1e-12));
}

TEST_CASE("MLA's attention weights: a direct query projection when the model has no query latent") {
  // DeepSeek-V2-Lite's config.json: hidden 2,048, 16 heads, q_lora_rank null, kv_lora_rank 512, qk_nope_head_dim 128,
  // qk_rope_head_dim 64, v_head_dim 128. Its attention per layer, counted by hand from the checkpoint's tensors:
  // q_proj 2,048 x 3,072 + kv_a_proj_with_mqa 2,048 x 576 + kv_a_layernorm 512 + kv_b_proj 512 x 4,096 + o_proj 2,048 x
  // 2,048 = 6,291,456 + 1,179,648 + 512 + 2,097,152 + 4,194,304 = 13,763,072.
  CHECK(MlaAttentionParams(2048, 16, 0, 512, 128, 64, 128) == 13763072);
  // DeepSeek-V3 keeps its query latent (q_lora_rank 1,536): 187,107,328 as before.
  CHECK(MlaAttentionParams(7168, 128, 1536, 512, 128, 64, 128) == 187107328);
}

TEST_CASE("prefill attention runs at the KV cache's precision, the weight GEMMs at the weights'") {
  const Scenario bf16_kv = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "kv_precision": "bf16")");
  const Scenario fp8_kv = Serve("deepseek-v3", "h200-sxm", 8, R"(, "weight_precision": "fp8", "kv_precision": "fp8")");
  const GpuSpec& gpu = *FindGpu("h200-sxm");
  const InferenceModel m = InferenceModelFor(bf16_kv), m8 = InferenceModelFor(fp8_kv);
  const ReplicaModel r = ReplicaFor(bf16_kv, m, gpu, 8), r8 = ReplicaFor(fp8_kv, m8, gpu, 8);
  CHECK(r.attention_peak_flops == doctest::Approx(989.4e12).epsilon(0.01));
  CHECK(r8.attention_peak_flops == doctest::Approx(1978.9e12).epsilon(0.01));
  CHECK(r.peak_flops == r8.peak_flops);
  const double t = 32000;
  const double attention = 2 * 61 * (128.0 * (128 + 64 + 128) / 2) * t * t;  // causal: half of 4 L w t^2
  CHECK(PrefillAttentionFlops(m, t) == doctest::Approx(attention));
  // 8 GPUs at the default prefill utilisation (0.55); a 32K-token prompt's GEMMs are large (size factor 1).
  const double expected = attention / (8 * 0.55) * (1 / 989.4e12 - 1 / 1978.9e12);
  const double delta = (PrefillSeconds(m, r, t) - PrefillSeconds(m8, r8, t));
  CHECK(delta == doctest::Approx(expected).epsilon(0.02));
  // 16-bit weights: the two peaks are one, and the split changes nothing.
  const Scenario bf16 = Serve("llama-3.1-70b", "h100-sxm", 4);
  const InferenceModel mb = InferenceModelFor(bf16);
  const ReplicaModel rb = ReplicaFor(bf16, mb, *FindGpu("h100-sxm"), 4);
  CHECK(rb.attention_peak_flops == rb.peak_flops);
}
