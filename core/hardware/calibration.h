// calibration.h — how far the step-time model (steptime.h) can be trusted (issue 18): its error on the measured
// runs of tests/data/measured_runs.json, and the best MFU measured on each GPU class. test_calibration.cpp
// recomputes both from the runs and holds these constants equal to them, so they change only with the evidence.
//
// Error e = predicted step seconds / measured - 1 over the runs held to the bounds; the measured MFU of a run
// is predicted MFU x (1 + e). The band of a prediction is [mfu (1 + min e), mfu (1 + max e)]; Monte Carlo draws
// e per trial from a triangular distribution on [min, max] with its mode at the mean (model error is a property
// of the job, not of each step). A prediction above the best MFU measured on its GPU class is beyond the
// evidence: the search ranks it at that MFU (its step time stretched to it) and the documents flag it.
#pragma once
#include <string>

namespace gpucost {

struct StepModelError {
  double mean = 0, sd = 0, min = 0, max = 0;  // of e over the held runs
  int runs = 0;
};
// Issue 26: the held-out (leave-one-source-out) errors of every published run (evidence.h), not the in-sample
// residuals: the band a prediction on an unseen job should carry.
// Issue 46: the fine-tuning runs included (190: 155 pre-training, 35 fine-tuning).
constexpr StepModelError kStepModelError = {-0.0025, 0.0832, -0.2793, 0.1838, 190};

// Best measured MFU by GPU architecture (GpuSpec::arch), the highest of the published runs of
// assets/validation/measured_runs.json (calibration.cpp names them; test_calibration.cpp holds them equal to the
// runs). 0 for an architecture without a measured run.
double BestMeasuredMfu(const std::string& arch);

struct MfuBand {
  double low = 0, high = 0;       // the prediction's band from the model's error
  double best_measured = 0;       // on its GPU class (0: none measured)
  bool beyond_evidence = false;   // predicted above best_measured
};
MfuBand MfuBandFor(double predicted_mfu, double best_measured_mfu);

// Seconds a layout is ranked by: its predicted step, stretched to the best measured MFU when predicted above it.
double DoubtedSeconds(double seconds, double predicted_mfu, double best_measured_mfu);

// The model-error multiplier of step time for a uniform u in (0, 1): 1 / (1 + e), e triangular on
// [min, max] with mode mean (inverse CDF; plain IEEE arithmetic, so native and WebAssembly agree).
double StepTimeErrorFactor(double u);

}  // namespace gpucost
