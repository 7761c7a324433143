// operations.h — what surrounds the training run itself (issue 29): bring-up before the first step, staging the
// data set, restore tests and unusable checkpoints, the spare pool's recovery, allocated GPUs idle between jobs,
// a support plan, and the delay cost. PlanJob() plans them (PlanOperations); BillJob() adds their GPU time to the
// pool's usage before the one billing engine prices it (AddOperationsUsage: the same rental, rounding, commitment
// term and tax as the run; issue 45) and their services after (AddOperationsServices); Evaluate() and the Monte
// Carlo add the delay (capacity.h).
//
//   bring_up        cluster.bring_up_hours, once, every billed GPU held (provisioning, burn-in, NCCL and storage
//                   validation before the first step)
//   staging         storage.staging.dataset_gb / storage.staging.gbps before the first step; GPUs billed while
//                   it copies when storage.staging.billed; the staged copy is stored at
//                   storage.scratch_usd_per_gb_month while the job runs (part storage)
//   restore_test    every reliability.restore_test_every checkpoints, reliability.restore_test_minutes with the
//                   cluster blocked (load the checkpoint and check it)
//   bad_checkpoint  at a rollback the last checkpoint is unusable with reliability.bad_checkpoint_probability p,
//                   unless it was restore-tested (a share 1 / restore_test_every of them): the job goes back one
//                   more checkpoint interval and reloads (one segment and one recovery more), and the one before may
//                   be unusable too: a run of bad checkpoints, p / (1 - p) extra rollbacks per rollback on average
//                   (geometric). p = 1 with no restore tests never recovers: the job is blocked, not priced.
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
struct Usage;

struct OpsPlan {
  double bring_up_s = 0;
  double staging_s = 0;
  bool staging_billed = false;
  double scratch_gb = 0;
  double scratch_usd_per_gb_month = 0;   // as entered (the scenario's tax basis; billing.h AddService)
  double restore_test_every = 0;         // checkpoints (0: never)
  double restore_test_s = 0;
  double bad_checkpoint_probability = 0; // effective: untested share only
  double bad_checkpoint_loss_s = 0;      // one more segment + one more reload
  double allocation_efficiency = 1;
  double support_usd_per_month = 0;      // as entered (the scenario's tax basis)
  // The spare pool (spares.h): a failure recovers fast with probability fast_fraction.
  double spare_fast_fraction = 0;
  double fast_recovery_s = 0, slow_recovery_s = 0;
  // Capacity and the deadline (capacity.h).
  double wait_mean_s = 0;
  double lead_s = 0;                     // owned hardware's purchase lead time (fixed, before the wait)
  bool deadline_given = false;
  double deadline_s = 0;                 // given (0: the normal run, known after Evaluate's normal bill)
  double value_usd_per_s = 0;
};

// Fills plan->ops from the scenario (after the rest of PlanJob) and sets the unit's mean failure recovery from
// the spare pool.
void PlanOperations(const Scenario& s, Result* r, JobPlan* plan);

// Before billing: the stretches above as time parts of *out and as GPU-hour parts of the pool's usage *u (its wall
// time, held hours and the commitment's held hours grow by them; allocation idle counts in the commitment's term,
// not in the rental's rounding).
void AddOperationsUsage(const JobPlan& plan, const Timeline& unit, JobBill* out, Usage* u);
// After the GPU time: scratch storage of the staged copy and the support plan for out->hours, as services.
void AddOperationsServices(const JobPlan& plan, JobBill* out);

// The mean extra rollbacks per rollback that a run of unusable checkpoints causes: p / (1 - p) (p: the effective
// probability, OpsPlan::bad_checkpoint_probability); infinite at p = 1.
double BadCheckpointRunMean(double p);
// The chance that a checkpoint a rollback needs is unusable: reliability.bad_checkpoint_probability on the share
// of checkpoints not restore-tested (0 without checkpoints). At 1 a rollback never recovers (blocked, evaluate.h).
double EffectiveBadCheckpointProbability(const Scenario& s);

// The delay cost of one finished timeline: the job started `start_wait_h` hours after the request.
void AddDelay(const JobPlan& plan, double start_wait_h, JobBill* out);

// Evaluate(): the schedule outlook (capacity.h) of the expected timeline, with its delay cost as a part of
// r->cost_usd (r->expected_hours and the bill must be set).
void ApplyOutlook(const JobPlan& plan, const Timeline& unit, double normal_run_hours, Result* r);

// Standard deviation of the billed run time (hours) around the expected timeline `unit` (capacity.h).
double RunSdHours(const JobPlan& plan, const Timeline& unit);

}  // namespace gpucost
