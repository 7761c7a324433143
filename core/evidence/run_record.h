// run_record.h — what a run really did (issue 49): the run record, schema gpucost/run@1, that `gpucost log`
// reads from a training log and `gpucost actual` sets against a plan (documents/actual.h).
//
// Every field is optional but `gpu` and `gpus`; a figure the record does not have is taken from the plan and
// said so (documents/actual.h), never invented. Units are in the names:
//   gpu, gpus                     the catalog GPU and how many did the work
//   wall_hours                    the run's wall time (or started_utc / ended_utc, ISO 8601 with a zone)
//   billed_gpu_hours              GPU-hours on the bill
//   invoice {amount, currency, includes_tax}   what was paid (USD or KRW)
//   tokens                        tokens trained
//   tokens_per_second             samples of the whole job's throughput (a number or a list)
//   step_seconds                  samples of the step time (a number or a list), with global_batch (sequences
//                                 per step) and seq_len (tokens per sequence)
//   interruptions [{at_hours, lost_hours, cause}]   cause: failure | hardware | software | network | unknown
//                                 (failures), preemption, planned (neither counts against the MTBF)
//   checkpoints {count, write_seconds}   write_seconds: training blocked per checkpoint
//   idle_gpu_hours                GPU-hours held doing nothing (allocation, waiting); inside a measured wall time
//                                 they are part of its unaccounted hours (gpucost actual bills them once)
//   notes                         free text
//   serving: requests, output_tokens, ttft_ms / tpot_ms {p50, p90, p99}, replica_hours
//   source {format, file, lines, read, not_read}   where a log reader found it (core/evidence/log_read.h)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/json_io.h"
#include "base/message.h"

namespace gpucost {

constexpr const char* kRunSchema = "gpucost/run@1";
constexpr std::size_t kMaxRunRecordBytes = 16u << 20;  // a long run's samples: more than a scenario's 1 MiB
constexpr std::size_t kMaxRunSamples = 1000000;        // per sample list
constexpr std::size_t kMaxRunInterruptions = 100000;

enum class InterruptionCause : int { kFailure = 0, kHardware, kSoftware, kNetwork, kUnknown, kPreemption, kPlanned };
const char* InterruptionCauseName(InterruptionCause c);
// Failures count against the MTBF; preemptions and planned stops do not.
bool IsFailure(InterruptionCause c);

struct RunInterruption {
  std::optional<double> at_hours;    // into the run
  std::optional<double> lost_hours;  // wall time lost: progress redone and recovery
  InterruptionCause cause = InterruptionCause::kFailure;
};

struct LatencyPercentiles {
  std::optional<double> p50, p90, p99;  // milliseconds
  bool any() const { return p50 || p90 || p99; }
};

// What a log reader found and what it could not read (messages as codes: rendered at the edge).
struct RunSource {
  std::string format;               // "megatron" | "nemo" | "torchtitan" | "hf_trainer_state"
  std::string file;                 // the file's name as given
  std::int64_t lines = 0;           // lines (or log_history entries) read
  std::vector<Message> read;        // what it read, one message each
  std::vector<Message> not_read;    // what it could not read and why
  bool present() const { return !format.empty(); }
};

struct RunRecord {
  std::string gpu;
  std::int64_t gpus = 0;
  std::optional<double> wall_hours;
  std::string started_utc, ended_utc;
  std::optional<double> billed_gpu_hours;
  struct Invoice {
    double amount = 0;
    std::string currency = "USD";  // USD | KRW
    bool includes_tax = false;
  };
  std::optional<Invoice> invoice;
  std::optional<double> tokens;
  std::vector<double> tokens_per_second;  // samples, whole job
  std::vector<double> step_seconds;       // samples
  std::optional<std::int64_t> global_batch, seq_len;
  std::optional<std::vector<RunInterruption>> interruptions;  // absent: not recorded (an empty list: none)
  struct Checkpoints {
    std::optional<std::int64_t> count;
    std::optional<double> write_seconds;
  };
  std::optional<Checkpoints> checkpoints;
  std::optional<double> idle_gpu_hours;
  std::string notes;
  // Serving.
  std::optional<double> requests, output_tokens, replica_hours;
  LatencyPercentiles ttft_ms, tpot_ms;
  RunSource source;
};

struct RunParse {
  RunRecord record;
  std::vector<InputError> errors;  // every error, each naming its JSON path and the allowed range
  bool ok() const { return errors.empty(); }
};

// Parses and validates a run record (JSON). Unknown keys, wrong types, out-of-range values, an unknown GPU and
// a wall time that disagrees with started_utc / ended_utc are errors.
RunParse ParseRunRecordJson(const std::string& text);
// Checks a record made in code (a log reader's) as the parser checks a file: the same errors.
std::vector<InputError> ValidateRunRecord(const RunRecord& r);
// The record as JSON (schema first; absent figures left out; sample lists as lists).
std::string RunRecordToJson(const RunRecord& r, int indent = 2);

// The median of a record's samples (the figure a run's throughput is taken at: warm-up and restart intervals do not
// move it), NaN samples left out; NaN when none.
double SampleMedian(std::vector<double> samples);

// The wall time the record gives: wall_hours, else ended_utc - started_utc; nullopt when neither.
std::optional<double> RunWallHours(const RunRecord& r);
// Seconds since 1970-01-01T00:00:00Z of an ISO 8601 time with a zone ("2025-03-01T08:00:00Z",
// "2025-03-01T17:00:00+09:00", fractions of a second allowed); nullopt when it is not one.
std::optional<double> ParseUtcSeconds(const std::string& text);

}  // namespace gpucost
