// datapipe.cpp — the training data pipeline (see datapipe.h).
#include "training/datapipe.h"

#include <algorithm>

#include "scenario/scenario.h"

namespace gpucost {

DataFeedResult ComputeDataFeed(const Scenario& s, double tokens, double compute_s) {
  DataFeedResult f;
  if (compute_s <= 0 || tokens <= 0) return f;
  const OperationsInputs& o = s.ops;
  f.required_tokens_per_s = tokens / compute_s;
  if (s.storage.read_gbps > 0 && s.workload.input_bytes_per_token > 0)
    f.storage_tokens_per_s = s.storage.read_gbps * 1e9 / s.workload.input_bytes_per_token;
  const double tokens_per_sample = o.tokens_per_sample > 0 ? o.tokens_per_sample : static_cast<double>(s.workload.seq_len);
  if (o.cpu_cores_per_gpu > 0 && tokens_per_sample > 0) {
    f.cpu_seconds_per_sample = o.samples_per_core_second > 0 ? 1 / o.samples_per_core_second : 0;
    f.open_seconds_per_sample = o.files_per_sample * o.small_file_latency_ms / 1000;
    const double per_sample = f.cpu_seconds_per_sample + f.open_seconds_per_sample;
    if (per_sample > 0)
      f.cpu_tokens_per_s = static_cast<double>(s.cluster.gpus) * o.cpu_cores_per_gpu / per_sample * tokens_per_sample;
  }
  double supplied = f.required_tokens_per_s;
  if (f.storage_tokens_per_s > 0 && f.storage_tokens_per_s < supplied) {
    supplied = f.storage_tokens_per_s;
    f.binding = "storage_bandwidth";
  }
  if (f.cpu_tokens_per_s > 0 && f.cpu_tokens_per_s < supplied) {
    supplied = f.cpu_tokens_per_s;
    f.binding = f.cpu_seconds_per_sample >= f.open_seconds_per_sample ? "preprocessing" : "small_file_latency";
  }
  if (supplied < f.required_tokens_per_s) f.stall_seconds = compute_s * (f.required_tokens_per_s / supplied - 1);
  return f;
}

}  // namespace gpucost
