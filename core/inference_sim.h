// inference_sim.h — discrete-event simulation of the requests of an inference scenario (gpucost mc on a
// workload.kind = inference scenario; issue 17). It checks the closed form (inference.h) where its
// approximations matter: queueing tails, continuous batching, the KV-cache limit.
//
// What is simulated, on the replicas the closed form sized (Evaluate()):
//   * Poisson arrivals at inference.requests_per_second (a batch job: all requests at time 0), each routed to a
//     replica uniformly at random (the closed form's split of a Poisson stream).
//   * Colocated replica, iteration by iteration (continuous batching, vLLM's prefill-first scheduler): when a
//     request waits and a KV slot is free (running < max concurrency), the next step is its prefill
//     (PrefillSeconds), after which it holds a slot and has its first token; otherwise one decode step
//     (DecodeStepSeconds at the current batch) gives every running sequence one token.
//   * Disaggregated: each prefill replica serves prompts first come first served for prefill + exposed KV
//     transfer; the request then joins a random decode replica, which admits it at its next step when a KV
//     slot is free and runs decode steps back to back while any sequence runs.
//   * Prompt and output lengths are the scenario's means (as the closed form): the spread comes from the
//     arrivals and the batching alone.
// The first 2% of requests (warm-up from an empty system) are left out of the statistics.
// Deterministic for a seed; about 10-20 M decode steps per second natively.
#pragma once
#include <cstdint>
#include <string>

#include "inference.h"
#include "scenario.h"

namespace gpucost {

constexpr std::int64_t kInferenceSimMaxRequests = 10000000;

struct InferenceSimResult {
  bool ok = false;
  std::string error;                 // why not (invalid scenario, not an inference scenario)
  std::int64_t requests = 0;         // simulated
  std::int64_t measured = 0;         // in the statistics (after the warm-up)
  LatencyMs ttft_ms, tpot_ms, e2e_ms;
  double share_within_target = 0;    // requests meeting both targets (1 with no target)
  double share_ttft_within = 0;
  double share_tpot_within = 0;
  double mean_batch = 0;             // sequences decoding per decode step, time-weighted over the decode replicas
  double simulated_seconds = 0;      // first arrival to last completion
  double output_tokens_per_second = 0;
  // The closed form's figures for the same scenario, side by side.
  LatencyMs closed_ttft_ms, closed_tpot_ms;
  double closed_utilization = 0;
  std::int64_t prefill_replicas = 0, decode_replicas = 0;
};

// Simulates `requests` requests of the scenario with random seed `seed`.
InferenceSimResult SimulateInference(const Scenario& s, std::int64_t requests, std::uint64_t seed);

// The document of gpucost mc for an inference scenario (and the page).
std::string InferenceSimToJson(const Scenario& s, const InferenceSimResult& r, int indent = 2);

}  // namespace gpucost
