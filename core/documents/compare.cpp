// compare.cpp — scenarios side by side (see compare.h).
#include "documents/compare.h"
#include "base/asserts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "serving/inference.h"
#include "base/format.h"
#include "base/i18n.h"
#include "base/json_number.h"
#include "documents/result_json.h"
#include "job/evaluate.h"

namespace gpucost {

double Comparison::Money(std::size_t i, double usd) const {
  return std::strcmp(currency, "USD") == 0 ? usd : usd * columns[i].result.display_per_usd;
}

double BindingLatency(const CompareColumn& col, bool by_target) {
  const InferenceSloInputs& slo = col.scenario.inference.slo;
  const InferenceResult& ir = col.result.inference;
  if (!by_target) return ir.e2e_ms.p90;
  double worst = 0;
  if (slo.ttft_ms > 0) worst = std::max(worst, ir.ttft_ms.At(slo.percentile) / slo.ttft_ms);
  if (slo.tpot_ms > 0) worst = std::max(worst, ir.tpot_ms.At(slo.percentile) / slo.tpot_ms);
  return worst;
}

Comparison CompareScenarios(std::vector<CompareColumn> columns) {
  Comparison c;
  c.columns = std::move(columns);
  bool serving = !c.columns.empty();  // every column an inference scenario: fastest by the binding latency
  bool targets = true;
  for (const CompareColumn& col : c.columns) {
    serving = serving && col.result.inference.present;
    targets = targets && (col.scenario.inference.slo.ttft_ms > 0 || col.scenario.inference.slo.tpot_ms > 0);
  }
  for (CompareColumn& col : c.columns) col.blocked = col.result.ok && FindBlockingState(col.scenario, col.result).blocked;
  std::vector<double> speed(c.columns.size());
  for (std::size_t i = 0; i < c.columns.size(); ++i)
    speed[i] = serving ? BindingLatency(c.columns[i], targets) : c.columns[i].result.expected_hours;
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    const Result& r = c.columns[i].result;
    if (i == 0) c.currency = r.display_currency;
    if (std::strcmp(r.display_currency, c.currency) != 0) c.currency = "USD";
    if (!r.ok || c.columns[i].blocked) continue;
    if (c.cheapest < 0 || r.expected_usd < c.columns[c.cheapest].result.expected_usd) c.cheapest = static_cast<int>(i);
    if (c.fastest < 0 || speed[i] < speed[static_cast<std::size_t>(c.fastest)]) c.fastest = static_cast<int>(i);
    if (c.cheapest_rate < 0 || r.usd_per_gpu_hour < c.columns[c.cheapest_rate].result.usd_per_gpu_hour)
      c.cheapest_rate = static_cast<int>(i);
  }
  // A time several columns share is no column's: none is marked fastest (2026-12-07: on-demand, reserved and owned
  // all took 387 days, and the first was marked "fastest").
  if (c.fastest >= 0)
    for (std::size_t i = 0; i < c.columns.size(); ++i) {
      const CompareColumn& col = c.columns[i];
      const double best = speed[static_cast<std::size_t>(c.fastest)];
      if (static_cast<int>(i) != c.fastest && col.result.ok && !col.blocked &&
          std::fabs(speed[i] - best) <= 1e-9 * std::fabs(best)) {
        c.fastest = -1;
        break;
      }
    }
  for (const CompareColumn& col : c.columns)
    GPUCOST_ASSERT(!col.result.ok || col.blocked || (c.cheapest >= 0 && c.columns[c.cheapest].result.expected_usd <= col.result.expected_usd),
                   "the column marked cheapest has the lowest total");
  return c;
}

namespace {

constexpr double kNotApplicable = std::numeric_limits<double>::quiet_NaN();

// Which column a row marks: its lowest figure, or the comparison's own cheapest or fastest (CompareScenarios).
enum class MarkedBy { kLowest, kComparisonCheapest, kComparisonFastest };

struct RowSpec {
  const char* key;
  CompareFigure figure;
  CompareMark mark;
  bool serving;        // a serving row: NaN in a training column
  bool training_only;  // dropped when every column is a serving one
  double (*value)(const CompareColumn&);
  MarkedBy marked_by = MarkedBy::kLowest;
  const char* serving_key = nullptr;  // its label when every column serves (the period's cost and time)
};

double ServingOnly(const CompareColumn& c, double v) { return c.result.inference.present ? v : kNotApplicable; }

const RowSpec kRows[] = {
    {"eval.cost_per_job", CompareFigure::kMoney, CompareMark::kCheapest, false, false, [](const CompareColumn& c) { return c.result.expected_usd; },
     MarkedBy::kComparisonCheapest, "serving.cost_of_period"},
    {"eval.expected_time", CompareFigure::kHours, CompareMark::kFastest, false, false, [](const CompareColumn& c) { return c.result.expected_hours; },
     MarkedBy::kComparisonFastest, "serving.period"},
    {"eval.goodput", CompareFigure::kFraction, CompareMark::kNone, false, true, [](const CompareColumn& c) { return c.result.goodput; }},
    {"eval.cost_per_billion_tokens", CompareFigure::kMoney, CompareMark::kNone, false, true, [](const CompareColumn& c) { return c.result.usd_per_billion_tokens; }},
    {"compare.normal_cost", CompareFigure::kMoney, CompareMark::kNone, false, false, [](const CompareColumn& c) { return c.result.normal_run_usd; }},
    {"compare.normal_time", CompareFigure::kHours, CompareMark::kNone, false, false, [](const CompareColumn& c) { return c.result.normal_run_hours; }},
    {"compare.effective_price", CompareFigure::kMoney, CompareMark::kNone, false, false, [](const CompareColumn& c) { return c.result.usd_per_gpu_hour; }},
    {"eval.gpu_hours_billed", CompareFigure::kCount, CompareMark::kNone, false, false, [](const CompareColumn& c) { return c.result.billed_gpu_hours; }},
    {"compare.gpus", CompareFigure::kCount, CompareMark::kNone, false, true, [](const CompareColumn& c) { return static_cast<double>(c.scenario.cluster.gpus); }},
    {"eval.mfu", CompareFigure::kFraction, CompareMark::kNone, false, true, [](const CompareColumn& c) { return c.result.mfu; }},
    {"eval.interruptions", CompareFigure::kCount, CompareMark::kNone, false, false, [](const CompareColumn& c) { return c.result.expected_interruptions; }},
    {"serving.cost_per_request", CompareFigure::kSmallMoney, CompareMark::kCheapest, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, c.result.inference.usd_per_request); }},
    {"serving.per_m_output", CompareFigure::kSmallMoney, CompareMark::kCheapest, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, c.result.inference.usd_per_million_output_tokens); }},
    {"serving.per_m_output_all_in", CompareFigure::kSmallMoney, CompareMark::kCheapest, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, c.result.inference.usd_per_million_output_tokens_all_in); }},
    {"serving.ttft_p90", CompareFigure::kMilliseconds, CompareMark::kFastest, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, c.result.inference.ttft_ms.p90); }},
    {"serving.tpot_p90", CompareFigure::kMilliseconds, CompareMark::kFastest, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, c.result.inference.tpot_ms.p90); }},
    {"serving.slo_met", CompareFigure::kYesNo, CompareMark::kNone, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, c.result.inference.slo_met ? 1.0 : 0.0); }},
    {"serving.gpus", CompareFigure::kCount, CompareMark::kNone, true, false,
     [](const CompareColumn& c) { return ServingOnly(c, static_cast<double>(c.result.inference.gpus)); }},
};

}  // namespace

const char* CompareFigureName(CompareFigure f) {
  switch (f) {
    case CompareFigure::kMoney: return "money";
    case CompareFigure::kSmallMoney: return "small_money";
    case CompareFigure::kHours: return "hours";
    case CompareFigure::kMilliseconds: return "ms";
    case CompareFigure::kFraction: return "fraction";
    case CompareFigure::kCount: return "count";
    case CompareFigure::kYesNo: return "yes_no";
  }
  return "";
}

std::vector<CompareRow> CompareTable(const Comparison& c) {
  bool any_serving = false, all_serving = !c.columns.empty();
  for (const CompareColumn& col : c.columns) {
    any_serving = any_serving || col.result.inference.present;
    all_serving = all_serving && col.result.inference.present;
  }
  std::vector<CompareRow> rows;
  for (const RowSpec& spec : kRows) {
    if ((spec.serving && !any_serving) || (spec.training_only && all_serving)) continue;
    CompareRow row{spec.key, spec.figure, spec.mark, -1, {}, {}};
    // A serving-only comparison: its cost and time are of the period (or the batch job), not of a job.
    if (all_serving && spec.serving_key) row.key = spec.serving_key;
    const bool money = spec.figure == CompareFigure::kMoney || spec.figure == CompareFigure::kSmallMoney;
    for (const CompareColumn& col : c.columns)
      row.values.push_back(col.result.ok && !(money && col.blocked) ? spec.value(col) : kNotApplicable);
    if (spec.marked_by == MarkedBy::kComparisonCheapest) {
      row.marked = c.cheapest;
    } else if (spec.marked_by == MarkedBy::kComparisonFastest) {
      // The comparison's fastest is by P90 latency when every column serves: the period's row carries no mark.
      if (all_serving) row.mark = CompareMark::kNone;
      else row.marked = c.fastest;
    } else if (spec.mark != CompareMark::kNone) {
      for (std::size_t i = 0; i < row.values.size(); ++i)
        if (std::isfinite(row.values[i]) && (row.marked < 0 || row.values[i] < row.values[static_cast<std::size_t>(row.marked)]))
          row.marked = static_cast<int>(i);
    }
    const double first = row.values.empty() ? kNotApplicable : row.values[0];
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      const bool ratio = i > 0 && spec.figure != CompareFigure::kYesNo && std::isfinite(first) && first > 0 &&
                         std::isfinite(row.values[i]);
      row.vs_first.push_back(ratio ? row.values[i] / first : kNotApplicable);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

// One figure as the views write it; money is already in the comparison's currency.
std::string FigureText(const Comparison& c, CompareFigure figure, double v) {
  switch (figure) {
    case CompareFigure::kMoney: return FormatMoney(v, c.currency);
    case CompareFigure::kSmallMoney: return FormatSmallMoney(v, c.currency);
    case CompareFigure::kHours: return FormatDuration(v);
    case CompareFigure::kMilliseconds: return FormatDuration(v / 3.6e6);
    case CompareFigure::kFraction: return FormatPercent(v);
    case CompareFigure::kCount: return FormatCount(v);
    case CompareFigure::kYesNo: return Tr(v > 0 ? "serving.yes" : "serving.no");
  }
  return "";
}

}  // namespace

CompareCell CompareCellOf(const Comparison& c, const CompareRow& row, std::size_t i) {
  CompareCell cell;
  if (i >= c.columns.size() || i >= row.values.size() || !c.columns[i].result.ok) {
    cell.text = Tr("compare.invalid");
    cell.muted = true;
    return cell;
  }
  const bool money = row.figure == CompareFigure::kMoney || row.figure == CompareFigure::kSmallMoney;
  const double v = row.values[i];
  if (!std::isfinite(v)) {  // a serving row of a training column; a blocked column's money (issue 45: not priced)
    cell.text = money && c.columns[i].blocked ? Tr("compare.not_priced") : "-";
    cell.muted = true;
    return cell;
  }
  cell.text = FigureText(c, row.figure, money ? c.Money(i, v) : v);
  if (std::isfinite(row.vs_first[i])) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "x%.3g", row.vs_first[i]);
    cell.ratio = buf;
  }
  return cell;
}

std::string CompareToJson(const Comparison& c, int indent) {
  using nlohmann::json;
  json list = json::array();
  const Result* first = c.columns.empty() ? nullptr : &c.columns[0].result;
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    const CompareColumn& col = c.columns[i];
    const Result& r = col.result;
    const int at = static_cast<int>(i);
    json entry = {{"label", col.label}, {"cheapest", c.cheapest == at}, {"fastest", c.fastest == at},
                  {"expected_cost", col.blocked ? json(nullptr) : json(r.ok ? c.Money(i, r.expected_usd) : 0.0)},
                  {"result", json::parse(ResultToJson(col.scenario, r, -1))}};
    if (!col.file.empty()) entry["file"] = col.file;
    if (!col.note.empty()) entry["price_source"] = col.note;
    if (r.ok && r.inference.present) {
      const InferenceResult& ir = r.inference;
      entry["serving"] = {{"cost_per_request", c.Money(i, ir.usd_per_request)},
                          {"cost_per_million_output_tokens", c.Money(i, ir.usd_per_million_output_tokens)},
                          {"cost_per_million_output_tokens_all_in", c.Money(i, ir.usd_per_million_output_tokens_all_in)},
                          {"cost_per_million_input_tokens", c.Money(i, ir.usd_per_million_input_tokens)},
                          {"per_million_tokens_convention", kPerMillionTokensConvention},
                          {"tensor_parallel", {{"prefill", ir.prefill.tensor_parallel}, {"decode", ir.decode.tensor_parallel}}},
                          {"replicas", {{"prefill", ir.prefill.replicas}, {"decode", ir.decode.replicas}}},
                          {"ttft_ms_p90", ir.ttft_ms.p90}, {"tpot_ms_p90", ir.tpot_ms.p90},
                          {"slo_met", ir.slo_met}, {"gpus", ir.gpus}};
    }
    if (r.ok && first->ok && !col.blocked && !c.columns[0].blocked && first->expected_usd > 0) entry["cost_vs_first"] = r.expected_usd / first->expected_usd;
    if (r.ok && first->ok && first->expected_hours > 0) entry["time_vs_first"] = r.expected_hours / first->expected_hours;
    list.push_back(entry);
  }
  auto index = [](int i) { return i < 0 ? json(nullptr) : json(i); };
  json table = json::array();
  for (const CompareRow& row : CompareTable(c)) {
    const bool money = row.figure == CompareFigure::kMoney || row.figure == CompareFigure::kSmallMoney;
    json values = json::array(), ratios = json::array();
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      values.push_back(NumOrNull(money && std::isfinite(row.values[i]) ? c.Money(i, row.values[i]) : row.values[i]));
      ratios.push_back(NumOrNull(row.vs_first[i]));
    }
    static const char* const kMarks[] = {"none", "cheapest", "fastest"};
    table.push_back({{"key", row.key}, {"figure", CompareFigureName(row.figure)}, {"mark", kMarks[static_cast<int>(row.mark)]},
                     {"marked", index(row.marked)}, {"values", values}, {"vs_first", ratios}});
  }
  json doc = {{"schema", kCompareSchema}, {"currency", c.currency}, {"cheapest", index(c.cheapest)},
              {"fastest", index(c.fastest)}, {"cheapest_rate", index(c.cheapest_rate)},
              {"cheapest_rate_is_not_cheapest", c.cheapest_rate != c.cheapest}, {"scenarios", list},
              {"table", table}};
  if (!c.price_source.empty()) doc["price_source"] = c.price_source;  // one source for every column (issue 45)
  return doc.dump(indent);
}

}  // namespace gpucost
