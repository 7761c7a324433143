// inference_model.h — the physics of one serving replica (inference.h describes the model and its sources),
// shared by the closed form (inference.cpp), the configuration search (inference_plan.cpp) and the request
// simulation (inference_sim.cpp). Plain values, no allocation.
#pragma once
#include <cstdint>

#include "hardware/catalog.h"
#include "hardware/comm.h"
#include "serving/inference.h"
#include "scenario/scenario.h"

namespace gpucost {

// Issue 26: the GPU's time lost at kernel boundaries. An engine runs each layer as a handful of kernels (norms, the
// GEMMs, rotary, attention, the activation); each starts, fills the GPU and drains, and the next waits for all of its
// thread blocks, so during a step's kernel boundaries no weights are read. Hazy Research, 'Look Ma, No Bubbles!
// Designing a Low-Latency Megakernel for Llama-1B' (2025-05-27), Llama-3.2-1B (16 layers, 2.47 GB of 16-bit weights)
// at batch 1 on an H100: one megakernel for the whole forward pass reads at 78% of the bandwidth (0.945 ms a token;
// the model's decode_bandwidth_efficiency is 0.8); SGLang, the same work in ~100 kernels with CUDA graphs, is 1.5x
// slower (1.42 ms): (1.42 - 0.945) / 16 = 30 us per layer; vLLM is 2.5x slower (2.36 ms): the other 0.95 ms is its
// per-step engine overhead (inference.step_overhead_ms default, 1 ms). Measured on neither the validation runs nor
// their engines' published tables.
constexpr double kKernelBoundarySecondsPerLayer = (1.5 - 1.0) * 2.47e9 / (3.35e12 * 0.78) / 16;
// Issue 46: the boundaries are per kernel, and a layer's kernels depend on its architecture. The same post counts
// "around a hundred" kernels for Llama-1B's forward pass: 100 / 16 = 6.25 kernels per dense layer, the unit
// above. Kernels a layer adds, counted from the operators it adds as vLLM's and SGLang's DeepSeek and Mixtral layers
// run them (an estimate from the layers' structure, not a profile; not fitted on any measurement): multi-head latent
// attention +5 (the query's and the latent's norms, the query's up-projection, the absorbed key and value
// up-projections around the attention); a routed MoE layer +4 (the router's GEMM, top-k, sorting the tokens by
// expert, summing the experts' outputs; the two grouped expert GEMMs and their activation replace the dense MLP's
// three); a shared expert +3 (its own two GEMMs and activation). DeepSeek-V3 / R1: (6.25 + 5 + 7) / 6.25 = 2.9x a dense layer's boundaries on its 58 MoE layers.
constexpr double kKernelsPerDenseLayer = 100.0 / 16;
constexpr double kMlaExtraKernels = 5, kMoeRoutingExtraKernels = 4, kSharedExpertExtraKernels = 3;
// Issue 46: with 128 x 128 block-scaled fp8 weights (inference.weight_scaling block) the engines quantise each block-FP8
// GEMM's input to fp8 in 1 x 128 groups by a kernel of its own before the GEMM: vLLM's W8A8BlockFp8LinearOp
// (per_token_group_quant_fp8, then the CUTLASS, DeepGEMM or Triton GEMM) and its fused_moe (moe_kernel_quantize_input
// before each of the two expert GEMMs); SGLang's fp8_utils.py and fused_moe likewise. One kernel per GEMM input: the
// attention's projections (QKV and output; MLA's fused down-projection, the queries' up-projection and the output), the
// dense MLP's two, a shared expert's two, the routed experts' two. Each reads the 16-bit input and writes fp8 values and
// one fp32 scale per 128 (BlockQuantSeconds). Per-tensor fp8 (TensorRT-LLM, ModelOpt checkpoints) quantises inside the
// norm's or the activation's kernel: nothing added. Counted from the engines' code, not fitted.
constexpr double kBlockQuantBytesPerElement = 2 + 1 + 4.0 / 128;

// Issue 26: an engine without CUDA graphs (vLLM before 0.2.5, or --enforce-eager) launches each layer's kernels
// from Python every step; at a small batch the GPU finishes them faster than they come, and the step takes the
// host's time (Horace He, 'Making Deep Learning Go Brrrr From First Principles', 2022: 'overhead-bound').
// Host time per layer, measured independently of the validation runs: vLLM PR #1440 (2023-10-20), Llama 2 7B (32
// layers), no tensor parallelism, batch 1, 5 prompt and 100 output tokens: 1.2 s in eager mode, 1.05 s with CUDA
// graphs. With graphs the step is the GPU's, 10.5 ms; 7B's 13.5 GB at 10.5 ms is 80% or more of an A100 80GB's
// bandwidth, the most the model assumes, so no slower GPU ran it and the eager step, 12 ms, was the host's. Less the
// engine's step overhead (inference.step_overhead_ms default, 1 ms): (12 - 1) / 32 = 0.34 ms per layer. Kernels
// queued by the host run while it issues the next, so the step is the longer of the two, not their sum.
constexpr double kEagerHostSecondsPerLayer = (12e-3 - 1e-3) / 32;

// The model and the traffic, in the units the formulas use.
struct InferenceModel {
  double params = 0;             // P
  double matmul_params = 0;      // P less the input embedding (no FLOPs)
  double layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, vocab = 0;
  // Width of the attention's scores and values: heads x head_dim (Qwen3-235B: 64 x 128 = 8192 on a 4096 residual;
  // Gemma 2 27B: 32 x 128 = 4096 on 4608), the hidden size for most models (an MLA model keeps the hidden size).
  double attention_width = 0;
  double weight_bytes_per_param = 2;
  double kv_bytes_per_element = 2;
  double kv_bytes_per_token = 0;  // whole model
  // Issue 26: multi-head latent attention caches one latent of kv_lora_rank + rope_head_dim elements per token
  // and layer (DeepSeek-V2, arXiv:2405.04434, section 2.1), shared by all heads and kept whole on every
  // tensor-parallel rank (vLLM and SGLang's MLA backends replicate it). 0: keys and values per KV head.
  double kv_latent = 0;
  double act_bytes = 2;           // activations and all-reduced tensors (16-bit)
  double input_tokens = 0, output_tokens = 0;
  double reserved_tokens = 0;     // per sequence, by the reservation policy
  double mean_context = 0;        // tokens in a decoding sequence's cache on average (s + o/2)
  double prefill_mfu = 0.55, decode_bw_eff = 0.8, step_overhead_s = 0.001;
  std::int64_t max_batch = 256;
  double gpu_memory_fraction = 0.9;
  double link_efficiency = 0.8;
  // Issue 28 (inference_techniques.h): MoE serving, prefix caching, speculative decoding. Defaults: none.
  double active_matmul_params = 0;   // per token, for FLOPs (dense: matmul_params)
  double expert_params = 0;          // routed-expert weights of all MoE layers (0: dense)
  double experts = 0, active_experts = 0, moe_layers = 0;
  double expert_width = 0;             // a routed expert's MLP width (workload.expert_ffn_hidden; auto: ffn_hidden)
  double extra_kernels_per_step = 0;   // issue 46: kernels beyond 6.25 per layer (MLA, routing, shared experts)
  double prefix_cached_tokens = 0;   // prompt tokens per request served from the cache (prefix x hit)
  double shared_prefix_tokens = 0;   // the prefix's KV held once per replica (0: no prefix caching)
  double spec_tokens_per_step = 1;   // expected tokens per target step (1: no speculation)
  double spec_draft_tokens = 0;      // k drafted per step
  double draft_params = 0;           // draft weights (read every draft step)
  double draft_kv_bytes_per_token = 0;  // whole draft model (0: a draft head, or none)
  double router_latency_s = 0;
  // Issue 26: a request's path to the engine on the server's CPU (HTTP, template, tokenising its prompt), before
  // its prefill is queued: inference.request_overhead_ms + request_overhead_us_per_token x input tokens.
  double request_path_s = 0;
  // How a replica's GPUs share attention (inference.attention). Tensor: heads split, an all-reduce per layer.
  // Data (DeepSeek's DP attention with expert parallel): each GPU attends for its own sequences and holds their
  // KV cache; the dense weights are on every GPU, the routed experts split over the replica; no all-reduce.
  bool attention_data = false;
  // Issue 46 (inference.moe_split tensor): under data attention the routed experts split over the replica's GPUs by
  // tensor parallelism (SGLang's --enable-dp-attention without --ep-size): every GPU gets all the GPUs' tokens
  // (all-gather), runs its slice of every expert and reduce-scatters the outputs, in place of the all-to-alls.
  bool experts_tensor = false;
  // Attention FLOPs per position, layer and cached token: 4 x attention_width (QK^T and AV over heads x head_dim);
  // MLA decodes with the up-projections absorbed (DeepSeek-V2, arXiv:2405.04434, appendix; FlashMLA): each
  // head scores against the latent and rope key (kv_lora + rope) and reads the latent back (kv_lora):
  // 2 heads (2 kv_lora + rope).
  double decode_attention_flops_per_token = 0;
  bool ep_overlap = false;  // parallel.ep_comm_overlap on: the MoE all-to-all hidden behind the other micro-batch
  bool chunked_prefill = true;  // inference.chunked_prefill: colocated prompts ride in the decode steps
  bool cuda_graphs = true;      // inference.cuda_graphs: false, a step lasts at least its host time (kEagerHost...)
  // Issue 46: the routed experts' outputs summed in a pass of their own (inference.fused_moe_finalize false): see
  // MoeFinalizeSeconds.
  bool moe_finalize_pass = false;
  // Issue 46: fp8 weights with 128 x 128 block scales (inference.weight_scaling block): see BlockScaledDecodeSeconds.
  bool block_scaled = false;
  double ffn = 0, ffn_matrices = 2;   // the dense MLP's width and its input matrices (gated: gate and up)
  double shared_experts = 0, q_lora = 0, mla_v = 0, mla_rope = 0;  // shared experts per MoE layer; MLA's widths (q_lora:
                                                                   // from workload.attention_params)
  // (and, issue 46, engines with CUDA graphs have their own small-message all-reduce: comm.h ServingAllReduceSeconds)
  // Issue 46: int4 weight-only weights are de-quantised on the CUDA cores before each multiply (inference.weight_group_size).
  double dequant_instructions_per_weight = 0;
  // Issue 46: multi-head latent attention prefills without the absorbed projections: each head's queries and keys
  // are qk_nope + rope wide and its values v wide (DeepSeek-V2/V3: 128 + 64 and 128), so a prompt's attention is
  // heads x (qk + v) / 2 wide per query-key pair, not the hidden size (0: attention_width).
  double prefill_attention_width = 0;
};

// One replica of a pool: its hardware and the derived capacities.
struct ReplicaModel {
  const GpuSpec* gpu = nullptr;
  std::int64_t tp = 1;
  double peak_flops = 0;          // per GPU, at the weight precision's compute precision
  double attention_peak_flops = 0;  // per GPU, at the KV cache's precision (attention is not a weight GEMM)
  double attention_ranks = 1;     // GPUs the replica's sequences are spread over (data attention: tp; else 1)
  double hbm_bytes_per_s = 0;
  double hbm_bytes = 0;
  double cuda_core_instructions_per_s = 0;  // per GPU: the FP32 (non-tensor) peak / 2 (an FMA counts two FLOPs)
  Links links;
  Group group;
  double weight_bytes_per_gpu = 0;
  double workspace_bytes_per_gpu = 0;
  double kv_bytes_per_token_per_gpu = 0;  // of each sequence held on a GPU (data attention: the whole token)
  double kv_bytes_per_gpu = 0;    // memory left for the cache (may be negative: does not fit)
  std::int64_t max_concurrency = 0;  // sequences per replica (data attention: per GPU x attention_ranks)
  bool fits = false;
  double prefill_s = 0;           // one prompt, alone
  double prefill_mixed_s = 0;     // what one prompt adds to the decode steps that carry it (chunked prefill)
  double step_one_s = 0;          // decode step at batch 1
  double step_full_s = 0;         // decode step at max_concurrency (the chord between them starts the batch solve)
};

// The compute precision a weight precision runs at, the GPU's peak for it (0 when the GPU cannot run it).
double InferencePeakTflops(const GpuSpec& gpu, WeightPrecision p);

InferenceModel InferenceModelFor(const Scenario& s);
// A pool's GPU (inference.<pool>.gpu, else cluster.gpu; nullptr if unknown) and tensor parallelism.
const GpuSpec* InferencePoolGpu(const Scenario& s, const InferencePoolInputs& pool);
std::int64_t InferencePoolTp(const Scenario& s, const InferencePoolInputs& pool);
// Builds a replica of `gpu` with tensor parallelism tp. cluster.peak_tflops/hbm_tbps/nvlink_gbps overrides
// apply when gpu is the scenario's cluster.gpu (they describe the measured machine).
ReplicaModel ReplicaFor(const Scenario& s, const InferenceModel& m, const GpuSpec& gpu, std::int64_t tp);

// Communication of one step moving `tokens` tokens after work_s of compute or memory time: tensor attention
// all-reduces twice a layer (an MoE layer's MLP all-reduce replaced by its all-to-alls); data attention has the
// all-to-alls only; with parallel.ep_comm_overlap on, the all-to-alls hide behind the other micro-batch's work.
double StepCommSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens, double work_s);

// Time of one prefill of `tokens` prompt tokens (a single prompt) on a replica.
double PrefillSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens);
// The host's time to issue one step's kernels without CUDA graphs (kEagerHostSecondsPerLayer); 0 with them.
double EagerHostSeconds(const InferenceModel& m);
// The GPU's time at a step's kernel boundaries (kKernelBoundarySecondsPerLayer per layer), in every step.
double KernelBoundarySeconds(const InferenceModel& m);
// What a prompt of `tokens` adds to the decode steps that carry it in chunks (vLLM's chunked prefill,
// TensorRT-LLM's in-flight batching): its compute and the bandwidth share of its all-reduces. The weights are
// read once per step for the decodes and the chunk together, and the step's fixed overhead is the decodes'.
double PrefillMixedSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens);
// What one request occupies a colocated replica's prefill server for: the prompt alone (a step of its own
// that stalls the decodes), or its share of the mixed steps with chunked prefill (inference.chunked_prefill).
double ColocatedPrefillSeconds(const InferenceModel& m, const ReplicaModel& r);
// Issue 26: the efficiency of the routed experts' GEMMs relative to a large dense GEMM when a step carries
// `step_tokens` tokens: each expert sees step_tokens x k / E rows and, under tensor attention, expert_width / tp
// columns (1 for a dense model: no experts). Prefill only: the decode steps' expert reads stay memory-bound.
double ExpertGemmFactor(const InferenceModel& m, const ReplicaModel& r, double step_tokens);
// Issue 46: the pass that sums each token's k routed-expert outputs when the engine runs it as a kernel of its own
// (inference.fused_moe_finalize false: vLLM's and SGLang's fused_moe write the k outputs, hidden-wide in 16 bits, to
// intermediate_cache3 and a moe_sum kernel reads them back and writes the sum; TensorRT-LLM sums them in the second
// expert GEMM's epilogue). Memory-bound: (k + 1) x hidden x 2 bytes per token and MoE layer at the streaming
// bandwidth (decode_bandwidth_efficiency). Under tensor-split experts every GPU does it for all `tokens` (each holds
// partial sums of every expert); under expert parallel (data attention) the combine all-to-all sums them (0 here).
double MoeFinalizeSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens);
// Issue 46: the activation quantisation a step of `tokens` tokens runs before its block-FP8 GEMMs (kBlockQuantBytesPerElement;
// 0 unless m.block_scaled): memory-bound at the streaming bandwidth, per GPU each GEMM's input rows x width.
double BlockQuantSeconds(const InferenceModel& m, const ReplicaModel& r, double tokens);
// Issue 46: a block-scaled FP8 GEMM's weights read at decode batch sizes. The 128 x 128 scales tie each thread block of
// the engines' block-FP8 kernels (CUTLASS, Triton, DeepGEMM) to 128 output columns, and they do not split K, so a GEMM
// of n columns and `rows` rows (in tiles of 64) streams its n x k weights through ceil(n / 128) x ceil(rows / 64) thread
// blocks: a share blocks / SMs of the HBM bandwidth, at most the streaming efficiency. Checks, not fits: vLLM PR #23280
// (H100, CUTLASS block FP8, n = 2112, k = 7168, one row) measured 34 us (this: 35 us); SGLang PR #5207's vLLM kernel,
// n = 7168, k = 16384: 90 us (this: 83 us).
double BlockScaledReadSeconds(double n, double k, double rows, double bytes_per_weight, double hbm_bytes_per_s, double sms,
                              double efficiency);
// What the decode step of `positions` positions adds over streaming its weights (0 unless m.block_scaled and the GPU's
// SM count is known): each layer's attention projections (MLA: the queries' and the latent's down-projection as one
// GEMM that every tensor-parallel GPU holds whole, then the queries' up-projection), its output projection, the dense
// MLP or the shared experts, and the routed experts the step's tokens touch (one grouped kernel: their thread blocks add).
double BlockScaledDecodeSeconds(const InferenceModel& m, const ReplicaModel& r, double positions);
// Time of one decode step with `batch` sequences of mean context m.mean_context.
double DecodeStepSeconds(const InferenceModel& m, const ReplicaModel& r, double batch);

// What every request's first token waits for before and beside the GPUs: the request path and the router.
double FrontLatencySeconds(const InferenceModel& m);

// Latency of a replica at a per-replica arrival rate. Colocated: prefills stall decodes. Disaggregated
// prefill replica: service = prefill + exposed transfer; decode replica: no prefills (prefill_s = 0).
struct ReplicaLatency {
  bool stable = false;
  double batch = 0;               // mean sequences decoding
  double step_s = 0;              // decode step at that batch
  LatencyMs ttft_ms, tpot_ms;
};
// service_s: what one request occupies the prefill server for (prefill, + exposed KV transfer on a split);
// ttft_extra_s: added to TTFT (the exposed transfer); stalls_decode: colocated (prefill steps interrupt
// decodes). decode: whether this replica decodes (false for a prefill-only replica). only_percentile (50, 90 or
// 99): compute that percentile alone, the others left 0 (the capacity search reads one); 0: all three.
ReplicaLatency ReplicaLatencyAt(const InferenceModel& m, const ReplicaModel& r, double rate, double service_s,
                                double ttft_extra_s, bool stalls_decode, bool decode, bool prefill,
                                std::int64_t only_percentile = 0);

// Seconds one colocated replica takes to serve `requests` requests queued all at once with the same prompt and
// output (an offline run, e.g. TensorRT-LLM's trtllm-bench throughput): they run in waves of the full batch, as
// SaturatedRate serves them, and the rest as a last, smaller wave, whose decode steps read the same weights for
// fewer sequences. Each wave: its prompts' prefill work (service_s each, stalling the decodes) and its decode steps.
double OfflineBatchSeconds(const InferenceModel& m, const ReplicaModel& r, double requests, double service_s);

// Requests per second one replica serves at full batch with no target (prefill and decode work only).
double SaturatedRate(const InferenceModel& m, const ReplicaModel& r, double service_s, bool stalls_decode,
                     bool decode, bool prefill);
// The most requests per second one replica serves with its latencies within the target at `percentile`
// (ttft_target_s / tpot_target_s 0: none). 0 when even a trickle misses it.
double CapacityWithinTarget(const InferenceModel& m, const ReplicaModel& r, double service_s, double ttft_extra_s,
                            bool stalls_decode, bool decode, bool prefill, double ttft_target_s,
                            double tpot_target_s, std::int64_t percentile);

// Exposed KV-transfer time of one prompt from a prefill replica to a decode replica.
double KvTransferExposedSeconds(const Scenario& s, const InferenceModel& m, const ReplicaModel& prefill,
                                const ReplicaModel& decode);

// Largest share of a replica's saturated rate planned for when there is no latency target: a queue at 100%
// grows without bound. Assumption (the closed form's queue wait is 9.5 prefills at 95%).
constexpr double kNoTargetMaxUtilization = 0.95;

}  // namespace gpucost
