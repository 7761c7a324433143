// gpucost actual PLAN RUN [--format table|json]
// Plan versus actual (core/documents/actual.h): where the money went against the plan, part by part and why, and the
// plan's scenario calibrated with what the run measured, the next job re-priced with it. RUN is a run record
// (gpucost/run@1) or a log `gpucost log` reads.
#include <cmath>
#include <cstdio>

#include "cli.h"
#include "documents/actual.h"
#include "base/format.h"
#include "base/i18n.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kActualOptions = {
    {"--format", true, "cli.opt.actual.format"},
};
constexpr std::size_t kMaxRunBytes = 512u << 20;

// RUN as a record: a run record file, else a log read into one (ReadRunInput: the page reads a dropped file the same
// way). Returns kExitOk or an exit code after one line.
int ReadRun(const std::string& path, RunRecord* out) {
  std::string text, error;
  if (!ReadInput(path, &text, &error, kMaxRunBytes, "cli.input.too_large_log")) return Error(error), kExitFailure;
  const RunInput in = ReadRunInput(text, InputName(path));
  if (!in.ok) {
    const std::string why = in.refusal.Text(CurrentLanguage());
    return Error(TerminalSafe(InputName(path)) + ": " + (in.refusal_path.empty() ? why : in.refusal_path + ": " + why)), kExitInvalid;
  }
  *out = in.record;
  return kExitOk;
}

std::string Money(const ActualDoc& d, double usd) { return FormatMoney(usd * d.display_per_usd, d.currency); }
std::string Signed(const ActualDoc& d, double usd) { return (usd >= 0 ? "+" : "") + Money(d, usd); }
double Usd(std::int64_t cents) { return static_cast<double>(cents) / 100; }

void PrintVariance(const ActualDoc& d) {
  Table t;
  t.Row({Tr("actual.col_part"), Tr("actual.col_planned"), Tr("actual.col_actual"), Tr("actual.col_delta")});
  t.Rule();
  for (const VarianceRow& v : d.variance)
    t.Row({Tr(("actual.part." + std::string(VariancePartName(v.part))).c_str()), Money(d, Usd(v.planned_cents)),
           Money(d, Usd(v.actual_cents)), Signed(d, Usd(v.delta_cents()))});
  t.Rule();
  t.Row({Tr("actual.total"), Money(d, Usd(d.planned_cents)), Money(d, Usd(d.actual_cents)), Signed(d, Usd(d.actual_cents - d.planned_cents))});
  t.RightAlignValues();
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.actual.why"));
  for (const VarianceRow& v : d.variance)
    std::printf("  %s: %s\n", Tr(("actual.part." + std::string(VariancePartName(v.part))).c_str()),
                TerminalSafe(v.why.Text(CurrentLanguage())).c_str());
}

void PrintCalibration(const ActualDoc& d) {
  const ActualCalibration& c = d.calibrated;
  if (c.ok)
    std::printf("%s\n", TrFormat("actual.next_job", {Money(d, c.next_job_usd), Money(d, c.plan_usd)}).c_str());
  else
    std::printf("%s\n", Tr("actual.next_job_none"));
  for (const CalibratedChange& ch : c.changes)
    std::printf("  %s: %s -> %s (%s)\n", ch.field, FormatNumber(ch.planned, 5).c_str(), FormatNumber(ch.calibrated, 5).c_str(),
                TerminalSafe(ch.why.Text(CurrentLanguage())).c_str());
  if (c.mtbf_updated && c.mtbf.prior_failures > 0)
    std::printf("  %s\n", TrFormat("actual.mtbf_interval", {FormatPercent(kMtbfCredibleLevel), FormatCount(std::round(c.mtbf.low_hours)),
                                                           FormatCount(std::round(c.mtbf.high_hours)), FormatNumber(c.mtbf.prior_failures, 3),
                                                           FormatCount(c.mtbf.prior_gpu_hours), FormatPercent(c.mtbf.prior_share)}).c_str());
}

void PrintTable(const Scenario& plan, const ActualDoc& d) {
  const std::string name = plan.name[0] ? TerminalSafe(plan.name) : std::string(Tr("actual.this_plan"));
  const double delta = Usd(d.actual_cents - d.planned_cents), planned = Usd(d.planned_cents);
  std::printf("%s\n", TrFormat(d.actual_is_invoice ? "actual.headline_invoice" : "actual.headline",
                               {name, Money(d, planned), Money(d, Usd(d.actual_cents)), Signed(d, delta),
                                planned > 0 ? FormatSignedPercent(delta / planned) : std::string("-")}).c_str());
  PrintVariance(d);
  PrintCalibration(d);
  if (!d.notes.empty()) std::printf("%s\n", Tr("cli.actual.notes"));
  for (const ActualNote& n : d.notes) std::printf("  ! %s\n", TerminalSafe(n.message.Text(CurrentLanguage())).c_str());
}

}  // namespace

int RunActual(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kActualOptions, &args, "actual")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost actual PLAN RUN [--format table|json]", "cli.help.actual", kActualOptions);
    return kExitOk;
  }
  if (args.positional.size() != 2) {
    Error(Tr("cli.err.actual_two"));
    return kExitInvalid;
  }
  if (!StdinAtMostOnce(args.positional, "actual")) return kExitInvalid;
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson}, &format)) return kExitInvalid;
  Scenario plan;
  if (int rc = LoadScenario(args.positional[0], &plan)) return rc;
  RunRecord run;
  if (int rc = ReadRun(args.positional[1], &run)) return rc;
  const ActualDoc d = CompareActual(plan, run);
  if (!d.ok) {
    Error(TerminalSafe(InputName(args.positional[1])) + ": " + d.error.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  if (format == Format::kJson) std::printf("%s\n", ActualToJson(plan, d).c_str());
  else PrintTable(plan, d);
  return kExitOk;
}

}  // namespace gpucost::cli
