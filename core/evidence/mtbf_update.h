// mtbf_update.h — the MTBF a run's interruptions say, against the catalog's figure as a prior (issue 49).
//
// Failures of a GPU arrive as a Poisson process of rate lambda per GPU-hour (reliability.h). The prior on lambda
// is a gamma distribution with shape a0 and rate b0 = a0 x the prior MTBF: its mean is 1 / MTBF, and it weighs as
// much as a0 failures seen over b0 GPU-hours. n failures over an exposure of E GPU-hours give the gamma posterior
// (a0 + n, b0 + E) (conjugate; Gelman et al., Bayesian Data Analysis, 3rd ed., section 2.6). The MTBF the next plan
// uses is 1 / E[lambda] = (b0 + E) / (a0 + n): the rate whose expected failure count is the posterior's; the
// credible interval is the posterior's equal-tailed one on lambda, turned over.
//
// The prior's weight, kMtbfPriorFailures = 2 (an assumption, stated in every document that uses it): the catalog's
// 50,000 GPU-hours is one cluster's figure (Llama 3's: 419 interruptions in 54 days on 16,384 H100; Dubey et al.
// 2024, section 3.3.4), and clusters differ (Kokolis et al. 2024, arXiv:2410.21680, fit their own failure rates on
// two A100 research clusters). A gamma prior of shape 2 puts 90% of its weight between 0.18x and 2.37x its mean
// rate: it keeps the catalog's figure where a run has seen little, and a run with a few failures moves it.
#pragma once

namespace gpucost {

constexpr double kMtbfPriorFailures = 2;
constexpr double kMtbfCredibleLevel = 0.90;

struct MtbfUpdate {
  double prior_mtbf_hours = 0;      // per GPU
  double prior_failures = 0;        // a0
  double prior_gpu_hours = 0;       // b0
  double failures = 0;              // n, observed
  double exposure_gpu_hours = 0;    // E, observed
  double mtbf_hours = 0;            // (b0 + E) / (a0 + n); 0 when the prior is "no failures" and none were seen
  double low_hours = 0, high_hours = 0;  // the credible interval (kMtbfCredibleLevel, equal-tailed)
  double prior_share = 0;           // a0 / (a0 + n): how much of the estimate is still the prior's
};

// prior_mtbf_hours <= 0 (reliability.gpu_mtbf_hours = 0: no failures) takes no prior: the estimate is the data's
// alone (n / E), and with no failure seen the MTBF stays 0 (none) and the interval [0, 0].
MtbfUpdate UpdateMtbf(double prior_mtbf_hours, double prior_failures, double failures, double exposure_gpu_hours,
                      double level = kMtbfCredibleLevel);

// The regularised lower incomplete gamma function P(a, x) (series below a + 1, continued fraction above;
// Numerical Recipes, 3rd ed., section 6.2), and its inverse in x by bisection on a bracketing interval.
double GammaP(double a, double x);
double GammaPInverse(double a, double p);

}  // namespace gpucost
