// log_torchtitan.cpp — torchtitan's step lines into a trace (log_read.h names the sources).
#include "evidence/log_trace.h"

namespace gpucost {
namespace {

// "[titan] 2025-06-01 10:00:00,123 - root - INFO - ..." (tools/logging.py's format).
double TitanTime(std::string_view line) {
  const std::size_t at = line.find("[titan] ");
  return at == std::string_view::npos ? NAN : LogTimestamp(line, at + 8);
}

// The message after the logger's prefix.
std::string_view TitanMessage(std::string_view line) {
  const std::size_t at = line.find(" - INFO - ");
  return at == std::string_view::npos ? line : line.substr(at + 10);
}

// "step: 10  loss:  9.2345 ... tps: 6,543  tflops: 342.10  mfu: 34.59%" (metrics.py MetricsProcessor.log).
bool TitanStep(std::string_view msg, double t, LogPoint* p) {
  if (msg.substr(0, 5) != "step:") return false;  // "validate step:" lines are the validation's, not training
  const std::size_t tps = msg.find("tps:");
  if (tps == std::string_view::npos) return false;
  p->step = LeadingNumber(msg.substr(5));
  p->tps_per_gpu = LeadingNumber(msg.substr(tps + 4));
  if (std::isnan(p->step) || !(p->tps_per_gpu > 0)) return false;
  if (const std::size_t mfu = msg.find("mfu:"); mfu != std::string_view::npos) p->mfu = LeadingNumber(msg.substr(mfu + 4)) / 100;
  p->t = t;
  return true;
}

// "Building device mesh with parallelism: pp=1, dp_replicate=1, dp_shard=8, cp=1, tp=1, ep=1" (the world is the
// product of all but ep, which splits within them), or an older "Building 2-D device mesh with ['dp_shard', 'tp'], [4, 2]".
void TitanWorld(std::string_view msg, LogTrace* t) {
  if (msg.find("device mesh with") == std::string_view::npos) return;
  double world = 1;
  bool any = false;
  if (const std::size_t list = msg.rfind(", ["); list != std::string_view::npos && msg.find("parallelism:") == std::string_view::npos) {
    for (std::size_t i = list + 3; i < msg.size() && msg[i] != ']';) {
      std::size_t used = 0;
      const double v = LeadingNumber(msg.substr(i), &used);
      if (std::isnan(v)) break;
      world *= v;
      any = true;
      i += used;
      while (i < msg.size() && (msg[i] == ',' || msg[i] == ' ')) ++i;
    }
  } else {
    for (const char* key : {"pp=", "dp_replicate=", "dp_shard=", "cp=", "tp="}) {
      const std::size_t at = msg.find(key);
      if (at == std::string_view::npos) continue;
      const double v = LeadingNumber(msg.substr(at + std::char_traits<char>::length(key)));
      if (v >= 1) world *= v, any = true;
    }
  }
  if (any && world >= 1 && world <= 1e8) t->world_size = static_cast<std::int64_t>(world);
}

void TitanOther(std::string_view msg, LogTrace* t) {
  // "Finished saving the checkpoint in 12.34 seconds." / "Finished staging ..." (async: the stall) / older
  // "Finished saving the checkpoint (or staging if async is enabled)in 12.34 seconds.".
  if (msg.substr(0, 9) == "Finished " && msg.find("the checkpoint") != std::string_view::npos &&
      msg.find("loading") == std::string_view::npos) {
    const std::size_t in = msg.rfind("in ");
    const double s = in == std::string_view::npos ? NAN : LeadingNumber(msg.substr(in + 3));
    ++t->checkpoint_saves;
    if (s >= 0) t->checkpoint_seconds.push_back(s);
    return;
  }
  if (msg.substr(0, 24) == "Training starts at step ") {  // N > 1: resumed from a checkpoint after N - 1 steps
    const double n = LeadingNumber(msg.substr(24));
    if (n > 1) t->loads.push_back({n - 1, t->points.size()});
    return;
  }
  // "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory"
  if (const std::size_t cap = msg.find("capacity: "); cap != std::string_view::npos && msg.find("GiB memory") != std::string_view::npos) {
    const std::size_t with = msg.rfind(" with ");
    if (with != std::string_view::npos && with > cap) {
      t->gpu_name = std::string(msg.substr(cap + 10, with - cap - 10));
      t->gpu_memory_gib = LeadingNumber(msg.substr(with + 6));
    }
    return;
  }
  TitanWorld(msg, t);
}

}  // namespace

bool ReadTorchtitanLog(std::string_view text, LogTrace* t) {
  ForEachLine(text, [t](std::string_view raw, std::int64_t number) {
    const std::string clean = raw.find('\x1b') != std::string_view::npos ? StripAnsi(raw) : std::string();
    const std::string_view line = clean.empty() ? raw : std::string_view(clean);
    const std::string_view msg = TitanMessage(line);
    LogPoint p;
    if (TitanStep(msg, TitanTime(line), &p)) {
      t->format = LogFormat::kTorchtitan;
      t->points.push_back(p);
      ++t->lines;
    } else if (msg.substr(0, 5) == "step:" && msg.find("loss:") != std::string_view::npos) {
      if (t->bad_lines++ == 0) t->first_bad_line = number;  // a step line without its throughput
    } else {
      TitanOther(msg, t);
    }
  });
  return t->format != LogFormat::kNone;
}

}  // namespace gpucost
