// scaling_fit.h — fit a scaling law to measured throughput at two or more GPU counts and extrapolate it.
//
// Laws (X(N): tokens/s at N GPUs; lambda: tokens/s of one GPU without losses):
//   Amdahl:                        X(N) = lambda N / (1 + sigma (N - 1))
//   Universal Scalability Law:     X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1))
//     (N. J. Gunther, "Guerrilla Capacity Planning", Springer 2007, ch. 4; sigma: contention, kappa:
//     coherency/crosstalk. With kappa > 0 throughput peaks at N* = sqrt((1 - sigma) / kappa).)
// Fitting: both laws are linear in N / X(N) = 1/lambda + (sigma/lambda)(N - 1) [+ (kappa/lambda) N (N - 1)],
// solved by weighted least squares with weights X^2 / N^2, i.e. minimising relative throughput errors.
// sigma and kappa are constrained to >= 0 (a negative estimate is set to 0 and the rest refitted;
// superlinear data are reported in `superlinear`). Amdahl needs 2 distinct GPU counts, the USL 3.
// Choice: the USL only when it has at least 4 points and a lower Akaike information criterion
// (n ln(RSS/n) + 2k, relative residuals) than Amdahl; else Amdahl (fewer parameters, safer to extrapolate).
// One point (or one distinct GPU count) is refused: a single measurement says nothing about scaling.
//
// Mapping to MFU (used by Evaluate when scaling.points are given and cluster.mfu is not):
//   MFU(N) = X(N) x model FLOPs per token / (N x dense peak FLOP/s per GPU).
// Nothing here allocates.
#pragma once
#include <cstdint>
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

enum class ScalingLaw : int { kAmdahl = 0, kUsl };
const char* ScalingLawName(ScalingLaw law);  // "amdahl", "usl"

struct LawFit {
  bool valid = false;
  double lambda_tokens_per_s = 0;  // per GPU, lossless
  double sigma = 0;                // contention (serial fraction)
  double kappa = 0;                // coherency (0 for Amdahl)
  double rms_relative_error = 0;   // sqrt(mean((fit - measured) / measured)^2)
  double aic = 0;
  double relative_error[kMaxScalingPoints] = {};  // per point, in input order
  double Throughput(double gpus) const;           // tokens/s at `gpus`
};

enum class ScalingFitError : int { kNone = 0, kTooFewPoints, kOneGpuCount, kBadPoint };
const char* ScalingFitErrorText(ScalingFitError e);  // English
const char* ScalingFitErrorKey(ScalingFitError e);   // its string-table key ("" for kNone)

struct ScalingFit {
  ScalingFitError error = ScalingFitError::kNone;
  bool ok() const { return error == ScalingFitError::kNone; }
  int points = 0;
  double min_gpus = 0, max_gpus = 0;   // measured range
  LawFit amdahl, usl;                  // usl.valid only with >= 3 distinct GPU counts
  ScalingLaw chosen = ScalingLaw::kAmdahl;
  bool superlinear = false;            // the data scale better than linearly (a constraint was active)
  double peak_gpus = 0;                // USL chosen with kappa > 0: GPUs of maximum throughput; else 0
  const LawFit& best() const { return chosen == ScalingLaw::kUsl ? usl : amdahl; }
};

ScalingFit FitScaling(const ScalingPointInputs* points, int count);

struct ScalingPrediction {
  double tokens_per_second = 0;
  double efficiency = 0;        // X(N) / (N x lambda): 1 = linear scaling
  bool extrapolated = false;    // N outside the measured range
  double extrapolation_factor = 1;  // N / max measured (or min measured / N), >= 1
};
ScalingPrediction PredictScaling(const ScalingFit& fit, double gpus);

// Issue 31: each measured point checked against the GPU's datasheet. A point's implied utilisation is
// tokens/s x model FLOPs per token (parallelism.h) / (GPUs x dense peak: cluster.peak_tflops or the catalog's
// at workload.precision). Beyond 110% of the peak (boost clocks and rounding) no machine did it; below 0.01% it
// is not a training throughput (1e-300 tokens/s). Either is refused at scaling.points[i].tokens_per_second
// with the range in tokens/s for that point's GPU count.
struct GpuSpec;
void ValidateScalingAgainstPeak(const Scenario& s, const GpuSpec& gpu, std::vector<InputError>* errors);
// The scaling fit's check of a scenario (gathered by ValidateScenario, job/validate.h): at most kMaxScalingPoints
// points that can be fitted, and for training, none above the GPUs' peak (ValidateScalingAgainstPeak; gpu nullptr:
// unknown GPU, not checked).
void ValidateScaling(const Scenario& s, const GpuSpec* gpu, std::vector<InputError>* errors);

}  // namespace gpucost
