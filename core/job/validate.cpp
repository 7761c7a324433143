// validate.cpp — the whole scenario read and checked (validate.h).
#include "job/validate.h"

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "money/offers.h"
#include "serving/inference.h"
#include "training/finetune.h"
#include "training/layout.h"
#include "training/loss_fit.h"
#include "training/moe.h"
#include "training/scaling_fit.h"

namespace gpucost {

double ParamsFromShape(const Scenario& s) {
  return HasModelShape(s) ? ShapeParams(ShapeFromScenario(s)) : 0;
}

ScenarioParse ParseScenarioJson(std::string_view text) { return ParseScenarioJson(text, DefaultScenario()); }

ScenarioParse ParseScenarioJson(std::string_view text, const Scenario& base) {
  nlohmann::json doc;
  bool model_given = false;
  ScenarioParse out = ReadScenarioJson(text, base, &doc, &model_given);
  if (!out.errors.empty()) return out;
  ApplyNamedOffer(doc, &out.scenario, &out.errors);  // issue 25 (offers.h)
  if (!out.errors.empty()) return out;
  // A model given by its shape alone: its parameter count comes from the shape, not the 7B default (which
  // would silently size FLOPs, memory and checkpoints for another model).
  const bool params_given = model_given || (doc.contains("workload") && doc["workload"].is_object() && doc["workload"].contains("params"));
  if (!params_given && base.workload.params == DefaultScenario().workload.params)
    if (const double shape_params = ParamsFromShape(out.scenario); shape_params > 0)
      out.scenario.workload.params = shape_params;
  out.errors = ValidateScenario(out.scenario);
  return out;
}

std::vector<InputError> ValidateScenario(const Scenario& s) {
  std::vector<InputError> e;
  ValidateFieldRanges(s, &e);
  const GpuSpec* gpu = ValidateGpu(s, &e);
  ValidateScaling(s, gpu, &e);
  ValidateOffer(s, &e);
  ValidateModelName(s, &e);
  ValidateMoe(s, &e);
  ValidateFinetune(s, &e);
  ValidateCheckpointing(s, &e);
  if (s.program.target_loss > 0) ValidateLossTarget(s, &e);  // issue 50 (loss_fit.h)
  if (Kind(s) == WorkloadKind::kInference) ValidateInference(s, &e);  // the shape, the pools, the precisions
  ValidateLayoutDivides(s, &e);
  return e;
}

}  // namespace gpucost
