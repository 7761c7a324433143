// scenario.h — everything a user says about one job: the input of Evaluate().
//
// A Scenario is a plain value (no heap memory), so evaluating one, copying it for a sweep point or a Monte
// Carlo trial never allocates. Defaults, ranges, units, help text and sources of every field live in one
// table (fields.h); DefaultScenario() applies it. JSON paths in comments are the public contract
// (schema gpucost/scenario@1).
//
// Conventions: a numeric field marked "auto" treats 0 as "not given" (absent in JSON); the model then
// derives the value and says where it came from. Units are in the names.
#pragma once
#include <cstdint>

namespace gpucost {

enum class WorkloadKind : int { kTraining = 0, kIndependent = 1, kInference = 2 };
enum class Precision : int { kBf16 = 0, kFp16, kFp8, kTf32, kFp32 };
enum class PricingModel : int { kOnDemand = 0, kSpot, kReserved, kOwned };
// Issue 26: MaxText's remat policies as it names them (MaxText/layers/decoders.py): save_dot_except_mlpwi keeps
// the outputs of the query, key, value, output and MLP-out projections; save_dot_except_mlp also drops the MLP-out
// output. Both recompute the attention core (its output, "context", is not kept) and the MLP input projections.
// torchtitan's per-op selective checkpointing (mode "selective", selective_ac_option "op";
// torchtitan/parallelisms/parallelize_llama.py: "Saves output of all compute ops, except every second mm", the count
// restarting in each layer) recomputes the layer's 2nd, 4th and 6th matmul: the key, output and (gated) up
// projections, or the MLP-down one of a two-matrix MLP.
enum class Recompute : int { kNone = 0, kSelective, kFull, kSaveDotExceptMlpwi, kSaveDotExceptMlp, kSelectiveOp };
// The JSON name of a recompute policy (parallel.recompute, the plan's layouts).
const char* RecomputeJsonName(Recompute r);
// Its name in the current language, as the plan's tables show it (MaxText's and torchtitan's policies keep their
// own names).
const char* RecomputeLabel(Recompute r);
enum class Optimizer : int { kAdam = 0, kAdam8bit, kSgd };
enum class Currency : int { kUsd = 0, kKrw };

constexpr int kTextCapacity = 64;  // fixed-size text fields (ids), including the terminating NUL
// The scenario's name: up to kNameMaxChars characters of any script (UTF-8, at most 4 bytes each).
constexpr int kNameMaxChars = 200;
constexpr int kNameCapacity = kNameMaxChars * 4 + 1;

struct WorkloadInputs {
  int kind;                       // workload.kind: training | independent
  double params;                  // workload.params (count; auto: unknown)
  double tokens;                  // workload.tokens (training tokens)
  double flops;                   // workload.flops (total training FLOPs; auto: 6 x params x tokens [+ attention])
  int precision;                  // workload.precision
  std::int64_t layers;            // workload.layers (auto: unknown)
  std::int64_t hidden;            // workload.hidden
  std::int64_t heads;             // workload.heads
  std::int64_t seq_len;           // workload.seq_len
  std::int64_t vocab;             // workload.vocab
  std::int64_t ffn_hidden;        // workload.ffn_hidden (auto: 4 x hidden)
  std::int64_t kv_heads;          // workload.kv_heads (grouped-query attention; auto: heads)
  int ffn_gated;                  // workload.ffn_gated (SwiGLU-style MLP: three matrices instead of two)
  int tied_embeddings;            // workload.tied_embeddings (one vocab x hidden matrix in and out, as GPT)
  double input_bytes_per_token;   // workload.input_bytes_per_token (data-feed volume)
  std::int64_t tasks;             // workload.tasks (independent)
  double task_gpu_hours;          // workload.task_gpu_hours (GPU-hours of one task when nothing fails)
  std::int64_t gpus_per_task;     // workload.gpus_per_task
};

struct ClusterInputs {
  char gpu[kTextCapacity];        // cluster.gpu (catalog id)
  std::int64_t gpus;              // cluster.gpus (GPUs doing the work, spares excluded)
  std::int64_t gpus_per_node;     // cluster.gpus_per_node
  double mfu;                     // cluster.mfu (auto: predicted from shape+layout, else the default)
  double node_network_gbps;       // cluster.node_network_gbps (scale-out bandwidth per node, Gb/s)
  double link_efficiency;         // cluster.link_efficiency (achieved / nominal link bandwidth)
  double peak_tflops;             // cluster.peak_tflops (auto: catalog dense peak for the precision)
  double hbm_tbps;                // cluster.hbm_tbps (auto: catalog)
  double nvlink_gbps;             // cluster.nvlink_gbps (auto: catalog; per GPU, both directions)
  int framework;                  // cluster.framework (framework.h; issue 26): megatron | nemo | ... | other
};

struct ParallelInputs {
  std::int64_t data_parallel;     // parallel.data_parallel (auto: gpus / (tensor x pipeline))
  std::int64_t tensor_parallel;   // parallel.tensor_parallel
  std::int64_t pipeline_parallel; // parallel.pipeline_parallel
  std::int64_t zero_stage;        // parallel.zero_stage (0-3)
  std::int64_t micro_batch;       // parallel.micro_batch (sequences)
  std::int64_t global_batch;      // parallel.global_batch (sequences per step; auto: unknown)
  std::int64_t pipeline_interleave; // parallel.pipeline_interleave
  bool sequence_parallel;         // parallel.sequence_parallel
  int recompute;                  // parallel.recompute: none | selective | full
  int optimizer;                  // parallel.optimizer: adam | adam8bit | sgd
  bool overlap_comm;              // parallel.overlap_comm (overlap DP gradient reduction with backward)
  double single_node_mfu;         // parallel.single_node_mfu (auto: cluster.mfu) for scaling prediction
  double critical_batch_tokens;   // parallel.critical_batch_tokens (auto: batch-size effect off)
  double reference_batch_tokens;  // parallel.reference_batch_tokens (auto: 0, workload.tokens is the small-batch limit)
  // Issue 18 (layouts).
  std::int64_t context_parallel;  // parallel.context_parallel (sequence split over GPUs; 1 = off)
  bool flash_attention;           // parallel.flash_attention (fused attention kernel)
  // Issue 26: communication overlap (0 auto: the framework's default, 1 on, 2 off).
  int tp_comm_overlap;            // parallel.tp_comm_overlap: auto | on | off
  int ep_comm_overlap;            // parallel.ep_comm_overlap: auto | on | off
  // Issue 46: norms and the gated activation as fused kernels (Megatron-Core / Transformer Engine, torch.compile,
  // XLA) or one kernel per PyTorch op (eager: false).
  bool fused_elementwise;         // parallel.fused_elementwise
};

struct ReliabilityInputs {
  double gpu_mtbf_hours;            // reliability.gpu_mtbf_hours (per GPU; 0 = no failures)
  double recovery_minutes;          // reliability.recovery_minutes (detect + restart + reload, cluster billed)
  double checkpoint_write_minutes;  // reliability.checkpoint_write_minutes (auto: size / write bandwidth)
  double checkpoint_interval_minutes; // reliability.checkpoint_interval_minutes (auto: the optimum)
  bool checkpoint_async;            // reliability.checkpoint_async
  double async_stall_fraction;      // reliability.async_stall_fraction (share of the write that still blocks)
  double checkpoint_bytes_per_param;// reliability.checkpoint_bytes_per_param
  double checkpoint_gb;             // reliability.checkpoint_gb (auto: params x bytes per param)
  double downtime_hours;            // reliability.downtime_hours (known downtime, billed while idle)
  std::int64_t hot_spares;          // reliability.hot_spares (extra GPUs billed, standing by)
  double hot_spare_recovery_minutes;// reliability.hot_spare_recovery_minutes (recovery when a spare takes over)
  double failure_shape;             // reliability.failure_shape (Weibull shape for Monte Carlo; 1 = exponential)
  bool checkpointing;               // reliability.checkpointing (false: no checkpoints; a failure restarts the job)
  // Issue 50 (job/reliability.h): early failures that acceptance testing burns in, slow nodes, collective timeouts.
  double infant_failure_fraction;   // reliability.infant_failure_fraction (share of GPUs that fail early in life)
  double infant_mean_hours;         // reliability.infant_mean_hours (mean hours at load until such a GPU fails)
  double slow_node_fraction;        // reliability.slow_node_fraction (share of nodes running slow at any time)
  double slow_node_slowdown;        // reliability.slow_node_slowdown (step time held by a slow node / normal)
  double collective_timeouts_per_day; // reliability.collective_timeouts_per_day (hung collectives, per running day)
  double collective_timeout_minutes;// reliability.collective_timeout_minutes (the watchdog's wait before it ends the job)
};

struct StorageInputs {
  double read_gbps;                 // storage.read_gbps (GB/s the data pipeline sustains; auto: unlimited)
  double checkpoint_write_gbps;     // storage.checkpoint_write_gbps (GB/s aggregate)
  double dataset_gb;                // storage.dataset_gb
  std::int64_t checkpoints_retained;// storage.checkpoints_retained
  double retention_days;            // storage.retention_days (kept after the job ends)
  double usd_per_gb_month;          // storage.usd_per_gb_month
  double egress_gb;                 // storage.egress_gb
  double usd_per_gb_egress;         // storage.usd_per_gb_egress
};

struct SpotInputs {
  double preemptions_per_node_day;  // pricing.spot.preemptions_per_node_day
  double reacquire_minutes;         // pricing.spot.reacquire_minutes (wait for capacity, not billed)
  double notice_seconds;            // pricing.spot.notice_seconds (warning before reclaim)
  double discount;                  // pricing.spot.discount (spot price = on-demand x (1 - discount); comparisons)
};

struct ReservedInputs {
  double term_months;               // pricing.reserved.term_months
  std::int64_t committed_gpus;      // pricing.reserved.committed_gpus (auto: cluster GPUs)
  bool capacity_guaranteed;         // pricing.reserved.capacity_guaranteed
  double usd_per_gpu_hour_on_demand;// pricing.reserved.usd_per_gpu_hour_on_demand (burst above the commitment)
  double discount;                  // pricing.reserved.discount (committed price = on-demand x (1 - discount); comparisons)
  double other_use_fraction;        // pricing.reserved.other_use_fraction (share of the unused term other work uses)
};

struct OwnedInputs {
  double capex_usd_per_gpu;         // pricing.owned.capex_usd_per_gpu (GPU + share of server, network)
  double lifetime_years;            // pricing.owned.lifetime_years
  double residual_fraction;         // pricing.owned.residual_fraction (resale value / capex at end of life)
  double power_kw_per_gpu;          // pricing.owned.power_kw_per_gpu (incl. share of host, network)
  double pue;                       // pricing.owned.pue
  double usd_per_kwh;               // pricing.owned.usd_per_kwh
  double opex_usd_per_gpu_year;     // pricing.owned.opex_usd_per_gpu_year (other: insurance, software, transit)
  double spares_fraction;           // pricing.owned.spares_fraction
  double utilization;               // pricing.owned.utilization (fraction of hours doing useful work)
  double compare_usd_per_gpu_hour;  // pricing.owned.compare_usd_per_gpu_hour (cloud price to beat)
  double colocation_usd_per_kw_month; // pricing.owned.colocation_usd_per_kw_month (space + cooling per IT kW, no energy)
  double maintenance_fraction_per_year; // pricing.owned.maintenance_fraction_per_year (support contracts / capex)
  double staff_usd_per_gpu_year;    // pricing.owned.staff_usd_per_gpu_year (operations staff per GPU)
  double repair_hours_per_failure;  // pricing.owned.repair_hours_per_failure (GPU out of service; spares cover it)
  double other_use_fraction;        // pricing.owned.other_use_fraction (auto: the utilisation basis; given: the
                                    // job pays the servers' life as a commitment, less this share other work uses)
  double interest_rate;             // pricing.owned.interest_rate (per year, financing the capex; 0 = paid in cash)
  double lead_time_days;            // pricing.owned.lead_time_days (ordering to installed: counts in the deadline)
};

struct PricingInputs {
  int model;                        // pricing.model: on_demand | spot | reserved | owned
  double usd_per_gpu_hour;          // pricing.usd_per_gpu_hour (what this option charges per GPU-hour)
  double billing_increment_seconds; // pricing.billing_increment_seconds
  double minimum_billed_seconds;    // pricing.minimum_billed_seconds
  bool whole_nodes;                 // pricing.whole_nodes
  double fixed_fees_usd;            // pricing.fixed_fees_usd
  double tax_rate;                  // pricing.tax_rate (e.g. 0.10 Korean VAT)
  bool price_includes_tax;          // pricing.price_includes_tax
  bool vat_recoverable;             // pricing.vat_recoverable (a VAT-registered business recovers its input VAT)
  int currency;                     // pricing.currency: USD | KRW (display currency)
  double krw_per_usd;               // pricing.krw_per_usd
  double krw_per_gpu_hour;          // pricing.krw_per_gpu_hour (auto: use usd_per_gpu_hour)
  SpotInputs spot;
  ReservedInputs reserved;
  OwnedInputs owned;
  char offer[kTextCapacity];        // pricing.offer: the catalog offer (offers.h) the price came from, "" if none
  // Issue 50 (billing.h): instances kept stopped (not terminated) between runs or after the job.
  double stopped_hours;             // pricing.stopped_hours
  double stopped_price_fraction;    // pricing.stopped_price_fraction (of the running price; an offer sets its rule)
  double stopped_discount_hours;    // pricing.stopped_discount_hours (auto: every stopped hour at the fraction)
};

// Measured throughput at several GPU counts (scaling_fit.h). Not in the field table: json_io reads and writes
// the array "scaling.points" itself ([{"gpus": 8, "tokens_per_second": 1.2e5}, ...]).
constexpr int kMaxScalingPoints = 16;
struct ScalingPointInputs {
  std::int64_t gpus;                // scaling.points[i].gpus
  double tokens_per_second;         // scaling.points[i].tokens_per_second (whole job, measured)
};
struct ScalingInputs {
  int point_count;                  // entries used in points (0: none)
  ScalingPointInputs points[kMaxScalingPoints];
};

// Models by name, mixture of experts and fine-tuning (issue 18; core/scenario/models.h, moe.h, finetune.h). Their JSON
// paths are under workload (and parallel.expert_parallel); they live in their own structs.
enum class Finetune : int { kFull = 0, kLora, kQlora };
enum class LoraTargets : int { kAll = 0, kAttention };
// Issue 46: how a fine-tuning job stores the weights it does not train (auto: nf4 for qlora, else 16-bit).
enum class FrozenPrecision : int { kAuto = 0, kBf16, kFp8, kNf4 };
struct ArchitectureInputs {
  char model[kTextCapacity];        // workload.model (assets/models.json id: fills the shape and params)
  std::int64_t head_dim;            // workload.head_dim (auto: hidden / heads)
  double attention_params;          // workload.attention_params (weights of one layer's attention; auto: from widths)
  // Issue 26: multi-head latent attention's cache (0: not MLA): the latent and the decoupled rope key.
  std::int64_t kv_lora_rank;        // workload.kv_lora_rank
  std::int64_t rope_head_dim;       // workload.rope_head_dim (qk_rope_head_dim)
  std::int64_t experts;             // workload.experts (routed experts per MoE layer; auto: dense)
  std::int64_t active_experts;      // workload.active_experts (routed experts per token)
  std::int64_t shared_experts;      // workload.shared_experts (always-active experts per MoE layer)
  std::int64_t expert_ffn_hidden;   // workload.expert_ffn_hidden (auto: ffn_hidden)
  std::int64_t dense_layers;        // workload.dense_layers (leading dense layers of an MoE model)
  double active_params;             // workload.active_params (per token; auto: params, or the MoE shape's)
  std::int64_t expert_parallel;     // parallel.expert_parallel (experts split over this many data-parallel ranks)
};
struct FinetuneInputs {
  int mode;                         // workload.finetune: full | lora | qlora
  std::int64_t lora_rank;           // workload.lora_rank
  int lora_targets;                 // workload.lora_targets: all (attention + MLP matrices) | attention
  int frozen_precision;             // workload.frozen_precision: auto | bf16 | fp8 | nf4 (issue 46)
  double real_token_fraction;       // workload.real_token_fraction: real tokens / sequence slots (issue 46)
  std::int64_t packed_document_tokens;  // workload.packed_document_tokens: mean document in a packed sequence (0: one)
};

// Inference (issue 17; inference.h): serving a model under a latency target, colocated or with prefill and
// decode on separate pools. One group, read only when workload.kind = inference.
enum class InferenceMode : int { kColocated = 0, kDisaggregated };
enum class KvReserve : int { kFull = 0, kPaged };
enum class AttentionSplit : int { kTensor = 0, kData };
// How a replica's GPUs split the routed experts under data attention (inference.moe_split; issue 46).
enum class MoeSplit : int { kExpert = 0, kTensor };
// How fp8 weights carry their scales (inference.weight_scaling; issue 46): one per tensor or output channel, or one per
// 128 x 128 block (DeepSeek's and Qwen3's own FP8 checkpoints).
enum class WeightScaling : int { kTensor = 0, kBlock };
enum class WeightPrecision : int { kBf16 = 0, kFp16, kFp8, kInt8, kInt4 };
enum class KvPrecision : int { kBf16 = 0, kFp16, kFp8 };
struct InferencePoolInputs {
  char gpu[kTextCapacity];          // inference.<pool>.gpu (catalog id; "": cluster.gpu)
  std::int64_t tensor_parallel;     // inference.<pool>.tensor_parallel (auto: parallel.tensor_parallel)
  std::int64_t replicas;            // inference.<pool>.replicas (auto: sized for the load and the target)
  double usd_per_gpu_hour;          // inference.<pool>.usd_per_gpu_hour (auto: the pricing.* price)
};
struct InferenceSloInputs {
  double ttft_ms;                   // inference.slo.ttft_ms (auto: no target)
  double tpot_ms;                   // inference.slo.tpot_ms (auto: no target)
  std::int64_t percentile;          // inference.slo.percentile: 50, 90 or 99
};
// Issue 28 (inference_techniques.h, inference_day.h): speculative decoding, routing, load over the day.
struct InferenceSpeculativeInputs {
  char draft_model[kTextCapacity];  // inference.speculative.draft_model (models.json id; "": draft_params)
  double draft_params;              // inference.speculative.draft_params (a draft head or model without a shape)
  std::int64_t tokens_per_step;     // inference.speculative.tokens_per_step (k drafted per step; 0: off)
  double acceptance_rate;           // inference.speculative.acceptance_rate (per drafted token)
};
struct InferenceRouterInputs {
  double usd_per_hour;              // inference.router.usd_per_hour (auto: none colocated; a sourced tier split)
  double latency_ms;                // inference.router.latency_ms (added to TTFT)
};
struct InferenceAutoscaleInputs {
  std::int64_t min_replicas;        // inference.autoscale.min_replicas (auto: 1)
  std::int64_t max_replicas;        // inference.autoscale.max_replicas (auto: no cap)
  double scale_up_minutes;          // inference.autoscale.scale_up_minutes (auto: weights / storage bandwidth)
  double scale_down_minutes;        // inference.autoscale.scale_down_minutes (idle before a replica is released)
};
enum class LoadProfile : int { kNone = 0, kFlat, kBusinessDay, kConsumerEvening, kCustom };
constexpr int kLoadProfileHours = 24;
// Names of inference.load_profile: "", flat, business-day, consumer-evening, custom; nullptr-terminated.
extern const char* const kLoadProfileNames[];
struct InferenceLoadProfileInputs {
  int profile;                      // inference.load_profile: a preset name or 24 numbers (json_io reads it)
  double multipliers[kLoadProfileHours];  // of requests_per_second, hour 0..23 (custom)
};

struct InferenceInputs {
  double input_tokens;              // inference.input_tokens (mean prompt tokens per request)
  double output_tokens;             // inference.output_tokens (mean generated tokens per request)
  double requests_per_second;       // inference.requests_per_second (mean arrival rate)
  double peak_to_mean;              // inference.peak_to_mean (capacity is sized for the peak)
  double requests;                  // inference.requests (auto: a service; given: a batch job of this many)
  double hours;                     // inference.hours (service period)
  double service_months;            // inference.service_months (how long the service runs: a commitment's term
                                    // beyond it is paid as unused_commitment)
  int weight_precision;             // inference.weight_precision: bf16 | fp16 | fp8 | int8 | int4
  int kv_precision;                 // inference.kv_precision: bf16 | fp16 | fp8
  InferenceSloInputs slo;
  int mode;                         // inference.mode: colocated | disaggregated
  InferencePoolInputs prefill;      // inference.prefill.* (disaggregated)
  InferencePoolInputs decode;       // inference.decode.* (disaggregated; colocated: the one pool's overrides)
  double kv_link_gbps;              // inference.kv_link_gbps (auto: cluster.node_network_gbps / gpus_per_node)
  bool kv_transfer_overlap;         // inference.kv_transfer_overlap (layer by layer)
  bool chunked_prefill;             // inference.chunked_prefill (colocated: prompts ride in the decode steps)
  bool cuda_graphs;                 // inference.cuda_graphs (false: eager, a step's kernels launched from Python)
  bool fused_moe_finalize;          // inference.fused_moe_finalize (issue 46: the experts' weighted sum in the second
                                    // expert GEMM's epilogue, TensorRT-LLM; false: a pass of its own, vLLM / SGLang)
  std::int64_t weight_group_size;   // inference.weight_group_size (int4 weight-only: weights per scale; issue 46)
  std::int64_t max_batch;           // inference.max_batch (sequences per replica; per GPU with attention data)
  int attention;                    // inference.attention: tensor | data (how a replica's GPUs split attention)
  int moe_split;                    // inference.moe_split: expert | tensor (the routed experts under data attention; issue 46)
  int weight_scaling;               // inference.weight_scaling: tensor | block (fp8 weights' scales; issue 46)
  int kv_reserve;                   // inference.kv_reserve: full | paged
  double gpu_memory_fraction;       // inference.gpu_memory_fraction
  double prefill_mfu;               // inference.prefill_mfu (large prompts)
  double decode_bandwidth_efficiency; // inference.decode_bandwidth_efficiency (achieved / HBM bandwidth)
  double step_overhead_ms;          // inference.step_overhead_ms (fixed cost of every engine step)
  double request_overhead_ms;       // inference.request_overhead_ms (each request's path to the engine, fixed part)
  double request_overhead_us_per_token;  // inference.request_overhead_us_per_token (per prompt token: tokenising)
  double prefix_tokens;             // inference.prefix_tokens (shared by all requests; 0: none)
  double prefix_cache_hit;          // inference.prefix_cache_hit (share of requests finding it cached)
  InferenceSpeculativeInputs speculative;
  InferenceRouterInputs router;
  InferenceLoadProfileInputs load_profile;
  InferenceAutoscaleInputs autoscale;
  bool autoscale_given;             // "inference.autoscale": {} given with no field (json_io); autoscaling is on when
                                    // this is set or any inference.autoscale.* field is
};

// The provider comparison sheet (issue 16): what the offer behind this scenario is, beyond its price, in the
// provider's or the user's words. "" = not answered yet ("ask the provider"). Not used by the model; shown side
// by side in the comparison, carried by JSON, share links and exports.
constexpr int kSheetMaxChars = 80;
constexpr int kSheetTextCapacity = kSheetMaxChars * 4 + 1;
struct ProviderSheet {
  char provider[kSheetTextCapacity];              // provider.provider
  char cpu[kSheetTextCapacity];                   // provider.cpu
  char ram[kSheetTextCapacity];                   // provider.ram
  char storage_performance[kSheetTextCapacity];   // provider.storage_performance
  char tenancy[kSheetTextCapacity];               // provider.tenancy
  char interconnect[kSheetTextCapacity];          // provider.interconnect
  char os_driver[kSheetTextCapacity];             // provider.os_driver
  char minimum_term[kSheetTextCapacity];          // provider.minimum_term
  char setup_fee[kSheetTextCapacity];             // provider.setup_fee
  char support_scope[kSheetTextCapacity];         // provider.support_scope
  char data_location[kSheetTextCapacity];         // provider.data_location
  char access_control[kSheetTextCapacity];        // provider.access_control
  char encryption[kSheetTextCapacity];            // provider.encryption
  char audit_logs[kSheetTextCapacity];            // provider.audit_logs
  char backup_location[kSheetTextCapacity];       // provider.backup_location
  char staff_access[kSheetTextCapacity];          // provider.staff_access
  char incident_response[kSheetTextCapacity];     // provider.incident_response
  char sla[kSheetTextCapacity];                   // provider.sla
  char certifications[kSheetTextCapacity];        // provider.certifications
};

// The exchange rate's date (issue 16): shown with every amount converted between KRW and USD (money_input.h).
struct ExchangeRateInputs {
  char krw_per_usd_date[kTextCapacity];  // pricing.krw_per_usd_date (when pricing.krw_per_usd was read)
};

// Issue 29 (operations.h, capacity.h, spares.h, datapipe.h): the wait for capacity and the deadline, the spare
// pool, restore checks, bring-up, allocation efficiency, the data pipeline and a support plan.
struct OperationsInputs {
  double deadline_hours;            // workload.deadline_hours (from the request to the result; auto: none)
  double value_per_day_usd;         // workload.value_per_day_usd (what a day of delay costs the team)
  double on_demand_wait_hours;      // capacity.on_demand_wait_hours (mean wait until the job's on-demand GPUs are there)
  double bring_up_hours;            // cluster.bring_up_hours (provisioning, burn-in, validation; billed)
  double allocation_efficiency;     // cluster.allocation_efficiency (allocated GPU time the jobs use)
  std::int64_t restore_test_every;  // reliability.restore_test_every (checkpoints between restore tests; 0 = never)
  double restore_test_minutes;      // reliability.restore_test_minutes (cluster blocked per restore test)
  double bad_checkpoint_probability;// reliability.bad_checkpoint_probability (last checkpoint unusable at a rollback)
  double repair_hours;              // reliability.repair_hours (a spare in use returns after; auto: owned repair hours)
  bool spares_included;             // reliability.spares_included (a managed service's buffer: in the price)
  double cpu_cores_per_gpu;         // data.preprocess.cpu_cores_per_gpu (auto: preprocessing not modelled)
  double samples_per_core_second;   // data.preprocess.samples_per_core_second (auto: not CPU-bound)
  double tokens_per_sample;         // data.tokens_per_sample (auto: workload.seq_len)
  double small_file_latency_ms;     // storage.small_file_latency_ms (per file opened; 0 = none)
  double files_per_sample;          // storage.files_per_sample
  double staging_dataset_gb;        // storage.staging.dataset_gb (copied before the first step)
  double staging_gbps;              // storage.staging.gbps
  bool staging_billed;              // storage.staging.billed (the GPUs are held while it copies)
  double scratch_usd_per_gb_month;  // storage.scratch_usd_per_gb_month (the staged copy, while the job runs)
  double support_usd_per_month;     // pricing.support_usd_per_month (support plan)
};

// Issue 50: a slice of a GPU (hardware/partition.h), the programme around the run and a loss target
// (job/program.h, training/loss_fit.h).
struct PartitionInputs {
  char profile[kTextCapacity];      // cluster.partition (a MIG profile by NVIDIA's name, "3g.40gb"; "": whole GPUs)
  double interference;              // cluster.partition_interference (step time shared / alone)
  double price_fraction;            // cluster.partition_price_fraction (a slice's price / the GPU's; auto: its share)
};
enum class LossFit : int { kBesiroglu2024 = 0, kHoffmann2022 };
struct ProgramInputs {
  double experiments;               // workload.program.experiments (x the main run's GPU-hours)
  double abandoned_fraction;        // workload.program.abandoned_fraction (share of started main runs abandoned)
  double evaluation_hours;          // workload.program.evaluation_hours (the job's GPUs held for evaluation)
  double target_loss;               // workload.target_loss (auto: workload.tokens is given)
  int loss_fit;                     // workload.loss_fit: besiroglu2024 | hoffmann2022
};

struct Scenario {
  char name[kNameCapacity];         // name (free text, UTF-8, at most kNameMaxChars characters)
  WorkloadInputs workload;
  ClusterInputs cluster;
  ParallelInputs parallel;
  ReliabilityInputs reliability;
  StorageInputs storage;
  PricingInputs pricing;
  ScalingInputs scaling;
  ArchitectureInputs arch;          // issue 18
  FinetuneInputs finetune;          // issue 18
  InferenceInputs inference;        // workload.kind = inference (inference.h)
  ProviderSheet provider;           // provider.* (the comparison sheet; not used by the model)
  ExchangeRateInputs fx;            // pricing.krw_per_usd_date
  OperationsInputs ops;             // issue 29
  PartitionInputs partition;        // issue 50
  ProgramInputs program;            // issue 50
};

// A scenario with every field at its documented default (fields.h).
Scenario DefaultScenario();

// Convenience accessors for enums.
inline WorkloadKind Kind(const Scenario& s) { return static_cast<WorkloadKind>(s.workload.kind); }
inline Precision GetPrecision(const Scenario& s) { return static_cast<Precision>(s.workload.precision); }
inline PricingModel Model(const Scenario& s) { return static_cast<PricingModel>(s.pricing.model); }

// True when the transformer shape (layers, hidden, heads, seq_len, vocab) is given.
bool HasModelShape(const Scenario& s);
// True when the step-time model can predict the MFU: a training job with a model shape and a global batch (Evaluate
// predicts it there unless cluster.mfu is given; without it, its inputs change nothing: FieldsNotUsed says so).
bool CanPredictStep(const Scenario& s);

}  // namespace gpucost
