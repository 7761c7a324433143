// result.h — what Evaluate() returns. Every total is a sum of named parts (a test asserts it).
#pragma once
#include <cstdint>

#include "money/capacity.h"
#include "training/datapipe.h"
#include "serving/inference.h"
#include "training/memory.h"
#include "base/message.h"
#include "training/scaling_fit.h"
#include "training/steptime.h"

namespace gpucost {

// Named parts shared by the time, GPU-hour and money breakdowns. Not every part applies to every breakdown
// (time has no storage; money has no unbilled wait); unused parts are 0.
enum Part : int {
  kPartCompute = 0,     // productive compute at the achieved MFU
  kPartDataStall,       // waiting for input data
  kPartCheckpoint,      // blocking checkpoint writes
  kPartRework,          // progress lost to rollbacks, redone
  kPartRecovery,        // detection, restart, reload (billed, idle)
  kPartReacquireWait,   // waiting for spot capacity (not billed)
  kPartDowntime,        // known downtime (billed, idle)
  kPartIdleGpus,        // billed GPUs not doing the job's work (whole-node rounding, partial waves, surviving
                        // nodes of a coupled job waiting for spot capacity)
  kPartHotSpares,       // hot-spare GPUs standing by
  kPartBillingRounding, // billing increments and minimums
  kPartStorage,         // dataset and checkpoints stored, during the job and retention
  kPartEgress,          // data transfer out
  kPartFees,            // fixed fees
  kPartUnusedCommitment,// reserved: committed GPU-hours paid but not used by this job
  kPartTax,             // tax (VAT)
  // Inference (inference.h): GPU-hours of prefill and decode work at full batch, capacity held idle for the
  // peak and the latency target, prefill GPUs held while the KV cache leaves (disaggregated).
  kPartPrefillGpus,
  kPartDecodeGpus,
  kPartIdleCapacity,
  kPartKvTransfer,
  // Serving on spot (inference_billing.h): in-flight requests recomputed after a preemption, spare nodes
  // carried to hold the target while preempted nodes are reacquired.
  kPartSpotRework,
  kPartSpotSpareCapacity,
  // Issue 29 (operations.h, capacity.h): bring-up before the first step, restore tests, rollbacks past an
  // unusable checkpoint, staging the data set (GPUs held), allocated GPUs idle between jobs, the support plan,
  // and the delay cost (what finishing after the deadline costs the team; not billed, not taxed).
  kPartBringUp,
  kPartRestoreTest,
  kPartBadCheckpoint,
  kPartStaging,
  kPartAllocationIdle,
  kPartSupport,
  kPartDelay,
  // Issue 28: the router tier in front of the replicas; replicas rented before they serve (autoscaling's
  // cold start: weights loading).
  kPartRouter,
  kPartColdStart,
  kPartCount
};

const char* PartName(int part);   // "compute", "data_stall", ... (JSON keys)
const char* PartLabel(int part);  // "Productive compute", ... (UI/table labels)

struct Breakdown {
  double part[kPartCount] = {};
  double Total() const {
    double sum = 0;
    for (double v : part) sum += v;
    return sum;
  }
};

enum class MfuSource : int { kGiven = 0, kPredicted, kDefault, kMeasured };  // kMeasured: fit of scaling.points
const char* MfuSourceName(MfuSource s);

// Warnings and notes as data (issue 27, message.h): each has a code (what it is about, stable: "never_finishes"),
// its text's key in the string tables ("msg.w_never_finishes") and the parameters that fill it; rendered in a
// language only where it is shown (Text). The result's JSON carries code, key, params and the English message.
constexpr int kMaxWarnings = 12;
struct Warnings {
  int count = 0;
  const char* code[kMaxWarnings] = {};
  const char* key[kMaxWarnings] = {};
  char param_text[kMaxWarnings][240] = {};  // packed parameters (message.cpp)
  void Add(const char* warning_code, const char* text_key, std::initializer_list<MessageParam> params = {});
  void AddFrom(const Warnings& other, int i);  // another list's warning i, as it is
  std::vector<MessageParam> Params(int i) const;
  std::string Text(int i, Lang lang) const;
};

// Where owned hardware's capex and power per GPU come from (tco.h OwnedSourceFor): "entered" (the user's value),
// "catalog" (the GPU's server entry in gpus.json; source: its server_price_source / server_source) or "example"
// (the field's H100 default for a GPU the catalog has no figure for; source: the field's). The texts are static
// (the catalog and the field table live as long as the program).
struct OwnedSource {
  const char* capex_basis = "entered";
  const char* capex_source = "";
  const char* power_basis = "entered";
  const char* power_source = "";
};

struct TcoResult {
  bool present = false;
  double usd_per_gpu_hour = 0;        // per useful GPU-hour at the utilisation
  double usd_per_gpu_year = 0;        // all-in annual cost per GPU
  double capex_usd_per_gpu_year = 0;  // depreciation (incl. spares, less residual)
  double power_usd_per_gpu_year = 0;
  double opex_usd_per_gpu_year = 0;  // other opex (pricing.owned.opex_usd_per_gpu_year)
  double facility_usd_per_gpu_year = 0;     // colocation per IT kW
  double maintenance_usd_per_gpu_year = 0;  // support contracts (fraction of capex)
  double staff_usd_per_gpu_year = 0;
  double financing_usd_per_gpu_year = 0;    // issue 29: interest (annuity at pricing.owned.interest_rate - straight line)
  double upfront_usd_per_gpu = 0;           // capex incl. spares, paid at purchase
  double repair_downtime_fraction = 0;      // of hours, after spares cover what they can
  double useful_hours_per_gpu_year = 0;     // 8,760 x utilization x (1 - repair downtime)
  double break_even_utilization = 0;  // against compare_usd_per_gpu_hour (> 1: never)
  double taxable_fraction = 1;        // of usd_per_gpu_year bought from suppliers (carries VAT): all but staff
  double purchase_vat_usd_per_gpu = 0;  // VAT on upfront_usd_per_gpu at pricing.tax_rate
  double break_even_months = 0;       // months until owning beats renting at the utilisation (0: never, or not within the lifetime)
  double capex_usd_per_gpu = 0;       // the purchase price per GPU used (before spares)
  double power_kw_per_gpu = 0;        // the IT power per GPU used
  OwnedSource source;                 // where those two come from (set by PlanBilling)
};

struct Result {
  bool ok = false;  // false: invalid scenario (see json_io ValidateScenario); nothing else is meaningful

  // Work
  double flops = 0;                 // total training FLOPs used
  bool flops_include_attention = false;
  double flops_per_token = 0;
  double tokens = 0;
  double mfu = 0;
  MfuSource mfu_source = MfuSource::kDefault;
  double fp8_gain = 0;              // FP8 without a shape: the step-time model's gain used (fp8_gain.h; 0: none)
  double peak_tflops_per_gpu = 0;   // dense peak at the precision
  double achieved_tflops_per_gpu = 0;
  std::int64_t billed_gpus = 0;     // GPUs paid per hour (work + spares, rounded to whole nodes)

  // Time (hours)
  double ideal_hours = 0;           // compute only
  double normal_run_hours = 0;      // nothing fails: compute, data stalls, checkpoints, known downtime
  double expected_hours = 0;        // everything
  Breakdown time_hours;             // sums to expected_hours
  double goodput = 0;               // ideal / expected

  // GPU-hours
  double ideal_gpu_hours = 0;
  double billed_gpu_hours = 0;      // expected, after billing rules
  Breakdown gpu_hours;              // sums to billed_gpu_hours

  // Reliability
  double cluster_mtbf_hours = 0;    // between job-interrupting failures (0 = none)
  double expected_interruptions = 0;
  double expected_failures = 0;
  double expected_preemptions = 0;
  double checkpoint_interval_minutes = 0;
  double optimal_checkpoint_interval_minutes = 0;  // Daly
  double young_checkpoint_interval_minutes = 0;
  double checkpoint_write_minutes = 0;
  double checkpoint_gb = 0;
  double checkpoints_written = 0;
  bool never_finishes = false;

  // Data feed
  double data_required_gbps = 0;
  double data_stall_fraction = 0;

  // Money (USD)
  double usd_per_gpu_hour = 0;      // effective price before tax
  double normal_run_usd = 0;
  double expected_usd = 0;
  Breakdown cost_usd;               // sums to expected_usd
  double usd_per_billion_tokens = 0;
  double vat_usd = 0;               // the tax invoiced (= cost_usd tax, or recovered when pricing.vat_recoverable)
  double commitment_after_job_usd = 0;  // reserved: of cost_usd unused_commitment, the term after the job (pre-tax)
  double display_per_usd = 1;       // display currency units per USD
  const char* display_currency = "USD";

  TcoResult tco;
  // Step time of one global batch (steptime.h); step.ok() when the shape, layout and global batch are known.
  StepTime step;
  double scaling_efficiency = 0;   // per-GPU throughput at this size / one node (0: not computed)
  // Parallelism (parallelism.h): batch-size effect, memory per GPU, measured scaling fit.
  double batch_size_token_factor = 1;  // tokens needed / workload.tokens (McCandlish et al. 2018; 1 = off)
  bool memory_present = false;         // training with params known: memory below is meaningful
  MemoryBreakdown memory;              // per GPU (larger of first/last pipeline stage); activations need a shape
  LayoutFit memory_smallest_fit;       // searched when the layout does not fit (found = false otherwise)
  bool scaling_present = false;        // scaling.points given and fitted
  ScalingFit scaling_fit;
  ScalingPrediction scaling_at_gpus;   // the fit at cluster.gpus
  Warnings warnings;
  ScheduleOutlook schedule;            // issue 29 (capacity.h): wait for capacity, finish, deadline
  DataFeedResult data_feed;            // issue 29 (datapipe.h): which limit of the data pipeline binds
  double spare_fast_fraction = 1;      // issue 29 (spares.h): failures a free spare takes over (hot spares > 0)
  InferenceResult inference;           // workload.kind = inference (inference.h); present = false otherwise
};

}  // namespace gpucost
