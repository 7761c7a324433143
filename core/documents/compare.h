// compare.h — scenarios side by side (`gpucost compare`, the page's Compare view): every column is one
// scenario and its Evaluate() result; the cheapest and the fastest are marked (when every column is an
// inference scenario: by the binding latency, BindingLatency), cost and time given as ratios to the first column.
// Money is in the columns' currency when they all share one, else in USD.
#pragma once
#include <string>
#include <vector>

#include "base/message.h"
#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

constexpr const char* kCompareSchema = "gpucost/compare@1";

struct CompareColumn {
  std::string file;    // where the scenario came from ("" for the page's pinned scenarios)
  std::string label;   // its name, else a short description
  Scenario scenario;
  Result result;       // Evaluate(scenario); result.ok false columns are never marked
  std::string note;    // where the column's prices come from (serving options, inference_views.h); "" if not said
  // The label and the note as keys and parameters (serving options, issue 47): rendered in the reader's language
  // where shown (the CLI's table, the page's column); label and note above are their English text.
  Message label_message, note_message;
  // Blocked (job/evaluate.h FindBlockingState: cannot run or never finishes): never priced (issue 45's refusal law),
  // so its money figures are not applicable and it is never cheapest or fastest. Set by CompareScenarios.
  bool blocked = false;
};

struct Comparison {
  std::vector<CompareColumn> columns;
  std::string price_source;  // where every column's prices come from, when one source prices them all (serving
                             // options, inference_views.h): "" when not said; its English text of:
  Message price_source_message;  // the same as a key and parameters, rendered in the reader's language where shown
  int cheapest = -1, fastest = -1;  // cheapest: the lowest total, the delay cost included (capacity.h)
  int cheapest_rate = -1;            // issue 29: the lowest price per GPU-hour
  const char* currency = "USD";  // the columns' display currency when shared, else USD
  // Money of column i in the comparison's currency.
  double Money(std::size_t i, double usd) const;
};

// Marks the cheapest and fastest evaluated columns and picks the currency.
Comparison CompareScenarios(std::vector<CompareColumn> columns);

// Issue 45: how a serving column's speed is ranked: by its binding latency, the latency its target binds on, as a
// share of the target (TTFT or TPOT at inference.slo.percentile, whichever is nearer its target or over it), when
// every column has a target; else its P90 end-to-end latency in ms. Lower is faster. (A split with the better end-
// to-end latency but a worse TTFT under a TTFT target was marked fastest.)
double BindingLatency(const CompareColumn& column, bool by_target);

// One row of the comparison table (the page's Compare view, the document's "table"): a figure of each column in
// the model's unit (USD, hours, ms, a fraction, a count, 1/0 for yes/no), NaN where it does not apply (a serving
// row of a training column) or the column is invalid; the column marked on the row (-1: none); each column's
// ratio to the first (NaN: none, e.g. the first column itself, or a yes/no row).
enum class CompareFigure { kMoney, kSmallMoney, kHours, kMilliseconds, kFraction, kCount, kYesNo };
enum class CompareMark { kNone, kCheapest, kFastest };
struct CompareRow {
  const char* key;        // its name in the document and its label's key in the string tables ("eval.cost_per_job")
  CompareFigure figure;
  CompareMark mark = CompareMark::kNone;
  int marked = -1;        // the column the mark is on
  std::vector<double> values, vs_first;
};

// The rows in the page's order. Cost per job carries the comparison's cheapest mark, expected time its fastest
// (a training or mixed comparison); the serving rows mark their lowest figure. A comparison of serving columns
// only drops the training rows (goodput, cost per billion tokens, GPUs, MFU) and names cost and time as the
// period's; any serving column adds the serving rows.
std::vector<CompareRow> CompareTable(const Comparison& c);
// The figure kind's name in the document ("money", "hours", ...).
const char* CompareFigureName(CompareFigure f);

// A cell of CompareTable as the views write it (the page's Compare view draws it, `gpucost compare`'s table prints
// it), in the current language: the figure (money in the comparison's currency), else "not priced" for a blocked
// column's money (issue 45's refusal law), "-" where the row does not apply, "invalid" for a column not evaluated
// (those muted); and its ratio to the first column ("x1.05"), "" when there is none.
struct CompareCell {
  std::string text, ratio;
  bool muted = false;
};
CompareCell CompareCellOf(const Comparison& c, const CompareRow& row, std::size_t column);

// The document of `gpucost compare --format json` and the page's view("compare"). An inference column also
// carries "serving": cost per request and per million output tokens (in the comparison's currency), TTFT and
// TPOT at P90, whether the latency target is met, and its GPUs. "table" is CompareTable's rows (money in the
// comparison's currency), what the page's table shows.
std::string CompareToJson(const Comparison& c, int indent = 2);

}  // namespace gpucost
