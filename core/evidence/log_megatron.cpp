// log_megatron.cpp — Megatron-LM's and NeMo 2's iteration lines into a trace (log_read.h names the sources).
#include <cstring>

#include "evidence/log_trace.h"

namespace gpucost {
namespace {

bool MgStartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view MgTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "iteration N/ M" at s[at]: N and M (NAN when not there).
bool MgIterationPair(std::string_view s, std::size_t at, double* n, double* total) {
  std::size_t used = 0;
  *n = LeadingNumber(s.substr(at), &used);
  if (std::isnan(*n)) return false;
  std::size_t slash = at + used;
  while (slash < s.size() && s[slash] == ' ') ++slash;
  if (slash >= s.size() || s[slash] != '/') return false;
  *total = LeadingNumber(s.substr(slash + 1));
  return !std::isnan(*total);
}

// The timestamp Megatron puts before "iteration": " [2025-06-01 10:00:00.123456] iteration ...".
double MgBracketTime(std::string_view line, std::size_t before) {
  const std::size_t open = line.rfind('[', before);
  return open == std::string_view::npos ? NAN : LogTimestamp(line, open + 1);
}

// One Megatron-LM iteration line (training.py training_log).
bool MgPoint(std::string_view line, LogPoint* p) {
  const std::size_t at = line.find("iteration ");
  if (at == std::string_view::npos) return false;
  double n, total;
  if (!MgIterationPair(line, at + 10, &n, &total)) return false;
  const double ms = FieldAfter(line, "elapsed time per iteration (ms)");
  if (std::isnan(ms)) return false;
  p->step = n;
  p->step_seconds = ms / 1000;
  p->batch = FieldAfter(line, "global batch size");
  p->consumed = FieldAfter(line, "consumed samples");
  p->t = MgBracketTime(line, at);
  return true;
}

// One NeMo 2 ProgressPrinter line: "Training epoch E, iteration N/M | key: value | ...". Its iteration counts
// from 0 (the step just done), so the steps completed are N + 1.
bool NemoPoint(std::string_view line, LogPoint* p) {
  const std::size_t at = line.find("Training epoch ");
  if (at == std::string_view::npos) return false;
  const std::size_t it = line.find(", iteration ", at);
  if (it == std::string_view::npos) return false;
  double n, total;
  if (!MgIterationPair(line, it + 12, &n, &total)) return false;
  const double s = FieldAfter(line, "train_step_timing in s");
  if (std::isnan(s)) return false;
  p->step = n + 1;
  p->step_seconds = s;
  p->batch = FieldAfter(line, "global_batch_size");
  p->consumed = FieldAfter(line, "consumed_samples");
  return true;
}

// "  seq_length ...................................... 4096" (arguments.py _print_args).
void MgArgument(std::string_view line, LogTrace* t) {
  const std::string_view s = MgTrim(line);
  for (const char* key : {"seq_length", "world_size"}) {
    const std::size_t k = std::strlen(key);
    if (!MgStartsWith(s, key) || s.size() < k + 3 || s[k] != ' ' || s[k + 1] != '.') continue;
    const std::size_t value = s.find_first_not_of(". ", k);
    if (value == std::string_view::npos) continue;
    const double v = LeadingNumber(s.substr(value));
    if (!(v >= 1 && v <= 1e8) || v != std::floor(v)) continue;
    (key[0] == 's' ? t->seq_len : t->world_size) = static_cast<std::int64_t>(v);
  }
  if (const std::size_t w = line.find("using world size: "); w != std::string_view::npos) {
    const double v = LeadingNumber(line.substr(w + 18));
    if (v >= 1 && v <= 1e8 && v == std::floor(v)) t->world_size = static_cast<std::int64_t>(v);
  }
}

// MgCheckpoint lines: saved, loaded, and the save timer "save-checkpoint ....: (min, max)" (ms; timers.py).
void MgCheckpoint(std::string_view line, LogTrace* t) {
  if (line.find("successfully saved checkpoint") != std::string_view::npos) {
    ++t->checkpoint_saves;
    return;
  }
  if (line.find("successfully loaded checkpoint") != std::string_view::npos) {
    const std::size_t at = line.rfind("at iteration ");
    const double step = at == std::string_view::npos ? NAN : LeadingNumber(line.substr(at + 13));
    if (!std::isnan(step)) t->loads.push_back({step, t->points.size()});
    return;
  }
  const std::size_t timer = line.find("save-checkpoint");
  if (timer == std::string_view::npos) return;
  const std::size_t colon = line.find(':', timer);
  if (colon == std::string_view::npos) return;
  std::string_view rest = MgTrim(line.substr(colon + 1));
  double ms = NAN;
  if (!rest.empty() && rest.front() == '(') {  // (min, max): the slowest rank held the step
    const std::size_t comma = rest.find(',');
    if (comma != std::string_view::npos) ms = LeadingNumber(rest.substr(comma + 1));
  } else {
    ms = LeadingNumber(rest);
  }
  if (ms >= 0) t->checkpoint_seconds.push_back(ms / 1000);
}

}  // namespace

bool ReadMegatronLog(std::string_view text, LogTrace* t) {
  ForEachLine(text, [t](std::string_view line, std::int64_t number) {
    LogPoint p;
    const bool nemo = line.find("Training epoch ") != std::string_view::npos;
    if (nemo ? NemoPoint(line, &p) : MgPoint(line, &p)) {
      if (t->format == LogFormat::kNone) t->format = nemo ? LogFormat::kNemo : LogFormat::kMegatron;
      t->points.push_back(p);
      ++t->lines;
      return;
    }
    // A line of the format that did not read (cut off, or a field missing): counted, never guessed.
    const bool looks = (line.find(" iteration ") != std::string_view::npos && line.find('|') != std::string_view::npos &&
                        line.find("elapsed time per iteration") != std::string_view::npos) ||
                       (nemo && line.find(", iteration ") != std::string_view::npos);
    if (looks) {
      if (t->bad_lines++ == 0) t->first_bad_line = number;
      return;
    }
    MgArgument(line, t);
    MgCheckpoint(line, t);
  });
  if (!t->checkpoint_seconds.empty())
    t->checkpoint_saves = std::max<std::int64_t>(t->checkpoint_saves, static_cast<std::int64_t>(t->checkpoint_seconds.size()));
  return t->format != LogFormat::kNone;
}

}  // namespace gpucost
