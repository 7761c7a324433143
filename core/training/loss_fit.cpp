// loss_fit.cpp — tokens for a target loss (loss_fit.h).
#include "training/loss_fit.h"

#include <cmath>

#include "base/format.h"
#include "base/message.h"
#include "scenario/fields.h"

namespace gpucost {
namespace {

const LossFitSpec kLossFits[] = {
    {"besiroglu2024", 1.8172, 482.01, 2085.43, 0.3478, 0.3658, 0.03,
     "Besiroglu et al. 2024, Chinchilla Scaling: A replication attempt, arXiv:2404.10102 (their estimates with standard errors)"},
    {"hoffmann2022", 1.69, 406.4, 410.7, 0.34, 0.28, 0,
     "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models, arXiv:2203.15556 (section 3.3, Approach 3)"},
};

LossFitSpec WithE(LossFitSpec f, double e) {
  f.e = e;
  return f;
}

}  // namespace

const LossFitSpec& LossFitOf(LossFit fit) {
  const int i = static_cast<int>(fit);
  return kLossFits[i >= 0 && i < 2 ? i : 0];
}

double FitLoss(const LossFitSpec& f, double n, double d) {
  return f.e + f.a / std::pow(n, f.alpha) + f.b / std::pow(d, f.beta);
}

double LossFloor(const LossFitSpec& f, double n) { return f.e + f.a / std::pow(n, f.alpha); }

double TokensForLoss(const LossFitSpec& f, double n, double loss) {
  const double headroom = loss - LossFloor(f, n);
  if (!(headroom > 0)) return 0;
  return std::pow(f.b / headroom, 1 / f.beta);
}

LossTarget LossTargetOf(const Scenario& s) {
  LossTarget t;
  if (s.program.target_loss <= 0 || Kind(s) != WorkloadKind::kTraining || !(s.workload.params > 0)) return t;
  t.present = true;
  t.loss = s.program.target_loss;
  t.params = s.workload.params;
  t.fit = static_cast<LossFit>(s.program.loss_fit);
  const LossFitSpec& f = LossFitOf(t.fit);
  t.floor = LossFloor(f, t.params);
  t.tokens = TokensForLoss(f, t.params, t.loss);
  const double se = f.e_standard_error;
  t.tokens_low = se > 0 ? TokensForLoss(WithE(f, f.e - se), t.params, t.loss) : t.tokens;
  t.tokens_high = se > 0 ? TokensForLoss(WithE(f, f.e + se), t.params, t.loss) : t.tokens;
  const LossFit other = t.fit == LossFit::kBesiroglu2024 ? LossFit::kHoffmann2022 : LossFit::kBesiroglu2024;
  t.other_fit_tokens = TokensForLoss(LossFitOf(other), t.params, t.loss);
  return t;
}

void ValidateLossTarget(const Scenario& s, std::vector<InputError>* e) {
  if (s.program.target_loss <= 0) return;
  if (Kind(s) != WorkloadKind::kTraining) {
    e->push_back(CodedError("workload.target_loss", {"msg.loss_training_only", {}}));
    return;
  }
  if (s.workload.flops > 0) e->push_back(CodedError("workload.target_loss", {"msg.loss_with_flops", {}}));
  if (!(s.workload.params > 0)) return;
  const LossFitSpec& f = LossFitOf(static_cast<LossFit>(s.program.loss_fit));
  const double floor = LossFloor(f, s.workload.params);
  if (!(s.program.target_loss > floor)) {
    e->push_back(CodedError("workload.target_loss",
                            {"msg.loss_below_floor", {FormatParam("%.4g", s.program.target_loss), FormatScaled(s.workload.params),
                                                      FormatParam("%.4f", floor), f.name}}));
    return;
  }
  const double tokens = TokensForLoss(f, s.workload.params, s.program.target_loss);
  const FieldSpec* tokens_field = FindField("workload.tokens");
  if (tokens_field && !ValueInRange(*tokens_field, tokens))
    e->push_back(CodedError("workload.target_loss",
                            {"msg.loss_tokens_range", {FormatParam("%.4g", s.program.target_loss), FormatParam("%.3g", tokens),
                                                       FormatBound(tokens_field->max)}}));
}

double LossReachedBy(const Scenario& s) {
  if (Kind(s) != WorkloadKind::kTraining || !(s.workload.params > 0) || !(s.workload.tokens > 0)) return 0;
  return FitLoss(LossFitOf(static_cast<LossFit>(s.program.loss_fit)), s.workload.params, s.workload.tokens);
}

Scenario WithTokensForLoss(const Scenario& s) {
  const LossTarget t = LossTargetOf(s);
  if (!t.present || !(t.tokens > 0)) return s;
  Scenario out = s;
  out.workload.tokens = t.tokens;
  return out;
}

}  // namespace gpucost
