// gpucost pricing FILE|- [--offer ID] [--format table|json|csv]
// The same job under on-demand, spot, reserved and owned, side by side (core/tco.h).
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "format.h"
#include "offers.h"
#include "tco.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--offer", true, "apply an offer from the catalog first (GPU, node size, price; see assets/offers.json)"},
    {"--format", true, "table (default), json or csv"},
};

const char* ModelLabel(PricingModel m) {
  switch (m) {
    case PricingModel::kOnDemand: return "On-demand";
    case PricingModel::kSpot: return "Spot";
    case PricingModel::kReserved: return "Reserved";
    case PricingModel::kOwned: return "Owned";
  }
  return "";
}

nlohmann::json ComparisonJson(const Scenario& s, const PricingComparison& c) {
  using nlohmann::json;
  const Result& first = c.models[0].result;
  json models = json::array();
  for (const ModelCost& m : c.models) {
    json row = {{"model", PricingModelName(m.model)},
                {"usd_per_gpu_hour", m.usd_per_gpu_hour},
                {"job_usd", m.job_usd},
                {"term_tail_usd", m.term_tail_usd},
                {"total_usd", m.total_usd},
                {"expected_hours", m.expected_hours},
                {"ratio_to_on_demand", m.ratio_to_on_demand},
                {"capacity_guaranteed", m.capacity_guaranteed},
                {"risk", m.risk}};
    if (m.model == PricingModel::kOwned) {
      const TcoResult& t = m.result.tco;
      row["tco"] = {{"usd_per_gpu_hour", t.usd_per_gpu_hour},
                    {"usd_per_gpu_year", t.usd_per_gpu_year},
                    {"capex_usd_per_gpu_year", t.capex_usd_per_gpu_year},
                    {"power_usd_per_gpu_year", t.power_usd_per_gpu_year},
                    {"facility_usd_per_gpu_year", t.facility_usd_per_gpu_year},
                    {"maintenance_usd_per_gpu_year", t.maintenance_usd_per_gpu_year},
                    {"staff_usd_per_gpu_year", t.staff_usd_per_gpu_year},
                    {"opex_usd_per_gpu_year", t.opex_usd_per_gpu_year},
                    {"upfront_usd_per_gpu", t.upfront_usd_per_gpu},
                    {"repair_downtime_fraction", t.repair_downtime_fraction},
                    {"break_even_utilization", t.break_even_utilization},
                    {"break_even_months", t.break_even_months}};
    }
    models.push_back(row);
  }
  json doc = {{"schema", "gpucost/pricing@1"},
              {"on_demand_usd_per_gpu_hour", c.on_demand_usd_per_gpu_hour},
              {"cheapest", PricingModelName(static_cast<PricingModel>(c.cheapest))},
              {"currency", first.display_currency},
              {"per_usd", first.display_per_usd},
              {"models", models}};
  if (s.name[0]) doc["name"] = s.name;
  return doc;
}

void PrintTable(const Scenario& s, const PricingComparison& c) {
  const char* cur = c.models[0].result.display_currency;
  const double k = c.models[0].result.display_per_usd;
  std::printf("%s: the same job under four pricing models (on-demand anchor %s/GPU-hour as entered)\n",
              s.name[0] ? s.name : "scenario", FormatMoney(c.on_demand_usd_per_gpu_hour * k, cur).c_str());
  Table t;
  t.Row({"model", "price/GPU-h", "job", "term after job", "total", "vs on-demand", "time", "capacity"});
  t.Rule();
  for (const ModelCost& m : c.models) {
    std::string label = ModelLabel(m.model);
    if (static_cast<int>(m.model) == c.cheapest) label += " *";
    t.Row({label, FormatMoney(m.usd_per_gpu_hour * k, cur), FormatMoney(m.job_usd * k, cur),
           FormatMoney(m.term_tail_usd * k, cur), FormatMoney(m.total_usd * k, cur),
           FormatPercent(m.ratio_to_on_demand), FormatDuration(m.expected_hours),
           m.capacity_guaranteed ? "guaranteed" : "not guaranteed"});
  }
  t.Print(stdout);
  std::printf("  * cheapest. Prices before tax; totals include every part of the job (failures, storage, tax).\n");
  const TcoResult& tco = c.models[static_cast<int>(PricingModel::kOwned)].result.tco;
  std::printf("\nOwned, per GPU-year: depreciation %s + power %s + colocation %s + maintenance %s + staff %s + "
              "other %s = %s;\n  %s per useful GPU-hour; break-even at %s utilisation; pays back after %s.\n",
              FormatUsd(tco.capex_usd_per_gpu_year).c_str(), FormatUsd(tco.power_usd_per_gpu_year).c_str(),
              FormatUsd(tco.facility_usd_per_gpu_year).c_str(), FormatUsd(tco.maintenance_usd_per_gpu_year).c_str(),
              FormatUsd(tco.staff_usd_per_gpu_year).c_str(), FormatUsd(tco.opex_usd_per_gpu_year).c_str(),
              FormatUsd(tco.usd_per_gpu_year).c_str(), FormatUsd(tco.usd_per_gpu_hour).c_str(),
              tco.break_even_utilization > 0 ? FormatPercent(tco.break_even_utilization).c_str() : "n/a",
              (tco.break_even_months > 0 ? FormatNumber(tco.break_even_months, 3) + " months" : std::string("never")).c_str());
  std::printf("\nCapacity risk\n");
  for (const ModelCost& m : c.models) std::printf("  %-10s %s\n", ModelLabel(m.model), m.risk);
}

}  // namespace

int RunPricing(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kOptions, &args, "pricing")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost pricing FILE|- [--offer ID] [--format table|json|csv]",
               "Prices the scenario's job under on-demand, spot, reserved and owned, side by side: price per\n"
               "GPU-hour, job cost, the rest of a commitment term paid after the job, ratios to on-demand and\n"
               "a capacity-risk note for each. Spot and reserved prices come from pricing.spot.discount and\n"
               "pricing.reserved.discount unless the scenario is priced under that model.", kOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error("pricing: expected one scenario file (or - for standard input)");
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  if (args.Has("--offer")) {
    const Offer* offer = FindOffer(args.Get("--offer"));
    if (!offer) {
      Error("pricing: --offer: unknown offer \"" + args.Get("--offer") + "\" (see assets/offers.json)");
      return kExitInvalid;
    }
    ApplyOffer(*offer, &s);
  }
  const PricingComparison c = ComparePricingModels(s);
  if (!c.ok) {
    Error(InputName(args.positional[0]) + ": scenario cannot be evaluated");
    return kExitInvalid;
  }
  if (format == Format::kJson) {
    std::printf("%s\n", ComparisonJson(s, c).dump(2).c_str());
  } else if (format == Format::kCsv) {
    Table t;
    t.Row({"model", "usd_per_gpu_hour", "job_usd", "term_tail_usd", "total_usd", "ratio_to_on_demand",
           "expected_hours", "capacity_guaranteed", "risk"});
    for (const ModelCost& m : c.models)
      t.Row({PricingModelName(m.model), FormatNumber(m.usd_per_gpu_hour, 8), FormatNumber(m.job_usd, 10),
             FormatNumber(m.term_tail_usd, 10), FormatNumber(m.total_usd, 10), FormatNumber(m.ratio_to_on_demand, 6),
             FormatNumber(m.expected_hours, 8), m.capacity_guaranteed ? "true" : "false", m.risk});
    t.PrintCsv(stdout);
  } else {
    PrintTable(s, c);
  }
  return kExitOk;
}

}  // namespace gpucost::cli
