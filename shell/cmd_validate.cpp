// gpucost validate FILE|- [FILE...] [--format table|json] — every problem of each scenario, one per line.
//
// Output (stdout), one line each:  FILE: PATH: MESSAGE      a problem (exit 2 if any)
//                                  FILE: warning: MESSAGE   the model's warnings for a valid scenario
//                                  FILE: ok                 a valid scenario
// With problems, stderr gets one summary line. I/O failures (missing file) exit 1.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "documents/open.h"
#include "cli.h"
#include "documents/result_json.h"
#include "scenario/fields.h"
#include "base/i18n.h"
#include "scenario/json_io.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kValidateOptions = {
    {"--format", true, "cli.opt.validate.format"},
};

struct FileReport {
  std::string name;
  bool readable = true;
  std::vector<InputError> problems;
  std::vector<std::string> warnings;        // in English (the JSON report's text)
  std::vector<std::string> warnings_shown;  // in the CLI's language
};

// Field errors first; then the cross-field checks for the fields that were themselves valid.
FileReport Check(const std::string& path) {
  FileReport report;
  report.name = InputName(path);
  ScenarioParse p;
  std::string error;
  if (ReadScenario(path, &p, &error) != kExitOk) {
    report.readable = false;
    const std::string prefix = report.name + ": ";
    report.problems.push_back({"", error.compare(0, prefix.size(), prefix) == 0 ? error.substr(prefix.size()) : error});
    return report;
  }
  report.problems = p.errors;
  const bool document_level = !p.errors.empty() && p.errors.front().path.empty();
  if (!p.ok() && !document_level)
    for (const InputError& e : ValidateScenario(p.scenario)) {
      bool known = false;
      for (const InputError& seen : report.problems) known = known || seen.path == e.path;
      if (!known) report.problems.push_back(e);
    }
  if (report.problems.empty()) {
    const Result r = Evaluate(p.scenario);
    if (!r.ok) report.problems.push_back(CodedError("cluster.gpu", {"msg.sim_cannot_evaluate", {}}));
    else if (std::string bad = NonFiniteResultPath(r); !bad.empty())
      report.problems.push_back(CodedError("", OutOfRangeMessage(bad)));
    else
      for (int i = 0; i < r.warnings.count; ++i) {
        report.warnings.push_back(r.warnings.Text(i, Lang::kEn));
        report.warnings_shown.push_back(r.warnings.Text(i, CurrentLanguage()));
      }
  }
  return report;
}

void PrintSchema(FILE* f) {
  std::fprintf(f, "\n%s\n", Tr("cli.validate.fields_heading"));
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& field = Fields()[i];
    std::fprintf(f, "  %-44s %s%s%s%s\n", field.path, RangeText(field, CurrentLanguage()).c_str(), field.unit[0] ? " [" : "", field.unit,
                 field.unit[0] ? "]" : "");
  }
  std::fprintf(f, "%s\n", Tr("cli.validate.fields_footer"));
}

void PrintJson(const std::vector<FileReport>& reports) {
  nlohmann::json doc = nlohmann::json::array();
  for (const FileReport& r : reports) {
    nlohmann::json problems = nlohmann::json::array();
    for (const InputError& e : r.problems) problems.push_back(InputErrorJson(e));
    doc.push_back({{"file", r.name}, {"ok", r.problems.empty()}, {"problems", problems},
                   {"warnings", r.warnings}});
  }
  std::printf("%s\n", doc.dump(2).c_str());
}

void PrintLines(const std::vector<FileReport>& reports) {
  for (const FileReport& r : reports) {
    for (const InputError& e : r.problems) std::printf("%s: %s\n", TerminalSafe(r.name).c_str(), TerminalSafe(e.Text(CurrentLanguage())).c_str());
    for (const std::string& w : r.warnings_shown)
      std::printf("%s\n", TerminalSafe(TrFormat("cli.validate.warning", {r.name, w})).c_str());
    if (r.problems.empty()) std::printf("%s\n", TerminalSafe(TrFormat("cli.validate.ok", {r.name})).c_str());
  }
}

}  // namespace

int RunValidate(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kValidateOptions, &args, "validate")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost validate FILE|- [FILE...] [--format table|json]",
               "cli.help.validate", kValidateOptions);
    PrintSchema(stdout);
    return kExitOk;
  }
  if (args.positional.empty()) {
    Error(Tr("cli.err.validate_files"));
    return kExitInvalid;
  }
  if (!StdinAtMostOnce(args.positional, "validate")) return kExitInvalid;
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson}, &format)) return kExitInvalid;
  std::vector<FileReport> reports;
  std::size_t problems = 0, invalid_files = 0;
  bool unreadable = false;
  for (const std::string& path : args.positional) {
    reports.push_back(Check(path));
    problems += reports.back().problems.size();
    invalid_files += !reports.back().problems.empty();
    unreadable = unreadable || !reports.back().readable;
  }
  if (format == Format::kJson) PrintJson(reports);
  else PrintLines(reports);
  if (problems == 0) return kExitOk;
  Error(TrFormat("cli.validate.summary", {std::to_string(problems), std::to_string(invalid_files), std::to_string(reports.size())}));
  return unreadable ? kExitFailure : kExitInvalid;
}

}  // namespace gpucost::cli
