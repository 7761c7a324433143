// gpucost compare A.json B.json [...] [--format table|json|csv] — scenarios side by side.
//
// The table is the core's (documents/compare.h: CompareTable's rows, each cell as CompareCellOf writes it), the rows
// and cells the page's Compare view draws, so the two cannot differ; then the cheapest and fastest named (the page
// colours them) and where the money goes (every part that is non-zero in any scenario). Money is shown in the
// scenarios' display currency when they all share one, else in USD.
#include <cstdio>
#include <cstring>
#include <iterator>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "documents/compare.h"
#include "documents/compare_csv.h"
#include "documents/result_json.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/inference_json.h"
#include "documents/inference_views.h"
#include "documents/catalog.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kCompareOptions = {
    {"--format", true, "cli.opt.compare.format"},
    {"--sheet", false, "cli.opt.compare.sheet"},
    {"--serving-options", false, "cli.opt.compare.serving-options"},
};
constexpr std::size_t kMaxScenarios = 64;

// In the CLI's language; serving columns in serving words (issue 47): the lowest cost per request and the lowest
// P90 end-to-end latency (compare.h), not a job's cheapest and fastest.
std::string MarkText(const Comparison& m, std::size_t i, bool serving) {
  std::string text = m.cheapest == static_cast<int>(i) ? Tr(serving ? "msg.mark_cheapest_request" : "msg.mark_cheapest") : "";
  if (m.fastest == static_cast<int>(i))
    text += (text.empty() ? "" : ", ") + std::string(Tr(serving ? "msg.mark_lowest_latency" : "msg.mark_fastest"));
  return text.empty() ? "-" : text;
}

// A column's label in the CLI's language: its coded label where it has one (serving options, issue 47).
std::string Label(const CompareColumn& c) { return c.label_message.empty() ? c.label : c.label_message.Text(CurrentLanguage()); }

void PrintTable(const Comparison& marks) {
  const std::vector<CompareColumn>& cols = marks.columns;
  const char* cur = marks.currency;
  Table t;
  t.RightAlignValues();
  std::vector<std::string> row = {""};
  for (const CompareColumn& c : cols) row.push_back(Label(c));
  t.Row(row);
  t.Rule();
  // The core's table (documents/compare.h), the rows the page's Compare view draws, each cell as the core writes it
  // (a blocked column's money "not priced", issue 45), its ratio to the first column beside it.
  for (const CompareRow& r : CompareTable(marks)) {
    std::vector<std::string> cells = {Tr(r.key)};
    for (std::size_t i = 0; i < cols.size(); ++i) {
      const CompareCell cell = CompareCellOf(marks, r, i);
      cells.push_back(cell.ratio.empty() ? cell.text : cell.text + " " + cell.ratio);
    }
    t.Row(cells);
  }
  bool all_serving = !cols.empty();
  for (const CompareColumn& c : cols) all_serving = all_serving && c.result.inference.present;
  // The page colours the marked cells; the table names them.
  std::vector<std::string> best = {Tr("cli.cmp.best")};
  for (std::size_t i = 0; i < cols.size(); ++i) best.push_back(MarkText(marks, i, all_serving));
  t.Row(best);
  t.Rule();
  // Where the money goes: each column's parts (result.h), a blocked column's not priced.
  auto money = [&](const CompareColumn& c, double usd) {
    if (c.blocked) return std::string(Tr("cli.pricing.not_priced"));
    return FormatMoney(marks.Money(static_cast<std::size_t>(&c - cols.data()), usd), cur);
  };
  std::vector<int> order;  // a serving bill's parts in its own order (inference_json.h)
  if (all_serving) order.assign(std::begin(kInferencePartOrder), std::end(kInferencePartOrder));
  else for (int p = 0; p < kPartCount; ++p) order.push_back(p);
  for (int p : order) {
    bool used = false;
    for (const CompareColumn& c : cols) used = used || c.result.cost_usd.part[p] != 0;
    if (!used) continue;
    std::vector<std::string> cells = {PartLabelOf(cols[0].result, p)};
    for (const CompareColumn& c : cols) cells.push_back(money(c, c.result.cost_usd.part[p]));
    t.Row(cells);
  }
  std::printf("%s\n\n", TrFormat("cli.cmp.title", {cur}).c_str());
  t.Print(stdout);
  if (marks.cheapest_rate >= 0 && marks.cheapest >= 0 && marks.cheapest_rate != marks.cheapest)  // issue 29
    std::printf("%s\n", TrFormat(all_serving ? "compare.rate_not_outcome_serving" : "compare.rate_not_outcome",
                                 {Label(cols[static_cast<std::size_t>(marks.cheapest_rate)]),
                                  Label(cols[static_cast<std::size_t>(marks.cheapest)])}).c_str());
  for (std::size_t i = 0; i < cols.size(); ++i)
    for (int w = 0; w < cols[i].result.warnings.count; ++w)
      std::printf("%s  ! %s: %s\n", i == 0 && w == 0 ? ("\n" + std::string(Tr("eval.warnings")) + "\n").c_str() : "",
                  TerminalSafe(Label(cols[i])).c_str(), TerminalSafe(cols[i].result.warnings.Text(w, CurrentLanguage())).c_str());
}

// The provider comparison sheet (provider_sheet.h), as the page's Compare view shows it.
void PrintSheet(const Comparison& marks) {
  std::vector<Scenario> scenarios;
  for (const CompareColumn& c : marks.columns) scenarios.push_back(c.scenario);
  const ProviderSheetDoc doc = BuildProviderSheet(scenarios, CurrentLanguage());
  std::printf("\n%s\n", Tr("sheet.title"));
  Table t;
  std::vector<std::string> head = {""};
  for (const CompareColumn& c : marks.columns) head.push_back(Label(c));
  t.Row(head);
  t.Rule();
  for (const SheetRow& row : doc.rows) {
    std::vector<std::string> cells = {Tr(SheetLabelKey(row).c_str())};
    for (const std::string& v : row.values) cells.push_back(v.empty() ? Tr("sheet.ask") : v);
    t.Row(cells);
  }
  t.Rule();
  int security = 0;
  for (const SheetRow& row : doc.rows) security += row.group == SheetGroup::kSecurity;
  std::vector<std::string> open = {""};
  for (int n : doc.open_security_items) open.push_back(TrFormat("sheet.open_items", {std::to_string(n), std::to_string(security)}));
  t.Row(open);
  t.Print(stdout);
  std::printf("%s\n", Tr("sheet.domestic_note"));
}

// The comparison as one CSV (core/documents/compare_csv.h): the same bytes as the page's "Export CSV".
void PrintCsv(const Comparison& c) {
  const std::string csv = ComparisonCsv(c, CurrentLanguage());
  std::fwrite(csv.data(), 1, csv.size(), stdout);
}

void Print(const Comparison& c, Format format) {
  if (format == Format::kJson) std::printf("%s\n", CompareToJson(c).c_str());
  else if (format == Format::kCsv) PrintCsv(c);
  else PrintTable(c);
}

// gpucost compare --serving-options FILE: the serving options of one inference scenario (inference_views.h).
int RunServingOptions(const Args& args) {
  if (args.positional.size() != 1) {
    Error(Tr("cli.err.compare_serving_one"));
    return kExitInvalid;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  Scenario s;
  if (int rc = LoadScenario(args.positional[0], &s)) return rc;
  Comparison c;
  Message error;
  if (!ServingOptions(s, &c, &error)) {
    Error(InputName(args.positional[0]) + ": " + error.Text(CurrentLanguage()));
    return kExitInvalid;
  }
  Print(c, format);
  if (format == Format::kTable) {
    std::printf("\n%s\n", Tr("cli.cmp.prices"));
    if (!c.price_source.empty()) {
      const std::string source = c.price_source_message.empty() ? c.price_source : c.price_source_message.Text(CurrentLanguage());
      std::printf("  %s\n", TrFormat("cli.cmp.price_source", {TerminalSafe(source)}).c_str());
    }
    for (const CompareColumn& col : c.columns)
      std::printf("  %s: %s\n", TerminalSafe(Label(col)).c_str(),
                  TerminalSafe(col.note_message.empty() ? col.note : col.note_message.Text(CurrentLanguage())).c_str());
    std::printf("\n%s\n", Tr("serving.convention"));
  }
  return kExitOk;
}

}  // namespace

int RunCompare(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kCompareOptions, &args, "compare")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost compare A.json B.json [...] [--format table|json|csv] [--sheet]\n"
                       "       gpucost compare --serving-options INFERENCE.json [--format table|json|csv]",
               "cli.help.compare", kCompareOptions);
    return kExitOk;
  }
  if (args.Has("--serving-options")) return RunServingOptions(args);
  if (args.positional.empty() || args.positional.size() > kMaxScenarios) {
    Error(TrFormat("cli.err.compare_count", {std::to_string(kMaxScenarios)}));
    return kExitInvalid;
  }
  if (!StdinAtMostOnce(args.positional, "compare")) return kExitInvalid;
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  std::vector<CompareColumn> cols(args.positional.size());
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const std::string& path = args.positional[i];
    cols[i].file = InputName(path);
    if (int rc = LoadScenario(path, &cols[i].scenario)) return rc;
    if (int rc = EvaluateForOutput(InputName(path), cols[i].scenario, &cols[i].result)) return rc;
    cols[i].label = ScenarioLabel(cols[i].scenario, path);
  }
  const Comparison c = CompareScenarios(std::move(cols));
  Print(c, format);
  if (format == Format::kTable && args.Has("--sheet")) PrintSheet(c);
  return kExitOk;
}

}  // namespace gpucost::cli
