#include "documents/open.h"
#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "documents/result_json.h"
#include "base/i18n.h"
#include "documents/import.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "documents/presets.h"
#include "scenario/quantity.h"
#include "base/text_safety.h"

namespace gpucost::cli {

std::string SiblingExecutable(const char* name, const char* env_override) {
  if (const char* env = std::getenv(env_override); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "" : (self.parent_path() / name).string();
}

void Error(const std::string& message) {  // messages quote user text (names, values, file names): made safe here
  std::fprintf(stderr, "gpucost: %s\n", TerminalSafe(message).c_str());
}

void OptionRangeError(const char* verb, const char* option, const Message& range, const std::string& got) {
  Error(TrFormat("cli.opt_range", {verb, option, range.Text(CurrentLanguage()), got}));
}
Message IntegerRange(const std::string& lo, const std::string& hi) { return {"cli.range_int", {lo, hi}}; }
Message NumberRange(const std::string& lo, const std::string& hi) { return {"cli.range_number", {lo, hi}}; }
Message OpenRange(const std::string& lo, const std::string& hi) { return {"cli.range_open", {lo, hi}}; }

std::string InputName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

bool StdinAtMostOnce(const std::vector<std::string>& paths, const char* verb) {
  int stdin_count = 0;
  for (const std::string& p : paths) stdin_count += p == "-";
  if (stdin_count <= 1) return true;
  Error(TrFormat("cli.err.stdin_once", {verb}));
  return false;
}

bool ParseNumber(const std::string& text, double* out) { return ParseQuantity(text, out).empty(); }

std::vector<std::string> SplitList(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == separator) {
      items.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return items;
}

int EvaluateForOutput(const std::string& name, const Scenario& s, Result* r) {
  *r = Evaluate(s);
  if (!r->ok) {
    Error(TrFormat("cli.err.cannot_evaluate", {name}));
    return kExitInvalid;
  }
  if (const std::string bad = NonFiniteResultPath(*r); !bad.empty()) {
    Error(name + ": " + OutOfRangeMessage(bad).Text(CurrentLanguage()));
    return kExitInvalid;
  }
  return kExitOk;
}

std::string ScenarioLabel(const Scenario& s, const std::string& path) {
  if (s.name[0]) return s.name;
  if (path == "-") return "<stdin>";
  std::string base = std::filesystem::path(path).filename().string();
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0) base.resize(base.size() - 5);
  return base.empty() ? path : base;
}

bool ParseArgs(int argc, char** argv, const std::vector<OptionSpec>& options, Args* out, const char* verb) {
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      out->values["--help"] = "";
      continue;
    }
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      std::string name = a, value;
      const std::size_t eq = a.find('=');
      if (eq != std::string::npos) {
        name = a.substr(0, eq);
        value = a.substr(eq + 1);
      }
      const OptionSpec* spec = nullptr;
      for (const OptionSpec& o : options)
        if (name == o.name) spec = &o;
      if (!spec) {
        Error(TrFormat("cli.err.option_unknown", {verb, name}));
        return false;
      }
      if (spec->takes_value && eq == std::string::npos) {
        if (i + 1 >= argc) {
          Error(TrFormat("cli.err.option_value", {verb, name}));
          return false;
        }
        value = argv[++i];
      } else if (!spec->takes_value && eq != std::string::npos) {
        Error(TrFormat("cli.err.option_no_value", {verb, name}));
        return false;
      }
      if (const auto given = out->values.find(name); given != out->values.end()) {
        if (!spec->repeatable) {
          Error(TrFormat("cli.err.option_twice", {verb, name}));
          return false;
        }
        given->second += "; " + value;
        continue;
      }
      out->values[name] = value;
      continue;
    }
    out->positional.push_back(a);
  }
  return true;
}

void PrintUsage(FILE* f, const char* usage, const char* description, const std::vector<OptionSpec>& options) {
  std::fprintf(f, "%s: %s\n\n%s\n", Tr("cli.help.usage"), usage, Tr(description));
  if (!options.empty()) std::fprintf(f, "\n%s:\n", Tr("cli.help.options"));
  for (const OptionSpec& o : options)
    std::fprintf(f, "  %-22s %s\n", (std::string(o.name) + (o.takes_value ? " X" : "")).c_str(), Tr(o.help));
  std::fprintf(f, "  %-22s %s\n", "--help", Tr("cli.help.show_help"));
}

bool ReadInput(const std::string& path, std::string* text, std::string* error, std::size_t max_bytes,
               const char* too_large_key) {
  std::istream* in = &std::cin;
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) {
      *error = TrFormat("cli.input.cannot_open", {path, std::strerror(errno)});  // the system's reason as it gives it
      return false;
    }
    in = &file;
  }
  text->clear();
  char buf[65536];
  while (*in) {
    in->read(buf, sizeof buf);
    text->append(buf, static_cast<std::size_t>(in->gcount()));
    if (text->size() > max_bytes) {
      *error = TrFormat(too_large_key, {path == "-" ? std::string("<stdin>") : path, std::to_string(max_bytes >> 20)});
      return false;
    }
  }
  if (in->bad()) {
    std::error_code ec;
    const bool directory = path != "-" && std::filesystem::is_directory(path, ec);
    *error = TrFormat(directory ? "cli.input.directory" : "cli.input.read_error", {InputName(path)});
    return false;
  }
  return true;
}

int ReadScenario(const std::string& path, ScenarioParse* out, std::string* io_error) {
  *out = ScenarioParse{DefaultScenario(), {}};
  if (path.rfind("preset:", 0) == 0) {
    std::string error;
    if (!LoadPreset(path.substr(7), &out->scenario, &error)) out->errors.push_back({"", error});
    return kExitOk;
  }
  std::string text;
  if (!ReadInput(path, &text, io_error)) return kExitFailure;
  // Say what the text is when it is no scenario (a result, a CSV export, a probe report, ...), rather than the
  // parser's "unknown key"; a share link opens as the scenario it carries.
  const ImportGuess guess = ClassifyImport(text);
  if (const ImportMessage refusal = ImportRefusal(guess, ImportUse::kScenarioArgument); !refusal.empty()) {
    out->errors.push_back(CodedError("", refusal));
    return kExitOk;
  }
  if (guess.kind == ImportKind::kLink) {
    LinkPayload payload;
    std::vector<InputError> errors;
    const std::size_t first = text.find_first_not_of(" \t\r\n"), last = text.find_last_not_of(" \t\r\n");
    if (!DecodeLink(std::string_view(text).substr(first, last + 1 - first), &payload, &errors)) {
      out->errors.push_back(CodedError("", LinkErrorMessage(errors)));
      return kExitOk;
    }
    out->scenario = payload.scenario;  // the link's own scenario (its pinned comparison is for `compare`)
    out->errors = ValidateScenario(out->scenario);
    return kExitOk;
  }
  *out = ParseScenarioOrPreset(text);
  return kExitOk;
}

int LoadScenario(const std::string& path, Scenario* s, std::vector<std::string>* all_errors) {
  ScenarioParse p;
  std::string error;
  if (ReadScenario(path, &p, &error) != kExitOk) {
    Error(error);
    return kExitFailure;
  }
  *s = p.scenario;
  if (p.ok()) return kExitOk;
  const std::string name = InputName(path);
  if (all_errors)
    for (const InputError& e : p.errors) all_errors->push_back(name + ": " + e.Text(CurrentLanguage()));
  else
    Error(name + ": " + p.errors.front().Text(CurrentLanguage()));
  return kExitInvalid;
}

bool ParseFormat(const Args& args, const std::vector<Format>& allowed, Format* out) {
  const std::string f = args.Get("--format", "table");
  Format want;
  if (f == "table") want = Format::kTable;
  else if (f == "json") want = Format::kJson;
  else if (f == "csv") want = Format::kCsv;
  else {
    Error(TrFormat("cli.err.format_unknown", {f}));
    return false;
  }
  for (Format a : allowed)
    if (a == want) {
      *out = want;
      return true;
    }
  Error(TrFormat("cli.err.format_unavailable", {f}));
  return false;
}

namespace {
bool LooksNumeric(const std::string& s) {
  if (s.empty()) return false;
  const char c = s[0];
  return (c >= '0' && c <= '9') || c == '$' || c == '-' || c == '+' || s.rfind("KRW", 0) == 0 ||
         s.rfind("₩", 0) == 0;
}
std::size_t Width(const std::string& s) {  // terminal columns: Hangul and CJK (lead bytes E1 84-87, E2 BA-
  std::size_t n = 0;                       // E9, EA-ED, EF BC-BF fullwidth forms) take two, others one
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;
    const unsigned char c1 = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    const bool wide = (c == 0xE1 && c1 >= 0x84 && c1 <= 0x87) || (c == 0xE2 && c1 >= 0xBA) || (c >= 0xE3 && c <= 0xED) ||
                      (c == 0xEF && c1 >= 0xBC && c1 <= 0xBF);
    n += wide ? 2 : 1;
  }
  return n;
}
}  // namespace

std::string PadRight(const std::string& text, std::size_t columns) {
  const std::size_t w = Width(text);
  return w >= columns ? text : text + std::string(columns - w, ' ');
}

void Table::Print(FILE* f) const {
  // Cells may quote user text (scenario names, sheet answers, offer names): control characters escaped first,
  // so a name cannot print a line of its own or move the cursor (text_safety.h).
  std::vector<std::vector<std::string>> rows = rows_;
  for (auto& row : rows)
    for (std::string& cell : row) cell = TerminalSafe(cell);
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], Width(row[i]));
    }
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.empty()) {
      std::fprintf(f, "%s\n", std::string(total > 2 ? total - 2 : 0, '-').c_str());
      continue;
    }
    if (std::all_of(row.begin(), row.end(), [](const std::string& c) { return c.empty(); })) continue;  // no blank lines
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::size_t pad = width[i] - Width(row[i]);
      const bool right = i > 0 && (right_align_values_ || (r > 0 && LooksNumeric(row[i])));
      if (right) line += std::string(pad, ' ') + row[i];
      else line += row[i] + (i + 1 < row.size() ? std::string(pad, ' ') : "");
      if (i + 1 < row.size()) line += "  ";
    }
    line.erase(line.find_last_not_of(' ') + 1);  // no trailing blanks
    std::fprintf(f, "%s\n", line.c_str());
  }
}

std::string CsvEscape(const std::string& cell) { return CsvCell(cell); }  // text_safety.h: no formula, quoted

void Table::PrintCsv(FILE* f) const {
  for (const auto& row : rows_) {
    if (row.empty()) continue;
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += (i ? "," : "") + CsvEscape(row[i]);
    std::fprintf(f, "%s\n", line.c_str());
  }
}

}  // namespace gpucost::cli
