// Money fields in the scenario's currency (money_input.h): shown and typed in KRW in a KRW scenario, stored in
// USD as their JSON names say, so the cost is the same whichever currency a value was typed in, and old
// scenarios keep their meaning.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "documents/field_edit.h"
#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "scenario/money_input.h"
#include "scenario/quantity.h"
#include "base/i18n.h"

using namespace gpucost;

namespace {

Scenario Krw(double rate = 1439) {
  Scenario s = DefaultScenario();
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  s.pricing.krw_per_usd = rate;
  return s;
}

// Types `text` into field `path` as the page does; the text must be accepted.
void Type(Scenario* s, const char* path, const char* text) {
  CAPTURE(path);
  CAPTURE(text);
  const MoneyTyped m = ParseMoneyField(*s, *FindField(path), text);
  REQUIRE(m.error.empty());
  SetNumber(*s, *FindField(path), m.stored);
}

}  // namespace

TEST_CASE("money fields: every usd_* field shows in won in a KRW scenario and reads its own text back") {
  const Scenario krw = Krw();
  const Scenario usd = DefaultScenario();
  int money_fields = 0;
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (FieldMoneyUnit(f) != MoneyUnit::kUsd) continue;
    ++money_fields;
    CAPTURE(f.path);
    CHECK(ShownMoneyUnit(krw, f) == MoneyUnit::kKrw);
    CHECK(ShownMoneyUnit(usd, f) == MoneyUnit::kUsd);
    CHECK(ShownMoneyUnitText(krw, f) == "KRW" + std::string(f.unit + 3));
    CHECK(ShownMoneyUnitText(usd, f) == f.unit);
    CHECK(MoneyConversionLabel(usd, f, 1.0).empty());  // shown as stored: nothing to say
    for (double stored : {f.default_value, 0.0834, 3.5, 12345.678, 40000.0}) {
      if (!ValueInRange(f, stored)) continue;
      for (const Scenario* s : {&krw, &usd}) {
        const std::string shown = FormatShownMoney(*s, f, stored);
        const MoneyTyped back = ParseMoneyField(*s, f, shown);
        CAPTURE(shown);
        REQUIRE(back.error.empty());
        CHECK(back.stored == doctest::Approx(stored).epsilon(1e-8));
      }
    }
  }
  // fees, storage, egress, on-demand burst, capex, electricity, other opex, break-even price, colocation,
  // staff, the price itself and the two inference pool prices
  CHECK(money_fields >= 13);
  const FieldSpec& kwh = *FindField("pricing.owned.usd_per_kwh");
  CHECK(FormatShownMoney(krw, kwh, 5000.0 / 1439) == "5,000");  // not 4,999.99999999
  CHECK(FormatShownMoney(krw, kwh, 0.08) == "115.12");
  // Issue 30: a price converted to won keeps its digits, grouped ("13662.4416" before).
  const FieldSpec& price = *FindField("pricing.usd_per_gpu_hour");
  CHECK(FormatShownMoney(krw, price, 13662.4416 / 1439) == "13,662.4416");
  CHECK(MoneyConversionLabel(krw, kwh, 1.0) == "₩1,439/kWh = $1/kWh at ₩1,439/$ (2025-12-30)");
  CHECK(MoneyConversionLabel(krw, kwh, 1.0, MoneyUnit::kNone, false) == "= $1/kWh at ₩1,439/$ (2025-12-30)");
  CHECK(MoneyConversionLabel(krw, *FindField("storage.usd_per_gb_month"), 1.2 / 1439) ==
        "₩1.2/GB-month = $0.000833912/GB-month at ₩1,439/$ (2025-12-30)");  // six significant digits, below 1 too
  // A KRW price stays in won whatever the scenario's currency.
  CHECK(ShownMoneyUnit(usd, *FindField("pricing.krw_per_gpu_hour")) == MoneyUnit::kKrw);
  // Read as money (the Sensitivity view's bounds, 2026-12-07: "2.2425 USD/GPU시간" before): the shown currency's
  // sign, six significant digits, the per-unit name in the reader's language.
  CHECK(ShownMoneyAmount(usd, price, 2.2425) == "$2.2425/GPU-hour");
  CHECK(ShownMoneyAmount(krw, price, 3227.0 / 1439) == "₩3,227/GPU-hour");
  CHECK(ShownMoneyAmount(usd, *FindField("pricing.krw_per_gpu_hour"), 9500) == "₩9,500/GPU-hour");
  SetLanguage(Lang::kKo);
  const std::string ko = ShownMoneyAmount(krw, price, 3227.0 / 1439);
  SetLanguage(Lang::kEn);
  CHECK(ko == "₩3,227/GPU시간");
  // A rate per year reads as one (2026-12-07: the interest rate read "0 회/년", zero times a year): a percentage.
  const FieldSpec& interest = *FindField("pricing.owned.interest_rate");
  CHECK(FieldShownAsPercent(interest));
  CHECK(FieldAmountText(usd, interest, 0.05) == "5% /year");
  SetLanguage(Lang::kKo);
  const std::string rate_ko = FieldAmountText(usd, interest, 0.05);
  SetLanguage(Lang::kEn);
  CHECK(rate_ko == "5% /년");
}

TEST_CASE("money fields: the same cost whichever currency the values were typed in") {
  auto owned = [](Scenario s) {
    s.pricing.model = static_cast<int>(PricingModel::kOwned);
    return s;
  };
  // Dollars typed into a USD scenario.
  Scenario a = owned(DefaultScenario());
  a.pricing.krw_per_usd = 1439;
  Type(&a, "pricing.owned.usd_per_kwh", "0.1");
  Type(&a, "pricing.owned.capex_usd_per_gpu", "$35,000");
  Type(&a, "pricing.owned.staff_usd_per_gpu_year", "1,000");
  Type(&a, "pricing.fixed_fees_usd", "2,000");
  Type(&a, "storage.usd_per_gb_month", "0.02");
  // The same amounts in won, typed as a Korean price list reads, into a KRW scenario.
  Scenario b = owned(Krw(1439));
  Type(&b, "pricing.owned.usd_per_kwh", "143.9");           // shown in won: a plain number is won
  Type(&b, "pricing.owned.capex_usd_per_gpu", "5,036.5만 원");  // 35,000 x 1,439 = 50,365,000
  Type(&b, "pricing.owned.staff_usd_per_gpu_year", "₩1,439,000");
  Type(&b, "pricing.fixed_fees_usd", "$2,000");             // dollars typed into a won field: converted
  Type(&b, "storage.usd_per_gb_month", "28.78원");
  for (const char* path : {"pricing.owned.usd_per_kwh", "pricing.owned.capex_usd_per_gpu", "pricing.owned.staff_usd_per_gpu_year",
                           "pricing.fixed_fees_usd", "storage.usd_per_gb_month"}) {
    CAPTURE(path);
    CHECK(GetNumber(b, *FindField(path)) == doctest::Approx(GetNumber(a, *FindField(path))).epsilon(1e-12));
  }
  const Result ra = Evaluate(a), rb = Evaluate(b);
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  CHECK(rb.expected_usd == doctest::Approx(ra.expected_usd).epsilon(1e-12));
  CHECK(rb.display_per_usd == 1439);  // shown in won, the same cost

  // The stored scenario round-trips through JSON (and so share links) with the same cost; its keys say USD.
  const std::string json = ScenarioToJson(b);
  CHECK(json.find("\"usd_per_kwh\"") != std::string::npos);
  const ScenarioParse back = ParseScenarioJson(json);
  REQUIRE(back.ok());
  CHECK(Evaluate(back.scenario).expected_usd == doctest::Approx(rb.expected_usd).epsilon(1e-12));
  CHECK(std::strcmp(back.scenario.fx.krw_per_usd_date, "2025-12-30") == 0);
  // And through a share link, with a dated rate of its own.
  LinkPayload payload{b, {}};
  std::strcpy(payload.scenario.fx.krw_per_usd_date, "2026-11-30");
  LinkPayload opened;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(EncodeLink(payload, "https://example.org/"), &opened, &errors));
  CHECK(std::strcmp(opened.scenario.fx.krw_per_usd_date, "2026-11-30") == 0);
  CHECK(Evaluate(opened.scenario).expected_usd == doctest::Approx(rb.expected_usd).epsilon(1e-12));
}

TEST_CASE("money fields: old scenarios open with the same values; the rate's date is a dated field") {
  const FieldSpec& date = *FindField("pricing.krw_per_usd_date");
  CHECK(date.kind == FieldKind::kText);
  CHECK(std::string(date.default_text) == "2025-12-30");
  CHECK(std::string(FieldSource(date, Lang::kEn)).find("2025-12-30") != std::string::npos);
  CHECK(std::string(FieldSource(*FindField("pricing.krw_per_usd"), Lang::kEn)).find("2025-12-30") != std::string::npos);
  // A scenario written before the date existed: same fields, same cost; the default date is not written.
  const char* old = R"({"pricing": {"currency": "KRW", "krw_per_usd": 1400, "owned": {"usd_per_kwh": 0.1}, "model": "owned"}})";
  const ScenarioParse p = ParseScenarioJson(old);
  REQUIRE(p.ok());
  CHECK(p.scenario.pricing.owned.usd_per_kwh == 0.1);
  CHECK(ScenarioToJson(p.scenario).find("krw_per_usd_date") == std::string::npos);
  Scenario dated = p.scenario;
  std::strcpy(dated.fx.krw_per_usd_date, "2026-11-30");
  CHECK(Evaluate(dated).expected_usd == Evaluate(p.scenario).expected_usd);  // a label, not an input of the model
  CHECK(ScenarioToJson(dated).find("\"krw_per_usd_date\": \"2026-11-30\"") != std::string::npos);
  const FieldSpec& kwh = *FindField("pricing.owned.usd_per_kwh");
  CHECK(MoneyConversionLabel(dated, kwh, 0.1) == "₩140/kWh = $0.1/kWh at ₩1,400/$ (2026-11-30)");
  dated.fx.krw_per_usd_date[0] = '\0';
  CHECK(MoneyConversionLabel(dated, kwh, 0.1) == "₩140/kWh = $0.1/kWh at ₩1,400/$ (rate undated)");
}

TEST_CASE("money fields: a typed value is used as typed or refused with a message") {
  const Scenario krw = Krw();
  const Scenario usd = DefaultScenario();
  const FieldSpec& kwh = *FindField("pricing.owned.usd_per_kwh");  // 0 to 10 USD/kWh
  const FieldSpec& fee = *FindField("pricing.fixed_fees_usd");
  // 만/억 count won: in a dollar field they need ₩ or 원.
  CHECK(ParseMoneyField(usd, fee, "300만").error.find("만") != std::string::npos);
  // 조 as well, now that every number reads it (c4887d5): "0.0001조" in a dollar field was taken as $100,000,000.
  CHECK(ParseMoneyField(usd, fee, "0.0001조").error.find("count won") != std::string::npos);
  CHECK(ParseMoneyField(usd, fee, "300만 원").stored == doctest::Approx(3e6 / 1439));
  CHECK(ParseMoneyField(krw, fee, "300만").stored == doctest::Approx(3e6 / 1439));
  CHECK(ParseMoneyField(krw, fee, "1.2").stored == doctest::Approx(1.2 / 1439));
  // Out of range: the range in the currency the field shows.
  const MoneyTyped high = ParseMoneyField(krw, kwh, "₩20,000");
  CHECK(high.error == "\"₩20,000\" is not allowed: must be a number >= 0 and <= 14,390 KRW/kWh");
  CHECK(ParseMoneyField(usd, kwh, "$20").error == "\"$20\" is not allowed: must be a number >= 0 and <= 10 USD/kWh");
  CHECK_FALSE(ParseMoneyField(krw, kwh, "-5").error.empty());
  CHECK(ParseMoneyField(krw, kwh, "12x").error.rfind("\"12x\" is not allowed: ", 0) == 0);
  CHECK_FALSE(ParseMoneyField(krw, kwh, "").error.empty());
  CHECK_FALSE(ParseMoneyField(krw, kwh, "₩").error.empty());
  // Typed as shown: the label says what was stored; typed in the stored currency of a USD scenario: no label.
  CHECK(ParseMoneyField(krw, kwh, "143.9").label == "₩143.9/kWh = $0.1/kWh at ₩1,439/$ (2025-12-30)");
  CHECK(ParseMoneyField(usd, kwh, "$0.1").label.empty());
  CHECK(ParseMoneyField(usd, kwh, "₩143.9").label == "₩143.9/kWh = $0.1/kWh at ₩1,439/$ (2025-12-30)");
}

TEST_CASE("money fields: the CLI's --set takes the same text (SetFieldFromText)") {
  Scenario s = DefaultScenario();
  std::string label;
  CHECK(SetFieldFromText(&s, "pricing.currency", "KRW", &label).empty());
  CHECK(s.pricing.currency == static_cast<int>(Currency::kKrw));
  CHECK(SetFieldFromText(&s, "pricing.krw_per_usd", "1,450", &label).empty());
  CHECK(SetFieldFromText(&s, "pricing.krw_per_usd_date", "2026-11-30", &label).empty());
  CHECK(SetFieldFromText(&s, "pricing.owned.usd_per_kwh", "145", &label).empty());
  CHECK(s.pricing.owned.usd_per_kwh == doctest::Approx(0.1));
  CHECK(label == "₩145/kWh = $0.1/kWh at ₩1,450/$ (2026-11-30)");
  CHECK(SetFieldFromText(&s, "pricing.tax_rate", "10%", &label).empty());
  CHECK(s.pricing.tax_rate == doctest::Approx(0.1));
  CHECK(SetFieldFromText(&s, "pricing.whole_nodes", "false", &label).empty());
  CHECK_FALSE(s.pricing.whole_nodes);
  const Scenario before = s;
  CHECK(SetFieldFromText(&s, "pricing.owned.usd_per_kwh", "₩99,999", &label).rfind("pricing.owned.usd_per_kwh: ", 0) == 0);
  CHECK(SetFieldFromText(&s, "pricing.currency", "EUR", &label).rfind("pricing.currency: ", 0) == 0);
  CHECK(SetFieldFromText(&s, "pricing.whole_nodes", "yes", &label).rfind("pricing.whole_nodes: ", 0) == 0);
  CHECK(SetFieldFromText(&s, "pricing.nope", "1", &label).rfind("pricing.nope: unknown field", 0) == 0);
  CHECK(SetFieldFromText(&s, "pricing.krw_per_usd_date", "2026-11-30 하나은행 전신환 매도율", &label).rfind("pricing.krw_per_usd_date: ", 0) == 0);
  CHECK(std::memcmp(&before, &s, sizeof s) == 0);  // refusals leave the scenario as it was
}
