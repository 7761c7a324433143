// plan_json.cpp — the plan document (plan_json.h).
#include "documents/plan_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "hardware/calibration.h"
#include "training/finetune.h"

namespace gpucost {

std::string PlanToJson(const PlanSearch& s, int indent) {
  using nlohmann::json;
  auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json doc;
  doc["evaluated"] = s.evaluated;
  doc["fitting"] = s.fitting;
  doc["seconds"] = num(s.seconds);
  doc["objective"] = s.objective == PlanObjective::kCost ? "cost" : "time";
  doc["top"] = s.top;
  doc["currency"] = s.currency;
  doc["gpus"] = s.gpus;
  doc["global_batch"] = s.base.global_batch;
  doc["global_batch_auto"] = s.batch_auto;  // parallel.global_batch on auto: searched at one sequence per GPU
  doc["mfu_convention"] = MfuConventionFor(s.shape);
  doc["hfu_convention"] = kHfuConvention;
  json plans = json::array();
  for (int i = 0; i < s.count; ++i) {
    const PlanEntry& e = s.best[i];
    const Layout& l = e.layout;
    json plan;
    plan["parallel"] = {{"tensor_parallel", l.tensor},       {"pipeline_parallel", l.pipeline},
                        {"data_parallel", l.data},           {"micro_batch", l.micro_batch},
                        {"global_batch", l.global_batch},    {"pipeline_interleave", l.interleave},
                        {"recompute", RecomputeJsonName(l.recompute)},
                        {"sequence_parallel", l.sequence_parallel}, {"zero_stage", l.zero_stage},
                        {"overlap_comm", l.overlap_comm}};
    NamedValue fields[kStepFieldCount];
    StepTimeFields(e.step, fields);
    json step = json::object();
    for (const NamedValue& f : fields) step[f.name] = num(f.value);
    step["beyond_evidence"] = e.step.beyond_evidence;
    step["ranked_seconds"] = num(DoubtedSeconds(e.step.seconds, e.step.mfu, e.step.best_measured_mfu));
    plan["step"] = step;
    const MemoryBreakdown& m = e.memory;
    plan["memory"] = {{"model_states_gb", num(m.model_states_bytes() / 1e9)},
                      {"activations_gb", num(m.activations_bytes / 1e9)},
                      {"total_gb", num(m.total_bytes() / 1e9)},
                      {"device_gb", num(m.device_bytes / 1e9)},
                      {"fits", m.fits()}};
    if (e.job_usd > 0)
      plan["job"] = {{"expected_hours", num(e.job_hours)}, {"expected_usd", num(e.job_usd)}, {"expected_cost", num(e.job_cost)}};
    plans.push_back(plan);
  }
  doc["plans"] = plans;
  return doc.dump(indent);
}

MemoryFix ApplyMemoryFit(const Result& r, Scenario* s) {
  MemoryFix fix;
  const bool at_gpus = r.memory_fit_at_gpus.found;
  const LayoutFit& fit = at_gpus ? r.memory_fit_at_gpus : r.memory_smallest_fit;
  if (!fit.found) return fix;
  const std::int64_t batch = s->parallel.global_batch;
  const double mfu = s->cluster.mfu;
  s->cluster.gpus = fit.layout.gpus();
  AdoptLayout(fit.layout, s);            // the degrees; data parallelism on auto; a given MFU cleared
  s->parallel.data_parallel = 0;         // (auto even where AdoptLayout kept it: the count may change later)
  s->parallel.global_batch = batch;      // auto stays auto (ApplyLayout wrote the search's batch)
  if (batch <= 0) s->cluster.mfu = mfu;  // no predicted step without a batch: a given MFU stays
  fix.applied = true;
  fix.kept_gpus = at_gpus;
  fix.mfu_cleared = mfu > 0 && s->cluster.mfu == 0;
  fix.gpus = s->cluster.gpus;
  return fix;
}

}  // namespace gpucost
