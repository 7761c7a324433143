// loss_fit.h — train until a loss instead of a number of tokens (issue 50: workload.target_loss).
//
// Chinchilla's parametric fit of the final loss of a model of N parameters trained on D tokens:
//   L(N, D) = E + A / N^alpha + B / D^beta
// (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", arXiv:2203.15556, Approach 3, eq. 2:
// E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28), and its replication from the paper's own data (Besiroglu, Erdil,
// Barnett, You 2024, "Chinchilla Scaling: A replication attempt", arXiv:2404.10102: E 1.8172 (SE 0.03), A 482.01
// (124.58), B 2085.43 (1293.23), alpha 0.3478 (0.02), beta 0.3658 (0.02)), which finds the published fit
// inconsistent with that data. The loss is MassiveText's with Chinchilla's tokenizer (nats per token): a loss on
// other data is not comparable, and the result says so.
//
// The tokens a target loss needs: D = (B / (L - E - A/N^alpha))^(1/beta), none when L is at or below the model's
// floor E + A/N^alpha (refused by ValidateLossTarget). Uncertainty: the tokens with the fit's E moved by one
// standard error each way (E dominates near the floor; the replication's other standard errors are strongly
// correlated and not published as a covariance, so they are not sampled), and the other published fit's tokens.
#pragma once
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

struct LossFitSpec {
  const char* name;     // JSON name (workload.loss_fit)
  double e, a, b, alpha, beta;
  double e_standard_error;  // 0: not published
  const char* source;
};
const LossFitSpec& LossFitOf(LossFit fit);

// L(N, D) under the fit.
double FitLoss(const LossFitSpec& f, double params, double tokens);
// The lowest loss a model of `params` reaches (infinite data): E + A/N^alpha.
double LossFloor(const LossFitSpec& f, double params);
// Tokens that bring a model of `params` to `loss` under the fit; 0 when the loss is at or below its floor.
double TokensForLoss(const LossFitSpec& f, double params, double loss);

struct LossTarget {
  bool present = false;         // workload.target_loss given (training)
  double loss = 0, params = 0;
  LossFit fit = LossFit::kBesiroglu2024;
  double floor = 0;             // LossFloor of the fit
  double tokens = 0;            // what the run trains (workload.tokens is replaced by it)
  double tokens_low = 0;        // the fit's E one standard error lower (more headroom: fewer tokens)
  double tokens_high = 0;       // E one standard error higher (0: the target is then out of reach)
  double other_fit_tokens = 0;  // the other published fit's tokens (0: out of its reach)
};
// The loss a training scenario's workload.tokens reach under its workload.loss_fit (0 outside training or without
// parameters and tokens): what the page shows beside an unset target loss, and where a target starts when set.
double LossReachedBy(const Scenario& s);
// The target of a scenario (present = false without workload.target_loss or outside training).
LossTarget LossTargetOf(const Scenario& s);

// workload.target_loss's check (gathered by ValidateScenario): training only, a parameter count, not with
// workload.flops given, above the model's floor, and tokens in workload.tokens' range. workload.tokens may hold
// any value: the target replaces it, and the result says so (warning tokens_set_by_target).
void ValidateLossTarget(const Scenario& s, std::vector<InputError>* errors);

// The scenario with workload.tokens set from its target (unchanged without one): every evaluation reads tokens.
Scenario WithTokensForLoss(const Scenario& s);

}  // namespace gpucost
