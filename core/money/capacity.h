// capacity.h — the wait for capacity before a job starts, when it finishes, and what missing the deadline costs
// (issue 29).
//
// Start: the job waits W for its GPUs, then brings the cluster up and runs. W is exponential (memoryless: the
// chance capacity appears in the next hour does not depend on how long one has waited), with a mean per
// pricing model:
//   on-demand                      capacity.on_demand_wait_hours (an input: no provider publishes it)
//   spot                           pricing.spot.reacquire_minutes (the same wait as after a preemption)
//   reserved, capacity guaranteed  0 (a capacity block or reservation: the GPUs are there on its start date)
//   reserved, discount only        as on-demand (Savings Plans and CUDs do not reserve capacity)
//   owned                          pricing.owned.lead_time_days, a fixed delay before the start (issue 45: owned
//                                  hardware is ordered, delivered and installed; 0 when it already runs)
// Run: the job's billed timeline T from bring-up to the end (Evaluate's expected_hours), approximately normal
// with the standard deviation of a compound Poisson sum (each rollback loses a uniform share of its segment and
// adds its recovery and, for spot, its reacquisition wait; operations.h RunSdHours).
// Finish = W + T: an exponentially modified Gaussian, so P50/P90, the chance of missing the deadline and the
// expected hours past it have closed forms (the Monte Carlo samples W per trial and checks them).
// Delay cost = workload.value_per_day_usd x E[hours past the deadline] / 24; without a deadline the delay is
// counted from the normal run (nothing waits or fails). It is a part (kPartDelay) of the total, not billed and
// not taxed, so comparisons rank by the total including it.
#pragma once

namespace gpucost {

struct Scenario;

struct ScheduleOutlook {
  bool present = false;
  const char* wait_basis = "";      // "on_demand_wait", "spot_reacquire", "reserved_guaranteed", "owned"
  bool capacity_guaranteed = false;
  double wait_mean_hours = 0;       // mean wait for capacity (the lead time included)
  double lead_hours = 0;            // of it, the fixed lead time (owned hardware)
  double start_p50_hours = 0, start_p90_hours = 0;
  double run_mean_hours = 0, run_sd_hours = 0;
  double finish_mean_hours = 0, finish_p50_hours = 0, finish_p90_hours = 0;
  bool deadline_given = false;
  double deadline_hours = 0;        // given, else the normal run
  double p_miss_deadline = 0;       // P(finish > deadline) (deadline given)
  double expected_delay_hours = 0;  // E[max(0, finish - deadline)]
  double delay_usd = 0;             // value_per_day x expected_delay_hours / 24
};

// Mean wait for capacity under the scenario's pricing model (hours), as above: the exponential part.
double CapacityWaitMeanHours(const Scenario& s, bool* guaranteed, const char** basis);
// The fixed part of the wait (hours): owned hardware's purchase lead time; 0 for the other models.
double CapacityLeadHours(const Scenario& s);

// P(W + T > x) for W exponential with mean wait_h (0: none) and T normal (run_h, sd_h) (sd 0: fixed).
double FinishSurvival(double x, double wait_h, double run_h, double sd_h);
// The p-quantile of W + T.
double FinishQuantile(double p, double wait_h, double run_h, double sd_h);
// E[max(0, W + T - deadline)].
double ExpectedHoursPast(double deadline_h, double wait_h, double run_h, double sd_h);

// The outlook from the wait, the run's mean and spread, the deadline (given or the normal run) and the value of
// a day.
// lead_h: a fixed delay before the wait (owned hardware's lead time): the start and the finish move by it.
ScheduleOutlook ComputeOutlook(double wait_h, double run_h, double sd_h, bool deadline_given, double deadline_h,
                               double value_per_day_usd, double lead_h = 0);

}  // namespace gpucost
