#include <doctest/doctest.h>

#include <cmath>

#include "job/reliability.h"

using namespace gpucost;

TEST_CASE("Daly's complete model: segment time M e^{R/M} (e^{(tau+delta)/M} - 1)") {
  const double M = 24 * 3600, R = 600, delta = 300, tau = 3 * 3600;
  TimelineInputs in;
  in.work_seconds = 100 * tau;
  in.interval_seconds = tau;
  in.checkpoint_block_seconds = delta;
  in.checkpoint_write_seconds = delta;
  in.failure_rate_per_s = 1 / M;
  in.failure_recovery_seconds = R;
  Timeline t = ExpectedTimeline(in);
  const double daly = 100 * M * std::exp(R / M) * std::expm1((tau + delta) / M);
  CHECK(t.total() == doctest::Approx(daly).epsilon(1e-12));
  CHECK(t.interruptions == doctest::Approx(100 * std::expm1((tau + delta) / M) * std::exp(R / M)).epsilon(1e-12));
}

TEST_CASE("Young and Daly intervals") {
  // delta = 5 min, M = 24 h: Young sqrt(2 x 300 x 86400) = 7200 s; Daly's correction is small and positive.
  CHECK(YoungInterval(300, 86400) == doctest::Approx(7200));
  const double d = DalyInterval(300, 86400);
  CHECK(d == doctest::Approx(7200 * (1 + std::sqrt(300.0 / 172800) / 3 + 300.0 / 172800 / 9) - 300));
  CHECK(DalyInterval(1000, 400) == 400);  // delta >= 2M: tau = M
}

TEST_CASE("the optimum minimises Daly's expected time") {
  const double M = 5 * 3600, delta = 600, R = 300;
  auto total = [&](double tau) {
    TimelineInputs in;
    in.work_seconds = 1e7;
    in.interval_seconds = tau;
    in.checkpoint_block_seconds = delta;
    in.failure_rate_per_s = 1 / M;
    in.failure_recovery_seconds = R;
    return ExpectedTimeline(in).total();
  };
  const double opt = DalyInterval(delta, M);
  CHECK(total(opt) <= total(opt * 0.8));
  CHECK(total(opt) <= total(opt * 1.25));
  // Daly's estimate is within 0.1% of the true minimum's cost.
  double best = total(opt);
  for (double f = 0.5; f < 2; f += 0.01) best = std::min(best, total(opt * f));
  CHECK(total(opt) <= best * 1.001);
}
