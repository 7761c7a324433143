// inference_sim.cpp — the request simulation (inference_sim.h).
#include "explore/inference_sim.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "serving/inference_model.h"
#include "scenario/json_io.h"
#include "base/rng.h"

namespace gpucost {
// The simulation's own types, in a named namespace: InferenceSimulation::State (a class with linkage) holds them.
namespace inference_sim {

constexpr double kWarmupShare = 0.02;

struct Requests {
  std::vector<double> arrival, first, done;
};

// Running sequences of a replica in admission order: with equal output lengths they finish in that order.
struct Running {
  std::vector<std::int64_t> req, finish_step;
  std::size_t head = 0, tail = 0, size = 0;
  explicit Running(std::size_t cap) : req(cap + 1), finish_step(cap + 1) {}
  void Push(std::int64_t r, std::int64_t f) {
    req[tail] = r;
    finish_step[tail] = f;
    tail = (tail + 1) % req.size();
    ++size;
  }
  void Pop() {
    head = (head + 1) % req.size();
    --size;
  }
};

struct DecodeTally {
  double batch_seconds = 0, seconds = 0;
};

// One decode step at `batch` from the precomputed table.
double Step(const std::vector<double>& table, std::size_t batch) { return table[std::min(batch, table.size() - 1)]; }

// Decode steps over `running` until it is empty or the next event time; finishes sequences.
void RunDecodeStep(const std::vector<double>& table, std::int64_t* step_count, double* t, Running* run, Requests* q,
                   DecodeTally* tally) {
  const double dt = Step(table, run->size);
  *t += dt;
  tally->batch_seconds += dt * static_cast<double>(run->size);
  tally->seconds += dt;
  ++*step_count;
  while (run->size > 0 && run->finish_step[run->head] <= *step_count) {
    q->done[static_cast<std::size_t>(run->req[run->head])] = *t;
    run->Pop();
  }
}

// Where one replica's loop stands: a slice stops it between two iterations and the next goes on from there.
struct ReplicaLoop {
  explicit ReplicaLoop(std::size_t cap) : run(cap) {}
  Running run;
  double t = 0;
  std::int64_t step_count = 0;
  std::size_t next = 0;
};

// A colocated replica: prefill-first iterations over the requests routed to it (in arrival order). Runs at most
// *budget iterations (each spends one); true once every request of the list is done.
bool AdvanceColocated(const std::vector<std::int64_t>& list, double prefill_s, double held_s, std::int64_t steps,
                      const std::vector<double>& table, std::size_t max_running, Requests* q, DecodeTally* tally,
                      ReplicaLoop* l, std::int64_t* budget) {
  while (l->next < list.size() || l->run.size > 0) {
    if (*budget <= 0) return false;
    --*budget;
    const std::size_t r = l->next < list.size() ? static_cast<std::size_t>(list[l->next]) : 0;
    if (l->next < list.size() && q->arrival[r] <= l->t && l->run.size < max_running) {
      // The replica is held for held_s (the prompt alone, or its compute when mixed into the decode steps:
      // inference.chunked_prefill); its first token comes when its own prefill ends.
      l->t += held_s;
      q->first[r] = l->t + std::max(0.0, prefill_s - held_s);
      if (steps == 0) q->done[r] = q->first[r];
      else l->run.Push(static_cast<std::int64_t>(r), l->step_count + steps);
      ++l->next;
    } else if (l->run.size > 0) {
      RunDecodeStep(table, &l->step_count, &l->t, &l->run, q, tally);
    } else {
      l->t = q->arrival[r];  // idle until the next arrival
    }
  }
  return true;
}

// A decode replica of a split: admits sequences whose KV cache has arrived (q->first) at step boundaries.
bool AdvanceDecodePool(const std::vector<std::int64_t>& list, std::int64_t steps, const std::vector<double>& table,
                       std::size_t max_running, Requests* q, DecodeTally* tally, ReplicaLoop* l, std::int64_t* budget) {
  while (l->next < list.size() || l->run.size > 0) {
    if (*budget <= 0) return false;
    --*budget;
    while (l->next < list.size() && l->run.size < max_running && q->first[static_cast<std::size_t>(list[l->next])] <= l->t) {
      const std::size_t r = static_cast<std::size_t>(list[l->next++]);
      if (steps == 0) q->done[r] = q->first[r];
      else l->run.Push(static_cast<std::int64_t>(r), l->step_count + steps);
    }
    if (l->run.size > 0) RunDecodeStep(table, &l->step_count, &l->t, &l->run, q, tally);
    else if (l->next < list.size()) l->t = std::max(l->t, q->first[static_cast<std::size_t>(list[l->next])]);
  }
  return true;
}

LatencyMs Percentiles(std::vector<double>* v) {
  LatencyMs out;
  if (v->empty()) return out;
  double sum = 0;
  for (double x : *v) sum += x;
  out.mean = sum / static_cast<double>(v->size());
  auto at = [&](double p) {
    const std::size_t k = std::min(v->size() - 1, static_cast<std::size_t>(std::floor(p * static_cast<double>(v->size()))));
    std::nth_element(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(k), v->end());
    return (*v)[k];
  };
  out.p50 = at(0.50);
  out.p90 = at(0.90);
  out.p99 = at(0.99);
  return out;
}

std::vector<double> StepTable(const InferenceModel& m, const ReplicaModel& r) {
  std::vector<double> table(static_cast<std::size_t>(std::max<std::int64_t>(1, r.max_concurrency)) + 1);
  for (std::size_t b = 0; b < table.size(); ++b) table[b] = DecodeStepSeconds(m, r, static_cast<double>(b));
  return table;
}

}  // namespace inference_sim


struct InferenceSimulation::State {
  InferenceSimResult out;  // out.error set: refused, nothing to run
  InferenceResult ir;      // the closed form's
  bool split = false;
  std::int64_t steps = 0;  // decode steps per request
  double output_tokens = 0, prefill_s = 0, prefill_held_s = 0, ttft_target = 0, tpot_target = 0;
  double front_ms = 0;  // request path and router (FrontLatencySeconds), on every TTFT and end-to-end time
  std::vector<double> table;
  std::size_t max_running = 0;
  inference_sim::Requests q;
  std::vector<std::vector<std::int64_t>> lists;  // the requests of each simulated decode (or colocated) replica
  inference_sim::DecodeTally tally;
  std::size_t replica = 0;            // the list under way
  std::unique_ptr<inference_sim::ReplicaLoop> loop;  // its loop, once begun
  std::size_t simulated = 0;          // requests of the lists finished
  bool finished = false;
};

InferenceSimulation::~InferenceSimulation() = default;

namespace {
// Why the simulation cannot run: the message and its English text (documents and the CLI's exit carry both).
void Refuse(InferenceSimResult& out, Message why) {
  out.error = why.Text(Lang::kEn);
  out.error_message = std::move(why);
}
}  // namespace

InferenceSimulation::InferenceSimulation(const Scenario& s, std::int64_t requests, std::uint64_t seed, double max_work)
    : state_(std::make_unique<State>()) {
  State& st = *state_;
  InferenceSimResult& out = st.out;
  st.finished = true;  // until the constructor has all it needs
  if (Kind(s) != WorkloadKind::kInference) {
    Refuse(out, {"msg.sim_not_inference", {}});
    return;
  }
  if (requests < 1 || requests > kInferenceSimMaxRequests) {
    Refuse(out, {"msg.sim_requests_range", {std::to_string(kInferenceSimMaxRequests)}});
    return;
  }
  if (s.inference.speculative.tokens_per_step > 0 || s.inference.load_profile.profile != 0) {
    // Issue 28: not simulated yet (accepted tokens vary per step; the load changes by the hour). Said, not ignored.
    Refuse(out, {"msg.sim_no_day", {}});
    return;
  }
  const Result closed = Evaluate(s);
  if (!closed.ok || !closed.inference.present) {
    Refuse(out, {"msg.sim_cannot_evaluate", {}});
    return;
  }
  st.ir = closed.inference;
  const InferenceResult& ir = st.ir;
  if (!ir.fits) {
    Refuse(out, {"msg.sim_does_not_fit", {}});
    return;
  }
  const InferenceModel m = InferenceModelFor(s);
  const InferenceInputs& in = s.inference;
  const bool split = st.split = ir.disaggregated;
  const ReplicaModel decode = ReplicaFor(s, m, *InferencePoolGpu(s, in.decode), InferencePoolTp(s, in.decode));
  const ReplicaModel prefill = split ? ReplicaFor(s, m, *InferencePoolGpu(s, in.prefill), InferencePoolTp(s, in.prefill)) : decode;
  const double exposed = split ? KvTransferExposedSeconds(s, m, prefill, decode) : 0;
  const std::int64_t steps = st.steps = static_cast<std::int64_t>(std::llround(std::max(0.0, m.output_tokens - 1)));
  st.output_tokens = m.output_tokens;
  st.prefill_s = decode.prefill_s;
  st.prefill_held_s = ColocatedPrefillSeconds(m, decode);  // what a prompt holds the replica for
  st.table = inference_sim::StepTable(m, decode);
  st.max_running = static_cast<std::size_t>(decode.max_concurrency);
  st.ttft_target = ir.batch_job ? 0 : in.slo.ttft_ms;
  st.front_ms = 1e3 * FrontLatencySeconds(m);  // before the engine has the request: added to its TTFT as in closed form
  st.tpot_target = in.slo.tpot_ms;
  out.prefill_replicas = ir.prefill.replicas;
  out.decode_replicas = ir.decode.replicas;
  // Bounds (inference_sim.h): requests by the work cap, replicas by thinning the arrivals.
  out.requests_asked = requests;
  out.max_work = max_work;
  const double per_request = static_cast<double>(steps) + 1;
  if (static_cast<double>(requests) * per_request > max_work) {
    requests = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(max_work / per_request)));
    out.capped_requests = true;
  }
  const std::int64_t largest = std::max<std::int64_t>(1, split ? std::max(ir.prefill.replicas, ir.decode.replicas) : ir.decode.replicas);
  const double keep = largest > kInferenceSimMaxReplicas ? static_cast<double>(kInferenceSimMaxReplicas) / static_cast<double>(largest) : 1.0;
  out.capped_replicas = keep < 1;
  auto scaled = [&](std::int64_t n) {
    return keep < 1 ? std::max<std::int64_t>(1, std::llround(static_cast<double>(n) * keep)) : std::max<std::int64_t>(1, n);
  };
  out.simulated_decode_replicas = scaled(ir.decode.replicas);
  out.simulated_prefill_replicas = split ? scaled(ir.prefill.replicas) : out.simulated_decode_replicas;
  out.requests = requests;

  // Arrivals and routing.
  Rng rng(seed);
  const std::size_t n = static_cast<std::size_t>(requests);
  inference_sim::Requests& q = st.q;
  q.arrival.resize(n);
  q.first.assign(n, 0);
  q.done.assign(n, 0);
  // Thinned to the simulated replicas: each keeps the per-replica rate of the decode pool it stands for.
  const double rate = ir.requests_per_second * static_cast<double>(out.simulated_decode_replicas) /
                      static_cast<double>(std::max<std::int64_t>(1, ir.decode.replicas));
  double t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ir.batch_job) t += -PortableLog(rng.Uniform()) / rate;  // bit-identical natively and in the browser
    q.arrival[i] = t;
  }
  const std::size_t decode_n = static_cast<std::size_t>(out.simulated_decode_replicas);
  st.lists.resize(decode_n);
  if (!split) {
    for (std::size_t i = 0; i < n; ++i) st.lists[rng.Next() % decode_n].push_back(static_cast<std::int64_t>(i));
  } else {
    // Prefill pool: FIFO per replica, each prompt holding its replica for prefill + exposed transfer.
    std::vector<double> free_at(static_cast<std::size_t>(out.simulated_prefill_replicas), 0.0);
    const double service = prefill.prefill_s + exposed;
    for (std::size_t i = 0; i < n; ++i) {
      double& f = free_at[rng.Next() % free_at.size()];
      f = std::max(f, q.arrival[i]) + service;
      q.first[i] = f;
      st.lists[rng.Next() % decode_n].push_back(static_cast<std::int64_t>(i));
    }
    for (auto& list : st.lists)
      std::stable_sort(list.begin(), list.end(), [&](std::int64_t a, std::int64_t b) {
        return q.first[static_cast<std::size_t>(a)] < q.first[static_cast<std::size_t>(b)];
      });
  }
  st.finished = false;
}

bool InferenceSimulation::done() const { return state_->finished; }

double InferenceSimulation::progress() const {
  const State& st = *state_;
  if (st.finished || st.q.arrival.empty()) return 1;
  const double in_loop = st.loop ? static_cast<double>(st.loop->next) : 0;
  return std::min(1.0, (static_cast<double>(st.simulated) + in_loop) / static_cast<double>(st.q.arrival.size()));
}

bool InferenceSimulation::Step(std::int64_t iterations) {
  State& st = *state_;
  std::int64_t budget = iterations;
  while (!st.finished && budget > 0) {
    if (st.replica >= st.lists.size()) {
      st.finished = true;
      break;
    }
    const std::vector<std::int64_t>& list = st.lists[st.replica];
    if (!st.loop) st.loop = std::make_unique<inference_sim::ReplicaLoop>(st.max_running);
    const bool finished = st.split ? inference_sim::AdvanceDecodePool(list, st.steps, st.table, st.max_running, &st.q, &st.tally, st.loop.get(), &budget)
                                   : inference_sim::AdvanceColocated(list, st.prefill_s, st.prefill_held_s, st.steps, st.table, st.max_running, &st.q, &st.tally,
                                                      st.loop.get(), &budget);
    if (!finished) break;
    st.simulated += list.size();
    st.loop.reset();
    ++st.replica;
    if (st.replica >= st.lists.size()) st.finished = true;
  }
  return st.finished;
}

InferenceSimResult InferenceSimulation::Finish() {
  State& st = *state_;
  InferenceSimResult& out = st.out;
  if (!out.error.empty()) return out;
  while (!Step(std::numeric_limits<std::int64_t>::max())) {
  }
  const InferenceResult& ir = st.ir;
  const inference_sim::Requests& q = st.q;
  const std::size_t n = q.arrival.size();
  const std::int64_t steps = st.steps;
  // Statistics after the warm-up.
  const std::size_t from = static_cast<std::size_t>(std::floor(inference_sim::kWarmupShare * static_cast<double>(n)));
  std::vector<double> ttft, tpot, e2e;
  ttft.reserve(n - from);
  tpot.reserve(n - from);
  e2e.reserve(n - from);
  std::int64_t ttft_ok = 0, tpot_ok = 0, both_ok = 0;
  double last_done = 0;
  for (std::size_t i = 0; i < n; ++i) last_done = std::max(last_done, q.done[i]);
  for (std::size_t i = from; i < n; ++i) {
    const double a = 1e3 * (q.first[i] - q.arrival[i]) + st.front_ms;
    const double b = steps > 0 ? 1e3 * (q.done[i] - q.first[i]) / static_cast<double>(steps) : 0;
    ttft.push_back(a);
    tpot.push_back(b);
    e2e.push_back(1e3 * (q.done[i] - q.arrival[i]) + st.front_ms);
    const bool ta = st.ttft_target <= 0 || a <= st.ttft_target, tb = st.tpot_target <= 0 || b <= st.tpot_target;
    ttft_ok += ta;
    tpot_ok += tb;
    both_ok += ta && tb;
  }
  const double measured = static_cast<double>(n - from);
  out.measured = static_cast<std::int64_t>(n - from);
  out.ttft_ms = inference_sim::Percentiles(&ttft);
  out.tpot_ms = inference_sim::Percentiles(&tpot);
  out.e2e_ms = inference_sim::Percentiles(&e2e);
  out.share_ttft_within = static_cast<double>(ttft_ok) / measured;
  out.share_tpot_within = static_cast<double>(tpot_ok) / measured;
  out.share_within_target = static_cast<double>(both_ok) / measured;
  out.mean_batch = st.tally.seconds > 0 ? st.tally.batch_seconds / st.tally.seconds : 0;
  out.simulated_seconds = last_done - q.arrival[0];
  const double thinned = static_cast<double>(std::max<std::int64_t>(1, ir.decode.replicas)) /
                         static_cast<double>(out.simulated_decode_replicas);  // the whole pool, not the simulated part
  out.output_tokens_per_second =
      out.simulated_seconds > 0 ? static_cast<double>(n) * st.output_tokens / out.simulated_seconds * thinned : 0;
  out.closed_ttft_ms = ir.ttft_ms;
  out.closed_tpot_ms = ir.tpot_ms;
  out.closed_utilization = ir.utilization;
  out.ok = true;
  return out;
}

InferenceSimResult SimulateInference(const Scenario& s, std::int64_t requests, std::uint64_t seed, double max_work) {
  return InferenceSimulation(s, requests, seed, max_work).Finish();
}


}  // namespace gpucost
