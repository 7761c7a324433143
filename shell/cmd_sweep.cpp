// gpucost sweep FILE|- --param PATH (--values a,b,c | --from A --to B --steps N [--log]) [--deadline H]
//               [--format table|json|csv]
//
// Evaluates the scenario once per value of one field (any number, integer, enum or bool of the field table)
// and prints cost, time and goodput per point, marking the cheapest, the fastest and, with --deadline, the
// cheapest that finishes within the deadline. Integer fields round range points to whole numbers (duplicates
// dropped). Every point is validated like a scenario file: an out-of-range value is an input error (exit 2).
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "evaluate.h"
#include "fields.h"
#include "format.h"
#include "json_io.h"
#include "result_json.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kOptions = {
    {"--param", true, "the field to vary, e.g. cluster.gpus (list: gpucost catalog fields)"},
    {"--values", true, "comma-separated values, e.g. 64,128,256 (enums by name, bools true/false)"},
    {"--from", true, "first value of a range"},
    {"--to", true, "last value of a range"},
    {"--steps", true, "points in the range, 1 to 1000 (default 5)"},
    {"--log", false, "space the range geometrically (from and to must be > 0)"},
    {"--deadline", true, "hours: also mark the cheapest point expected to finish within it"},
    {"--format", true, "table (default), json or csv"},
};
constexpr std::size_t kMaxPoints = 1000;

struct Point {
  double value = 0;
  Scenario scenario;
  Result result;
};

struct Marks {
  long cheapest = -1, fastest = -1, within_deadline = -1;
};

std::string ValueText(const FieldSpec& f, double v) {
  if (f.kind == FieldKind::kEnum) return f.choices[static_cast<int>(v)];
  if (f.kind == FieldKind::kBool) return v != 0 ? "true" : "false";
  if (f.is_auto && v == 0) return "auto";
  return FormatNumber(v, 8);
}

nlohmann::json ValueJson(const FieldSpec& f, double v) {
  if (f.kind == FieldKind::kEnum) return f.choices[static_cast<int>(v)];
  if (f.kind == FieldKind::kBool) return v != 0;
  if (f.kind == FieldKind::kInteger) return static_cast<std::int64_t>(v);
  return v;
}

// One --values item: a number, an enum name or true/false.
bool ParseItem(const FieldSpec& f, const std::string& item, double* v) {
  if (f.kind == FieldKind::kEnum) {
    for (int i = 0; f.choices[i]; ++i)
      if (item == f.choices[i]) return *v = i, true;
    return false;
  }
  if (f.kind == FieldKind::kBool) {
    if (item == "true" || item == "false") return *v = item == "true", true;
    return false;
  }
  return ParseNumber(item, v);
}

bool ParseOption(const Args& args, const char* name, double* v) {
  if (ParseNumber(args.Get(name), v)) return true;
  Error(std::string("sweep: ") + name + ": expected a number, got \"" + args.Get(name).substr(0, 40) + "\"");
  return false;
}

// The values to evaluate, from --values or --from/--to/--steps. Prints one error line and returns false.
bool SweepValues(const Args& args, const FieldSpec& f, std::vector<double>* values) {
  char range[256];
  DescribeRange(f, range, sizeof range);
  if (args.Has("--values") == args.Has("--from") || args.Has("--from") != args.Has("--to")) {
    Error("sweep: give either --values a,b,c or --from A --to B [--steps N]");
    return false;
  }
  if (args.Has("--values")) {
    const std::vector<std::string> items = SplitList(args.Get("--values"));
    if (items.size() > kMaxPoints) return Error("sweep: --values: at most 1000 values"), false;
    for (const std::string& item : items) {
      double v = 0;
      if (!ParseItem(f, item, &v)) {
        Error("sweep: --values: \"" + item.substr(0, 40) + "\" is not a value of " + f.path + "; allowed: " + range);
        return false;
      }
      values->push_back(v);
    }
    return true;
  }
  if (f.kind != FieldKind::kNumber && f.kind != FieldKind::kInteger) {
    Error(std::string("sweep: ") + f.path + " is not numeric; list its values with --values (" + range + ")");
    return false;
  }
  double from = 0, to = 0, steps = 5;
  if (!ParseOption(args, "--from", &from) || !ParseOption(args, "--to", &to)) return false;
  if (args.Has("--steps") && !ParseOption(args, "--steps", &steps)) return false;
  if (steps < 1 || steps > kMaxPoints || steps != std::floor(steps)) {
    Error("sweep: --steps: must be an integer from 1 to 1000");
    return false;
  }
  const bool log = args.Has("--log");
  if (log && !(from > 0 && to > 0)) return Error("sweep: --log: --from and --to must be > 0"), false;
  const int n = static_cast<int>(steps);
  for (int i = 0; i < n; ++i) {
    const double t = n == 1 ? 0.0 : static_cast<double>(i) / (n - 1);
    double v = log ? from * std::pow(to / from, t) : from + (to - from) * t;
    if (i == n - 1) v = to;  // exact end points
    if (f.kind == FieldKind::kInteger) v = std::round(v);
    if (values->empty() || values->back() != v) values->push_back(v);
  }
  return true;
}

// Builds and evaluates every point. Returns an exit code (one error line printed on failure).
int EvaluatePoints(const std::string& name, const Scenario& base, const FieldSpec& f,
                   const std::vector<double>& values, std::vector<Point>* points) {
  for (double v : values) {
    const std::string where = std::string("sweep: ") + f.path + " = " + ValueText(f, v);
    if (!(f.is_auto && v == 0) && !ValueInRange(f, v)) {
      char range[256];
      DescribeRange(f, range, sizeof range);
      Error(where + ": must be " + range);
      return kExitInvalid;
    }
    Point p;
    p.value = v;
    p.scenario = base;
    SetNumber(p.scenario, f, v);
    const std::vector<InputError> errors = ValidateScenario(p.scenario);
    if (!errors.empty()) {
      Error(where + ": " + errors.front().Text());
      return kExitInvalid;
    }
    if (int rc = EvaluateForOutput(name + " (" + where.substr(7) + ")", p.scenario, &p.result)) return rc;
    points->push_back(p);
  }
  return kExitOk;
}

Marks FindMarks(const std::vector<Point>& points, double deadline_hours) {
  Marks m;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Result& r = points[i].result;
    const long at = static_cast<long>(i);
    if (m.cheapest < 0 || r.expected_usd < points[m.cheapest].result.expected_usd) m.cheapest = at;
    if (m.fastest < 0 || r.expected_hours < points[m.fastest].result.expected_hours) m.fastest = at;
    if (deadline_hours > 0 && r.expected_hours <= deadline_hours &&
        (m.within_deadline < 0 || r.expected_usd < points[m.within_deadline].result.expected_usd))
      m.within_deadline = at;
  }
  return m;
}

std::string MarkText(const Marks& m, long i) {
  std::string text;
  for (auto [at, label] : {std::pair{m.cheapest, "cheapest"}, {m.fastest, "fastest"},
                           {m.within_deadline, "cheapest within deadline"}})
    if (at == i) text += (text.empty() ? "" : ", ") + std::string(label);
  return text;
}

void PrintTable(const FieldSpec& f, const std::vector<Point>& points, const Marks& m, double deadline) {
  const char* cur = points[0].scenario.pricing.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD";
  Table t;
  t.Row({f.path, "cost", "vs first", "time", "goodput", "GPU-hours", "interruptions", "ckpt min", "best"});
  t.Rule();
  const double first = points[0].result.expected_usd;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Result& r = points[i].result;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", first > 0 ? r.expected_usd / first : 0.0);
    t.Row({ValueText(f, points[i].value), FormatMoney(r.expected_usd * r.display_per_usd, cur),
           first > 0 ? ratio : "-", FormatDuration(r.expected_hours), FormatPercent(r.goodput),
           FormatCount(r.billed_gpu_hours), FormatNumber(r.expected_interruptions, 3),
           FormatNumber(r.checkpoint_interval_minutes, 3), MarkText(m, static_cast<long>(i))});
  }
  std::printf("Sweep of %s (%zu points; cost per completed job in %s)\n\n", f.path, points.size(), cur);
  t.Print(stdout);
  if (deadline > 0 && m.within_deadline < 0)
    std::printf("\nNo point is expected to finish within %s.\n", FormatDuration(deadline).c_str());
}

void PrintData(const FieldSpec& f, const std::vector<Point>& points, const Marks& m, Format format) {
  const auto num = [](double v) { return nlohmann::json(v).dump(); };
  nlohmann::json list = nlohmann::json::array();
  Table t;
  t.Row({f.path, "expected_usd", "normal_run_usd", "expected_hours", "goodput", "billed_gpu_hours",
         "expected_interruptions", "checkpoint_interval_minutes", "cheapest", "fastest", "cheapest_within_deadline"});
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Result& r = points[i].result;
    const long at = static_cast<long>(i);
    const nlohmann::json value = ValueJson(f, points[i].value);
    if (format == Format::kJson)
      list.push_back({{"value", value}, {"cheapest", m.cheapest == at}, {"fastest", m.fastest == at},
                      {"cheapest_within_deadline", m.within_deadline == at},
                      {"result", nlohmann::json::parse(ResultToJson(points[i].scenario, r, -1))}});
    t.Row({value.is_string() ? value.get<std::string>() : value.dump(), num(r.expected_usd), num(r.normal_run_usd),
           num(r.expected_hours), num(r.goodput), num(r.billed_gpu_hours), num(r.expected_interruptions),
           num(r.checkpoint_interval_minutes), m.cheapest == at ? "true" : "false", m.fastest == at ? "true" : "false",
           m.within_deadline == at ? "true" : "false"});
  }
  if (format == Format::kCsv) {
    t.PrintCsv(stdout);
    return;
  }
  std::printf("%s\n", nlohmann::json({{"schema", "gpucost/sweep@1"}, {"param", f.path}, {"points", list}}).dump(2).c_str());
}

}  // namespace

int RunSweep(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kOptions, &args, "sweep")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout,
               "gpucost sweep FILE|- --param PATH (--values a,b,c | --from A --to B [--steps N] [--log])\n"
               "                     [--deadline HOURS] [--format table|json|csv]",
               "Evaluates a scenario for each value of one field and marks the cheapest and the fastest point\n"
               "(and, with --deadline, the cheapest expected to finish in time). Integer fields round range\n"
               "points to whole numbers. Example: gpucost sweep job.json --param cluster.gpus --from 256 --to 4096 "
               "--steps 5 --log",
               kOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) return Error("sweep: expected one scenario file (or - for standard input)"), kExitInvalid;
  const FieldSpec* f = args.Has("--param") ? FindField(args.Get("--param").c_str()) : nullptr;
  if (!f || f->kind == FieldKind::kText) {
    Error("sweep: --param: " + (args.Has("--param") ? "\"" + args.Get("--param").substr(0, 60) + "\" is not a numeric field"
                                                    : std::string("missing")) + " (fields: gpucost catalog fields)");
    return kExitInvalid;
  }
  double deadline = 0;
  if (args.Has("--deadline") && (!ParseOption(args, "--deadline", &deadline) || deadline <= 0))
    return Error("sweep: --deadline: must be a number of hours > 0"), kExitInvalid;
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  std::vector<double> values;
  if (!SweepValues(args, *f, &values)) return kExitInvalid;
  Scenario base;
  if (int rc = LoadScenario(args.positional[0], &base)) return rc;
  std::vector<Point> points;
  if (int rc = EvaluatePoints(InputName(args.positional[0]), base, *f, values, &points)) return rc;
  const Marks marks = FindMarks(points, deadline);
  if (format == Format::kTable) PrintTable(*f, points, marks, deadline);
  else PrintData(*f, points, marks, format);
  return kExitOk;
}

}  // namespace gpucost::cli
