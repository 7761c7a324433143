// billing.h — the one billing engine (issue 25): how GPU time a workload held becomes money, the same for a
// training job (evaluate.cpp, montecarlo.cpp), a batch inference job and an online service (inference.cpp),
// and for any later workload (autoscaled pools, spare pools: they describe what they held as Usage and call
// these functions; they never price GPU time themselves).
//
//   PlanBilling()   the scenario's pricing as BillingTerms: the price per billed GPU-hour before tax (the entered
//                   price, KRW converted; a commitment's blend; owned hardware's TCO from the GPU's catalog
//                   entry), the billing increment and minimum, the commitment's term, storage, egress, fees, tax.
//   BillGpuTime()   one pool of GPUs held (Usage: GPU-hours as named parts, the GPUs rented, how long, how many
//                   rental sessions were cut short): rounds every rental session up to the increment and the
//                   minimum (each GPU holds one rental across the wall time; every cut session - a spot
//                   preemption, a scale-down and up, a replica replaced - starts one more, rounded again),
//                   prices every part at the pool's price, and bills the commitment's unused term.
//                   Accumulates into the bill: a workload with several pools calls it once per pool.
//   AddService()    money that is not GPU time (a support plan, scratch storage, the router tier), entered on the
//                   scenario's tax basis like storage, egress and fees (services_tax_divisor): one basis for every
//                   service, rented or owned hardware alike.
//   FinishBill()    storage, egress and fixed fees (once per workload), then tax on everything: cloud rental and
//                   services at pricing.tax_rate; owned hardware pays it on what it buys (capex, power,
//                   facility, maintenance, other opex: TcoResult::taxable_fraction), not on staff.
//                   pricing.vat_recoverable: the VAT is still computed and shown (JobBill::vat_usd) but the
//                   business recovers it, so the cost (cost_usd, usd) is net of it.
//
// Parts (result.h) are the same for every workload: billing_rounding, idle_gpus, unused_commitment, storage,
// egress, fees, tax; the workload fills its own GPU-hour parts (compute, rework, prefill_gpus, spot_rework, ...).
#pragma once
#include "base/message.h"
#include "money/parts.h"
#include "money/tco.h"
#include "scenario/scenario.h"

namespace gpucost {

struct BillingTerms {
  bool bill_rounding = true;          // false for owned hardware
  double billing_increment_s = 1;
  double minimum_billed_s = 0;
  double price_pretax = 0;            // USD per billed GPU-hour before tax (blended above a commitment)
  double tax_rate = 0;                // pricing.tax_rate
  double taxable_fraction = 1;        // of GPU-time money that carries tax (owned: TcoResult::taxable_fraction)
  bool vat_recoverable = false;       // pricing.vat_recoverable
  double tax_divisor = 1;             // GPU prices entered with tax included are divided by (1 + tax) (owned: 1)
  double services_tax_divisor = 1;    // the same for every service bought (storage, egress, fees, support, scratch,
                                      // router): pricing.price_includes_tax, whatever the GPUs' pricing model
  double usd_per_gb_month = 0;        // storage, before tax
  double retention_hours = 0;
  double egress_usd = 0;              // before tax
  double fees_usd = 0;                // before tax
  // A commitment (pricing.model = reserved): 0 committed GPUs when there is none.
  double committed_gpus = 0;          // GPUs committed for the term
  double term_hours = 0;
  double committed_price_pretax = 0;  // USD per committed GPU-hour before tax
  double unused_paid_fraction = 1;    // 1 - pricing.reserved.other_use_fraction
  // Issue 50: instances kept stopped (pricing.stopped_*): billed only where the hour is rented by the hour
  // (on-demand, spot); a commitment pays its term and owned hardware its life whether stopped or not.
  bool stopped_billed = false;
  double stopped_hours = 0;
  double stopped_price_fraction = 1;  // of price_pretax
  double stopped_discount_hours = 0;  // 0: every stopped hour at the fraction; beyond it, the full price
};

// The scenario's pricing for a workload that rents `billed_gpus` (the commitment's size when
// pricing.reserved.committed_gpus is auto) of GPU `gpu` (owned: its catalog capex and power; nullptr:
// cluster.gpu). Fills r->tco (owned), r->usd_per_gpu_hour and the display currency.
// What pricing a pool tells the result beside its terms (job/billing_notes.h ApplyBillingNotes copies it there):
// the owned line's TCO (owned only), the price per billed GPU-hour before tax, the display currency. Its warnings
// go to *warnings (nullptr: not wanted, as for a second pool priced alike).
struct BillingNotes {
  bool has_tco = false;
  TcoResult tco;
  double usd_per_gpu_hour = 0;
  const char* display_currency = "USD";
  double display_per_usd = 1;
};
void PlanBilling(const Scenario& s, double billed_gpus, const char* gpu, BillingTerms* t, BillingNotes* notes,
                 Warnings* warnings);
// The price per GPU-hour before tax of a pool with its own price (inference.<pool>.usd_per_gpu_hour, entered on
// the scenario's tax basis): the terms with that price instead (a commitment bills it as its committed price).
BillingTerms WithPoolPrice(const BillingTerms& t, double usd_per_gpu_hour_entered);

// What one pool of GPUs held, before the billing rules.
struct Usage {
  Breakdown gpu_hours;                // held GPU-hours as named parts (no billing_rounding, no unused_commitment)
  double billed_gpus = 0;             // GPUs rented for the whole wall time (whole nodes, spares included)
  double wall_s = 0;                  // the wall time each of them holds its rental (billed time)
  double cut_sessions = 0;            // extra rental sessions (spot preemptions, scale events) in the period
  double session_gpus = 0;            // GPUs of one such session (a node, a replica)
  double away_gpu_s = 0;              // GPU-seconds of the wall time held by no session (a preempted node away until
                                      // it is reacquired): the sessions are that much shorter
  double exact_rounding_gpu_s = -1;   // rounding measured on simulated sessions (montecarlo.h); < 0: estimated
  double held_hours = 0;              // hours of the commitment term the workload uses itself
  double held_above_hours = 0;        // hours committed GPUs above billed_gpus sit unused (training: held_hours)
  double commitment_share = 1;        // of the unused term after the workload, the share billed to this period
                                      // (a service evaluated over part of its life: period / service length)
};

struct JobBill {
  Breakdown time_hours, gpu_hours, cost_usd;
  double hours = 0, billed_gpu_hours = 0, usd = 0;
  double commitment_after_job_usd = 0;  // of cost_usd unused_commitment (pre-tax): the term left after the job
  // A12: the terms a commitment was bought for (the largest over the pools; 0 without one): a job or service longer
  // than its term renews it, whole terms, and the last term's rest after the work is paid unused (in the part above).
  double commitment_terms = 0;
  double commitment_after_job_hours = 0;  // per committed GPU: the last term's hours after the work
  double taxable_usd = 0;               // the tax base so far
  double vat_usd = 0;                   // tax computed (in cost_usd.tax unless pricing.vat_recoverable)
  double gpu_usd = 0;                   // money for GPU time (all pools, pre-tax)
  double stopped_usd = 0;               // issue 50: of usd, the stopped instances' (BillStopped), tax included
};

// Expected billed time beyond the use of a rental session of exponentially distributed length (mean mean_s)
// under increment inc and minimum min_s: E[ceil(L/inc) inc] - mean (montecarlo.h measures it on simulated
// sessions instead).
double CutSessionRounding(double inc, double min_s, double mean_s);

// Adds one pool's GPU time to *out (gpu_hours and cost_usd parts, gpu_usd, taxable_usd, the commitment).
void BillGpuTime(const BillingTerms& t, const Usage& u, JobBill* out);
// A service's money (not GPU time) entered on the scenario's tax basis, into cost part `part` and the tax base.
void AddService(const BillingTerms& t, int part, double entered_usd, JobBill* out);
// Storage of stored_gb for `hours` (+ retention), egress, fees and tax; sets out->usd. Once per workload, after
// every pool and service.
void FinishBill(const BillingTerms& t, double stored_gb, double hours, JobBill* out);

// Issue 50: `gpus` instances' GPUs kept stopped for t.stopped_hours (pricing.stopped_*), as the part "stopped":
// GPU-hours held stopped, priced at the stopped fraction for the first stopped_discount_hours (all of them when 0)
// and at the full price beyond, taxed on the same terms; no run time. Nothing under a commitment or owned hardware.
// Call after the workload's bill is complete (it updates out->billed_gpu_hours and out->usd).
void BillStopped(const BillingTerms& t, double gpus, JobBill* out);

// A12: work longer than its commitment's term renews it for whole terms: said (code "commitment_renewed"), with the
// work's hours, the term, the terms bought and the last term's hours and money (pre-tax) after the work, in the
// display currency. Nothing when the commitment holds the work in one term.
void NoteCommitmentRenewal(const BillingTerms& t, const JobBill& bill, double work_hours, const char* currency,
                           double per_usd, Warnings* warnings);

// The tax multiplier of money billed after the fact (the term after the job): 1 + tax, or 1 when recovered.
inline double TaxFactor(const BillingTerms& t) { return t.vat_recoverable ? 1.0 : 1.0 + t.tax_rate; }

}  // namespace gpucost
