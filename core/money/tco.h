// tco.h — owned hardware: cost per useful GPU-hour, break-even against a cloud price, buying against renting as
// utilisation varies.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr double kHoursPerYear = 8760.0;
constexpr double kHoursPerMonth = kHoursPerYear / 12.0;

// Where owned hardware's capex and power per GPU come from (tco.h OwnedSourceFor): "entered" (the user's value),
// "catalog" (the GPU's server entry in gpus.json; source: its server_price_source / server_source) or "example"
// (the field's H100 default for a GPU the catalog has no figure for; source: the field's). The texts are static
// (the catalog and the field table live as long as the program).
struct OwnedSource {
  const char* capex_basis = "entered";
  const char* capex_source = "";
  const char* power_basis = "entered";
  const char* power_source = "";
};

struct TcoResult {
  bool present = false;
  double usd_per_gpu_hour = 0;        // per useful GPU-hour at the utilisation
  double usd_per_gpu_year = 0;        // all-in annual cost per GPU
  double capex_usd_per_gpu_year = 0;  // depreciation (incl. spares, less residual)
  double power_usd_per_gpu_year = 0;
  double opex_usd_per_gpu_year = 0;  // other opex (pricing.owned.opex_usd_per_gpu_year)
  double facility_usd_per_gpu_year = 0;     // colocation per IT kW
  double maintenance_usd_per_gpu_year = 0;  // support contracts (fraction of capex)
  double staff_usd_per_gpu_year = 0;
  double financing_usd_per_gpu_year = 0;    // issue 29: interest (annuity at pricing.owned.interest_rate - straight line)
  double upfront_usd_per_gpu = 0;           // capex incl. spares, paid at purchase
  double repair_downtime_fraction = 0;      // of hours, after spares cover what they can
  double useful_hours_per_gpu_year = 0;     // 8,760 x utilization x (1 - repair downtime)
  double break_even_utilization = 0;  // against compare_usd_per_gpu_hour (> 1: never)
  double taxable_fraction = 1;        // of usd_per_gpu_year bought from suppliers (carries VAT): all but staff
  double purchase_vat_usd_per_gpu = 0;  // VAT on upfront_usd_per_gpu at pricing.tax_rate
  double break_even_months = 0;       // months until owning beats renting at the utilisation (0: never, or not within the lifetime)
  double capex_usd_per_gpu = 0;       // the purchase price per GPU used (before spares)
  double power_kw_per_gpu = 0;        // the IT power per GPU used
  OwnedSource source;                 // where those two come from (set by PlanBilling)
};

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
// The cash needed to buy the servers of `billed_gpus` GPUs (issue 25): the upfront price per GPU (spares included)
// x the GPUs, and the VAT paid on it at pricing.tax_rate. The page's Results, the comparison's CSV, the pricing
// table and the documents' "tco" show it (issue 47: the page never did).
struct CapitalOutlay {
  double usd = 0;      // before VAT
  double vat_usd = 0;
};
CapitalOutlay OwnedCapitalOutlay(const Scenario& s, const TcoResult& t, double billed_gpus);

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

}  // namespace gpucost
