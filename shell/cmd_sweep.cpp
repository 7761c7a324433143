// gpucost sweep FILE|- --param PATH (--values a,b,c | --from A --to B --steps N [--log]) [--deadline H]
//               [--format table|json|csv]
// gpucost sweep FILE|- --gpus [--from N --to M] [--per-doubling K] [--budget USD] [--deadline H]
//               [--weak-scaling] [--format table|json|csv]       the GPU-count sweep of core/explore/sweep.h
//
// Evaluates the scenario once per value of one field (any number, integer, enum or bool of the field table)
// and prints cost, time and goodput per point, marking the cheapest, the fastest and, with --deadline, the
// cheapest that finishes within the deadline. Integer fields round range points to whole numbers (duplicates
// dropped). Every point is validated like a scenario file: an out-of-range value is an input error (exit 2).
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "documents/sweep_json.h"
#include "documents/open.h"
#include "cli.h"
#include "documents/result_json.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "base/i18n.h"
#include "base/numeric.h"
#include "documents/inference_views.h"
#include "scenario/json_io.h"
#include "scenario/quantity.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kSweepOptions = {
    {"--param", true, "cli.opt.sweep.param"},
    {"--values", true, "cli.opt.sweep.values"},
    {"--from", true, "cli.opt.sweep.from"},
    {"--to", true, "cli.opt.sweep.to"},
    {"--steps", true, "cli.opt.sweep.steps"},
    {"--log", false, "cli.opt.sweep.log"},
    {"--deadline", true, "cli.opt.sweep.deadline"},
    {"--gpus", false, "cli.opt.sweep.gpus"},
    {"--per-doubling", true, "cli.opt.sweep.per-doubling"},
    {"--budget", true, "cli.opt.sweep.budget"},
    {"--weak-scaling", false, "cli.opt.sweep.weak-scaling"},
    {"--format", true, "cli.opt.sweep.format"},
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
  return ParseQuantity(item, v, FieldShownAsPercent(f)).empty();  // "10%" for a fraction
}

bool ParseOption(const Args& args, const char* name, double* v) {
  if (ParseNumber(args.Get(name), v)) return true;
  Error(TrFormat("cli.err.sweep_option_number", {name, args.Get(name).substr(0, 40)}));
  return false;
}

// The values to evaluate, from --values or --from/--to/--steps. Prints one error line and returns false.
bool SweepValues(const Args& args, const FieldSpec& f, std::vector<double>* values) {
  const std::string range = RangeText(f, CurrentLanguage());
  if (args.Has("--values") == args.Has("--from") || args.Has("--from") != args.Has("--to")) {
    Error(Tr("cli.err.sweep_values_or_range"));
    return false;
  }
  if (args.Has("--values")) {
    const std::vector<std::string> items = SplitList(args.Get("--values"));
    if (items.size() > kMaxPoints) return Error(TrFormat("cli.err.sweep_values_max", {std::to_string(kMaxPoints)})), false;
    for (const std::string& item : items) {
      double v = 0;
      if (!ParseItem(f, item, &v)) {
        Error(TrFormat("cli.err.sweep_value_bad", {item.substr(0, 40), f.path, range}));
        return false;
      }
      values->push_back(v);
    }
    return true;
  }
  if (f.kind != FieldKind::kNumber && f.kind != FieldKind::kInteger) {
    Error(TrFormat("cli.err.sweep_not_numeric", {f.path, range}));
    return false;
  }
  double from = 0, to = 0, steps = 5;
  if (!ParseOption(args, "--from", &from) || !ParseOption(args, "--to", &to)) return false;
  if (args.Has("--steps") && !ParseOption(args, "--steps", &steps)) return false;
  if (steps < 1 || steps > kMaxPoints || steps != std::floor(steps)) {
    OptionRangeError("sweep", "--steps", IntegerRange("1", std::to_string(kMaxPoints)), args.Get("--steps"));
    return false;
  }
  const bool log = args.Has("--log");
  if (log && !(from > 0 && to > 0)) return Error(Tr("cli.err.sweep_log")), false;
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
      Error(where + ": " + TrFormat("fmt.must_be", {RangeText(f, CurrentLanguage())}));
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

std::string MarkText(const Marks& m, long i, Lang lang = Lang::kEn) {
  std::string text;
  for (auto [at, key] : {std::pair{m.cheapest, "msg.mark_cheapest"}, {m.fastest, "msg.mark_fastest"},
                         {m.within_deadline, "msg.mark_cheapest_deadline"}})
    if (at == i) text += (text.empty() ? "" : ", ") + std::string(Tr(lang, key));
  return text;
}

void PrintTable(const FieldSpec& f, const std::vector<Point>& points, const Marks& m, double deadline) {
  const char* cur = points[0].scenario.pricing.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD";
  Table t;
  t.Row({f.path, Tr("cli.sweep.col_cost"), Tr("cli.sweep.col_vs_first"), Tr("cli.sweep.col_time"), Tr("cli.sweep.col_goodput"),
         Tr("cli.sweep.col_gpu_hours"), Tr("cli.sweep.col_interruptions"), Tr("cli.sweep.col_ckpt"), Tr("cli.sweep.col_best")});
  t.Rule();
  const double first = points[0].result.expected_usd;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Result& r = points[i].result;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", first > 0 ? r.expected_usd / first : 0.0);
    t.Row({ValueText(f, points[i].value), FormatMoney(r.expected_usd * r.display_per_usd, cur),
           first > 0 ? ratio : "-", FormatDuration(r.expected_hours), FormatPercent(r.goodput),
           FormatCount(r.billed_gpu_hours), FormatNumber(r.expected_interruptions, 3),
           FormatNumber(r.checkpoint_interval_minutes, 3), MarkText(m, static_cast<long>(i), CurrentLanguage())});
  }
  std::printf("%s\n\n", TrFormat("cli.sweep.title", {f.path, std::to_string(points.size()), cur}).c_str());
  t.Print(stdout);
  if (deadline > 0 && m.within_deadline < 0)
    std::printf("%s\n", TrFormat("cli.sweep.none_in_deadline", {FormatDuration(deadline)}).c_str());
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

// --gpus: options of the GPU-count sweep. Prints one error line and returns false.
bool GpuSweepOptions(const Args& args, double deadline, SweepOptions* o) {
  for (const char* other : {"--param", "--values", "--steps", "--log"})
    if (args.Has(other)) return Error(TrFormat("cli.err.sweep_gpus_not", {other})), false;
  double from = 0, to = 0, per_doubling = 2, budget = 0;
  if (args.Has("--from") && !ParseOption(args, "--from", &from)) return false;
  if (args.Has("--to") && !ParseOption(args, "--to", &to)) return false;
  if (args.Has("--per-doubling") && !ParseOption(args, "--per-doubling", &per_doubling)) return false;
  if (args.Has("--budget") && !ParseOption(args, "--budget", &budget)) return false;
  const auto whole = [](double v, double lo, double hi) { return v == std::floor(v) && v >= lo && v <= hi; };
  if ((args.Has("--from") && !whole(from, 1, 1e7)) || (args.Has("--to") && !whole(to, 1, 1e7)) ||
      (from > 0 && to > 0 && from > to))
    return Error(Tr("cli.sweep.from_to")), false;
  if (!whole(per_doubling, 1, 16)) return OptionRangeError("sweep", "--per-doubling", IntegerRange("1", "16"), args.Get("--per-doubling")), false;
  if (args.Has("--budget") && !(budget > 0)) return Error(Tr("cli.sweep.budget")), false;
  o->min_gpus = static_cast<std::int64_t>(from);
  o->max_gpus = static_cast<std::int64_t>(to);
  o->points_per_doubling = static_cast<int>(per_doubling);
  o->budget_usd = budget;
  o->deadline_hours = deadline;
  o->batch_grows_with_gpus = args.Has("--weak-scaling");
  return true;
}

void PrintGpuSweep(const SweepOptions& o, const SweepResult& r, Format format) {
  if (format == Format::kJson) return void(std::printf("%s\n", SweepToJson(o, r).c_str()));
  const auto fin = [](double v) { return std::isfinite(v) ? v : 0.0; };  // infeasible points hold 0
  const auto num = [&](double v) { return nlohmann::json(fin(v)).dump(); };
  Table t;
  if (format == Format::kTable) {
    t.Row({Tr("cli.sweep.col_gpus"), "DP", Tr("cli.sweep.col_cost"), Tr("cli.sweep.col_time"), Tr("cli.sweep.col_goodput"), "MFU",
           Tr("cli.sweep.col_interruptions"), Tr("cli.sweep.col_memory"), Tr("cli.sweep.col_best_why")});
    t.Rule();
  } else {
    t.Row({"gpus", "data_parallel", "global_batch", "feasible", "expected_usd", "expected_hours", "goodput", "mfu",
           "mfu_source", "expected_interruptions", "memory_total_gb", "marks", "infeasible_reason", "expected_cost"});
  }
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPoint& p = r.points[i];
    const std::string marks = SweepMarks(r, static_cast<int>(i));  // English in the CSV, as in the JSON
    if (format == Format::kTable)
      t.Row({std::to_string(p.gpus), std::to_string(p.data_parallel),
             p.feasible ? FormatMoney(p.expected_cost, r.currency) : "-",
             p.feasible ? FormatDuration(p.expected_hours) : "-", p.feasible ? FormatPercent(p.goodput) : "-",
             p.feasible ? FormatPercent(p.mfu) + (p.scaling_extrapolated ? "*" : "") : "-",
             p.feasible ? FormatNumber(p.expected_interruptions, 3) : "-",
             p.memory_known ? FormatNumber(p.memory_total_gb * 1e9 / kBytesPerGib, 3) : "-", p.feasible ? SweepMarks(r, static_cast<int>(i), CurrentLanguage()) : std::string(Tr(p.infeasible_key))});
    else
      t.Row({std::to_string(p.gpus), std::to_string(p.data_parallel), std::to_string(p.global_batch),
             p.feasible ? "true" : "false", num(p.expected_usd), num(p.expected_hours), num(p.goodput),
             num(p.mfu), MfuSourceName(p.mfu_source), num(p.expected_interruptions), num(p.memory_total_gb), marks,
             p.infeasible_reason, num(p.expected_cost)});
  }
  if (format == Format::kCsv) return t.PrintCsv(stdout);
  std::printf("%s\n\n", TrFormat("cli.sweep.gpu_title", {r.currency}).c_str());
  t.Print(stdout);
  if (r.single_node_mfu > 0)
    std::printf("%s\n", TrFormat("cli.sweep.mfu_scaled", {FormatPercent(r.single_node_mfu)}).c_str());
  if (r.flat_mfu)
    std::printf("%s\n", Tr("cli.sweep.mfu_flat"));
  std::printf("%s\n", TrFormat("cli.sweep.sweet_spot", {FormatNumber(kSweetSpotSlack * 100, 3)}).c_str());
}

int RunGpuSweep(const Args& args, double deadline, Format format) {
  SweepOptions options;
  if (!GpuSweepOptions(args, deadline, &options)) return kExitInvalid;
  Scenario base;
  if (int rc = LoadScenario(args.positional[0], &base)) return rc;
  if (Kind(base) == WorkloadKind::kInference)  // serving sizes its GPUs for the load (inference_views.h)
    return Error(InputName(args.positional[0]) + ": " + Tr(ServingRefusalKey(ServingQuestion::kGpuSweep))), kExitInvalid;
  const SweepResult r = SweepGpuCount(base, options);
  if (r.points.empty()) return Error(Tr("cli.err.sweep_no_count")), kExitInvalid;
  PrintGpuSweep(options, r, format);
  return kExitOk;
}

}  // namespace

int RunSweep(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kSweepOptions, &args, "sweep")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout,
               "gpucost sweep FILE|- --param PATH (--values a,b,c | --from A --to B [--steps N] [--log])\n"
               "                     [--deadline HOURS] [--format table|json|csv]\n"
               "       gpucost sweep FILE|- --gpus [--from N --to M] [--per-doubling K] [--budget USD]\n"
               "                     [--deadline HOURS] [--weak-scaling] [--format table|json|csv]",
               "cli.help.sweep", kSweepOptions);
    return kExitOk;
  }
  if (args.positional.size() != 1) return Error(TrFormat("cli.err.one_scenario", {"sweep"})), kExitInvalid;
  double deadline = 0;
  if (args.Has("--deadline") && (!ParseOption(args, "--deadline", &deadline) || deadline <= 0))
    return Error(Tr("cli.err.sweep_deadline")), kExitInvalid;
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  if (args.Has("--gpus")) return RunGpuSweep(args, deadline, format);
  for (const char* gpus_only : {"--per-doubling", "--budget", "--weak-scaling"})
    if (args.Has(gpus_only)) return Error(TrFormat("cli.err.sweep_gpus_only", {gpus_only})), kExitInvalid;
  const FieldSpec* f = args.Has("--param") ? FindField(args.Get("--param").c_str()) : nullptr;
  if (!f || f->kind == FieldKind::kText) {
    Error(args.Has("--param") ? TrFormat("cli.err.sweep_param_bad", {args.Get("--param").substr(0, 60)}) : std::string(Tr("cli.err.sweep_param_missing")));
    return kExitInvalid;
  }
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
