// parts.h — the named parts of a total (time, GPU-hours, money): every total gpucost makes is their sum, in
// every workload, so the billing engine, the evaluation and every document name the same parts.
#pragma once

namespace gpucost {

// Named parts shared by the time, GPU-hour and money breakdowns. Not every part applies to every breakdown
// (time has no storage; money has no unbilled wait); unused parts are 0.
enum Part : int {
  kPartCompute = 0,     // productive compute at the achieved MFU
  kPartDataStall,       // waiting for input data
  kPartCheckpoint,      // blocking checkpoint writes
  kPartRework,          // progress lost to rollbacks, redone
  kPartRecovery,        // detection, restart, reload (billed, idle)
  kPartReacquireWait,   // waiting for spot capacity (not billed)
  kPartDowntime,        // known downtime (billed, idle)
  kPartIdleGpus,        // billed GPUs not doing the job's work (whole-node rounding, partial waves, surviving
                        // nodes of a coupled job waiting for spot capacity)
  kPartHotSpares,       // hot-spare GPUs standing by
  kPartBillingRounding, // billing increments and minimums
  kPartStorage,         // dataset and checkpoints stored, during the job and retention
  kPartEgress,          // data transfer out
  kPartFees,            // fixed fees
  kPartUnusedCommitment,// reserved: committed GPU-hours paid but not used by this job
  kPartTax,             // tax (VAT)
  // Inference (inference.h): GPU-hours of prefill and decode work at full batch, capacity held idle for the
  // peak and the latency target, prefill GPUs held while the KV cache leaves (disaggregated).
  kPartPrefillGpus,
  kPartDecodeGpus,
  kPartIdleCapacity,
  kPartKvTransfer,
  // Serving on spot (inference_billing.h): in-flight requests recomputed after a preemption, spare nodes
  // carried to hold the target while preempted nodes are reacquired.
  kPartSpotRework,
  kPartSpotSpareCapacity,
  // Issue 29 (operations.h, capacity.h): bring-up before the first step, restore tests, rollbacks past an
  // unusable checkpoint, staging the data set (GPUs held), allocated GPUs idle between jobs, the support plan,
  // and the delay cost (what finishing after the deadline costs the team; not billed, not taxed).
  kPartBringUp,
  kPartRestoreTest,
  kPartBadCheckpoint,
  kPartStaging,
  kPartAllocationIdle,
  kPartSupport,
  kPartDelay,
  // Issue 28: the router tier in front of the replicas; replicas rented before they serve (autoscaling's
  // cold start: weights loading).
  kPartRouter,
  kPartColdStart,
  // Issue 50: a shared GPU's interference and slow nodes (the step slower), early failures the burn-in left and
  // collective timeouts (their rework and recovery), instances kept stopped (billed at the stopped price), and the
  // programme around the run in the cost of the finished model: experiments, abandoned runs, evaluation.
  kPartInterference,
  kPartStragglers,
  kPartInfantFailures,
  kPartCollectiveTimeouts,
  kPartStopped,
  kPartExperiments,
  kPartAbandonedRuns,
  kPartEvaluation,
  kPartCount
};

const char* PartName(int part);   // "compute", "data_stall", ... (JSON keys)
const char* PartLabel(int part);  // "Productive compute", ... (UI/table labels)

struct Breakdown {
  double part[kPartCount] = {};
  double Total() const {
    double sum = 0;
    for (double v : part) sum += v;
    return sum;
  }
};

}  // namespace gpucost
