// datapipe.h — the training data pipeline (issue 29): what feeds the GPUs and which limit binds.
//
// The GPUs consume tokens at tokens / compute time. Three limits can feed less:
//   storage bandwidth   storage.read_gbps / workload.input_bytes_per_token tokens per second
//   preprocessing       the CPU cores (data.preprocess.cpu_cores_per_gpu x GPUs) each turn one sample at a
//   small-file latency  time into tokens: 1 / samples_per_core_second of CPU work plus, when each sample is
//                       its own files, storage.files_per_sample x storage.small_file_latency_ms of waiting to
//                       open them (a loader worker reads its sample's files one after another)
// Samples hold data.tokens_per_sample tokens (auto: workload.seq_len). The slowest limit sets the rate; the
// stall is compute time x (needed / supplied - 1), and `binding` names the limit that sets it ("none" when
// every limit keeps up). Staging (storage.staging.*) is a copy before the first step: operations.h.
#pragma once

namespace gpucost {

struct Scenario;

struct DataFeedResult {
  const char* binding = "none";        // "none", "storage_bandwidth", "preprocessing", "small_file_latency"
  double required_tokens_per_s = 0;    // what the GPUs consume at the achieved MFU
  double storage_tokens_per_s = 0;     // 0: unlimited
  double cpu_tokens_per_s = 0;         // preprocessing cores incl. small-file waits (0: not modelled)
  double cpu_seconds_per_sample = 0;   // per core: preprocessing
  double open_seconds_per_sample = 0;  // per core: opening the sample's files
  double stall_seconds = 0;
};

// The data feed of a training job of `tokens` tokens computed in `compute_s` seconds.
DataFeedResult ComputeDataFeed(const Scenario& s, double tokens, double compute_s);

}  // namespace gpucost
