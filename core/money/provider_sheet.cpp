#include "money/provider_sheet.h"

#include <cstring>

#include "hardware/catalog.h"
#include "money/offers.h"
#include "scenario/fields.h"
#include "serving/inference_model.h"
#include "base/format.h"
#include "base/i18n.h"

namespace gpucost {
namespace {

// The provider.* fields in sheet order, with their group (the field table holds their help and limits).
struct SheetField {
  const char* path;
  SheetGroup group;
};
const SheetField kSheetFields[] = {
    {"provider.provider", SheetGroup::kHardware},       {"provider.cpu", SheetGroup::kHardware},
    {"provider.ram", SheetGroup::kHardware},            {"provider.storage_performance", SheetGroup::kHardware},
    {"provider.tenancy", SheetGroup::kHardware},        {"provider.interconnect", SheetGroup::kHardware},
    {"provider.os_driver", SheetGroup::kHardware},      {"provider.minimum_term", SheetGroup::kTerms},
    {"provider.setup_fee", SheetGroup::kTerms},         {"provider.support_scope", SheetGroup::kTerms},
    {"provider.data_location", SheetGroup::kSecurity},  {"provider.access_control", SheetGroup::kSecurity},
    {"provider.encryption", SheetGroup::kSecurity},     {"provider.audit_logs", SheetGroup::kSecurity},
    {"provider.backup_location", SheetGroup::kSecurity}, {"provider.staff_access", SheetGroup::kSecurity},
    {"provider.incident_response", SheetGroup::kSecurity}, {"provider.sla", SheetGroup::kSecurity},
    {"provider.certifications", SheetGroup::kSecurity},
};

const char* DisplayCurrency(const Scenario& s) { return s.pricing.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD"; }
double PerUsd(const Scenario& s) { return s.pricing.currency == static_cast<int>(Currency::kKrw) ? s.pricing.krw_per_usd : 1.0; }

std::string GpuText(const GpuSpec& g) { return g.name + " (" + FormatNumber(g.hbm_gb, 4) + " GB)"; }

// The GPUs the column's scenario runs on: a service's own pool GPUs (inference.decode.gpu / inference.prefill.gpu,
// cluster.gpu where they are not set), both where its prefill and decode pools differ; else cluster.gpu.
std::string GpuModel(const Scenario& s) {
  if (Kind(s) == WorkloadKind::kInference) {
    const GpuSpec* decode = InferencePoolGpu(s, s.inference.decode);
    const GpuSpec* prefill = s.inference.mode == static_cast<int>(InferenceMode::kDisaggregated)
                                 ? InferencePoolGpu(s, s.inference.prefill)
                                 : decode;
    if (decode != nullptr && prefill != nullptr)
      return prefill == decode ? GpuText(*decode) : TrFormat("sheet.gpu_split", {GpuText(*prefill), GpuText(*decode)});
  }
  const GpuSpec* g = FindGpu(s.cluster.gpu);
  return g ? GpuText(*g) : std::string(s.cluster.gpu);
}

std::string VatTerms(const Scenario& s) {
  const std::string text = s.pricing.tax_rate <= 0 ? std::string(Tr("sheet.vat_none"))
                                                   : TrFormat(s.pricing.price_includes_tax ? "sheet.vat_in_price" : "sheet.vat_added",
                                                              {FormatPercent(s.pricing.tax_rate)});
  return IsDefault(s, *FindField("pricing.tax_rate")) ? TrFormat("sheet.assumed", {text}) : text;
}

// Egress and extra storage: a zero price is an unanswered item, not a free service. Issue 45: a figure left at the
// field's default is the model's assumption, not the provider's term: said so (sheet.assumed).
std::string PerGb(const Scenario& s, double usd, const char* unit_key, const char* field) {
  if (usd <= 0) return "";
  const std::string text = FormatMoney(usd * PerUsd(s), DisplayCurrency(s)) + Tr(unit_key);
  return IsDefault(s, *FindField(field)) ? TrFormat("sheet.assumed", {text}) : text;
}

// Issue 29: an unanswered terms item reads the number already in the cost instead of "ask the provider" (the
// provider's own words, when given, win).
std::string FromCost(const char* path, const Scenario& s) {
  const PricingInputs& p = s.pricing;
  auto money = [&](double usd) { return FormatMoney(usd * PerUsd(s), DisplayCurrency(s)); };
  if (std::strcmp(path, "provider.minimum_term") == 0) {
    if (Model(s) == PricingModel::kReserved)
      return TrFormat("sheet.cost.term_months", {FormatNumber(p.reserved.term_months, 3)});
    if (p.minimum_billed_seconds > 0)
      return TrFormat("sheet.cost.minimum_billed", {FormatDuration(p.minimum_billed_seconds / 3600)});
    return "";
  }
  if (std::strcmp(path, "provider.setup_fee") == 0)
    return p.fixed_fees_usd > 0 ? TrFormat("sheet.cost.fees", {money(p.fixed_fees_usd)}) : "";
  if (std::strcmp(path, "provider.support_scope") == 0)
    return s.ops.support_usd_per_month > 0 ? TrFormat("sheet.cost.support", {money(s.ops.support_usd_per_month)}) : "";
  return "";
}

}  // namespace

std::string SheetLabelKey(const SheetRow& row) {
  return (row.key.rfind("provider.", 0) == 0 ? "field." : "sheet.") + row.key;
}

ProviderSheetDoc BuildProviderSheet(const std::vector<Scenario>& columns, Lang lang) {
  ProviderSheetDoc doc;
  auto derived = [&](const char* key, SheetGroup group, std::string (*value)(const Scenario&)) {
    SheetRow row{key, group, {}};
    for (const Scenario& s : columns) row.values.push_back(value(s));
    doc.rows.push_back(row);
  };
  derived("gpu_model", SheetGroup::kHardware, GpuModel);
  derived("gpus_per_server", SheetGroup::kHardware,
          [](const Scenario& s) { return std::to_string(s.cluster.gpus_per_node); });
  for (const SheetField& f : kSheetFields) {
    const FieldSpec* spec = FindField(f.path);
    SheetRow row{f.path, f.group, {}};
    for (const Scenario& s : columns) {
      std::string given = spec ? GetText(s, *spec) : "";
      const Offer* offer = s.pricing.offer[0] && !given.empty() ? FindOffer(s.pricing.offer) : nullptr;
      const OfferFact* fact = offer ? FindFact(*offer, f.path) : nullptr;
      if (fact && fact->value.compare(0, given.size(), given) == 0)  // (ApplyOffer may have cut a long fact)
        given = FactText(*fact, lang);  // the offer's own words, in the reader's language where it has them
      row.values.push_back(given.empty() && f.group == SheetGroup::kTerms ? FromCost(f.path, s) : given);
    }
    doc.rows.push_back(row);
    if (std::strcmp(f.path, "provider.support_scope") == 0) {  // price terms after the contract terms
      derived("vat", SheetGroup::kTerms, VatTerms);
      derived("egress", SheetGroup::kTerms,
              [](const Scenario& s) { return PerGb(s, s.storage.usd_per_gb_egress, "sheet.per_gb", "storage.usd_per_gb_egress"); });
      derived("extra_storage", SheetGroup::kTerms,
              [](const Scenario& s) { return PerGb(s, s.storage.usd_per_gb_month, "sheet.per_gb_month", "storage.usd_per_gb_month"); });
    }
  }
  doc.open_security_items.assign(columns.size(), 0);
  for (const SheetRow& row : doc.rows)
    if (row.group == SheetGroup::kSecurity)
      for (std::size_t c = 0; c < columns.size(); ++c) doc.open_security_items[c] += row.values[c].empty();
  return doc;
}

}  // namespace gpucost
