// capacity.cpp — the wait for capacity and the deadline (see capacity.h).
#include "money/capacity.h"

#include <algorithm>
#include <cmath>

#include "scenario/scenario.h"

namespace gpucost {
namespace {

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// log Phi(v), finite for very negative v (Mills ratio asymptote where erfc underflows).
double LogNormalCdf(double v) {
  if (v > -30) return std::log(NormalCdf(v));
  return -0.5 * v * v - std::log(-v * std::sqrt(2 * M_PI));
}

}  // namespace

double CapacityWaitMeanHours(const Scenario& s, bool* guaranteed, const char** basis) {
  *guaranteed = false;
  switch (Model(s)) {
    case PricingModel::kSpot:
      *basis = "spot_reacquire";
      return s.pricing.spot.reacquire_minutes / 60;
    case PricingModel::kReserved:
      if (s.pricing.reserved.capacity_guaranteed) {
        *guaranteed = true;
        *basis = "reserved_guaranteed";
        return 0;
      }
      *basis = "on_demand_wait";
      return s.ops.on_demand_wait_hours;
    case PricingModel::kOwned:
      *guaranteed = true;
      *basis = "owned";
      return 0;
    case PricingModel::kOnDemand: break;
  }
  *basis = "on_demand_wait";
  return s.ops.on_demand_wait_hours;
}

double FinishSurvival(double x, double m, double mu, double sd) {
  if (m <= 0) {
    if (sd <= 0) return x < mu ? 1 : 0;
    return 1 - NormalCdf((x - mu) / sd);
  }
  if (sd <= 0) return x < mu ? 1 : std::exp(-(x - mu) / m);
  // Exponentially modified Gaussian: S(x) = 1 - Phi(z) + exp(-(x-mu)/m + sd^2/(2 m^2)) Phi(z - sd/m).
  const double z = (x - mu) / sd;
  const double log_tail = -(x - mu) / m + sd * sd / (2 * m * m) + LogNormalCdf(z - sd / m);
  return std::min(1.0, std::max(0.0, 1 - NormalCdf(z) + std::exp(std::min(700.0, log_tail))));
}

double FinishQuantile(double p, double m, double mu, double sd) {
  double lo = mu - 10 * sd, hi = mu + 10 * sd + 50 * m + 1e-9;
  if (FinishSurvival(lo, m, mu, sd) < 1 - p) return lo;
  for (int i = 0; i < 100 && hi - lo > 1e-9 * std::max(1.0, std::fabs(hi)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (FinishSurvival(mid, m, mu, sd) > 1 - p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double ExpectedHoursPast(double d, double m, double mu, double sd) {
  if (m <= 0 && sd <= 0) return std::max(0.0, mu - d);
  // E[(X - d)+] = integral of S(x) from d to infinity (Simpson's rule; S is negligible past the upper end).
  // Below mu - 10 sd, S = 1 for the Gaussian part: that stretch contributes its length exactly.
  double lo = d, exact = 0;
  if (sd > 0 && lo < mu - 10 * sd) {
    exact = (mu - 10 * sd) - lo;
    lo = mu - 10 * sd;
  } else if (sd <= 0 && lo < mu) {
    exact = mu - lo;
    lo = mu;
  }
  const double hi = std::max(lo, mu) + 12 * sd + 40 * m;
  if (hi <= lo) return exact;
  const int n = 400;  // even
  const double h = (hi - lo) / n;
  double sum = FinishSurvival(lo, m, mu, sd) + FinishSurvival(hi, m, mu, sd);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * FinishSurvival(lo + i * h, m, mu, sd);
  return exact + sum * h / 3;
}

ScheduleOutlook ComputeOutlook(double m, double mu, double sd, bool given, double deadline, double value_per_day) {
  ScheduleOutlook o;
  o.present = true;
  o.wait_mean_hours = m;
  o.start_p50_hours = m * std::log(2.0);
  o.start_p90_hours = m * std::log(10.0);
  o.run_mean_hours = mu;
  o.run_sd_hours = sd;
  o.finish_mean_hours = m + mu;
  o.finish_p50_hours = FinishQuantile(0.5, m, mu, sd);
  o.finish_p90_hours = FinishQuantile(0.9, m, mu, sd);
  o.deadline_given = given;
  o.deadline_hours = deadline;
  o.p_miss_deadline = given ? FinishSurvival(deadline, m, mu, sd) : 0;
  o.expected_delay_hours = ExpectedHoursPast(deadline, m, mu, sd);
  o.delay_usd = value_per_day * o.expected_delay_hours / 24;
  return o;
}

}  // namespace gpucost
