// offers.h — the offers catalog (assets/offers.json, embedded at build time): dated public list prices of
// GPU instances (per GPU-hour and per instance-hour, GPUs per instance, region, date, source). Every offer
// is an example that users override with their own quote.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "scenario/json_io.h"
#include "base/i18n.h"
#include "scenario/scenario.h"
#include "base/message.h"

namespace gpucost {

constexpr const char* kOffersSchema = "gpucost/offers@1";

// How a provider bills an instance's time (assets/offers.json "billing_rules"), with its source and date. A figure
// that no public source confirmed is absent (nullopt), never guessed: applying the offer leaves that field as it
// was and says so.
struct BillingRule {
  std::string id;                                 // "aws-ec2-linux"
  std::string provider;                           // "AWS"
  std::string applies_to;                         // "Linux On-Demand, Reserved and Spot instances"
  std::optional<double> increment_seconds;        // billing granularity (1: per second, 60: per minute)
  std::optional<double> minimum_seconds;          // minimum billed per rental (0: none)
  std::string date;                               // when the rule was published or read
  std::string source;                             // the provider's page
  std::string via;                                // where it was read, when not the provider's page itself
  std::string note;
};
// One fact about an offer beyond its price, with where and when it was read (issue 16: domestic clouds).
// item: a provider sheet field ("provider.tenancy", "provider.data_location", "provider.certifications", ...),
// which ApplyOffer fills, or one of kOfferFactItems (billing unit, stopped-instance billing, VAT, egress, ...).
struct OfferFact {
  std::string item;
  std::string value;
  std::string value_ko;  // the same fact in Korean ("" when not given: value is shown), for Korean providers
  std::string source;  // the page or document the fact was read from
  std::string date;    // when it was published or read ("undated, read 2026-12" when the page has no date)
};
// Fact items that are not provider sheet fields.
constexpr const char* kOfferFactItems[] = {"gpu_memory", "billing_unit", "stopped_billing", "vat", "egress",
                                           "storage",    "capacity",     "idle_reclaim",    "product_page"};

struct Offer {
  std::string id;              // "aws-p5.48xlarge-us-east-1"
  std::string provider;        // "AWS"
  std::string product;         // "p5.48xlarge (8x H100 SXM)"
  std::string gpu;             // catalog id (assets/gpus.json)
  std::string region;
  PricingModel model = PricingModel::kOnDemand;  // on_demand or reserved (a dated reservation rate)
  bool capacity_guaranteed = false;
  int gpus_per_instance = 0;
  double usd_per_gpu_hour = 0;       // before tax
  double usd_per_instance_hour = 0;  // before tax
  double spot_usd_per_gpu_hour = 0;  // 0: no published spot price
  std::string date;                  // when the price was read (or valid)
  std::string source;                // the provider's page or API
  std::string via;                   // third-party transcription the figure was read from ("" if none)
  std::string note;
  std::string note_ko;               // the note in Korean ("" when not given)
  BillingRule billing;               // its billing rule (billing.id "" when none is published: all unconfirmed)
  // Price by quote (no public list price): usd_per_gpu_hour and usd_per_instance_hour are absent (0); picking
  // the offer leaves the scenario unpriced (pricing.usd_per_gpu_hour = 0) and blocked until the quoted price
  // is typed (FindBlockingState: "price_by_quote").
  bool price_by_quote = false;
  double tax_rate = -1;            // the tax the provider adds to its prices (0.10: Korean VAT); -1: not stated
  double krw_per_gb_egress = 0;    // published internet egress price, KRW/GB before tax (0: not published)
  // Issue 50: how a stopped (not deleted) instance is billed, where the provider says (its "stopped_billing" fact
  // gives the words and the source): the share of the running price (-1: not stated; 0: not billed), for the first
  // stopped_discount_hours (0: all of them), the full price after.
  double stopped_price_fraction = -1;
  double stopped_discount_hours = 0;
  // Issue 50: hours of idleness after which the provider may reclaim the instance ("idle_reclaim" fact; 0: none
  // stated). Stopped hours beyond it are warned about: the capacity may not be there to restart on.
  double idle_reclaim_hours = 0;
  std::vector<OfferFact> facts;
};

// A fact's value and an offer's note in `lang` (Korean where the offer gives it, else the English text). Offers
// and scenarios hold both; the language is picked only where the text is shown.
const std::string& FactText(const OfferFact& fact, Lang lang);
const std::string& OfferNoteText(const Offer& offer, Lang lang);

// The fact for `item`, or nullptr.
const OfferFact* FindFact(const Offer& offer, std::string_view item);

// Parses an offers document. Errors name the JSON path (e.g. "offers[3].usd_per_gpu_hour") and the range.
std::vector<Offer> ParseOffersJson(std::string_view text, std::vector<InputError>* errors);

// The embedded catalog (parsed once).
const Offer* Offers();
std::size_t OfferCount();
const Offer* FindOffer(std::string_view id);

// Applies an offer to a scenario: cluster.gpu, cluster.gpus_per_node, pricing.usd_per_gpu_hour (the
// KRW price is cleared), pricing.model (on_demand, or reserved with its capacity guarantee), and
// pricing.spot.discount where the offer publishes a spot price, and records the offer's id in pricing.offer.
// Prices are before tax. Billing: pricing.whole_nodes (an instance is rented whole: its GPUs are the node), and
// pricing.billing_increment_seconds and pricing.minimum_billed_seconds where the offer's billing rule confirms
// them; an unconfirmed one keeps the scenario's value (OfferUnconfirmedFields names them). A price-by-quote offer
// clears the price (the scenario is unpriced until the quote is typed). The offer's tax rate and egress price,
// where stated, set pricing.tax_rate and storage.usd_per_gb_egress (at the scenario's krw_per_usd); its stopped-instance
// billing, where stated, sets pricing.stopped_price_fraction and pricing.stopped_discount_hours. The provider
// sheet (provider.*) is the offer's: its known facts fill it, every other item is cleared ("ask the provider").
void ApplyOffer(const Offer& offer, Scenario* s);

// The scenario fields ApplyOffer leaves as they were for want of a confirmed figure, e.g.
// {"pricing.minimum_billed_seconds"} for Azure; empty when every billing figure is confirmed.
std::vector<const char*> OfferUnconfirmedFields(const Offer& offer);

// The offer's billing in one line, the same on the page and in the CLI: "billed in 1 s increments, minimum 60 s,
// whole instances of 8 GPUs (source, date)". An unconfirmed figure says so; with the scenario it was applied to,
// also what was kept ("minimum not confirmed (kept 0 s)"). with_source: the rule's source and date at the end.
std::string OfferBillingText(const Offer& offer, const Scenario* applied = nullptr, bool with_source = true,
                             Lang lang = CurrentLanguage());

// The offer's list price per GPU-hour as the page's offer list reads it, in the scenario's display currency and the
// current language: "$6.88/GPU-h (2026-11-09)"; in a KRW scenario converted at pricing.krw_per_usd, the dollars beside
// it: "₩9,900/GPU시간 ($6.88, 2026-11-09)"; a reservation rate marked; a price by quote says so.
std::string OfferListPrice(const Offer& offer, const Scenario& s);

// The same as a JSON object (`catalog offers --format json`, the pricing document's "offer"; its "text" in English:
// documents are the same bytes in every language): rule, increment and
// minimum in seconds (null: not confirmed), whole_instances, source, date, the unconfirmed fields and the text.
nlohmann::json OfferBillingJson(const Offer& offer, const Scenario* applied = nullptr);
// pricing.offer in a scenario document (issue 25): the offer fills every field ApplyOffer sets that the document
// does not give itself (`given(path)`); a field the user gave wins (OfferOverrides names it). Spot and reserved
// only where the offer lists them: pricing.model = spot takes the offer's spot price; a model the offer does not
// list, without a price of its own, is refused. Returns "" or the message (for pricing.model).
Message ApplyOfferUnlessGiven(const Offer& offer, Scenario* s, const std::function<bool(const char*)>& given);

// The fields of a scenario with pricing.offer whose value is not the offer's (set by the user: the user wins).
struct OfferOverride {
  std::string path, value, offer_value;
};
std::vector<OfferOverride> OfferOverrides(const Scenario& s);
// {"id", "provider", "product", "date", "source", "price_by_quote", "overridden": [{"field", "value",
// "offer_value"}]} for the scenario's offer, or null without one: every result document names it.
nlohmann::json OfferAppliedJson(const Scenario& s);

// True when the offer lists a price for `model`: its own model (on-demand, or reserved for a dated reservation
// rate), spot where it publishes a spot price; owned hardware is always the buyer's own option. A model the offer
// does not list is said, not priced (issue 45: WithPricingModel leaves it without a price, FindBlockingState says
// model_not_offered), until the user types a price of their own.
bool OfferListsModel(const Offer& offer, PricingModel model);

// True when pricing.offer names a price-by-quote offer and the scenario has no price of its own yet (the price
// is 0, or the field's example default, which cannot be this provider's quote).
bool AwaitsQuote(const Scenario& s);

// Sets the quoted price per GPU-hour as typed ("₩9,500", "9,500원", "$6.2", or a plain amount in the scenario's
// currency; money_input.h): a won quote goes to pricing.krw_per_gpu_hour (it stays in won whatever the rate), a
// dollar quote to pricing.usd_per_gpu_hour. Returns "" or the message; *label receives the conversion said.
std::string SetQuotedPrice(Scenario* s, const std::string& text, std::string* label);
Message QuotedPriceProblem(Scenario* s, const std::string& text, std::string* label);  // the same, as a code (empty: set)

// The offers' part of reading a scenario (ParseScenarioJson, job/validate.h): "pricing.offer" fills what the
// document `doc` does not give itself (ApplyOfferUnlessGiven); an unknown id is left to ValidateOffer.
void ApplyNamedOffer(const nlohmann::json& doc, Scenario* s, std::vector<InputError>* errors);
// The offers' check of a scenario (gathered by ValidateScenario): pricing.offer, when given, is in the catalog (an
// offer is applied or refused, never ignored).
void ValidateOffer(const Scenario& s, std::vector<InputError>* errors);

}  // namespace gpucost
