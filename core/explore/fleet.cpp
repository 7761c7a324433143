// fleet.cpp — the commitment planner and hybrid plan (see fleet.h), and the fleet document parser.
//
// [SECTION] Defaults   [SECTION] Planner   [SECTION] Parser
#include "job/validate.h"
#include "explore/fleet.h"
#include "base/asserts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "scenario/fields.h"
#include "base/format.h"
#include "base/i18n.h"
#include "money/offers.h"
#include "money/pricing_model.h"
#include "money/tco.h"

namespace gpucost {

// [SECTION] Defaults ------------------------------------------------------------------------------------

// Share of burst GPU-hours spot capacity serves. Assumption: large H100 spot pools are often short; AWS
// Spot Instance Advisor lists p5 among the most interrupted types. Replace with your own observation.
constexpr double kDefaultSpotAvailability = 0.5;
// Extra GPU-hours per useful spot GPU-hour (restarts, rework since the last checkpoint). Assumption; run
// `gpucost pricing` on a representative job for a figure from the failure model.
constexpr double kDefaultSpotOverhead = 0.10;
// GCP committed use discounts for A2 GPU VMs (a2-highgpu-1g, asia-east1): monthly 2,766.80, 1-year
// 1,743.06 (-37%), 3-year 968.40 (-65%) USD (Cyclenerd google-cloud-pricing-cost-calculator pricing.yml,
// generated 2026-02-12 from the Cloud Billing Catalog). CUDs discount without reserving capacity.
constexpr double kDefaultOneYearDiscount = 0.37;
// Issue 45: a used datacenter GPU sold at the horizon fetches less than its book value. SpotWire's GPU valuator
// data (v0.6, as of 2026-06-04, CC-BY-4.0; eBay sold comparables): a used, working unit 0.72 of the secondary
// price, sold through a broker within 90 days 0.85 of that: 0.72 x 0.85 = 0.61, with the book value standing in
// for the secondary price. (It was 1: resold at full book value, which no resale channel pays.)
constexpr double kDefaultOwnedResaleFraction = 0.72 * 0.85;
constexpr double kDefaultThreeYearDiscount = 0.65;

FleetInputs DefaultFleet() {
  FleetInputs f;
  std::memset(&f, 0, sizeof f);
  const Scenario s = DefaultScenario();
  f.on_demand_usd_per_gpu_hour = s.pricing.usd_per_gpu_hour;
  f.spot_discount = s.pricing.spot.discount;
  f.spot_availability = kDefaultSpotAvailability;
  f.spot_overhead = kDefaultSpotOverhead;
  f.commitment_count = 2;
  f.commitments[0] = CommitmentOffer{"1-year", 12, kDefaultOneYearDiscount, false};
  f.commitments[1] = CommitmentOffer{"3-year", 36, kDefaultThreeYearDiscount, false};
  f.granularity_gpus = static_cast<double>(s.cluster.gpus_per_node);
  f.plan_hybrid = true;
  f.owned = OwnedFor(s, nullptr);
  f.gpu_mtbf_hours = s.reliability.gpu_mtbf_hours;
  f.owned_resale_fraction = kDefaultOwnedResaleFraction;
  std::snprintf(f.currency, sizeof f.currency, "%s", "USD");
  f.per_usd = 1;
  f.egress_usd_per_gb = s.storage.usd_per_gb_egress;  // 0.09: AWS's first 10 TB/month (fields.cpp)
  f.ingress_usd_per_gb = 0;  // AWS, GCP and Azure charge nothing for data into the cloud; the site's transit is yours
  return f;
}

namespace {

// Fresh2 A9: a layer the scenario's offer lists no price for is left out (the pricing table refuses its row), unless
// the scenario prices it itself (its own model, a price typed): a reservation then plans one commitment, its term, at
// the discount its price implies against the on-demand reference.
void LeaveOutUnlisted(const Scenario& s, FleetInputs* f) {
  const Offer* offer = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  if (!offer) return;
  const bool priced = s.pricing.usd_per_gpu_hour > 0 || s.pricing.krw_per_gpu_hour > 0;
  const PricingModel own = Model(s);
  if (!OfferListsModel(*offer, PricingModel::kReserved)) {
    if (own == PricingModel::kReserved && priced) {
      const double entered = s.pricing.krw_per_gpu_hour > 0 ? s.pricing.krw_per_gpu_hour / s.pricing.krw_per_usd
                                                             : s.pricing.usd_per_gpu_hour;
      const double reference = OnDemandReferenceUsdPerGpuHour(s);
      const int term = static_cast<int>(std::clamp(std::round(s.pricing.reserved.term_months), 1.0, double(kMaxFleetMonths)));
      f->commitment_count = 1;
      f->commitments[0] = CommitmentOffer{"", term, reference > 0 ? std::clamp(1 - entered / reference, 0.0, 0.99) : 0,
                                          s.pricing.reserved.capacity_guaranteed};
      if (term == 12) std::snprintf(f->commitments[0].name, kTextCapacity, "%s", "1-year");
      else std::snprintf(f->commitments[0].name, kTextCapacity, "%d-month", term);
    } else {
      f->commitment_count = 0;
      f->commitments_not_offered = true;
    }
  }
  if (!OfferListsModel(*offer, PricingModel::kSpot) && !(own == PricingModel::kSpot && priced)) {
    f->spot_availability = 0;
    f->spot_not_offered = true;
  }
  if (f->commitments_not_offered || f->spot_not_offered)
    std::snprintf(f->not_offered_by, kTextCapacity, "%s", s.pricing.offer);  // an id: shorter than a field
}

}  // namespace

FleetInputs FleetFromScenario(const Scenario& s, const FleetShape& shape) {
  FleetInputs f = DefaultFleet();
  // The scenario's name as the fleet's label: as much as fits in its 63 bytes, never half a UTF-8 character
  // (a Korean name of 22 syllables would otherwise end in an invalid byte, which the JSON writer refuses).
  std::size_t n = std::min(std::strlen(s.name), static_cast<std::size_t>(kTextCapacity - 1));
  while (n > 0 && n < std::strlen(s.name) && (static_cast<unsigned char>(s.name[n]) & 0xC0) == 0x80) --n;
  std::memcpy(f.name, s.name, n);
  f.name[n] = '\0';
  f.months = std::clamp(shape.months, 1, kMaxFleetMonths);
  const double baseline = shape.baseline_gpus > 0 ? shape.baseline_gpus : static_cast<double>(s.cluster.gpus);
  for (int m = 0; m < f.months; ++m) {
    const bool burst = m + 1 >= shape.burst_start_month && m + 1 < shape.burst_start_month + shape.burst_months;
    f.demand_gpus[m] = std::min(kMaxFleetGpus, baseline + (burst ? shape.burst_gpus : 0));
  }
  const double on_demand = OnDemandReferenceUsdPerGpuHour(s) / (s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1);
  if (on_demand > 0 && on_demand <= 1e4) f.on_demand_usd_per_gpu_hour = on_demand;  // else the fleet default
  f.spot_discount = s.pricing.spot.discount;
  f.commitments[0].discount = s.pricing.reserved.discount;
  f.commitments[0].capacity_guaranteed = s.pricing.reserved.capacity_guaranteed;
  f.granularity_gpus = static_cast<double>(std::clamp<std::int64_t>(s.cluster.gpus_per_node, 1, 1024));
  f.owned = OwnedFor(s, nullptr);  // the GPU's own server price and power, as the pricing comparison uses
  f.gpu_mtbf_hours = s.reliability.gpu_mtbf_hours;
  if (s.pricing.currency == static_cast<int>(Currency::kKrw) && s.pricing.krw_per_usd > 0) {  // notes in won (issue 47)
    std::snprintf(f.currency, sizeof f.currency, "%s", "KRW");
    f.per_usd = s.pricing.krw_per_usd;
  }
  f.egress_usd_per_gb = s.storage.usd_per_gb_egress;  // issue 50
  LeaveOutUnlisted(s, &f);  // fresh2 A9
  f.transfer_gb_out_per_gpu_hour = shape.transfer_gb_out_per_gpu_hour;
  f.transfer_gb_in_per_move = shape.transfer_gb_in_per_move;
  f.migration_usd_per_move = shape.migration_usd_per_move;
  f.ingress_usd_per_gb = shape.ingress_usd_per_gb;
  return f;
}

OwnedRemainder OwnedRemainderFor(const FleetInputs& in) {
  OwnedRemainder o;
  o.months_owned = in.months;
  o.lifetime_months = in.owned.lifetime_years * 12;
  const double upfront = in.owned.capex_usd_per_gpu * (1 + in.owned.spares_fraction);
  const double used = o.lifetime_months > 0 ? std::min(1.0, o.months_owned / o.lifetime_months) : 1;
  o.book_value_usd_per_gpu = upfront * (1 - (1 - in.owned.residual_fraction) * used);
  if (used >= 1) o.book_value_usd_per_gpu = 0;  // past its life the residual is counted by the TCO itself
  o.resale_fraction = in.owned_resale_fraction;
  o.lost_usd_per_gpu = o.book_value_usd_per_gpu * (1 - o.resale_fraction);
  return o;
}

const char* FleetPartName(int p) {
  static const char* const kNames[kFleetPartCount] = {"committed_used", "committed_unused", "committed_after_horizon",
                                                       "on_demand", "spot", "spot_overhead", "owned_used", "owned_idle",
                                                       "transfer", "migration"};
  return p >= 0 && p < kFleetPartCount ? kNames[p] : "";
}
const char* FleetPartLabel(int p) {  // assets/i18n: "fleetpart.<name>" in the current language
  return p >= 0 && p < kFleetPartCount ? Tr((std::string("fleetpart.") + FleetPartName(p)).c_str()) : "";
}

// [SECTION] Planner -------------------------------------------------------------------------------------
namespace {

// A way to cover one slot for whole terms: a commitment (index >= 0) or owned hardware (index -1).
struct Layer {
  int commitment;
  int term_months;
  bool starts_only_at_zero;
  double usd_per_gpu_hour;
  double usd_per_used_gpu_hour = 0;  // issue 50: a hybrid's cloud hours bring data back (egress), paid when used
};

struct Burst {
  double usd_per_gpu_hour;  // blended, per useful GPU-hour
  double spot_share;
  double od_price, spot_price, spot_overhead;
};

// Exact cheapest cover of one slot: months m with demand fraction f[m] in [0, 1] of `g` GPUs. States:
// (month, covered-until month). Returns the chosen (layer, start month) intervals.
class SlotSolver {
 public:
  SlotSolver(int months, const std::vector<Layer>& layers, double burst_usd_per_gpu_hour)
      : months_(months), layers_(layers), burst_(burst_usd_per_gpu_hour) {
    int max_term = 0;
    for (const Layer& l : layers_) max_term = std::max(max_term, l.term_months);
    states_ = months_ + max_term + 1;
    cost_.assign(static_cast<std::size_t>(months_ + 1) * states_, kInf);
    from_.assign(cost_.size(), -1);
    took_.assign(cost_.size(), -1);
  }

  std::vector<std::pair<int, int>> Solve(const double* f, double g) {
    used_before_[0] = 0;  // the slot's used months before month m, for costs paid per used hour
    for (int m = 0; m < months_; ++m) used_before_[m + 1] = used_before_[m] + f[m];
    std::fill(cost_.begin(), cost_.end(), kInf);
    At(cost_, 0, 0) = 0;
    for (int m = 0; m < months_; ++m)
      for (int c = m; c < states_; ++c) {
        const double base = At(cost_, m, c);
        if (base == kInf) continue;
        Step(m, c, -1, base, f, g);
        for (int l = 0; l < static_cast<int>(layers_.size()); ++l) {
          const Layer& layer = layers_[l];
          if (layer.starts_only_at_zero ? m != 0 : m % layer.term_months != 0) continue;
          // A term's held hours, and what its used hours pay (egress) in the months it newly covers (from c).
          const double used = UsedBetween(c, m + layer.term_months);
          Step(m, c, l, base + g * kHoursPerMonth * (layer.term_months * layer.usd_per_gpu_hour +
                                                     used * layer.usd_per_used_gpu_hour), f, g);
        }
      }
    int best = months_;
    for (int c = months_; c < states_; ++c)
      if (At(cost_, months_, c) < At(cost_, months_, best)) best = c;
    std::vector<std::pair<int, int>> chosen;
    for (int m = months_, c = best; m > 0; --m) {
      const int layer = At(took_, m, c);
      const int prev = At(from_, m, c);
      if (layer >= 0) chosen.push_back({layer, m - 1});
      c = prev;
    }
    return chosen;
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  template <typename T>
  T& At(std::vector<T>& v, int m, int c) { return v[static_cast<std::size_t>(m) * states_ + c]; }
  double UsedBetween(int from, int to) const {  // months [from, to) within the horizon
    from = std::min(from, months_), to = std::min(to, months_);
    return to > from ? used_before_[to] - used_before_[from] : 0;
  }

  void Step(int m, int c, int layer, double cost, const double* f, double g) {
    int covered = c;
    if (layer >= 0) covered = std::max(covered, m + layers_[layer].term_months);
    if (covered <= m) cost += f[m] * g * kHoursPerMonth * burst_;
    const int next = std::max(covered, m + 1);
    if (cost < At(cost_, m + 1, next)) {
      At(cost_, m + 1, next) = cost;
      At(from_, m + 1, next) = c;
      At(took_, m + 1, next) = layer;
    }
  }

  int months_, states_ = 0;
  const std::vector<Layer>& layers_;
  double burst_;
  std::vector<double> cost_;
  std::vector<int> from_, took_;
  double used_before_[kMaxFleetMonths + 1] = {};
};

Burst BurstPrice(const FleetInputs& in, bool allow_spot) {
  Burst b;
  b.od_price = in.on_demand_usd_per_gpu_hour;
  b.spot_price = in.on_demand_usd_per_gpu_hour * (1 - in.spot_discount);
  b.spot_overhead = in.spot_overhead;
  const bool spot_pays = b.spot_price * (1 + b.spot_overhead) < b.od_price;
  b.spot_share = allow_spot && spot_pays ? in.spot_availability : 0;
  b.usd_per_gpu_hour = b.spot_share * b.spot_price * (1 + b.spot_overhead) + (1 - b.spot_share) * b.od_price;
  return b;
}

// Adds one slot's chosen intervals and its burst to the plan's parts.
void Account(const FleetInputs& in, const std::vector<Layer>& layers, const Burst& burst, const double* f,
             double g, const std::vector<std::pair<int, int>>& chosen, FleetPlan* plan) {
  const int months = in.months;
  const double h = kHoursPerMonth;
  bool covered[kMaxFleetMonths] = {};
  for (const auto& [l, start] : chosen) {
    const Layer& layer = layers[l];
    const double price = layer.usd_per_gpu_hour;
    const bool owned = layer.commitment < 0;
    if (owned) plan->owned_gpus += g;
    else plan->commit_gpus[layer.commitment][start / layer.term_months] += g;
    for (int m = start; m < start + layer.term_months; ++m) {
      const double paid_gpu_h = g * h;
      if (m >= months) {
        plan->gpu_hours[kFleetCommittedAfter] += paid_gpu_h;
        plan->usd[kFleetCommittedAfter] += paid_gpu_h * price;
        continue;
      }
      const double used = covered[m] ? 0 : f[m] * paid_gpu_h;
      covered[m] = true;
      const int used_part = owned ? kFleetOwnedUsed : kFleetCommittedUsed;
      const int idle_part = owned ? kFleetOwnedIdle : kFleetCommittedUnused;
      if (!owned) plan->month_cloud_used_gpu_hours[m] += used;
      plan->gpu_hours[used_part] += used;
      plan->gpu_hours[idle_part] += paid_gpu_h - used;
      plan->usd[used_part] += used * price;
      plan->usd[idle_part] += (paid_gpu_h - used) * price;
      if (!owned) plan->month_committed_gpus[m] += g;
      plan->month_usd[m] += paid_gpu_h * price;
    }
  }
  for (int m = 0; m < months; ++m) {
    if (covered[m] || f[m] <= 0) continue;
    const double need = f[m] * g * h;
    const double spot = need * burst.spot_share, od = need - spot;
    plan->gpu_hours[kFleetOnDemand] += od;
    plan->gpu_hours[kFleetSpot] += spot;
    plan->gpu_hours[kFleetSpotOverhead] += spot * burst.spot_overhead;
    plan->usd[kFleetOnDemand] += od * burst.od_price;
    plan->usd[kFleetSpot] += spot * burst.spot_price;
    plan->usd[kFleetSpotOverhead] += spot * burst.spot_overhead * burst.spot_price;
    plan->month_cloud_used_gpu_hours[m] += need;
    plan->month_on_demand_gpus[m] += od / h;
    plan->month_spot_gpus[m] += spot / h;
    plan->month_usd[m] += od * burst.od_price + spot * (1 + burst.spot_overhead) * burst.spot_price;
  }
}

// Each slot's cheapest cover, one solve per distinct demand pattern: runs of slots (from first_slot) that share one.
struct CoverRun {
  long long first_slot;
  std::vector<std::pair<int, int>> chosen;  // (layer, start month)
};

long long SlotCount(const FleetInputs& in) {
  double peak = 0;
  for (int m = 0; m < in.months; ++m) peak = std::max(peak, in.demand_gpus[m]);
  return static_cast<long long>(std::ceil(peak / in.granularity_gpus - 1e-9));
}

// Slot j's demand fraction in each month.
void SlotDemand(const FleetInputs& in, long long j, double* f) {
  const double g = in.granularity_gpus;
  for (int m = 0; m < in.months; ++m) f[m] = std::clamp((in.demand_gpus[m] - static_cast<double>(j) * g) / g, 0.0, 1.0);
}

std::vector<CoverRun> SolveCovers(const FleetInputs& in, const std::vector<Layer>& layers, const Burst& burst) {
  SlotSolver solver(in.months, layers, burst.usd_per_gpu_hour);
  std::vector<CoverRun> runs;
  double f[kMaxFleetMonths], last_f[kMaxFleetMonths];
  const long long slots = SlotCount(in);
  for (long long j = 0; j < slots; ++j) {
    SlotDemand(in, j, f);
    if (runs.empty() || !std::equal(f, f + in.months, last_f)) {
      runs.push_back({j, solver.Solve(f, in.granularity_gpus)});
      std::copy(f, f + in.months, last_f);
    }
  }
  return runs;
}

// The plan of those covers (indexes into layers). owned_slots >= 0 (issue 50): the lowest owned_slots slots are
// owned instead (layers' last, the owned layer).
void AccountPlan(const FleetInputs& in, const std::vector<Layer>& layers, const Burst& burst,
                 const std::vector<CoverRun>& runs, long long owned_slots, FleetPlan* plan) {
  *plan = FleetPlan{};
  for (int i = 0; i < in.commitment_count; ++i)
    plan->periods[i] = (in.months + in.commitments[i].term_months - 1) / in.commitments[i].term_months;
  const std::vector<std::pair<int, int>> owned_cover = {{static_cast<int>(layers.size()) - 1, 0}};
  double f[kMaxFleetMonths];
  const long long slots = SlotCount(in);
  std::size_t run = 0;
  for (long long j = 0; j < slots; ++j) {
    while (run + 1 < runs.size() && runs[run + 1].first_slot <= j) ++run;
    SlotDemand(in, j, f);
    Account(in, layers, burst, f, in.granularity_gpus, j < owned_slots ? owned_cover : runs[run].chosen, plan);
  }
  for (int p = 0; p < kFleetPartCount; ++p) {
    GPUCOST_ASSERT(AmountOk(plan->usd[p]) && AmountOk(plan->gpu_hours[p]),
                   "a fleet plan's parts are a number >= 0");
    plan->total_usd += plan->usd[p];
  }
  // Every GPU-hour of demand is served once: by a commitment, owned GPUs, on demand or on spot.
  double demand = 0, served = 0, month_usd = 0;
  for (int m = 0; m < in.months; ++m) demand += in.demand_gpus[m] * kHoursPerMonth, month_usd += plan->month_usd[m];
  for (int p : {kFleetCommittedUsed, kFleetOwnedUsed, kFleetOnDemand, kFleetSpot}) served += plan->gpu_hours[p];
  GPUCOST_ASSERT(ApproxEqual(served, demand, 1e-9, 1e-6), "each GPU-hour of demand is served once");
  // The months carry the plan's money within the horizon (terms past it are after the last month).
  GPUCOST_ASSERT(ApproxEqual(month_usd + plan->usd[kFleetCommittedAfter], plan->total_usd, 1e-9, 1e-6),
                 "the months' money and the terms after the horizon make the plan's total");
}

// The plan that covers each slot at its cheapest.
void PlanWith(const FleetInputs& in, const std::vector<Layer>& layers, const Burst& burst, FleetPlan* plan) {
  AccountPlan(in, layers, burst, SolveCovers(in, layers, burst), -1, plan);
}


// Issue 50: the hybrid's moves between its owned site and the cloud (fleet.h), added to its parts and months.
void AddTransfer(const FleetInputs& in, FleetPlan* plan) {
  if (!(plan->owned_gpus > 0)) return;  // no owned site: the data stays in the cloud
  const double out_usd_per_gpu_hour = in.transfer_gb_out_per_gpu_hour * in.egress_usd_per_gb;
  for (int m = 0; m < in.months; ++m) {
    const double used = plan->month_cloud_used_gpu_hours[m];
    if (!(used > 0)) continue;
    const bool move = m == 0 || !(plan->month_cloud_used_gpu_hours[m - 1] > 0);
    const double transfer = used * out_usd_per_gpu_hour + (move ? in.transfer_gb_in_per_move * in.ingress_usd_per_gb : 0);
    const double migration = move ? in.migration_usd_per_move : 0;
    plan->moves += move ? 1 : 0;
    plan->usd[kFleetTransfer] += transfer;
    plan->usd[kFleetMigration] += migration;
    plan->month_usd[m] += transfer + migration;
    plan->total_usd += transfer + migration;
  }
}

// Issue 50: a move's cost is not the slots' to share (it depends on which months use the cloud at all), so the owned
// level the slots chose is compared with owning each level the demand takes (all above it in the cloud), each with
// its transfer and moves; the cheapest is kept. Fewer owned GPUs can mean fewer moves (the cloud used every
// month), more can mean none (the peaks owned).
void PlanAroundMoves(const FleetInputs& in, const std::vector<Layer>& layers, const Burst& burst, FleetPlan* best) {
  const double g = in.granularity_gpus;
  std::vector<long long> levels;
  for (int m = 0; m < in.months; ++m) levels.push_back(static_cast<long long>(std::ceil(in.demand_gpus[m] / g - 1e-9)));
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  const long long chosen = std::llround(best->owned_gpus / g);
  // The slots above the owned ones use the cloud's layers (all but the last): solved once for every level.
  const std::vector<CoverRun> cloud = SolveCovers(in, std::vector<Layer>(layers.begin(), layers.end() - 1), burst);
  for (long long k : levels) {
    if (k <= 0 || k == chosen) continue;
    FleetPlan p;
    AccountPlan(in, layers, burst, cloud, k, &p);
    AddTransfer(in, &p);
    if (p.total_usd < best->total_usd * (1 - 1e-12)) *best = p;
  }
}

void AddNotes(const FleetInputs& in, const FleetResult& r, Warnings* w) {
  // Fresh2 A9: said as the pricing table says it, naming the offer (its provider and product; an id the catalog does
  // not hold as it is).
  const Offer* offer = in.not_offered_by[0] ? FindOffer(in.not_offered_by) : nullptr;
  const std::string by = offer ? offer->provider + " " + offer->product : std::string(in.not_offered_by);
  if (in.commitments_not_offered)
    w->Add("commitments_not_offered", "msg.w_fleet_not_offered", {by, MessageParam::Key("choice.pricing.model.reserved")});
  if (in.spot_not_offered)
    w->Add("spot_not_offered", "msg.w_fleet_not_offered", {by, MessageParam::Key("choice.pricing.model.spot")});
  const FleetPlan& p = r.hybrid.total_usd > 0 && r.hybrid.total_usd < r.cloud.total_usd ? r.hybrid : r.cloud;
  for (int i = 0; i < in.commitment_count; ++i) {
    double gpus = 0;
    for (int k = 0; k < p.periods[i]; ++k) gpus = std::max(gpus, p.commit_gpus[i][k]);
    if (gpus > 0 && !in.commitments[i].capacity_guaranteed)
      w->Add("commitment_not_capacity", "msg.w_fleet_commitment", {CommitmentNameParam(in.commitments[i]), FormatCount(std::round(gpus))});
  }
  if (p.gpu_hours[kFleetOnDemand] > 0)
    w->Add("on_demand_not_guaranteed", "msg.w_on_demand", {FormatCount(std::round(p.gpu_hours[kFleetOnDemand]))});
  if (p.gpu_hours[kFleetSpot] > 0)
    w->Add("spot_reclaimable", "msg.w_spot_reclaimable", {FormatParam("%.0f", 100 * r.spot_share_of_burst)});
  // In the plan's currency, written the same in every language (fresh2 A10: the page's Korean notes read
  // "2,700만 7,152 원" where the CLI's English read "₩27,007,152": the document differed by language).
  const auto money = [&in](double usd) {
    return std::strcmp(in.currency, "KRW") == 0 ? FormatKrwGrouped(std::round(usd * in.per_usd)) : FormatUsd(usd);
  };
  if (p.usd[kFleetCommittedAfter] > 0)
    w->Add("commitment_past_horizon", "msg.w_commitment_past", {std::to_string(in.months), money(p.usd[kFleetCommittedAfter])});
  if (in.plan_hybrid && r.hybrid.owned_gpus > 0) {
    const OwnedRemainder& o = r.owned_remainder;
    if (o.book_value_usd_per_gpu > 0)
      w->Add("owned_remainder", "msg.w_owned_remainder",
             {FormatParam("%.0f", r.hybrid.owned_gpus), FormatParam("%.0f", o.months_owned), FormatParam("%.0f", o.lifetime_months),
              money(o.book_value_usd_per_gpu), FormatParam("%.0f", 100 * o.resale_fraction),
              money(o.lost_usd_per_gpu * r.hybrid.owned_gpus)});
  }
  if (in.plan_hybrid && r.hybrid.owned_gpus > 0)
    w->Add("owned_lead_time", "msg.w_owned_lead_time", {FormatCount(std::round(r.hybrid.owned_gpus))});
}

}  // namespace

FleetResult PlanFleet(const FleetInputs& in) {
  FleetResult r;
  if (in.months < 1 || in.months > kMaxFleetMonths || !(in.granularity_gpus >= 1)) return r;
  for (int m = 0; m < in.months; ++m) r.demand_gpu_hours += in.demand_gpus[m] * kHoursPerMonth;
  std::vector<Layer> layers;
  PlanWith(in, layers, BurstPrice(in, false), &r.all_on_demand);
  const Burst burst = BurstPrice(in, true);
  r.burst_usd_per_gpu_hour = burst.usd_per_gpu_hour;
  r.spot_share_of_burst = burst.spot_share;
  for (int i = 0; i < in.commitment_count; ++i) {
    const CommitmentOffer& c = in.commitments[i];
    layers.push_back({i, c.term_months, false, in.on_demand_usd_per_gpu_hour * (1 - c.discount)});
  }
  PlanWith(in, layers, burst, &r.cloud);
  r.hybrid = r.cloud;
  if (in.plan_hybrid) {
    r.owned_tco = ComputeTco(in.owned, in.gpu_mtbf_hours);
    r.owned_remainder = OwnedRemainderFor(in);
    r.owned_usd_per_held_gpu_hour = r.owned_tco.usd_per_gpu_year / kHoursPerYear / (1 - r.owned_tco.repair_downtime_fraction) +
                                    r.owned_remainder.lost_usd_per_gpu / (in.months * kHoursPerMonth);
    // Issue 50: the hybrid's cloud hours, burst or committed, bring data back: the planner pays that egress per
    // used hour (its accounts are AddTransfer's), so owning a band the cloud would use is weighed with it.
    const double egress = in.transfer_gb_out_per_gpu_hour * in.egress_usd_per_gb;
    for (Layer& l : layers) l.usd_per_used_gpu_hour = egress;
    layers.push_back({-1, in.months, true, r.owned_usd_per_held_gpu_hour, 0});
    Burst hybrid_burst = burst;
    hybrid_burst.usd_per_gpu_hour += egress;
    PlanWith(in, layers, hybrid_burst, &r.hybrid);
    AddTransfer(in, &r.hybrid);
    if (in.transfer_gb_in_per_move * in.ingress_usd_per_gb + in.migration_usd_per_move > 0)
      PlanAroundMoves(in, layers, hybrid_burst, &r.hybrid);
    if (r.hybrid.total_usd > r.cloud.total_usd) {  // moving costs more than owning saves: the cloud alone
      r.hybrid = r.cloud;
      r.notes.Add("hybrid_transfer_not_worth", "msg.w_hybrid_transfer");
    }
  }
  // The planner's promises (fleet.h): never dearer than all on demand; the hybrid never dearer than cloud alone.
  GPUCOST_ASSERT(r.cloud.total_usd <= r.all_on_demand.total_usd * (1 + 1e-9) + 1e-6, "a commitment plan never costs more than all on demand");
  GPUCOST_ASSERT(r.hybrid.total_usd <= r.cloud.total_usd * (1 + 1e-9) + 1e-6, "owning is chosen only where it is cheaper");
  const double all = r.all_on_demand.total_usd;
  r.cloud_share_of_on_demand = all > 0 ? r.cloud.total_usd / all : 0;
  r.hybrid_share_of_on_demand = all > 0 ? r.hybrid.total_usd / all : 0;
  AddNotes(in, r, &r.notes);
  // The planner prices months of average GPUs, not jobs: where that differs from the billing engine, said.
  r.differences.Add("fleet_before_tax", "fleet.diff.before_tax");
  r.differences.Add("fleet_no_rounding", "fleet.diff.no_rounding");
  if (r.spot_share_of_burst > 0)
    r.differences.Add("fleet_spot_overhead", "fleet.diff.spot_overhead", {FormatParam("%.0f", 100 * in.spot_overhead)});
  if (in.commitment_count > 0) r.differences.Add("fleet_whole_terms", "fleet.diff.whole_terms");
  if (in.plan_hybrid)
    r.differences.Add("fleet_owned_held_hour", "fleet.diff.owned_held_hour",
                      {FormatParam("%.0f", 100 * in.owned_resale_fraction)});
  r.ok = true;
  return r;
}

// [SECTION] Parser --------------------------------------------------------------------------------------
namespace {

using nlohmann::json;

struct FleetReader {
  std::vector<InputError>* errors;

  // A number at obj[key] within [min, max] (min exclusive when asked); absent: keeps *out.
  void Number(const json& obj, const char* key, const std::string& path, double min, double max, bool min_exclusive,
              double* out) const {
    auto it = obj.find(key);
    if (it == obj.end()) return;
    const std::string at = path.empty() ? key : path + "." + key;
    const MessageParam range = NumberRangeMessage(FormatBound(min), FormatBound(max), min_exclusive);
    if (!it->is_number()) {
      errors->push_back(CodedError(at, {"fmt.expected", {range}}));
      return;
    }
    const double v = it->get<double>();
    if (!std::isfinite(v) || (min_exclusive ? !(v > min) : !(v >= min)) || v > max) {
      errors->push_back(CodedError(at, {"msg.must_be", {range, FormatParam("%.17g", v)}}));
      return;
    }
    *out = v;
  }
  void Integer(const json& obj, const char* key, const std::string& path, int min, int max, int* out) const {
    double v = *out;
    const std::size_t before = errors->size();
    Number(obj, key, path, min, max, false, &v);
    if (errors->size() != before) return;
    if (v != std::floor(v)) {
      errors->push_back(CodedError(path.empty() ? key : path + "." + key,
                                   {"fmt.must_be", {MessageParam::Key("msg.range_integer", {FormatBound(min), FormatBound(max)})}}));
      return;
    }
    *out = static_cast<int>(v);
  }
  const json* Object(const json& obj, const char* key) const {
    auto it = obj.find(key);
    if (it == obj.end()) return nullptr;
    if (!it->is_object()) {
      errors->push_back(CodedError(key, {"msg.f.object", {}}));
      return nullptr;
    }
    return &*it;
  }
};

void CheckKeys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed,
               std::vector<InputError>* errors) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* k : allowed) known = known || it.key() == k;
    if (!known) errors->push_back(CodedError(path.empty() ? it.key() : path + "." + it.key(), {"msg.f.unknown_key", {}}));
  }
}

void ParseDemand(const json& doc, const FleetReader& rd, FleetInputs* f) {
  std::vector<InputError>& errors = *rd.errors;
  auto list = doc.find("demand_gpus");
  const json* profile = rd.Object(doc, "profile");
  if ((list != doc.end()) == (profile != nullptr || doc.contains("profile"))) {
    errors.push_back(CodedError("demand_gpus", {"msg.f.demand_or_profile", {}}));
    return;
  }
  if (list != doc.end()) {
    if (!list->is_array() || list->empty() || list->size() > static_cast<std::size_t>(kMaxFleetMonths)) {
      errors.push_back(CodedError("demand_gpus", {"msg.f.demand_array", {std::to_string(kMaxFleetMonths)}}));
      return;
    }
    f->months = static_cast<int>(list->size());
    for (int m = 0; m < f->months; ++m) {
      const json holder = {{"v", (*list)[m]}};
      rd.Number(holder, "v", "", 0, kMaxFleetGpus, false, &f->demand_gpus[m]);
      if (!errors.empty() && errors.back().path == "v") errors.back().path = "demand_gpus[" + std::to_string(m) + "]";
    }
    return;
  }
  if (!profile) return;  // not an object: reported by Object()
  CheckKeys(*profile, "profile", {"months", "baseline_gpus", "growth_gpus_per_month", "bursts"}, &errors);
  int months = 0;
  double baseline = 0, growth = 0;
  if (!profile->contains("months"))
    errors.push_back(CodedError("profile.months", {"msg.f.required", {MessageParam::Key("msg.range_integer", {"1", std::to_string(kMaxFleetMonths)})}}));
  rd.Integer(*profile, "months", "profile", 1, kMaxFleetMonths, &months);
  rd.Number(*profile, "baseline_gpus", "profile", 0, kMaxFleetGpus, false, &baseline);
  rd.Number(*profile, "growth_gpus_per_month", "profile", -kMaxFleetGpus, kMaxFleetGpus, false, &growth);
  f->months = months;
  for (int m = 0; m < months; ++m) f->demand_gpus[m] = baseline + growth * m;
  auto bursts = profile->find("bursts");
  if (bursts != profile->end()) {
    if (!bursts->is_array()) errors.push_back(CodedError("profile.bursts", {"msg.f.bursts_array", {}}));
    for (std::size_t i = 0; bursts->is_array() && i < bursts->size(); ++i) {
      const std::string path = "profile.bursts[" + std::to_string(i) + "]";
      const json& b = (*bursts)[i];
      if (!b.is_object()) {
        errors.push_back(CodedError(path, {"msg.f.burst_object", {}}));
        continue;
      }
      CheckKeys(b, path, {"start_month", "months", "gpus"}, &errors);
      int start = 1, length = 1;
      double gpus = 0;
      rd.Integer(b, "start_month", path, 1, std::max(1, months), &start);
      rd.Integer(b, "months", path, 1, kMaxFleetMonths, &length);
      rd.Number(b, "gpus", path, 0, kMaxFleetGpus, false, &gpus);
      for (int m = start - 1; m < std::min(months, start - 1 + length); ++m) f->demand_gpus[m] += gpus;
    }
  }
  for (int m = 0; m < months; ++m)
    if (f->demand_gpus[m] < 0 || f->demand_gpus[m] > kMaxFleetGpus) {
      errors.push_back(CodedError("profile", {"msg.f.demand_month", {std::to_string(m + 1)}}));
      break;
    }
}

void ParseOffers(const json& doc, const FleetReader& rd, FleetInputs* f) {
  std::vector<InputError>& errors = *rd.errors;
  if (const json* od = rd.Object(doc, "on_demand")) {
    CheckKeys(*od, "on_demand", {"usd_per_gpu_hour", "offer"}, &errors);
    auto id = od->find("offer");
    if (id != od->end()) {
      const Offer* offer = id->is_string() ? FindOffer(id->get<std::string>()) : nullptr;
      if (!offer) errors.push_back(CodedError("on_demand.offer", {"msg.f.unknown_offer", {}}));
      else {
        f->on_demand_usd_per_gpu_hour = offer->usd_per_gpu_hour;
        if (offer->spot_usd_per_gpu_hour > 0) f->spot_discount = 1 - offer->spot_usd_per_gpu_hour / offer->usd_per_gpu_hour;
        f->granularity_gpus = offer->gpus_per_instance;
      }
    }
    rd.Number(*od, "usd_per_gpu_hour", "on_demand", 0, 1e4, true, &f->on_demand_usd_per_gpu_hour);
  }
  if (const json* spot = rd.Object(doc, "spot")) {
    CheckKeys(*spot, "spot", {"discount", "availability", "overhead"}, &errors);
    rd.Number(*spot, "discount", "spot", 0, 0.99, false, &f->spot_discount);
    rd.Number(*spot, "availability", "spot", 0, 1, false, &f->spot_availability);
    rd.Number(*spot, "overhead", "spot", 0, 10, false, &f->spot_overhead);
  }
  auto list = doc.find("commitments");
  if (list != doc.end()) {
    if (!list->is_array() || list->size() > static_cast<std::size_t>(kMaxCommitments)) {
      errors.push_back(CodedError("commitments", {"msg.f.commitments", {std::to_string(kMaxCommitments)}}));
    } else {
      f->commitment_count = static_cast<int>(list->size());
      for (int i = 0; i < f->commitment_count; ++i) {
        const std::string path = "commitments[" + std::to_string(i) + "]";
        const json& c = (*list)[i];
        CommitmentOffer& o = f->commitments[i];
        o = CommitmentOffer{"", 12, 0, false};
        std::snprintf(o.name, kTextCapacity, "%d-month", 12);
        if (!c.is_object()) {
          errors.push_back(CodedError(path, {"msg.f.commitment_object", {}}));
          continue;
        }
        CheckKeys(c, path, {"name", "term_months", "discount", "capacity_guaranteed"}, &errors);
        if (!c.contains("discount"))
          errors.push_back(CodedError(path + ".discount", {"msg.f.required", {MessageParam::Key("msg.range_ge", {"0", "0.99"})}}));
        rd.Integer(c, "term_months", path, 1, kMaxFleetMonths, &o.term_months);
        rd.Number(c, "discount", path, 0, 0.99, false, &o.discount);
        std::snprintf(o.name, kTextCapacity, "%d-month", o.term_months);
        if (c.contains("name")) {
          if (!c["name"].is_string() || c["name"].get<std::string>().size() >= kTextCapacity)
            errors.push_back(CodedError(path + ".name", {"msg.f.name_text", {std::to_string(kTextCapacity - 1)}}));
          else std::snprintf(o.name, kTextCapacity, "%s", c["name"].get<std::string>().c_str());
        }
        if (c.contains("capacity_guaranteed")) {
          if (!c["capacity_guaranteed"].is_boolean()) errors.push_back(CodedError(path + ".capacity_guaranteed", {"msg.f.bool", {}}));
          else o.capacity_guaranteed = c["capacity_guaranteed"].get<bool>();
        }
      }
    }
  }
}

void ParseOwned(const json& doc, const FleetReader& rd, FleetInputs* f) {
  auto owned = doc.find("owned");
  if (owned == doc.end()) return;
  if (owned->is_boolean()) {
    f->plan_hybrid = owned->get<bool>();
    return;
  }
  if (!owned->is_object()) {
    rd.errors->push_back(CodedError("owned", {"msg.f.owned", {}}));
    return;
  }
  const json wrapped = {{"pricing", {{"owned", *owned}}}};
  ScenarioParse p = ParseScenarioJson(wrapped.dump());
  for (InputError e : p.errors) {
    if (e.path.rfind("pricing.", 0) == 0) e.path = e.path.substr(8);
    rd.errors->push_back(e);
  }
  f->owned = p.scenario.pricing.owned;
}

}  // namespace

FleetParse ParseFleetJson(std::string_view text) {
  FleetParse out;
  out.fleet = DefaultFleet();
  if (text.size() > kMaxJsonBytes) {
    out.errors.push_back(CodedError("", {"msg.input_too_large", {}}));
    return out;
  }
  const std::string depth = CheckJsonDepth(text);
  if (!depth.empty()) {
    out.errors.push_back(CodedError("", {"msg.too_deep", {std::to_string(kMaxJsonDepth)}}));
    return out;
  }
  if (const std::string dup = DuplicateKeyPath(text); !dup.empty()) {
    out.errors.push_back(CodedError(dup, {"msg.duplicate_key", {}}));
    return out;
  }
  const json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    out.errors.push_back(CodedError("", {"msg.f.malformed", {}}));
    return out;
  }
  if (!doc.is_object()) {
    out.errors.push_back(CodedError("", {"msg.f.not_object", {}}));
    return out;
  }
  FleetReader rd{&out.errors};
  FleetInputs& f = out.fleet;
  CheckKeys(doc, "", {"schema", "name", "demand_gpus", "profile", "on_demand", "spot", "commitments",
                      "granularity_gpus", "owned", "gpu_mtbf_hours", "owned_resale_fraction", "currency",
                      "hybrid_transfer", "not_offered"}, &out.errors);
  if (doc.contains("currency")) {  // issue 47: the notes' money, {"code": "USD" | "KRW", "per_usd": units per USD}
    const json& c = doc["currency"];
    const bool ok = c.is_object() && c.size() == 2 && c.contains("code") && c["code"].is_string() &&
                    (c["code"] == "USD" || c["code"] == "KRW") && c.contains("per_usd") && c["per_usd"].is_number() &&
                    c["per_usd"].get<double>() > 0 && c["per_usd"].get<double>() <= 1e6 && (c["code"] != "USD" || c["per_usd"] == 1);
    if (!ok) {
      out.errors.push_back(CodedError("currency", {"msg.f.currency", {}}));
    } else {
      std::snprintf(f.currency, sizeof f.currency, "%s", c["code"].get<std::string>().c_str());
      f.per_usd = c["per_usd"].get<double>();
    }
  }
  if (doc.contains("schema") && doc["schema"] != kFleetSchema)
    out.errors.push_back(CodedError("schema", {"msg.schema", {kFleetSchema}}));
  if (doc.contains("name")) {
    if (!doc["name"].is_string() || doc["name"].get<std::string>().size() >= kTextCapacity)
      out.errors.push_back(CodedError("name", {"msg.f.name_text", {std::to_string(kTextCapacity - 1)}}));
    else std::snprintf(f.name, kTextCapacity, "%s", doc["name"].get<std::string>().c_str());
  }
  ParseDemand(doc, rd, &f);
  ParseOffers(doc, rd, &f);
  rd.Number(doc, "granularity_gpus", "", 1, 1024, false, &f.granularity_gpus);
  rd.Number(doc, "gpu_mtbf_hours", "", 0, 1e12, false, &f.gpu_mtbf_hours);
  rd.Number(doc, "owned_resale_fraction", "", 0, 1, false, &f.owned_resale_fraction);  // issue 29
  if (auto t = doc.find("hybrid_transfer"); t != doc.end()) {  // issue 50
    if (!t->is_object()) {
      out.errors.push_back(CodedError("hybrid_transfer", {"msg.f.not_object", {}}));
    } else {
      CheckKeys(*t, "hybrid_transfer", {"gb_out_per_cloud_gpu_hour", "gb_in_per_move", "egress_usd_per_gb",
                                        "ingress_usd_per_gb", "migration_usd_per_move"}, &out.errors);
      rd.Number(*t, "gb_out_per_cloud_gpu_hour", "hybrid_transfer", 0, 1e6, false, &f.transfer_gb_out_per_gpu_hour);
      rd.Number(*t, "gb_in_per_move", "hybrid_transfer", 0, 1e12, false, &f.transfer_gb_in_per_move);
      rd.Number(*t, "egress_usd_per_gb", "hybrid_transfer", 0, 1e3, false, &f.egress_usd_per_gb);
      rd.Number(*t, "ingress_usd_per_gb", "hybrid_transfer", 0, 1e3, false, &f.ingress_usd_per_gb);
      rd.Number(*t, "migration_usd_per_move", "hybrid_transfer", 0, 1e12, false, &f.migration_usd_per_move);
    }
  }
  ParseOwned(doc, rd, &f);
  if (auto no = doc.find("not_offered"); no != doc.end()) {  // fresh2 A9: what the offer lists no price for
    const bool ok = no->is_object() && no->contains("offer") && (*no)["offer"].is_string() &&
                    (*no)["offer"].get<std::string>().size() < static_cast<std::size_t>(kTextCapacity);
    if (!ok) {
      out.errors.push_back(CodedError("not_offered.offer", {"msg.f.name_text", {std::to_string(kTextCapacity - 1)}}));
    } else {
      CheckKeys(*no, "not_offered", {"offer", "commitments", "spot"}, &out.errors);
      std::snprintf(f.not_offered_by, kTextCapacity, "%s", (*no)["offer"].get<std::string>().c_str());
      for (const char* key : {"commitments", "spot"}) {
        if (!no->contains(key)) continue;
        if (!(*no)[key].is_boolean()) out.errors.push_back(CodedError(std::string("not_offered.") + key, {"msg.f.bool", {}}));
        else (std::strcmp(key, "spot") == 0 ? f.spot_not_offered : f.commitments_not_offered) = (*no)[key].get<bool>();
      }
    }
  }
  return out;
}

// A commitment's name in a message: the names the fleet gives ("1-year", "3-year", "N-month") as keys, so they
// read in the page's language; a name the user gave as it is.
MessageParam CommitmentNameParam(const CommitmentOffer& c) {
  const std::string name = c.name;
  if (name == "1-year") return MessageParam::Key("msg.term_1y");
  if (name == "3-year") return MessageParam::Key("msg.term_3y");
  if (name == std::to_string(c.term_months) + "-month") return MessageParam::Key("msg.term_months", {std::to_string(c.term_months)});
  return MessageParam(name);
}

}  // namespace gpucost
