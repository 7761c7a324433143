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
#include <memory>
#include <string>

#include "serving/inference.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr std::int64_t kInferenceSimMaxRequests = 10000000;
// Bounded work and memory (issue 31: 1e9 requests/s took 33 s and 4.7 GB, peak-to-mean 1000 died of bad_alloc):
//   * at most kInferenceSimMaxReplicas replicas of a pool are simulated. Requests are routed to replicas
//     uniformly at random, so each replica sees a Poisson stream of rate / replicas: simulating K of N replicas
//     with the arrival rate scaled by K/N (thinning) gives every simulated replica the same stream. A split's
//     smaller pool is scaled by the same factor, rounded (at least one replica): its load is then off by at most
//     half a replica in K, which the result's figures report (simulated_*_replicas).
//   * at most max_work request-steps (requests x (decode steps + 1), the loop's iterations when nothing
//     batches): fewer requests are simulated when each is long. 5e7 is about 3-5 s natively at the header's
//     10-20 M steps per second; the page asks for less (app.h).
// Either cap is reported in the result (requests_asked, capped) and its document, never silent.
constexpr std::int64_t kInferenceSimMaxReplicas = 256;
constexpr double kInferenceSimMaxWork = 5e7;

struct InferenceSimResult {
  bool ok = false;
  std::string error;                 // why not (invalid scenario, not an inference scenario), in English
  Message error_message;             // the same as a key and parameters (msg.sim_*), rendered by the reader
  std::int64_t requests = 0;         // simulated
  std::int64_t requests_asked = 0;   // as asked; more than `requests` when the work cap cut them
  bool capped_requests = false;      // requests < requests_asked (max_work)
  bool capped_replicas = false;      // simulated replicas fewer than the scenario's (kInferenceSimMaxReplicas)
  std::int64_t simulated_prefill_replicas = 0, simulated_decode_replicas = 0;
  double max_work = 0;               // the work cap it ran under (request-steps)
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
InferenceSimResult SimulateInference(const Scenario& s, std::int64_t requests, std::uint64_t seed,
                                     double max_work = kInferenceSimMaxWork);

// The same simulation in slices (issue 31: the page runs a slice a frame and no frame waits 100 ms for it).
// Step(n) runs at most n iterations of the replicas' loops (a prefill, a decode step or an idle jump each);
// Finish() runs what is left and returns exactly SimulateInference's result for the same arguments.
class InferenceSimulation {
 public:
  InferenceSimulation(const Scenario& s, std::int64_t requests, std::uint64_t seed, double max_work = kInferenceSimMaxWork);
  ~InferenceSimulation();
  InferenceSimulation(const InferenceSimulation&) = delete;
  InferenceSimulation& operator=(const InferenceSimulation&) = delete;
  bool done() const;
  bool Step(std::int64_t iterations);  // true when done
  double progress() const;             // 0 to 1: the share of the replicas' requests simulated
  InferenceSimResult Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};


}  // namespace gpucost
