// mtbf_update.cpp — the gamma-Poisson update of the MTBF (mtbf_update.h).
#include "evidence/mtbf_update.h"

#include <cmath>

namespace gpucost {

double GammaP(double a, double x) {
  if (!(a > 0) || !(x > 0)) return 0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {  // series: P = e^-x x^a / Gamma(a+1) * sum x^n / ((a+1)...(a+n))
    double term = 1 / a, sum = term;
    for (int n = 1; n < 1000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
    }
    return std::exp(log_front) * sum;
  }
  // Continued fraction for Q = 1 - P (modified Lentz).
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return 1 - std::exp(log_front) * h;
}

double GammaPInverse(double a, double p) {
  if (!(a > 0) || !(p > 0)) return 0;
  if (p >= 1) return INFINITY;
  double lo = 0, hi = a + 1;
  while (GammaP(a, hi) < p) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (GammaP(a, mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

MtbfUpdate UpdateMtbf(double prior_mtbf_hours, double prior_failures, double failures, double exposure, double level) {
  MtbfUpdate u;
  u.prior_mtbf_hours = prior_mtbf_hours > 0 ? prior_mtbf_hours : 0;
  u.prior_failures = prior_mtbf_hours > 0 ? prior_failures : 0;
  u.prior_gpu_hours = u.prior_failures * u.prior_mtbf_hours;
  u.failures = failures;
  u.exposure_gpu_hours = exposure;
  const double shape = u.prior_failures + failures, rate = u.prior_gpu_hours + exposure;
  u.prior_share = shape > 0 ? u.prior_failures / shape : 0;
  if (!(shape > 0) || !(rate > 0)) return u;  // nothing known: no failures assumed, none seen
  u.mtbf_hours = rate / shape;
  const double tail = (1 - level) / 2;
  // lambda = G / rate with G ~ Gamma(shape, 1): MTBF bounds are rate / G at the upper and lower quantiles.
  u.low_hours = rate / GammaPInverse(shape, 1 - tail);
  u.high_hours = rate / GammaPInverse(shape, tail);
  return u;
}

}  // namespace gpucost
