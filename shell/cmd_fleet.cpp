// gpucost fleet FILE|- [--format table|json|csv]
// Commitment planner and hybrid plan over a demand profile (core/explore/fleet.h).
#include <cstdio>

#include "documents/fleet_json.h"
#include "cli.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/inference_views.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kFleetOptions = {
    {"--format", true, "cli.opt.fleet.format"},
};

std::string Levels(const FleetInputs& in, const FleetPlan& p) {
  std::string out;
  for (int i = 0; i < in.commitment_count; ++i) {
    out += std::string(out.empty() ? "" : "; ") + RenderParam(CurrentLanguage(), CommitmentNameParam(in.commitments[i])) + ":";
    for (int k = 0; k < p.periods[i]; ++k) out += " " + FormatCount(p.commit_gpus[i][k]);
  }
  if (p.owned_gpus > 0) out += "; " + TrFormat("cli.fleet.owned", {FormatCount(p.owned_gpus)});
  return out.empty() ? Tr("fleet.none") : out;
}

void PrintTable(const FleetInputs& in, const FleetResult& r) {
  // In the plan's currency (fresh2 A10: a KRW plan's table was in dollars beside notes in won); the JSON and CSV
  // keep their USD fields.
  const auto money = [&in](double usd) { return FormatMoney(usd * in.per_usd, in.currency); };
  std::printf("%s\n", TrFormat("cli.fleet.title", {in.name[0] ? TerminalSafe(in.name) : Tr("cli.fleet.fleet"), std::to_string(in.months),
                                                  FormatCount(r.demand_gpu_hours), money(in.on_demand_usd_per_gpu_hour),
                                                  money(r.burst_usd_per_gpu_hour), FormatPercent(r.spot_share_of_burst)}).c_str());
  const bool hybrid = in.plan_hybrid;
  Table t;
  std::vector<std::string> head = {Tr("fleet.col_part"), Tr("fleet.col_all_on_demand"), Tr("fleet.col_cloud")};
  if (hybrid) head.push_back(Tr("fleet.col_hybrid"));
  t.Row(head);
  t.Rule();
  for (int i = 0; i < kFleetPartCount; ++i) {
    if (r.all_on_demand.usd[i] == 0 && r.cloud.usd[i] == 0 && r.hybrid.usd[i] == 0) continue;
    std::vector<std::string> row = {FleetPartLabel(i), money(r.all_on_demand.usd[i]), money(r.cloud.usd[i])};
    if (hybrid) row.push_back(money(r.hybrid.usd[i]));
    t.Row(row);
  }
  t.Rule();
  std::vector<std::string> total = {Tr("fleet.total"), money(r.all_on_demand.total_usd), money(r.cloud.total_usd)};
  if (hybrid) total.push_back(money(r.hybrid.total_usd));
  t.Row(total);
  const double all = r.all_on_demand.total_usd;
  auto share = [all](double usd) { return all > 0 ? FormatPercent(usd / all) : std::string("-"); };
  std::vector<std::string> ratio = {Tr("cli.fleet.vs_all"), share(all), share(r.cloud.total_usd)};
  if (hybrid) ratio.push_back(share(r.hybrid.total_usd));
  t.Row(ratio);
  t.Print(stdout);
  std::printf("%s\n", TrFormat("cli.fleet.commitments", {Levels(in, r.cloud)}).c_str());
  if (hybrid)
    std::printf("%s\n", TrFormat("cli.fleet.hybrid", {Levels(in, r.hybrid), money(r.owned_usd_per_held_gpu_hour)}).c_str());
  if (r.notes.count) std::printf("%s\n", Tr("cli.fleet.notes"));
  for (int i = 0; i < r.notes.count; ++i) std::printf("  ! %s\n", TerminalSafe(r.notes.Text(i, CurrentLanguage())).c_str());
  if (r.differences.count) std::printf("%s\n", Tr("cli.fleet.differences"));
  for (int i = 0; i < r.differences.count; ++i)
    std::printf("  - %s\n", TerminalSafe(r.differences.Text(i, CurrentLanguage())).c_str());
}

}  // namespace

int RunFleet(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kFleetOptions, &args, "fleet")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost fleet FILE|- [--format table|json|csv]",
               "cli.help.fleet", kFleetOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(Tr("cli.err.fleet_one"));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  std::string text, error;
  if (!ReadInput(args.positional[0], &text, &error)) {
    Error(error);
    return kExitFailure;
  }
  if (IsInferenceScenario(text)) {  // a serving scenario given where a fleet document is expected
    Error(InputName(args.positional[0]) + ": " + Tr(ServingRefusalKey(ServingQuestion::kFleet)));
    return kExitInvalid;
  }
  const FleetParse parse = ParseFleetJson(text);
  if (!parse.ok()) {
    Error(InputName(args.positional[0]) + ": " + parse.errors.front().Text(CurrentLanguage()));
    return kExitInvalid;
  }
  const FleetResult r = PlanFleet(parse.fleet);
  if (!r.ok) {
    Error(InputName(args.positional[0]) + ": " + Tr("cli.err.fleet_cannot"));
    return kExitInvalid;
  }
  if (format == Format::kJson) {
    std::printf("%s\n", FleetToJson(parse.fleet, r).c_str());
  } else if (format == Format::kCsv) {
    Table t;
    t.Row({"plan", "part", "usd", "gpu_hours"});
    const std::pair<const char*, const FleetPlan*> plans[] = {
        {"all_on_demand", &r.all_on_demand}, {"cloud", &r.cloud}, {"hybrid", &r.hybrid}};
    for (const auto& [name, plan] : plans) {
      if (plan == &r.hybrid && !parse.fleet.plan_hybrid) continue;
      for (int i = 0; i < kFleetPartCount; ++i)
        t.Row({name, FleetPartName(i), FormatNumber(plan->usd[i], 10), FormatNumber(plan->gpu_hours[i], 10)});
      t.Row({name, "total", FormatNumber(plan->total_usd, 10), ""});
    }
    t.PrintCsv(stdout);
  } else {
    PrintTable(parse.fleet, r);
  }
  return kExitOk;
}

}  // namespace gpucost::cli
