// montecarlo_json.cpp — the Monte Carlo document (montecarlo_json.h).
#include "documents/montecarlo_json.h"

#include "hardware/calibration.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include "job/evaluate.h"
#include "base/format.h"
#include "base/i18n.h"

namespace gpucost {

namespace {

nlohmann::ordered_json StatsJson(const McStats& s, double k) {
  return {{"mean", s.mean * k}, {"p10", s.p10 * k}, {"p50", s.p50 * k}, {"p90", s.p90 * k}, {"min", s.min * k},
          {"max", s.max * k}};
}

nlohmann::ordered_json HistogramJson(const McHistogram& h, double k) {
  nlohmann::ordered_json counts = nlohmann::ordered_json::array();
  for (std::int64_t c : h.counts) counts.push_back(c);
  return {{"lo", h.lo * k}, {"hi", h.hi * k}, {"counts", counts}, {"below", h.below}, {"above", h.above},
          {"resolved", h.resolved}, {"median", h.center * k}, {"within_resolution", h.within}};
}

}  // namespace
std::string McSummaryToJson(const McSummary& m, const Result& closed_form, int indent) {
  const double k = closed_form.display_per_usd;
  nlohmann::ordered_json j;
  j["schema"] = "gpucost/mc@1";
  j["trials"] = m.trials;
  j["seed"] = m.seed;
  j["currency"] = closed_form.display_currency;
  j["time_hours"] = StatsJson(m.time_hours, 1);
  j["cost_usd"] = StatsJson(m.cost_usd, 1);
  j["cost"] = StatsJson(m.cost_usd, k);
  j["histogram"] = {{"bins", kMcHistogramBins},
                    {"time_hours", HistogramJson(m.time_hist, 1)},
                    {"cost_usd", HistogramJson(m.cost_hist, 1)},
                    {"cost", HistogramJson(m.cost_hist, k)}};
  nlohmann::ordered_json parts = nlohmann::ordered_json::object();
  for (int p = 0; p < kPartCount; ++p)
    if (m.mean_cost_usd.part[p] != 0 || m.mean_time_hours.part[p] != 0)
      parts[PartName(p)] = {{"hours", m.mean_time_hours.part[p]}, {"usd", m.mean_cost_usd.part[p]}};
  j["mean_breakdown"] = parts;
  j["mean_interruptions"] = m.mean_interruptions;
  j["mean_failures"] = m.mean_failures;
  j["mean_preemptions"] = m.mean_preemptions;
  j["closed_form"] = {{"time_hours", m.closed_form_hours}, {"cost_usd", m.closed_form_usd},
                      {"cost", m.closed_form_usd * k}};
  if (m.model_error_sampled)  // issue 18: each trial draws the step-time model's error on published runs
    j["model_error"] = {{"sampled", true}, {"step_time_error_min", kStepModelError.min},
                        {"step_time_error_mean", kStepModelError.mean}, {"step_time_error_max", kStepModelError.max},
                        {"runs", kStepModelError.runs}};
  j["finish_hours"] = StatsJson(m.finish_hours, 1);  // issue 29: the wait for capacity + the time
  j["wait_mean_hours"] = m.wait_mean_hours;
  if (m.deadline_given) {  // absent without a deadline (null means a non-finite figure)
    j["deadline_hours"] = m.deadline_hours;
    j["p_miss_deadline"] = m.p_miss_deadline;
  }
  j["truncated_trials"] = m.truncated_trials;  // stopped at the event cap (0 unless the job barely finishes)
  return j.dump(indent);
}

}  // namespace gpucost
