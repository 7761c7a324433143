#include "documents/compare_csv.h"
#include "money/tco.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

#include <nlohmann/json.hpp>

#include "hardware/catalog.h"
#include "money/offers.h"
#include "money/provider_sheet.h"
#include "base/text_safety.h"

namespace gpucost {
namespace {

// Every cell goes through this one function: RFC 4180 quoting, and text a spreadsheet would run as a formula
// neutralised (core/base/text_safety.h, issue 31).
std::string Cell(const std::string& text) { return CsvCell(text); }

std::string Number(double v) {
  if (!std::isfinite(v)) return "";
  return nlohmann::json(v).dump();
}

class Writer {
 public:
  Writer(const Comparison& c, Lang lang) : c_(c), lang_(lang) {}

  void Row(const std::string& key, const char* label_key, const std::string& unit,
           const std::function<std::string(std::size_t)>& value) {
    out_ += Cell(key) + "," + Cell(Tr(lang_, label_key)) + "," + Cell(unit);
    for (std::size_t i = 0; i < c_.columns.size(); ++i) out_ += "," + Cell(value(i));
    out_ += "\r\n";
  }
  // Money of column i (USD in the model) in the comparison's currency, rounded to its smallest unit.
  std::string Money(std::size_t i, double usd) const {
    if (!c_.columns[i].result.ok || !std::isfinite(usd)) return "";
    const bool krw = std::strcmp(c_.currency, "KRW") == 0;
    const double v = c_.Money(i, usd);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", krw ? 0 : 2, v);
    return std::strcmp(buf, "-0") == 0 || std::strcmp(buf, "-0.00") == 0 ? std::string(buf + 1) : std::string(buf);
  }
  std::string Result(std::size_t i, double v) const { return c_.columns[i].result.ok ? Number(v) : ""; }
  std::string& Text() { return out_; }

 private:
  const Comparison& c_;
  Lang lang_;
  std::string out_;
};

}  // namespace

std::string ScenarioDisplayName(const Scenario& s, Lang lang) {
  if (s.name[0]) return s.name;
  static const char* const kModels[] = {"choice.pricing.model.on_demand", "choice.pricing.model.spot",
                                        "choice.pricing.model.reserved", "choice.pricing.model.owned"};
  const int model = s.pricing.model >= 0 && s.pricing.model < 4 ? s.pricing.model : 0;
  const std::string name = TrFormat(lang, "compare.display_name", {s.cluster.gpu, std::to_string(s.cluster.gpus), Tr(lang, kModels[model])});
  // A fine-tune says which (2026-12-07: a LoRA and a QLoRA plan both read "h100-sxm x8 on-demand").
  const Finetune mode = static_cast<Finetune>(s.finetune.mode);
  return mode == Finetune::kLora ? name + " LoRA" : mode == Finetune::kQlora ? name + " QLoRA" : name;
}

std::string ComparisonCsv(const Comparison& c, Lang lang) {
  Writer w(c, lang);
  const std::vector<CompareColumn>& cols = c.columns;
  w.Text() = "\xEF\xBB\xBF" + Cell("key") + "," + Cell(Tr(lang, "csv.item")) + "," + Cell(Tr(lang, "csv.unit"));
  for (const CompareColumn& col : cols) w.Text() += "," + Cell(ScenarioDisplayName(col.scenario, lang));
  w.Text() += "\r\n";
  const std::string money = c.currency;
  w.Row("currency", "csv.currency", "", [&](std::size_t) { return std::string(c.currency); });
  for (int p = 0; p < kPartCount; ++p) {
    if (p == kPartTax) continue;
    bool used = false;
    for (const CompareColumn& col : cols) used = used || (col.result.ok && col.result.cost_usd.part[p] != 0);
    if (!used) continue;
    const std::string label = std::string("part.") + PartName(p);
    w.Row(std::string("cost.") + PartName(p), label.c_str(), money,
          [&](std::size_t i) { return w.Money(i, cols[i].result.cost_usd.part[p]); });
  }
  w.Row("cost.supply", "csv.supply", money, [&](std::size_t i) {
    const Result& r = cols[i].result;
    return w.Money(i, r.expected_usd - r.cost_usd.part[kPartTax]);
  });
  w.Row("cost.vat", "csv.vat", money, [&](std::size_t i) { return w.Money(i, cols[i].result.cost_usd.part[kPartTax]); });
  w.Row("cost.total", "csv.total", money, [&](std::size_t i) { return w.Money(i, cols[i].result.expected_usd); });
  w.Row("pricing.tax_rate", "csv.vat_rate", "fraction", [&](std::size_t i) { return Number(cols[i].scenario.pricing.tax_rate); });
  w.Row("pricing.price_includes_tax", "csv.price_includes_vat", "true/false",
        [&](std::size_t i) { return std::string(cols[i].scenario.pricing.price_includes_tax ? "true" : "false"); });
  w.Row("cost.term_after_job", "csv.term_after_job", money, [&](std::size_t i) { return w.Money(i, cols[i].result.commitment_after_job_usd); });
  // Owned hardware (issue 47): the cash to buy the servers, up front and before its VAT; empty for rented columns.
  w.Row("cost.capital_outlay", "csv.capital_outlay", money, [&](std::size_t i) {
    const Result& r = cols[i].result;
    return r.tco.present ? w.Money(i, OwnedCapitalOutlay(cols[i].scenario, r.tco, static_cast<double>(r.billed_gpus)).usd)
                         : std::string();
  });
  const double first_usd = cols.empty() || !cols[0].result.ok ? 0 : cols[0].result.expected_usd;
  const double first_hours = cols.empty() || !cols[0].result.ok ? 0 : cols[0].result.expected_hours;
  w.Row("cost_vs_first", "csv.cost_vs_first", "ratio",
        [&](std::size_t i) { return first_usd > 0 ? w.Result(i, cols[i].result.expected_usd / first_usd) : std::string(); });
  w.Row("time_vs_first", "csv.time_vs_first", "ratio",
        [&](std::size_t i) { return first_hours > 0 ? w.Result(i, cols[i].result.expected_hours / first_hours) : std::string(); });
  w.Row("cheapest", "csv.cheapest", "true/false", [&](std::size_t i) { return std::string(c.cheapest == static_cast<int>(i) ? "true" : "false"); });
  w.Row("fastest", "csv.fastest", "true/false", [&](std::size_t i) { return std::string(c.fastest == static_cast<int>(i) ? "true" : "false"); });
  w.Row("cost.normal_run", "compare.normal_cost", money, [&](std::size_t i) { return w.Money(i, cols[i].result.normal_run_usd); });
  w.Row("cost.per_gpu_hour", "compare.effective_price", money, [&](std::size_t i) { return w.Money(i, cols[i].result.usd_per_gpu_hour); });
  w.Row("time.expected_hours", "csv.expected_hours", "hours", [&](std::size_t i) { return w.Result(i, cols[i].result.expected_hours); });
  w.Row("time.normal_run_hours", "compare.normal_time", "hours", [&](std::size_t i) { return w.Result(i, cols[i].result.normal_run_hours); });
  w.Row("cluster.gpus", "compare.gpus", "GPUs", [&](std::size_t i) { return std::to_string(cols[i].scenario.cluster.gpus); });
  w.Row("cluster.gpu", "csv.gpu", "", [&](std::size_t i) {
    const GpuSpec* g = FindGpu(cols[i].scenario.cluster.gpu);
    return g ? g->name : std::string(cols[i].scenario.cluster.gpu);
  });
  w.Row("billed_gpu_hours", "csv.billed_gpu_hours", "GPU-hours", [&](std::size_t i) { return w.Result(i, cols[i].result.billed_gpu_hours); });
  w.Row("goodput", "csv.goodput", "fraction", [&](std::size_t i) { return w.Result(i, cols[i].result.goodput); });
  w.Row("mfu", "csv.mfu", "fraction", [&](std::size_t i) { return w.Result(i, cols[i].result.mfu); });
  w.Row("pricing.krw_per_usd", "csv.exchange_rate", "KRW/USD", [&](std::size_t i) { return Number(cols[i].scenario.pricing.krw_per_usd); });
  w.Row("pricing.krw_per_usd_date", "csv.exchange_rate_date", "date", [&](std::size_t i) { return std::string(cols[i].scenario.fx.krw_per_usd_date); });
  w.Row("pricing.offer", "csv.offer", "", [&](std::size_t i) { return std::string(cols[i].scenario.pricing.offer); });
  w.Row("offer.date", "csv.offer_date", "date", [&](std::size_t i) {
    const Offer* o = cols[i].scenario.pricing.offer[0] ? FindOffer(cols[i].scenario.pricing.offer) : nullptr;
    return o ? o->date : std::string();
  });
  bool serving = false;
  for (const CompareColumn& col : cols) serving = serving || col.result.inference.present;
  if (serving) {
    auto inf = [&](std::size_t i) -> const InferenceResult* {
      return cols[i].result.ok && cols[i].result.inference.present ? &cols[i].result.inference : nullptr;
    };
    w.Row("serving.usd_per_request", "csv.per_request", money, [&](std::size_t i) {
      if (!inf(i)) return std::string();
      return Number(c.Money(i, inf(i)->usd_per_request));  // fractions of a cent: not rounded
    });
    w.Row("serving.per_million_output_tokens", "csv.per_million_output_tokens", money,
          [&](std::size_t i) { return inf(i) ? w.Money(i, inf(i)->usd_per_million_output_tokens) : std::string(); });
    w.Row("serving.ttft_p90_ms", "csv.ttft_p90", "ms", [&](std::size_t i) { return inf(i) ? Number(inf(i)->ttft_ms.p90) : std::string(); });
    w.Row("serving.tpot_p90_ms", "csv.tpot_p90", "ms", [&](std::size_t i) { return inf(i) ? Number(inf(i)->tpot_ms.p90) : std::string(); });
    w.Row("serving.slo_met", "csv.slo_met", "true/false",
          [&](std::size_t i) { return inf(i) ? std::string(inf(i)->slo_met ? "true" : "false") : std::string(); });
    w.Row("serving.gpus", "csv.serving_gpus", "GPUs", [&](std::size_t i) { return inf(i) ? std::to_string(inf(i)->gpus) : std::string(); });
  }
  std::vector<Scenario> scenarios;
  for (const CompareColumn& col : cols) scenarios.push_back(col.scenario);
  const ProviderSheetDoc sheet = BuildProviderSheet(scenarios, lang);
  for (const SheetRow& row : sheet.rows) {
    const std::string label = SheetLabelKey(row);
    w.Row("sheet." + row.key, label.c_str(), "text", [&](std::size_t i) {
      return row.values[i].empty() ? std::string(Tr(lang, "sheet.ask")) : row.values[i];
    });
  }
  return w.Text();
}

}  // namespace gpucost
