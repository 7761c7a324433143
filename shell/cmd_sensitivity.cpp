// gpucost sensitivity FILE|- [--format table|json|csv] [--percent X]
// The tornado (core/explore/sensitivity.h): which inputs move the expected cost per completed job the most.
#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "documents/sensitivity_json.h"
#include "cli.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kSensitivityOptions = {
    {"--format", true, "cli.opt.sensitivity.format"},
    {"--percent", true, "cli.opt.sensitivity.percent"},
};

std::string Value(double v) { return FormatNumber(v, 4); }

void PrintTable(const Scenario& s, const SensitivityResult& r) {
  const char* cur = r.currency;
  if (r.serving)  // an inference scenario: the cost per million output tokens (and per request)
    std::printf("%s\n\n", TrFormat("cli.sens.title_serving", {FormatSmallMoney(r.base_cost, cur), FormatSmallMoney(r.base_per_request, cur)}).c_str());
  else
    std::printf("%s\n\n", TrFormat("cli.sens.title", {FormatMoney(r.base_cost, cur), FormatDuration(r.base_hours)}).c_str());
  const auto money = [&](double v) { return r.serving ? FormatSmallMoney(v, cur) : FormatMoney(v, cur); };
  double widest = 0;
  for (const SensitivityInput& in : r.inputs) widest = std::max(widest, in.swing);
  Table t;
  t.Row({Tr("cli.sens.col_input"), Tr("cli.sens.col_low"), Tr("cli.sens.col_high"), Tr("cli.sens.col_cost_low"),
         Tr("cli.sens.col_cost_high"), Tr("cli.sens.col_swing"), ""});
  t.Rule();
  for (const SensitivityInput& in : r.inputs) {
    const int bar = widest > 0 ? static_cast<int>(24 * in.swing / widest + 0.5) : 0;
    t.Row({in.path, SensitivityBoundText(s, in, in.low_value) + (in.clipped ? "*" : ""), SensitivityBoundText(s, in, in.high_value),
           money(in.low_cost), money(in.high_cost), money(in.swing),
           std::string(static_cast<std::size_t>(bar), '#')});
  }
  t.Print(stdout);
  std::printf("\n%s:\n", Tr(r.percent > 0 ? "cli.sens.bounds" : "cli.sens.bounds_why"));
  if (r.percent > 0) std::printf("%s\n", TrFormat("cli.sens.every_input", {Value(r.percent)}).c_str());
  else
    for (const SensitivityInput& in : r.inputs) std::printf("  %-42s %s\n", in.path, Tr(in.bound_key));
  bool clipped = false;
  for (const SensitivityInput& in : r.inputs) clipped = clipped || in.clipped;
  if (clipped) std::printf("%s\n", Tr("cli.sens.clipped"));
}

void PrintCsv(const SensitivityResult& r) {
  Table t;
  t.Row({"path", "low", "high", "low_usd", "high_usd", "swing_usd", "low_hours", "high_hours", "source", "low_cost",
         "high_cost", "swing"});
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return std::string(buf);
  };
  for (const SensitivityInput& in : r.inputs)
    t.Row({in.path, num(in.low_value), num(in.high_value), num(in.low_usd), num(in.high_usd), num(in.swing_usd),
           num(in.low_hours), num(in.high_hours), in.bound_source, num(in.low_cost), num(in.high_cost),
           num(in.swing)});
  t.PrintCsv(stdout);
}

}  // namespace

int RunSensitivity(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kSensitivityOptions, &args, "sensitivity")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost sensitivity FILE|- [--format table|json|csv] [--percent X]",
               "cli.help.sensitivity", kSensitivityOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(TrFormat("cli.err.one_scenario", {"sensitivity"}));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  double percent = 0;
  if (args.Has("--percent") && (!ParseNumber(args.Get("--percent"), &percent) || percent <= 0 || percent >= 100)) {
    OptionRangeError("sensitivity", "--percent", OpenRange("0", "100"), args.Get("--percent"));
    return kExitInvalid;
  }
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  const std::string name = InputName(args.positional[0]);
  const SensitivityResult r = AnalyzeSensitivity(s, percent);
  if (!r.ok) {
    Error(TrFormat("cli.err.cannot_evaluate", {name}));
    return kExitInvalid;
  }
  for (const SensitivityInput& in : r.inputs)
    if (!std::isfinite(in.low_usd) || !std::isfinite(in.high_usd)) {
      Error(TrFormat("cli.err.sens_not_finite", {name, in.path}));
      return kExitInvalid;
    }
  if (format == Format::kJson)
    std::printf("%s\n", SensitivityToJson(r).c_str());
  else if (format == Format::kCsv)
    PrintCsv(r);
  else
    PrintTable(s, r);
  return kExitOk;
}

}  // namespace gpucost::cli
