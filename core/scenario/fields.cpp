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
#include <iterator>

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
const char* const kMoeSplitNames[] = {"expert", "tensor", nullptr};
const char* const kWeightScalingNames[] = {"tensor", "block", nullptr};
const char* const kWeightPrecisionNames[] = {"bf16", "fp16", "fp8", "int8", "int4", nullptr};
const char* const kKvPrecisionNames[] = {"bf16", "fp16", "fp8", nullptr};
const char* const kFrameworkNames[] = {"megatron", "nemo", "deepspeed", "fsdp", "torchtitan", "maxtext", "jax", "other", "torchtune", nullptr};  // framework.h
const char* const kOverlapNames[] = {"auto", "on", "off", nullptr};
const char* const kLossFitNames[] = {"besiroglu2024", "hoffmann2022", nullptr};  // issue 50 (loss_fit.h)

constexpr double kBig = 1e15;
#define REF(member) [](Scenario& s) -> void* { return &s.member; }
#define NUM FieldKind::kNumber
#define INT FieldKind::kInteger
#define BOOL FieldKind::kBool
#define ENUM FieldKind::kEnum
#define TEXT FieldKind::kText
// Positional layout: path, kind, ref, default, default_text, min, max, min_exclusive, auto, choices, unit, section.
// Each field's meaning and its default's source are text in the string tables: "help.<path>" and "source.<path>"
// (assets/i18n/en.json, ko.json; FieldHelp, FieldSource).
const FieldSpec kFields[] = {
  {"name", TEXT, REF(name), 0, "", 0, kNameMaxChars, false, false, nullptr, "", "workload"},

  // --- workload ---
  {"workload.kind", ENUM, REF(workload.kind), 0, nullptr, 0, 2, false, false, kKindNames, "", "workload"},
  {"workload.params", NUM, REF(workload.params), 7e9, nullptr, 0, kBig, true, false, nullptr, "parameters", "workload"},
  {"workload.tokens", NUM, REF(workload.tokens), 140e9, nullptr, 0, 1e17, true, false, nullptr, "tokens", "workload"},
  {"workload.flops", NUM, REF(workload.flops), 0, nullptr, 0, 1e32, true, true, nullptr, "FLOPs", "workload"},
  {"workload.precision", ENUM, REF(workload.precision), 0, nullptr, 0, 4, false, false, kPrecisionNames, "",
   "workload"},
  {"workload.layers", INT, REF(workload.layers), 0, nullptr, 1, 100000, false, true, nullptr, "layers", "workload"},
  {"workload.hidden", INT, REF(workload.hidden), 0, nullptr, 1, 10000000, false, true, nullptr, "", "workload"},
  {"workload.heads", INT, REF(workload.heads), 0, nullptr, 1, 100000, false, true, nullptr, "heads", "workload"},
  {"workload.seq_len", INT, REF(workload.seq_len), 0, nullptr, 1, 100000000, false, true, nullptr, "tokens",
   "workload"},
  {"workload.vocab", INT, REF(workload.vocab), 0, nullptr, 1, 100000000, false, true, nullptr, "tokens", "workload"},
  {"workload.ffn_hidden", INT, REF(workload.ffn_hidden), 0, nullptr, 1, 100000000, false, true, nullptr, "",
   "workload"},
  {"workload.kv_heads", INT, REF(workload.kv_heads), 0, nullptr, 1, 100000, false, true, nullptr, "heads", "workload"},
  {"workload.ffn_gated", BOOL, REF(workload.ffn_gated), 0, nullptr, 0, 1, false, false, nullptr, "", "workload"},
  {"workload.tied_embeddings", BOOL, REF(workload.tied_embeddings), 1, nullptr, 0, 1, false, false, nullptr, "",
   "workload"},
  {"workload.input_bytes_per_token", NUM, REF(workload.input_bytes_per_token), 4, nullptr, 0, 1e9, true,
   false, nullptr, "bytes/token", "workload"},
  {"workload.tasks", INT, REF(workload.tasks), 1000, nullptr, 1, 1000000000, false, false, nullptr, "tasks",
   "workload"},
  {"workload.task_gpu_hours", NUM, REF(workload.task_gpu_hours), 1, nullptr, 0, 1e9, true, false, nullptr,
   "GPU-hours", "workload"},
  {"workload.gpus_per_task", INT, REF(workload.gpus_per_task), 1, nullptr, 1, 1000000, false, false, nullptr,
   "GPUs", "workload"},

  // --- models by name, mixture of experts, fine-tuning, checkpointing off (issue 18). Section "model": the
  // editor shows it collapsed below the others, so the Workload section stays as short as before. ---
  {"workload.model", TEXT, REF(arch.model), 0, "", 0, 0, false, false, nullptr, "", "model"},
  {"workload.head_dim", INT, REF(arch.head_dim), 0, nullptr, 1, 100000, false, true, nullptr, "", "model"},
  {"workload.attention_params", NUM, REF(arch.attention_params), 0, nullptr, 0, kBig, true, true, nullptr,
   "parameters", "model"},
  {"workload.kv_lora_rank", INT, REF(arch.kv_lora_rank), 0, nullptr, 1, 100000, false, true, nullptr, "", "model"},
  {"workload.rope_head_dim", INT, REF(arch.rope_head_dim), 0, nullptr, 1, 100000, false, true, nullptr, "", "model"},
  {"workload.experts", INT, REF(arch.experts), 0, nullptr, 1, 100000, false, true, nullptr, "experts", "model"},
  {"workload.active_experts", INT, REF(arch.active_experts), 0, nullptr, 1, 100000, false, true, nullptr,
   "experts", "model"},
  {"workload.shared_experts", INT, REF(arch.shared_experts), 0, nullptr, 0, 100000, false, false, nullptr,
   "experts", "model"},
  {"workload.expert_ffn_hidden", INT, REF(arch.expert_ffn_hidden), 0, nullptr, 1, 100000000, false, true,
   nullptr, "", "model"},
  {"workload.dense_layers", INT, REF(arch.dense_layers), 0, nullptr, 0, 100000, false, false, nullptr,
   "layers", "model"},
  {"workload.active_params", NUM, REF(arch.active_params), 0, nullptr, 0, kBig, true, true, nullptr,
   "parameters", "model"},
  {"workload.finetune", ENUM, REF(finetune.mode), 0, nullptr, 0, 2, false, false, kFinetuneNames, "", "model"},
  {"workload.lora_rank", INT, REF(finetune.lora_rank), 64, nullptr, 1, 65536, false, false, nullptr, "", "model"},
  {"workload.lora_targets", ENUM, REF(finetune.lora_targets), 0, nullptr, 0, 1, false, false, kLoraTargetNames,
   "", "model"},
  {"workload.frozen_precision", ENUM, REF(finetune.frozen_precision), 0, nullptr, 0, 3, false, false,
   kFrozenPrecisionNames, "", "model"},
  {"workload.real_token_fraction", NUM, REF(finetune.real_token_fraction), 1, nullptr, 0, 1, true, false, nullptr,
   "", "model"},
  {"workload.packed_document_tokens", INT, REF(finetune.packed_document_tokens), 0, nullptr, 0, 10000000, false, false,
   nullptr, "tokens", "model"},
  {"reliability.checkpointing", BOOL, REF(reliability.checkpointing), 1, nullptr, 0, 1, false, false, nullptr,
   "", "reliability"},

  // --- hardware ---
  {"cluster.gpu", TEXT, REF(cluster.gpu), 0, "h100-sxm", 0, kTextCapacity - 1, false, false, nullptr, "", "hardware"},
  {"cluster.gpus", INT, REF(cluster.gpus), 64, nullptr, 1, 10000000, false, false, nullptr, "GPUs", "hardware"},
  {"cluster.gpus_per_node", INT, REF(cluster.gpus_per_node), 8, nullptr, 1, 1024, false, false, nullptr,
   "GPUs/node", "hardware"},
  {"cluster.mfu", NUM, REF(cluster.mfu), 0, nullptr, 0, 1, true, true, nullptr, "fraction", "hardware"},
  {"cluster.node_network_gbps", NUM, REF(cluster.node_network_gbps), 3200, nullptr, 0, 1e6, true, false,
   nullptr, "Gb/s per node", "hardware"},
  {"cluster.link_efficiency", NUM, REF(cluster.link_efficiency), 0.8, nullptr, 0, 1, true, false, nullptr,
   "fraction", "hardware"},
  {"cluster.framework", ENUM, REF(cluster.framework), 7, nullptr, 0, 8, false, false, kFrameworkNames, "", "hardware"},
  {"cluster.peak_tflops", NUM, REF(cluster.peak_tflops), 0, nullptr, 0, 1e6, true, true, nullptr, "TFLOP/s",
   "hardware"},
  {"cluster.hbm_tbps", NUM, REF(cluster.hbm_tbps), 0, nullptr, 0, 1e4, true, true, nullptr, "TB/s", "hardware"},
  {"cluster.nvlink_gbps", NUM, REF(cluster.nvlink_gbps), 0, nullptr, 0, 1e6, true, true, nullptr, "GB/s", "hardware"},

  // --- parallel layout ---
  {"parallel.data_parallel", INT, REF(parallel.data_parallel), 0, nullptr, 1, 10000000, false, true, nullptr,
   "", "parallel"},
  {"parallel.tensor_parallel", INT, REF(parallel.tensor_parallel), 1, nullptr, 1, 1024, false, false, nullptr,
   "", "parallel"},
  {"parallel.pipeline_parallel", INT, REF(parallel.pipeline_parallel), 1, nullptr, 1, 4096, false, false,
   nullptr, "", "parallel"},
  {"parallel.zero_stage", INT, REF(parallel.zero_stage), 1, nullptr, 0, 3, false, false, nullptr, "", "parallel"},
  {"parallel.micro_batch", INT, REF(parallel.micro_batch), 1, nullptr, 1, 1000000, false, false, nullptr,
   "sequences", "parallel"},
  {"parallel.global_batch", INT, REF(parallel.global_batch), 0, nullptr, 1, 1000000000, false, true, nullptr,
   "sequences", "parallel"},
  {"parallel.pipeline_interleave", INT, REF(parallel.pipeline_interleave), 1, nullptr, 1, 1024, false, false,
   nullptr, "", "parallel"},
  {"parallel.sequence_parallel", BOOL, REF(parallel.sequence_parallel), 0, nullptr, 0, 1, false, false,
   nullptr, "", "parallel"},
  {"parallel.recompute", ENUM, REF(parallel.recompute), 1, nullptr, 0, 5, false, false, kRecomputeNames, "",
   "parallel"},
  {"parallel.optimizer", ENUM, REF(parallel.optimizer), 0, nullptr, 0, 2, false, false, kOptimizerNames, "",
   "parallel"},
  {"parallel.overlap_comm", BOOL, REF(parallel.overlap_comm), 1, nullptr, 0, 1, false, false, nullptr, "", "parallel"},
  {"parallel.single_node_mfu", NUM, REF(parallel.single_node_mfu), 0, nullptr, 0, 1, true, true, nullptr,
   "fraction", "parallel"},
  {"parallel.critical_batch_tokens", NUM, REF(parallel.critical_batch_tokens), 0, nullptr, 0, 1e15, true,
   true, nullptr, "tokens", "parallel"},
  {"parallel.reference_batch_tokens", NUM, REF(parallel.reference_batch_tokens), 0, nullptr, 0, 1e15, true,
   true, nullptr, "tokens", "parallel"},
  // Issue 18: context parallelism and the attention kernel.
  {"parallel.context_parallel", INT, REF(parallel.context_parallel), 1, nullptr, 1, 1024, false, false, nullptr,
   "", "parallel"},
  {"parallel.flash_attention", BOOL, REF(parallel.flash_attention), 1, nullptr, 0, 1, false, false, nullptr, "",
   "parallel"},
  // Issue 46: eager PyTorch runs each op of a norm and of the gated activation as its own kernel.
  {"parallel.fused_elementwise", BOOL, REF(parallel.fused_elementwise), 1, nullptr, 0, 1, false, false, nullptr, "",
   "parallel"},

  // Issue 26: communication overlap as layout properties with framework defaults.
  {"parallel.tp_comm_overlap", ENUM, REF(parallel.tp_comm_overlap), 0, nullptr, 0, 2, false, false, kOverlapNames,
   "", "parallel"},
  // A mixture of experts' layout, after the general one (the editor's Hardware section led with it for every model).
  {"parallel.expert_parallel", INT, REF(arch.expert_parallel), 1, nullptr, 1, 100000, false, false, nullptr, "",
   "parallel"},
  {"parallel.ep_comm_overlap", ENUM, REF(parallel.ep_comm_overlap), 0, nullptr, 0, 2, false, false, kOverlapNames,
   "", "parallel"},

  // --- reliability and checkpoints ---
  {"reliability.gpu_mtbf_hours", NUM, REF(reliability.gpu_mtbf_hours), 50000, nullptr, 0, 1e12, false, false,
   nullptr, "hours", "reliability"},
  {"reliability.recovery_minutes", NUM, REF(reliability.recovery_minutes), 20, nullptr, 0, 1e6, false, false,
   nullptr, "minutes", "reliability"},
  {"reliability.checkpoint_write_minutes", NUM, REF(reliability.checkpoint_write_minutes), 0, nullptr, 0, 1e6,
   true, true, nullptr, "minutes", "reliability"},
  {"reliability.checkpoint_interval_minutes", NUM, REF(reliability.checkpoint_interval_minutes), 0, nullptr,
   0, 1e8, true, true, nullptr, "minutes", "reliability"},
  {"reliability.checkpoint_async", BOOL, REF(reliability.checkpoint_async), 0, nullptr, 0, 1, false, false,
   nullptr, "", "reliability"},
  {"reliability.async_stall_fraction", NUM, REF(reliability.async_stall_fraction), 0.1, nullptr, 0, 1, false,
   false, nullptr, "fraction", "reliability"},
  {"reliability.checkpoint_bytes_per_param", NUM, REF(reliability.checkpoint_bytes_per_param), 14, nullptr,
   0, 1000, true, false, nullptr, "bytes/param", "reliability"},
  {"reliability.checkpoint_gb", NUM, REF(reliability.checkpoint_gb), 0, nullptr, 0, 1e9, true, true, nullptr,
   "GB", "reliability"},
  {"reliability.downtime_hours", NUM, REF(reliability.downtime_hours), 0, nullptr, 0, 1e6, false, false,
   nullptr, "hours", "reliability"},
  {"reliability.hot_spares", INT, REF(reliability.hot_spares), 0, nullptr, 0, 10000000, false, false, nullptr,
   "GPUs", "reliability"},
  {"reliability.hot_spare_recovery_minutes", NUM, REF(reliability.hot_spare_recovery_minutes), 5, nullptr, 0,
   1e6, false, false, nullptr, "minutes", "reliability"},
  {"reliability.failure_shape", NUM, REF(reliability.failure_shape), 1, nullptr, 0.1, 10, false, false,
   nullptr, "", "reliability"},

  // --- issue 50: a slice of a GPU, the programme around the run, a loss target, early failures burnt in, slow
  // nodes, collective timeouts, stopped instances (hardware/partition.h, job/program.h, training/loss_fit.h,
  // job/reliability.h, money/billing.h) ---
  {"cluster.partition", TEXT, REF(partition.profile), 0, "", 0, 0, false, false, nullptr, "", "hardware"},
  {"cluster.partition_interference", NUM, REF(partition.interference), 1, nullptr, 1, 10, false, false, nullptr, "x",
   "hardware"},
  // Issue 50: the programme around the run with the failures and rework (reliability), the loss target with the
  // model (both sections start closed on the page).
  {"workload.program.experiments", NUM, REF(program.experiments), 0, nullptr, 0, 1000, false, false, nullptr,
   "x the run", "reliability"},
  {"workload.program.abandoned_fraction", NUM, REF(program.abandoned_fraction), 0, nullptr, 0, 0.95, false, false,
   nullptr, "fraction", "reliability"},
  {"workload.program.evaluation_hours", NUM, REF(program.evaluation_hours), 0, nullptr, 0, 1e6, false, false,
   nullptr, "hours", "reliability"},
  {"workload.target_loss", NUM, REF(program.target_loss), 0, nullptr, 0, 100, true, true, nullptr, "nats/token",
   "model"},
  {"workload.loss_fit", ENUM, REF(program.loss_fit), 0, nullptr, 0, 1, false, false, kLossFitNames, "", "model"},
  {"reliability.infant_failure_fraction", NUM, REF(reliability.infant_failure_fraction), 0, nullptr, 0, 1, false,
   false, nullptr, "fraction", "reliability"},
  {"reliability.infant_mean_hours", NUM, REF(reliability.infant_mean_hours), 48, nullptr, 0, 1e5, true, false,
   nullptr, "hours", "reliability"},
  {"reliability.slow_node_fraction", NUM, REF(reliability.slow_node_fraction), 0, nullptr, 0, 0.99, false, false,
   nullptr, "fraction", "reliability"},
  {"reliability.slow_node_slowdown", NUM, REF(reliability.slow_node_slowdown), 1.34, nullptr, 1, 100, false, false,
   nullptr, "x", "reliability"},
  {"reliability.collective_timeouts_per_day", NUM, REF(reliability.collective_timeouts_per_day), 0, nullptr, 0, 1e4,
   false, false, nullptr, "per day", "reliability"},
  {"reliability.collective_timeout_minutes", NUM, REF(reliability.collective_timeout_minutes), 10, nullptr, 0, 1e4,
   true, false, nullptr, "minutes", "reliability"},

  // --- storage and network ---
  {"storage.read_gbps", NUM, REF(storage.read_gbps), 0, nullptr, 0, 1e9, true, true, nullptr, "GB/s", "storage"},
  {"storage.checkpoint_write_gbps", NUM, REF(storage.checkpoint_write_gbps), 10, nullptr, 0, 1e9, true, false,
   nullptr, "GB/s", "storage"},
  {"storage.dataset_gb", NUM, REF(storage.dataset_gb), 0, nullptr, 0, 1e12, false, false, nullptr, "GB", "storage"},
  {"storage.checkpoints_retained", INT, REF(storage.checkpoints_retained), 2, nullptr, 0, 100000, false, false,
   nullptr, "checkpoints", "storage"},
  {"storage.retention_days", NUM, REF(storage.retention_days), 30, nullptr, 0, 36500, false, false, nullptr,
   "days", "storage"},
  {"storage.usd_per_gb_month", NUM, REF(storage.usd_per_gb_month), 0.023, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GB-month", "storage"},
  {"storage.egress_gb", NUM, REF(storage.egress_gb), 0, nullptr, 0, 1e12, false, false, nullptr, "GB", "storage"},
  {"storage.usd_per_gb_egress", NUM, REF(storage.usd_per_gb_egress), 0.09, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GB", "storage"},

  // --- pricing and billing ---
  {"pricing.model", ENUM, REF(pricing.model), 0, nullptr, 0, 3, false, false, kModelNames, "", "pricing"},
  {"pricing.usd_per_gpu_hour", NUM, REF(pricing.usd_per_gpu_hour), 2.99, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GPU-hour", "pricing"},
  {"pricing.billing_increment_seconds", NUM, REF(pricing.billing_increment_seconds), 1, nullptr, 0, 1e8,
   true, false, nullptr, "seconds", "pricing"},
  {"pricing.minimum_billed_seconds", NUM, REF(pricing.minimum_billed_seconds), 0, nullptr, 0, 1e9, false,
   false, nullptr, "seconds", "pricing"},
  {"pricing.whole_nodes", BOOL, REF(pricing.whole_nodes), 1, nullptr, 0, 1, false, false, nullptr, "", "pricing"},
  {"pricing.fixed_fees_usd", NUM, REF(pricing.fixed_fees_usd), 0, nullptr, 0, 1e12, false, false, nullptr,
   "USD", "pricing"},
  {"pricing.tax_rate", NUM, REF(pricing.tax_rate), 0, nullptr, 0, 1, false, false, nullptr, "fraction", "pricing"},
  {"pricing.price_includes_tax", BOOL, REF(pricing.price_includes_tax), 0, nullptr, 0, 1, false, false,
   nullptr, "", "pricing"},
  {"pricing.vat_recoverable", BOOL, REF(pricing.vat_recoverable), 0, nullptr, 0, 1, false, false, nullptr, "",
   "pricing"},
  {"pricing.currency", ENUM, REF(pricing.currency), 0, nullptr, 0, 1, false, false, kCurrencyNames, "", "pricing"},
  // Plausible range (issue 31: 1e-9 KRW per USD showed every price as ₩0.00): half to twice the 2025 range of
  // Seoul closes, 1,350.0 (Jun 30) - 1,484.1 (Apr 9) (Yonhap via kbmaeil.com/article/20251230500613), so any
  // rate of recent decades, or a stress case well beyond it, is accepted as typed.
  {"pricing.krw_per_usd", NUM, REF(pricing.krw_per_usd), 1439, nullptr, 700, 3000, false, false, nullptr,
   "KRW/USD", "pricing"},
  {"pricing.krw_per_usd_date", TEXT, REF(fx.krw_per_usd_date), 0, "2025-12-30", 0, 20, false, false, nullptr, "",
   "pricing"},
  {"pricing.krw_per_gpu_hour", NUM, REF(pricing.krw_per_gpu_hour), 0, nullptr, 0, 1e10, true, true, nullptr,
   "KRW/GPU-hour", "pricing"},
  {"pricing.offer", TEXT, REF(pricing.offer), 0, "", 0, 0, false, false, nullptr, "", "pricing"},
  {"pricing.spot.preemptions_per_node_day", NUM, REF(pricing.spot.preemptions_per_node_day), 0.05, nullptr, 0,
   1000, false, false, nullptr, "per node-day", "pricing"},
  {"pricing.spot.reacquire_minutes", NUM, REF(pricing.spot.reacquire_minutes), 30, nullptr, 0, 1e7, false,
   false, nullptr, "minutes", "pricing"},
  {"pricing.spot.notice_seconds", NUM, REF(pricing.spot.notice_seconds), 120, nullptr, 0, 1e6, false, false,
   nullptr, "seconds", "pricing"},
  {"pricing.spot.discount", NUM, REF(pricing.spot.discount), 0.4, nullptr, 0, 0.99, false, false, nullptr,
   "fraction", "pricing"},
  {"pricing.reserved.term_months", NUM, REF(pricing.reserved.term_months), 12, nullptr, 0, 120, true, false,
   nullptr, "months", "pricing"},
  {"pricing.reserved.committed_gpus", INT, REF(pricing.reserved.committed_gpus), 0, nullptr, 1, 10000000,
   false, true, nullptr, "GPUs", "pricing"},
  {"pricing.reserved.capacity_guaranteed", BOOL, REF(pricing.reserved.capacity_guaranteed), 0, nullptr, 0, 1,
   false, false, nullptr, "", "pricing"},
  {"pricing.reserved.usd_per_gpu_hour_on_demand", NUM, REF(pricing.reserved.usd_per_gpu_hour_on_demand), 0,
   nullptr, 0, 1e6, true, true, nullptr, "USD/GPU-hour", "pricing"},
  {"pricing.reserved.discount", NUM, REF(pricing.reserved.discount), 0.37, nullptr, 0, 0.99, false, false,
   nullptr, "fraction", "pricing"},
  {"pricing.reserved.other_use_fraction", NUM, REF(pricing.reserved.other_use_fraction), 0, nullptr, 0, 1, false,
   false, nullptr, "fraction", "pricing"},
  // Issue 50: a slice's price and instances kept stopped, after the pricing model and its terms (the editor shows a
  // section's fields in this order).
  {"cluster.partition_price_fraction", NUM, REF(partition.price_fraction), 0, nullptr, 0, 1, true, true, nullptr,
   "fraction", "pricing"},
  {"pricing.stopped_hours", NUM, REF(pricing.stopped_hours), 0, nullptr, 0, 1e6, false, false, nullptr, "hours",
   "pricing"},
  {"pricing.stopped_price_fraction", NUM, REF(pricing.stopped_price_fraction), 1, nullptr, 0, 1, false, false,
   nullptr, "fraction", "pricing"},
  {"pricing.stopped_discount_hours", NUM, REF(pricing.stopped_discount_hours), 0, nullptr, 0, 1e6, true, true,
   nullptr, "hours", "pricing"},

  // --- ownership ---
  {"pricing.owned.capex_usd_per_gpu", NUM, REF(pricing.owned.capex_usd_per_gpu), 40000, nullptr, 0, 1e8,
   true, false, nullptr, "USD/GPU", "ownership"},
  {"pricing.owned.lifetime_years", NUM, REF(pricing.owned.lifetime_years), 5, nullptr, 0, 50, true, false,
   nullptr, "years", "ownership"},
  {"pricing.owned.residual_fraction", NUM, REF(pricing.owned.residual_fraction), 0.1, nullptr, 0, 1, false,
   false, nullptr, "fraction", "ownership"},
  {"pricing.owned.power_kw_per_gpu", NUM, REF(pricing.owned.power_kw_per_gpu), 1.275, nullptr, 0, 100, false,
   false, nullptr, "kW/GPU", "ownership"},
  {"pricing.owned.pue", NUM, REF(pricing.owned.pue), 1.3, nullptr, 1, 5, false, false, nullptr, "", "ownership"},
  {"pricing.owned.usd_per_kwh", NUM, REF(pricing.owned.usd_per_kwh), 0.08, nullptr, 0, 10, false, false,
   nullptr, "USD/kWh", "ownership"},
  {"pricing.owned.opex_usd_per_gpu_year", NUM, REF(pricing.owned.opex_usd_per_gpu_year), 0, nullptr, 0, 1e7,
   false, false, nullptr, "USD/GPU-year", "ownership"},
  {"pricing.owned.spares_fraction", NUM, REF(pricing.owned.spares_fraction), 0.02, nullptr, 0, 1, false, false,
   nullptr, "fraction", "ownership"},
  {"pricing.owned.utilization", NUM, REF(pricing.owned.utilization), 0.7, nullptr, 0, 1, true, false, nullptr,
   "fraction", "ownership"},
  {"pricing.owned.compare_usd_per_gpu_hour", NUM, REF(pricing.owned.compare_usd_per_gpu_hour), 2.99, nullptr,
   0, 1e6, true, false, nullptr, "USD/GPU-hour", "ownership"},
  {"pricing.owned.colocation_usd_per_kw_month", NUM, REF(pricing.owned.colocation_usd_per_kw_month), 184.06,
   nullptr, 0, 1e6, false, false, nullptr, "USD/kW-month", "ownership"},
  {"pricing.owned.maintenance_fraction_per_year", NUM, REF(pricing.owned.maintenance_fraction_per_year), 0.03,
   nullptr, 0, 1, false, false, nullptr, "fraction/year", "ownership"},
  {"pricing.owned.staff_usd_per_gpu_year", NUM, REF(pricing.owned.staff_usd_per_gpu_year), 400, nullptr, 0,
   1e7, false, false, nullptr, "USD/GPU-year", "ownership"},
  {"pricing.owned.repair_hours_per_failure", NUM, REF(pricing.owned.repair_hours_per_failure), 72, nullptr, 0,
   1e5, false, false, nullptr, "hours", "ownership"},
  {"pricing.owned.other_use_fraction", NUM, REF(pricing.owned.other_use_fraction), 0, nullptr, 0, 1, true, true,
   nullptr, "fraction", "ownership"},

  // --- inference (workload.kind = inference; inference.h) ---
  {"inference.input_tokens", NUM, REF(inference.input_tokens), 1020, nullptr, 0, 1e7, true, false, nullptr,
   "tokens", "inference"},
  {"inference.output_tokens", NUM, REF(inference.output_tokens), 129, nullptr, 0, 1e7, true, false, nullptr,
   "tokens", "inference"},
  {"inference.requests_per_second", NUM, REF(inference.requests_per_second), 1, nullptr, 0, 1e9, true, false,
   nullptr, "requests/s", "inference"},
  {"inference.peak_to_mean", NUM, REF(inference.peak_to_mean), 1, nullptr, 1, 1000, false, false, nullptr, "",
   "inference"},
  {"inference.requests", NUM, REF(inference.requests), 0, nullptr, 0, 1e15, true, true, nullptr, "requests",
   "inference"},
  {"inference.hours", NUM, REF(inference.hours), 720, nullptr, 0, 1e6, true, false, nullptr, "hours", "inference"},
  {"inference.service_months", NUM, REF(inference.service_months), 1, nullptr, 0, 1200, true, false, nullptr,
   "months", "inference"},
  {"inference.weight_precision", ENUM, REF(inference.weight_precision), 0, nullptr, 0, 4, false, false,
   kWeightPrecisionNames, "", "inference"},
  {"inference.kv_precision", ENUM, REF(inference.kv_precision), 0, nullptr, 0, 2, false, false,
   kKvPrecisionNames, "", "inference"},
  {"inference.slo.ttft_ms", NUM, REF(inference.slo.ttft_ms), 0, nullptr, 0, 1e9, true, true, nullptr, "ms",
   "inference"},
  {"inference.slo.tpot_ms", NUM, REF(inference.slo.tpot_ms), 0, nullptr, 0, 1e9, true, true, nullptr, "ms",
   "inference"},
  {"inference.slo.percentile", INT, REF(inference.slo.percentile), 90, nullptr, 50, 99, false, false, nullptr,
   "percentile", "inference"},
  {"inference.mode", ENUM, REF(inference.mode), 0, nullptr, 0, 1, false, false, kInferenceModeNames, "", "inference"},
  {"inference.prefill.gpu", TEXT, REF(inference.prefill.gpu), 0, "", 0, 0, false, false, nullptr, "", "inference"},
  {"inference.prefill.tensor_parallel", INT, REF(inference.prefill.tensor_parallel), 0, nullptr, 1, 1024, false,
   true, nullptr, "GPUs", "inference"},
  {"inference.prefill.replicas", INT, REF(inference.prefill.replicas), 0, nullptr, 1, 1000000, false, true,
   nullptr, "replicas", "inference"},
  {"inference.prefill.usd_per_gpu_hour", NUM, REF(inference.prefill.usd_per_gpu_hour), 0, nullptr, 0, 1e6, true,
   true, nullptr, "USD/GPU-hour", "inference"},
  {"inference.decode.gpu", TEXT, REF(inference.decode.gpu), 0, "", 0, 0, false, false, nullptr, "", "inference"},
  {"inference.decode.tensor_parallel", INT, REF(inference.decode.tensor_parallel), 0, nullptr, 1, 1024, false,
   true, nullptr, "GPUs", "inference"},
  {"inference.decode.replicas", INT, REF(inference.decode.replicas), 0, nullptr, 1, 1000000, false, true,
   nullptr, "replicas", "inference"},
  {"inference.decode.usd_per_gpu_hour", NUM, REF(inference.decode.usd_per_gpu_hour), 0, nullptr, 0, 1e6, true,
   true, nullptr, "USD/GPU-hour", "inference"},
  {"inference.kv_link_gbps", NUM, REF(inference.kv_link_gbps), 0, nullptr, 0, 1e6, true, true, nullptr,
   "Gb/s per GPU", "inference"},
  {"inference.kv_transfer_overlap", BOOL, REF(inference.kv_transfer_overlap), 1, nullptr, 0, 1, false, false,
   nullptr, "", "inference"},
  {"inference.chunked_prefill", BOOL, REF(inference.chunked_prefill), 1, nullptr, 0, 1, false, false, nullptr, "",
   "inference"},
  {"inference.cuda_graphs", BOOL, REF(inference.cuda_graphs), 1, nullptr, 0, 1, false, false, nullptr, "", "inference"},
  // Issue 46: a mixture of experts' weighted sum of each token's k expert outputs (serving_runs.json's sources name
  // the engines). Default off: vLLM's and SGLang's fused_moe write the k outputs and sum them in a kernel of its own.
  {"inference.fused_moe_finalize", BOOL, REF(inference.fused_moe_finalize), 0, nullptr, 0, 1, false, false, nullptr,
   "", "inference"},
  {"inference.weight_group_size", INT, REF(inference.weight_group_size), 128, nullptr, 16, 1048576, false, false,
   nullptr, "weights", "inference"},
  {"inference.max_batch", INT, REF(inference.max_batch), 256, nullptr, 1, 1000000, false, false, nullptr,
   "sequences", "inference"},
  {"inference.attention", ENUM, REF(inference.attention), 0, nullptr, 0, 1, false, false, kAttentionSplitNames, "",
   "inference"},
  {"inference.moe_split", ENUM, REF(inference.moe_split), 0, nullptr, 0, 1, false, false, kMoeSplitNames, "",
   "inference"},
  {"inference.weight_scaling", ENUM, REF(inference.weight_scaling), 0, nullptr, 0, 1, false, false, kWeightScalingNames, "",
   "inference"},
  {"inference.kv_reserve", ENUM, REF(inference.kv_reserve), 1, nullptr, 0, 1, false, false, kKvReserveNames, "",
   "inference"},
  {"inference.gpu_memory_fraction", NUM, REF(inference.gpu_memory_fraction), 0.9, nullptr, 0, 1, true, false,
   nullptr, "fraction", "inference"},
  {"inference.prefill_mfu", NUM, REF(inference.prefill_mfu), 0.55, nullptr, 0, 1, true, false, nullptr,
   "fraction", "inference"},
  {"inference.decode_bandwidth_efficiency", NUM, REF(inference.decode_bandwidth_efficiency), 0.8, nullptr, 0, 1,
   true, false, nullptr, "fraction", "inference"},
  {"inference.step_overhead_ms", NUM, REF(inference.step_overhead_ms), 1, nullptr, 0, 1e4, false, false, nullptr,
   "ms", "inference"},
  // Issue 26: the request path in front of the engine, fitted on one source's four single-request runs.
  // vLLM 0.19's OpenAI server, one request at a time (MiniMax-M2.5 on 2 x MI300X): from sending the request to its
  // first byte back 7.0 / 15.2 / 46.5 / 131.4 ms at 1,990 / 5,990 / 19,704 / 58,560 prompt tokens (the engine's own
  // counts); a line through them is 2.5 ms + 2.2 us per token, within 0.6 ms of each, and the source's tokenizer
  // alone encodes ~500k tokens/s (2 us per token). The citation: source.inference.request_overhead_ms.
  {"inference.request_overhead_ms", NUM, REF(inference.request_overhead_ms), 2.5, nullptr, 0, 1e5, false, false,
   nullptr, "ms", "inference"},
  {"inference.request_overhead_us_per_token", NUM, REF(inference.request_overhead_us_per_token), 2.2, nullptr, 0, 1e4,
   false, false, nullptr, "us/token", "inference"},

  // --- issue 28: prefix caching, speculative decoding, routing, autoscaling (inference_techniques.h,
  //     inference_day.h); inference.load_profile is read by json_io (a preset name or 24 numbers) ---
  {"inference.prefix_tokens", NUM, REF(inference.prefix_tokens), 0, nullptr, 0, 1e7, false, true, nullptr, "tokens",
   "inference"},
  {"inference.prefix_cache_hit", NUM, REF(inference.prefix_cache_hit), 0, nullptr, 0, 1, false, true, nullptr,
   "fraction", "inference"},
  {"inference.speculative.draft_model", TEXT, REF(inference.speculative.draft_model), 0, "", 0, 0, false, false,
   nullptr, "", "inference"},
  {"inference.speculative.draft_params", NUM, REF(inference.speculative.draft_params), 0, nullptr, 0, 1e13, true,
   true, nullptr, "parameters", "inference"},
  {"inference.speculative.tokens_per_step", INT, REF(inference.speculative.tokens_per_step), 0, nullptr, 1, 64,
   false, true, nullptr, "tokens", "inference"},
  {"inference.speculative.acceptance_rate", NUM, REF(inference.speculative.acceptance_rate), 0, nullptr, 0, 1, true,
   true, nullptr, "fraction", "inference"},
  {"inference.router.usd_per_hour", NUM, REF(inference.router.usd_per_hour), 0, nullptr, 0, 1e6, true, true, nullptr,
   "USD/hour", "inference"},
  {"inference.router.latency_ms", NUM, REF(inference.router.latency_ms), 0, nullptr, 0, 1e5, false, false, nullptr,
   "ms", "inference"},
  {"inference.autoscale.min_replicas", INT, REF(inference.autoscale.min_replicas), 0, nullptr, 1, 1000000, false,
   true, nullptr, "replicas", "inference"},
  {"inference.autoscale.max_replicas", INT, REF(inference.autoscale.max_replicas), 0, nullptr, 1, 1000000, false,
   true, nullptr, "replicas", "inference"},
  {"inference.autoscale.scale_up_minutes", NUM, REF(inference.autoscale.scale_up_minutes), 0, nullptr, 0, 1440, true,
   true, nullptr, "minutes", "inference"},
  {"inference.autoscale.scale_down_minutes", NUM, REF(inference.autoscale.scale_down_minutes), 0, nullptr, 0, 1440,
   false, true, nullptr, "minutes", "inference"},

  // --- issue 29: the wait for capacity and the deadline, spare pools, restore checks, bring-up, allocation,
  // the data pipeline, support, financing (capacity.h, spares.h, operations.h, datapipe.h) ---
  {"workload.deadline_hours", NUM, REF(ops.deadline_hours), 0, nullptr, 0, 1e7, true, true, nullptr, "hours",
   "workload"},
  {"workload.value_per_day_usd", NUM, REF(ops.value_per_day_usd), 0, nullptr, 0, 1e12, false, false, nullptr,
   "USD/day", "workload"},
  {"capacity.on_demand_wait_hours", NUM, REF(ops.on_demand_wait_hours), 0, nullptr, 0, 1e6, false, false, nullptr,
   "hours", "pricing"},
  {"cluster.bring_up_hours", NUM, REF(ops.bring_up_hours), 0, nullptr, 0, 1e5, false, false, nullptr, "hours",
   "hardware"},
  {"cluster.allocation_efficiency", NUM, REF(ops.allocation_efficiency), 1, nullptr, 0, 1, true, false, nullptr,
   "fraction", "hardware"},
  {"reliability.restore_test_every", INT, REF(ops.restore_test_every), 0, nullptr, 0, 1000000, false, false, nullptr,
   "checkpoints", "reliability"},
  {"reliability.restore_test_minutes", NUM, REF(ops.restore_test_minutes), 0, nullptr, 0, 1e5, false, false, nullptr,
   "minutes", "reliability"},
  {"reliability.bad_checkpoint_probability", NUM, REF(ops.bad_checkpoint_probability), 0, nullptr, 0, 1, false, false,
   nullptr, "fraction", "reliability"},
  {"reliability.repair_hours", NUM, REF(ops.repair_hours), 0, nullptr, 0, 1e5, true, true, nullptr, "hours",
   "reliability"},
  {"reliability.spares_included", BOOL, REF(ops.spares_included), 0, nullptr, 0, 1, false, false, nullptr, "",
   "reliability"},
  {"data.preprocess.cpu_cores_per_gpu", NUM, REF(ops.cpu_cores_per_gpu), 0, nullptr, 0, 1e4, true, true, nullptr,
   "cores/GPU", "storage"},
  {"data.preprocess.samples_per_core_second", NUM, REF(ops.samples_per_core_second), 0, nullptr, 0, 1e9, true, true,
   nullptr, "samples/s", "storage"},
  {"data.tokens_per_sample", NUM, REF(ops.tokens_per_sample), 0, nullptr, 0, 1e9, true, true, nullptr, "tokens",
   "storage"},
  {"storage.small_file_latency_ms", NUM, REF(ops.small_file_latency_ms), 0, nullptr, 0, 1e6, false, false, nullptr,
   "ms", "storage"},
  {"storage.files_per_sample", NUM, REF(ops.files_per_sample), 1, nullptr, 0, 1e6, false, false, nullptr, "files",
   "storage"},
  {"storage.staging.dataset_gb", NUM, REF(ops.staging_dataset_gb), 0, nullptr, 0, 1e12, false, false, nullptr, "GB",
   "storage"},
  {"storage.staging.gbps", NUM, REF(ops.staging_gbps), 0, nullptr, 0, 1e9, false, false, nullptr, "GB/s", "storage"},
  {"storage.staging.billed", BOOL, REF(ops.staging_billed), 1, nullptr, 0, 1, false, false, nullptr, "", "storage"},
  {"storage.scratch_usd_per_gb_month", NUM, REF(ops.scratch_usd_per_gb_month), 0, nullptr, 0, 1e6, false, false,
   nullptr, "USD/GB-month", "storage"},
  {"pricing.support_usd_per_month", NUM, REF(ops.support_usd_per_month), 0, nullptr, 0, 1e10, false, false, nullptr,
   "USD/month", "pricing"},
  {"pricing.owned.interest_rate", NUM, REF(pricing.owned.interest_rate), 0, nullptr, 0, 1, false, false, nullptr,
   "fraction/year", "ownership"},
  // Issue 45: owning waits for its servers; the wait counts in the deadline and the delay cost (capacity.h).
  {"pricing.owned.lead_time_days", NUM, REF(pricing.owned.lead_time_days), 70, nullptr, 0, 3650, false, false,
   nullptr, "days", "ownership"},

  // --- provider comparison sheet (issue 16): answers from the provider, "" = ask the provider ---
  {"provider.provider", TEXT, REF(provider.provider), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.cpu", TEXT, REF(provider.cpu), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.ram", TEXT, REF(provider.ram), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.storage_performance", TEXT, REF(provider.storage_performance), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.tenancy", TEXT, REF(provider.tenancy), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.interconnect", TEXT, REF(provider.interconnect), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.os_driver", TEXT, REF(provider.os_driver), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.minimum_term", TEXT, REF(provider.minimum_term), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.setup_fee", TEXT, REF(provider.setup_fee), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.support_scope", TEXT, REF(provider.support_scope), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.data_location", TEXT, REF(provider.data_location), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.access_control", TEXT, REF(provider.access_control), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.encryption", TEXT, REF(provider.encryption), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.audit_logs", TEXT, REF(provider.audit_logs), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.backup_location", TEXT, REF(provider.backup_location), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.staff_access", TEXT, REF(provider.staff_access), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.incident_response", TEXT, REF(provider.incident_response), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.sla", TEXT, REF(provider.sla), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
  {"provider.certifications", TEXT, REF(provider.certifications), 0, "", 0, kSheetMaxChars, false, false, nullptr, "", "provider"},
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

const char* FieldHelp(const FieldSpec& f, Lang lang) { return Tr(lang, (std::string("help.") + f.path).c_str()); }

const char* FieldSource(const FieldSpec& f, Lang lang) {
  const std::string key = std::string("source.") + f.path;
  if (HasTranslation(lang, key.c_str())) return Tr(lang, key.c_str());
  return HasTranslation(Lang::kEn, key.c_str()) ? Tr(Lang::kEn, key.c_str()) : "-";
}
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

bool CanPredictStep(const Scenario& s) {
  return Kind(s) == WorkloadKind::kTraining && HasModelShape(s) && s.parallel.global_batch > 0;
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
    "workload.lora_targets", "workload.frozen_precision", "workload.real_token_fraction", "workload.packed_document_tokens", "workload.deadline_hours", "workload.value_per_day_usd", "cluster.gpus", "cluster.mfu",
    "cluster.framework", "cluster.bring_up_hours", "cluster.allocation_efficiency", "capacity.on_demand_wait_hours",
    "parallel.data_parallel", "parallel.pipeline_parallel", "parallel.zero_stage", "parallel.micro_batch",
    "parallel.global_batch", "parallel.pipeline_interleave", "parallel.sequence_parallel", "parallel.recompute",
    "parallel.optimizer", "parallel.overlap_comm", "parallel.single_node_mfu", "parallel.critical_batch_tokens",
    "parallel.reference_batch_tokens", "parallel.context_parallel", "parallel.flash_attention",
    "parallel.fused_elementwise", "parallel.tp_comm_overlap", "parallel.expert_parallel", "reliability.checkpointing",
    "reliability.checkpoint_write_minutes", "reliability.checkpoint_interval_minutes", "reliability.checkpoint_async",
    "reliability.async_stall_fraction", "reliability.checkpoint_bytes_per_param", "reliability.checkpoint_gb",
    "reliability.downtime_hours", "reliability.hot_spares", "reliability.hot_spare_recovery_minutes",
    "reliability.failure_shape", "reliability.restore_test_every", "reliability.restore_test_minutes",
    "reliability.bad_checkpoint_probability", "reliability.repair_hours", "reliability.spares_included",
    "storage.checkpoints_retained", "storage.small_file_latency_ms", "storage.files_per_sample",
    "storage.staging.dataset_gb", "storage.staging.gbps", "storage.staging.billed", "storage.scratch_usd_per_gb_month",
    "data.preprocess.cpu_cores_per_gpu", "data.preprocess.samples_per_core_second", "data.tokens_per_sample",
    "pricing.owned.lead_time_days",  // issue 45: a service has no start date (no schedule outlook)
    // Issue 50: a training job's programme, loss target and failure terms; stopped instances (a service runs).
    "workload.program.experiments", "workload.program.abandoned_fraction", "workload.program.evaluation_hours",
    "workload.target_loss", "workload.loss_fit", "reliability.infant_failure_fraction",
    "reliability.infant_mean_hours", "reliability.slow_node_fraction", "reliability.slow_node_slowdown",
    "reliability.collective_timeouts_per_day", "reliability.collective_timeout_minutes", "pricing.stopped_hours",
    "pricing.stopped_price_fraction", "pricing.stopped_discount_hours",
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

// What only the step-time model reads of a training job (training/steptime.h: StepHardwareFor, LayoutFromScenario's
// kernel and overlap switches, evaluate.cpp's PredictStep), found by reading what else reads each field and checked
// by tests/core/test_fields_not_used.cpp (changing a reported field leaves every total as it was, on generated
// scenarios). Two also feed other physics, in a scenario that has it:
//   fp8_reference  the FP8 default MFU (training/fp8_gain.h: the step model on a reference shape, the scenario's
//                  hardware, kernels and overlap switches) when the MFU is not given and the precision is FP8;
//   memory         the activation memory (training/memory.cpp: a fused attention kernel stores no scores) once the
//                  memory model runs with the heads known (workload.params and workload.heads set) and keeps the
//                  scores (recompute none or selective_op; selective, full and the save-dot policies drop them).
// And all of them rank the layouts that fit when the job does not fit its GPUs' memory (plan.h: the fastest fitting
// layout is suggested), so none is reported then (FieldsNotUsed's layouts_ranked).
// Not listed, read elsewhere too: the layout's degrees, micro and global batch, interleave, recompute, ZeRO and
// the optimizer (memory, layout validity), the shape (FLOPs, memory, checkpoint size), peak_tflops (the MFU's base).
struct StepOnlyField {
  const char* path;
  bool fp8_reference, memory;
};
constexpr StepOnlyField kReadOnlyByStepModel[] = {
    {"cluster.node_network_gbps", true, false}, {"cluster.link_efficiency", true, false},
    {"cluster.hbm_tbps", true, false},          {"cluster.nvlink_gbps", true, false},
    {"cluster.framework", true, false},         {"parallel.overlap_comm", true, false},
    {"parallel.single_node_mfu", false, false}, {"parallel.flash_attention", false, true},
    {"parallel.tp_comm_overlap", true, false},  {"parallel.ep_comm_overlap", true, false},
    {"parallel.fused_elementwise", true, false},
};

// A job's fields that may be set and unused: the serving inputs, and the step-time inputs (a training job's MFU
// given or not predicted). All at their defaults (the page's first frame): nothing to ask field by field.
std::vector<std::size_t> JobFieldsMaybeUnused() {
  std::vector<std::size_t> list = FieldsNotReadBy(WorkloadKind::kTraining, false);
  for (const StepOnlyField& f : kReadOnlyByStepModel) list.push_back(static_cast<std::size_t>(FindField(f.path) - Fields()));
  return list;
}

// The serving inputs read only for a model with routed experts (NotUsedWhy::kNoExperts).
constexpr const char* kMoeOnlyServingFields[] = {"inference.fused_moe_finalize", "inference.moe_split"};

// A service's fields that may be set and unused: those its kind does not read, and the MoE-only inputs.
std::vector<std::size_t> ServiceFieldsMaybeUnused(bool disaggregated) {
  std::vector<std::size_t> list = FieldsNotReadBy(WorkloadKind::kInference, disaggregated);
  for (const char* path : kMoeOnlyServingFields) list.push_back(static_cast<std::size_t>(FindField(path) - Fields()));
  list.push_back(static_cast<std::size_t>(FindField("inference.weight_scaling") - Fields()));
  return list;
}

const DefaultWords& DefaultWordsFor(WorkloadKind kind, bool disaggregated) {
  static const std::array<DefaultWords, 3> words = {DefaultWordsOf(JobFieldsMaybeUnused()),
                                                    DefaultWordsOf(ServiceFieldsMaybeUnused(false)),
                                                    DefaultWordsOf(ServiceFieldsMaybeUnused(true))};
  return words[kind != WorkloadKind::kInference ? 0 : disaggregated ? 2 : 1];
}

// The step-time model's inputs a training job set but does not read: its MFU is given, or cannot be predicted.
[[gnu::noinline]] void StepInputsNotUsed(const Scenario& s, std::vector<FieldNotUsed>* out) {
  const bool given = s.cluster.mfu > 0;
  if (!given && CanPredictStep(s)) return;
  const bool fp8_default = !given && GetPrecision(s) == Precision::kFp8;
  const Recompute recompute = static_cast<Recompute>(s.parallel.recompute);
  const bool memory_with_scores = s.workload.params > 0 && s.workload.heads > 0 &&
                                  (recompute == Recompute::kNone || recompute == Recompute::kSelectiveOp);
  for (std::size_t k = 0; k < std::size(kReadOnlyByStepModel); ++k) {
    const StepOnlyField& f = kReadOnlyByStepModel[k];
    const FieldSpec& spec = *FindField(f.path);
    if (IsDefault(s, spec) || (fp8_default && f.fp8_reference) || (memory_with_scores && f.memory)) continue;
    out->push_back({&spec, given ? NotUsedWhy::kMfuGiven : NotUsedWhy::kNoShape});
  }
}

// The fields this kind of workload does not read (FieldsNotReadBy) that the scenario set.
[[gnu::noinline]] void KindFieldsNotUsed(const Scenario& s, WorkloadKind kind, bool disaggregated, std::vector<FieldNotUsed>* out) {
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
    if (!from_model) out->push_back({&f, NotUsedWhy::kKind});
  }
}

}  // namespace

std::vector<FieldNotUsed> FieldsNotUsed(const Scenario& s, bool layouts_ranked, bool routed_experts) {
  std::vector<FieldNotUsed> out;
  const WorkloadKind kind = Kind(s);
  const bool disaggregated = kind == WorkloadKind::kInference && static_cast<InferenceMode>(s.inference.mode) == InferenceMode::kDisaggregated;
  if (AllAtDefault(s, DefaultWordsFor(kind, disaggregated))) return out;
  KindFieldsNotUsed(s, kind, disaggregated, &out);
  if (kind == WorkloadKind::kTraining && !layouts_ranked) StepInputsNotUsed(s, &out);
  if (kind == WorkloadKind::kInference) {  // the MoE-only inputs on a dense model; the experts' split without data attention
    const bool data_attention = static_cast<AttentionSplit>(s.inference.attention) == AttentionSplit::kData;
    for (std::size_t k = 0; k < std::size(kMoeOnlyServingFields); ++k) {
      const FieldSpec& f = *FindField(kMoeOnlyServingFields[k]);
      const bool split = k == 1;  // inference.moe_split
      if (!IsDefault(s, f) && (!routed_experts || (split && !data_attention))) out.push_back({&f, NotUsedWhy::kNoExperts});
    }
    const FieldSpec& scaling = *FindField("inference.weight_scaling");  // read only for fp8 weights (inference_model.cpp)
    if (!IsDefault(s, scaling) && static_cast<WeightPrecision>(s.inference.weight_precision) != WeightPrecision::kFp8)
      out.push_back({&scaling, NotUsedWhy::kNotFp8});
  }
  return out;
}

}  // namespace gpucost
