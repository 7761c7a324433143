// log_read.cpp — a log's trace made into a run record (log_read.h): the format, then the run.
//
// [SECTION] Text helpers   [SECTION] The run from a trace   [SECTION] Reading
#include "evidence/log_read.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "evidence/log_trace.h"
#include "base/format.h"
#include "base/text_safety.h"
#include "scenario/json_io.h"
#include "hardware/probe.h"

namespace gpucost {

// [SECTION] Text helpers -------------------------------------------------------------------------------

double LeadingNumber(std::string_view s, std::size_t* used) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  char buf[64];
  std::size_t n = 0;
  const std::size_t start = i;
  for (; i < s.size() && n + 1 < sizeof buf; ++i) {
    const char c = s[i];
    const bool digit = c >= '0' && c <= '9';
    if (c == ',' && n > 0 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') continue;  // "6,543"
    if (!digit && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') break;
    if ((c == 'e' || c == 'E') && n == 0) break;
    buf[n++] = c;
  }
  buf[n] = '\0';
  char* end = nullptr;
  const double v = std::strtod(buf, &end);
  if (n == 0 || end == buf) return NAN;
  if (used) {  // characters of s the number took (commas included)
    std::size_t taken = 0, k = start;
    for (; k < s.size() && taken < static_cast<std::size_t>(end - buf); ++k)
      if (s[k] != ',') ++taken;
    *used = k;
  }
  return v;
}

double LogTimestamp(std::string_view s, std::size_t at) {
  // YYYY-MM-DD HH:MM:SS as if UTC: only differences are used.
  if (at + 19 > s.size() || s[at + 4] != '-' || s[at + 7] != '-' || s[at + 10] != ' ' || s[at + 13] != ':' || s[at + 16] != ':')
    return NAN;
  std::string iso(s.substr(at, 19));
  iso[10] = 'T';
  std::size_t i = at + 19;
  double frac = 0, scale = 0.1;
  if (i < s.size() && (s[i] == '.' || s[i] == ','))
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10) frac += (s[i] - '0') * scale;
  const auto t = ParseUtcSeconds(iso + "Z");
  return t ? *t + frac : NAN;
}

double FieldAfter(std::string_view line, std::string_view key) {
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) return NAN;
  std::size_t i = at + key.size();
  while (i < line.size() && line[i] == ' ') ++i;
  if (i >= line.size() || line[i] != ':') return NAN;
  return LeadingNumber(line.substr(i + 1));
}

std::string StripAnsi(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
      continue;
    }
    out += line[i];
  }
  return out;
}

// [SECTION] The run from a trace -----------------------------------------------------------------------

namespace {

double TraceMedian(std::vector<double> v) { return SampleMedian(std::move(v)); }

// Seconds a step takes: the lines' own step times, else the timestamps of consecutive lines.
double TraceStepSeconds(const LogTrace& t) {
  std::vector<double> own, stamped;
  for (std::size_t i = 0; i < t.points.size(); ++i) {
    own.push_back(t.points[i].step_seconds);
    if (i == 0) continue;
    const LogPoint &a = t.points[i - 1], &b = t.points[i];
    if (b.step > a.step && b.t > a.t) stamped.push_back((b.t - a.t) / (b.step - a.step));
  }
  const double m = TraceMedian(own);
  return std::isfinite(m) ? m : TraceMedian(stamped);
}

// Steps between logged lines (the log interval).
double TraceLogInterval(const LogTrace& t) {
  std::vector<double> d;
  for (std::size_t i = 1; i < t.points.size(); ++i)
    if (t.points[i].step > t.points[i - 1].step) d.push_back(t.points[i].step - t.points[i - 1].step);
  const double m = TraceMedian(d);
  return std::isfinite(m) ? m : 1;
}

const LogLoad* TraceLoadBefore(const LogTrace& t, std::size_t point) {
  const LogLoad* found = nullptr;
  for (const LogLoad& l : t.loads)
    if (l.before_point == point) found = &l;
  return found;
}

// TraceRestarts: the step going back, or a checkpoint loaded between two lines.
std::vector<RunInterruption> TraceRestarts(const LogTrace& t, double step_s, bool stamped, double first_interval_s) {
  std::vector<RunInterruption> out;
  const double interval = TraceLogInterval(t);
  double elapsed_s = first_interval_s;  // without timestamps: the logged time so far
  for (std::size_t i = 1; i < t.points.size(); ++i) {
    const LogPoint &a = t.points[i - 1], &b = t.points[i];
    const LogLoad* load = TraceLoadBefore(t, i);
    const bool restart = b.step <= a.step || load != nullptr;
    if (!restart) {
      elapsed_s += (b.step - a.step) * step_s;
      continue;
    }
    RunInterruption x;
    x.cause = InterruptionCause::kUnknown;  // a log does not say why a job restarted
    double lost_s;
    if (stamped) {
      lost_s = (b.t - a.t) - (b.step - a.step) * step_s;
      x.at_hours = (a.t - t.points.front().t + first_interval_s) / 3600;
    } else {  // the iterations redone since the checkpoint; the recovery itself is not in the log
      const double resume = load ? load->step : b.step - interval;
      lost_s = (a.step - resume) * step_s;
      x.at_hours = elapsed_s / 3600;
      elapsed_s += std::max(0.0, lost_s) + (b.step - resume) * step_s;
    }
    x.lost_hours = std::max(0.0, lost_s) / 3600;
    out.push_back(x);
  }
  return out;
}

void RecordThroughput(const LogTrace& t, std::int64_t seq, RunRecord* r) {
  if (t.format == LogFormat::kTorchtitan) {
    if (r->gpus <= 0) {
      r->source.not_read.push_back({"log.nr.tps_gpus", {}});
      return;
    }
    for (const LogPoint& p : t.points) r->tokens_per_second.push_back(p.tps_per_gpu * static_cast<double>(r->gpus));
    return;
  }
  if (t.format == LogFormat::kHfTrainerState && t.tokens_seen > 0 && t.runtime_s > 0) {
    r->tokens_per_second.push_back(t.tokens_seen / t.runtime_s);
    if (!t.points.empty() && t.points.back().batch >= 1) r->global_batch = static_cast<std::int64_t>(t.points.back().batch);
    return;
  }
  bool constant = true;
  double batch = NAN;
  for (const LogPoint& p : t.points) {
    if (std::isnan(p.batch)) continue;
    if (!std::isnan(batch) && p.batch != batch) constant = false;
    batch = p.batch;
  }
  if (!constant && seq > 0) {  // a batch ramp-up: each line's own tokens per second
    for (const LogPoint& p : t.points)
      if (p.batch > 0 && p.step_seconds > 0) r->tokens_per_second.push_back(p.batch * static_cast<double>(seq) / p.step_seconds);
    return;
  }
  for (const LogPoint& p : t.points)
    if (p.step_seconds > 0) r->step_seconds.push_back(p.step_seconds);
  if (batch >= 1) r->global_batch = static_cast<std::int64_t>(batch);
  if (!constant) r->source.not_read.push_back({"log.nr.batch_varies", {}});
  if (r->step_seconds.empty() || !r->global_batch) r->source.not_read.push_back({"log.nr.rate", {}});
}

void RecordHardware(const LogTrace& t, const LogHints& h, RunRecord* r) {
  RunSource& src = r->source;
  if (h.gpus > 0) {
    r->gpus = h.gpus;
    if (t.world_size > 0 && t.world_size != h.gpus)
      src.read.push_back({"log.read.gpus_given", {std::to_string(h.gpus), std::to_string(t.world_size)}});
  } else if (t.world_size > 0) {
    r->gpus = t.world_size;
    src.read.push_back({"log.read.world", {std::to_string(t.world_size)}});
  } else {
    src.not_read.push_back({"log.nr.gpus", {}});
  }
  if (!h.gpu.empty()) {
    r->gpu = h.gpu;
  } else if (!t.gpu_name.empty()) {
    r->gpu = MatchCatalogGpu(t.gpu_name, t.gpu_memory_gib * 1.073741824);
    if (!r->gpu.empty()) src.read.push_back({"log.read.gpu", {t.gpu_name, r->gpu}});
    else src.not_read.push_back({"log.nr.gpu_unknown", {t.gpu_name}});
  } else {
    src.not_read.push_back({"log.nr.gpu", {}});
  }
}

void RecordWork(const LogTrace& t, std::int64_t seq, RunRecord* r) {
  RunSource& src = r->source;
  if (seq > 0) r->seq_len = seq;
  if (t.tokens_seen > 0) {
    r->tokens = t.tokens_seen;
    src.read.push_back({"log.read.tokens_seen", {FormatCount(t.tokens_seen)}});
  } else if (!t.points.empty() && t.points.back().consumed > 0 && seq > 0) {
    r->tokens = t.points.back().consumed * static_cast<double>(seq);
    src.read.push_back({"log.read.tokens", {FormatCount(*r->tokens), FormatCount(t.points.back().consumed), std::to_string(seq)}});
  } else {
    src.not_read.push_back({seq > 0 || t.format == LogFormat::kTorchtitan ? "log.nr.tokens" : "log.nr.seq_len", {}});
  }
}

void RecordCheckpoints(const LogTrace& t, RunRecord* r) {
  if (t.format == LogFormat::kHfTrainerState || t.format == LogFormat::kNemo) {
    r->source.not_read.push_back({"log.nr.checkpoints_format", {}});
    return;
  }
  if (t.checkpoint_saves == 0) {
    r->source.not_read.push_back({"log.nr.checkpoints", {}});
    return;
  }
  RunRecord::Checkpoints c;
  c.count = t.checkpoint_saves;
  const double w = TraceMedian(t.checkpoint_seconds);
  if (std::isfinite(w)) c.write_seconds = w;
  r->checkpoints = c;
  if (c.write_seconds)
    r->source.read.push_back({"log.read.checkpoints", {std::to_string(t.checkpoint_saves), FormatNumber(w, 4),
                                                        std::to_string(t.checkpoint_seconds.size())}});
  else
    r->source.not_read.push_back({"log.nr.checkpoint_time", {std::to_string(t.checkpoint_saves)}});
}

// Wall time, restarts and the time they lost.
void RecordTimeline(const LogTrace& t, RunRecord* r) {
  RunSource& src = r->source;
  if (t.format == LogFormat::kHfTrainerState) {
    if (t.runtime_s > 0) r->wall_hours = t.runtime_s / 3600;
    return;
  }
  const double step_s = TraceStepSeconds(t);
  bool stamped = t.points.size() >= 2;
  for (const LogPoint& p : t.points) stamped = stamped && std::isfinite(p.t);
  const LogLoad* first_load = TraceLoadBefore(t, 0);
  const double first_steps = t.points.front().step - (first_load ? first_load->step : 0);
  const double first_step_s = std::isfinite(t.points.front().step_seconds) ? t.points.front().step_seconds : step_s;
  const double first_interval_s = std::isfinite(first_step_s) ? std::max(0.0, first_steps) * first_step_s : 0;
  if (stamped && t.points.back().t > t.points.front().t) {
    r->wall_hours = (t.points.back().t - t.points.front().t + first_interval_s) / 3600;
    src.read.push_back({"log.read.wall", {FormatNumber(*r->wall_hours, 4)}});
  } else {
    src.not_read.push_back({"log.nr.wall", {}});
  }
  if (!std::isfinite(step_s)) return;
  r->interruptions = TraceRestarts(t, step_s, stamped && r->wall_hours.has_value(), first_interval_s);
  double lost = 0;
  for (const RunInterruption& x : *r->interruptions) lost += *x.lost_hours;
  if (r->interruptions->empty()) src.read.push_back({"log.read.no_restarts", {}});
  else src.read.push_back({"log.read.restarts", {std::to_string(r->interruptions->size()), FormatNumber(lost, 4)}});
}

void RecordSummary(const LogTrace& t, RunRecord* r) {
  RunSource& src = r->source;
  src.lines = t.lines;
  if (!t.points.empty() && t.format != LogFormat::kHfTrainerState)
    src.read.insert(src.read.begin(), Message{"log.read.lines", {std::to_string(t.points.size()), FormatCount(t.points.front().step),
                                                                 FormatCount(t.points.back().step)}});
  const double step_s = TraceMedian([&] {
    std::vector<double> v;
    for (const LogPoint& p : t.points) v.push_back(p.step_seconds);
    return v;
  }());
  if (std::isfinite(step_s)) src.read.push_back({"log.read.step", {FormatNumber(step_s, 4)}});
  std::vector<double> tps, mfu;
  for (const LogPoint& p : t.points) tps.push_back(p.tps_per_gpu), mfu.push_back(p.mfu);
  if (std::isfinite(TraceMedian(tps))) src.read.push_back({"log.read.tps", {FormatCount(std::round(TraceMedian(tps)))}});
  if (std::isfinite(TraceMedian(mfu))) src.read.push_back({"log.read.mfu_reported", {FormatPercent(TraceMedian(mfu))}});
  if (t.bad_lines > 0) src.not_read.push_back({"log.nr.bad_lines", {std::to_string(t.bad_lines), std::to_string(t.first_bad_line)}});
  src.not_read.push_back({"log.nr.billing", {}});
}

RunRecord RecordFromTrace(const LogTrace& t, const std::string& file, const LogHints& h) {
  RunRecord r;
  r.source.format = LogFormatName(t.format);
  r.source.file = file;
  const std::int64_t seq = h.seq_len > 0 ? h.seq_len : t.seq_len;
  if (h.seq_len <= 0 && t.seq_len > 0) r.source.read.push_back({"log.read.seq", {std::to_string(t.seq_len)}});
  RecordHardware(t, h, &r);
  RecordWork(t, seq, &r);
  RecordThroughput(t, seq, &r);
  RecordTimeline(t, &r);
  RecordCheckpoints(t, &r);
  for (const Message& m : t.read) r.source.read.push_back(m);
  for (const Message& m : t.not_read) r.source.not_read.push_back(m);
  RecordSummary(t, &r);
  return r;
}

}  // namespace

// [SECTION] Reading ------------------------------------------------------------------------------------

const char* LogFormatName(LogFormat f) {
  switch (f) {
    case LogFormat::kMegatron: return "megatron";
    case LogFormat::kNemo: return "nemo";
    case LogFormat::kTorchtitan: return "torchtitan";
    case LogFormat::kHfTrainerState: return "hf_trainer_state";
    case LogFormat::kNone: break;
  }
  return "";
}

namespace {

// The trace of whichever format the text is in; *refusal says why none when it returns false.
bool TraceOf(const std::string& text, LogTrace* t, Message* refusal) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return *refusal = {"log.refuse.empty", {}}, false;
  if (!ValidUtf8(text)) return *refusal = {"log.refuse.binary", {}}, false;
  if (text[first] == '{') {  // ("[titan] ..." and "[2025-...]" lines start with '[')
    if (ReadHfTrainerState(text, t, refusal)) return true;
    if (refusal->empty()) *refusal = {"log.refuse.json_other", {}};
    return false;
  }
  if (ReadMegatronLog(text, t)) return true;
  LogTrace titan;
  if (ReadTorchtitanLog(text, &titan)) return *t = std::move(titan), true;
  const std::int64_t bad = std::max(t->bad_lines, titan.bad_lines);
  const std::int64_t line = t->bad_lines >= titan.bad_lines ? t->first_bad_line : titan.first_bad_line;
  *refusal = bad > 0 ? Message{"log.refuse.lines", {std::to_string(bad), std::to_string(line)}} : Message{"log.refuse.unknown", {}};
  return false;
}

}  // namespace

LogFormat DetectLogFormat(const std::string& text) {
  LogTrace t;
  Message refusal;
  return TraceOf(text, &t, &refusal) ? t.format : LogFormat::kNone;
}

LogRead ReadRunLog(const std::string& text, const std::string& file_name, const LogHints& hints) {
  LogRead out;
  LogTrace t;
  if (!TraceOf(text, &t, &out.refusal)) return out;
  out.ok = true;
  out.record = RecordFromTrace(t, file_name, hints);
  return out;
}

bool IsRunInput(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;
  if (text[first] == '{' && text.size() <= kMaxRunRecordBytes && CheckJsonDepth(text).empty()) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    // JSON that does not parse (a cut file) is a run's when it names itself one: the run reader says where it broke.
    if (doc.is_discarded()) return text.find(kRunSchema) != std::string::npos || text.find("\"log_history\"") != std::string::npos;
    if (!doc.is_object()) return false;
    if (doc.contains("schema")) return doc["schema"] == kRunSchema;
    if (doc.contains("log_history")) return true;
    // A record written without its schema: its own keys at the top, none of a scenario's sections.
    bool run_key = false;
    for (const char* k : {"gpu", "gpus", "wall_hours", "started_utc", "interruptions", "tokens_per_second", "step_seconds", "invoice"})
      run_key = run_key || doc.contains(k);
    for (const char* k : {"cluster", "workload", "pricing", "reliability", "parallel", "storage", "inference", "preset"})
      if (doc.contains(k)) return false;
    return run_key;
  }
  // A log: one of a format gpucost reads, or lines that look like one's but cannot be read (a log cut mid-line), so
  // the log reader's refusal ("6 lines look like iteration lines ...") is what the person sees, as the CLI says it.
  LogTrace t;
  Message refusal;
  return TraceOf(text, &t, &refusal) || refusal.key == "log.refuse.lines";
}

}  // namespace gpucost
