// gpucost pricing FILE|- [--offer ID] [--format table|json|csv]
// The same job under on-demand, spot, reserved and owned, side by side (core/money/tco.h).
#include <cstdio>

#include "cli.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/catalog.h"
#include "documents/pricing_json.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kPricingOptions = {
    {"--offer", true, "cli.opt.pricing.offer"},
    {"--quote", true, "cli.opt.pricing.quote"},
    {"--format", true, "cli.opt.pricing.format"},
};

const char* ModelLabel(PricingModel m) {
  switch (m) {
    case PricingModel::kOnDemand: return Tr("cli.model_on_demand");
    case PricingModel::kSpot: return Tr("cli.model_spot");
    case PricingModel::kReserved: return Tr("cli.model_reserved");
    case PricingModel::kOwned: return Tr("cli.model_owned");
  }
  return "";
}

void PrintCapacityRisk(const PricingComparison& c) {
  std::printf("\n%s\n", Tr("cli.pricing.capacity_risk"));
  for (const ModelCost& m : c.models)
    std::printf("  %s %s\n", PadRight(ModelLabel(m.model), 10).c_str(), m.risk_message.Text(CurrentLanguage()).c_str());
}

// A service under each model (issue 47): per request and per million output tokens, why spot costs what it does.
void PrintServing(const PricingComparison& c) {
  Table t;
  t.Row({Tr("cli.pricing.col_model"), Tr("compare.col_per_request"), Tr("compare.col_per_m_output"), Tr("serving.gpus")});
  t.Rule();
  for (const ModelCost& m : c.models) {
    const Result& r = m.result;
    const InferenceResult& ir = r.inference;
    t.Row({ModelLabel(m.model), FormatSmallMoney(ir.usd_per_request * r.display_per_usd, r.display_currency),
           FormatSmallMoney(ir.usd_per_million_output_tokens_all_in * r.display_per_usd, r.display_currency), std::to_string(ir.gpus)});
  }
  std::printf("\n");
  t.Print(stdout);
  for (const Message& note : {PricingRateNote(c), ServingSpotNote(c)})
    if (!note.empty()) std::printf("%s\n", note.Text(CurrentLanguage()).c_str());
  PrintCapacityRisk(c);
}

void PrintTable(const Scenario& s, const PricingComparison& c) {
  const char* cur = c.models[0].result.display_currency;
  const double k = c.models[0].result.display_per_usd;
  std::printf("%s\n", TrFormat("cli.pricing.title", {s.name[0] ? TerminalSafe(s.name) : Tr("cli.scenario"),
                                                    FormatMoney(c.on_demand_usd_per_gpu_hour * k, cur)}).c_str());
  Table t;
  t.Row({Tr("cli.pricing.col_model"), Tr("cli.pricing.col_price"), Tr("cli.pricing.col_job"), Tr("cli.pricing.col_term_tail"),
         Tr("cli.pricing.col_delay"), Tr("cli.pricing.col_total"), Tr("cli.pricing.col_vs_on_demand"), Tr("cli.pricing.col_time"),
         Tr("cli.pricing.col_capacity")});
  t.Rule();
  bool any_blocked = false;
  for (const ModelCost& m : c.models) {
    std::string label = ModelLabel(m.model);
    const std::string capacity = Tr(m.capacity_guaranteed ? "cli.pricing.guaranteed" : "cli.pricing.not_guaranteed");
    if (m.blocking.blocked) {  // said, not priced (issue 45): the reason follows the table
      any_blocked = true;
      t.Row({label, "-", Tr("cli.pricing.not_priced"), "-", "-", "-", "-", "-", capacity});
      continue;
    }
    if (static_cast<int>(m.model) == c.cheapest) label += " *";
    t.Row({label, FormatMoney(m.usd_per_gpu_hour * k, cur), FormatMoney(m.job_usd * k, cur),
           FormatMoney(m.term_tail_usd * k, cur), FormatMoney(m.delay_usd * k, cur), FormatMoney(m.total_usd * k, cur),
           FormatRatio(m.ratio_to_on_demand), FormatDuration(m.expected_hours), capacity});
  }
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.pricing.footnote"));
  for (const ModelCost& m : c.models)
    if (m.blocking.blocked)
      std::printf("  %s: %s\n", ModelLabel(m.model), TerminalSafe(m.blocking.reason_message.Text(CurrentLanguage())).c_str());
  if (any_blocked) std::printf("\n");
  const TcoResult& tco = c.models[static_cast<int>(PricingModel::kOwned)].result.tco;
  auto money = [&](double usd) { return FormatMoney(usd * k, cur); };
  std::printf("%s\n", TrFormat("cli.pricing.owned",
                             {money(tco.capex_usd_per_gpu_year), money(tco.power_usd_per_gpu_year),
                              money(tco.facility_usd_per_gpu_year), money(tco.maintenance_usd_per_gpu_year),
                              money(tco.staff_usd_per_gpu_year), money(tco.opex_usd_per_gpu_year), money(tco.usd_per_gpu_year),
                              money(tco.usd_per_gpu_hour),
                              tco.break_even_utilization > 0 ? FormatPercent(tco.break_even_utilization) : Tr("cli.na"),
                              tco.break_even_months > 0 ? TrFormat("cli.months", {FormatNumber(tco.break_even_months, 3)})
                                                        : std::string(Tr("cli.never")),
                              money(tco.financing_usd_per_gpu_year)}).c_str());
  const Result& owned = c.models[static_cast<int>(PricingModel::kOwned)].result;
  const CapitalOutlay outlay = OwnedCapitalOutlay(s, tco, static_cast<double>(owned.billed_gpus));
  std::printf("%s\n", TrFormat("cli.pricing.owned_terms",
                              {FormatPercent(s.pricing.owned.utilization), FormatNumber(s.pricing.owned.lifetime_years, 3),
                               money(outlay.usd), money(outlay.vat_usd)}).c_str());
  if (c.models[0].result.inference.present) return PrintServing(c);  // a service (issue 47): in its own words
  // Issue 29 (capacity.h): when each option starts and finishes, the deadline and the delay cost.
  std::printf("\n%s\n", s.ops.deadline_hours > 0
                            ? TrFormat("cli.pricing.schedule_deadline", {FormatDuration(s.ops.deadline_hours),
                                                                         money(s.ops.value_per_day_usd)}).c_str()
                            : TrFormat("cli.pricing.schedule", {money(s.ops.value_per_day_usd)}).c_str());
  Table sched;
  sched.Row({Tr("cli.pricing.col_model"), Tr("cli.pricing.col_wait"), Tr("cli.pricing.col_start_p90"),
             Tr("cli.pricing.col_finish_p50"), Tr("cli.pricing.col_finish_p90"), Tr("cli.pricing.col_p_miss"),
             Tr("cli.pricing.col_delay")});
  sched.Rule();
  for (const ModelCost& m : c.models) {
    const ScheduleOutlook& o = m.result.schedule;
    sched.Row({ModelLabel(m.model), FormatDuration(o.wait_mean_hours), FormatDuration(o.start_p90_hours),
               FormatDuration(o.finish_p50_hours), FormatDuration(o.finish_p90_hours),
               o.deadline_given ? FormatPercent(o.p_miss_deadline) : std::string("-"), money(o.delay_usd)});
  }
  sched.Print(stdout);
  if (const Message note = PricingRateNote(c); !note.empty()) std::printf("%s\n", note.Text(CurrentLanguage()).c_str());
  PrintCapacityRisk(c);
}

}  // namespace

int RunPricing(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kPricingOptions, &args, "pricing")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost pricing FILE|- [--offer ID] [--format table|json|csv]",
               "cli.help.pricing", kPricingOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(TrFormat("cli.err.one_scenario", {"pricing"}));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  if (args.Has("--offer")) {
    const Offer* offer = FindOffer(args.Get("--offer"));
    if (!offer) {
      Error(TrFormat("cli.err.pricing_offer", {args.Get("--offer")}));
      return kExitInvalid;
    }
    ApplyOffer(*offer, &s);
  }
  const Offer* applied = args.Has("--offer") ? FindOffer(args.Get("--offer")) : nullptr;
  if (args.Has("--quote")) {
    std::string label;
    if (const Message e = QuotedPriceProblem(&s, args.Get("--quote"), &label); !e.empty()) {
      Error("pricing: --quote: " + e.Text(CurrentLanguage()));
      return kExitInvalid;
    }
    if (!label.empty()) Error("--quote: " + label);
  }
  if (AwaitsQuote(s)) {  // no number from nowhere: the quote offer's price must be typed
    const Offer& offer = *FindOffer(s.pricing.offer);
    Error("pricing: " + TrFormat("quote.reason", {offer.provider, offer.product}) + " " + Tr("quote.fix"));
    return kExitInvalid;
  }
  const PricingComparison c = ComparePricingModels(s);
  if (!c.ok) {
    Error(TrFormat("cli.err.cannot_evaluate", {InputName(args.positional[0])}));
    return kExitInvalid;
  }
  if (format == Format::kJson) {
    std::printf("%s\n", PricingToJson(s, c).c_str());
  } else if (format == Format::kCsv) {
    Table t;
    t.Row({"model", "usd_per_gpu_hour", "job_usd", "term_tail_usd", "total_usd", "ratio_to_on_demand",
           "expected_hours", "capacity_guaranteed", "risk", "finish_p50_hours", "finish_p90_hours", "p_miss_deadline",
           "delay_usd", "blocking"});
    for (const ModelCost& m : c.models) {
      const ScheduleOutlook& o = m.result.schedule;
      const bool priced = !m.blocking.blocked;  // a blocked row is said, not priced: empty money cells
      const auto money = [priced](double v, int digits) { return priced ? FormatNumber(v, digits) : std::string(); };
      t.Row({PricingModelName(m.model), money(m.usd_per_gpu_hour, 8), money(m.job_usd, 10),
             money(m.term_tail_usd, 10), money(m.total_usd, 10), money(m.ratio_to_on_demand, 6),
             FormatNumber(m.expected_hours, 8), m.capacity_guaranteed ? "true" : "false", m.risk,
             FormatNumber(o.finish_p50_hours, 8), FormatNumber(o.finish_p90_hours, 8),
             o.deadline_given ? FormatNumber(o.p_miss_deadline, 6) : "", money(m.delay_usd, 10), m.blocking.code});
    }
    t.PrintCsv(stdout);
  } else {
    // What the offer filled, in the reader's language; a price-by-quote offer has no list price to show (its row
    // was "$0.00/GPU-hour"): the table's anchor is the quote typed.
    if (applied) {
      const std::string billing = OfferBillingText(*applied, &s, true, CurrentLanguage());
      const std::string line = applied->price_by_quote
                                   ? TrFormat("cli.pricing.offer_quote", {applied->id, applied->date, billing})
                                   : TrFormat("cli.pricing.offer", {applied->id, FormatUsd(applied->usd_per_gpu_hour), applied->date, billing});
      std::printf("%s\n\n", line.c_str());
    }
    PrintTable(s, c);
  }
  return kExitOk;
}

}  // namespace gpucost::cli
