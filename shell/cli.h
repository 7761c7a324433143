// cli.h — shared plumbing of the gpucost command-line tool: arguments, input, errors, exit codes, tables.
#pragma once
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "base/i18n.h"
#include "scenario/json_io.h"
#include "documents/result_json.h"
#include "scenario/scenario.h"
#include "base/text_safety.h"

namespace gpucost::cli {

enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitInvalid = 2, kExitNoGpu = 3 };

struct OptionSpec {
  const char* name;     // "--format"
  bool takes_value;
  const char* help;  // a string-table key (cli.opt.<verb>.<option>, assets/i18n)
  // Given again, its values are joined with "; " (a list such as --set); any other option given twice is refused
  // (the later value never silently replaces the earlier one).
  bool repeatable = false;
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // option name -> value ("" for flags)
  bool Has(const std::string& name) const { return values.count(name) != 0; }
  std::string Get(const std::string& name, const std::string& fallback = "") const {
    auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
  }
};

// Parses argv (after the verb). "--help" is always accepted. On error prints one line and returns false.
bool ParseArgs(int argc, char** argv, const std::vector<OptionSpec>& options, Args* out, const char* verb);

// Prints a verb's usage: usage line, description, options.
// description and each option's help are string-table keys (cli.help.<verb>, cli.opt.<verb>.<option>), printed in
// the current language; the usage line is syntax and stays as it is.
void PrintUsage(FILE* f, const char* usage, const char* description, const std::vector<OptionSpec>& options);

// Reads a file or standard input ("-"), at most max_bytes (16 MiB unless said). On failure sets *error ("cannot
// open ...", "larger than ..." with too_large_key's text when given).
bool ReadInput(const std::string& path, std::string* text, std::string* error, std::size_t max_bytes = 16u << 20,
               const char* too_large_key = "cli.input.too_large");


// Reads and parses a scenario: a file, "-" (standard input) or "preset:ID" (an embedded preset, gpucost
// catalog presets). Returns kExitOk (parse errors, if any, in out->errors) or kExitFailure with *io_error set.
int ReadScenario(const std::string& path, ScenarioParse* out, std::string* io_error);

// Loads and validates a scenario (as ReadScenario); prints "gpucost: FILE: PATH: MESSAGE" for the first error.
// Returns kExitOk, kExitInvalid or kExitFailure (I/O). `all_errors` receives every error when non-null.
int LoadScenario(const std::string& path, Scenario* s, std::vector<std::string>* all_errors = nullptr);

// A program installed next to this gpucost binary (gpucost-probe-gpu, gpucost-gui), unless the environment
// variable `env_override` names one. "" when this binary's location is unknown.
std::string SiblingExecutable(const char* name, const char* env_override);

// One-line error on stderr: "gpucost: <message>".
void Error(const std::string& message);
// An option's value out of its range, in the CLI's language: "mc: --trials must be an integer from 1 to
// 10,000,000, got "0"". `range`: IntegerRange / NumberRange / OpenRange.
void OptionRangeError(const char* verb, const char* option, const Message& range, const std::string& got);
Message IntegerRange(const std::string& lo, const std::string& hi);  // "an integer from lo to hi"
Message NumberRange(const std::string& lo, const std::string& hi);   // "a number from lo to hi"
Message OpenRange(const std::string& lo, const std::string& hi);     // "a number > lo and < hi"

// The name an input goes by in messages: "<stdin>" for "-", else the path.
std::string InputName(const std::string& path);

// Standard input can be read once: returns false (and prints an error) if "-" appears more than once.
bool StdinAtMostOnce(const std::vector<std::string>& paths, const char* verb);

// A number as people type it (quantity.h: "1e3", "0.5", "-2", "70B", "2,048"): the whole text, finite.
// No partial parses, no "nan"/"inf", no "%" (options that take fractions say so themselves).
bool ParseNumber(const std::string& text, double* out);

// Splits "a,b,c" at commas (empty items kept, so "a,,b" can be reported).
std::vector<std::string> SplitList(const std::string& text, char separator = ',');


// Evaluates a scenario for output. Returns kExitOk, or kExitInvalid after one line naming the input when the
// scenario cannot be evaluated or a figure of its result is not finite (no output may hold NaN or infinity).
int EvaluateForOutput(const std::string& name, const Scenario& s, Result* r);

// A label for a scenario in comparisons: its name, else the file's base name without ".json".
std::string ScenarioLabel(const Scenario& s, const std::string& path);

// Output formats.
enum class Format { kTable, kJson, kCsv };
// Parses --format (default table); allowed lists the accepted ones. Prints an error and returns false.
bool ParseFormat(const Args& args, const std::vector<Format>& allowed, Format* out);

// Aligned text table: first row is the header; numeric-looking cells are right-aligned.
class Table {
 public:
  void Row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void Rule() { rows_.push_back({}); }  // a horizontal line
  void RightAlignValues() { right_align_values_ = true; }  // every cell after the first column, not only numbers
  void Print(FILE* f) const;
  void PrintCsv(FILE* f) const;  // RFC 4180 quoting, rules skipped

 private:
  std::vector<std::vector<std::string>> rows_;
  bool right_align_values_ = false;
};

std::string CsvEscape(const std::string& cell);

// Human output in the current language (core/base/i18n.h): `text` padded with spaces to `columns` terminal columns
// (Hangul counts two).
std::string PadRight(const std::string& text, std::size_t columns);

}  // namespace gpucost::cli
