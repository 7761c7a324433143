// actual.h — plan versus actual (issue 49): where the money went against the plan, and what the next plan should
// assume. The document of `gpucost actual PLAN RUN` (schema gpucost/actual@1) and of the page's Plan vs actual view.
//
// The actual cost is the invoice where the record has one, else the record's hours at the plan's prices, priced by
// the one billing engine (money/billing.h through job.h's BillJob, as Evaluate() prices the plan): the run's own
// timeline (compute at the measured rate, its checkpoints, the time its interruptions lost, the wall time its parts
// do not explain, idle GPU-hours recorded) goes through the same function as the plan's expected timeline.
//
// The variance: the plan's and the run's money in the same named groups of parts (VariancePart), each with its
// delta and why it moved, in words (a message: key and parameters). Money is in whole cents: every group's planned
// and actual amount is rounded so that the groups add up to the rounded totals (largest remainder), and the deltas
// add up exactly to actual - planned (checked where they are made). An invoice's difference from the priced hours
// goes to billing_tax.
//
// A figure the record does not have is the plan's, said in a note (never invented, never silent): the tokens, the
// throughput, the checkpoints, the interruptions, the wall time.
//
// Calibration: the plan's scenario with the measured figures in place of the assumed ones: cluster.mfu from the
// measured throughput (the plan's own data stall taken out, as its compute rate excludes it), the checkpoint's
// blocking time (reliability.checkpoint_write_minutes), and reliability.gpu_mtbf_hours updated from the observed
// failures against the plan's figure as a prior (evidence/mtbf_update.h); the next job priced with it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evidence/log_read.h"
#include "evidence/mtbf_update.h"
#include "evidence/run_record.h"
#include "base/message.h"
#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

constexpr const char* kActualSchema = "gpucost/actual@1";

enum VariancePart : int {
  kVarCompute = 0,     // compute and data stalls: the measured rate against the planned MFU, the tokens trained
  kVarFailures,        // rework and recovery: the interruptions observed against those expected
  kVarCheckpoints,     // blocking checkpoint writes and restore tests
  kVarIdle,            // idle and allocation: GPUs billed without the job's work (rounding to nodes, spares, downtime,
                       // wall time the record does not explain, allocation, bring-up, staging)
  kVarBilling,         // billing and tax: increments, the commitment, fees, support, tax, an invoice's difference
  kVarStorageEgress,   // storage and egress
  kVarDelay,           // the delay cost past a deadline (when the plan values it)
  // A service (a serving plan, actual_serving.cpp):
  kVarVolume,          // the work of the requests served (prefill, decode, KV transfer at full batch), at the plan's
                       // price per GPU-hour of work: more or fewer requests and output tokens than planned
  kVarCapacity,        // the replica-hours held beyond that work: idle capacity, whole-node rounding, failures'
                       // recovery and rework, spot spares, cold starts
  kVarRouter,          // the router tier in front of the replicas, over the period
  kVarCount
};
const char* VariancePartName(int part);  // "compute", "failures", "checkpoints", "idle_allocation", "billing_tax",
                                         // "storage_egress", "delay"; a service's "volume", "capacity", "router"
// The group a cost part (result.h Part) belongs to: a training job's, a service's.
int VarianceGroupOf(int cost_part);
int ServingVarianceGroupOf(int cost_part);

struct VarianceRow {
  int part = 0;
  std::int64_t planned_cents = 0, actual_cents = 0;
  std::int64_t delta_cents() const { return actual_cents - planned_cents; }
  Message why;
};

// What the run did, as the comparison used it: measured, or the plan's where the record is silent.
struct ActualRun {
  std::string gpu;
  std::int64_t gpus = 0;
  double tokens = 0, planned_tokens = 0;
  bool tokens_measured = false;
  double tokens_per_second = 0, planned_tokens_per_second = 0;  // whole job; planned: at the run's GPUs
  bool rate_measured = false;
  std::size_t rate_samples = 0;
  double mfu = 0, planned_mfu = 0;          // measured: effective (its data stalls included)
  double compute_hours = 0, planned_compute_hours = 0;
  double interruptions = 0, failures = 0, preemptions = 0, lost_hours = 0;
  double expected_interruptions = 0, expected_lost_hours = 0;
  bool interruptions_measured = false;
  double checkpoints = 0, checkpoint_seconds = 0, checkpoint_hours = 0;  // seconds: blocked per checkpoint
  double planned_checkpoints = 0, planned_checkpoint_seconds = 0, planned_checkpoint_hours = 0;
  bool checkpoints_measured = false;
  double wall_hours = 0, planned_hours = 0;
  bool wall_measured = false;
  double unexplained_hours = 0;             // wall time the record's parts do not explain (billed, idle)
  double idle_gpu_hours = 0, planned_idle_gpu_hours = 0;  // GPU-hours of the idle and allocation parts
  double billed_gpu_hours = 0;              // the engine's, for the run's timeline
  double priced_usd = 0;                    // the run's hours at the plan's prices (the engine's total)
  bool has_invoice = false;
  double invoice_usd = 0;                   // the invoice as a cost (tax as the plan counts it), USD
  // A service (a serving plan): measured, or the plan's where the record is silent (a note says so).
  bool serving = false;
  double requests = 0, planned_requests = 0;
  bool requests_measured = false;
  double output_tokens = 0, planned_output_tokens = 0;
  bool output_tokens_measured = false;
  double replica_hours = 0, planned_replica_hours = 0;  // the replicas' hours held (all pools)
  bool held_measured = false;               // replica_hours, or gpus x wall_hours
  double gpus_per_replica = 0;              // the plan's held GPU-hours over its replica-hours
  double held_gpu_hours = 0, planned_held_gpu_hours = 0;
  double work_gpu_hours = 0, planned_work_gpu_hours = 0;  // the requests' work at full batch
  double usd_per_request = 0, planned_usd_per_request = 0;
  double ttft_p50_ms = 0, planned_ttft_p50_ms = 0;  // measured (the record's p50; 0: not measured), predicted
  double tpot_p50_ms = 0, planned_tpot_p50_ms = 0;
  double exposure_gpu_hours = 0;            // GPU-hours the MTBF update counts (0: gpus x wall_hours)
};

struct CalibratedChange {
  const char* field = "";  // scenario path
  double planned = 0, calibrated = 0;
  Message why;
};

struct ActualCalibration {
  bool ok = false;                // the calibrated scenario is valid and priced
  Scenario scenario;
  double next_job_usd = 0;        // its expected cost
  double plan_usd = 0;            // the plan's expected cost ("plan said")
  bool mfu_measured = false, checkpoint_measured = false, mtbf_updated = false;
  bool decode_measured = false;   // a service: inference.decode_bandwidth_efficiency from the measured TPOT
  bool prefill_measured = false;  // a service: inference.prefill_mfu from the measured TTFT (solved with the decode)
  MtbfUpdate mtbf;
  std::vector<CalibratedChange> changes;
};

struct ActualNote {
  const char* code = "";
  Message message;
};

struct ActualDoc {
  bool ok = false;
  Message error;                  // why the run cannot be set against this plan (when !ok)
  std::int64_t planned_cents = 0, actual_cents = 0;
  bool actual_is_invoice = false;
  std::vector<VarianceRow> variance;
  ActualRun run;
  ActualCalibration calibrated;
  std::vector<ActualNote> notes;
  const char* currency = "USD";   // the plan's display currency, and units of it per USD
  double display_per_usd = 1;
};

// What a handed-over text is as a run (`gpucost actual`'s RUN, the page's drop, pick and paste): a run record (a JSON
// object but a trainer_state.json), else a log `gpucost log` reads. One function for both, so the page and the CLI
// read the same text the same way. log_only: a log only (`gpucost log`). hints.gpu must be a catalog GPU.
struct RunInput {
  bool ok = false;
  bool from_log = false;
  RunRecord record;
  Message refusal;           // why not (when !ok)
  std::string refusal_path;  // a record's JSON path at fault ("" for a log or the whole text)
};
RunInput ReadRunInput(const std::string& text, const std::string& name, const LogHints& hints = {}, bool log_only = false);

// Sets a run against a plan. The plan must be a valid training or serving scenario that can be priced; the record
// must validate (ValidateRunRecord) but for gpu and gpus, which a log may lack: they are then the plan's (a note).
// A serving plan is set against the record's serving fields (actual_serving.cpp); a record without any is refused.
ActualDoc CompareActual(const Scenario& plan, const RunRecord& run);
// The calibrated scenario and its price (CompareActual calls it; exposed for tests).
ActualCalibration CalibrateFromRun(const Scenario& plan, const ActualRun& run, const RunRecord& record,
                                   double plan_usd, std::vector<ActualNote>* notes);
// A service set against its plan (CompareActual for a serving plan, the plan already valid and priced as r_plan).
void CompareServingActual(const Scenario& plan, const Result& r_plan, const RunRecord& rec, ActualDoc* d);
// A service's calibrated scenario: inference.decode_bandwidth_efficiency that reproduces the measured time between
// tokens (median) at the run's load on the plan's replicas, the MTBF from the record's interruptions; the next
// period priced with it.
ActualCalibration CalibrateServingFromRun(const Scenario& plan, const Result& r_plan, const ActualRun& run,
                                          std::vector<ActualNote>* notes);
// A note and a message made out of line (one copy of the construction, not one per place: the page's wasm).
void AddActualNote(std::vector<ActualNote>* notes, const char* code, const char* key, std::initializer_list<MessageParam> params = {});
Message ActualMessage(const char* key, std::initializer_list<MessageParam> params = {});
// The invoice as a cost on the plan's terms (USD, its tax counted as the plan counts tax); notes say how.
double InvoiceAsCostUsd(const Scenario& plan, const RunRecord::Invoice& inv, std::vector<ActualNote>* notes);
// Fills the variance rows of `groups` (optional ones left out where both sides are zero) from the planned and actual
// money per group; an invoice replaces the actual total, its difference going to billing_tax. Sets the error when
// the deltas do not add up to actual - planned.
void FillVariance(const std::vector<double>& planned_usd, const std::vector<double>& actual_usd,
                  const std::vector<std::pair<int, bool>>& groups, const std::function<Message(int group)>& why, ActualDoc* d);

std::string ActualToJson(const Scenario& plan, const ActualDoc& d, int indent = 2);

// Rounds amounts to whole cents so that they add up to round(sum x 100) (largest remainder; ties to the lower
// index). Used for every money column of the document.
std::vector<std::int64_t> CentsAddingUp(const std::vector<double>& usd);

}  // namespace gpucost
