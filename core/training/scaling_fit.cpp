// scaling_fit.cpp — Amdahl and USL fits by weighted linear least squares (see scaling_fit.h).
#include "training/scaling_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "hardware/catalog.h"
#include "base/i18n.h"
#include "training/work.h"

namespace gpucost {
namespace {

// Solves the k x k system a x = b (k <= 3) by Gaussian elimination with partial pivoting.
bool Solve(int k, double a[3][3], double b[3], double x[3]) {
  for (int c = 0; c < k; ++c) {
    int pivot = c;
    for (int r = c + 1; r < k; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    if (std::fabs(a[pivot][c]) < 1e-300) return false;
    if (pivot != c) {
      for (int j = 0; j < k; ++j) std::swap(a[c][j], a[pivot][j]);
      std::swap(b[c], b[pivot]);
    }
    for (int r = c + 1; r < k; ++r) {
      const double f = a[r][c] / a[c][c];
      for (int j = c; j < k; ++j) a[r][j] -= f * a[c][j];
      b[r] -= f * b[c];
    }
  }
  for (int r = k - 1; r >= 0; --r) {
    double sum = b[r];
    for (int j = r + 1; j < k; ++j) sum -= a[r][j] * x[j];
    x[r] = sum / a[r][r];
  }
  return true;
}

// Basis of N / X(N): 1, N - 1, N (N - 1). use_sigma / use_kappa select the columns.
int Basis(double n, bool use_sigma, bool use_kappa, double out[3]) {
  int k = 0;
  out[k++] = 1;
  if (use_sigma) out[k++] = n - 1;
  if (use_kappa) out[k++] = n * (n - 1);
  return k;
}

// Weighted least squares of y = N / X on the basis, weights (X / N)^2 = 1 / y^2 (relative errors).
bool FitColumns(const ScalingPointInputs* p, int count, bool use_sigma, bool use_kappa, LawFit* fit) {
  double ata[3][3] = {}, atb[3] = {}, coef[3] = {};
  int k = 0;
  for (int i = 0; i < count; ++i) {
    const double n = static_cast<double>(p[i].gpus);
    const double y = n / p[i].tokens_per_second;
    const double w = 1 / (y * y);
    double row[3];
    k = Basis(n, use_sigma, use_kappa, row);
    for (int r = 0; r < k; ++r) {
      for (int c = 0; c < k; ++c) ata[r][c] += w * row[r] * row[c];
      atb[r] += w * row[r] * y;
    }
  }
  if (!Solve(k, ata, atb, coef) || !(coef[0] > 0)) return false;
  int j = 1;
  fit->lambda_tokens_per_s = 1 / coef[0];
  fit->sigma = use_sigma ? coef[j++] * fit->lambda_tokens_per_s : 0;
  fit->kappa = use_kappa ? coef[j++] * fit->lambda_tokens_per_s : 0;
  fit->valid = true;
  return true;
}

// Fits with sigma, kappa >= 0: drops a column whose estimate is negative and refits.
void FitConstrained(const ScalingPointInputs* p, int count, bool with_kappa, LawFit* fit, bool* clamped) {
  bool use_sigma = true, use_kappa = with_kappa;
  for (int attempt = 0; attempt < 3; ++attempt) {
    *fit = LawFit{};
    if (!FitColumns(p, count, use_sigma, use_kappa, fit)) return;
    if (use_kappa && fit->kappa < 0) {
      use_kappa = false;
      *clamped = true;
      continue;
    }
    if (use_sigma && fit->sigma < 0) {
      use_sigma = false;
      *clamped = true;
      continue;
    }
    break;
  }
  double sum_sq = 0;
  for (int i = 0; i < count; ++i) {
    const double e = fit->Throughput(static_cast<double>(p[i].gpus)) / p[i].tokens_per_second - 1;
    fit->relative_error[i] = e;
    sum_sq += e * e;
  }
  const double n = count;
  const double params = with_kappa ? 3 : 2;
  fit->rms_relative_error = std::sqrt(sum_sq / n);
  fit->aic = n * std::log(std::max(sum_sq / n, 1e-18)) + 2 * params;
}

}  // namespace

const char* ScalingLawName(ScalingLaw law) { return law == ScalingLaw::kUsl ? "usl" : "amdahl"; }

// The English text is the string table's (assets/i18n/en.json): one entry for the message and its translations.
const char* ScalingFitErrorText(ScalingFitError e) { return e == ScalingFitError::kNone ? "" : Tr(Lang::kEn, ScalingFitErrorKey(e)); }

const char* ScalingFitErrorKey(ScalingFitError e) {
  switch (e) {
    case ScalingFitError::kNone: return "";
    case ScalingFitError::kTooFewPoints: return "msg.fit_two_points";
    case ScalingFitError::kOneGpuCount: return "msg.fit_two_counts";
    case ScalingFitError::kBadPoint: return "msg.fit_bad_point";
  }
  return "";
}

double LawFit::Throughput(double n) const {
  if (!valid) return 0;
  return lambda_tokens_per_s * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

ScalingFit FitScaling(const ScalingPointInputs* p, int count) {
  ScalingFit out;
  out.points = count;
  if (count < 2) {
    out.error = ScalingFitError::kTooFewPoints;
    return out;
  }
  int distinct = 0;
  for (int i = 0; i < count; ++i) {
    if (p[i].gpus < 1 || !(p[i].tokens_per_second > 0) || !std::isfinite(p[i].tokens_per_second)) {
      out.error = ScalingFitError::kBadPoint;
      return out;
    }
    bool seen = false;
    for (int j = 0; j < i; ++j) seen = seen || p[j].gpus == p[i].gpus;
    distinct += seen ? 0 : 1;
    const double n = static_cast<double>(p[i].gpus);
    out.min_gpus = i == 0 ? n : std::min(out.min_gpus, n);
    out.max_gpus = i == 0 ? n : std::max(out.max_gpus, n);
  }
  if (distinct < 2) {
    out.error = ScalingFitError::kOneGpuCount;
    return out;
  }
  bool clamped = false;
  FitConstrained(p, count, false, &out.amdahl, &clamped);
  out.superlinear = clamped;
  if (distinct >= 3) {
    bool usl_clamped = false;
    FitConstrained(p, count, true, &out.usl, &usl_clamped);
  }
  if (out.usl.valid && count >= 4 && out.usl.aic < out.amdahl.aic) out.chosen = ScalingLaw::kUsl;
  const LawFit& best = out.best();
  if (best.kappa > 0) out.peak_gpus = std::sqrt((1 - best.sigma) / best.kappa);
  return out;
}

ScalingPrediction PredictScaling(const ScalingFit& fit, double gpus) {
  ScalingPrediction out;
  if (!fit.ok() || gpus < 1) return out;
  const LawFit& law = fit.best();
  out.tokens_per_second = law.Throughput(gpus);
  out.efficiency = law.lambda_tokens_per_s > 0 ? out.tokens_per_second / (gpus * law.lambda_tokens_per_s) : 0;
  if (gpus > fit.max_gpus) out.extrapolation_factor = gpus / fit.max_gpus;
  if (gpus < fit.min_gpus) out.extrapolation_factor = fit.min_gpus / gpus;
  out.extrapolated = out.extrapolation_factor > 1;
  return out;
}

void ValidateScalingAgainstPeak(const Scenario& s, const GpuSpec& gpu, std::vector<InputError>* errors) {
  const double peak_tflops = s.cluster.peak_tflops > 0 ? s.cluster.peak_tflops : DensePeakTflops(gpu, GetPrecision(s));
  const double flops_per_token = ModelFlopsPerToken(s);
  if (peak_tflops <= 0 || flops_per_token <= 0) return;
  for (int i = 0; i < s.scaling.point_count && i < kMaxScalingPoints; ++i) {
    const ScalingPointInputs& p = s.scaling.points[i];
    if (p.gpus < 1 || !(p.tokens_per_second > 0)) continue;  // the parser reports these
    const double tokens_at_peak = static_cast<double>(p.gpus) * peak_tflops * 1e12 / flops_per_token;
    const double lo = 1e-4 * tokens_at_peak, hi = 1.10 * tokens_at_peak;
    if (p.tokens_per_second >= lo && p.tokens_per_second <= hi) continue;
    char text[320];
    std::snprintf(text, sizeof text, "must be from %.4g to %.4g tokens/s at %lld GPUs (0.01%% to 110%% of %s's dense peak, "
                  "%.4g TFLOP/s per GPU, at %.4g FLOPs per token), got %.6g",
                  lo, hi, static_cast<long long>(p.gpus), gpu.name.c_str(), peak_tflops, flops_per_token, p.tokens_per_second);
    errors->push_back({"scaling.points[" + std::to_string(i) + "].tokens_per_second", text});
  }
}

void ValidateScaling(const Scenario& s, const GpuSpec* gpu, std::vector<InputError>* e) {
  if (s.scaling.point_count < 0 || s.scaling.point_count > kMaxScalingPoints)
    AddError(e, "scaling.points", "msg.at_most_points", kMaxScalingPoints);
  else if (s.scaling.point_count > 0 && !FitScaling(s.scaling.points, s.scaling.point_count).ok())
    e->push_back(CodedError("scaling.points", {"msg.got_points", {MessageParam::Key(ScalingFitErrorKey(FitScaling(s.scaling.points, s.scaling.point_count).error)),
                                                                  std::to_string(s.scaling.point_count)}}));
  if (gpu && Kind(s) == WorkloadKind::kTraining) ValidateScalingAgainstPeak(s, *gpu, e);  // issue 31
}

}  // namespace gpucost
