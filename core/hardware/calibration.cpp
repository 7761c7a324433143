// calibration.cpp — the step-time model's measured error and evidence bounds (see calibration.h).
#include "hardware/calibration.h"

#include <cmath>

namespace gpucost {

double BestMeasuredMfu(const std::string& arch) {
  if (arch == "Ampere") return 0.6911;  // torchtune, Llama 3.2 3B full fine-tune on one A100 (torch.compile, chunked cross-entropy): 69.1%
  if (arch == "Hopper") return 0.6276;  // NeMo 24.09, 7 of Llama 3.1 405B's layers on 32 H100 (BF16): 62.8% (DGX Cloud recipes)
  return 0;
}

MfuBand MfuBandFor(double predicted_mfu, double best_measured_mfu) {
  MfuBand b;
  b.low = predicted_mfu * (1 + kStepModelError.min);
  b.high = predicted_mfu * (1 + kStepModelError.max);
  b.best_measured = best_measured_mfu;
  b.beyond_evidence = best_measured_mfu > 0 && predicted_mfu > best_measured_mfu;
  return b;
}

double DoubtedSeconds(double seconds, double predicted_mfu, double best_measured_mfu) {
  if (best_measured_mfu <= 0 || predicted_mfu <= best_measured_mfu) return seconds;
  return seconds * predicted_mfu / best_measured_mfu;
}

double StepTimeErrorFactor(double u) {
  const double a = kStepModelError.min, b = kStepModelError.max, c = kStepModelError.mean;
  const double split = (c - a) / (b - a);
  const double e = u < split ? a + std::sqrt(u * (b - a) * (c - a)) : b - std::sqrt((1 - u) * (b - a) * (b - c));
  return 1 / (1 + e);
}

}  // namespace gpucost
