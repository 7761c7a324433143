// fleet.h — fleet economics over months: a demand profile (baseline + bursts), offers (on-demand, spot,
// 1- and 3-year commitments, owned hardware) and the plan that costs least.
//
// The document (schema gpucost/fleet@1):
//   {"schema": "gpucost/fleet@1", "name": "...",
//    "demand_gpus": [64, 64, 192, ...]                       average GPUs busy in each month, or
//    "profile": {"months": 36, "baseline_gpus": 64, "growth_gpus_per_month": 2,
//                "bursts": [{"start_month": 4, "months": 2, "gpus": 128}]},     (start_month from 1)
//    "on_demand": {"usd_per_gpu_hour": 2.99} or {"offer": "lambda-8x-h100-sxm"}   (assets/offers.json),
//    "spot": {"discount": 0.4, "availability": 0.5, "overhead": 0.1},
//    "commitments": [{"name": "1-year", "term_months": 12, "discount": 0.37, "capacity_guaranteed": false}],
//    "granularity_gpus": 8,
//    "owned": {<pricing.owned fields>} or false,  "gpu_mtbf_hours": 50000}
// Everything but the demand has a default.
//
// The planner. Commitments are bought in whole multiples of granularity_gpus for whole terms starting at
// month 1, 1 + term, ...; they are paid whether used or not, also past the horizon. Owned GPUs are bought
// for the whole horizon at their TCO per held GPU-hour (tco.h). Demand not covered is burst: spot serves
// `availability` of it (when spot, with its overhead, is cheaper than on-demand), on-demand the rest.
// Cost is separable by "slot" (the k-th block of granularity_gpus GPUs of demand), so each distinct slot is
// solved exactly by a dynamic programme over months and the cheapest set of terms covering it: the
// result is the cost-minimising commitment level for every term and period, never dearer than
// all-on-demand, and the hybrid (owned + cloud) never dearer than cloud alone.
//
// Issue 50: a hybrid moves work between its owned site and the cloud: data brought back per cloud GPU-hour used
// (egress), data copied to the cloud and the environment moved each time it starts using the cloud after a month
// without (a "move"), as the parts transfer and migration. The planner pays the egress per used cloud hour,
// burst or committed, in each slot's programme (exact: it is separable by slot). A move's cost is not (it depends
// on which months use the cloud at all): with a cost per move, the owned level the slots chose is compared with
// owning each level the demand takes (every slot above it in the cloud), each with its transfer and moves, and the
// cheapest kept. A hybrid dearer than the cloud alone after them is replaced by the cloud plan (no owned GPUs).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "scenario/json_io.h"
#include "money/tco.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr const char* kFleetSchema = "gpucost/fleet@1";
constexpr int kMaxFleetMonths = 120;
constexpr int kMaxCommitments = 4;
constexpr double kMaxFleetGpus = 1e6;

struct CommitmentOffer {
  char name[kTextCapacity];
  int term_months;              // 1..120
  double discount;              // price = on-demand x (1 - discount)
  bool capacity_guaranteed;     // false: a discount only (AWS Savings Plans, GCP CUDs)
};

struct FleetInputs {
  char name[kTextCapacity];
  int months;                              // horizon
  double demand_gpus[kMaxFleetMonths];     // average GPUs busy in each month
  double on_demand_usd_per_gpu_hour;
  double spot_discount;                    // spot price = on-demand x (1 - discount)
  double spot_availability;                // share of burst GPU-hours spot capacity can serve (0 = no spot)
  double spot_overhead;                    // extra GPU-hours per useful spot GPU-hour (restarts, rework)
  int commitment_count;
  CommitmentOffer commitments[kMaxCommitments];
  double granularity_gpus;                 // commitments and owned GPUs in multiples of this (a node)
  bool plan_hybrid;                        // also plan owned baseline + cloud burst
  OwnedInputs owned;
  double gpu_mtbf_hours;                   // for owned repair downtime
  double owned_resale_fraction;            // issue 29: share of book value a resale at the horizon recovers
  // Issue 47: the currency its notes state money in (the scenario's: a KRW page's notes in won), and its rate.
  char currency[4];                        // "USD" or "KRW"
  double per_usd;                          // units of `currency` per USD (1 for USD)
  // Issue 50: moving work between the owned layer and the cloud (the hybrid plan only: the cloud-only plan keeps
  // its data in the cloud). "hybrid_transfer": {...} in the document.
  double transfer_gb_out_per_gpu_hour;     // gb_out_per_cloud_gpu_hour: brought back per cloud GPU-hour used
                                           // (checkpoints, results, logs), at the cloud's egress price
  double transfer_gb_in_per_move;          // gb_in_per_move: copied to the cloud each time the hybrid starts
                                           // using it after a month without (dataset, images)
  double egress_usd_per_gb;                // egress_usd_per_gb: the cloud's price of data leaving it
  double ingress_usd_per_gb;               // ingress_usd_per_gb: data into the cloud (its price plus the
                                           // owned site's transit)
  double migration_usd_per_move;           // migration_usd_per_move: engineering to move the environment
                                           // (rebuilt, validated; a consistent environment lowers it)
  // fresh2 A9: the scenario's offer lists no commitment (or no spot) price (OfferListsModel), and the scenario has
  // no such price of its own: the plan leaves that layer out, as the pricing table refuses its row (no number
  // without a source), and its notes name the offer. "not_offered": {"offer": "<id>", "commitments": true, "spot": true}.
  char not_offered_by[kTextCapacity];      // the offer's id (assets/offers.json; "" when nothing is left out)
  bool commitments_not_offered;
  bool spot_not_offered;
};

// Issue 29: owned GPUs bought for a plan shorter than their lifetime. The plan pays their ownership for its own
// months (TCO per held GPU-hour) plus the remainder: book value at the horizon (straight line to the residual)
// less what a resale recovers (owned_resale_fraction of it; 0 = kept idle, the rest of the capex is this plan's).
struct OwnedRemainder {
  double months_owned = 0, lifetime_months = 0;
  double book_value_usd_per_gpu = 0;  // at the horizon
  double resale_fraction = 1;
  double lost_usd_per_gpu = 0;        // book value not recovered: added to the owned price over the plan's months
};
OwnedRemainder OwnedRemainderFor(const FleetInputs& in);

// Defaults (see the fleet field sources in fleet.cpp); no demand (months = 0).
FleetInputs DefaultFleet();

// The fleet a scenario implies (the page's Fleet view starts from it; issue 25: no view derives its inputs).
// Demand: `baseline_gpus` (the scenario's cluster.gpus when 0) every month for `months` (the caller refuses a
// horizon outside 1 to kMaxFleetMonths, as the page's Fleet view does; this only guards the arrays), plus
// `burst_gpus` for `burst_months` from month `burst_start_month` (1-based), at most kMaxFleetGpus a month.
// Prices: the scenario's on-demand reference before tax (the anchor of gpucost pricing; the fleet default when
// it is not in (0, 10,000] USD), its spot and reserved discounts and the reservation's capacity guarantee, its
// owned terms. Fresh2 A9: with an offer (pricing.offer) that lists no commitment price, no commitment is planned
// unless the scenario is reserved at a price of its own (then one, its term, at the discount that price implies);
// with one that lists no spot price, no spot unless the scenario is spot at a price of its own (not_offered_by). A commitment's granularity is one node; the MTBF is the scenario's.
struct FleetShape {
  int months = 36;
  double baseline_gpus = 0;
  double burst_gpus = 0;
  int burst_start_month = 4, burst_months = 2;
  // Issue 50: moving between owned and cloud (the fleet's hybrid_transfer; the egress price is the scenario's
  // storage.usd_per_gb_egress; the ingress price, 0 by default as the fleet's, is the page's to give).
  double transfer_gb_out_per_gpu_hour = 0, transfer_gb_in_per_move = 0, migration_usd_per_move = 0;
  double ingress_usd_per_gb = 0;
};
FleetInputs FleetFromScenario(const Scenario& s, const FleetShape& shape);

struct FleetParse {
  FleetInputs fleet;
  std::vector<InputError> errors;  // each names the JSON path and the allowed range
  bool ok() const { return errors.empty(); }
};
FleetParse ParseFleetJson(std::string_view text);

// Named parts of a plan's cost (USD) and GPU-hours over the horizon; they sum to the totals.
enum FleetPart : int {
  kFleetCommittedUsed = 0,    // committed GPU-hours doing work
  kFleetCommittedUnused,      // committed GPU-hours paid, idle, inside the horizon
  kFleetCommittedAfter,       // commitment terms running past the horizon (paid)
  kFleetOnDemand,             // burst on demand
  kFleetSpot,                 // burst on spot (useful hours)
  kFleetSpotOverhead,         // spot restarts and rework
  kFleetOwnedUsed,            // owned GPU-hours doing work
  kFleetOwnedIdle,            // owned GPU-hours idle (paid through TCO)
  kFleetTransfer,             // issue 50 (hybrid): data moved between the owned site and the cloud
  kFleetMigration,            // issue 50 (hybrid): moving the environment, once per move to the cloud
  kFleetPartCount
};
const char* FleetPartName(int part);   // "committed_used", ...
const char* FleetPartLabel(int part);  // "Committed, used", ...

struct FleetPlan {
  double commit_gpus[kMaxCommitments][kMaxFleetMonths] = {};  // level per commitment and term period
  int periods[kMaxCommitments] = {};                           // term periods bought for each commitment
  double owned_gpus = 0;
  double usd[kFleetPartCount] = {};
  double gpu_hours[kFleetPartCount] = {};
  double total_usd = 0;
  // Per month, average GPUs: committed (paid), owned, on-demand and spot (useful) — for charts.
  double month_committed_gpus[kMaxFleetMonths] = {};
  double month_on_demand_gpus[kMaxFleetMonths] = {};
  double month_spot_gpus[kMaxFleetMonths] = {};
  double month_usd[kMaxFleetMonths] = {};
  double month_cloud_used_gpu_hours[kMaxFleetMonths] = {};  // committed, on-demand and spot hours doing work
  double moves = 0;  // issue 50 (hybrid): months the cloud is used after a month without (the first included)
};

struct FleetResult {
  bool ok = false;
  FleetPlan all_on_demand;   // reference: every GPU-hour on demand
  FleetPlan cloud;           // commitments + spot + on-demand
  FleetPlan hybrid;          // owned + commitments + spot + on-demand (when plan_hybrid)
  TcoResult owned_tco;       // the owned price used by the hybrid
  double owned_usd_per_held_gpu_hour = 0;  // incl. the remainder spread over the plan's months
  OwnedRemainder owned_remainder;
  double burst_usd_per_gpu_hour = 0;  // blended price of uncovered demand (spot share x spot + rest on-demand)
  double spot_share_of_burst = 0;     // 0 when spot is not cheaper than on-demand after overhead
  double demand_gpu_hours = 0;
  double cloud_share_of_on_demand = 0;   // the cloud plan's total over the all-on-demand one (issue 47: the view's)
  double hybrid_share_of_on_demand = 0;  // the hybrid plan's likewise
  Warnings notes;                     // capacity risk and other notes
  Warnings differences;               // issue 45: where these layers are priced otherwise than the billing engine
                                      // prices a job (gpucost pricing), each named (fleet.diff.*)
};

FleetResult PlanFleet(const FleetInputs& in);


// A commitment's name as a message parameter: the names the fleet gives ("1-year", "3-year", "N-month") as keys,
// so they read in the reader's language; a name the user gave as it is.
MessageParam CommitmentNameParam(const CommitmentOffer& c);

}  // namespace gpucost
