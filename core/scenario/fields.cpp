// fields.cpp — the scenario field table. Every default carries its source.
#include "scenario/fields.h"
#include "base/format.h"
#include "base/i18n.h"
#include "scenario/models.h"

#include <array>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace gpucost {

const char* const kLoadProfileNames[] = {"", "flat", "business-day", "consumer-evening", "custom", nullptr};
namespace {

const char* const kKindNames[] = {"training", "independent", "inference", nullptr};
const char* const kPrecisionNames[] = {"bf16", "fp16", "fp8", "tf32", "fp32", nullptr};
const char* const kModelNames[] = {"on_demand", "spot", "reserved", "owned", nullptr};
const char* const kRecomputeNames[] = {"none", "selective", "full", "save_dot_except_mlpwi", "save_dot_except_mlp", "selective_op", nullptr};
const char* const kOptimizerNames[] = {"adam", "adam8bit", "sgd", nullptr};
const char* const kCurrencyNames[] = {"USD", "KRW", nullptr};
const char* const kFinetuneNames[] = {"full", "lora", "qlora", nullptr};        // issue 18
const char* const kLoraTargetNames[] = {"all", "attention", nullptr};           // issue 18
const char* const kFrozenPrecisionNames[] = {"auto", "bf16", "fp8", "nf4", nullptr};  // issue 46
const char* const kInferenceModeNames[] = {"colocated", "disaggregated", nullptr};
const char* const kKvReserveNames[] = {"full", "paged", nullptr};
const char* const kAttentionSplitNames[] = {"tensor", "data", nullptr};
const char* const kWeightPrecisionNames[] = {"bf16", "fp16", "fp8", "int8", "int4", nullptr};
const char* const kKvPrecisionNames[] = {"bf16", "fp16", "fp8", nullptr};
const char* const kFrameworkNames[] = {"megatron", "nemo", "deepspeed", "fsdp", "torchtitan", "maxtext", "jax", "other", "torchtune", nullptr};  // framework.h
const char* const kOverlapNames[] = {"auto", "on", "off", nullptr};

constexpr double kBig = 1e15;
#define REF(member) [](Scenario& s) -> void* { return &s.member; }
#define NUM FieldKind::kNumber
#define INT FieldKind::kInteger
#define BOOL FieldKind::kBool
#define ENUM FieldKind::kEnum
#define TEXT FieldKind::kText
// vLLM 0.19's OpenAI server, one request at a time (MiniMax-M2.5 on 2 x MI300X): from sending the request to its
// first byte back 7.0 / 15.2 / 46.5 / 131.4 ms at 1,990 / 5,990 / 19,704 / 58,560 prompt tokens (the engine's own
// counts); a line through them is 2.5 ms + 2.2 us per token, within 0.6 ms of each, and the source's tokenizer
// alone encodes ~500k tokens/s (2 us per token).
constexpr const char* kRequestPathSource =
    "2.5 ms + 2.2 us per prompt token: vLLM 0.19, one request at a time, request to first byte at 2K-59K-token "
    "prompts (andyluo7/cpu-gpu-codesign-agentic-inference, results/phase2-deepdive, 2026-05-14)";

// Positional layout: path, kind, ref, default, default_text, min, max, min_exclusive, auto, choices, unit,
// section, help, source.
const FieldSpec kFields[] = {
  {"name", TEXT, REF(name), 0, "", 0, kNameMaxChars, false, false, nullptr, "", "workload",
   "A label for this scenario (shown in comparisons).", "-"},

  // --- workload ---
  {"workload.kind", ENUM, REF(workload.kind), 0, nullptr, 0, 2, false, false, kKindNames, "", "workload",
   "training: one tightly coupled job (one failure stops every GPU). independent: many separate tasks "
   "(sweeps, batch inference); a failure loses only that task's progress since its last checkpoint. "
   "inference: serving requests (inference.*): cost per completed request under a latency target.",
   "-"},
  {"workload.params", NUM, REF(workload.params), 7e9, nullptr, 0, kBig, true, false, nullptr, "parameters",
   "workload", "Model parameters (dense count). Not given but the shape is (layers, hidden, heads, seq_len, vocab): "
   "the count the shape implies.",
   "7B: Llama 2 7B scale (Touvron et al. 2023, arXiv:2307.09288)"},
  {"workload.tokens", NUM, REF(workload.tokens), 140e9, nullptr, 0, 1e17, true, false, nullptr, "tokens",
   "workload", "Training tokens.",
   "20 tokens per parameter, compute-optimal (Hoffmann et al. 2022, arXiv:2203.15556)"},
  {"workload.flops", NUM, REF(workload.flops), 0, nullptr, 0, 1e32, true, true, nullptr, "FLOPs", "workload",
   "Total training FLOPs. Absent: 6 x params x tokens (Kaplan et al. 2020), plus the attention term "
   "12 x layers x hidden x seq_len per token when layers, hidden and seq_len are given (PaLM, App. B).",
   "Kaplan et al. 2020 arXiv:2001.08361; Chowdhery et al. 2022 arXiv:2204.02311"},
  {"workload.precision", ENUM, REF(workload.precision), 0, nullptr, 0, 4, false, false, kPrecisionNames, "",
   "workload", "Matrix precision; selects the GPU's dense peak.", "bf16: standard for LLM training"},
  {"workload.layers", INT, REF(workload.layers), 0, nullptr, 1, 100000, false, true, nullptr, "layers",
   "workload", "Transformer layers. Absent: shape unknown (no memory or step-time model).", "-"},
  {"workload.hidden", INT, REF(workload.hidden), 0, nullptr, 1, 10000000, false, true, nullptr, "",
   "workload", "Hidden size (model width).", "-"},
  {"workload.heads", INT, REF(workload.heads), 0, nullptr, 1, 100000, false, true, nullptr, "heads",
   "workload", "Attention heads.", "-"},
  {"workload.seq_len", INT, REF(workload.seq_len), 0, nullptr, 1, 100000000, false, true, nullptr, "tokens",
   "workload", "Sequence length.", "-"},
  {"workload.vocab", INT, REF(workload.vocab), 0, nullptr, 1, 100000000, false, true, nullptr, "tokens",
   "workload", "Vocabulary size.", "-"},
  {"workload.ffn_hidden", INT, REF(workload.ffn_hidden), 0, nullptr, 1, 100000000, false, true, nullptr, "",
   "workload", "Feed-forward hidden size. Absent: 4 x hidden.", "GPT-3 convention (Brown et al. 2020)"},
  {"workload.kv_heads", INT, REF(workload.kv_heads), 0, nullptr, 1, 100000, false, true, nullptr, "heads",
   "workload", "Key/value heads (grouped-query attention: Llama 2 70B and Llama 3 use 8); must divide heads. "
   "Absent: = heads (multi-head attention).",
   "Ainslie et al. 2023, GQA, arXiv:2305.13245; Touvron et al. 2023 (Llama 2 70B: 8)"},
  {"workload.ffn_gated", BOOL, REF(workload.ffn_gated), 0, nullptr, 0, 1, false, false, nullptr, "",
   "workload", "Gated MLP (SwiGLU/GeGLU, as Llama): three hidden x ffn_hidden matrices instead of two (GPT).",
   "GPT-style by default; Shazeer 2020, GLU Variants Improve Transformer, arXiv:2002.05202"},
  {"workload.tied_embeddings", BOOL, REF(workload.tied_embeddings), 1, nullptr, 0, 1, false, false, nullptr, "",
   "workload", "Input and output embeddings share one vocab x hidden matrix (GPT-2/3); false: a separate output "
   "matrix (Llama).", "Press & Wolf 2017, arXiv:1608.05859 (GPT ties them; Llama's configs do not)"},
  {"workload.input_bytes_per_token", NUM, REF(workload.input_bytes_per_token), 4, nullptr, 0, 1e9, true,
   false, nullptr, "bytes/token", "workload",
   "Bytes the data pipeline reads per training token (tokenised text: 2-4; images/video: far more).",
   "4: int32 token ids (Megatron-LM indexed datasets use int32 when the vocabulary exceeds 65,500)"},
  {"workload.tasks", INT, REF(workload.tasks), 1000, nullptr, 1, 1000000000, false, false, nullptr, "tasks",
   "workload", "Independent tasks (workload.kind = independent).", "example value"},
  {"workload.task_gpu_hours", NUM, REF(workload.task_gpu_hours), 1, nullptr, 0, 1e9, true, false, nullptr,
   "GPU-hours", "workload", "GPU-hours one task needs when nothing fails.", "example value"},
  {"workload.gpus_per_task", INT, REF(workload.gpus_per_task), 1, nullptr, 1, 1000000, false, false, nullptr,
   "GPUs", "workload", "GPUs one task occupies.", "example value"},

  // --- models by name, mixture of experts, fine-tuning, checkpointing off (issue 18). Section "model": the
  // editor shows it collapsed below the others, so the Workload section stays as short as before. ---
  {"workload.model", TEXT, REF(arch.model), 0, "", 0, 0, false, false, nullptr, "", "model",
   "A model by name (gpucost catalog models): fills the shape fields and workload.params from its published "
   "config; fields given explicitly win. Empty: describe the shape by hand.", "assets/models.json"},
  {"workload.head_dim", INT, REF(arch.head_dim), 0, nullptr, 1, 100000, false, true, nullptr, "",
   "model", "Dimension of one attention head. Absent: hidden / heads (Gemma 2 uses 128 with hidden 4608, 32 heads).",
   "-"},
  {"workload.attention_params", NUM, REF(arch.attention_params), 0, nullptr, 0, kBig, true, true, nullptr,
   "parameters", "model", "Weights of one layer's attention (all projections). Absent: from hidden, heads, "
   "kv_heads and head_dim; set it for other forms (DeepSeek's multi-head latent attention).", "-"},
  {"workload.kv_lora_rank", INT, REF(arch.kv_lora_rank), 0, nullptr, 1, 100000, false, true, nullptr, "",
   "model", "Multi-head latent attention: rank of the shared key/value latent each token caches instead of "
   "per-head keys and values (with workload.rope_head_dim). Absent: not MLA (keys and values per KV head).",
   "DeepSeek-V2, arXiv:2405.04434, section 2.1 (V3 config.json: kv_lora_rank 512)"},
  {"workload.rope_head_dim", INT, REF(arch.rope_head_dim), 0, nullptr, 1, 100000, false, true, nullptr, "",
   "model", "Multi-head latent attention: the decoupled rotary key cached per token beside the latent "
   "(qk_rope_head_dim). Absent: 0.", "DeepSeek-V2, arXiv:2405.04434 (V3 config.json: qk_rope_head_dim 64)"},
  {"workload.experts", INT, REF(arch.experts), 0, nullptr, 1, 100000, false, true, nullptr, "experts",
   "model", "Routed experts per mixture-of-experts layer. Absent: a dense model.",
   "Shazeer et al. 2017, arXiv:1701.06538; Fedus et al. 2021 (Switch), arXiv:2101.03961"},
  {"workload.active_experts", INT, REF(arch.active_experts), 0, nullptr, 1, 100000, false, true, nullptr,
   "experts", "model", "Routed experts each token uses (top-k). Needed with workload.experts.",
   "Mixtral: 2 of 8 (Jiang et al. 2024, arXiv:2401.04088)"},
  {"workload.shared_experts", INT, REF(arch.shared_experts), 0, nullptr, 0, 100000, false, false, nullptr,
   "experts", "model", "Experts every token uses besides the routed ones (DeepSeek: 1).",
   "0: Mixtral, Switch; DeepSeek-V3 uses 1 (arXiv:2412.19437)"},
  {"workload.expert_ffn_hidden", INT, REF(arch.expert_ffn_hidden), 0, nullptr, 1, 100000000, false, true,
   nullptr, "", "model", "MLP width of one expert. Absent: workload.ffn_hidden.", "-"},
  {"workload.dense_layers", INT, REF(arch.dense_layers), 0, nullptr, 0, 100000, false, false, nullptr,
   "layers", "model", "Leading layers with a dense MLP (width ffn_hidden) in a mixture-of-experts model.",
   "0: every layer MoE (Mixtral); DeepSeek-V3: 3"},
  {"workload.active_params", NUM, REF(arch.active_params), 0, nullptr, 0, kBig, true, true, nullptr,
   "parameters", "model", "Parameters used per token (mixture of experts): training FLOPs are 6 x active_params "
   "per token, memory holds workload.params. Absent: from the MoE shape, else workload.params.",
   "Kaplan et al. 2020's 6N applied to the active parameters (Fedus et al. 2021)"},
  {"parallel.expert_parallel", INT, REF(arch.expert_parallel), 1, nullptr, 1, 100000, false, false, nullptr, "",
   "parallel", "Expert-parallel degree: each MoE layer's experts are split over this many data-parallel ranks "
   "(must divide data_parallel and experts); tokens reach their experts by all-to-all.",
   "1: no expert parallelism; Lepikhin et al. 2020 (GShard), arXiv:2006.16668"},
  {"workload.finetune", ENUM, REF(finetune.mode), 0, nullptr, 0, 2, false, false, kFinetuneNames, "",
   "model", "full: every parameter trained. lora: frozen 16-bit weights + trainable low-rank adapters. "
   "qlora: frozen weights in 4-bit NF4 (with double-quantised constants) + adapters.",
   "Hu et al. 2021 (LoRA), arXiv:2106.09685; Dettmers et al. 2023 (QLoRA), arXiv:2305.14314"},
  {"workload.lora_rank", INT, REF(finetune.lora_rank), 64, nullptr, 1, 65536, false, false, nullptr, "",
   "model", "Rank r of each adapter (r x (in + out) parameters per adapted matrix).",
   "64: QLoRA's setting for every model size (Dettmers et al. 2023, Appendix B)"},
  {"workload.lora_targets", ENUM, REF(finetune.lora_targets), 0, nullptr, 0, 1, false, false, kLoraTargetNames,
   "", "model", "Matrices with adapters: all (attention and MLP, as QLoRA) or attention (Q, K, V, output).",
   "all: QLoRA found adapters on every linear layer necessary to match full fine-tuning (Dettmers et al. 2023)"},
  {"workload.frozen_precision", ENUM, REF(finetune.frozen_precision), 0, nullptr, 0, 3, false, false,
   kFrozenPrecisionNames, "", "model",
   "How a LoRA / QLoRA job stores the weights it does not train: bf16, fp8 (Transformer Engine's FP8 parameters: "
   "1 byte each, their GEMMs at the FP8 peak with workload.precision fp8) or nf4 (4.127 bits with its constants, "
   "de-quantised to 16 bits before each GEMM). auto: nf4 for qlora, else 16-bit.",
   "auto: QLoRA stores NF4 (Dettmers et al. 2023, section 3); LoRA keeps the model's 16-bit checkpoint (Hu et al. "
   "2021); fp8 as MLPerf Training's Llama 2 70B LoRA submissions run it (NVIDIA's NeMo config: fp8_params)"},
  {"workload.real_token_fraction", NUM, REF(finetune.real_token_fraction), 1, nullptr, 0, 1, true, false, nullptr,
   "", "model",
   "Share of each sequence's token slots that hold real tokens: 1 when sequences are packed (pre-training, packed "
   "SFT), less when a batch is padded to its longest sequence. The GPUs compute every slot; workload.tokens and "
   "MFU count the real tokens only.",
   "1: packed sequences (NeMo's fine-tuning recipes pack to the sequence length; torchtune's packed=True)"},
  {"reliability.checkpointing", BOOL, REF(reliability.checkpointing), 1, nullptr, 0, 1, false, false, nullptr,
   "", "reliability", "Write checkpoints. false: none are written; a failure restarts the job from the beginning "
   "(a long job on many GPUs may then never finish).", "-"},

  // --- hardware ---
  {"cluster.gpu", TEXT, REF(cluster.gpu), 0, "h100-sxm", 0, kTextCapacity - 1, false, false, nullptr, "", "hardware",
   "GPU model (catalog id: gpucost catalog).", "H100 SXM: the most rented training GPU in 2024-2025"},
  {"cluster.gpus", INT, REF(cluster.gpus), 64, nullptr, 1, 10000000, false, false, nullptr, "GPUs",
   "hardware", "GPUs doing the work (hot spares excluded).", "8 nodes of 8 GPUs"},
  {"cluster.gpus_per_node", INT, REF(cluster.gpus_per_node), 8, nullptr, 1, 1024, false, false, nullptr,
   "GPUs/node", "hardware", "GPUs per node (billing unit with whole-node billing).",
   "HGX/DGX A100, H100, H200, B200 nodes hold 8 GPUs"},
  {"cluster.mfu", NUM, REF(cluster.mfu), 0, nullptr, 0, 1, true, true, nullptr, "fraction", "hardware",
   "Model FLOPs utilisation: achieved model FLOP/s / dense peak. Absent: predicted from the model shape "
   "and parallel layout when both are given, else 0.40.",
   "0.40: Llama 3 405B reached 38-43% BF16 MFU on 8K-16K H100 (Dubey et al. 2024, Table 4)"},
  {"cluster.node_network_gbps", NUM, REF(cluster.node_network_gbps), 3200, nullptr, 0, 1e6, true, false,
   nullptr, "Gb/s per node", "hardware", "Scale-out network bandwidth per node (all NICs).",
   "8 x 400 Gb/s ConnectX-7 (NVIDIA DGX H100 datasheet)"},
  {"cluster.link_efficiency", NUM, REF(cluster.link_efficiency), 0.8, nullptr, 0, 1, true, false, nullptr,
   "fraction", "hardware", "Achieved / nominal bandwidth of collective operations.",
   "NCCL all-reduce bus bandwidth reaches ~75-85% of link rate (nccl-tests results)"},
  {"cluster.framework", ENUM, REF(cluster.framework), 7, nullptr, 0, 8, false, false, kFrameworkNames, "",
   "hardware", "Training framework: sets the efficiency its matrix kernels reach on the GPU's generation "
   "(relative to Megatron-LM, measured on published runs: gpucost catalog evidence) and its default "
   "communication overlap. other: the measured efficiency of unnamed stacks, else Megatron-LM's.",
   "framework.h; published runs in assets/validation/measured_runs.json"},
  {"cluster.peak_tflops", NUM, REF(cluster.peak_tflops), 0, nullptr, 0, 1e6, true, true, nullptr, "TFLOP/s",
   "hardware", "Dense peak per GPU for the precision. Absent: the catalog's figure; a probe import sets "
   "the measured GEMM rate / the fraction a healthy GPU of the kind sustains (0.684 for an H200's bf16: MFU "
   "stays relative to the datasheet peak).", "assets/gpus.json probe_reference"},
  {"cluster.hbm_tbps", NUM, REF(cluster.hbm_tbps), 0, nullptr, 0, 1e4, true, true, nullptr, "TB/s",
   "hardware", "GPU memory bandwidth. Absent: the catalog's figure; a probe import sets the measured copy rate / "
   "the fraction a healthy GPU of the kind sustains (0.878 for an H200).", "assets/gpus.json probe_reference"},
  {"cluster.nvlink_gbps", NUM, REF(cluster.nvlink_gbps), 0, nullptr, 0, 1e6, true, true, nullptr, "GB/s",
   "hardware", "NVLink bandwidth per GPU, both directions together. Absent: the catalog's figure.",
   "assets/gpus.json"},

  // --- parallel layout ---
  {"parallel.data_parallel", INT, REF(parallel.data_parallel), 0, nullptr, 1, 10000000, false, true, nullptr,
   "", "parallel", "Data-parallel degree. Absent: gpus / (tensor x pipeline).", "-"},
  {"parallel.tensor_parallel", INT, REF(parallel.tensor_parallel), 1, nullptr, 1, 1024, false, false, nullptr,
   "", "parallel", "Tensor-parallel degree (inside a node).", "-"},
  {"parallel.pipeline_parallel", INT, REF(parallel.pipeline_parallel), 1, nullptr, 1, 4096, false, false,
   nullptr, "", "parallel", "Pipeline-parallel stages.", "-"},
  {"parallel.zero_stage", INT, REF(parallel.zero_stage), 1, nullptr, 0, 3, false, false, nullptr, "",
   "parallel", "ZeRO stage / FSDP: 0 none, 1 optimizer states, 2 + gradients, 3 + parameters sharded.",
   "1: Megatron-LM's distributed optimizer (Rajbhandari et al. 2020, arXiv:1910.02054)"},
  {"parallel.micro_batch", INT, REF(parallel.micro_batch), 1, nullptr, 1, 1000000, false, false, nullptr,
   "sequences", "parallel", "Micro-batch size per GPU.", "-"},
  {"parallel.global_batch", INT, REF(parallel.global_batch), 0, nullptr, 1, 1000000000, false, true, nullptr,
   "sequences", "parallel", "Global batch (sequences per optimizer step). Absent: unknown.", "-"},
  {"parallel.pipeline_interleave", INT, REF(parallel.pipeline_interleave), 1, nullptr, 1, 1024, false, false,
   nullptr, "", "parallel", "Virtual pipeline stages per GPU (interleaved 1F1B).",
   "Narayanan et al. 2021, arXiv:2104.04473"},
  {"parallel.sequence_parallel", BOOL, REF(parallel.sequence_parallel), 0, nullptr, 0, 1, false, false,
   nullptr, "", "parallel", "Megatron sequence parallelism.", "Korthikanti et al. 2022, arXiv:2205.05198"},
  {"parallel.recompute", ENUM, REF(parallel.recompute), 1, nullptr, 0, 5, false, false, kRecomputeNames, "",
   "parallel", "Activation recomputation: none, selective (attention only), full, MaxText's save_dot_except_mlpwi / "
   "save_dot_except_mlp (keep the projections' outputs; recompute the attention core and the MLP input projections), "
   "or torchtitan's selective_op (keep every op's output but every second matmul's: recompute the key, output and up "
   "projections).",
   "selective: Korthikanti et al. 2022; save_dot_*: MaxText's remat_policy (MaxText/layers/decoders.py); "
   "selective_op: torchtitan's per-op activation checkpointing (parallelize_llama.py)"},
  {"parallel.optimizer", ENUM, REF(parallel.optimizer), 0, nullptr, 0, 2, false, false, kOptimizerNames, "",
   "parallel", "Optimizer: mixed-precision Adam (16 bytes/param), 8-bit Adam, SGD with momentum.",
   "ZeRO paper's 2+2+12 bytes per parameter for mixed-precision Adam"},
  {"parallel.overlap_comm", BOOL, REF(parallel.overlap_comm), 1, nullptr, 0, 1, false, false, nullptr, "",
   "parallel", "Overlap data-parallel gradient reduction with the backward pass.",
   "default in PyTorch DDP and Megatron-LM"},
  {"parallel.single_node_mfu", NUM, REF(parallel.single_node_mfu), 0, nullptr, 0, 1, true, true, nullptr,
   "fraction", "parallel", "MFU measured on one node; scaled to the cluster by the communication model. "
   "Absent: not used.", "-"},
  {"parallel.critical_batch_tokens", NUM, REF(parallel.critical_batch_tokens), 0, nullptr, 0, 1e15, true,
   true, nullptr, "tokens", "parallel",
   "Gradient noise scale B_noise in tokens. Given: tokens needed grow by (1 + B/B_noise) / (1 + B0/B_noise) "
   "with B = global_batch x seq_len and B0 = parallel.reference_batch_tokens (McCandlish et al. 2018, "
   "arXiv:1812.06162). Absent: off.", "-"},
  {"parallel.reference_batch_tokens", NUM, REF(parallel.reference_batch_tokens), 0, nullptr, 0, 1e15, true,
   true, nullptr, "tokens", "parallel",
   "Batch (tokens) that workload.tokens was planned for, B0 of the batch-size effect. Absent: 0, i.e. "
   "workload.tokens is the small-batch limit E_min and any batch needs (1 + B/B_noise) times more.",
   "McCandlish et al. 2018, eq. 2.11: E = E_min (1 + B / B_noise)"},
  // Issue 18: context parallelism and the attention kernel.
  {"parallel.context_parallel", INT, REF(parallel.context_parallel), 1, nullptr, 1, 1024, false, false, nullptr,
   "", "parallel", "Context-parallel degree: each sequence is split over this many GPUs (ring attention passes "
   "keys and values around the group), dividing activations; for long sequences. data parallel = gpus / "
   "(tensor x context x pipeline).",
   "Llama 3 405B long-context training: CP 16 at 131,072 tokens (Dubey et al. 2024, arXiv:2407.21783, Table 4)"},
  {"parallel.flash_attention", BOOL, REF(parallel.flash_attention), 1, nullptr, 0, 1, false, false, nullptr, "",
   "parallel", "Fused attention kernel (FlashAttention): the s x s attention scores never reach HBM, so "
   "attention costs no memory-bound softmax/dropout passes and stores no scores. false: Megatron-LM 2021-2022 "
   "kernels (scores written, softmax fused, dropout separate).",
   "on by default in Megatron-Core, NeMo, torchtitan and Hugging Face (Dao et al. 2022, arXiv:2205.14135)"},

  // Issue 26: communication overlap as layout properties with framework defaults.
  {"parallel.tp_comm_overlap", ENUM, REF(parallel.tp_comm_overlap), 0, nullptr, 0, 2, false, false, kOverlapNames,
   "", "parallel", "Tensor-parallel collectives chunked behind the GEMMs (Transformer Engine userbuffers, "
   "async TP): one chunk in tensor_parallel and any excess over the GEMM time stay exposed. auto: the "
   "framework's default (on for nemo, off otherwise).",
   "NeMo performance recipes (tp_comm_overlap); Megatron-LM --tp-comm-overlap (opt-in)"},
  {"parallel.ep_comm_overlap", ENUM, REF(parallel.ep_comm_overlap), 0, nullptr, 0, 2, false, false, kOverlapNames,
   "", "parallel", "Expert all-to-all (dispatch and combine) overlapped with another micro-batch's compute; "
   "only the excess stays exposed. auto: off (no framework named here does it by default).",
   "DeepSeek-V3's DualPipe (DeepSeek-AI 2024, arXiv:2412.19437, section 3.2.1)"},

  // --- reliability and checkpoints ---
  {"reliability.gpu_mtbf_hours", NUM, REF(reliability.gpu_mtbf_hours), 50000, nullptr, 0, 1e12, false, false,
   nullptr, "hours", "reliability",
   "Mean time between job-interrupting failures per GPU (host, network and software failures attributed "
   "per GPU). 0 = no failures.",
   "Llama 3: 419 unexpected interruptions in 54 days on 16,384 H100 -> 16,384 x 1,296 h / 419 = 50,700 h "
   "(Dubey et al. 2024, section 3.3.4)"},
  {"reliability.recovery_minutes", NUM, REF(reliability.recovery_minutes), 20, nullptr, 0, 1e6, false, false,
   nullptr, "minutes", "reliability",
   "Detection + restart + checkpoint reload after a failure; the cluster is idle but billed.",
   "assumption: ~5 min detection + ~15 min restart and reload; replace with your measured figure"},
  {"reliability.checkpoint_write_minutes", NUM, REF(reliability.checkpoint_write_minutes), 0, nullptr, 0, 1e6,
   true, true, nullptr, "minutes", "reliability",
   "Time to write one checkpoint. Absent: checkpoint size / storage.checkpoint_write_gbps.", "-"},
  {"reliability.checkpoint_interval_minutes", NUM, REF(reliability.checkpoint_interval_minutes), 0, nullptr,
   0, 1e8, true, true, nullptr, "minutes", "reliability",
   "Compute time between checkpoints. Absent: the optimum (Daly 2006 higher-order estimate).",
   "Daly, FGCS 22 (2006) 303-312"},
  {"reliability.checkpoint_async", BOOL, REF(reliability.checkpoint_async), 0, nullptr, 0, 1, false, false,
   nullptr, "", "reliability",
   "Asynchronous checkpointing: training continues while the checkpoint is written; a failure during the "
   "write falls back to the previous checkpoint.", "-"},
  {"reliability.async_stall_fraction", NUM, REF(reliability.async_stall_fraction), 0.1, nullptr, 0, 1, false,
   false, nullptr, "fraction", "reliability",
   "With async checkpoints: share of the write time that still blocks training (snapshot to host memory).",
   "assumption; PyTorch DCP async save blocks only for the device-to-host copy"},
  {"reliability.checkpoint_bytes_per_param", NUM, REF(reliability.checkpoint_bytes_per_param), 14, nullptr,
   0, 1000, true, false, nullptr, "bytes/param", "reliability",
   "Checkpoint bytes per parameter.", "14 = bf16 weights (2) + fp32 master (4) + Adam moments (4 + 4)"},
  {"reliability.checkpoint_gb", NUM, REF(reliability.checkpoint_gb), 0, nullptr, 0, 1e9, true, true, nullptr,
   "GB", "reliability", "Checkpoint size (1 GB = 1e9 bytes). Absent: params x bytes per param.", "-"},
  {"reliability.downtime_hours", NUM, REF(reliability.downtime_hours), 0, nullptr, 0, 1e6, false, false,
   nullptr, "hours", "reliability", "Known downtime (maintenance, outages) billed while idle.", "-"},
  {"reliability.hot_spares", INT, REF(reliability.hot_spares), 0, nullptr, 0, 10000000, false, false, nullptr,
   "GPUs", "reliability", "Hot-spare GPUs billed and standing by to replace failed ones.", "-"},
  {"reliability.hot_spare_recovery_minutes", NUM, REF(reliability.hot_spare_recovery_minutes), 5, nullptr, 0,
   1e6, false, false, nullptr, "minutes", "reliability",
   "Recovery time when a hot spare takes over (used when hot_spares > 0).", "assumption"},
  {"reliability.failure_shape", NUM, REF(reliability.failure_shape), 1, nullptr, 0.1, 10, false, false,
   nullptr, "", "reliability",
   "Weibull shape of times between failures in the Monte Carlo (1 = exponential; < 1 = infant mortality).",
   "exponential: the closed-form model's assumption"},

  // --- storage and network ---
  {"storage.read_gbps", NUM, REF(storage.read_gbps), 0, nullptr, 0, 1e9, true, true, nullptr, "GB/s",
   "storage", "Read bandwidth the data pipeline sustains. Absent: unlimited (no data stalls).", "-"},
  {"storage.checkpoint_write_gbps", NUM, REF(storage.checkpoint_write_gbps), 10, nullptr, 0, 1e9, true, false,
   nullptr, "GB/s", "storage", "Aggregate checkpoint write bandwidth.",
   "assumption: a shared parallel file system (e.g. FSx for Lustre at ~1 GB/s per TiB for ~10 TiB)"},
  {"storage.dataset_gb", NUM, REF(storage.dataset_gb), 0, nullptr, 0, 1e12, false, false, nullptr, "GB",
   "storage", "Dataset stored during the job.", "-"},
  {"storage.checkpoints_retained", INT, REF(storage.checkpoints_retained), 2, nullptr, 0, 100000, false, false,
   nullptr, "checkpoints", "storage", "Checkpoints kept in storage.", "-"},
  {"storage.retention_days", NUM, REF(storage.retention_days), 30, nullptr, 0, 36500, false, false, nullptr,
   "days", "storage", "Days the dataset and checkpoints stay stored after the job.", "-"},
  {"storage.usd_per_gb_month", NUM, REF(storage.usd_per_gb_month), 0.023, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GB-month", "storage", "Storage price.",
   "AWS S3 Standard, first 50 TB/month, us-east-1 (aws.amazon.com/s3/pricing, 2025)"},
  {"storage.egress_gb", NUM, REF(storage.egress_gb), 0, nullptr, 0, 1e12, false, false, nullptr, "GB",
   "storage", "Data transferred out (e.g. the final model).", "-"},
  {"storage.usd_per_gb_egress", NUM, REF(storage.usd_per_gb_egress), 0.09, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GB", "storage", "Egress price.",
   "AWS data transfer out to the internet, first 10 TB/month (aws.amazon.com/ec2/pricing/on-demand, 2025)"},

  // --- pricing and billing ---
  {"pricing.model", ENUM, REF(pricing.model), 0, nullptr, 0, 3, false, false, kModelNames, "", "pricing",
   "How the GPUs are paid for.", "-"},
  {"pricing.usd_per_gpu_hour", NUM, REF(pricing.usd_per_gpu_hour), 2.99, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GPU-hour", "pricing",
   "Price per GPU-hour under this pricing model (before tax unless price_includes_tax).",
   "Lambda on-demand 8x H100 SXM, USD 2.99/GPU-hour (lambda.ai/pricing, 2025): a dated example"},
  {"pricing.billing_increment_seconds", NUM, REF(pricing.billing_increment_seconds), 1, nullptr, 0, 1e8,
   true, false, nullptr, "seconds", "pricing", "Billing granularity (1 = per second, 3600 = per hour).",
   "per-second billing (AWS EC2 Linux, GCP)"},
  {"pricing.minimum_billed_seconds", NUM, REF(pricing.minimum_billed_seconds), 0, nullptr, 0, 1e9, false,
   false, nullptr, "seconds", "pricing", "Minimum billed duration of each rental session.",
   "AWS EC2 Linux bills a 60 s minimum; 0 here as the job is long"},
  {"pricing.whole_nodes", BOOL, REF(pricing.whole_nodes), 1, nullptr, 0, 1, false, false, nullptr, "",
   "pricing", "Bill whole nodes (GPU count rounded up to gpus_per_node).", "8-GPU instances (p5.48xlarge)"},
  {"pricing.fixed_fees_usd", NUM, REF(pricing.fixed_fees_usd), 0, nullptr, 0, 1e12, false, false, nullptr,
   "USD", "pricing", "Fixed fees for the job (support, setup).", "-"},
  {"pricing.tax_rate", NUM, REF(pricing.tax_rate), 0, nullptr, 0, 1, false, false, nullptr, "fraction",
   "pricing", "Tax on the bill (e.g. 0.10 Korean VAT).", "0: US list prices exclude sales tax"},
  {"pricing.price_includes_tax", BOOL, REF(pricing.price_includes_tax), 0, nullptr, 0, 1, false, false,
   nullptr, "", "pricing", "Prices entered already include tax_rate (common for KRW price lists).", "-"},
  {"pricing.vat_recoverable", BOOL, REF(pricing.vat_recoverable), 0, nullptr, 0, 1, false, false, nullptr, "",
   "pricing", "The buyer is a VAT-registered business that credits input VAT: the cost is net of the VAT, which "
   "is still shown as its own line.",
   "false; AWS Korea issues VAT invoices that business customers credit as input VAT (aws.amazon.com/tax-help/"
   "south-korea1)"},
  {"pricing.currency", ENUM, REF(pricing.currency), 0, nullptr, 0, 1, false, false, kCurrencyNames, "",
   "pricing", "Currency for display; the model computes in USD.", "-"},
  // Plausible range (issue 31: 1e-9 KRW per USD showed every price as ₩0.00): half to twice the 2025 range of
  // Seoul closes, 1,350.0 (Jun 30) - 1,484.1 (Apr 9) (Yonhap via kbmaeil.com/article/20251230500613), so any
  // rate of recent decades, or a stress case well beyond it, is accepted as typed.
  {"pricing.krw_per_usd", NUM, REF(pricing.krw_per_usd), 1439, nullptr, 700, 3000, false, false, nullptr,
   "KRW/USD", "pricing", "Exchange rate, KRW per USD, dated: set the rate of the day you compare on. AWS Korea "
   "bills KRW at Hana Bank's telegraphic-transfer selling rate of the previous month's last day (about 1-2% above "
   "the close).",
   "Seoul FX close 2025-12-30, 15:30 session: 1,439.0 KRW/USD (Yonhap via kbmaeil.com/article/20251230500613); "
   "2025 average of closes 1,422.16"},
  {"pricing.krw_per_usd_date", TEXT, REF(fx.krw_per_usd_date), 0, "2025-12-30", 0, 20, false, false, nullptr, "",
   "pricing", "The day pricing.krw_per_usd is from (YYYY-MM-DD), shown with every amount converted between won and "
   "dollars. Money fields named usd_* are stored in USD and shown in the scenario's currency: a won amount typed "
   "into one is stored as won / rate (set the rate and its date first).",
   "Seoul FX close 2025-12-30 (as pricing.krw_per_usd)"},
  {"pricing.krw_per_gpu_hour", NUM, REF(pricing.krw_per_gpu_hour), 0, nullptr, 0, 1e10, true, true, nullptr,
   "KRW/GPU-hour", "pricing",
   "Price in KRW (Korean clouds). Given: overrides usd_per_gpu_hour via krw_per_usd.", "-"},
  {"pricing.offer", TEXT, REF(pricing.offer), 0, "", 0, 0, false, false, nullptr, "", "pricing",
   "The dated catalog offer (assets/offers.json, gpucost catalog offers) the GPU, node size and price came from; "
   "empty when the price is your own. A different GPU than the offer's clears it (the price is then unconfirmed).",
   "-"},
  {"pricing.spot.preemptions_per_node_day", NUM, REF(pricing.spot.preemptions_per_node_day), 0.05, nullptr, 0,
   1000, false, false, nullptr, "per node-day", "pricing",
   "Spot preemptions per node per day; any preempted node interrupts a tightly coupled job.",
   "assumption; AWS Spot Instance Advisor buckets p5 at 5-20% interruptions per month per instance"},
  {"pricing.spot.reacquire_minutes", NUM, REF(pricing.spot.reacquire_minutes), 30, nullptr, 0, 1e7, false,
   false, nullptr, "minutes", "pricing", "Wait to get spot capacity back after a preemption (not billed).",
   "assumption"},
  {"pricing.spot.notice_seconds", NUM, REF(pricing.spot.notice_seconds), 120, nullptr, 0, 1e6, false, false,
   nullptr, "seconds", "pricing",
   "Warning before reclaim. If it covers a checkpoint write, a preemption loses no progress.",
   "AWS two-minute Spot interruption notice (GCP: 30 s)"},
  {"pricing.spot.discount", NUM, REF(pricing.spot.discount), 0.4, nullptr, 0, 0.99, false, false, nullptr,
   "fraction", "pricing",
   "Spot price below on-demand, used when comparing pricing models (gpucost pricing) and in fleet plans.",
   "GCP Spot us-central1: a3-highgpu-1g H100 USD 6.571 vs 10.979/h (2026-09-26), a3-ultragpu-8g H200 USD "
   "6.261 vs 10.437/GPU-h (2026-10-13), Cloud Billing Catalog: ~40% off (assets/offers.json)"},
  {"pricing.reserved.term_months", NUM, REF(pricing.reserved.term_months), 12, nullptr, 0, 120, true, false,
   nullptr, "months", "pricing", "Commitment term.", "1-year commitments (AWS Savings Plans, GCP CUDs)"},
  {"pricing.reserved.committed_gpus", INT, REF(pricing.reserved.committed_gpus), 0, nullptr, 1, 10000000,
   false, true, nullptr, "GPUs", "pricing", "GPUs committed. Absent: the cluster's GPUs.", "-"},
  {"pricing.reserved.capacity_guaranteed", BOOL, REF(pricing.reserved.capacity_guaranteed), 0, nullptr, 0, 1,
   false, false, nullptr, "", "pricing",
   "The commitment reserves capacity (a discount alone does not).",
   "Savings Plans and CUDs discount without reserving capacity"},
  {"pricing.reserved.usd_per_gpu_hour_on_demand", NUM, REF(pricing.reserved.usd_per_gpu_hour_on_demand), 0,
   nullptr, 0, 1e6, true, true, nullptr, "USD/GPU-hour", "pricing",
   "On-demand price for GPUs above the commitment. Absent: pricing.usd_per_gpu_hour.", "-"},
  {"pricing.reserved.discount", NUM, REF(pricing.reserved.discount), 0.37, nullptr, 0, 0.99, false, false,
   nullptr, "fraction", "pricing",
   "Committed price below on-demand, used when comparing pricing models (gpucost pricing).",
   "GCP 1-year committed use discount for A2 GPU VMs: 1-year / on-demand monthly = 0.63 (Cyclenerd "
   "google-cloud-pricing-cost-calculator pricing.yml, generated 2026-02-12, from the Cloud Billing Catalog)"},
  {"pricing.reserved.other_use_fraction", NUM, REF(pricing.reserved.other_use_fraction), 0, nullptr, 0, 1, false,
   false, nullptr, "fraction", "pricing",
   "Share of the committed GPU-hours this job leaves unused (idle GPUs above its size, the rest of the term) "
   "that other work uses. 0: this job pays the whole term.",
   "A commitment is billed for every hour of its term whether used or not (AWS Savings Plans, GCP CUDs)"},

  // --- ownership ---
  {"pricing.owned.capex_usd_per_gpu", NUM, REF(pricing.owned.capex_usd_per_gpu), 40000, nullptr, 0, 1e8,
   true, false, nullptr, "USD/GPU", "ownership",
   "Purchase price per GPU including its share of server, network and installation. Left at the default, the GPU's "
   "own server entry applies (gpus.json server_usd_per_gpu, estimates with sources: A100 26,600, H100 40,000, H200 "
   "45,000, B200 50,000, L40S 12,000); a GPU without one is priced at this H100 example, with a warning.",
   "assumption: ~USD 300k per 8x H100 HGX server (2024 public reports) plus ~7% network"},
  {"pricing.owned.lifetime_years", NUM, REF(pricing.owned.lifetime_years), 5, nullptr, 0, 50, true, false,
   nullptr, "years", "ownership", "Depreciation period.",
   "5-6 years: server useful life used by hyperscalers' filings (2023-2024)"},
  {"pricing.owned.residual_fraction", NUM, REF(pricing.owned.residual_fraction), 0.1, nullptr, 0, 1, false,
   false, nullptr, "fraction", "ownership", "Resale value at end of life / capex.", "assumption"},
  {"pricing.owned.power_kw_per_gpu", NUM, REF(pricing.owned.power_kw_per_gpu), 1.275, nullptr, 0, 100, false,
   false, nullptr, "kW/GPU", "ownership", "IT power per GPU including its share of host and network. "
   "Left at the default, the GPU's own server datasheet applies (gpus.json server_kw_per_gpu: DGX A100 6.5 kW, DGX H100 "
   "and H200 10.2 kW, DGX B200 14.3 kW max for 8 GPUs; 8x L40S or H100 PCIe servers 4.3-5 kW).",
   "NVIDIA DGX H100: 10.2 kW max for 8 GPUs (datasheet)"},
  {"pricing.owned.pue", NUM, REF(pricing.owned.pue), 1.3, nullptr, 1, 5, false, false, nullptr, "", "ownership",
   "Power usage effectiveness (facility power / IT power).",
   "Uptime Institute 2024 survey: 1.56 industry average; modern AI halls 1.2-1.4"},
  {"pricing.owned.usd_per_kwh", NUM, REF(pricing.owned.usd_per_kwh), 0.08, nullptr, 0, 10, false, false,
   nullptr, "USD/kWh", "ownership", "Electricity price, all-in per kWh (energy, demand-charge share, climate and "
   "fuel-cost adjustments). In Korea type your KEPCO tariff in won: its industrial (B) table could not be verified "
   "(2026-12), so no Korean default is given.",
   "US industrial average ~8 cents/kWh (EIA Electric Power Monthly, 2024)"},
  {"pricing.owned.opex_usd_per_gpu_year", NUM, REF(pricing.owned.opex_usd_per_gpu_year), 0, nullptr, 0, 1e7,
   false, false, nullptr, "USD/GPU-year", "ownership",
   "Other operating cost per GPU per year (insurance, software, network transit) not entered below.",
   "0: space, maintenance and staff are their own fields"},
  {"pricing.owned.spares_fraction", NUM, REF(pricing.owned.spares_fraction), 0.02, nullptr, 0, 1, false, false,
   nullptr, "fraction", "ownership", "Extra GPUs bought as spares / fleet.", "assumption"},
  {"pricing.owned.utilization", NUM, REF(pricing.owned.utilization), 0.7, nullptr, 0, 1, true, false, nullptr,
   "fraction", "ownership", "Fraction of owned GPU-hours doing useful work.", "assumption"},
  {"pricing.owned.compare_usd_per_gpu_hour", NUM, REF(pricing.owned.compare_usd_per_gpu_hour), 2.99, nullptr,
   0, 1e6, true, false, nullptr, "USD/GPU-hour", "ownership", "Cloud price to break even against.",
   "Lambda on-demand H100 SXM, 2025 (as pricing.usd_per_gpu_hour)"},
  {"pricing.owned.colocation_usd_per_kw_month", NUM, REF(pricing.owned.colocation_usd_per_kw_month), 184.06,
   nullptr, 0, 1e6, false, false, nullptr, "USD/kW-month", "ownership",
   "Colocation (space, cooling, facility) per kW of IT power per month, energy billed separately.",
   "CBRE North America Data Center Trends H2 2024 (2025-02-26): average asking rate for 250-500 kW in "
   "primary markets, USD 184.06/kW/month"},
  {"pricing.owned.maintenance_fraction_per_year", NUM, REF(pricing.owned.maintenance_fraction_per_year), 0.03,
   nullptr, 0, 1, false, false, nullptr, "fraction/year", "ownership",
   "Hardware support and maintenance contracts per year, as a fraction of capex.",
   "assumption: ~3% of capex per year; replace with your vendor quote"},
  {"pricing.owned.staff_usd_per_gpu_year", NUM, REF(pricing.owned.staff_usd_per_gpu_year), 400, nullptr, 0,
   1e7, false, false, nullptr, "USD/GPU-year", "ownership", "Operations staff cost per GPU per year.",
   "assumption: one engineer at ~USD 200k/year loaded per ~500 GPUs"},
  {"pricing.owned.repair_hours_per_failure", NUM, REF(pricing.owned.repair_hours_per_failure), 72, nullptr, 0,
   1e5, false, false, nullptr, "hours", "ownership",
   "Hours a failed GPU is out of service (failures at reliability.gpu_mtbf_hours). Spares (spares_fraction) "
   "cover repairs first; the rest reduces useful hours.",
   "assumption: 3 days to swap or RMA a failed part"},
  {"pricing.owned.other_use_fraction", NUM, REF(pricing.owned.other_use_fraction), 0, nullptr, 0, 1, true, true,
   nullptr, "fraction", "ownership",
   "Put owned hardware on a commitment's terms: the job pays the servers for their whole lifetime, less this "
   "share of the hours after the job that other work uses (as pricing.reserved.other_use_fraction). Absent: the "
   "price per useful GPU-hour at pricing.owned.utilization.", "-"},

  // --- inference (workload.kind = inference; inference.h) ---
  {"inference.input_tokens", NUM, REF(inference.input_tokens), 1020, nullptr, 0, 1e7, true, false, nullptr,
   "tokens", "inference", "Mean prompt tokens per request.",
   "Splitwise (Patel et al., ISCA 2024, arXiv:2311.18677) Azure conversation trace: median prompt 1,020 tokens"},
  {"inference.output_tokens", NUM, REF(inference.output_tokens), 129, nullptr, 0, 1e7, true, false, nullptr,
   "tokens", "inference", "Mean generated tokens per request.",
   "Splitwise (Patel et al. 2024) Azure conversation trace: median output 129 tokens"},
  {"inference.requests_per_second", NUM, REF(inference.requests_per_second), 1, nullptr, 0, 1e9, true, false,
   nullptr, "requests/s", "inference", "Mean arrival rate of requests (Poisson).", "example value"},
  {"inference.peak_to_mean", NUM, REF(inference.peak_to_mean), 1, nullptr, 1, 1000, false, false, nullptr, "",
   "inference", "Peak / mean arrival rate: capacity is sized for the peak and paid for all the time.",
   "1: a flat load (the issue's default); diurnal chat traffic is often 2-3"},
  {"inference.requests", NUM, REF(inference.requests), 0, nullptr, 0, 1e15, true, true, nullptr, "requests",
   "inference", "A batch job of this many requests (all available at once; done when all are served). "
   "Absent: a service running inference.hours at inference.requests_per_second.", "-"},
  {"inference.hours", NUM, REF(inference.hours), 720, nullptr, 0, 1e6, true, false, nullptr, "hours",
   "inference", "Service period (a batch job: the deadline the replicas are sized for when not given).",
   "720 h: one month of service"},
  {"inference.service_months", NUM, REF(inference.service_months), 1, nullptr, 0, 1200, true, false, nullptr,
   "months", "inference", "How long the service will run. A commitment (pricing.model = reserved) longer than "
   "this pays the rest of its term (unused_commitment), shared over the service's hours.",
   "1: one month of service, as inference.hours"},
  {"inference.weight_precision", ENUM, REF(inference.weight_precision), 0, nullptr, 0, 4, false, false,
   kWeightPrecisionNames, "", "inference",
   "Weight precision: bf16/fp16 (2 bytes), fp8 (1, needs fp8 tensor cores), int8 (1, W8A8 on int8 tensor "
   "cores), int4 (0.5, weight-only: matrices run at fp16).", "bf16: the released checkpoints of Llama 2/3"},
  {"inference.kv_precision", ENUM, REF(inference.kv_precision), 0, nullptr, 0, 2, false, false,
   kKvPrecisionNames, "", "inference", "KV-cache precision (fp8 needs a GPU with fp8).",
   "bf16: vLLM's kv_cache_dtype auto (the model's dtype)"},
  {"inference.slo.ttft_ms", NUM, REF(inference.slo.ttft_ms), 0, nullptr, 0, 1e9, true, true, nullptr, "ms",
   "inference", "Target time to first token at slo.percentile. Absent: no target.", "-"},
  {"inference.slo.tpot_ms", NUM, REF(inference.slo.tpot_ms), 0, nullptr, 0, 1e9, true, true, nullptr, "ms",
   "inference", "Target time per output token (after the first) at slo.percentile. Absent: no target.", "-"},
  {"inference.slo.percentile", INT, REF(inference.slo.percentile), 90, nullptr, 50, 99, false, false, nullptr,
   "percentile", "inference", "Percentile the targets apply to: 50, 90 or 99.",
   "90: DistServe's attainment target (Zhong et al., OSDI 2024, arXiv:2401.09670)"},
  {"inference.mode", ENUM, REF(inference.mode), 0, nullptr, 0, 1, false, false, kInferenceModeNames, "",
   "inference", "colocated: one pool runs prefill and decode (cluster.gpu, parallel.tensor_parallel, "
   "pricing.*; inference.decode.* overrides them). disaggregated: prefill and decode on separate pools "
   "(inference.prefill.*, inference.decode.*), the KV cache sent between them.",
   "colocated: vLLM's and TGI's default"},
  {"inference.prefill.gpu", TEXT, REF(inference.prefill.gpu), 0, "", 0, 0, false, false, nullptr, "",
   "inference", "Prefill pool GPU (catalog id). Empty: cluster.gpu.", "-"},
  {"inference.prefill.tensor_parallel", INT, REF(inference.prefill.tensor_parallel), 0, nullptr, 1, 1024, false,
   true, nullptr, "GPUs", "inference", "GPUs per prefill replica. Absent: parallel.tensor_parallel.", "-"},
  {"inference.prefill.replicas", INT, REF(inference.prefill.replicas), 0, nullptr, 1, 1000000, false, true,
   nullptr, "replicas", "inference", "Prefill replicas. Absent: sized for the peak load and the target.", "-"},
  {"inference.prefill.usd_per_gpu_hour", NUM, REF(inference.prefill.usd_per_gpu_hour), 0, nullptr, 0, 1e6, true,
   true, nullptr, "USD/GPU-hour", "inference", "Prefill pool price. Absent: the pricing.* price.", "-"},
  {"inference.decode.gpu", TEXT, REF(inference.decode.gpu), 0, "", 0, 0, false, false, nullptr, "",
   "inference", "Decode pool GPU (colocated: the one pool's). Empty: cluster.gpu.", "-"},
  {"inference.decode.tensor_parallel", INT, REF(inference.decode.tensor_parallel), 0, nullptr, 1, 1024, false,
   true, nullptr, "GPUs", "inference", "GPUs per decode replica. Absent: parallel.tensor_parallel.", "-"},
  {"inference.decode.replicas", INT, REF(inference.decode.replicas), 0, nullptr, 1, 1000000, false, true,
   nullptr, "replicas", "inference", "Decode replicas (colocated: the pool's). Absent: sized for the peak "
   "load and the target.", "-"},
  {"inference.decode.usd_per_gpu_hour", NUM, REF(inference.decode.usd_per_gpu_hour), 0, nullptr, 0, 1e6, true,
   true, nullptr, "USD/GPU-hour", "inference", "Decode pool price. Absent: the pricing.* price.", "-"},
  {"inference.kv_link_gbps", NUM, REF(inference.kv_link_gbps), 0, nullptr, 0, 1e6, true, true, nullptr,
   "Gb/s per GPU", "inference", "Link between the pools per GPU, for the KV cache (achieved at "
   "cluster.link_efficiency). Absent: cluster.node_network_gbps / cluster.gpus_per_node.", "-"},
  {"inference.kv_transfer_overlap", BOOL, REF(inference.kv_transfer_overlap), 1, nullptr, 0, 1, false, false,
   nullptr, "", "inference", "Send the KV cache layer by layer during the prefill (only the excess and the "
   "last layer are exposed); false: after the prefill (all exposed).",
   "Splitwise (Patel et al. 2024) section IV-C: layer-wise KV transfer"},
  {"inference.chunked_prefill", BOOL, REF(inference.chunked_prefill), 1, nullptr, 0, 1, false, false, nullptr, "",
   "inference", "Colocated: prompts run in chunks inside the decode steps (one weight read for both; a prompt "
   "adds its compute). false: each prompt stalls the decodes for a step of its own.",
   "on: vLLM V1, TensorRT-LLM in-flight batching; Sarathi-Serve (OSDI 2024, arXiv:2403.02310)"},
  {"inference.cuda_graphs", BOOL, REF(inference.cuda_graphs), 1, nullptr, 0, 1, false, false, nullptr, "",
   "inference", "The engine replays each step as a captured CUDA graph. false: eager PyTorch (vLLM before 0.2.5, "
   "--enforce-eager): the host launches every kernel, and a step takes at least 0.34 ms of host time per layer.",
   "on: vLLM >= 0.2.5 (PR #1926, 2023-12), TensorRT-LLM, SGLang; off: 0.34 ms per layer from vLLM PR #1440 "
   "(Llama 2 7B, batch 1: 12 ms per token eager, 10.5 ms with CUDA graphs)"},
  {"inference.weight_group_size", INT, REF(inference.weight_group_size), 128, nullptr, 16, 1048576, false, false,
   nullptr, "weights", "inference",
   "int4 weight-only (AWQ, GPTQ): the weights that share one 16-bit scale and one 4-bit zero point. Each weight is "
   "de-quantised to 16 bits on the CUDA cores before its multiply (1.5 instructions per weight, overlapped with the "
   "reads: a decode step's GEMMs take the longer of the two), and the scales and zeros are read with the weights "
   "(2.5 bytes per group).",
   "128: AWQ's and GPTQ's default group (Lin et al. 2024, arXiv:2306.00978; Frantar et al. 2023, arXiv:2210.17323); "
   "1.5 instructions per weight: TensorRT-LLM / FasterTransformer's LOP3 int4-to-fp16 conversion (4 LOP3 + 2 HSUB2 "
   "+ 2 HFMA2 per 8 weights) plus the scale's HFMA2 per 2 weights"},
  {"inference.max_batch", INT, REF(inference.max_batch), 256, nullptr, 1, 1000000, false, false, nullptr,
   "sequences", "inference", "Most sequences a replica runs at once (inference.attention data: each GPU of it).",
   "vLLM max_num_seqs default 256 (vLLM engine arguments)"},
  {"inference.attention", ENUM, REF(inference.attention), 0, nullptr, 0, 1, false, false, kAttentionSplitNames, "",
   "inference", "How the GPUs of one replica share attention. tensor: heads split over them, an all-reduce per "
   "layer (an MLA latent cache is whole on every GPU). data: each GPU runs attention for its own sequences and "
   "holds their KV cache; dense weights on every GPU, routed experts split over the replica (expert parallel), "
   "the MoE all-to-all only; max_batch counts per GPU.",
   "DeepSeek-V3/R1 inference system (deepseek-ai/open-infra-index, 2025-02, day 6): decode 'Routed Expert EP144, "
   "MLA/Shared Expert DP144'; SGLang --enable-dp-attention"},
  {"inference.kv_reserve", ENUM, REF(inference.kv_reserve), 1, nullptr, 0, 1, false, false, kKvReserveNames, "",
   "inference", "full: each sequence reserves its prompt + all its output (no eviction). paged: it holds "
   "what it uses (on average prompt + half the output, in 16-token blocks).",
   "paged: vLLM PagedAttention (Kwon et al., SOSP 2023, arXiv:2309.06180)"},
  {"inference.gpu_memory_fraction", NUM, REF(inference.gpu_memory_fraction), 0.9, nullptr, 0, 1, true, false,
   nullptr, "fraction", "inference", "Share of GPU memory the engine uses (weights, KV cache, activations).",
   "vLLM gpu_memory_utilization default 0.9"},
  {"inference.prefill_mfu", NUM, REF(inference.prefill_mfu), 0.55, nullptr, 0, 1, true, false, nullptr,
   "fraction", "inference", "Prefill model FLOPs utilisation for long prompts; short prompts run lower (the "
   "GEMM-size curve of the step-time model) and never faster than the weights can be read.",
   "0.55: BLIS roofline MfuPrefill (inference-sim); measured 0.4-0.67 (DistServe, Splitwise on A100)"},
  {"inference.decode_bandwidth_efficiency", NUM, REF(inference.decode_bandwidth_efficiency), 0.8, nullptr, 0, 1,
   true, false, nullptr, "fraction", "inference",
   "Achieved / datasheet HBM bandwidth while decode reads the weights and the KV cache.",
   "assumption between Databricks' measured decode MBU (~0.6-0.7, 'LLM Inference Performance Engineering', "
   "2023) and llm-analysis's suggested hbm_memory_efficiency 0.9"},
  {"inference.step_overhead_ms", NUM, REF(inference.step_overhead_ms), 1, nullptr, 0, 1e4, false, false, nullptr,
   "ms", "inference", "Fixed cost of every engine step on the host (scheduling, sampling, preparing inputs), on top of "
   "the GPU's work, its kernel boundaries (30 us per layer) and the tensor-parallel all-reduce latencies.",
   "1 ms: vLLM's step less SGLang's for Llama-3.2-1B at batch 1 on an H100 (2.5x and 1.5x a megakernel's 0.945 ms; "
   "Hazy Research, 'Look Ma, No Bubbles!', 2025-05-27)"},
  // Issue 26: the request path in front of the engine, fitted on one source's four single-request runs.
  {"inference.request_overhead_ms", NUM, REF(inference.request_overhead_ms), 2.5, nullptr, 0, 1e5, false, false,
   nullptr, "ms", "inference", "Each request's time before the engine has it (HTTP, parsing, chat template), on the "
   "server's CPU: added to time to first token, not to GPU time.", kRequestPathSource},
  {"inference.request_overhead_us_per_token", NUM, REF(inference.request_overhead_us_per_token), 2.2, nullptr, 0, 1e4,
   false, false, nullptr, "us/token", "inference", "The same per prompt token (tokenising).", kRequestPathSource},

  // --- issue 28: prefix caching, speculative decoding, routing, autoscaling (inference_techniques.h,
  //     inference_day.h); inference.load_profile is read by json_io (a preset name or 24 numbers) ---
  {"inference.prefix_tokens", NUM, REF(inference.prefix_tokens), 0, nullptr, 0, 1e7, false, true, nullptr, "tokens",
   "inference", "Prompt tokens every request shares (a system prompt, few-shot examples), cached by the engine "
   "(vLLM automatic prefix caching, SGLang RadixAttention): a hit skips their prefill and shares their KV blocks. "
   "At most inference.input_tokens. Needs inference.prefix_cache_hit.", "-"},
  {"inference.prefix_cache_hit", NUM, REF(inference.prefix_cache_hit), 0, nullptr, 0, 1, false, true, nullptr,
   "fraction", "inference", "Share of requests that find the shared prefix cached (the rest compute and store "
   "their own copy). Needs inference.prefix_tokens.", "-"},
  {"inference.speculative.draft_model", TEXT, REF(inference.speculative.draft_model), 0, "", 0, 0, false, false,
   nullptr, "", "inference", "Draft model of speculative decoding (a models.json id): given, speculative decoding is "
   "on; its weights and KV cache are held and run k times per step. Or give draft_params.", "-"},
  {"inference.speculative.draft_params", NUM, REF(inference.speculative.draft_params), 0, nullptr, 0, 1e13, true,
   true, nullptr, "parameters", "inference", "Parameters of a draft without a shape (Medusa/EAGLE heads): weights "
   "read per draft step; its KV cache is not counted.", "-"},
  {"inference.speculative.tokens_per_step", INT, REF(inference.speculative.tokens_per_step), 0, nullptr, 1, 64,
   false, true, nullptr, "tokens", "inference", "Tokens the draft proposes per step (k); the target verifies k + 1 "
   "positions. Auto with a draft: 5; without a draft: no speculative decoding.",
   "5: vLLM's draft-model example (docs.vllm.ai v0.6.3, 'Speculative decoding in vLLM', num_speculative_tokens=5) "
   "and SGLang's EAGLE default speculative_num_steps 5 (SGLang docs, 'Speculative Decoding')"},
  {"inference.speculative.acceptance_rate", NUM, REF(inference.speculative.acceptance_rate), 0, nullptr, 0, 1, true,
   true, nullptr, "fraction", "inference", "Chance the target accepts a drafted token, measured on your traffic: "
   "required with a draft (no general default). Expected tokens per step (1 - a^(k+1)) / (1 - a) (Leviathan et al. "
   "2023).", "-"},
  {"inference.router.usd_per_hour", NUM, REF(inference.router.usd_per_hour), 0, nullptr, 0, 1e6, true, true, nullptr,
   "USD/hour", "inference", "Router or load-balancer tier in front of the replicas. Absent: none colocated; "
   "disaggregated, one load-balancer tier (kRouterDefaultUsdPerHour).",
   "AWS Application Load Balancer USD 0.0225 per ALB-hour + 0.008 per LCU-hour, one LCU (us-east-1, as quoted by "
   "cloud-horizons.com 'ALB: the line item nobody watches', 2026-05-08)"},
  {"inference.router.latency_ms", NUM, REF(inference.router.latency_ms), 0, nullptr, 0, 1e5, false, false, nullptr,
   "ms", "inference", "Latency the router adds to every request's first token.",
   "no published figure confirmed: 0 unless measured"},
  {"inference.autoscale.min_replicas", INT, REF(inference.autoscale.min_replicas), 0, nullptr, 1, 1000000, false,
   true, nullptr, "replicas", "inference", "Fewest replicas kept warm (per pool). Absent: 1.", "-"},
  {"inference.autoscale.max_replicas", INT, REF(inference.autoscale.max_replicas), 0, nullptr, 1, 1000000, false,
   true, nullptr, "replicas", "inference", "Most replicas (per pool); hours needing more miss the target. Absent: "
   "no cap.", "-"},
  {"inference.autoscale.scale_up_minutes", NUM, REF(inference.autoscale.scale_up_minutes), 0, nullptr, 0, 1440, true,
   true, nullptr, "minutes", "inference", "A new replica is rented this long before it serves (the day's load is "
   "known, so it starts ahead). Absent: its weights loaded from storage at storage.read_gbps (else "
   "storage.checkpoint_write_gbps).", "-"},
  {"inference.autoscale.scale_down_minutes", NUM, REF(inference.autoscale.scale_down_minutes), 0, nullptr, 0, 1440,
   false, true, nullptr, "minutes", "inference", "A replica no longer needed is kept (billed, idle) this long "
   "before it is released.", "assumption: release at once (0); Kubernetes' HPA waits 5 minutes by default "
   "(--horizontal-pod-autoscaler-downscale-stabilization), set it if yours does"},

  // --- issue 29: the wait for capacity and the deadline, spare pools, restore checks, bring-up, allocation,
  // the data pipeline, support, financing (capacity.h, spares.h, operations.h, datapipe.h) ---
  {"workload.deadline_hours", NUM, REF(ops.deadline_hours), 0, nullptr, 0, 1e7, true, true, nullptr, "hours",
   "workload", "Hours from the request to the result the team needs (the wait for capacity, bring-up and the run). "
   "Absent: no deadline; the delay is counted from the normal run (nothing waits or fails).", "-"},
  {"workload.value_per_day_usd", NUM, REF(ops.value_per_day_usd), 0, nullptr, 0, 1e12, false, false, nullptr,
   "USD/day", "workload", "What a day of delay past the deadline costs the team (a part of the total, not billed, "
   "not taxed): options are ranked by the total including it. 0: time has no price.",
   "0: your figure (salaries idle, a missed launch); no general source"},
  {"capacity.on_demand_wait_hours", NUM, REF(ops.on_demand_wait_hours), 0, nullptr, 0, 1e6, false, false, nullptr,
   "hours", "pricing", "Mean wait until the job's GPUs are available on demand (exponential). Also used for a "
   "commitment that does not reserve capacity. Spot waits pricing.spot.reacquire_minutes; reserved capacity "
   "and owned GPUs wait nothing.",
   "0: no provider publishes it; AWS notes short-term availability of P-type GPU instances is often limited "
   "(AWS ML blog on Capacity Blocks, 2026-05-07). Enter what your provider says for this many GPUs"},
  {"cluster.bring_up_hours", NUM, REF(ops.bring_up_hours), 0, nullptr, 0, 1e5, false, false, nullptr, "hours",
   "hardware", "Provisioning, burn-in, NCCL and storage validation before the first step, billed for every GPU "
   "held.",
   "0: no published figure by cluster size was confirmed (Imbue 2024 and Together AI describe acceptance tests of "
   "thousands of H100s without a duration); enter your provider's or your own"},
  {"cluster.allocation_efficiency", NUM, REF(ops.allocation_efficiency), 1, nullptr, 0, 1, true, false, nullptr,
   "fraction", "hardware", "Share of the allocated (billed or owned) GPU time that jobs use; in a shared cluster "
   "(Kubernetes, Slurm) GPUs idle between jobs. The job is charged 1 / this of its GPU-hours.",
   "1: a dedicated cluster; shared clusters measure lower (Jeon et al., USENIX ATC 2019, Microsoft Philly)"},
  {"reliability.restore_test_every", INT, REF(ops.restore_test_every), 0, nullptr, 0, 1000000, false, false, nullptr,
   "checkpoints", "reliability", "Test a restore every this many checkpoints (load it and check it); a tested "
   "checkpoint is known good. 0: never.", "-"},
  {"reliability.restore_test_minutes", NUM, REF(ops.restore_test_minutes), 0, nullptr, 0, 1e5, false, false, nullptr,
   "minutes", "reliability", "Time one restore test blocks the cluster.",
   "0: enter your measured reload time (reliability.recovery_minutes includes one)"},
  {"reliability.bad_checkpoint_probability", NUM, REF(ops.bad_checkpoint_probability), 0, nullptr, 0, 1, false, false,
   nullptr, "fraction", "reliability", "Chance that the last checkpoint is unusable when a rollback needs it "
   "(unless restore-tested): the job rolls back one more interval and reloads again.",
   "0: no published rate was confirmed; enter your own"},
  {"reliability.repair_hours", NUM, REF(ops.repair_hours), 0, nullptr, 0, 1e5, true, true, nullptr, "hours",
   "reliability", "Hours until a spare that took over a failure returns to the pool (the failed part repaired or "
   "replaced). Absent: pricing.owned.repair_hours_per_failure.", "-"},
  {"reliability.spares_included", BOOL, REF(ops.spares_included), 0, nullptr, 0, 1, false, false, nullptr, "",
   "reliability", "The hot spares are a managed service's buffer included in its price: they recover failures but "
   "are not billed.", "-"},
  {"data.preprocess.cpu_cores_per_gpu", NUM, REF(ops.cpu_cores_per_gpu), 0, nullptr, 0, 1e4, true, true, nullptr,
   "cores/GPU", "storage", "CPU cores per GPU that read and preprocess samples (tokenising, decoding images). "
   "Absent: preprocessing not modelled.", "NVIDIA DGX H100: 112 cores for 8 GPUs = 14 (datasheet)"},
  {"data.preprocess.samples_per_core_second", NUM, REF(ops.samples_per_core_second), 0, nullptr, 0, 1e9, true, true,
   nullptr, "samples/s", "storage", "Samples one core preprocesses per second (measure your loader). Absent: no "
   "CPU limit.", "-"},
  {"data.tokens_per_sample", NUM, REF(ops.tokens_per_sample), 0, nullptr, 0, 1e9, true, true, nullptr, "tokens",
   "storage", "Training tokens in one sample (an image's patches, a document). Absent: workload.seq_len.", "-"},
  {"storage.small_file_latency_ms", NUM, REF(ops.small_file_latency_ms), 0, nullptr, 0, 1e6, false, false, nullptr,
   "ms", "storage", "Time to open one small file (object store or network file system first byte); a loader "
   "core waits it for every file of its sample.", "0: samples packed in large shards (WebDataset, Megatron indexed)"},
  {"storage.files_per_sample", NUM, REF(ops.files_per_sample), 1, nullptr, 0, 1e6, false, false, nullptr, "files",
   "storage", "Files opened per sample (an image and its caption: 2).", "-"},
  {"storage.staging.dataset_gb", NUM, REF(ops.staging_dataset_gb), 0, nullptr, 0, 1e12, false, false, nullptr, "GB",
   "storage", "Data copied to the cluster's local or scratch storage before the first step.", "-"},
  {"storage.staging.gbps", NUM, REF(ops.staging_gbps), 0, nullptr, 0, 1e9, false, false, nullptr, "GB/s", "storage",
   "Aggregate copy rate of the staging.", "-"},
  {"storage.staging.billed", BOOL, REF(ops.staging_billed), 1, nullptr, 0, 1, false, false, nullptr, "", "storage",
   "The GPUs are held (billed) while the data set copies.", "-"},
  {"storage.scratch_usd_per_gb_month", NUM, REF(ops.scratch_usd_per_gb_month), 0, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GB-month", "storage", "Price of the scratch storage holding the staged copy while the job runs.",
   "0: local NVMe included with the instance; FSx for Lustre and similar are priced per GB-month"},
  {"pricing.support_usd_per_month", NUM, REF(ops.support_usd_per_month), 0, nullptr, 0, 1e10, false, false, nullptr,
   "USD/month", "pricing", "Support plan, per month of the job (a cost line of its own).",
   "0: none; AWS Business Support costs the greater of USD 100/month or a tiered share of usage "
   "(aws.amazon.com/premiumsupport/pricing)"},
  {"pricing.owned.interest_rate", NUM, REF(pricing.owned.interest_rate), 0, nullptr, 0, 1, false, false, nullptr,
   "per year", "ownership", "Interest on the purchase (a loan, or the return the cash would earn): the capex is "
   "paid as an annuity over the lifetime instead of straight-line depreciation.",
   "0: paid in cash with no cost of capital; enter your rate (a Korean bank's corporate loan rate, dated)"},
  // Issue 45: owning waits for its servers; the wait counts in the deadline and the delay cost (capacity.h).
  {"pricing.owned.lead_time_days", NUM, REF(pricing.owned.lead_time_days), 70, nullptr, 0, 3650, false, false,
   nullptr, "days", "ownership", "Days from ordering the servers to running on them (delivery, racking, burn-in): "
   "an owned job starts this late, which counts in the deadline and the delay cost. 0: the servers are already "
   "installed.",
   "70 days: Dell's H100 server lead time of 8-12 weeks in April 2024 (down from about 39 weeks late 2023; Dell "
   "Taiwan's Terence Liao to United Daily News, reported by Tom's Hardware and The Register, 2024-04-11)"},

  // --- provider comparison sheet (issue 16): answers from the provider, "" = ask the provider ---
  {"provider.provider", TEXT, REF(provider.provider), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Who offers this option and under which product name (e.g. \"KT Cloud, H200 GPU server\").", "-"},
  {"provider.cpu", TEXT, REF(provider.cpu), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "CPU model and cores per server.", "-"},
  {"provider.ram", TEXT, REF(provider.ram), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Memory per server.", "-"},
  {"provider.storage_performance", TEXT, REF(provider.storage_performance), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Local and shared storage: type, capacity, read/write throughput and IOPS.", "-"},
  {"provider.tenancy", TEXT, REF(provider.tenancy), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Bare metal or a dedicated server, or a VM or container on shared hosts (MIG slices, time sharing).", "-"},
  {"provider.interconnect", TEXT, REF(provider.interconnect), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "GPU-to-GPU inside a server (NVLink/NVSwitch) and between servers (InfiniBand, RoCE, GPUDirect RDMA), per-node bandwidth.", "-"},
  {"provider.os_driver", TEXT, REF(provider.os_driver), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Operating system, NVIDIA driver and CUDA versions, images offered, root access.", "-"},
  {"provider.minimum_term", TEXT, REF(provider.minimum_term), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Shortest commitment accepted and the penalty for ending early.", "-"},
  {"provider.setup_fee", TEXT, REF(provider.setup_fee), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "One-time charges: setup, network, migration.", "-"},
  {"provider.support_scope", TEXT, REF(provider.support_scope), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "What support covers (hardware only, OS, frameworks, training jobs), hours and language.", "-"},
  {"provider.data_location", TEXT, REF(provider.data_location), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Where data and compute physically are (country, region, data centre). Domestic location is necessary for some rules but not sufficient: the security items below still need answers.", "-"},
  {"provider.access_control", TEXT, REF(provider.access_control), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Who can reach the servers and data (accounts, MFA, network isolation, IP allow lists).", "-"},
  {"provider.encryption", TEXT, REF(provider.encryption), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Encryption at rest and in transit; who holds the keys.", "-"},
  {"provider.audit_logs", TEXT, REF(provider.audit_logs), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Which access and admin actions are logged, how long the logs are kept, whether you receive them.", "-"},
  {"provider.backup_location", TEXT, REF(provider.backup_location), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Where backups and snapshots are kept (country, region) and for how long.", "-"},
  {"provider.staff_access", TEXT, REF(provider.staff_access), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "How the provider's staff may access your servers or data: approval, logging, notice to you.", "-"},
  {"provider.incident_response", TEXT, REF(provider.incident_response), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Time to respond to and to resolve a failed GPU or server; replacement hardware.", "-"},
  {"provider.sla", TEXT, REF(provider.sla), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Availability commitment, credits for breaches, and who is responsible for lost work.", "-"},
  {"provider.certifications", TEXT, REF(provider.certifications), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider",
   "Certifications held for this product (CSAP grade, ISMS/ISMS-P, ISO 27001, SOC 2).", "-"},
};
#undef REF

}  // namespace

const char* RecomputeJsonName(Recompute r) {
  const int i = static_cast<int>(r);
  return i >= 0 && i <= static_cast<int>(Recompute::kSelectiveOp) ? kRecomputeNames[i] : "none";
}

const char* RecomputeLabel(Recompute r) {
  switch (r) {
    case Recompute::kNone: return Tr("plan.recompute_none");
    case Recompute::kSelective: return Tr("plan.recompute_selective");
    case Recompute::kFull: return Tr("plan.recompute_full");
    default: return RecomputeJsonName(r);
  }
}

const FieldSpec* Fields() { return kFields; }
std::size_t FieldCount() { return sizeof(kFields) / sizeof(kFields[0]); }

const FieldSpec* FindField(const char* path) {
  for (const FieldSpec& f : kFields)
    if (std::strcmp(f.path, path) == 0) return &f;
  return nullptr;
}

double GetNumber(const Scenario& s, const FieldSpec& f) {
  void* p = f.ref(const_cast<Scenario&>(s));
  switch (f.kind) {
    case FieldKind::kNumber: return *static_cast<double*>(p);
    case FieldKind::kInteger: return static_cast<double>(*static_cast<std::int64_t*>(p));
    case FieldKind::kBool: return *static_cast<bool*>(p) ? 1.0 : 0.0;
    case FieldKind::kEnum: return *static_cast<int*>(p);
    case FieldKind::kText: return 0.0;
  }
  return 0.0;
}

void SetNumber(Scenario& s, const FieldSpec& f, double v) {
  void* p = f.ref(s);
  switch (f.kind) {
    case FieldKind::kNumber: *static_cast<double*>(p) = v; break;
    case FieldKind::kInteger: *static_cast<std::int64_t*>(p) = static_cast<std::int64_t>(std::llround(v)); break;
    case FieldKind::kBool: *static_cast<bool*>(p) = v != 0.0; break;
    case FieldKind::kEnum: *static_cast<int*>(p) = static_cast<int>(v); break;
    case FieldKind::kText: break;
  }
}

const char* GetText(const Scenario& s, const FieldSpec& f) {
  if (f.kind != FieldKind::kText) return "";
  return static_cast<const char*>(f.ref(const_cast<Scenario&>(s)));
}

bool IsDefault(const Scenario& s, const FieldSpec& f) {
  if (f.kind == FieldKind::kText) return std::strcmp(GetText(s, f), f.default_text) == 0;
  return GetNumber(s, f) == f.default_value;
}

const FieldSpec* FieldOverriddenBy(const Scenario& s, const FieldSpec& f) {
  if (std::strcmp(f.path, "pricing.usd_per_gpu_hour") == 0 && s.pricing.krw_per_gpu_hour > 0)
    return FindField("pricing.krw_per_gpu_hour");
  return nullptr;
}

bool SameValue(const Scenario& a, const Scenario& b, const FieldSpec& f) {
  if (f.kind == FieldKind::kText) return std::strcmp(GetText(a, f), GetText(b, f)) == 0;
  return GetNumber(a, f) == GetNumber(b, f);
}

bool ValueInRange(const FieldSpec& f, double v) {
  if (!std::isfinite(v)) return false;
  switch (f.kind) {
    case FieldKind::kText: return true;
    case FieldKind::kBool: return v == 0.0 || v == 1.0;
    case FieldKind::kEnum:
    case FieldKind::kInteger:
      if (v != std::floor(v)) return false;
      break;
    case FieldKind::kNumber: break;
  }
  if (f.min_exclusive ? !(v > f.min) : !(v >= f.min)) return false;
  return v <= f.max;
}

std::size_t TextCapacity(const FieldSpec& f) {
  if (f.kind != FieldKind::kText) return 0;
  if (std::strcmp(f.path, "name") == 0) return kNameCapacity;
  return std::strncmp(f.path, "provider.", 9) == 0 ? kSheetTextCapacity : kTextCapacity;
}

std::size_t TextMaxChars(const FieldSpec& f) {
  return f.max > 0 ? static_cast<std::size_t>(f.max) : TextCapacity(f) - 1;
}

long Utf8Length(const std::string& text) {
  long n = 0;
  for (std::size_t i = 0; i < text.size(); ++n) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0 || (extra == 1 && c < 0xC2) || i + extra >= text.size()) return -1;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return -1;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return n;
}

MessageParam RangeMessage(const FieldSpec& f, bool with_auto) {
  MessageParam range("");
  switch (f.kind) {
    case FieldKind::kText: range = MessageParam::Key("msg.range_text", {std::to_string(TextMaxChars(f))}); break;
    case FieldKind::kBool: range = MessageParam::Key("msg.range_bool"); break;
    case FieldKind::kEnum: {
      std::string choices;
      for (const char* const* c = f.choices; *c; ++c) choices += (c == f.choices ? "" : ", ") + std::string(*c);
      range = MessageParam::Key("msg.range_one_of", {choices});
      break;
    }
    case FieldKind::kInteger: range = MessageParam::Key("msg.range_integer", {FormatBound(f.min), FormatBound(f.max)}); break;
    case FieldKind::kNumber:
      range = NumberRangeMessage(FormatBound(f.min), FormatBound(f.max), f.min_exclusive);
      break;
  }
  return with_auto && f.is_auto ? MessageParam::Key("msg.range_auto", {range}) : range;
}

MessageParam NumberRangeMessage(const std::string& min, const std::string& max, bool min_exclusive) {
  return MessageParam::Key(min_exclusive ? "msg.range_gt" : "msg.range_ge", {min, max});
}

std::string RangeText(const FieldSpec& f, Lang lang, bool with_auto) {
  const MessageParam range = RangeMessage(f, with_auto);
  return RenderMessage(lang, range.text, range.args);
}

void DescribeRange(const FieldSpec& f, char* buf, std::size_t cap) {
  if (cap == 0) return;
  std::snprintf(buf, cap, "%s", RangeText(f, Lang::kEn).c_str());
}

Scenario DefaultScenario() {
  Scenario s;
  std::memset(&s, 0, sizeof s);
  for (const FieldSpec& f : kFields) {
    if (f.kind == FieldKind::kText) {
      char* dst = static_cast<char*>(f.ref(s));
      std::snprintf(dst, TextCapacity(f), "%s", f.default_text);
    } else {
      SetNumber(s, f, f.default_value);
    }
  }
  return s;
}

bool HasModelShape(const Scenario& s) {
  const WorkloadInputs& w = s.workload;
  return w.layers > 0 && w.hidden > 0 && w.heads > 0 && w.seq_len > 0 && w.vocab > 0;
}

namespace {

// What the serving model (inference.h, inference_model.h) and its billing (inference_billing.h) do not read:
// the training job's inputs. Found by setting each field in every serving preset under each pricing model,
// an MoE and a DeepSeek scenario (no result changed) and checked against the code; tests/core/
// test_fields_not_used.cpp checks every one on every serving preset. The model's shape fields (ffn, experts'
// sizes) are not listed: they describe the model whichever way it runs.
constexpr const char* kNotReadByInference[] = {
    "workload.tokens", "workload.flops", "workload.precision", "workload.seq_len", "workload.input_bytes_per_token",
    "workload.tasks", "workload.task_gpu_hours", "workload.gpus_per_task", "workload.finetune", "workload.lora_rank",
    "workload.lora_targets", "workload.frozen_precision", "workload.real_token_fraction", "workload.deadline_hours", "workload.value_per_day_usd", "cluster.gpus", "cluster.mfu",
    "cluster.framework", "cluster.bring_up_hours", "cluster.allocation_efficiency", "capacity.on_demand_wait_hours",
    "parallel.data_parallel", "parallel.pipeline_parallel", "parallel.zero_stage", "parallel.micro_batch",
    "parallel.global_batch", "parallel.pipeline_interleave", "parallel.sequence_parallel", "parallel.recompute",
    "parallel.optimizer", "parallel.overlap_comm", "parallel.single_node_mfu", "parallel.critical_batch_tokens",
    "parallel.reference_batch_tokens", "parallel.context_parallel", "parallel.flash_attention",
    "parallel.tp_comm_overlap", "parallel.expert_parallel", "reliability.checkpointing",
    "reliability.checkpoint_write_minutes", "reliability.checkpoint_interval_minutes", "reliability.checkpoint_async",
    "reliability.async_stall_fraction", "reliability.checkpoint_bytes_per_param", "reliability.checkpoint_gb",
    "reliability.downtime_hours", "reliability.hot_spares", "reliability.hot_spare_recovery_minutes",
    "reliability.failure_shape", "reliability.restore_test_every", "reliability.restore_test_minutes",
    "reliability.bad_checkpoint_probability", "reliability.repair_hours", "reliability.spares_included",
    "storage.checkpoints_retained", "storage.small_file_latency_ms", "storage.files_per_sample",
    "storage.staging.dataset_gb", "storage.staging.gbps", "storage.staging.billed", "storage.scratch_usd_per_gb_month",
    "data.preprocess.cpu_cores_per_gpu", "data.preprocess.samples_per_core_second", "data.tokens_per_sample",
    "pricing.owned.lead_time_days",  // issue 45: a service has no start date (no schedule outlook)
};

// Field i of Fields() is in none of `paths`: worked out once per list (comparing each field's path with the list
// on every evaluation was 20,000 string comparisons, 95% of one serving evaluation: 42 us, against the 5 us
// target of issue 17).
template <std::size_t N>
std::vector<bool> NotIn(const char* const (&paths)[N]) {
  std::vector<bool> out(FieldCount(), true);
  for (std::size_t k = 0; k < FieldCount(); ++k)
    for (const char* path : paths)
      if (std::strcmp(path, Fields()[k].path) == 0) out[k] = false;
  return out;
}

bool ReadByInference(std::size_t i) {
  static const std::vector<bool> read = NotIn(kNotReadByInference);
  return read[i];
}

// Serving fields a disaggregated service does not read (no colocated prefills to mix into its decode steps).
constexpr const char* kNotReadWhenDisaggregated[] = {"inference.chunked_prefill"};

bool ReadWhenDisaggregated(std::size_t i) {
  static const std::vector<bool> read = NotIn(kNotReadWhenDisaggregated);
  return read[i];
}

// Serving fields a colocated service does not read: the prefill pool (its one pool is cluster.* and
// inference.decode.*). The KV link (inference.kv_link_gbps, kv_transfer_overlap) stays read: the serving plan
// prices split candidates of a colocated scenario with it.
constexpr const char* kNotReadWhenColocated[] = {"inference.prefill.gpu", "inference.prefill.tensor_parallel",
                                                 "inference.prefill.replicas", "inference.prefill.usd_per_gpu_hour"};

bool ReadWhenColocated(std::size_t i) {
  static const std::vector<bool> read = NotIn(kNotReadWhenColocated);
  return read[i];
}

bool ReadByKind(std::size_t i, WorkloadKind kind) {
  if (kind != WorkloadKind::kInference) return std::strncmp(Fields()[i].path, "inference.", 10) != 0;
  return ReadByInference(i);
}

// The fields a workload does not read, in table order, made once: a training job or independent tasks (every field
// but inference.*), a colocated service, a disaggregated one. Every evaluation asks (a sweep's, a plan's, a Monte
// Carlo's), and only these few can be set and unused.
const std::vector<std::size_t>& FieldsNotReadBy(WorkloadKind kind, bool disaggregated) {
  static const std::array<std::vector<std::size_t>, 3> lists = [] {
    std::vector<std::size_t> jobs, colocated, split;
    for (std::size_t i = 0; i < FieldCount(); ++i) {
      if (!ReadByKind(i, WorkloadKind::kTraining)) jobs.push_back(i);
      const bool served = ReadByKind(i, WorkloadKind::kInference);
      if (!(served && ReadWhenColocated(i))) colocated.push_back(i);
      if (!(served && ReadWhenDisaggregated(i))) split.push_back(i);
    }
    return std::array<std::vector<std::size_t>, 3>{jobs, colocated, split};
  }();
  return lists[kind != WorkloadKind::kInference ? 0 : disaggregated ? 2 : 1];
}

// The bytes a list's fields occupy in a Scenario, as runs of 8-byte words: runs the fields fill whole (compared with
// the default scenario's bytes by memcmp) and words they fill in part (compared under a mask). A scenario whose
// bytes there all equal the default's holds every field of the list at its default (a text compared over its whole
// capacity, past its end too), so nothing is unused: a few hundred bytes compared instead of asking each field
// (IsDefault through the table). Any difference (a field set, or only a text's bytes after its end) falls back to
// asking each field: the answer is the same.
struct DefaultWords {
  struct Run {
    std::size_t byte_offset, words;
    bool whole;  // every byte of the run belongs to a field of the list
  };
  std::vector<Run> runs;
  std::vector<std::uint64_t> mask, value;  // the partial runs' words in order: the fields' bytes, their default
  std::vector<unsigned char> base;         // the default scenario's bytes (whole runs)
  bool usable = false;                     // false: a field's default is not DefaultScenario()'s (ask each field)
};

std::size_t FieldBytes(const FieldSpec& f) {
  switch (f.kind) {
    case FieldKind::kNumber: return sizeof(double);
    case FieldKind::kInteger: return sizeof(std::int64_t);
    case FieldKind::kBool: return sizeof(bool);
    case FieldKind::kEnum: return sizeof(int);
    case FieldKind::kText: return TextCapacity(f);
  }
  return 0;
}

DefaultWords DefaultWordsOf(const std::vector<std::size_t>& list) {
  DefaultWords d;
  Scenario base = DefaultScenario();
  constexpr std::size_t kWords = sizeof(Scenario) / 8;  // a field in a last partial word: not usable (below)
  std::vector<std::uint64_t> mask(kWords + 1, 0);
  unsigned char* const origin = reinterpret_cast<unsigned char*>(&base);
  for (std::size_t i : list) {
    const FieldSpec& f = Fields()[i];
    if (!IsDefault(base, f)) return d;
    const std::size_t at = static_cast<std::size_t>(static_cast<unsigned char*>(f.ref(base)) - origin);
    for (std::size_t b = at; b < at + FieldBytes(f); ++b) mask[b / 8] |= std::uint64_t{0xff} << (8 * (b % 8));
  }
  if (mask[kWords]) return d;
  d.base.assign(origin, origin + sizeof(Scenario));
  // Whole runs of at least kMemcmpWords words are compared by memcmp; shorter ones word by word with the rest.
  constexpr std::size_t kMemcmpWords = 8;
  auto full_from = [&](std::size_t w) {
    std::size_t n = 0;
    while (w + n < kWords && mask[w + n] == ~std::uint64_t{0}) ++n;
    return n;
  };
  for (std::size_t w = 0, whole_left = 0; w < kWords; ++w) {
    if (!mask[w]) continue;
    if (whole_left == 0 && full_from(w) >= kMemcmpWords) whole_left = full_from(w);
    const bool whole = whole_left > 0;
    if (whole) --whole_left;
    DefaultWords::Run* last = d.runs.empty() ? nullptr : &d.runs.back();
    if (!last || last->whole != whole || last->byte_offset + 8 * last->words != 8 * w) d.runs.push_back({8 * w, 0, whole});
    ++d.runs.back().words;
    if (whole) continue;
    std::uint64_t v;
    std::memcpy(&v, origin + 8 * w, 8);
    d.mask.push_back(mask[w]);
    d.value.push_back(v & mask[w]);
  }
  d.usable = true;
  return d;
}

// Every field of the list holds the default scenario's bytes (then each is at its default).
bool AllAtDefault(const Scenario& s, const DefaultWords& d) {
  if (!d.usable) return false;
  const unsigned char* origin = reinterpret_cast<const unsigned char*>(&s);
  const std::uint64_t* mask = d.mask.data();
  const std::uint64_t* value = d.value.data();
  std::uint64_t differs = 0;
  for (const DefaultWords::Run& run : d.runs) {
    const unsigned char* p = origin + run.byte_offset;
    if (run.whole) {
      if (std::memcmp(p, d.base.data() + run.byte_offset, 8 * run.words) != 0) return false;
      continue;
    }
    for (std::size_t k = 0; k < run.words; ++k) {
      std::uint64_t v;
      std::memcpy(&v, p + 8 * k, 8);
      differs |= (v & mask[k]) ^ value[k];
    }
    mask += run.words;
    value += run.words;
  }
  return differs == 0;
}

const DefaultWords& DefaultWordsFor(WorkloadKind kind, bool disaggregated) {
  static const std::array<DefaultWords, 3> words = {DefaultWordsOf(FieldsNotReadBy(WorkloadKind::kTraining, false)),
                                                    DefaultWordsOf(FieldsNotReadBy(WorkloadKind::kInference, false)),
                                                    DefaultWordsOf(FieldsNotReadBy(WorkloadKind::kInference, true))};
  return words[kind != WorkloadKind::kInference ? 0 : disaggregated ? 2 : 1];
}

}  // namespace

std::vector<const FieldSpec*> FieldsNotUsed(const Scenario& s) {
  std::vector<const FieldSpec*> out;
  const WorkloadKind kind = Kind(s);
  const bool disaggregated = kind == WorkloadKind::kInference && static_cast<InferenceMode>(s.inference.mode) == InferenceMode::kDisaggregated;
  if (AllAtDefault(s, DefaultWordsFor(kind, disaggregated))) return out;
  const ModelSpec* model = nullptr;
  bool model_looked_up = false;
  for (std::size_t i : FieldsNotReadBy(kind, disaggregated)) {
    const FieldSpec& f = Fields()[i];
    if (IsDefault(s, f)) continue;
    if (!model_looked_up) {
      model = s.arch.model[0] ? FindModel(s.arch.model) : nullptr;
      model_looked_up = true;
    }
    bool from_model = false;  // a named model fills its shape (workload.seq_len): not the user's setting
    if (model)
      for (const ModelFieldValue& v : ModelFieldValues(*model))
        from_model = from_model || (std::strcmp(v.path, f.path) == 0 && GetNumber(s, f) == v.value);
    if (!from_model) out.push_back(&f);
  }
  return out;
}

}  // namespace gpucost
