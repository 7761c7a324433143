// fleet_json.cpp — the fleet document (fleet_json.h).
#include "documents/fleet_json.h"

#include "job/validate.h"
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

using nlohmann::json;

namespace {

json FleetPlanJson(const FleetInputs& in, const FleetPlan& p) {
  json parts = json::object(), hours = json::object(), commitments = json::array();
  for (int i = 0; i < kFleetPartCount; ++i) {
    parts[FleetPartName(i)] = p.usd[i];
    hours[FleetPartName(i)] = p.gpu_hours[i];
  }
  for (int i = 0; i < in.commitment_count; ++i) {
    json levels = json::array();
    for (int k = 0; k < p.periods[i]; ++k) levels.push_back(p.commit_gpus[i][k]);
    commitments.push_back({{"name", in.commitments[i].name},
                           {"term_months", in.commitments[i].term_months},
                           {"gpus_per_period", levels}});
  }
  json months = json::array();
  for (int m = 0; m < in.months; ++m)
    months.push_back({{"demand_gpus", in.demand_gpus[m]},
                      {"committed_gpus", p.month_committed_gpus[m]},
                      {"on_demand_gpus", p.month_on_demand_gpus[m]},
                      {"spot_gpus", p.month_spot_gpus[m]},
                      {"usd", p.month_usd[m]}});
  return {{"total_usd", p.total_usd}, {"owned_gpus", p.owned_gpus}, {"moves", p.moves}, {"commitments", commitments},
          {"breakdown_usd", parts}, {"breakdown_gpu_hours", hours}, {"months", months}};
}

}  // namespace
std::string FleetInputsToJson(const FleetInputs& in, int indent) {
  json demand = json::array();
  for (int m = 0; m < in.months; ++m) demand.push_back(in.demand_gpus[m]);
  json commitments = json::array();
  for (int i = 0; i < in.commitment_count; ++i)
    commitments.push_back({{"name", in.commitments[i].name}, {"term_months", in.commitments[i].term_months},
                           {"discount", in.commitments[i].discount},
                           {"capacity_guaranteed", in.commitments[i].capacity_guaranteed}});
  json doc = {{"schema", kFleetSchema},
              {"demand_gpus", demand},
              {"on_demand", {{"usd_per_gpu_hour", in.on_demand_usd_per_gpu_hour}}},
              {"spot", {{"discount", in.spot_discount}, {"availability", in.spot_availability},
                        {"overhead", in.spot_overhead}}},
              {"commitments", commitments},
              {"granularity_gpus", in.granularity_gpus},
              {"gpu_mtbf_hours", in.gpu_mtbf_hours},
              {"owned_resale_fraction", in.owned_resale_fraction},
              {"hybrid_transfer", {{"gb_out_per_cloud_gpu_hour", in.transfer_gb_out_per_gpu_hour},  // issue 50
                                   {"gb_in_per_move", in.transfer_gb_in_per_move},
                                   {"egress_usd_per_gb", in.egress_usd_per_gb},
                                   {"ingress_usd_per_gb", in.ingress_usd_per_gb},
                                   {"migration_usd_per_move", in.migration_usd_per_move}}}};
  if (in.plan_hybrid) {
    Scenario s = DefaultScenario();
    s.pricing.owned = in.owned;
    doc["owned"] = json::parse(ScenarioToJson(s, false))["pricing"]["owned"];
  } else {
    doc["owned"] = false;
  }
  if (in.name[0]) doc["name"] = in.name;
  if (std::strcmp(in.currency, "USD") != 0) doc["currency"] = {{"code", in.currency}, {"per_usd", in.per_usd}};
  if (in.not_offered_by[0])  // fresh2 A9: the layers the offer lists no price for (the notes name it)
    doc["not_offered"] = {{"offer", in.not_offered_by}, {"commitments", in.commitments_not_offered}, {"spot", in.spot_not_offered}};
  return doc.dump(indent);
}
std::string FleetToJson(const FleetInputs& in, const FleetResult& r, int indent) {
  json notes = json::array(), differences = json::array();
  for (int i = 0; i < r.notes.count; ++i) notes.push_back(WarningJson(r.notes, i));
  for (int i = 0; i < r.differences.count; ++i) differences.push_back(WarningJson(r.differences, i));
  json doc = {{"schema", "gpucost/fleet-result@1"},
              {"months", in.months},
              {"demand_gpu_hours", r.demand_gpu_hours},
              {"on_demand_usd_per_gpu_hour", in.on_demand_usd_per_gpu_hour},
              {"burst_usd_per_gpu_hour", r.burst_usd_per_gpu_hour},
              {"spot_share_of_burst", r.spot_share_of_burst},
              {"cloud_share_of_on_demand", r.cloud_share_of_on_demand},
              {"hybrid_share_of_on_demand", r.hybrid_share_of_on_demand},
              {"all_on_demand", FleetPlanJson(in, r.all_on_demand)},
              {"cloud", FleetPlanJson(in, r.cloud)},
              {"notes", notes},
              {"engine_differences", differences},  // issue 45: where the planner prices otherwise than a job's bill
              {"input", json::parse(FleetInputsToJson(in, -1))}};
  if (in.plan_hybrid) {
    doc["hybrid"] = FleetPlanJson(in, r.hybrid);
    doc["owned_usd_per_held_gpu_hour"] = r.owned_usd_per_held_gpu_hour;
    doc["owned_tco_usd_per_gpu_year"] = r.owned_tco.usd_per_gpu_year;
    const OwnedRemainder& o = r.owned_remainder;  // issue 29: the ownership past the plan, said explicitly
    doc["owned_remainder"] = {{"months_owned", o.months_owned}, {"lifetime_months", o.lifetime_months},
                              {"book_value_usd_per_gpu", o.book_value_usd_per_gpu},
                              {"resale_fraction", o.resale_fraction}, {"lost_usd_per_gpu", o.lost_usd_per_gpu},
                              {"lost_usd", o.lost_usd_per_gpu * r.hybrid.owned_gpus}};
  }
  if (in.name[0]) doc["name"] = in.name;
  return doc.dump(indent);
}

}  // namespace gpucost
