// Domestic clouds in the offer catalog (issue 16): price-by-quote offers with dated, sourced facts; picking one
// leaves the scenario unpriced and blocked until the quoted price is typed; the facts fill the provider sheet.
#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <string>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "scenario/money_input.h"
#include "money/offers.h"
#include "money/provider_sheet.h"

using namespace gpucost;

namespace {

std::string SheetValue(const ProviderSheetDoc& doc, const std::string& key, std::size_t column = 0) {
  for (const SheetRow& row : doc.rows)
    if (row.key == key) return row.values[column];
  return "<no row " + key + ">";
}

}  // namespace

TEST_CASE("domestic offers: KT Cloud, Naver Cloud, Kakao Cloud, NHN Cloud and Samsung SDS load, priced by quote, every fact dated and sourced") {
  std::set<std::string> providers;
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    if (!o.price_by_quote) continue;
    CAPTURE(o.id);
    providers.insert(o.provider);
    CHECK(o.usd_per_gpu_hour == 0);  // no number from nowhere
    CHECK(o.usd_per_instance_hour == 0);
    CHECK(o.tax_rate == doctest::Approx(0.10));  // Korean VAT on VAT-excluded prices
    CHECK(o.facts.size() >= 4);
    CHECK(o.source.rfind("https://", 0) == 0);  // the product page
    for (const OfferFact& f : o.facts) {
      CAPTURE(f.item);
      CHECK_FALSE(f.value.empty());
      // In Korean too (issue 27): a Korean reader gets the domestic provider's facts in Korean.
      CHECK_FALSE(f.value_ko.empty());
      CHECK(FactText(f, Lang::kKo) == f.value_ko);
      CHECK(FactText(f, Lang::kEn) == f.value);
      CHECK(f.source.size() >= 10);                       // a page or document to check
      CHECK(f.date.find("20") != std::string::npos);      // a year: when it was published or read
    }
    CHECK(FindFact(o, "vat") != nullptr);
    CHECK_FALSE(o.note_ko.empty());
    CHECK(OfferNoteText(o, Lang::kKo) == o.note_ko);
  }
  CHECK(providers == std::set<std::string>{"KT Cloud", "Naver Cloud", "Kakao Cloud", "NHN Cloud", "Samsung SDS"});
  // NHN Cloud (issue 27): instance billing as its docs state it (Compute > Instance > 개요, 과금).
  const Offer* nhn = FindOffer("nhn-cloud-gpu-b200");
  REQUIRE(nhn);
  CHECK(nhn->gpu == "b200");
  CHECK(FindFact(*nhn, "stopped_billing")->value.find("90% off the list price for 90 days") != std::string::npos);
  CHECK(FindFact(*nhn, "stopped_billing")->value_ko.find("90일 동안") != std::string::npos);
  CHECK(FindFact(*nhn, "capacity")->value.find("7,656 B200") != std::string::npos);
  // Facts as published (korea-market.md, checked with the sources named in assets/offers.json).
  const Offer* kakao = FindOffer("kakao-cloud-gpu-b200");
  REQUIRE(kakao);
  CHECK(FindFact(*kakao, "stopped_billing")->value.find("Stopped: billed") != std::string::npos);
  const Offer* ncp = FindOffer("ncp-gpu-server-h200");
  REQUIRE(ncp);
  CHECK(ncp->krw_per_gb_egress == 120);  // first tier after 20 GB free, to 5 TB, VAT excluded (2025-09-13)
  const Offer* scp = FindOffer("samsung-sds-scp-gpu-server-h100");
  REQUIRE(scp);
  CHECK(FindFact(*scp, "provider.ram")->value == "240 to 1,920 GB per server");
}

TEST_CASE("domestic offers: the schema refuses a price on a quote offer and facts without a source") {
  std::vector<InputError> errors;
  ParseOffersJson(R"({"schema": "gpucost/offers@1", "offers": [
    {"id": "x", "provider": "P", "product": "Q", "gpu": "h100-sxm", "gpus_per_instance": 8, "region": "kr",
     "model": "on_demand", "price_by_quote": true, "usd_per_gpu_hour": 2, "date": "2026-12", "source": "https://p",
     "facts": [{"item": "provider.cpu", "value": "2x Xeon", "source": "", "date": "2026-12"},
               {"item": "colour", "value": "blue", "source": "https://p", "date": "2026-12"}]}]})",
                  &errors);
  std::set<std::string> paths;
  for (const InputError& e : errors) paths.insert(e.path);
  CHECK(paths.count("offers[0].usd_per_gpu_hour"));
  CHECK(paths.count("offers[0].facts[0]"));
  CHECK(paths.count("offers[0].facts[1].item"));
  errors.clear();
  const std::vector<Offer> ok = ParseOffersJson(R"({"schema": "gpucost/offers@1", "offers": [
    {"id": "x", "provider": "P", "product": "Q", "gpu": "h100-sxm", "gpus_per_instance": 8, "region": "kr",
     "model": "on_demand", "price_by_quote": true, "date": "2026-12", "source": "https://p"}]})", &errors);
  CHECK(errors.empty());
  REQUIRE(ok.size() == 1);
  CHECK(ok[0].price_by_quote);
}

TEST_CASE("domestic offers: picking one asks for the quoted price; the scenario is not priced until it is typed") {
  Scenario s = DefaultScenario();
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  const Offer& kt = *FindOffer("kt-cloud-ai-nexus-h200");
  ApplyOffer(kt, &s);
  CHECK(std::strcmp(s.cluster.gpu, "h200-sxm") == 0);
  CHECK(s.pricing.usd_per_gpu_hour == 0);
  CHECK(s.pricing.krw_per_gpu_hour == 0);
  CHECK(s.pricing.tax_rate == doctest::Approx(0.10));
  CHECK(AwaitsQuote(s));
  Result r = Evaluate(s);
  REQUIRE(r.ok);
  BlockingState b = FindBlockingState(s, r);
  CHECK(b.blocked);
  CHECK(std::string(b.code) == "price_by_quote");
  CHECK(b.reason.find("KT Cloud") != std::string::npos);
  CHECK(b.reason.find("priced by quote") != std::string::npos);
  // The blocking survives JSON and links: the offer id and the cleared price are written.
  const ScenarioParse back = ParseScenarioJson(ScenarioToJson(s));
  REQUIRE(back.ok());
  CHECK(AwaitsQuote(back.scenario));
  // A hand-written scenario naming the offer but keeping the example default price is not priced either.
  Scenario hand = DefaultScenario();
  std::strcpy(hand.pricing.offer, "kt-cloud-ai-nexus-h200");
  CHECK(AwaitsQuote(hand));

  // Typing the quote: won stays won (krw_per_gpu_hour), dollars go to usd_per_gpu_hour; then it is priced.
  std::string label;
  CHECK_FALSE(SetQuotedPrice(&s, "₩0", &label).empty());
  CHECK_FALSE(SetQuotedPrice(&s, "lots", &label).empty());
  CHECK(AwaitsQuote(s));
  CHECK(SetQuotedPrice(&s, "9,500", &label).empty());  // a KRW scenario: a plain amount is won
  CHECK(s.pricing.krw_per_gpu_hour == 9500);
  CHECK(label.find("₩9,500/GPU-hour") != std::string::npos);
  CHECK_FALSE(AwaitsQuote(s));
  r = Evaluate(s);
  CHECK_FALSE(FindBlockingState(s, r).blocked);
  CHECK(r.usd_per_gpu_hour == doctest::Approx(9500 / s.pricing.krw_per_usd));
  Scenario d = s;
  CHECK(SetQuotedPrice(&d, "$6.6", &label).empty());
  CHECK(d.pricing.usd_per_gpu_hour == doctest::Approx(6.6));
  CHECK(d.pricing.krw_per_gpu_hour == 0);
  // An owned scenario needs no rental price.
  Scenario owned = DefaultScenario();
  ApplyOffer(kt, &owned);
  owned.pricing.model = static_cast<int>(PricingModel::kOwned);
  CHECK_FALSE(FindBlockingState(owned, Evaluate(owned)).blocked);
}

TEST_CASE("domestic offers: facts fill the provider sheet; unknowns stay open (ask the provider)") {
  Scenario s = DefaultScenario();
  std::strcpy(s.provider.encryption, "an answer about another provider");
  const Offer& scp = *FindOffer("samsung-sds-scp-gpu-server-h100");
  ApplyOffer(scp, &s);
  const ProviderSheetDoc doc = BuildProviderSheet({s});
  CHECK(SheetValue(doc, "provider.provider") == "Samsung SDS, Samsung Cloud Platform GPU Server, H100 80 GB (1-8 GPUs)");
  CHECK(SheetValue(doc, "provider.ram") == "240 to 1,920 GB per server");
  CHECK(SheetValue(doc, "provider.cpu") == "12, 24, 48 or 96 vCores");
  CHECK(SheetValue(doc, "provider.tenancy").find("bare-metal") != std::string::npos);
  CHECK(SheetValue(doc, "provider.certifications").find("CSAP") != std::string::npos);
  CHECK(SheetValue(doc, "provider.encryption").empty());  // the other provider's answer is not this offer's
  CHECK(SheetValue(doc, "provider.sla").empty());
  CHECK(doc.open_security_items[0] >= 7);  // certifications known; location, access, encryption, ... still open
  // Naver's published egress price reaches the model and the sheet (120 KRW/GB at the scenario's rate).
  Scenario n = DefaultScenario();
  n.pricing.currency = static_cast<int>(Currency::kKrw);
  ApplyOffer(*FindOffer("ncp-gpu-server-h200"), &n);
  CHECK(n.storage.usd_per_gb_egress * n.pricing.krw_per_usd == doctest::Approx(120));
  const ProviderSheetDoc nd = BuildProviderSheet({n});
  CHECK(SheetValue(nd, "provider.data_location").find("Chuncheon") != std::string::npos);
  CHECK(SheetValue(nd, "egress").find("120") != std::string::npos);
}
