// gpucost log FILE|- [--format table|json] [--gpu ID] [--gpus N] [--seq-len N]
// A training log (Megatron-LM / NeMo iteration lines, torchtitan step lines, Hugging Face trainer_state.json) read into
// a run record (core/evidence/log_read.h): what it read and what it could not. A file that is no such log: exit 2.
#include <cstdio>
#include <cstdlib>

#include "documents/actual.h"
#include "cli.h"
#include "base/format.h"
#include "base/i18n.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kLogOptions = {
    {"--format", true, "cli.opt.log.format"},
    {"--gpu", true, "cli.opt.log.gpu"},
    {"--gpus", true, "cli.opt.log.gpus"},
    {"--seq-len", true, "cli.opt.log.seq_len"},
};
constexpr std::size_t kMaxLogBytes = 512u << 20;

bool IntegerOption(const Args& args, const char* name, std::int64_t* out) {
  if (!args.Has(name)) return true;
  const std::string text = args.Get(name);
  double v = 0;
  if (!ParseNumber(text, &v) || v < 1 || v > 1e8 || v != static_cast<double>(static_cast<std::int64_t>(v))) {
    OptionRangeError("log", name, IntegerRange("1", "100,000,000"), text);
    return false;
  }
  *out = static_cast<std::int64_t>(v);
  return true;
}

std::string Samples(const std::vector<double>& v, const char* unit) {
  return TrFormat("cli.log.samples", {FormatNumber(SampleMedian(v), 4), unit, FormatCount(static_cast<double>(v.size()))});
}

void PrintRecord(const RunRecord& r) {
  const bool entries = r.source.format == "hf_trainer_state";
  std::printf("%s\n", TrFormat(entries ? "cli.log.title_entries" : "cli.log.title", {TerminalSafe(r.source.file), Tr(("log.format." + r.source.format).c_str()),
                                                 FormatCount(static_cast<double>(r.source.lines))}).c_str());
  Table t;
  const std::string none = Tr("cli.log.not_in_log");
  t.Row({Tr("cli.log.f.gpu"), r.gpu.empty() ? none : r.gpu});
  t.Row({Tr("cli.log.f.gpus"), r.gpus > 0 ? FormatCount(static_cast<double>(r.gpus)) : none});
  t.Row({Tr("cli.log.f.wall_hours"), r.wall_hours ? FormatNumber(*r.wall_hours, 5) : none});
  t.Row({Tr("cli.log.f.tokens"), r.tokens ? FormatCount(*r.tokens) : none});
  if (!r.tokens_per_second.empty()) t.Row({Tr("cli.log.f.tokens_per_second"), Samples(r.tokens_per_second, "tokens/s")});
  if (!r.step_seconds.empty()) t.Row({Tr("cli.log.f.step_seconds"), Samples(r.step_seconds, "s")});
  t.Row({Tr("cli.log.f.global_batch"), r.global_batch ? FormatCount(static_cast<double>(*r.global_batch)) : none});
  t.Row({Tr("cli.log.f.seq_len"), r.seq_len ? FormatCount(static_cast<double>(*r.seq_len)) : none});
  if (r.interruptions) {
    double lost = 0;
    for (const RunInterruption& x : *r.interruptions) lost += x.lost_hours.value_or(0);
    t.Row({Tr("cli.log.f.interruptions"), TrFormat("cli.log.interruptions", {std::to_string(r.interruptions->size()), FormatNumber(lost, 4)})});
  } else {
    t.Row({Tr("cli.log.f.interruptions"), none});
  }
  if (r.checkpoints)
    t.Row({Tr("cli.log.f.checkpoints"), TrFormat("cli.log.checkpoints", {FormatCount(static_cast<double>(r.checkpoints->count.value_or(0))),
                                                           r.checkpoints->write_seconds ? FormatNumber(*r.checkpoints->write_seconds, 4) : "?"})});
  else
    t.Row({Tr("cli.log.f.checkpoints"), none});
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.log.read"));
  for (const Message& m : r.source.read) std::printf("  + %s\n", TerminalSafe(m.Text(CurrentLanguage())).c_str());
  std::printf("%s\n", Tr("cli.log.not_read"));
  for (const Message& m : r.source.not_read) std::printf("  - %s\n", TerminalSafe(m.Text(CurrentLanguage())).c_str());
}

}  // namespace

int RunLog(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kLogOptions, &args, "log")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost log FILE|- [--format table|json] [--gpu ID] [--gpus N] [--seq-len N]", "cli.help.log", kLogOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) {
    Error(Tr("cli.err.log_one"));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson}, &format)) return kExitInvalid;
  LogHints hints;
  hints.gpu = args.Get("--gpu");
  if (!IntegerOption(args, "--gpus", &hints.gpus) || !IntegerOption(args, "--seq-len", &hints.seq_len)) return kExitInvalid;
  std::string text, error;
  if (!ReadInput(args.positional[0], &text, &error, kMaxLogBytes, "cli.input.too_large_log")) {
    Error(error);
    return kExitFailure;
  }
  const std::string name = InputName(args.positional[0]);
  const RunInput read = ReadRunInput(text, name, hints, true);
  if (!read.ok) {  // one line: which file and why
    Error(TerminalSafe(name) + ": " + read.refusal.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  if (format == Format::kJson) std::printf("%s\n", RunRecordToJson(read.record).c_str());
  else PrintRecord(read.record);
  return kExitOk;
}

}  // namespace gpucost::cli
