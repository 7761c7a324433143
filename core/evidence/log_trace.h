// log_trace.h — what one log says, line by line, before it is made into a run record (log_read.h). Each format's
// reader (log_megatron.cpp, log_torchtitan.cpp, log_hf_state.cpp) fills a LogTrace; log_read.cpp works out the
// run from it. Internal to the log readers (core/evidence/log_*.cpp).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/log_read.h"
#include "base/message.h"

namespace gpucost {

struct LogPoint {
  double step = 0;               // steps completed when the line was written
  double t = NAN;                // timestamp, seconds (differences only: a log's clock has no zone)
  double step_seconds = NAN;     // seconds per step over the interval the line reports
  double batch = NAN;            // global batch, sequences
  double consumed = NAN;         // samples consumed so far
  double tps_per_gpu = NAN;      // tokens per second per GPU (torchtitan)
  double mfu = NAN;              // the framework's own MFU, as a fraction (against its own peak)
};

struct LogLoad {                 // a checkpoint loaded: training resumes after `step` steps
  double step = 0;
  std::size_t before_point = 0;  // index of the first point logged after it
};

struct LogTrace {
  LogFormat format = LogFormat::kNone;
  std::int64_t lines = 0;        // lines (entries) of the format read
  std::vector<LogPoint> points;
  std::vector<LogLoad> loads;
  std::int64_t checkpoint_saves = 0;
  std::vector<double> checkpoint_seconds;  // training blocked by each save that says how long
  std::int64_t world_size = 0, seq_len = 0;
  std::string gpu_name;          // as the driver names it
  double gpu_memory_gib = 0;
  std::int64_t bad_lines = 0, first_bad_line = 0;  // lines of the format that could not be read
  // Totals a format gives directly (Hugging Face's trainer_state.json).
  double runtime_s = NAN, tokens_seen = NAN, steps_done = NAN;
  std::vector<Message> read, not_read;  // what only this format can say
};

// Helpers shared by the readers.
// Calls fn(line, number) for each line (number from 1), without its line end.
template <typename Fn>
void ForEachLine(std::string_view text, Fn fn) {
  std::int64_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(line, ++number);
    start = end + 1;
  }
}
// A number at the start of `s` (leading blanks skipped; thousands commas allowed: "6,543"); NAN if none. *used:
// characters consumed (optional).
double LeadingNumber(std::string_view s, std::size_t* used = nullptr);
// "YYYY-MM-DD HH:MM:SS" (then ".ffffff" or ",mmm") at s[at]: seconds, NAN if not one.
double LogTimestamp(std::string_view s, std::size_t at);
// The value after "key:" in a " | key: value | " line (NAN when absent or not a number).
double FieldAfter(std::string_view line, std::string_view key);
// ANSI colour codes (ESC [ ... m) removed.
std::string StripAnsi(std::string_view line);

// The format readers: each returns whether it found any line of its format (trace->format is then set).
bool ReadMegatronLog(std::string_view text, LogTrace* trace);   // Megatron-LM and NeMo
bool ReadTorchtitanLog(std::string_view text, LogTrace* trace);
bool ReadHfTrainerState(const std::string& text, LogTrace* trace, Message* refusal);

}  // namespace gpucost
