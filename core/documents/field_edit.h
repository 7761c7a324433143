// field_edit.h — one field set from text as a person types it (the CLI's --set PATH=TEXT): the scenario is read
// back whole (job/validate.h), so a field set this way is exactly one a file could give.
#pragma once
#include <string>

#include "base/message.h"
#include "money/pricing_model.h"  // SwitchPricingModel: the page's editor switches the model as --set does
#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

// Sets one field from text as a person types it (the CLI's --set PATH=TEXT): numbers as quantity.h reads
// them, money as ParseMoneyField, enums by name, booleans true/false, text as given. Returns "" or a message
// naming the field; *label receives the conversion made, if any. The scenario is unchanged on error.
std::string SetFieldFromText(Scenario* s, const std::string& path, const std::string& text, std::string* label);
// The same, as a code. pricing.model switches the model the one way (money/pricing_model.h SwitchPricingModel): the
// price is re-derived as `gpucost pricing`'s row has it, and *note (when given) says so.
Message SetFieldProblem(Scenario* s, const std::string& path, const std::string& text, std::string* label,
                        Message* note = nullptr);

// What the scenario itself implies for an unset field that has no figure in the result, shown beside its "auto"
// and where it starts when set (0: nothing): workload.target_loss, the loss the scenario's tokens reach under its
// loss fit (training/loss_fit.h LossReachedBy), so a target starts reachable (issue 50's walk-through: it started
// at 1, below every model's floor).
double ImpliedFieldValue(const char* path, const Scenario& s);

// Where a latency target (inference.slo.ttft_ms, inference.slo.tpot_ms) starts when its "auto" (no target) is turned
// off: what the evaluated plan r achieves at the target's percentile (inference.slo.percentile), rounded up to two
// significant digits (134.2 ms -> 140 ms), so the service still meets it and the user tightens it from there (a new
// user's walk-through: it started at 1 ms, "NOT met" at once). 0 for another path or a result without a service.
double LatencyTargetStart(const char* path, const Scenario& s, const Result& r);

}  // namespace gpucost
