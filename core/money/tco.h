// tco.h — owned hardware (cost per useful GPU-hour, break-even against a cloud price) and the same job
// priced under every pricing model side by side (on-demand, spot, reserved, owned).
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "job/result.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr double kHoursPerYear = 8760.0;
constexpr double kHoursPerMonth = kHoursPerYear / 12.0;

// Annual cost per GPU, as named parts that sum to usd_per_gpu_year:
//   capex        depreciation: capex x (1 + spares) x (1 - residual) / lifetime (straight line)
//   power        kW x PUE x 8,760 h x $/kWh (drawn all year: an upper bound)
//   facility     colocation per IT kW x kW x 12
//   maintenance  support contracts: fraction of capex (incl. spares) per year
//   staff, opex  per GPU per year
// Repair downtime: a failed GPU (every gpu_mtbf_hours) is out for repair_hours_per_failure; spares cover
// that first, the rest reduces useful hours. Useful hours = 8,760 x utilization x (1 - repair downtime).
// Per useful GPU-hour: annual / useful hours. Break-even utilisation: where that equals
// compare_usd_per_gpu_hour (0 when that price is 0; > 1: never). Break-even months: upfront capex / (monthly cloud cost of the useful hours -
// monthly running cost); 0 when renting is never dearer.
TcoResult ComputeTco(const OwnedInputs& owned, double gpu_mtbf_hours);
inline TcoResult ComputeTco(const OwnedInputs& owned) { return ComputeTco(owned, 0.0); }
// The scenario's owned-hardware inputs for GPU `gpu` (nullptr: cluster.gpu): pricing.owned.*, with the power and
// the capex per GPU from the GPU's server entry (gpus.json server_kw_per_gpu, server_usd_per_gpu) while the fields
// hold their (H100 server) defaults.
OwnedInputs OwnedFor(const Scenario& s, const char* gpu);
// Where OwnedFor's capex and power per GPU come from (OwnedSource, result.h).
OwnedSource OwnedSourceFor(const Scenario& s, const char* gpu);
// True when pricing.owned.capex_usd_per_gpu is left at the H100 server's example and the GPU's catalog entry has no
// server price (capex_basis "example"): the result warns, enter a quote.
bool OwnedCapexIsExample(const Scenario& s, const char* gpu);
// The owned terms as a document's "tco" object (eval's and each pricing row's, one writer): the annual parts, the
// upfront price and its VAT, the capital outlay for `billed_gpus`, the basis (utilisation or lifetime commitment),
// and the capex and power per GPU with where they come from (OwnedSource).
nlohmann::json OwnedTermsJson(const Scenario& s, const TcoResult& t, double billed_gpus);

// --- The same job under the four pricing models ---------------------------------------------------------

// The on-demand price (USD per GPU-hour, on the scenario's tax basis) the comparison is anchored on:
// the scenario's price when it is on-demand; spot and reserved prices divided by (1 - their discount)
// unless reserved.usd_per_gpu_hour_on_demand is given; owned: owned.compare_usd_per_gpu_hour.
// A KRW price (pricing.krw_per_gpu_hour) is converted with krw_per_usd first.
double OnDemandReferenceUsdPerGpuHour(const Scenario& s);

// `s` re-priced under `model`: the scenario's own price for its own model, otherwise the on-demand
// reference x (1 - discount) (spot, reserved) or the owned TCO. Owned hardware carries no rental tax.
Scenario WithPricingModel(const Scenario& s, PricingModel model);

constexpr int kModelCount = 4;
constexpr int kRiskTextCapacity = 240;

struct ModelCost {
  PricingModel model = PricingModel::kOnDemand;
  double usd_per_gpu_hour = 0;     // pre-tax price per billed GPU-hour (blended above a commitment)
  double job_usd = 0;              // Evaluate() less the term after the job: the job itself, every part included
  double term_tail_usd = 0;        // reserved: commitment paid after the job ends, to the end of the term (with
                                   // tax; less pricing.reserved.other_use_fraction)
  double total_usd = 0;            // job_usd + term_tail_usd = Evaluate()'s expected_usd
  double expected_hours = 0;
  double ratio_to_on_demand = 0;   // total_usd / on-demand total_usd
  bool capacity_guaranteed = false;
  char risk[kRiskTextCapacity] = {};  // English, as documents carry it
  Message risk_message;               // the same as a key and parameters (rendered in the reader's language)
  Result result;
};

struct PricingComparison {
  bool ok = false;
  double on_demand_usd_per_gpu_hour = 0;  // the anchor (see OnDemandReferenceUsdPerGpuHour)
  ModelCost models[kModelCount];          // indexed by PricingModel
  int cheapest = 0;                       // index of the lowest total_usd (the delay cost included, capacity.h)
  int cheapest_rate = 0;                  // index of the lowest price per GPU-hour (issue 29)
};

// Evaluates the scenario's job under on-demand, spot, reserved and owned. ok is false when the scenario
// cannot be evaluated.
PricingComparison ComparePricingModels(const Scenario& s);

const char* PricingModelName(PricingModel m);  // "on_demand", "spot", "reserved", "owned"

// Buying against renting as utilisation varies (the page's buy-vs-cloud chart, the pricing document's
// "buy_vs_cloud"): the owned cost per useful GPU-hour at 5%, 10%, ... 100% utilisation (the annual cost is fixed, so
// it scales as 1 / utilisation) against the scenario's on-demand price, both before tax.
constexpr int kBuyVsCloudPoints = 20;
struct BuyVsCloud {
  double utilization[kBuyVsCloudPoints] = {};
  double owned_usd_per_gpu_hour[kBuyVsCloudPoints] = {};
  double cloud_usd_per_gpu_hour = 0;
  double current_utilization = 0;   // pricing.owned.utilization
  TcoResult tco;                    // at the current utilisation (break-even utilisation and months)
};
BuyVsCloud BuyVsCloudCurve(const Scenario& s);

// The document of `gpucost pricing --format json` and the page's view("pricing") (schema gpucost/pricing@1).
// USD figures keep their _usd names; the same money in the scenario's currency has names without the unit.
std::string PricingToJson(const Scenario& s, const PricingComparison& c, int indent = 2);

}  // namespace gpucost
