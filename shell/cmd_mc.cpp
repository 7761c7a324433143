// gpucost mc FILE|- --trials N --seed S [--format table|json]
// Monte Carlo of the job timeline (core/explore/montecarlo.h): mean, P10/P50/P90 and histograms of time and cost.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include <unistd.h>

#include "documents/montecarlo_json.h"
#include "cli.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "inference_cli.h"
#include "documents/inference_sim_json.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

constexpr std::int64_t kDefaultTrials = 10000;
constexpr std::int64_t kSliceTrials = 20000;  // trials between progress updates
constexpr std::int64_t kInferenceDefaultRequests = 100000;  // an inference scenario simulates requests

const std::vector<OptionSpec> kMcOptions = {
    {"--trials", true, "cli.opt.mc.trials"},
    {"--seed", true, "cli.opt.mc.seed"},
    {"--max-work", true, "cli.opt.mc.max-work"},
    {"--format", true, "cli.opt.mc.format"},
};

// Strict unsigned decimal integer in [lo, hi]: digits only, no sign, no exponent, no overflow.
bool ParseUnsigned(const std::string& text, unsigned long long lo, unsigned long long hi, unsigned long long* out) {
  if (text.empty()) return false;
  if (text.find_first_not_of("0123456789") != std::string::npos) {  // "1e3", "10k", "2,000": exact below 2^53
    double v = 0;
    if (!ParseNumber(text, &v) || v != std::floor(v) || v < 0 || v > 9007199254740992.0) return false;
    if (v < static_cast<double>(lo) || v > static_cast<double>(hi)) return false;
    *out = static_cast<unsigned long long>(v);
    return true;
  }
  if (text.size() > 20) return false;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool AllFinite(const McSummary& m) {
  for (const McStats* s : {&m.time_hours, &m.cost_usd})
    for (double v : {s->mean, s->p10, s->p50, s->p90, s->min, s->max})
      if (!std::isfinite(v)) return false;
  return true;
}

// The bins over the page's axis (P0.5..P99.5) and the page's note under them (core McHistogramNote); a spread
// below the axis resolution is the note alone.
void PrintHistogram(const char* title, const McHistogram& h, std::int64_t trials, double scale, const char* unit,
                    const std::function<std::string(double)>& words) {
  const std::string note = McHistogramNote(h, trials, scale, words);
  std::printf("\n%s\n", title);
  if (!h.resolved) {
    std::printf("  %s\n", note.c_str());
    return;
  }
  std::int64_t most = 1;
  for (std::int64_t c : h.counts) most = std::max(most, c);
  const double width = (h.hi - h.lo) / kMcHistogramBins;
  for (int b = 0; b < kMcHistogramBins; ++b) {
    const int bar = static_cast<int>(40.0 * static_cast<double>(h.counts[b]) / static_cast<double>(most) + 0.5);
    std::printf("  %12s %s  %-40s %lld\n", FormatNumber((h.lo + b * width) * scale, 5).c_str(), unit,
                std::string(static_cast<std::size_t>(bar), '#').c_str(), static_cast<long long>(h.counts[b]));
  }
  if (!note.empty()) std::printf("  %s\n", note.c_str());
}

void PrintTable(const Scenario& s, const Result& r, const McSummary& m) {
  const char* cur = r.display_currency;
  const double k = r.display_per_usd;
  std::printf("%s\n", TrFormat("cli.mc.title", {s.name[0] ? TerminalSafe(s.name) : Tr("cli.scenario"), std::to_string(m.trials),
                                               std::to_string(m.seed)}).c_str());
  Table t;
  t.Row({"", Tr("cli.mc.col_mean"), "P10", "P50", "P90", Tr("cli.mc.col_closed")});
  t.Rule();
  t.Row({Tr("cli.mc.time"), FormatDuration(m.time_hours.mean), FormatDuration(m.time_hours.p10),
         FormatDuration(m.time_hours.p50), FormatDuration(m.time_hours.p90), FormatDuration(m.closed_form_hours)});
  t.Row({Tr("cli.mc.cost"), FormatMoney(m.cost_usd.mean * k, cur), FormatMoney(m.cost_usd.p10 * k, cur),
         FormatMoney(m.cost_usd.p50 * k, cur), FormatMoney(m.cost_usd.p90 * k, cur),
         FormatMoney(m.closed_form_usd * k, cur)});
  t.Print(stdout);
  std::printf("%s\n", TrFormat("cli.mc.interruptions", {FormatNumber(m.mean_interruptions, 4), FormatNumber(m.mean_failures, 4),
                                                       FormatNumber(m.mean_preemptions, 4)}).c_str());
  std::printf("%s\n", Tr("cli.mc.by_part"));
  Table parts;
  const double tiny = 1e-9 * m.cost_usd.mean;  // rounding noise, e.g. idle GPUs of exactly 0
  for (int p = 0; p < kPartCount; ++p)
    if (std::fabs(m.mean_cost_usd.part[p]) > tiny || m.mean_time_hours.part[p] > 1e-9 * m.time_hours.mean)
      parts.Row({PartLabel(p), FormatNumber(m.mean_time_hours.part[p], 4) + " h",
                 FormatMoney(m.mean_cost_usd.part[p] * k, cur)});
  parts.Print(stdout);
  if (m.truncated_trials > 0)
    std::printf("%s\n", TrFormat("cli.mc.truncated", {std::to_string(m.truncated_trials)}).c_str());
  PrintHistogram(Tr("cli.mc.hist_cost"), m.cost_hist, m.trials, k, cur, [cur](double v) { return FormatMoney(v, cur); });
  PrintHistogram(Tr("cli.mc.hist_time"), m.time_hist, m.trials, 1, "h", [](double v) { return FormatDuration(v); });
}

}  // namespace

int RunMc(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kMcOptions, &args, "mc")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost mc FILE|- --trials N --seed S [--max-work W] [--format table|json]",
               "cli.help.mc", kMcOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(TrFormat("cli.err.one_scenario", {"mc"}));
    return kExitInvalid;
  }
  unsigned long long trials = kDefaultTrials, seed = 1;
  if (args.Has("--trials") &&
      !ParseUnsigned(args.Get("--trials"), 1, static_cast<unsigned long long>(kMcMaxTrials), &trials)) {
    OptionRangeError("mc", "--trials", IntegerRange("1", FormatBound(static_cast<double>(kMcMaxTrials))), args.Get("--trials"));
    return kExitInvalid;
  }
  if (args.Has("--seed") && !ParseUnsigned(args.Get("--seed"), 0, ~0ull, &seed)) {
    OptionRangeError("mc", "--seed", IntegerRange("0", "18446744073709551615"), args.Get("--seed"));
    return kExitInvalid;
  }
  // The request simulation's work cap (inference_sim.h): the page runs kServingPageMaxWork; this reproduces it.
  unsigned long long max_work = static_cast<unsigned long long>(kInferenceSimMaxWork);
  if (args.Has("--max-work") &&
      !ParseUnsigned(args.Get("--max-work"), 1, static_cast<unsigned long long>(kInferenceSimMaxWork), &max_work)) {
    OptionRangeError("mc", "--max-work", IntegerRange("1", FormatBound(static_cast<double>(kInferenceSimMaxWork))), args.Get("--max-work"));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  const std::string name = InputName(args.positional[0]);
  if (Kind(s) == WorkloadKind::kInference)  // the request simulation (inference_sim.h); --trials = requests
    return RunInferenceMc(s, name, args.Has("--trials") ? static_cast<std::int64_t>(trials) : kInferenceDefaultRequests,
                          seed, static_cast<double>(max_work), format == Format::kJson);
  if (args.Has("--max-work")) {  // never ignored: a training Monte Carlo has no request steps to cap
    Error(name + ": " + Tr("cli.mc.max_work_training"));
    return kExitInvalid;
  }
  const Result r = Evaluate(s);  // for the display currency; MonteCarlo checks that the scenario evaluates
  MonteCarlo mc(s, seed, static_cast<std::int64_t>(trials));
  if (!mc.ok()) {
    Error(name + ": " + mc.error_message().Text(CurrentLanguage()));
    return kExitInvalid;
  }
  const bool show_progress = isatty(fileno(stderr)) && trials > static_cast<unsigned long long>(kSliceTrials);
  while (!mc.done()) {
    mc.Run(kSliceTrials);
    if (show_progress) std::fprintf(stderr, "\r%5.1f%%", mc.progress() * 100);
  }
  if (show_progress) std::fprintf(stderr, "\r      \r");
  const McSummary m = mc.Summary();
  if (!AllFinite(m)) {
    Error(TrFormat("cli.err.mc_not_finite", {name}));
    return kExitInvalid;
  }
  if (format == Format::kJson)
    std::printf("%s\n", McSummaryToJson(m, r).c_str());
  else
    PrintTable(s, r, m);
  return kExitOk;
}

}  // namespace gpucost::cli
