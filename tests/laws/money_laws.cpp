// money_laws.cpp — the laws of money (issue 45), checked on seeded random scenarios (SQLite's and Hypothesis's way:
// generate, check what must hold for every input, shrink a failure to a small case).
//
//   money_laws [--scenarios N] [--seed S] [--quiet]
//
// Each scenario is drawn from one family (pre-training, independent tasks, fine-tuning, batch inference, an online
// service with a day profile and autoscaling), under a pricing model, maybe an offer from the catalog, USD or KRW,
// a tax setting and a failure setting, and every applicable law is checked on it:
//
//   same answer by every path   each row of `gpucost pricing` = eval of the scenario switched to that model
//                               (WithPricingModel), the way `eval --set pricing.model=` switches it, a share link of
//                               it, a compare column of it and the document the page draws;
//   monotone                    a worse input never lowers the expected cost: a higher price, more preemptions, a
//                               lower MTBF, a longer recovery or reacquisition, more bring-up, slower staging, longer
//                               restore tests, a lower allocation efficiency, a higher bad-checkpoint probability, a
//                               higher tax; more work (tokens, tasks, requests) never lowers it either;
//   identities                  parts add up; supply + VAT = the invoice; recoverable VAT is not a cost; VAT once, on
//                               the supply; every billed GPU-hour counted once (at the price, rounding and the
//                               commitment term once); KRW figures = USD figures x the stated rate; a discount-only
//                               reservation waits as on-demand does;
//   refusal                     a job that cannot finish or cannot run is blocked with a reason, never priced.
//
// The core's invariants (GPUCOST_ASSERT) are on: a failed one is a broken law too. A broken law prints its name,
// what was compared, and the scenario shrunk (fields back to their defaults, numbers to two digits, while the law
// still breaks) as JSON; the program exits 1. Figures (scenarios, checks per law, seconds) are printed at the end.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/asserts.h"
#include "base/rng.h"
#include "documents/compare.h"
#include "documents/field_edit.h"
#include "documents/link.h"
#include "documents/presets.h"
#include "documents/pricing_json.h"
#include "documents/result_json.h"
#include "documents/vat.h"
#include "explore/pricing.h"
#include "job/evaluate.h"
#include "job/operations.h"
#include "job/validate.h"
#include "money/offers.h"
#include "money/pricing_model.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "scenario/models.h"

namespace {

using namespace gpucost;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------------------------
// [SECTION] Generation

enum class Family { kPretraining, kTasks, kFinetune, kBatch, kOnline, kCount };
const char* const kFamilyNames[] = {"pre-training", "independent tasks", "fine-tuning", "batch inference",
                                    "online serving"};

struct Draw {
  Rng rng;
  explicit Draw(std::uint64_t seed) : rng(seed) {}
  double U() { return rng.Uniform(); }
  double Between(double lo, double hi) { return lo + (hi - lo) * U(); }
  double Log(double lo, double hi) { return lo * std::pow(hi / lo, U()); }
  bool Chance(double p) { return U() < p; }
  template <typename T, std::size_t N>
  T Pick(const T (&items)[N]) { return items[static_cast<std::size_t>(U() * N) % N]; }
};

const char* const kGpus[] = {"h100-sxm", "a100-sxm-80gb", "h200-sxm", "b200", "a100-sxm-40gb"};
const char* const kFinetuneModels[] = {"llama-3.1-8b", "llama-2-7b", "llama-2-13b", "mistral-7b"};
const char* const kOnlinePresets[] = {"llama2-70b-chat-h100", "llama2-70b-chat-day-h100",
                                      "coding-assistant-llama31-70b-h100", "llama2-70b-split-h100-a100"};

void Failures(Draw& d, Scenario* s) {
  ReliabilityInputs& r = s->reliability;
  r.gpu_mtbf_hours = d.Chance(0.15) ? 0 : d.Log(5e3, 2e5);
  r.recovery_minutes = d.Log(2, 120);
  s->storage.checkpoint_write_gbps = d.Log(5, 2000);
  if (d.Chance(0.2)) r.hot_spares = s->cluster.gpus_per_node * (d.Chance(0.5) ? 1 : 2);
  if (d.Chance(0.08)) r.checkpointing = false;
  if (d.Chance(0.1)) r.checkpoint_async = true;
  OperationsInputs& o = s->ops;
  if (d.Chance(0.3)) o.bad_checkpoint_probability = d.Chance(0.1) ? 1.0 : d.Between(0, 0.6);
  if (d.Chance(0.3)) {
    o.restore_test_every = static_cast<std::int64_t>(d.Pick<int>({1, 2, 5, 20}));
    o.restore_test_minutes = d.Log(1, 60);
  }
  if (d.Chance(0.3)) o.bring_up_hours = d.Log(0.5, 72);
  if (d.Chance(0.25)) {
    o.staging_dataset_gb = d.Log(100, 2e5);
    o.staging_gbps = d.Log(0.05, 50);
    o.staging_billed = d.Chance(0.7);
    if (d.Chance(0.5)) o.scratch_usd_per_gb_month = d.Log(0.02, 0.3);
  }
  if (d.Chance(0.25)) o.allocation_efficiency = d.Between(0.2, 1);
  if (d.Chance(0.2)) o.support_usd_per_month = d.Log(100, 50000);
  if (d.Chance(0.25)) o.on_demand_wait_hours = d.Log(0.5, 200);
  if (d.Chance(0.3)) {
    o.value_per_day_usd = d.Log(1e3, 1e6);
    if (d.Chance(0.7)) o.deadline_hours = d.Log(24, 24 * 120);
  }
  // Issue 50: early failures the bring-up burns in, slow nodes, collective timeouts, the programme around the run.
  if (d.Chance(0.2)) r.infant_failure_fraction = d.Log(1e-3, 0.05), r.infant_mean_hours = d.Log(5, 500);
  if (d.Chance(0.2)) r.slow_node_fraction = d.Log(1e-4, 0.05), r.slow_node_slowdown = d.Between(1.05, 3);
  if (d.Chance(0.2)) r.collective_timeouts_per_day = d.Log(0.01, 5), r.collective_timeout_minutes = d.Log(1, 60);
  if (d.Chance(0.2)) {
    s->program.experiments = d.Between(0, 2);
    s->program.abandoned_fraction = d.Between(0, 0.6);
    s->program.evaluation_hours = d.Log(1, 500);
  }
}

void Storage(Draw& d, Scenario* s) {
  s->storage.dataset_gb = d.Log(10, 1e5);
  s->storage.usd_per_gb_month = d.Log(0.005, 0.1);
  s->storage.retention_days = d.Log(1, 90);
  if (d.Chance(0.4)) s->storage.egress_gb = d.Log(10, 1e5), s->storage.usd_per_gb_egress = d.Log(0.01, 0.12);
  if (d.Chance(0.2)) s->pricing.fixed_fees_usd = d.Log(10, 1e5);
  if (d.Chance(0.2)) {  // issue 50: instances kept stopped (an offer drawn later may set the provider's rule)
    s->pricing.stopped_hours = d.Log(1, 5000);
    s->pricing.stopped_price_fraction = d.Between(0, 1);
    if (d.Chance(0.5)) s->pricing.stopped_discount_hours = d.Log(10, 3000);
  }
}

void Pricing(Draw& d, Scenario* s) {
  PricingInputs& p = s->pricing;
  p.model = static_cast<int>(d.U() * 4) % 4;
  const double price = d.Log(0.5, 12);
  p.usd_per_gpu_hour = price;
  if (d.Chance(0.35)) {
    p.currency = static_cast<int>(Currency::kKrw);
    if (d.Chance(0.6)) p.krw_per_gpu_hour = std::round(price * p.krw_per_usd);
  }
  if (d.Chance(0.5)) {
    p.tax_rate = d.Chance(0.8) ? 0.1 : d.Between(0.01, 0.3);
    p.price_includes_tax = d.Chance(0.4);
    p.vat_recoverable = d.Chance(0.3);
  }
  p.billing_increment_seconds = d.Pick<double>({1, 1, 60, 3600});
  p.minimum_billed_seconds = d.Pick<double>({0, 0, 60, 3600});
  p.whole_nodes = d.Chance(0.8);
  p.spot.preemptions_per_node_day = d.Log(0.005, 3);
  p.spot.reacquire_minutes = d.Log(1, 240);
  p.spot.notice_seconds = d.Pick<double>({0, 30, 120, 120});
  p.spot.discount = d.Between(0.2, 0.8);
  p.reserved.term_months = d.Pick<double>({1, 12, 12, 36});
  p.reserved.discount = d.Between(0.1, 0.6);
  p.reserved.capacity_guaranteed = d.Chance(0.4);
  if (d.Chance(0.3)) p.reserved.other_use_fraction = d.Between(0, 0.8);
  if (d.Chance(0.2)) p.owned.interest_rate = d.Between(0.01, 0.12);
  if (d.Chance(0.15)) p.owned.other_use_fraction = d.Between(0.1, 0.9);
  p.owned.lead_time_days = d.Pick<double>({0, 70, 70, 200});
  p.owned.utilization = d.Between(0.3, 1);
  // An offer from the catalog (price by quote included: its scenario waits for the quote and is blocked).
  if (d.Chance(0.15)) {
    const Offer& o = Offers()[static_cast<std::size_t>(d.U() * OfferCount()) % OfferCount()];
    ApplyOffer(o, s);
  }
}

Scenario Training(Draw& d, bool finetune) {
  Scenario s = DefaultScenario();
  std::snprintf(s.cluster.gpu, kTextCapacity, "%s", d.Pick(kGpus));
  s.cluster.gpus = static_cast<std::int64_t>(d.Pick<int>({8, 16, 64, 256, 1024, 4096}));
  s.cluster.mfu = d.Between(0.2, 0.55);
  s.parallel.zero_stage = 3;
  if (finetune) {
    ApplyModel(*FindModel(d.Pick(kFinetuneModels)), &s, [](const char*) { return false; });
    s.finetune.mode = static_cast<int>(d.Pick<int>({0, 1, 2}));
    s.finetune.lora_rank = d.Pick<int>({8, 16, 64});
    s.workload.tokens = d.Log(1e7, 2e10);
    s.cluster.gpus = static_cast<std::int64_t>(d.Pick<int>({8, 16, 64}));
  } else {
    s.workload.params = d.Log(1e8, 7e10);
    s.workload.tokens = s.workload.params * d.Log(2, 40);
  }
  return s;
}

Scenario Tasks(Draw& d) {
  Scenario s = DefaultScenario();
  s.workload.kind = static_cast<int>(WorkloadKind::kIndependent);
  std::snprintf(s.cluster.gpu, kTextCapacity, "%s", d.Pick(kGpus));
  s.workload.gpus_per_task = d.Pick<int>({1, 2, 4, 8});
  s.cluster.gpus = s.workload.gpus_per_task * static_cast<std::int64_t>(d.Pick<int>({1, 4, 16, 64}));
  s.workload.tasks = static_cast<std::int64_t>(d.Log(10, 2e4));
  s.workload.task_gpu_hours = d.Log(0.1, 50);
  if (s.workload.gpus_per_task == 1 && d.Chance(0.2)) {  // issue 50: tasks on MIG slices of an A100 or H100
    std::snprintf(s.cluster.gpu, kTextCapacity, "%s", d.Chance(0.5) ? "h100-sxm" : "a100-sxm-80gb");
    std::snprintf(s.partition.profile, kTextCapacity, "%s", d.Pick<const char*>({"1g.10gb", "3g.40gb", "2g.20gb"}));
    if (d.Chance(0.5)) s.partition.interference = d.Between(1, 1.5);
  }
  return s;
}

Scenario Serving(Draw& d, bool batch) {
  Scenario s;
  std::string error;
  LoadPreset(batch ? "batch-summarize-1m-docs" : d.Pick(kOnlinePresets), &s, &error);
  if (batch) {
    s.inference.requests = std::round(d.Log(1e3, 2e6));
  } else {
    s.inference.requests_per_second *= d.Log(0.3, 3);
    s.inference.hours = d.Pick<double>({24, 168, 720});
    if (d.Chance(0.5)) s.inference.service_months = d.Pick<double>({1, 6, 24});
  }
  if (d.Chance(0.3)) s.inference.decode.usd_per_gpu_hour = d.Log(1, 6);
  return s;
}

Scenario Generate(Draw& d, Family f) {
  Scenario s;
  switch (f) {
    case Family::kPretraining: s = Training(d, false); break;
    case Family::kFinetune: s = Training(d, true); break;
    case Family::kTasks: s = Tasks(d); break;
    case Family::kBatch: s = Serving(d, true); break;
    case Family::kOnline:
    case Family::kCount: s = Serving(d, false); break;
  }
  if (Kind(s) != WorkloadKind::kInference) Failures(d, &s);
  else if (d.Chance(0.3)) s.reliability.gpu_mtbf_hours = d.Log(5e3, 2e5), s.reliability.recovery_minutes = d.Log(2, 60);
  Storage(d, &s);
  Pricing(d, &s);
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// [SECTION] Laws

// A law: its name and a check of one scenario that returns "" or what broke. A law that does not apply returns
// "" too (and reports it through `applied`, so the figures say how often each was checked).
struct Law {
  const char* name;
  std::function<std::string(const Scenario&, const Result& base, bool* applied)> check;
  int every = 1;  // checked on every n-th scenario (the document laws, which parse JSON)
};

std::string Fmt(const char* what, double a, double b) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %.17g vs %.17g", what, a, b);
  return buf;
}

bool Close(double a, double b, double rel = 1e-9) { return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b)) + 1e-9; }

bool Priced(const Scenario& s, const Result& r) {
  return r.ok && !FindBlockingState(s, r).blocked && NonFiniteResultPath(r).empty();
}

// The scenario's price raised by `factor` (the entered price, the pools' own prices, owned hardware's capex).
Scenario Dearer(const Scenario& s, double factor) {
  Scenario v = s;
  PricingInputs& p = v.pricing;
  p.usd_per_gpu_hour *= factor;
  p.krw_per_gpu_hour *= factor;
  p.reserved.usd_per_gpu_hour_on_demand *= factor;
  v.inference.prefill.usd_per_gpu_hour *= factor;
  v.inference.decode.usd_per_gpu_hour *= factor;
  p.owned.capex_usd_per_gpu *= factor;
  p.owned.usd_per_kwh *= factor;
  return v;
}

bool IsTraining(const Scenario& s) { return Kind(s) == WorkloadKind::kTraining; }
bool IsJob(const Scenario& s) { return Kind(s) != WorkloadKind::kInference; }
bool IsSpot(const Scenario& s) { return Model(s) == PricingModel::kSpot; }

// A monotone law: `worse` makes the scenario no better; the expected cost must not fall.
// Spot: where the worse input lengthens time nobody is billed for (a preempted node away longer, or more often,
// while the others finish the work), the expected bill's rounding is a deterministic sawtooth: the others' extra
// seconds can fall in an increment (or a minimum) already paid while the node away pays nothing. There the cost
// may fall by at most one increment (or the minimum) per billed GPU, and by no more (noted in issue 45's note).
Law Monotone(const char* name, std::function<bool(const Scenario&)> applies, std::function<void(Scenario*)> worse,
             bool rounding_slack = false) {
  return {name, [applies, worse, rounding_slack](const Scenario& s, const Result& base, bool* applied) -> std::string {
            if (!applies(s)) return "";
            Scenario w = s;
            worse(&w);
            if (!ValidateScenario(w).empty()) return "";
            const Result& a = base;
            const Result b = Evaluate(w);
            if (!Priced(s, a) || !Priced(w, b)) return "";
            *applied = true;
            // Without a deadline the delay is counted from the job's own normal run, which the input moves too: then
            // the billed cost is compared (with a deadline, the whole cost). Sums of parts in doubles: 1e-7.
            const bool relative_delay = s.ops.deadline_hours <= 0;
            const double before = a.expected_usd - (relative_delay ? a.cost_usd.part[kPartDelay] : 0);
            const double after = b.expected_usd - (relative_delay ? b.cost_usd.part[kPartDelay] : 0);
            const double increment_h = std::max(s.pricing.billing_increment_seconds, s.pricing.minimum_billed_seconds) / 3600;
            const double slack = rounding_slack || IsSpot(s) ? static_cast<double>(a.billed_gpus) * increment_h * a.usd_per_gpu_hour *
                                                      (1 + s.pricing.tax_rate)
                                                : 0;
            if (after < before * (1 - 1e-7) - 1e-9 - slack)
              return Fmt("the worse input's expected cost is lower (before, after)", before, after);
            return "";
          }};
}


double GpuMoney(const Result& r) {
  double usd = 0;
  for (int p = 0; p < kPartCount; ++p)
    if (p != kPartStorage && p != kPartEgress && p != kPartFees && p != kPartSupport && p != kPartRouter && p != kPartTax &&
        p != kPartDelay)
      usd += r.cost_usd.part[p];
  return usd;
}

std::vector<Law> Laws() {
  std::vector<Law> laws;
  // --- Same answer by every path -----------------------------------------------------------------------------
  laws.push_back({"path: each pricing row = eval of the scenario switched to its model", [](const Scenario& s, const Result& base, bool* applied) {
                    const PricingComparison c = ComparePricingModels(s);
                    if (!c.ok) return std::string();
                    *applied = true;
                    for (int m = 0; m < kModelCount; ++m) {
                      const Scenario v = WithPricingModel(s, static_cast<PricingModel>(m));
                      const Result r = Evaluate(v);
                      const BlockingState b = FindBlockingState(v, r);
                      if (std::strcmp(b.code, c.models[m].blocking.code) != 0)
                        return std::string(PricingModelName(static_cast<PricingModel>(m))) + ": blocked '" + b.code +
                               "' by eval, '" + c.models[m].blocking.code + "' in the pricing row";
                      if (r.expected_usd != c.models[m].total_usd && !(std::isnan(r.expected_usd) && std::isnan(c.models[m].total_usd)))
                        return Fmt((std::string(PricingModelName(static_cast<PricingModel>(m))) + ": eval, pricing row").c_str(),
                                   r.expected_usd, c.models[m].total_usd);
                    }
                    // The scenario's own model: its row is the scenario itself.
                    if (c.models[s.pricing.model].total_usd != base.expected_usd && std::isfinite(c.models[s.pricing.model].total_usd))
                      return Fmt("own model: pricing row, eval", c.models[s.pricing.model].total_usd, base.expected_usd);
                    return std::string();
                  }});
  laws.push_back({"path: --set pricing.model (and the page's editor) switches to the pricing row's scenario",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    for (int m = 0; m < kModelCount; ++m) {
                      Scenario set = s;
                      std::string label;
                      Message note;
                      const Message e = SetFieldProblem(&set, "pricing.model", PricingModelName(static_cast<PricingModel>(m)), &label, &note);
                      if (!e.empty()) continue;  // refused as a file would be (an offer that does not list it)
                      *applied = true;
                      const Scenario row = WithPricingModel(s, static_cast<PricingModel>(m));
                      if (ScenarioToJson(set, false) != ScenarioToJson(row, false))
                        return std::string(PricingModelName(static_cast<PricingModel>(m))) + ": the switched scenario differs from the row's";
                      if ((m != s.pricing.model) == note.empty())
                        return std::string(PricingModelName(static_cast<PricingModel>(m))) + ": a switch without its note (or a note without one)";
                    }
                    return std::string();
                  }, 4});
  laws.push_back({"path: a share link, a compare column and the page's result document give eval's answer",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    const Scenario v = WithPricingModel(s, static_cast<PricingModel>((s.pricing.model + 1) % kModelCount));
                    const Result r = Evaluate(v);
                    if (!r.ok || !NonFiniteResultPath(r).empty()) return std::string();
                    *applied = true;
                    LinkPayload payload{v, {}, 2};
                    LinkPayload back;
                    std::vector<InputError> errors;
                    if (!DecodeLink(EncodeLink(payload), &back, &errors)) return "the link does not decode: " + LinkErrorText(errors);
                    const Result via_link = Evaluate(back.scenario);
                    if (via_link.expected_usd != r.expected_usd) return Fmt("link, eval", via_link.expected_usd, r.expected_usd);
                    CompareColumn col;
                    col.scenario = v;
                    col.result = r;
                    col.label = "x";
                    const Comparison c = CompareScenarios({col});
                    const json doc = json::parse(CompareToJson(c, -1));
                    if (doc["scenarios"][0]["result"] != json::parse(ResultToJson(v, r, -1)))
                      return std::string("the compare column's result document differs from eval's");
                    return std::string();
                  }, 10});
  laws.push_back({"path: the pricing document carries the rows (KRW = USD x the rate; a blocked row unpriced)",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    const PricingComparison c = ComparePricingModels(s);
                    if (!c.ok) return std::string();
                    *applied = true;
                    const json doc = json::parse(PricingToJson(s, c, -1));
                    const double k = doc["per_usd"].get<double>();
                    if (Model(s) == Model(s) && s.pricing.currency == static_cast<int>(Currency::kKrw) && k != s.pricing.krw_per_usd)
                      return Fmt("per_usd, krw_per_usd", k, s.pricing.krw_per_usd);
                    for (int m = 0; m < kModelCount; ++m) {
                      const json& row = doc["models"][m];
                      if (c.models[m].blocking.blocked) {
                        if (!row["total"].is_null() || !row.contains("blocking")) return std::string("a blocked row is priced in the document");
                        if (c.cheapest == m && !c.models[0].blocking.blocked) return std::string("a blocked row is the cheapest");
                        continue;
                      }
                      if (!row["total"].is_number()) continue;
                      if (!Close(row["total"].get<double>(), row["total_usd"].get<double>() * k))
                        return Fmt("total = total_usd x rate", row["total"].get<double>(), row["total_usd"].get<double>() * k);
                      if (!Close(row["job"].get<double>() + row["term_tail"].get<double>() + row["delay"].get<double>(), row["total"].get<double>()))
                        return std::string("job + term after + delay != total");
                    }
                    return std::string();
                  }, 5});
  // --- Monotone ------------------------------------------------------------------------------------------------
  laws.push_back(Monotone("monotone: a higher price", [](const Scenario&) { return true; },
                          [](Scenario* s) { *s = Dearer(*s, 1.3); }));
  laws.push_back(Monotone("monotone: more preemptions", IsSpot,
                          [](Scenario* s) { s->pricing.spot.preemptions_per_node_day = s->pricing.spot.preemptions_per_node_day * 3 + 0.05; },
                          true));
  laws.push_back(Monotone("monotone: a longer reacquisition", IsSpot, [](Scenario* s) { s->pricing.spot.reacquire_minutes *= 2; },
                          true));
  laws.push_back(Monotone("monotone: a shorter preemption notice", IsSpot, [](Scenario* s) { s->pricing.spot.notice_seconds /= 4; }));
  laws.push_back(Monotone("monotone: a lower MTBF", [](const Scenario& s) { return s.reliability.gpu_mtbf_hours > 0; },
                          [](Scenario* s) { s->reliability.gpu_mtbf_hours *= 0.5; }));
  laws.push_back(Monotone("monotone: a longer recovery", [](const Scenario&) { return true; },
                          [](Scenario* s) { s->reliability.recovery_minutes = s->reliability.recovery_minutes * 2 + 5; }));
  // With early-failing GPUs the bring-up is a burn-in that pays back (issue 50): monotone without them, and with
  // them it saves at most what failures cost (next law).
  laws.push_back(Monotone("monotone: more bring-up hours (no early failures to burn in)",
                          [](const Scenario& s) { return IsJob(s) && s.reliability.infant_failure_fraction <= 0; },
                          [](Scenario* s) { s->ops.bring_up_hours += 24; }));
  laws.push_back({"bound: a longer burn-in saves at most what failures cost (early failures, rework, recovery, checkpoints)",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    if (!IsJob(s) || s.reliability.infant_failure_fraction <= 0 || s.ops.deadline_hours > 0) return std::string();
                    Scenario w = s;
                    w.ops.bring_up_hours += 24;
                    if (!ValidateScenario(w).empty()) return std::string();
                    const Result b = Evaluate(w);
                    if (!Priced(s, base) || !Priced(w, b)) return std::string();
                    *applied = true;
                    const auto billed = [](const Result& r) { return r.expected_usd - r.cost_usd.part[kPartDelay]; };
                    const Breakdown& c = base.cost_usd;
                    const double failures = c.part[kPartInfantFailures] + c.part[kPartRework] + c.part[kPartRecovery] +
                                            c.part[kPartCheckpoint] + c.part[kPartBillingRounding] + c.part[kPartTax] +
                                            c.part[kPartRestoreTest] + c.part[kPartBadCheckpoint] +  // per checkpoint
                                            c.part[kPartIdleGpus] + c.part[kPartStorage];  // the time they add
                    if (billed(b) < billed(base) - failures * (1 + 1e-9) - 1e-9)
                      return Fmt("saved more than failures cost (saving, failures' parts)", billed(base) - billed(b), failures);
                    return std::string();
                  }});
  laws.push_back(Monotone("monotone: slower staging", [](const Scenario& s) { return IsJob(s) && s.ops.staging_gbps > 0; },
                          [](Scenario* s) { s->ops.staging_gbps *= 0.5; }));
  laws.push_back(Monotone("monotone: longer restore tests", [](const Scenario& s) { return IsJob(s) && s.ops.restore_test_every > 0; },
                          [](Scenario* s) { s->ops.restore_test_minutes += 10; }));
  laws.push_back(Monotone("monotone: a lower allocation efficiency", IsJob,
                          [](Scenario* s) { s->ops.allocation_efficiency *= 0.7; }));
  laws.push_back(Monotone("monotone: a higher bad-checkpoint probability",
                          [](const Scenario& s) { return IsJob(s) && s.ops.bad_checkpoint_probability < 0.9; },
                          [](Scenario* s) { s->ops.bad_checkpoint_probability = std::min(0.95, s->ops.bad_checkpoint_probability + 0.1); }));
  // Not with VAT recovered on prices that include it: there a higher rate holds more recoverable VAT and a lower
  // supply price in the same sticker (the business pays less, correctly).
  laws.push_back(Monotone("monotone: a higher tax",
                          [](const Scenario& s) { return !(s.pricing.vat_recoverable && s.pricing.price_includes_tax) && s.pricing.tax_rate < 0.9; },
                          [](Scenario* s) { s->pricing.tax_rate += 0.05; }));
  laws.push_back(Monotone("monotone: more tokens", IsTraining, [](Scenario* s) { s->workload.tokens *= 1.5; }));
  // Issue 50's inputs: each worse one never makes the job cheaper.
  laws.push_back(Monotone("monotone: more stopped hours", [](const Scenario& s) { return s.pricing.stopped_hours > 0; },
                          [](Scenario* s) { s->pricing.stopped_hours *= 2; }));
  laws.push_back(Monotone("monotone: a dearer stopped instance", [](const Scenario& s) { return s.pricing.stopped_hours > 0; },
                          [](Scenario* s) { s->pricing.stopped_price_fraction += (1 - s->pricing.stopped_price_fraction) / 2; }));
  laws.push_back(Monotone("monotone: more collective timeouts", IsTraining,
                          [](Scenario* s) { s->reliability.collective_timeouts_per_day = s->reliability.collective_timeouts_per_day * 2 + 0.1; }));
  laws.push_back(Monotone("monotone: more slow nodes", IsTraining, [](Scenario* s) {
                            s->reliability.slow_node_fraction = std::min(0.5, s->reliability.slow_node_fraction * 2 + 1e-3);
                          }));
  laws.push_back(Monotone("monotone: more early-failing GPUs", IsTraining, [](Scenario* s) {
                            s->reliability.infant_failure_fraction = std::min(0.5, s->reliability.infant_failure_fraction * 2 + 1e-3);
                          }));
  laws.push_back(Monotone("monotone: more interference on a shared GPU",
                          [](const Scenario& s) { return s.partition.profile[0] != 0; },
                          [](Scenario* s) { s->partition.interference += 0.2; }));
  laws.push_back({"identity: the finished model = the run's parts + experiments, abandoned runs and evaluation, "
                  "never below the run",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    const FinishedModel& f = base.finished_model;
                    if (!f.present || !base.ok || !std::isfinite(base.expected_usd)) return std::string();
                    *applied = true;
                    if (!Close(f.usd.Total(), f.total_usd, 1e-9)) return Fmt("parts, finished_model total", f.usd.Total(), f.total_usd);
                    if (f.total_usd < base.expected_usd * (1 - 1e-12)) return Fmt("finished model below the run", f.total_usd, base.expected_usd);
                    return std::string();
                  }});
  laws.push_back(Monotone("monotone: more tasks", [](const Scenario& s) { return Kind(s) == WorkloadKind::kIndependent; },
                          [](Scenario* s) { s->workload.tasks = s->workload.tasks * 3 / 2 + 1; }));
  laws.push_back(Monotone("monotone: more requests",
                          [](const Scenario& s) { return Kind(s) == WorkloadKind::kInference; },
                          [](Scenario* s) {
                            if (s->inference.requests > 0) s->inference.requests = std::round(s->inference.requests * 1.5);
                            else s->inference.requests_per_second *= 1.5;
                          }));
  // --- Identities ----------------------------------------------------------------------------------------------
  laws.push_back({"identity: the totals are the sums of their named parts", [](const Scenario& s, const Result& base, bool* applied) {
                    const Result& r = base;
                    if (!Priced(s, r)) return std::string();
                    *applied = true;
                    if (!Close(r.cost_usd.Total(), r.expected_usd)) return Fmt("money parts, total", r.cost_usd.Total(), r.expected_usd);
                    if (!Close(r.gpu_hours.Total(), r.billed_gpu_hours)) return Fmt("GPU-hour parts, billed", r.gpu_hours.Total(), r.billed_gpu_hours);
                    if (IsJob(s) && !Close(r.time_hours.Total(), r.expected_hours)) return Fmt("time parts, expected", r.time_hours.Total(), r.expected_hours);
                    for (int p = 0; p < kPartCount; ++p)
                      if (!(r.cost_usd.part[p] >= 0) || !(r.gpu_hours.part[p] >= 0)) return std::string("a part below zero: ") + PartName(p);
                    return std::string();
                  }});
  laws.push_back({"identity: supply + VAT = the invoice; the cost is it (or the supply, VAT recovered) + the delay",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    const Result& r = base;
                    if (!Priced(s, r)) return std::string();
                    *applied = true;
                    const VatLines v = VatBreakdown(s, r);
                    if (!Close(v.supply_usd + v.vat_usd, v.total_usd)) return Fmt("supply + VAT, total", v.supply_usd + v.vat_usd, v.total_usd);
                    const double cost = (s.pricing.vat_recoverable ? v.supply_usd : v.total_usd) + r.cost_usd.part[kPartDelay];
                    if (!Close(cost, r.expected_usd)) return Fmt("invoice + delay, expected cost", cost, r.expected_usd);
                    if (!r.tco.present && !Close(v.vat_usd, v.rate * v.supply_usd)) return Fmt("VAT, rate x supply", v.vat_usd, v.rate * v.supply_usd);
                    if (r.tco.present && v.vat_usd > v.rate * v.supply_usd * (1 + 1e-9) + 1e-9) return Fmt("VAT above rate x supply", v.vat_usd, v.rate * v.supply_usd);
                    return std::string();
                  }});
  laws.push_back({"identity: recoverable VAT is not a cost", [](const Scenario& s, const Result& base, bool* applied) {
                    if (s.pricing.tax_rate <= 0) return std::string();
                    Scenario paid = s, recovered = s;
                    paid.pricing.vat_recoverable = false;
                    recovered.pricing.vat_recoverable = true;
                    const Result a = Evaluate(paid), b = Evaluate(recovered);
                    if (!Priced(paid, a) || !Priced(recovered, b)) return std::string();
                    *applied = true;
                    if (!Close(a.vat_usd, b.vat_usd)) return Fmt("VAT paid, VAT recovered", a.vat_usd, b.vat_usd);
                    if (!Close(a.expected_usd - a.vat_usd, b.expected_usd, 1e-8)) return Fmt("cost less VAT, cost with VAT recovered", a.expected_usd - a.vat_usd, b.expected_usd);
                    return std::string();
                  }});
  laws.push_back({"identity: each billed GPU-hour counted once, at the price (rounding and the commitment term once)",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    if (!IsJob(s)) return std::string();
                    const Result& r = base;
                    if (!Priced(s, r)) return std::string();
                    const PricingModel m = Model(s);
                    const double reacquire = r.gpu_hours.part[kPartReacquireWait];
                    if (m == PricingModel::kOnDemand || m == PricingModel::kSpot ||
                        (m == PricingModel::kOwned && s.pricing.owned.other_use_fraction <= 0)) {
                      *applied = true;
                      // Issue 50: GPU-hours held stopped are billed at the stopped fraction for the first discount
                      // hours, the full price after (pricing.stopped_*), as the provider's rule says.
                      const double stopped = r.gpu_hours.part[kPartStopped];
                      const double h = s.pricing.stopped_hours, d = s.pricing.stopped_discount_hours;
                      const double at_fraction = d > 0 ? std::min(h, d) : h;
                      const double stopped_usd = stopped > 0 ? stopped / h * r.usd_per_gpu_hour *
                                                                   (s.pricing.stopped_price_fraction * at_fraction + h - at_fraction)
                                                             : 0;
                      const double want = r.usd_per_gpu_hour * (r.billed_gpu_hours - reacquire - stopped) + stopped_usd;
                      if (!Close(GpuMoney(r), want, 1e-8)) return Fmt("GPU money, price x billed GPU-hours", GpuMoney(r), want);
                      return std::string();
                    }
                    // A commitment of exactly the GPUs billed, none used by other work: the whole term is paid once,
                    // whatever the job does (bring-up, staging, restore tests, allocation idle), and renewed for whole
                    // terms while the work runs longer (fresh2 A12: the hours past the term were the only ones paid).
                    if (m == PricingModel::kReserved && s.pricing.reserved.committed_gpus == 0 &&
                        s.pricing.reserved.other_use_fraction == 0 && r.expected_preemptions == 0) {
                      const double term_h = s.pricing.reserved.term_months * kHoursPerMonth;
                      const double gpus = static_cast<double>(r.billed_gpus);
                      const double in_terms = r.billed_gpu_hours / gpus / term_h;
                      if (std::fabs(in_terms - std::round(in_terms)) < 1e-3) return std::string();  // at a term's end
                      *applied = true;
                      const double want = gpus * std::max(1.0, std::ceil(in_terms)) * term_h * r.usd_per_gpu_hour;
                      if (!Close(GpuMoney(r), want, 1e-8)) return Fmt("GPU money, committed GPUs x term x price", GpuMoney(r), want);
                    }
                    return std::string();
                  }});
  laws.push_back({"identity: a discount-only reservation waits as on-demand does; owned waits its lead time",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    if (!IsJob(s)) return std::string();
                    const PricingComparison c = ComparePricingModels(s);
                    if (!c.ok) return std::string();
                    *applied = true;
                    const Scenario reserved = WithPricingModel(s, PricingModel::kReserved);
                    const double od = c.models[0].result.schedule.wait_mean_hours;
                    const double res = c.models[static_cast<int>(PricingModel::kReserved)].result.schedule.wait_mean_hours;
                    if (!reserved.pricing.reserved.capacity_guaranteed && res != od) return Fmt("reserved wait, on-demand wait", res, od);
                    const double owned = c.models[static_cast<int>(PricingModel::kOwned)].result.schedule.wait_mean_hours;
                    if (!Close(owned, s.pricing.owned.lead_time_days * 24)) return Fmt("owned wait, lead time", owned, s.pricing.owned.lead_time_days * 24);
                    return std::string();
                  }});
  // --- Refusal ---------------------------------------------------------------------------------------------------
  laws.push_back({"refusal: a job that cannot finish or cannot run is blocked, never priced", [](const Scenario& s, const Result& base, bool* applied) {
                    const Result& r = base;
                    if (!r.ok) return std::string();
                    *applied = true;
                    const BlockingState b = FindBlockingState(s, r);
                    const bool overflow = !NonFiniteResultPath(r).empty();  // refused at the edge (exit 2)
                    if (b.blocked || overflow) return std::string();
                    if (r.never_finishes) return std::string("never finishes, yet priced");
                    if (r.memory_present && !r.memory.fits()) return std::string("does not fit in memory, yet priced");
                    if (IsJob(s) && EffectiveBadCheckpointProbability(s) >= 1 && r.expected_interruptions > 0)
                      return std::string("every checkpoint unusable, yet priced");
                    if (IsJob(s) && r.expected_hours > kAbsurdYears * kHoursPerYear) return Fmt("longer than 100 years, yet priced", r.expected_hours, 0);
                    if (IsJob(s) && r.ideal_gpu_hours > 0 && r.billed_gpu_hours > kAbsurdTimesNormal * r.ideal_gpu_hours)
                      return Fmt("more than 1,000 x its GPU-hours, yet priced", r.billed_gpu_hours, r.ideal_gpu_hours);
                    if (!(r.expected_usd >= 0)) return Fmt("priced below zero", r.expected_usd, 0);
                    if (r.inference.present && !r.inference.fits) return std::string("a service that does not fit, yet priced");
                    return std::string();
                  }});
  // The refusal on every path that shows money: the result document and a comparison's column carry no price for a
  // blocked job, and a blocked column is never the cheapest (this session found eval's JSON and compare pricing one).
  laws.push_back({"refusal: a blocked job carries no price in eval's document or a compare column, and is never cheapest",
                  [](const Scenario& s, const Result& base, bool* applied) {
                    if (!base.ok) return std::string();
                    *applied = true;
                    const bool blocked = FindBlockingState(s, base).blocked;
                    const nlohmann::json doc = nlohmann::json::parse(ResultToJson(s, base, -1));
                    if (blocked != doc["cost"]["expected_usd"].is_null())
                      return std::string(blocked ? "blocked, yet eval's document prices it" : "priced, yet eval's document has no total");
                    CompareColumn col;
                    col.scenario = s;
                    col.result = base;
                    const Comparison c = CompareScenarios({col, col});
                    if (blocked && c.cheapest >= 0) return std::string("a blocked compare column is marked cheapest");
                    if (!blocked && c.cheapest != 0) return std::string("a priced compare column is not the cheapest of two equals");
                    const nlohmann::json cmp = nlohmann::json::parse(CompareToJson(c, -1));
                    if (blocked != cmp["scenarios"][0]["expected_cost"].is_null())
                      return std::string(blocked ? "blocked, yet its compare column is priced" : "priced, yet its compare column has no cost");
                    return std::string();
                  }});
  return laws;
}

// ---------------------------------------------------------------------------------------------------------------
// [SECTION] Running and shrinking

void ThrowOnAssert(const char* file, int line, const char* condition, const char* what) {
  throw std::logic_error(std::string("GPUCOST_ASSERT: ") + what + " (" + condition + ") at " + file + ":" + std::to_string(line));
}

// The law's verdict on one scenario (its own evaluation given, or made here); a failed assertion or an exception is
// a broken law too.
std::string Verdict(const Law& law, const Scenario& s, bool* applied, const Result* base = nullptr) {
  try {
    if (base) return law.check(s, *base, applied);
    const Result r = Evaluate(s);
    return law.check(s, r, applied);
  } catch (const std::exception& e) {
    *applied = true;
    return e.what();
  }
}

bool StillBreaks(const Law& law, const Scenario& s) {
  if (!ValidateScenario(s).empty()) return false;
  bool applied = false;
  return !Verdict(law, s, &applied).empty();
}

// Shrinks a failing scenario: every field back to its default where the law still breaks, then numbers to two
// significant digits, until nothing more changes.
Scenario Shrink(const Law& law, Scenario s) {
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    const Scenario defaults = DefaultScenario();
    for (std::size_t i = 0; i < FieldCount(); ++i) {
      const FieldSpec& f = Fields()[i];
      if (IsDefault(s, f)) continue;
      Scenario t = s;
      if (f.kind == FieldKind::kText) {
        char* dst = static_cast<char*>(f.ref(t));
        std::snprintf(dst, TextCapacity(f), "%s", f.default_text);
      } else {
        SetNumber(t, f, GetNumber(defaults, f));
      }
      if (StillBreaks(law, t)) s = t, changed = true;
    }
    for (std::size_t i = 0; i < FieldCount(); ++i) {
      const FieldSpec& f = Fields()[i];
      if (f.kind != FieldKind::kNumber || IsDefault(s, f)) continue;
      const double v = GetNumber(s, f);
      if (v == 0) continue;
      const double scale = std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 1);
      const double rounded = std::round(v / scale) * scale;
      if (rounded == v) continue;
      Scenario t = s;
      SetNumber(t, f, rounded);
      if (StillBreaks(law, t)) s = t, changed = true;
    }
    if (!changed) break;
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  long scenarios = 10000;
  std::uint64_t seed = 45;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--scenarios" && i + 1 < argc) scenarios = std::atol(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--quiet") quiet = true;
    else {
      std::fprintf(stderr, "usage: money_laws [--scenarios N] [--seed S] [--quiet]\n");
      return 2;
    }
  }
  SetAssertsOn(true);
  SetAssertHandler(ThrowOnAssert);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Law> laws = Laws();
  std::vector<long> checked(laws.size(), 0);
  long per_family[static_cast<int>(Family::kCount)] = {}, invalid = 0, blocked = 0;
  int broken = 0;
  Draw draw(seed);
  long valid = 0;
  for (long n = 0; valid < scenarios && broken < 3 && n < 4 * scenarios; ++n) {
    const Family family = static_cast<Family>(n % static_cast<int>(Family::kCount));
    const Scenario s = Generate(draw, family);
    if (!ValidateScenario(s).empty()) {
      ++invalid;
      continue;
    }
    ++valid;
    ++per_family[static_cast<int>(family)];
    Result base;
    try {
      base = Evaluate(s);
    } catch (const std::exception& e) {
      std::printf("BROKEN LAW: GPUCOST_ASSERT\n  scenario %ld: %s\n  scenario: %s\n\n", n, e.what(), ScenarioToJson(s, true, -1).c_str());
      ++broken;
      continue;
    }
    if (FindBlockingState(s, base).blocked) ++blocked;
    for (std::size_t k = 0; k < laws.size(); ++k) {
      const Law& law = laws[k];
      if (n % law.every != 0) continue;
      bool applied = false;
      const std::string why = Verdict(law, s, &applied, &base);
      if (applied) ++checked[k];
      if (why.empty()) continue;
      ++broken;
      const Scenario small = Shrink(law, s);
      bool again = false;
      std::printf("BROKEN LAW: %s\n  scenario %ld (%s, seed %llu): %s\n  shrunk scenario: %s\n  on it: %s\n\n", law.name, n,
                  kFamilyNames[static_cast<int>(family)], static_cast<unsigned long long>(seed), why.c_str(),
                  ScenarioToJson(small, true, -1).c_str(), Verdict(law, small, &again).c_str());
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long total = 0;
  for (long f : per_family) total += f;
  if (!quiet || broken) {
    std::printf("money_laws: %ld scenarios in %.1f s (seed %llu; %ld drawn invalid and skipped; %ld blocked):", total, seconds,
                static_cast<unsigned long long>(seed), invalid, blocked);
    for (int f = 0; f < static_cast<int>(Family::kCount); ++f) std::printf(" %s %ld%s", kFamilyNames[f], per_family[f], f + 1 < static_cast<int>(Family::kCount) ? "," : "\n");
    for (std::size_t k = 0; k < laws.size(); ++k) std::printf("  %7ld  %s\n", checked[k], laws[k].name);
    std::printf("GPUCOST_ASSERT: %d sites checked\n", AssertSitesChecked());
  }
  if (broken) {
    std::printf("money_laws: %d broken law(s)\n", broken);
    return 1;
  }
  // Fewer valid scenarios than asked (the generator drew invalid ones 3 times in 4): the laws were not checked on
  // the number the CI promises (issue 45: at least 10,000), which is a failure, not a pass.
  if (total < scenarios) {
    std::printf("money_laws: only %ld valid scenarios of the %ld asked (%ld drawn invalid)\n", total, scenarios, invalid);
    return 1;
  }
  return 0;
}
