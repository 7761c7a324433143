// run_record.cpp — the run record (run_record.h): parse, validate, write.
//
// [SECTION] Names and times   [SECTION] RunReader   [SECTION] Validation   [SECTION] Writer
#include "evidence/run_record.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "scenario/fields.h"
#include "base/format.h"

namespace gpucost {
namespace {

using json = nlohmann::json;

// [SECTION] Names and times ----------------------------------------------------------------------------

const char* const kCauseNames[] = {"failure", "hardware", "software", "network", "unknown", "preemption", "planned"};
constexpr int kRunCauseCount = 7;

// Days from 1970-01-01 to year/month/day (proleptic Gregorian; Howard Hinnant's days_from_civil).
long RunDaysFromCivil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

bool RunDigits(const std::string& t, std::size_t at, std::size_t n, int* out) {
  if (at + n > t.size()) return false;
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (t[i] < '0' || t[i] > '9') return false;
    v = v * 10 + (t[i] - '0');
  }
  *out = v;
  return true;
}

// [SECTION] RunReader -------------------------------------------------------------------------------------

struct RunReader {
  std::vector<InputError>* errors;

  void Error(const std::string& path, Message m) const { errors->push_back(CodedError(path, std::move(m))); }
  static std::string At(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }

  // A number within [min, max] ((min, max] when min_exclusive).
  std::optional<double> Value(const json& v, const std::string& at, double min, double max, bool min_exclusive) const {
    const MessageParam range = NumberRangeMessage(FormatBound(min), FormatBound(max), min_exclusive);
    if (!v.is_number()) {
      Error(at, {"fmt.expected", {range}});
      return std::nullopt;
    }
    const double x = v.get<double>();
    if (!std::isfinite(x) || (min_exclusive ? !(x > min) : !(x >= min)) || x > max) {
      Error(at, {"msg.must_be", {range, FormatParam("%.17g", x)}});
      return std::nullopt;
    }
    return x;
  }
  std::optional<double> Number(const json& obj, const char* key, const std::string& path, double min, double max,
                               bool min_exclusive = false) const {
    auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    return Value(*it, At(path, key), min, max, min_exclusive);
  }
  std::optional<std::int64_t> Integer(const json& obj, const char* key, const std::string& path, double min, double max) const {
    auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    const std::string at = At(path, key);
    const MessageParam range = MessageParam::Key("msg.range_integer", {FormatBound(min), FormatBound(max)});
    if (!it->is_number()) {
      Error(at, {"fmt.expected", {range}});
      return std::nullopt;
    }
    const double x = it->get<double>();
    if (!std::isfinite(x) || x != std::floor(x) || x < min || x > max) {
      Error(at, {"msg.must_be", {range, FormatParam("%.17g", x)}});
      return std::nullopt;
    }
    return static_cast<std::int64_t>(x);
  }
  bool Text(const json& obj, const char* key, const std::string& path, std::size_t max_bytes, std::string* out) const {
    auto it = obj.find(key);
    if (it == obj.end()) return false;
    if (!it->is_string() || it->get<std::string>().size() > max_bytes) {
      Error(At(path, key), {"fmt.expected", {MessageParam::Key("msg.range_text", {std::to_string(max_bytes)})}});
      return false;
    }
    *out = it->get<std::string>();
    return true;
  }
  const json* Object(const json& obj, const char* key, const std::string& path) const {
    auto it = obj.find(key);
    if (it == obj.end()) return nullptr;
    if (!it->is_object()) {
      Error(At(path, key), {"run.object", {}});
      return nullptr;
    }
    return &*it;
  }
  void Keys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool known = false;
      for (const char* k : allowed) known = known || it.key() == k;
      if (!known) Error(At(path, it.key().c_str()), {"run.unknown_key", {}});
    }
  }
  // A number or a list of numbers (samples), each within (0, max].
  void Samples(const json& obj, const char* key, double max, std::vector<double>* out) const {
    auto it = obj.find(key);
    if (it == obj.end()) return;
    if (it->is_number()) {
      if (auto v = Value(*it, key, 0, max, true)) out->push_back(*v);
      return;
    }
    if (!it->is_array() || it->empty() || it->size() > kMaxRunSamples) {
      Error(key, {"run.samples", {std::to_string(kMaxRunSamples)}});
      return;
    }
    for (std::size_t i = 0; i < it->size(); ++i)
      if (auto v = Value((*it)[i], std::string(key) + "[" + std::to_string(i) + "]", 0, max, true)) out->push_back(*v);
  }
};

void RunReadInvoice(const RunReader& rd, const json& doc, RunRecord* r) {
  const json* inv = rd.Object(doc, "invoice", "");
  if (!inv) return;
  rd.Keys(*inv, "invoice", {"amount", "currency", "includes_tax"});
  RunRecord::Invoice v;
  const auto amount = rd.Number(*inv, "amount", "invoice", 0, 1e15);
  if (!inv->contains("amount")) rd.Error("invoice.amount", {"run.required", {}});
  if (rd.Text(*inv, "currency", "invoice", 8, &v.currency) && v.currency != "USD" && v.currency != "KRW")
    rd.Error("invoice.currency", {"msg.must_be", {MessageParam::Key("msg.range_one_of", {"USD, KRW"}), v.currency}});
  if (auto it = inv->find("includes_tax"); it != inv->end()) {
    if (it->is_boolean()) v.includes_tax = it->get<bool>();
    else rd.Error("invoice.includes_tax", {"fmt.expected", {MessageParam::Key("msg.range_bool")}});
  }
  if (amount) {
    v.amount = *amount;
    r->invoice = v;
  }
}

void RunReadInterruptions(const RunReader& rd, const json& doc, RunRecord* r) {
  auto it = doc.find("interruptions");
  if (it == doc.end()) return;
  if (!it->is_array() || it->size() > kMaxRunInterruptions) {
    rd.Error("interruptions", {"run.list", {std::to_string(kMaxRunInterruptions)}});
    return;
  }
  std::vector<RunInterruption> list;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const std::string at = "interruptions[" + std::to_string(i) + "]";
    const json& e = (*it)[i];
    if (!e.is_object()) {
      rd.Error(at, {"run.object", {}});
      continue;
    }
    rd.Keys(e, at, {"at_hours", "lost_hours", "cause"});
    RunInterruption x;
    x.at_hours = rd.Number(e, "at_hours", at, 0, 1e6);
    x.lost_hours = rd.Number(e, "lost_hours", at, 0, 1e6);
    std::string cause;
    if (rd.Text(e, "cause", at, 64, &cause)) {
      int found = -1;
      for (int c = 0; c < kRunCauseCount; ++c)
        if (cause == kCauseNames[c]) found = c;
      std::string names;
      for (int c = 0; c < kRunCauseCount; ++c) names += (c ? ", " : "") + std::string(kCauseNames[c]);
      if (found < 0) rd.Error(at + ".cause", {"msg.must_be", {MessageParam::Key("msg.range_one_of", {names}), cause}});
      else x.cause = static_cast<InterruptionCause>(found);
    }
    list.push_back(x);
  }
  r->interruptions = std::move(list);
}

void RunReadPercentiles(const RunReader& rd, const json& doc, const char* key, LatencyPercentiles* out) {
  const json* p = rd.Object(doc, key, "");
  if (!p) return;
  rd.Keys(*p, key, {"p50", "p90", "p99"});
  out->p50 = rd.Number(*p, "p50", key, 0, 1e9, true);
  out->p90 = rd.Number(*p, "p90", key, 0, 1e9, true);
  out->p99 = rd.Number(*p, "p99", key, 0, 1e9, true);
}

void RunReadSource(const RunReader& rd, const json& doc, RunRecord* r) {
  // Written by `gpucost log`: read back as it is (the format and counts; the messages are the reader's).
  const json* s = rd.Object(doc, "source", "");
  if (!s) return;
  rd.Keys(*s, "source", {"format", "file", "lines", "read", "not_read"});
  rd.Text(*s, "format", "source", 64, &r->source.format);
  rd.Text(*s, "file", "source", 4096, &r->source.file);
  if (auto n = rd.Integer(*s, "lines", "source", 0, 1e12)) r->source.lines = *n;
  for (const char* list : {"read", "not_read"}) {
    auto it = s->find(list);
    if (it == s->end()) continue;
    if (!it->is_array()) {
      rd.Error(std::string("source.") + list, {"run.list", {std::to_string(kMaxRunInterruptions)}});
      continue;
    }
    for (const json& m : *it) {
      if (!m.is_object() || !m.contains("key") || !m["key"].is_string()) continue;
      Message msg{m["key"].get<std::string>(), {}};
      if (m.contains("params") && m["params"].is_array())
        for (const json& p : m["params"])
          if (p.is_string()) msg.params.emplace_back(p.get<std::string>());
      (std::strcmp(list, "read") == 0 ? r->source.read : r->source.not_read).push_back(std::move(msg));
    }
  }
  if (r->source.format.empty()) rd.Error("source.format", {"run.required", {}});
}

void RunReadRecord(const RunReader& rd, const json& doc, RunRecord* r) {
  rd.Keys(doc, "", {"schema", "gpu", "gpus", "wall_hours", "started_utc", "ended_utc", "billed_gpu_hours", "invoice",
                    "tokens", "tokens_per_second", "step_seconds", "global_batch", "seq_len", "interruptions",
                    "checkpoints", "idle_gpu_hours", "notes", "requests", "output_tokens", "ttft_ms", "tpot_ms",
                    "replica_hours", "source"});
  if (auto it = doc.find("schema"); it != doc.end() && *it != kRunSchema) rd.Error("schema", {"msg.schema", {kRunSchema}});
  if (!doc.contains("gpu")) rd.Error("gpu", {"run.required", {}});
  if (!doc.contains("gpus")) rd.Error("gpus", {"run.required", {}});
  rd.Text(doc, "gpu", "", kTextCapacity - 1, &r->gpu);
  if (auto g = rd.Integer(doc, "gpus", "", 1, 1e7)) r->gpus = *g;
  r->wall_hours = rd.Number(doc, "wall_hours", "", 0, 1e6, true);
  rd.Text(doc, "started_utc", "", 64, &r->started_utc);
  rd.Text(doc, "ended_utc", "", 64, &r->ended_utc);
  r->billed_gpu_hours = rd.Number(doc, "billed_gpu_hours", "", 0, 1e12);
  RunReadInvoice(rd, doc, r);
  r->tokens = rd.Number(doc, "tokens", "", 0, 1e17);
  rd.Samples(doc, "tokens_per_second", 1e13, &r->tokens_per_second);
  rd.Samples(doc, "step_seconds", 1e6, &r->step_seconds);
  r->global_batch = rd.Integer(doc, "global_batch", "", 1, 1e9);
  r->seq_len = rd.Integer(doc, "seq_len", "", 1, 1e8);
  RunReadInterruptions(rd, doc, r);
  if (const json* c = rd.Object(doc, "checkpoints", "")) {
    rd.Keys(*c, "checkpoints", {"count", "write_seconds"});
    RunRecord::Checkpoints k;
    k.count = rd.Integer(*c, "count", "checkpoints", 0, 1e9);
    k.write_seconds = rd.Number(*c, "write_seconds", "checkpoints", 0, 1e6);
    r->checkpoints = k;
  }
  r->idle_gpu_hours = rd.Number(doc, "idle_gpu_hours", "", 0, 1e12);
  rd.Text(doc, "notes", "", 16000, &r->notes);
  r->requests = rd.Number(doc, "requests", "", 0, 1e15);
  r->output_tokens = rd.Number(doc, "output_tokens", "", 0, 1e18);
  r->replica_hours = rd.Number(doc, "replica_hours", "", 0, 1e9);
  RunReadPercentiles(rd, doc, "ttft_ms", &r->ttft_ms);
  RunReadPercentiles(rd, doc, "tpot_ms", &r->tpot_ms);
  RunReadSource(rd, doc, r);
}

// [SECTION] Validation ---------------------------------------------------------------------------------

void RunCheckTimes(const RunRecord& r, std::vector<InputError>* e) {
  std::optional<double> start, end;
  if (!r.started_utc.empty() && !(start = ParseUtcSeconds(r.started_utc)))
    e->push_back(CodedError("started_utc", {"run.utc", {r.started_utc}}));
  if (!r.ended_utc.empty() && !(end = ParseUtcSeconds(r.ended_utc)))
    e->push_back(CodedError("ended_utc", {"run.utc", {r.ended_utc}}));
  if (r.started_utc.empty() != r.ended_utc.empty())
    e->push_back(CodedError(r.started_utc.empty() ? "started_utc" : "ended_utc", {"run.utc_pair", {}}));
  if (!start || !end) return;
  const double hours = (*end - *start) / 3600;
  if (!(hours > 0)) {
    e->push_back(CodedError("ended_utc", {"run.utc_order", {r.started_utc}}));
    return;
  }
  // Both given: they must agree (to a minute or 0.1%), or which one is meant is unknown.
  if (r.wall_hours && std::fabs(*r.wall_hours - hours) > std::max(1.0 / 60, 1e-3 * hours))
    e->push_back(CodedError("wall_hours", {"run.wall_disagrees", {FormatParam("%.6g", *r.wall_hours), FormatParam("%.6g", hours)}}));
}

}  // namespace

const char* InterruptionCauseName(InterruptionCause c) {
  const int i = static_cast<int>(c);
  return i >= 0 && i < kRunCauseCount ? kCauseNames[i] : "";
}

bool IsFailure(InterruptionCause c) { return c != InterruptionCause::kPreemption && c != InterruptionCause::kPlanned; }

std::optional<double> ParseUtcSeconds(const std::string& t) {
  int y, mo, d, h, mi, s;
  if (t.size() < 20 || !RunDigits(t, 0, 4, &y) || t[4] != '-' || !RunDigits(t, 5, 2, &mo) || t[7] != '-' ||
      !RunDigits(t, 8, 2, &d) || (t[10] != 'T' && t[10] != ' ') || !RunDigits(t, 11, 2, &h) || t[13] != ':' ||
      !RunDigits(t, 14, 2, &mi) || t[16] != ':' || !RunDigits(t, 17, 2, &s))
    return std::nullopt;
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1] || h > 23 || mi > 59 || s > 60) return std::nullopt;
  std::size_t i = 19;
  double frac = 0;
  if (i < t.size() && t[i] == '.') {
    double scale = 0.1;
    std::size_t digits = 0;
    for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++digits, scale /= 10) frac += (t[i] - '0') * scale;
    if (digits == 0) return std::nullopt;
  }
  double offset_s = 0;
  if (i < t.size() && (t[i] == 'Z' || t[i] == 'z') && i + 1 == t.size()) {
    // UTC
  } else if (i + 6 == t.size() && (t[i] == '+' || t[i] == '-') && t[i + 3] == ':') {
    int oh, om;
    if (!RunDigits(t, i + 1, 2, &oh) || !RunDigits(t, i + 4, 2, &om) || oh > 23 || om > 59) return std::nullopt;
    offset_s = (t[i] == '+' ? 1 : -1) * (oh * 3600.0 + om * 60.0);
  } else {
    return std::nullopt;  // no zone: local time of an unknown place
  }
  const double days = static_cast<double>(RunDaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)));
  return days * 86400 + h * 3600.0 + mi * 60.0 + s + frac - offset_s;
}

double SampleMedian(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return NAN;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2) return hi;
  return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + static_cast<long>(mid)));
}

std::optional<double> RunWallHours(const RunRecord& r) {
  if (r.wall_hours) return r.wall_hours;
  const auto start = ParseUtcSeconds(r.started_utc), end = ParseUtcSeconds(r.ended_utc);
  if (start && end && *end > *start) return (*end - *start) / 3600;
  return std::nullopt;
}

std::vector<InputError> ValidateRunRecord(const RunRecord& r) {
  std::vector<InputError> e;
  if (r.gpu.empty()) e.push_back(CodedError("gpu", {"run.required", {}}));
  else if (!FindGpu(r.gpu.c_str())) {
    std::string ids;
    for (std::size_t i = 0; i < GpuCount(); ++i) ids += (i ? ", " : "") + Gpus()[i].id;
    e.push_back(CodedError("gpu", {"msg.unknown_gpu", {r.gpu, ids}}));
  }
  if (r.gpus < 1) e.push_back(CodedError("gpus", {"run.required", {}}));
  RunCheckTimes(r, &e);
  // Only one way to give the throughput: two would have to agree.
  if (!r.tokens_per_second.empty() && !r.step_seconds.empty())
    e.push_back(CodedError("step_seconds", {"run.one_rate", {}}));
  if (!r.step_seconds.empty() && !r.global_batch)
    e.push_back(CodedError("global_batch", {"run.step_needs_batch", {}}));
  return e;
}

RunParse ParseRunRecordJson(const std::string& text) {
  RunParse out;
  if (text.size() > kMaxRunRecordBytes) {
    out.errors.push_back(CodedError("", {"run.too_large", {std::to_string(kMaxRunRecordBytes >> 20)}}));
    return out;
  }
  if (!CheckJsonDepth(text).empty()) {
    out.errors.push_back(CodedError("", {"msg.too_deep", {std::to_string(kMaxJsonDepth)}}));
    return out;
  }
  if (const std::string dup = DuplicateKeyPath(text); !dup.empty()) {
    out.errors.push_back(CodedError(dup, {"msg.duplicate_key", {}}));
    return out;
  }
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const std::exception& e) {  // where it broke (a paste cut short, a typo), as a scenario's JSON is told
    const std::string what = e.what();
    const std::size_t at = what.find("parse error");
    out.errors.push_back(CodedError("", {"msg.malformed_json", {at == std::string::npos ? what : what.substr(at)}}));
    return out;
  }
  if (!doc.is_object()) {
    out.errors.push_back(CodedError("", {"run.not_object", {}}));
    return out;
  }
  const RunReader rd{&out.errors};
  RunReadRecord(rd, doc, &out.record);
  if (out.errors.empty()) out.errors = ValidateRunRecord(out.record);
  return out;
}

// [SECTION] Writer -------------------------------------------------------------------------------------

namespace {

using ojson = nlohmann::ordered_json;

ojson RunMessagesJson(const std::vector<Message>& list) {
  ojson out = ojson::array();
  for (const Message& m : list)
    out.push_back({{"key", m.key}, {"params", MessageParamsJson(m.params)}, {"message", m.Text(Lang::kEn)}});
  return out;
}

ojson RunPercentilesJson(const LatencyPercentiles& p) {
  ojson out = ojson::object();
  if (p.p50) out["p50"] = *p.p50;
  if (p.p90) out["p90"] = *p.p90;
  if (p.p99) out["p99"] = *p.p99;
  return out;
}

}  // namespace

std::string RunRecordToJson(const RunRecord& r, int indent) {
  ojson d = ojson::object();  // in the order of run_record.h, schema first
  d["schema"] = kRunSchema;
  d["gpu"] = r.gpu;
  d["gpus"] = r.gpus;
  if (r.wall_hours) d["wall_hours"] = *r.wall_hours;
  if (!r.started_utc.empty()) d["started_utc"] = r.started_utc;
  if (!r.ended_utc.empty()) d["ended_utc"] = r.ended_utc;
  if (r.billed_gpu_hours) d["billed_gpu_hours"] = *r.billed_gpu_hours;
  if (r.invoice)
    d["invoice"] = {{"amount", r.invoice->amount}, {"currency", r.invoice->currency}, {"includes_tax", r.invoice->includes_tax}};
  if (r.tokens) d["tokens"] = *r.tokens;
  if (!r.tokens_per_second.empty()) d["tokens_per_second"] = r.tokens_per_second;
  if (!r.step_seconds.empty()) d["step_seconds"] = r.step_seconds;
  if (r.global_batch) d["global_batch"] = *r.global_batch;
  if (r.seq_len) d["seq_len"] = *r.seq_len;
  if (r.interruptions) {
    ojson list = ojson::array();
    for (const RunInterruption& i : *r.interruptions) {
      ojson e = {{"cause", InterruptionCauseName(i.cause)}};
      if (i.at_hours) e["at_hours"] = *i.at_hours;
      if (i.lost_hours) e["lost_hours"] = *i.lost_hours;
      list.push_back(e);
    }
    d["interruptions"] = list;
  }
  if (r.checkpoints) {
    ojson c = ojson::object();
    if (r.checkpoints->count) c["count"] = *r.checkpoints->count;
    if (r.checkpoints->write_seconds) c["write_seconds"] = *r.checkpoints->write_seconds;
    d["checkpoints"] = c;
  }
  if (r.idle_gpu_hours) d["idle_gpu_hours"] = *r.idle_gpu_hours;
  if (!r.notes.empty()) d["notes"] = r.notes;
  if (r.requests) d["requests"] = *r.requests;
  if (r.output_tokens) d["output_tokens"] = *r.output_tokens;
  if (r.ttft_ms.any()) d["ttft_ms"] = RunPercentilesJson(r.ttft_ms);
  if (r.tpot_ms.any()) d["tpot_ms"] = RunPercentilesJson(r.tpot_ms);
  if (r.replica_hours) d["replica_hours"] = *r.replica_hours;
  if (r.source.present())
    d["source"] = {{"format", r.source.format}, {"file", r.source.file}, {"lines", r.source.lines},
                   {"read", RunMessagesJson(r.source.read)}, {"not_read", RunMessagesJson(r.source.not_read)}};
  return d.dump(indent, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace gpucost
