// capacity.cpp — the wait for capacity and the deadline (see capacity.h).
#include "money/capacity.h"
#include "base/asserts.h"

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

double CapacityLeadHours(const Scenario& s) {
  return Model(s) == PricingModel::kOwned ? s.pricing.owned.lead_time_days * 24 : 0;
}

namespace {

// S(x) = P(W + T > x) and its density f(x) = -S'(x), for W ~ Exp(mean m) and T ~ N(mu, sd) (both m, sd > 0).
// Exponentially modified Gaussian: S(x) = 1 - Phi(z) + exp(L), f(x) = exp(L) / m, with z = (x - mu) / sd and
// L = -(x - mu)/m + sd^2/(2 m^2) + log Phi(z - sd/m).
double EmgSurvival(double x, double m, double mu, double sd, double* density) {
  const double z = (x - mu) / sd;
  const double log_tail = std::min(700.0, -(x - mu) / m + sd * sd / (2 * m * m) + LogNormalCdf(z - sd / m));
  const double tail = std::exp(log_tail);
  if (density) *density = tail / m;
  return std::min(1.0, std::max(0.0, 1 - NormalCdf(z) + tail));
}

}  // namespace

double FinishSurvival(double x, double m, double mu, double sd) {
  if (m <= 0) {
    if (sd <= 0) return x < mu ? 1 : 0;
    return 1 - NormalCdf((x - mu) / sd);
  }
  if (sd <= 0) return x < mu ? 1 : std::exp(-(x - mu) / m);
  return EmgSurvival(x, m, mu, sd, nullptr);
}

double FinishQuantile(double p, double m, double mu, double sd) {
  // Closed forms where one of the two is absent; otherwise Newton's method on S(x) = 1 - p with the density
  // above, kept inside a bracket that bisection narrows whenever a step would leave it (issue 48: the bisection
  // alone took about 40 evaluations of S for each quantile, Newton 2 to 5, to a closer answer).
  const double q = 1 - p;
  if (sd <= 0) return m <= 0 ? mu : mu - m * std::log(q);
  const auto survival = [&](double x, double* density) {
    if (m > 0) return EmgSurvival(x, m, mu, sd, density);
    const double z = (x - mu) / sd;
    *density = std::exp(-0.5 * z * z) / (sd * std::sqrt(2 * M_PI));
    return 1 - NormalCdf(z);
  };
  // The bracket: S(mu - 10 sd) >= 1 - Phi(-10) (1 - 8e-24) and S(mu + 10 sd + 50 m) <= Phi's and the wait's tails
  // there (8e-24 + 2e-22): every quantile asked for (P50, P90) lies inside.
  double lo = mu - 10 * sd, hi = mu + 10 * sd + 50 * m;
  double density = 0;
  double x = std::min(hi, std::max(lo, mu + (m > 0 ? -m * std::log(q) : 0.0)));
  for (int i = 0; i < 200; ++i) {
    const double s = survival(x, &density);
    (s > q ? lo : hi) = x;
    double next = density > 0 ? x + (s - q) / density : lo - 1;
    if (!(next >= lo && next <= hi)) next = 0.5 * (lo + hi);
    // A Newton step under 1e-9 of x leaves an error near its square; bisection's own stop was 1e-9 of x.
    const double tolerance = 1e-9 * std::max(1.0, std::fabs(next));
    if (std::fabs(next - x) <= tolerance || hi - lo <= tolerance) return next;
    x = next;
  }
  return x;
}

double ExpectedHoursPast(double d, double m, double mu, double sd) {
  // Closed form (issue 45: Simpson's rule on S(x) erred by 4e-6 of a 55,000-hour run, below the mean finish's own
  // hours past the deadline). Given T = t: (W + t - d)+ has mean t - d + m when t >= d and m e^{-(d - t)/m} when
  // t < d (W memoryless). Over T ~ N(mu, sd), with z = (d - mu) / sd:
  //   E = (mu - d + m) (1 - Phi(z)) + sd phi(z) + m exp((mu - d)/m + sd^2/(2 m^2)) Phi(z - sd/m).
  if (sd <= 0) {
    if (m <= 0) return std::max(0.0, mu - d);
    return mu >= d ? mu - d + m : m * std::exp(-(d - mu) / m);
  }
  const double z = (d - mu) / sd;
  const double upper = 0.5 * std::erfc(z / std::sqrt(2.0));  // 1 - Phi(z), accurate in the far tail
  const double density = std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
  double e = (mu - d + m) * upper + sd * density;
  if (m > 0) {
    // exp(A) Phi(v), A = (mu - d)/m + sd^2/(2 m^2), v = z - sd/m. Far in Phi's tail (v < -30) log Phi(v) is
    // -v^2/2 - log(-v sqrt(2 pi)) and v^2/2 = z^2/2 + A: the huge terms cancel exactly, so they are left out.
    const double v = z - sd / m;
    const double log_term = v > -30 ? (mu - d) / m + sd * sd / (2 * m * m) + LogNormalCdf(v)
                                    : -0.5 * z * z - std::log(-v * std::sqrt(2 * M_PI));
    e += m * std::exp(std::min(700.0, log_term));
  }
  return std::max(0.0, e);
}

ScheduleOutlook ComputeOutlook(double m, double mu, double sd, bool given, double deadline, double value_per_day,
                               double lead) {
  ScheduleOutlook o;
  o.present = true;
  o.lead_hours = lead;
  o.wait_mean_hours = lead + m;
  o.start_p50_hours = lead + m * std::log(2.0);
  o.start_p90_hours = lead + m * std::log(10.0);
  o.run_mean_hours = mu;
  o.run_sd_hours = sd;
  o.finish_mean_hours = lead + m + mu;
  // The lead time shifts the whole finish: W + T + lead is W + T' with T' = T + lead.
  o.finish_p50_hours = FinishQuantile(0.5, m, mu + lead, sd);
  o.finish_p90_hours = FinishQuantile(0.9, m, mu + lead, sd);
  o.deadline_given = given;
  o.deadline_hours = deadline;
  o.p_miss_deadline = given ? FinishSurvival(deadline, m, mu + lead, sd) : 0;
  o.expected_delay_hours = ExpectedHoursPast(deadline, m, mu + lead, sd);
  o.delay_usd = value_per_day * o.expected_delay_hours / 24;
  if (!std::isfinite(mu) || !std::isfinite(sd) || !std::isfinite(m)) return o;  // overflowed: refused at the edge
  GPUCOST_ASSERT(o.p_miss_deadline >= 0 && o.p_miss_deadline <= 1, "the chance of missing the deadline is in [0, 1]");
  GPUCOST_ASSERT(o.start_p90_hours >= o.start_p50_hours && o.finish_p90_hours >= o.finish_p50_hours * (1 - 1e-9) - 1e-9,
                 "a P90 is never before the P50");
  // Jensen: the expected hours past the deadline are at least the mean finish's hours past it.
  GPUCOST_ASSERT(AmountOk(o.expected_delay_hours) &&
                     o.expected_delay_hours >= std::max(0.0, o.finish_mean_hours - deadline) * (1 - 1e-6) - 1e-6,
                 "E[hours past the deadline] >= the mean finish's hours past it");
  GPUCOST_ASSERT(AmountOk(o.delay_usd), "the delay cost is a number >= 0");
  return o;
}

}  // namespace gpucost
