// program.cpp — the cost of a finished model (program.h).
#include "job/program.h"

#include <algorithm>

#include "money/billing.h"
#include "scenario/scenario.h"

namespace gpucost {

[[gnu::noinline]] FinishedModel FinishedModelOf(const Scenario& s, const BillingTerms& t, double billed_gpus, const Breakdown& run_parts,
                              double run_usd, double delay_usd, double stopped_usd) {
  FinishedModel f;
  const ProgramInputs& p = s.program;
  if (!(p.experiments > 0) && !(p.abandoned_fraction > 0) && !(p.evaluation_hours > 0)) return f;
  f.present = true;
  f.usd = run_parts;
  f.run_basis_usd = std::max(0.0, run_usd - delay_usd - stopped_usd);
  const double q = std::min(p.abandoned_fraction, 0.95);  // the field's range (fields.cpp)
  f.abandoned_runs = q > 0 ? q / (1 - q) : 0;
  f.usd.part[kPartExperiments] = p.experiments * f.run_basis_usd;
  f.usd.part[kPartAbandonedRuns] = f.abandoned_runs * 0.5 * f.run_basis_usd;
  f.evaluation_gpu_hours = billed_gpus * p.evaluation_hours;
  const double eval_pretax = f.evaluation_gpu_hours * t.price_pretax;
  const double eval_tax = t.vat_recoverable ? 0 : eval_pretax * t.taxable_fraction * t.tax_rate;
  f.usd.part[kPartEvaluation] = eval_pretax;
  f.usd.part[kPartTax] += eval_tax;
  f.evaluation_usd = eval_pretax + eval_tax;  // the run's tax part and the evaluation's
  f.total_usd = f.usd.Total();
  return f;
}

}  // namespace gpucost
