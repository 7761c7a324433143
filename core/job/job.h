// job.h — the two halves of Evaluate(), shared with the Monte Carlo simulation (montecarlo.h):
//   PlanJob():  everything deterministic about the job: work, rates, checkpoint interval, GPUs billed, prices.
//   BillJob():  turns one timeline of the unit (expected, or one simulated trial) into time, GPU-hours and
//               money as named parts (result.h), applying the billing rules, storage, egress, fees and tax.
// Neither allocates.
#pragma once
#include "money/billing.h"
#include "job/operations.h"
#include "job/reliability.h"
#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

struct JobPlan {
  TimelineInputs unit;            // one timeline unit: the whole job (training) or one task (independent)
  double units = 1;               // units in the job (tasks; training: 1)
  double copies = 1;              // units run one after another in a slot (waves); wall = copies x unit time
  double busy_gpus = 0;           // GPUs one unit runs on
  double work_compute_s = 0;      // of unit.work_seconds, the compute part (the rest waits for data or is slowed)
  double interference_s = 0;      // issue 50: of unit.work_seconds, a shared GPU's interference (partition.h)
  double straggler_s = 0;         // issue 50: of unit.work_seconds, steps held by a slow node
  double session_gpus = 0;        // GPUs whose rental restarts after a spot preemption (one node / one task)
  double units_per_session = 1;   // units preempted together (tasks sharing a node); sessions = preemptions / this
  double reacquire_held_gpus = 0; // GPUs kept rented (billed, idle) while a preempted unit waits for capacity
  double billed_gpus = 0;         // GPUs paid per hour
  double spares = 0;              // hot spares among them
  double downtime_s = 0;          // known downtime, billed while idle
  BillingTerms terms;             // the scenario's pricing, as the one billing engine takes it (billing.h)
  double stored_gb = 0;           // dataset + retained checkpoints
  double rollback_rate_per_s = 0; // interruptions that roll back (per unit)
  double optimum_interval_s = 0;
  OpsPlan ops;                    // issue 29: bring-up, staging, restore tests, spare pool, deadline (operations.h)
};

// Fills `plan` and the deterministic fields of `r` (work, MFU, checkpoint figures, intervals, prices, TCO).
// Returns false if the scenario cannot be evaluated (unknown GPU, unsupported precision).
bool PlanJob(const Scenario& s, JobPlan* plan, Result* r);


// Bills one timeline of the unit (every unit assumed to follow it; for tasks, pass the mean per-task
// timeline). preemptions_total: rental sessions ended by spot preemptions in the whole job, i.e. unit
// preemptions / plan.units_per_session.
// rounding_gpu_s: billing rounding (GPU-seconds) measured on a simulated timeline's sessions (montecarlo.h);
// < 0: estimated from preemptions_total.
void BillJob(const JobPlan& plan, const Timeline& unit, double preemptions_total, JobBill* out,
             double rounding_gpu_s = -1);

}  // namespace gpucost
