// log_hf_state.cpp — Hugging Face Trainer's trainer_state.json into a trace (log_read.h names the source).
#include <nlohmann/json.hpp>

#include "evidence/log_trace.h"
#include "base/format.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {

using json = nlohmann::json;

double HfNumber(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_number() ? it->get<double>() : NAN;
}

// The entry Trainer.train() logs when it ends (speed_metrics("train", ...) with total_flos and train_loss).
void HfFinalEntry(const json& e, LogTrace* t) {
  const double runtime = HfNumber(e, "train_runtime");
  if (!(runtime > 0)) return;
  t->runtime_s = runtime;
  const double samples = HfNumber(e, "train_samples_per_second"), steps = HfNumber(e, "train_steps_per_second");
  t->read.push_back({"log.read.hf_runtime", {FormatNumber(runtime, 6), FormatNumber(samples, 6), FormatNumber(steps, 6)}});
  // Both rates are over the steps Trainer planned (max_steps) and rounded to 3 decimals; their ratio is the batch.
  if (samples > 0 && steps > 0) {
    LogPoint p;
    p.step = HfNumber(e, "step");
    p.batch = std::round(samples / steps);
    p.step_seconds = 1 / steps;
    t->points.push_back(p);
  }
}

}  // namespace

bool ReadHfTrainerState(const std::string& text, LogTrace* t, Message* refusal) {
  if (text.size() > kMaxRunRecordBytes || !CheckJsonDepth(text).empty()) return false;
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("log_history")) return false;
  t->format = LogFormat::kHfTrainerState;
  const json& history = doc["log_history"];
  if (!history.is_array() || history.empty()) {
    *refusal = {"log.refuse.hf_empty", {}};
    return false;
  }
  for (const json& e : history) {
    if (!e.is_object()) continue;
    ++t->lines;
    if (e.contains("train_runtime")) HfFinalEntry(e, t);
    const double seen = HfNumber(e, "num_input_tokens_seen");
    if (seen > 0) t->tokens_seen = seen;
  }
  const double global_step = HfNumber(doc, "global_step"), max_steps = HfNumber(doc, "max_steps");
  const double seen = HfNumber(doc, "num_input_tokens_seen");
  if (seen > 0) t->tokens_seen = seen;
  if (global_step > 0) t->steps_done = global_step;
  if (global_step > 0 && max_steps > 0)
    t->read.push_back({"log.read.hf_steps", {FormatCount(global_step), FormatCount(max_steps)}});
  if (const double flos = HfNumber(doc, "total_flos"); flos > 0)
    t->read.push_back({"log.read.hf_flos", {FormatParam("%.4g", flos)}});
  if (std::isnan(t->runtime_s)) t->not_read.push_back({"log.nr.hf_no_runtime", {}});
  t->not_read.push_back({"log.nr.hf_restarts", {}});
  // The rates' step time is over max_steps; the runtime over the steps done is the truer one when both are known.
  if (t->runtime_s > 0 && global_step > 0 && !t->points.empty()) t->points.back().step_seconds = t->runtime_s / global_step;
  return true;
}

}  // namespace gpucost
