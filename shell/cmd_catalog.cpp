// gpucost catalog [gpus|offers|presets|fields|models] [--format table|json|csv] — the data the model runs on.
//   gpus     the GPU catalog (assets/gpus.json): dense peaks per precision, memory, links, power, source
//   offers   dated public list prices (assets/offers.json): provider, product, price, date, source
//   presets  ready-made scenarios (assets/presets/) with the publication each reproduces
//   fields   every scenario field: path, default, allowed range, unit, source of the default
//   models   open models by name (assets/models.json): published shape, parameter counts, source
//   evidence the step-time model against published runs (evidence.h): in-sample and held-out error per run
//            and source; with a scenario file, the nearest validated runs and the error band there
#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "documents/catalog.h"
#include "documents/evidence_json.h"
#include "cli.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "base/i18n.h"
#include "scenario/models.h"
#include "documents/presets.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kCatalogOptions = {
    {"--format", true, "cli.opt.catalog.format"},
};

const char* const kPrecisionKeys[] = {"bf16", "fp16", "fp8", "tf32", "fp32"};

std::string Figure(double v) { return v > 0 ? FormatNumber(v, 5) : "-"; }

void PrintGpus(Format format) {
  if (format == Format::kJson) {
    nlohmann::json doc = nlohmann::json::array();
    for (std::size_t i = 0; i < GpuCount(); ++i) {
      const GpuSpec& g = Gpus()[i];
      nlohmann::json dense = nlohmann::json::object();
      for (int p = 0; p < 5; ++p)
        if (g.dense_tflops[p] > 0) dense[kPrecisionKeys[p]] = g.dense_tflops[p];
      doc.push_back({{"id", g.id}, {"name", g.name}, {"arch", g.arch}, {"dense_tflops", dense},
                     {"fp64_tflops", g.fp64_tflops}, {"int8_tops", g.int8_tops}, {"hbm_gb", g.hbm_gb},
                     {"hbm_tbps", g.hbm_tbps}, {"nvlink_gbps", g.nvlink_gbps}, {"pcie_gbps", g.pcie_gbps},
                     {"tdp_w", g.tdp_w}, {"source", g.source}});
      if (!MigOf(g).profiles.empty()) {  // issue 50: the MIG profiles cluster.partition accepts, with their sources
        nlohmann::json profiles = nlohmann::json::array();
        for (const MigProfile& p : MigOf(g).profiles)
          profiles.push_back({{"name", p.name}, {"compute_slices", p.compute_slices}, {"memory_slices", p.memory_slices},
                              {"instances", p.instances}});
        doc.back()["mig"] = {{"profiles", profiles}, {"sm_share", MigOf(g).sm_share},
                             {"sm_share_source", MigOf(g).sm_share_source}, {"source", MigOf(g).source}};
      }
    }
    std::printf("%s\n", doc.dump(2).c_str());
    return;
  }
  Table t;
  if (format == Format::kCsv) {
    t.Row({"id", "name", "arch", "bf16_tflops", "fp16_tflops", "fp8_tflops", "tf32_tflops", "fp32_tflops",
           "hbm_gb", "hbm_tbps", "nvlink_gbps", "tdp_w", "source"});
  } else {
    t.Row({"id", Tr("cli.catalog.col_name"), "BF16", "FP16", "FP8", "TF32", "FP32", "HBM GB", "HBM TB/s", "NVLink GB/s", "TDP W"});
    t.Rule();
  }
  for (std::size_t i = 0; i < GpuCount(); ++i) {
    const GpuSpec& g = Gpus()[i];
    std::vector<std::string> row = {g.id, g.name};
    if (format == Format::kCsv) row.push_back(g.arch);
    for (int p = 0; p < 5; ++p) row.push_back(Figure(g.dense_tflops[p]));
    for (double v : {g.hbm_gb, g.hbm_tbps, g.nvlink_gbps, g.tdp_w}) row.push_back(Figure(v));
    if (format == Format::kCsv) row.push_back(g.source);
    t.Row(row);
  }
  if (format == Format::kCsv) {
    t.PrintCsv(stdout);
    return;
  }
  std::printf("%s\n\n", Tr("cli.catalog.gpus_title"));
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.catalog.sources"));
  for (std::size_t i = 0; i < GpuCount(); ++i) std::printf("  %s: %s\n", Gpus()[i].id.c_str(), Gpus()[i].source.c_str());
  std::printf("\n%s\n", Tr("cli.catalog.mig"));  // issue 50: the profiles cluster.partition accepts
  for (std::size_t i = 0; i < GpuCount(); ++i) {
    const GpuSpec& g = Gpus()[i];
    if (MigOf(g).profiles.empty()) continue;
    std::string names;
    for (const MigProfile& p : MigOf(g).profiles) names += (names.empty() ? "" : ", ") + p.name;
    std::printf("  %s: %s (%s)\n", g.id.c_str(), names.c_str(), MigOf(g).source.c_str());
  }
}

std::string DefaultText(const FieldSpec& f) {
  if (f.is_auto && f.default_value == 0 && f.kind != FieldKind::kText) return "auto";
  switch (f.kind) {
    case FieldKind::kText: return f.default_text;
    case FieldKind::kBool: return f.default_value != 0 ? "true" : "false";
    case FieldKind::kEnum: return f.choices[static_cast<int>(f.default_value)];
    default: return FormatNumber(f.default_value, 6);
  }
}

void PrintFields(Format format) {
  Table t;
  if (format == Format::kTable)
    t.Row({Tr("cli.catalog.col_field"), Tr("cli.catalog.col_default"), Tr("cli.catalog.col_unit"), Tr("cli.catalog.col_allowed"),
           Tr("cli.catalog.col_source")});
  else t.Row({"field", "kind", "default", "unit", "allowed", "section", "help", "source"});
  if (format == Format::kTable) t.Rule();
  nlohmann::json doc = nlohmann::json::array();
  static const char* const kKinds[] = {"number", "integer", "bool", "enum", "text"};
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    const std::string allowed = RangeText(f, Lang::kEn, true);
    const char* kind = kKinds[static_cast<int>(f.kind)];
    const char* help = FieldHelp(f, Lang::kEn);
    const char* source = FieldSource(f, Lang::kEn);
    if (format == Format::kTable)  // in the language of human output; CSV and JSON keep the English text
      t.Row({f.path, DefaultText(f), f.unit, RangeText(f, CurrentLanguage(), true), FieldSource(f, CurrentLanguage())});
    else t.Row({f.path, kind, DefaultText(f), f.unit, allowed, f.section, help, source});
    doc.push_back({{"path", f.path}, {"kind", kind}, {"default", DefaultText(f)}, {"unit", f.unit},
                   {"allowed", allowed}, {"section", f.section}, {"help", help}, {"source", source}});
  }
  if (format == Format::kJson) std::printf("%s\n", doc.dump(2).c_str());
  else if (format == Format::kCsv) t.PrintCsv(stdout);
  else t.Print(stdout);
}

void PrintOffers(Format format) {
  Table t;
  nlohmann::json doc = nlohmann::json::array();
  if (format == Format::kCsv) {
    t.Row({"id", "provider", "product", "gpu", "region", "model", "capacity_guaranteed", "gpus_per_instance",
           "usd_per_gpu_hour", "usd_per_instance_hour", "spot_usd_per_gpu_hour", "date", "source", "via", "note",
           "billing_increment_seconds", "minimum_billed_seconds", "billing_source", "billing_date",
           "price_by_quote", "tax_rate", "krw_per_gb_egress", "facts"});
  } else {
    t.Row({"id", "gpu", Tr("cli.catalog.col_model"), "USD/GPU-h", "USD/instance-h", "spot USD/GPU-h", Tr("cli.catalog.col_date"),
           Tr("cli.catalog.col_billed_per"), Tr("cli.catalog.col_minimum")});
    t.Rule();
  }
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    const auto num = [](double v) { return nlohmann::json(v).dump(); };
    // Billing figures: "" (CSV), "?" (table) or null (JSON, OfferBillingJson) where no source confirmed them.
    const std::optional<double>& inc = o.billing.increment_seconds;
    const std::optional<double>& min = o.billing.minimum_seconds;
    const std::string billed_per = inc ? FormatNumber(*inc, 6) + " s" : "?";
    const std::string minimum = min ? FormatNumber(*min, 6) + " s" : "?";
    nlohmann::json facts = nlohmann::json::array();
    for (const OfferFact& f : o.facts) {  // both languages: the document is the same in every language
      facts.push_back({{"item", f.item}, {"value", f.value}, {"source", f.source}, {"date", f.date}});
      if (!f.value_ko.empty()) facts.back()["value_ko"] = f.value_ko;
    }
    // A price-by-quote offer has no price: its price columns say so (JSON: null), never 0.
    const nlohmann::json no_price = nullptr;
    if (format == Format::kCsv)
      t.Row({o.id, o.provider, o.product, o.gpu, o.region, PricingModelName(o.model), o.capacity_guaranteed ? "true" : "false",
             std::to_string(o.gpus_per_instance), o.price_by_quote ? "" : num(o.usd_per_gpu_hour),
             o.price_by_quote ? "" : num(o.usd_per_instance_hour), num(o.spot_usd_per_gpu_hour), o.date, o.source, o.via,
             o.note, inc ? num(*inc) : "", min ? num(*min) : "", o.billing.source, o.billing.date,
             o.price_by_quote ? "true" : "false", o.tax_rate >= 0 ? num(o.tax_rate) : "", num(o.krw_per_gb_egress),
             facts.empty() ? "" : facts.dump()});
    else if (o.price_by_quote)
      t.Row({o.id, o.gpu, PricingModelName(o.model), Tr("quote.in_list"), Tr("quote.in_list"), "-", o.date, billed_per, minimum});
    else
      t.Row({o.id, o.gpu, PricingModelName(o.model), FormatNumber(o.usd_per_gpu_hour, 4),
             FormatNumber(o.usd_per_instance_hour, 6), o.spot_usd_per_gpu_hour > 0 ? FormatNumber(o.spot_usd_per_gpu_hour, 4) : "-",
             o.date, billed_per, minimum});
    nlohmann::json row = {{"id", o.id}, {"provider", o.provider}, {"product", o.product}, {"gpu", o.gpu},
                   {"region", o.region}, {"model", PricingModelName(o.model)}, {"capacity_guaranteed", o.capacity_guaranteed},
                   {"gpus_per_instance", o.gpus_per_instance},
                   {"usd_per_gpu_hour", o.price_by_quote ? no_price : nlohmann::json(o.usd_per_gpu_hour)},
                   {"usd_per_instance_hour", o.price_by_quote ? no_price : nlohmann::json(o.usd_per_instance_hour)},
                   {"spot_usd_per_gpu_hour", o.spot_usd_per_gpu_hour}, {"date", o.date}, {"source", o.source},
                   {"via", o.via}, {"note", o.note}, {"billing", OfferBillingJson(o)},
                   {"price_by_quote", o.price_by_quote}, {"facts", facts}};
    if (!o.note_ko.empty()) row["note_ko"] = o.note_ko;
    if (o.tax_rate >= 0) row["tax_rate"] = o.tax_rate;
    if (o.krw_per_gb_egress > 0) row["krw_per_gb_egress"] = o.krw_per_gb_egress;
    if (o.stopped_price_fraction >= 0) {  // issue 50: as the offer's stopped_billing fact says
      row["stopped_price_fraction"] = o.stopped_price_fraction;
      row["stopped_discount_hours"] = o.stopped_discount_hours;
    }
    if (o.idle_reclaim_hours > 0) row["idle_reclaim_hours"] = o.idle_reclaim_hours;
    doc.push_back(row);
  }
  if (format == Format::kJson) return void(std::printf("%s\n", doc.dump(2).c_str()));
  if (format == Format::kCsv) return t.PrintCsv(stdout);
  std::printf("%s\n\n", Tr("cli.catalog.offers_title"));
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.catalog.unconfirmed"));
  std::printf("%s\n", Tr("cli.catalog.sources"));
  for (std::size_t i = 0; i < OfferCount(); ++i)
    std::printf("  %s: %s (%s)%s%s\n", Offers()[i].id.c_str(), Offers()[i].source.c_str(), Offers()[i].date.c_str(),
                Offers()[i].via.empty() ? "" : Tr("cli.catalog.via"), Offers()[i].via.c_str());
  std::printf("%s\n", Tr("cli.catalog.billing"));
  for (std::size_t i = 0; i < OfferCount(); ++i)
    std::printf("  %s: %s\n", Offers()[i].id.c_str(), OfferBillingText(Offers()[i]).c_str());
  std::printf("\n%s\n", Tr("catalog.offers_quote_title"));
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    if (!o.price_by_quote) continue;
    std::printf("  %s: %s, %s (%s)\n", o.id.c_str(), o.provider.c_str(), o.product.c_str(), o.region.c_str());
    if (const std::string& note = OfferNoteText(o, CurrentLanguage()); !note.empty()) std::printf("    %s\n", note.c_str());
    for (const OfferFact& f : o.facts)
      std::printf("    %s: %s [%s, %s]\n", f.item.c_str(), FactText(f, CurrentLanguage()).c_str(), f.source.c_str(), f.date.c_str());
  }
}

void PrintPresets(Format format) {
  Table t;
  nlohmann::json doc = nlohmann::json::array();
  if (format == Format::kCsv) t.Row({"id", "title", "source", "notes"});
  for (const PresetInfo& p : Presets()) {
    if (format == Format::kCsv) t.Row({p.id, p.title, p.source, p.notes});
    doc.push_back({{"id", p.id}, {"title", p.title}, {"source", p.source}, {"notes", p.notes}});
  }
  if (format == Format::kJson) return void(std::printf("%s\n", doc.dump(2).c_str()));
  if (format == Format::kCsv) return t.PrintCsv(stdout);
  std::printf("%s\n", Tr("cli.catalog.presets_title"));
  for (const PresetInfo& p : Presets())
    std::printf("\n%s\n  %s\n%s\n", p.id.c_str(), p.title.c_str(), TrFormat("cli.catalog.source", {p.source}).c_str());
}

// Models by name (issue 18): the published shape and counts; "shape params" is what the shape implies.
void PrintModels(Format format) {
  Table t;
  nlohmann::json doc = nlohmann::json::array();
  if (format == Format::kCsv)
    t.Row({"id", "name", "params", "active_params", "shape_params", "layers", "hidden", "heads", "kv_heads", "head_dim",
           "ffn_hidden", "ffn_gated", "vocab", "tied_embeddings", "seq_len", "experts", "active_experts",
           "shared_experts", "expert_ffn_hidden", "dense_layers", "attention_params", "source"});
  else if (format == Format::kTable) {
    t.Row({"id", "params", "active", "layers", "hidden", "heads", "kv", "ffn", "vocab", "seq", "experts"});
    t.Rule();
  }
  const auto n = [](std::int64_t v) { return std::to_string(v); };
  for (std::size_t i = 0; i < ModelCount(); ++i) {
    const ModelSpec& m = Models()[i];
    const ModelShape shape = ShapeOfModel(m);
    const double shape_params = ShapeParams(shape);
    const std::string experts = m.experts > 0 ? n(m.active_experts) + (m.shared_experts ? "+" + n(m.shared_experts) : "") +
                                                    " of " + n(m.experts) : "-";
    if (format == Format::kCsv)
      t.Row({m.id, m.name, nlohmann::json(m.params).dump(), nlohmann::json(m.active_params).dump(),
             nlohmann::json(shape_params).dump(), n(m.layers), n(m.hidden), n(m.heads), n(m.kv_heads), n(m.head_dim),
             n(m.ffn_hidden), m.ffn_gated ? "true" : "false", n(m.vocab), m.tied_embeddings ? "true" : "false",
             n(m.seq_len), n(m.experts), n(m.active_experts), n(m.shared_experts), n(m.expert_ffn_hidden),
             n(m.dense_layers), nlohmann::json(m.attention_params).dump(), m.source});
    else
      t.Row({m.id, FormatNumber(m.params / 1e9, 4) + "B", m.active_params > 0 ? FormatNumber(m.active_params / 1e9, 3) + "B" : "-",
             n(m.layers), n(m.hidden), n(m.heads), n(m.kv_heads), n(m.experts > 0 ? m.expert_ffn_hidden > 0 ? m.expert_ffn_hidden : m.ffn_hidden : m.ffn_hidden),
             n(m.vocab), n(m.seq_len), experts});
    doc.push_back({{"id", m.id}, {"name", m.name}, {"params", m.params}, {"active_params", m.active_params},
                   {"shape_params", shape_params}, {"shape_active_params", ShapeActiveParams(shape)},
                   {"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads}, {"kv_heads", m.kv_heads},
                   {"head_dim", m.head_dim}, {"ffn_hidden", m.ffn_hidden}, {"ffn_gated", m.ffn_gated},
                   {"vocab", m.vocab}, {"tied_embeddings", m.tied_embeddings}, {"seq_len", m.seq_len},
                   {"experts", m.experts}, {"active_experts", m.active_experts}, {"shared_experts", m.shared_experts},
                   {"expert_ffn_hidden", m.expert_ffn_hidden}, {"dense_layers", m.dense_layers},
                   {"attention_params", m.attention_params}, {"source", m.source}});
  }
  if (format == Format::kJson) return void(std::printf("%s\n", doc.dump(2).c_str()));
  if (format == Format::kCsv) return t.PrintCsv(stdout);
  std::printf("%s\n\n", Tr("cli.catalog.models_title"));
  t.Print(stdout);
  std::printf("%s\n", Tr("cli.catalog.sources"));
  for (std::size_t i = 0; i < ModelCount(); ++i) std::printf("  %s: %s\n", Models()[i].id.c_str(), Models()[i].source.c_str());
}


int PrintEvidence(Format format, const std::string& scenario_path) {
  Scenario s;
  const bool with_scenario = !scenario_path.empty();
  if (with_scenario) {
    const int rc = LoadScenario(scenario_path, &s);
    if (rc != kExitOk) return rc;
  }
  const StepEvidence& e = TrainingEvidence();
  if (!e.error.empty()) {
    Error("catalog evidence: " + e.error);
    return kExitFailure;
  }
  if (format == Format::kJson) {
    std::printf("%s\n", EvidenceToJson(e, &ServingValidation(), with_scenario ? &s : nullptr).c_str());
    return kExitOk;
  }
  Table t;
  const std::vector<std::string> head = {"run", "source", Tr("cli.evidence.col_framework"), "GPU", "GPUs",
                                         Tr("cli.evidence.col_measured"), Tr("cli.evidence.col_predicted"),
                                         Tr("cli.evidence.col_in_sample"), Tr("cli.evidence.col_held_out"),
                                         Tr("cli.evidence.col_cause")};
  t.Row(head);
  if (format != Format::kCsv) t.Rule();
  for (const EvidenceRun& r : e.runs)
    t.Row({r.id, r.source, r.framework, r.gpu, std::to_string(r.gpus), FormatNumber(r.measured_seconds, 4),
           FormatNumber(r.held_out_seconds, 4), FormatSignedPercent(r.error), FormatSignedPercent(r.held_out_error), r.cause});
  if (format == Format::kCsv) {
    t.PrintCsv(stdout);
    return kExitOk;
  }
  std::printf("%s\n\n", Tr("cli.evidence.title"));
  t.Print(stdout);
  Table src;
  src.Row({"source", "runs", Tr("cli.evidence.col_in_sample"), Tr("cli.evidence.col_held_out"), Tr("cli.evidence.col_held_out_mean")});
  src.Rule();
  for (const EvidenceSource& x : e.sources)
    src.Row({x.id, std::to_string(x.runs), FormatPercent(x.in_sample_mae), FormatPercent(x.held_out_mae), FormatSignedPercent(x.held_out_mean)});
  std::printf("\n");
  src.Print(stdout);
  std::printf("\n%s\n", TrainingSummaryText(e).c_str());
  for (const EvidenceCategory& c : e.categories)  // issue 46: pre-training and fine-tuning, each held out
    std::printf("%s\n", EvidenceCategoryText(c).c_str());
  const ServingEvidence& serving = ServingValidation();
  if (serving.error.empty()) {
    Table sv;
    sv.Row({"serving run", "source", "GPU", "TP", Tr("cli.evidence.col_concurrency"), Tr("cli.evidence.col_metric"),
            Tr("cli.evidence.col_measured_value"), Tr("cli.evidence.col_predicted_value"), Tr("cli.evidence.col_held_out")});
    sv.Rule();
    for (const ServingEvidenceRun& r : serving.runs)
      sv.Row({r.id, r.source, r.gpu, std::to_string(r.tensor_parallel), std::to_string(r.concurrency), r.metric,
              FormatNumber(r.measured, 4), FormatNumber(r.predicted, 4), FormatSignedPercent(r.error)});
    std::printf("\n");
    sv.Print(stdout);
    std::printf("\n%s\n", ServingSummaryText(serving).c_str());
    std::printf("%s\n", ServingByMetricText(serving).c_str());
    std::printf("%s\n", ServingBySourceText(serving).c_str());
  }
  if (with_scenario) {
    const ScenarioEvidence at = EvidenceAt(e, &serving, s);
    std::printf("\n%s\n", Tr(at.serving ? "cli.evidence.nearest_serving" : "cli.evidence.nearest"));
    if (!at.similar) std::printf("%s\n", Tr("evidence.none_similar"));
    for (int i : at.runs) {
      if (at.serving) {
        const ServingEvidenceRun& r = serving.runs[static_cast<std::size_t>(i)];
        std::printf("  %s (%s, %s, TP %lld): %s\n", r.id.c_str(), r.model.c_str(), r.gpu.c_str(),
                    static_cast<long long>(r.tensor_parallel), FormatSignedPercent(r.error).c_str());
      } else {
        const EvidenceRun& r = e.runs[static_cast<std::size_t>(i)];
        std::printf("  %s (%s, %s, %lld GPUs): %s\n", r.id.c_str(), r.framework.c_str(), r.gpu.c_str(),
                    static_cast<long long>(r.gpus), FormatSignedPercent(r.held_out_error).c_str());
      }
    }
    std::printf("%s\n", TrFormat("cli.evidence.band", {FormatSignedPercent(at.low), FormatSignedPercent(at.high)}).c_str());
  }
  std::printf("\n%s\n", Tr("cli.catalog.sources"));
  for (const EvidenceSource& x : e.sources) std::printf("  %s: %s\n", x.id.c_str(), x.citation.c_str());
  return kExitOk;
}

}  // namespace

int RunCatalog(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kCatalogOptions, &args, "catalog")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, "gpucost catalog [gpus|offers|presets|fields|models|evidence [SCENARIO]] [--format table|json|csv]",
               "cli.help.catalog", kCatalogOptions);
    return kExitOk;
  }
  Format format;
  if (!ParseFormat(args, {Format::kTable, Format::kJson, Format::kCsv}, &format)) return kExitInvalid;
  const std::string what = args.positional.empty() ? "gpus" : args.positional[0];
  if (what == "evidence" && args.positional.size() <= 2)
    return PrintEvidence(format, args.positional.size() == 2 ? args.positional[1] : std::string());
  if (args.positional.size() > 1) {
    Error(Tr("cli.err.catalog_one"));
    return kExitInvalid;
  }
  if (what == "gpus") PrintGpus(format);
  else if (what == "offers") PrintOffers(format);
  else if (what == "presets") PrintPresets(format);
  else if (what == "fields") PrintFields(format);
  else if (what == "models") PrintModels(format);
  else {
    Error(TrFormat("cli.err.catalog_unknown", {what}));
    return kExitInvalid;
  }
  return kExitOk;
}

}  // namespace gpucost::cli
