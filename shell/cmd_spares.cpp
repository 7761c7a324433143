// gpucost spares FILE|- [--format table|json] [--steps N]
// Hot spares as a pool (core/explore/spares.h): the job's expected cost and goodput against the spare count in steps of a
// node, the cheapest count, and the same pool as a managed service's buffer included in the price.
#include <cstdio>
#include <cstdlib>

#include "documents/spares_json.h"
#include "cli.h"
#include "base/format.h"
#include "base/i18n.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kSparesOptions = {
    {"--format", true, "cli.opt.spares.format"},
    {"--steps", true, "cli.opt.spares.steps"},
};

}  // namespace

int RunSpares(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kSparesOptions, &args, "spares")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost spares FILE|- [--format table|json] [--steps N]", "cli.help.spares", kSparesOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(TrFormat("cli.err.one_scenario", {"spares"}));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson}, &format)) return kExitInvalid;
  int steps = 32;
  if (args.Has("--steps")) {
    const std::string text = args.Get("--steps");  // kept: strtol's end points into it
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || !end || *end || v < 1 || v > 256) {
      OptionRangeError("spares", "--steps", IntegerRange("1", "256"), text);
      return kExitInvalid;
    }
    steps = static_cast<int>(v);
  }
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  if (Kind(s) != WorkloadKind::kTraining) {
    Error(Tr("cli.err.spares_training"));
    return kExitInvalid;
  }
  const SparesSweepDoc d = SparesSweep(s, steps);
  if (!d.ok) {
    Error(TrFormat("cli.err.cannot_evaluate", {InputName(args.positional[0])}));
    return kExitInvalid;
  }
  if (format == Format::kJson) {
    std::printf("%s\n", SparesToJson(s, d).c_str());
    return kExitOk;
  }
  const char* cur = s.pricing.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD";
  const double k = s.pricing.currency == static_cast<int>(Currency::kKrw) ? s.pricing.krw_per_usd : 1.0;
  std::printf("%s\n", TrFormat("cli.spares.title", {FormatNumber(d.failures_expected, 3), FormatDuration(d.repair_hours)}).c_str());
  Table t;
  t.Row({Tr("cli.spares.col_spares"), Tr("cli.spares.col_fast"), Tr("cli.spares.col_time"), Tr("cli.spares.col_goodput"),
         Tr("cli.spares.col_cost"), Tr("cli.spares.col_managed")});
  t.Rule();
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    const SpareRow& r = d.rows[i];
    std::string label = std::to_string(r.spares);
    if (static_cast<int>(i) == d.cheapest) label += " *";
    t.Row({label, FormatPercent(r.fast_fraction), FormatDuration(r.expected_hours), FormatPercent(r.goodput),
           FormatMoney(r.expected_usd * k, cur), FormatMoney(r.managed_usd * k, cur)});
  }
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.spares.footnote"));
  return kExitOk;
}

}  // namespace gpucost::cli
