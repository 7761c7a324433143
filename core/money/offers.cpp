// offers.cpp — the offers catalog: parsing with path-naming errors, lookup, applying an offer.
#include "money/offers.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "base/assets.h"
#include "base/format.h"
#include "base/i18n.h"
#include "scenario/fields.h"
#include "scenario/money_input.h"
#include "money/pricing_model.h"
#include "money/tco.h"

namespace gpucost {
namespace {

using nlohmann::json;

struct OfferReader {
  const json& o;
  std::string path;
  std::vector<InputError>* errors;

  std::string Text(const char* key, bool required) const {
    auto it = o.find(key);
    if (it == o.end()) {
      if (required) errors->push_back({path + "." + key, "required (a string)"});
      return "";
    }
    if (!it->is_string()) {
      errors->push_back({path + "." + key, "expected a string"});
      return "";
    }
    return it->get<std::string>();
  }
  double Number(const char* key, bool required, double max) const {
    auto it = o.find(key);
    if (it == o.end()) {
      if (required) errors->push_back({path + "." + key, "required (a number > 0)"});
      return 0;
    }
    const double v = it->is_number() ? it->get<double>() : NAN;
    if (!(v > 0) || v > max) {
      char range[96];
      std::snprintf(range, sizeof range, "must be a number > 0 and <= %s", FormatBound(max).c_str());
      errors->push_back({path + "." + key, range});
      return 0;
    }
    return v;
  }
};

// A billing figure in seconds: absent (not confirmed) or a number from `min` to 86,400.
std::optional<double> Seconds(const json& o, const char* key, double min, const std::string& path,
                              std::vector<InputError>* errors) {
  auto it = o.find(key);
  if (it == o.end()) return std::nullopt;
  const double v = it->is_number() ? it->get<double>() : NAN;
  if (!(v >= min && v <= 86400)) {
    char range[96];
    std::snprintf(range, sizeof range, "must be a number of seconds from %s to 86,400 (leave it out when unconfirmed)",
                  FormatBound(min).c_str());
    errors->push_back({path + "." + key, range});
    return std::nullopt;
  }
  return v;
}

BillingRule ReadBillingRule(const json& o, const std::string& path, std::vector<InputError>* errors) {
  BillingRule b;
  if (!o.is_object()) {
    errors->push_back({path, "expected an object"});
    return b;
  }
  OfferReader r{o, path, errors};
  b.id = r.Text("id", true);
  b.provider = r.Text("provider", true);
  b.applies_to = r.Text("applies_to", true);
  b.date = r.Text("date", true);
  b.source = r.Text("source", true);
  b.via = r.Text("via", false);
  b.note = r.Text("note", false);
  b.increment_seconds = Seconds(o, "billing_increment_seconds", 1, path, errors);
  b.minimum_seconds = Seconds(o, "minimum_billed_seconds", 0, path, errors);
  return b;
}

// "facts": [{"item", "value", "source", "date"}, ...]: every fact names where and when it was read.
void ReadFacts(const json& o, const std::string& path, std::vector<InputError>* errors, Offer* f) {
  auto list = o.find("facts");
  if (list == o.end()) return;
  if (!list->is_array()) return errors->push_back({path + ".facts", "expected an array of facts"});
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string at = path + ".facts[" + std::to_string(i) + "]";
    if (!(*list)[i].is_object()) {
      errors->push_back({at, "expected an object"});
      continue;
    }
    OfferReader r{(*list)[i], at, errors};
    OfferFact fact{r.Text("item", true), r.Text("value", true), r.Text("value_ko", false), r.Text("source", true),
                   r.Text("date", true)};
    const FieldSpec* sheet = fact.item.rfind("provider.", 0) == 0 ? FindField(fact.item.c_str()) : nullptr;
    bool known = sheet != nullptr;
    for (const char* item : kOfferFactItems) known = known || fact.item == item;
    if (!known && !fact.item.empty())
      errors->push_back({at + ".item", "unknown item \"" + fact.item + "\"; a provider.* sheet field or one of: gpu_memory, "
                                       "billing_unit, stopped_billing, vat, egress, storage, capacity, idle_reclaim, product_page"});
    for (const char* key : {"value", "value_ko"})
      if (sheet && Utf8Length(key[5] ? fact.value_ko : fact.value) > static_cast<long>(TextMaxChars(*sheet)))
        errors->push_back({at + "." + key, "at most " + std::to_string(TextMaxChars(*sheet)) + " characters (the sheet's limit)"});
    if (fact.value.empty() || fact.source.empty() || fact.date.empty())
      errors->push_back({at, "value, source and date must not be empty"});
    f->facts.push_back(std::move(fact));
  }
}

// Issue 50: the structured stopped-instance billing and idle reclaim, each backed by the fact that sources it.
void ReadStoppedBilling(const json& o, const std::string& path, std::vector<InputError>* errors, Offer* f) {
  const auto number = [&](const char* key, double lo, double hi, double* out) {
    auto it = o.find(key);
    if (it == o.end()) return false;
    const double v = it->is_number() ? it->get<double>() : NAN;
    if (!(v >= lo && v <= hi)) {
      errors->push_back({path + "." + key, "must be a number from " + FormatBound(lo) + " to " + FormatBound(hi)});
      return false;
    }
    *out = v;
    return true;
  };
  if (number("stopped_price_fraction", 0, 1, &f->stopped_price_fraction) && !FindFact(*f, "stopped_billing"))
    errors->push_back({path + ".stopped_price_fraction", "needs a \"stopped_billing\" fact with its source"});
  if (number("stopped_discount_hours", 0, 1e6, &f->stopped_discount_hours) && f->stopped_price_fraction < 0)
    errors->push_back({path + ".stopped_discount_hours", "needs stopped_price_fraction"});
  if (number("idle_reclaim_hours", 0, 1e6, &f->idle_reclaim_hours) && !FindFact(*f, "idle_reclaim"))
    errors->push_back({path + ".idle_reclaim_hours", "needs an \"idle_reclaim\" fact with its source"});
}

Offer ReadOffer(const json& o, const std::string& path, std::vector<InputError>* errors) {
  Offer f;
  if (!o.is_object()) {
    errors->push_back({path, "expected an object"});
    return f;
  }
  OfferReader r{o, path, errors};
  f.id = r.Text("id", true);
  f.provider = r.Text("provider", true);
  f.product = r.Text("product", true);
  f.gpu = r.Text("gpu", true);
  f.region = r.Text("region", true);
  f.date = r.Text("date", true);
  f.source = r.Text("source", true);
  f.via = r.Text("via", false);
  f.note = r.Text("note", false);
  f.note_ko = r.Text("note_ko", false);
  const std::string model = r.Text("model", true);
  if (model == "reserved") f.model = PricingModel::kReserved;
  else if (model != "on_demand" && !model.empty())
    errors->push_back({path + ".model", "must be one of: on_demand, reserved"});
  auto cg = o.find("capacity_guaranteed");
  if (cg != o.end() && !cg->is_boolean()) errors->push_back({path + ".capacity_guaranteed", "expected true or false"});
  f.capacity_guaranteed = cg != o.end() && cg->is_boolean() && cg->get<bool>();
  const double gpus = r.Number("gpus_per_instance", true, 1024);
  f.gpus_per_instance = static_cast<int>(gpus);
  if (gpus != std::floor(gpus)) errors->push_back({path + ".gpus_per_instance", "must be an integer from 1 to 1024"});
  auto quote = o.find("price_by_quote");
  if (quote != o.end() && !quote->is_boolean()) errors->push_back({path + ".price_by_quote", "expected true or false"});
  f.price_by_quote = quote != o.end() && quote->is_boolean() && quote->get<bool>();
  if (f.price_by_quote) {  // a quote offer has no price: a number here would be a number from nowhere
    for (const char* key : {"usd_per_gpu_hour", "usd_per_instance_hour", "spot_usd_per_gpu_hour"})
      if (o.contains(key)) errors->push_back({path + "." + key, "must be absent when price_by_quote is true"});
  }
  f.usd_per_gpu_hour = r.Number("usd_per_gpu_hour", !f.price_by_quote, 1e4);
  f.usd_per_instance_hour = r.Number("usd_per_instance_hour", !f.price_by_quote, 1e6);
  f.spot_usd_per_gpu_hour = r.Number("spot_usd_per_gpu_hour", false, 1e4);
  if (o.contains("tax_rate")) f.tax_rate = r.Number("tax_rate", true, 1);
  f.krw_per_gb_egress = r.Number("krw_per_gb_egress", false, 1e6);
  ReadFacts(o, path, errors, &f);
  ReadStoppedBilling(o, path, errors, &f);
  if (f.gpus_per_instance > 0 && f.usd_per_gpu_hour > 0 && f.usd_per_instance_hour > 0 &&
      std::fabs(f.usd_per_gpu_hour * f.gpus_per_instance - f.usd_per_instance_hour) > 0.01 * f.usd_per_instance_hour)
    errors->push_back({path + ".usd_per_gpu_hour", "must equal usd_per_instance_hour / gpus_per_instance (within 1%)"});
  if (f.spot_usd_per_gpu_hour >= f.usd_per_gpu_hour && f.spot_usd_per_gpu_hour > 0)
    errors->push_back({path + ".spot_usd_per_gpu_hour", "must be below usd_per_gpu_hour"});
  return f;
}

// Read once the file is here: the page fetches it (core/base/assets.h LoadAsset), and a fetch that failed is tried again
// the next time an offer is looked up rather than leaving the page without offers.
const std::vector<Offer>& OfferCatalog() {
  static std::vector<Offer> offers;
  static bool read = false;
  if (read) return offers;
  const EmbeddedAsset* asset = LoadAsset("offers.json");
  if (!asset) return offers;
  read = true;
  std::vector<InputError> errors;
  std::vector<Offer> out = ParseOffersJson(std::string_view(asset->data, asset->size), &errors);
  if (errors.empty()) offers = std::move(out);  // a broken asset fails its test, never the model
  return offers;
}

}  // namespace

std::vector<Offer> ParseOffersJson(std::string_view text, std::vector<InputError>* errors) {
  std::vector<Offer> out;
  const std::string depth = CheckJsonDepth(text);
  if (!depth.empty()) {
    errors->push_back({"", depth});
    return out;
  }
  if (const std::string dup = DuplicateKeyPath(text); !dup.empty()) {
    errors->push_back(CodedError(dup, {"msg.duplicate_key", {}}));
    return out;
  }
  const json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    errors->push_back({"", "malformed JSON or not an object"});
    return out;
  }
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || *schema != kOffersSchema)
    errors->push_back({"schema", std::string("must be \"") + kOffersSchema + "\""});
  std::vector<BillingRule> rules;
  auto rule_list = doc.find("billing_rules");
  if (rule_list != doc.end() && !rule_list->is_array()) errors->push_back({"billing_rules", "expected an array"});
  for (std::size_t i = 0; rule_list != doc.end() && rule_list->is_array() && i < rule_list->size(); ++i) {
    const std::string path = "billing_rules[" + std::to_string(i) + "]";
    BillingRule b = ReadBillingRule((*rule_list)[i], path, errors);
    for (const BillingRule& seen : rules)
      if (!b.id.empty() && seen.id == b.id) errors->push_back({path + ".id", "duplicate id \"" + b.id + "\""});
    rules.push_back(std::move(b));
  }
  auto list = doc.find("offers");
  if (list == doc.end() || !list->is_array()) {
    errors->push_back({"offers", "required (an array of offers)"});
    return out;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "offers[" + std::to_string(i) + "]";
    Offer f = ReadOffer((*list)[i], path, errors);
    const json& item = (*list)[i];
    auto billing = item.is_object() ? item.find("billing") : item.end();
    if (item.is_object() && billing != item.end()) {
      const BillingRule* rule = nullptr;
      for (const BillingRule& b : rules)
        if (billing->is_string() && b.id == billing->get<std::string>()) rule = &b;
      if (rule) f.billing = *rule;
      else errors->push_back({path + ".billing", "must name one of billing_rules[].id"});
    }
    for (const Offer& seen : out)
      if (!f.id.empty() && seen.id == f.id) errors->push_back({path + ".id", "duplicate id \"" + f.id + "\""});
    out.push_back(std::move(f));
  }
  return out;
}

const Offer* Offers() { return OfferCatalog().data(); }
std::size_t OfferCount() { return OfferCatalog().size(); }

const Offer* FindOffer(std::string_view id) {
  for (const Offer& f : OfferCatalog())
    if (f.id == id) return &f;
  return nullptr;
}

const std::string& FactText(const OfferFact& fact, Lang lang) {
  return lang == Lang::kKo && !fact.value_ko.empty() ? fact.value_ko : fact.value;
}
const std::string& OfferNoteText(const Offer& offer, Lang lang) {
  return lang == Lang::kKo && !offer.note_ko.empty() ? offer.note_ko : offer.note;
}

const OfferFact* FindFact(const Offer& offer, std::string_view item) {
  for (const OfferFact& f : offer.facts)
    if (f.item == item) return &f;
  return nullptr;
}

void ApplyOffer(const Offer& offer, Scenario* s) {
  std::snprintf(s->cluster.gpu, kTextCapacity, "%s", offer.gpu.c_str());
  s->cluster.gpus_per_node = offer.gpus_per_instance;
  s->pricing.usd_per_gpu_hour = offer.usd_per_gpu_hour;
  s->pricing.krw_per_gpu_hour = 0;
  s->pricing.price_includes_tax = false;
  s->pricing.model = static_cast<int>(offer.model);
  if (offer.model == PricingModel::kReserved) {
    s->pricing.reserved.capacity_guaranteed = offer.capacity_guaranteed;
    s->pricing.reserved.usd_per_gpu_hour_on_demand = 0;
  }
  if (offer.spot_usd_per_gpu_hour > 0) s->pricing.spot.discount = 1 - offer.spot_usd_per_gpu_hour / offer.usd_per_gpu_hour;
  s->pricing.whole_nodes = true;  // an instance is rented whole; gpus_per_node is its GPU count
  if (offer.billing.increment_seconds) s->pricing.billing_increment_seconds = *offer.billing.increment_seconds;
  if (offer.billing.minimum_seconds) s->pricing.minimum_billed_seconds = *offer.billing.minimum_seconds;
  std::snprintf(s->pricing.offer, kTextCapacity, "%s", offer.id.c_str());  // where the price came from
  if (offer.tax_rate >= 0) s->pricing.tax_rate = offer.tax_rate;
  if (offer.krw_per_gb_egress > 0) s->storage.usd_per_gb_egress = offer.krw_per_gb_egress / s->pricing.krw_per_usd;
  if (offer.stopped_price_fraction >= 0) {  // issue 50: as the provider bills a stopped instance
    s->pricing.stopped_price_fraction = offer.stopped_price_fraction;
    s->pricing.stopped_discount_hours = offer.stopped_discount_hours;
  }
  // The provider sheet is this offer's: its facts, the rest open.
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (std::strncmp(f.path, "provider.", 9) != 0 || f.kind != FieldKind::kText) continue;
    const OfferFact* fact = FindFact(offer, f.path);
    std::string value = fact ? fact->value : std::strcmp(f.path, "provider.provider") == 0 ? offer.provider + ", " + offer.product : "";
    while (Utf8Length(value) > static_cast<long>(TextMaxChars(f)) || value.size() >= TextCapacity(f)) {
      std::size_t cut = value.size() - 1;  // the last character, whole
      while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
      value.resize(cut);
    }
    std::snprintf(static_cast<char*>(f.ref(*s)), TextCapacity(f), "%s", value.c_str());
  }
}

bool OfferListsModel(const Offer& offer, PricingModel model) {
  return model == PricingModel::kOwned || model == offer.model ||
         (model == PricingModel::kSpot && offer.spot_usd_per_gpu_hour > 0);
}

bool AwaitsQuote(const Scenario& s) {
  const Offer* offer = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  if (!offer || !offer->price_by_quote || s.pricing.krw_per_gpu_hour > 0) return false;
  const FieldSpec& usd = *FindField("pricing.usd_per_gpu_hour");
  return s.pricing.usd_per_gpu_hour <= 0 || IsDefault(s, usd);
}

Message QuotedPriceProblem(Scenario* s, const std::string& text, std::string* label) {
  const FieldSpec& usd = *FindField("pricing.usd_per_gpu_hour");
  const FieldSpec& krw = *FindField("pricing.krw_per_gpu_hour");
  const MoneyTyped as_usd = ParseMoneyField(*s, usd, text);
  const auto at = [](const FieldSpec& f, MessageParam why) { return Message{"fmt.at_path", {f.path, std::move(why)}}; };
  if (as_usd.typed == MoneyUnit::kKrw) {  // a won quote stays in won
    const MoneyTyped as_krw = ParseMoneyField(*s, krw, text);
    if (!as_krw.error.empty()) return at(krw, MessageParam::From(as_krw.error_message));
    if (!(as_krw.stored > 0)) return at(krw, MessageParam::Key("msg.quote_positive"));
    s->pricing.krw_per_gpu_hour = as_krw.stored;
    if (label) *label = as_usd.label;
    return {};
  }
  if (!as_usd.error.empty()) return at(usd, MessageParam::From(as_usd.error_message));
  if (!(as_usd.stored > 0)) return at(usd, MessageParam::Key("msg.quote_positive"));
  s->pricing.usd_per_gpu_hour = as_usd.stored;
  s->pricing.krw_per_gpu_hour = 0;
  if (label) *label = as_usd.label;
  return {};
}

std::string SetQuotedPrice(Scenario* s, const std::string& text, std::string* label) {
  return QuotedPriceProblem(s, text, label).Text(Lang::kEn);
}

std::vector<const char*> OfferUnconfirmedFields(const Offer& offer) {
  std::vector<const char*> fields;
  if (!offer.billing.increment_seconds) fields.push_back("pricing.billing_increment_seconds");
  if (!offer.billing.minimum_seconds) fields.push_back("pricing.minimum_billed_seconds");
  return fields;
}

std::string OfferBillingText(const Offer& offer, const Scenario* applied, bool with_source, Lang lang) {
  const BillingRule& b = offer.billing;
  const auto seconds = [lang](double v) { return TrFormat(lang, "unit.seconds", {FormatNumber(v, 6)}); };
  std::string text;
  if (b.increment_seconds) {
    text = TrFormat(lang, "offer.increment", {seconds(*b.increment_seconds)});
  } else {
    text = Tr(lang, "offer.increment_unconfirmed");
    if (applied) text += TrFormat(lang, "offer.kept", {seconds(applied->pricing.billing_increment_seconds)});
  }
  text += ", ";
  if (b.minimum_seconds) {
    text += *b.minimum_seconds > 0 ? TrFormat(lang, "offer.minimum", {seconds(*b.minimum_seconds)}) : Tr(lang, "offer.no_minimum");
  } else {
    text += Tr(lang, "offer.minimum_unconfirmed");
    if (applied) text += TrFormat(lang, "offer.kept", {seconds(applied->pricing.minimum_billed_seconds)});
  }
  text += ", " + (offer.gpus_per_instance == 1 ? std::string(Tr(lang, "offer.single_gpu"))
                                              : TrFormat(lang, "offer.whole_instances", {std::to_string(offer.gpus_per_instance)}));
  if (with_source && !b.id.empty()) text += " (" + b.source + ", " + b.date + ")";
  return text;
}

std::string OfferListPrice(const Offer& offer, const Scenario& s) {
  if (offer.price_by_quote) return std::string(Tr("quote.in_list")) + " (" + offer.date + ")";
  const std::string per = std::string("/") + Tr("unit.gpu_h") + (offer.model == PricingModel::kReserved ? Tr("offer.reserved") : "");
  const std::string usd = "$" + FormatNumber(offer.usd_per_gpu_hour, 4);
  if (s.pricing.currency != static_cast<int>(Currency::kKrw) || !(s.pricing.krw_per_usd > 0))
    return usd + per + " (" + offer.date + ")";
  return FormatKrwGrouped(offer.usd_per_gpu_hour * s.pricing.krw_per_usd) + per + " (" + usd + ", " + offer.date + ")";
}

nlohmann::json OfferBillingJson(const Offer& offer, const Scenario* applied) {
  const auto seconds = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json unconfirmed = json::array();
  for (const char* field : OfferUnconfirmedFields(offer)) unconfirmed.push_back(field);
  return {{"rule", offer.billing.id}, {"billing_increment_seconds", seconds(offer.billing.increment_seconds)},
          {"minimum_billed_seconds", seconds(offer.billing.minimum_seconds)}, {"whole_instances", true},
          {"source", offer.billing.source}, {"date", offer.billing.date}, {"via", offer.billing.via},
          {"note", offer.billing.note}, {"unconfirmed", unconfirmed}, {"text", OfferBillingText(offer, applied, true, Lang::kEn)}};
}

}  // namespace gpucost

namespace gpucost {

// The fields an offer sets (ApplyOffer), in the order the result names them. Price fields are not an offer's
// when it is priced by quote.
namespace {
constexpr const char* kOfferFields[] = {
    "cluster.gpu", "cluster.gpus_per_node", "pricing.usd_per_gpu_hour", "pricing.krw_per_gpu_hour",
    "pricing.price_includes_tax", "pricing.model", "pricing.reserved.capacity_guaranteed",
    "pricing.reserved.usd_per_gpu_hour_on_demand", "pricing.spot.discount", "pricing.whole_nodes",
    "pricing.billing_increment_seconds", "pricing.minimum_billed_seconds", "pricing.tax_rate",
    "storage.usd_per_gb_egress", "pricing.stopped_price_fraction", "pricing.stopped_discount_hours"};
bool PriceField(const char* path) {
  return std::strcmp(path, "pricing.usd_per_gpu_hour") == 0 || std::strcmp(path, "pricing.krw_per_gpu_hour") == 0 ||
         std::strcmp(path, "pricing.price_includes_tax") == 0;
}
}  // namespace

Message ApplyOfferUnlessGiven(const Offer& offer, Scenario* s, const std::function<bool(const char*)>& given) {
  Scenario applied = *s;
  ApplyOffer(offer, &applied);
  const PricingModel model = Model(*s);
  const bool model_given = given("pricing.model");
  const bool price_given = given("pricing.usd_per_gpu_hour") || given("pricing.krw_per_gpu_hour");
  // Spot and reserved only where the offer lists them: its spot price, or its reservation rate.
  if (model_given && !price_given && !offer.price_by_quote) {
    if (model == PricingModel::kSpot) {
      if (offer.spot_usd_per_gpu_hour <= 0)
        return {"msg.offer_no_spot", {offer.id}};
      applied.pricing.usd_per_gpu_hour = offer.spot_usd_per_gpu_hour;
    } else if (model != offer.model && model != PricingModel::kOwned) {
      return {"msg.offer_model_unlisted", {PricingModelName(model), offer.id, PricingModelName(offer.model)}};
    }
  }
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (SameValue(applied, *s, f) || given(f.path)) continue;
    if (offer.price_by_quote && PriceField(f.path)) continue;  // the quote is the user's to type
    if (std::strcmp(f.path, "pricing.model") == 0) continue;  // kept as given or as it was (checked above)
    if (std::strcmp(f.path, "pricing.reserved.capacity_guaranteed") == 0 && model != PricingModel::kReserved) continue;
    if (f.kind == FieldKind::kText) std::snprintf(static_cast<char*>(f.ref(*s)), TextCapacity(f), "%s", GetText(applied, f));
    else SetNumber(*s, f, GetNumber(applied, f));
  }
  if (!model_given) s->pricing.model = applied.pricing.model;
  return {};
}

std::vector<OfferOverride> OfferOverrides(const Scenario& s) {
  std::vector<OfferOverride> out;
  const Offer* offer = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  if (!offer) return out;
  Scenario applied = s;
  ApplyOffer(*offer, &applied);
  if (Model(s) == PricingModel::kSpot && offer->spot_usd_per_gpu_hour > 0) {
    applied.pricing.model = s.pricing.model;
    applied.pricing.usd_per_gpu_hour = offer->spot_usd_per_gpu_hour;
  }
  for (const char* path : kOfferFields) {
    const FieldSpec& f = *FindField(path);
    if (offer->price_by_quote && PriceField(path)) continue;
    if (std::strcmp(path, "pricing.reserved.capacity_guaranteed") == 0 && Model(s) != PricingModel::kReserved) continue;
    if (std::strcmp(path, "pricing.reserved.usd_per_gpu_hour_on_demand") == 0 && Model(s) != PricingModel::kReserved) continue;
    if (std::strcmp(path, "pricing.krw_per_gpu_hour") == 0 && s.pricing.krw_per_gpu_hour <= 0) continue;
    if (SameValue(applied, s, f)) continue;
    OfferOverride o;
    o.path = path;
    if (f.kind == FieldKind::kText) {
      o.offer_value = GetText(applied, f);
      o.value = GetText(s, f);
    } else if (f.kind == FieldKind::kEnum) {
      o.offer_value = f.choices[static_cast<int>(GetNumber(applied, f))];
      o.value = f.choices[static_cast<int>(GetNumber(s, f))];
    } else {
      o.offer_value = FormatNumber(GetNumber(applied, f), 10);
      o.value = FormatNumber(GetNumber(s, f), 10);
    }
    out.push_back(o);
  }
  return out;
}

nlohmann::json OfferAppliedJson(const Scenario& s) {
  const Offer* o = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  if (!o) return nullptr;
  json overridden = json::array();
  for (const OfferOverride& v : OfferOverrides(s))
    overridden.push_back({{"field", v.path}, {"value", v.value}, {"offer_value", v.offer_value}});
  return {{"id", o->id}, {"provider", o->provider}, {"product", o->product}, {"date", o->date}, {"source", o->source},
          {"price_by_quote", o->price_by_quote}, {"overridden", overridden}};
}

// Issue 25: "pricing.offer" fills what the document does not give itself (offers.h ApplyOfferUnlessGiven); an
// unknown id is refused.
void ApplyNamedOffer(const json& doc, Scenario* s, std::vector<InputError>* errors) {
  const json* p = doc.contains("pricing") && doc["pricing"].is_object() ? &doc["pricing"] : nullptr;
  if (!p || !p->contains("offer") || !(*p)["offer"].is_string() || s->pricing.offer[0] == '\0') return;
  const Offer* offer = FindOffer(s->pricing.offer);
  if (!offer) return;  // ValidateOffer names it
  const auto given = [&doc](const char* path) {
    const json* at = &doc;
    for (const char* start = path;;) {
      const char* dot = std::strchr(start, '.');
      const std::string key = dot ? std::string(start, dot - start) : std::string(start);
      if (!at->is_object() || !at->contains(key)) return false;
      at = &(*at)[key];
      if (!dot) return true;
      start = dot + 1;
    }
  };
  if (Message why = ApplyOfferUnlessGiven(*offer, s, given); !why.empty()) errors->push_back(CodedError("pricing.model", std::move(why)));
}

namespace {
// Said out of line (AddError in scenario/json_io.h: a valid scenario's check carries none of it).
[[gnu::noinline]] void UnknownOfferError(const Scenario& s, std::vector<InputError>* e) {
  std::string ids;
  for (std::size_t i = 0; i < OfferCount() && i < 6; ++i) ids += (i ? ", " : "") + Offers()[i].id;
  e->push_back(CodedError("pricing.offer", {"msg.v.unknown_offer", {ShortenForMessage(s.pricing.offer), ids}}));
}
}  // namespace

void ValidateOffer(const Scenario& s, std::vector<InputError>* e) {
  if (s.pricing.offer[0] && !FindOffer(s.pricing.offer)) UnknownOfferError(s, e);  // issue 25: applied or refused, never ignored
}

}  // namespace gpucost
