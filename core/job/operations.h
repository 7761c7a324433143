// operations.h — what surrounds the training run itself (issue 29): bring-up before the first step, staging the
// data set, restore tests and unusable checkpoints, the spare pool's recovery, allocated GPUs idle between jobs,
// a support plan, and the delay cost. PlanJob() plans them (PlanOperations), BillJob() adds their parts
// (BillOperations), Evaluate() and the Monte Carlo add the delay (capacity.h).
//
//   bring_up        cluster.bring_up_hours, once, every billed GPU held (provisioning, burn-in, NCCL and storage
//                   validation before the first step)
//   staging         storage.staging.dataset_gb / storage.staging.gbps before the first step; GPUs billed while
//                   it copies when storage.staging.billed; the staged copy is stored at
//                   storage.scratch_usd_per_gb_month while the job runs (part storage)
//   restore_test    every reliability.restore_test_every checkpoints, reliability.restore_test_minutes with the
//                   cluster blocked (load the checkpoint and check it)
//   bad_checkpoint  at a rollback the last checkpoint is unusable with reliability.bad_checkpoint_probability,
//                   unless it was restore-tested (a share 1 / restore_test_every of them): the job goes back one
//                   more checkpoint interval and reloads (one segment and one recovery more)
//   allocation_idle billed GPU-hours x (1 / cluster.allocation_efficiency - 1): a shared cluster's GPUs idle
//                   between jobs, charged to the job that holds them
//   support         pricing.support_usd_per_month x the job's months
//   delay           capacity.h
// These stretches are not themselves exposed to failures (a second-order effect).
#pragma once

#include "job/reliability.h"

namespace gpucost {

struct Scenario;
struct Result;
struct JobPlan;
struct JobBill;

struct OpsPlan {
  double bring_up_s = 0;
  double staging_s = 0;
  bool staging_billed = false;
  double scratch_gb = 0;
  double scratch_usd_per_gb_month = 0;   // pre-tax
  double restore_test_every = 0;         // checkpoints (0: never)
  double restore_test_s = 0;
  double bad_checkpoint_probability = 0; // effective: untested share only
  double bad_checkpoint_loss_s = 0;      // one more segment + one more reload
  double allocation_efficiency = 1;
  double support_usd_per_hour = 0;       // pre-tax
  // The spare pool (spares.h): a failure recovers fast with probability fast_fraction.
  double spare_fast_fraction = 0;
  double fast_recovery_s = 0, slow_recovery_s = 0;
  // Capacity and the deadline (capacity.h).
  double wait_mean_s = 0;
  bool deadline_given = false;
  double deadline_s = 0;                 // given (0: the normal run, known after Evaluate's normal bill)
  double value_usd_per_s = 0;
};

// Fills plan->ops from the scenario (after the rest of PlanJob) and sets the unit's mean failure recovery from
// the spare pool.
void PlanOperations(const Scenario& s, Result* r, JobPlan* plan);

// Adds the parts above to a bill BillJob() has made (and their tax), and recomputes its totals.
void BillOperations(const JobPlan& plan, const Timeline& unit, JobBill* out);

// The delay cost of one finished timeline: the job started `start_wait_h` hours after the request.
void AddDelay(const JobPlan& plan, double start_wait_h, JobBill* out);

// Evaluate(): the schedule outlook (capacity.h) of the expected timeline, with its delay cost as a part of
// r->cost_usd (r->expected_hours and the bill must be set).
void ApplyOutlook(const JobPlan& plan, const Timeline& unit, double normal_run_hours, Result* r);

// Standard deviation of the billed run time (hours) around the expected timeline `unit` (capacity.h).
double RunSdHours(const JobPlan& plan, const Timeline& unit);

}  // namespace gpucost
