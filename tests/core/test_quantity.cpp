// The one parser for typed numbers (core/scenario/quantity.h): what people type is used as typed or refused.
#include <doctest/doctest.h>

#include <string>

#include "scenario/fields.h"
#include "scenario/quantity.h"
#include "scenario/money_input.h"
#include "job/validate.h"
#include "base/i18n.h"
#include "base/message.h"

using namespace gpucost;

namespace {

double Q(const std::string& text, bool percent = false) {
  double v = -12345;
  const std::string why = ParseQuantity(text, &v, percent);
  INFO(text << ": " << why);
  REQUIRE(why.empty());
  return v;
}

std::string Refused(const std::string& text, bool percent = false) {
  double v = -12345;
  const std::string why = ParseQuantity(text, &v, percent);
  CHECK(v == -12345);  // untouched
  return why;
}

}  // namespace

TEST_CASE("quantity: suffixes, exponents, separators and percent as people type them") {
  CHECK(Q("70B") == 70e9);
  CHECK(Q("2T") == 2e12);
  CHECK(Q("1.5M") == 1.5e6);
  CHECK(Q("300k") == 300e3);
  CHECK(Q("300K") == 300e3);
  CHECK(Q("1e9") == 1e9);
  CHECK(Q("2e3") == 2000);
  CHECK(Q("1,000") == 1000);
  CHECK(Q("2,048") == 2048);
  CHECK(Q("12,345,678.5") == 12345678.5);
  CHECK(Q(" 70 B ") == 70e9);
  CHECK(Q("-2.5") == -2.5);
  CHECK(Q("10%", true) == 0.1);
  CHECK(Q("1.1%", true) == 0.011);
  CHECK(Q("1.4T") == 1.4e12);
}

TEST_CASE("quantity: Korean units, each after its own number, in every number field (a new user's \"20억\" tokens)") {
  CHECK(Q("20억") == 2e9);
  CHECK(Q("2조") == 2e12);
  CHECK(Q("1만") == 1e4);
  CHECK(Q("3억 5,000만") == 3.5e8);
  CHECK(Q("1조 2,000억") == 1.2e12);
  CHECK(Q("1.5조") == 1.5e12);
  CHECK(Q("2억 300") == 200000300);
  CHECK(Q("7만 2B") == 7e4 + 2e9);  // each part as any quantity
  CHECK(Refused("억") != "");           // no number before the unit
  CHECK(Refused("20억%", true) != "");  // a unit and a percentage
  CHECK(Refused("만 3억") != "");       // largest first
  CHECK(Refused("20억 개") != "");      // a word after it
  double v = 0;  // a count field reads it, as typed
  CHECK(ParseFieldInput(*FindField("workload.tokens"), "2조", &v).empty());
  CHECK(v == 2e12);
}

TEST_CASE("quantity: anything else is refused with a reason") {
  CHECK(Refused("") != "");
  CHECK(Refused("70X").find("not a number") != std::string::npos);
  CHECK(Refused("1,0").find("groups of three") != std::string::npos);
  CHECK(Refused("1,2345") != "");
  CHECK(Refused("1.000,5") != "");
  CHECK(Refused("10%").find("percentage") != std::string::npos);  // not a fraction field
  CHECK(Refused("300m").find("ambiguous") != std::string::npos);
  CHECK(Refused("nan") != "");
  CHECK(Refused("inf") != "");
  CHECK(Refused("0x10") != "");
  CHECK(Refused("1e999") != "");
  CHECK(Refused("1e") != "");
  CHECK(Refused("B") != "");
  CHECK(Refused("--1") != "");
}

TEST_CASE("quantity: a field takes what it shows; integers accept any integral value however written") {
  const FieldSpec& gpus = *FindField("cluster.gpus");
  double v = 0;
  CHECK(ParseFieldInput(gpus, "2e3", &v) == "");
  CHECK(v == 2000);
  CHECK(ParseFieldInput(gpus, "2,048", &v) == "");
  CHECK(v == 2048);
  CHECK(ParseFieldInput(gpus, "1.5k", &v) == "");
  CHECK(v == 1500);
  v = 7;
  CHECK(ParseFieldInput(gpus, "1e9", &v) == "\"1e9\" is not allowed: must be an integer from 1 to 10,000,000");
  CHECK(ParseFieldInput(gpus, "2.5", &v).find("must be an integer") != std::string::npos);
  CHECK(ParseFieldInput(gpus, "0", &v).find("is not allowed") != std::string::npos);
  CHECK(v == 7);  // untouched on refusal

  const FieldSpec& tax = *FindField("pricing.tax_rate");
  CHECK(FieldShownAsPercent(tax));
  CHECK(std::string(FieldShownUnit(tax)) == "");  // the value carries its "%"
  CHECK(ParseFieldInput(tax, "0.1", &v) == "");  // a fraction as typed (issue 25)
  CHECK(v == 0.1);
  CHECK(ParseFieldInput(tax, "10%", &v) == "");
  CHECK(v == 0.1);
  v = 7;
  CHECK(ParseFieldInput(tax, "10", &v) == "\"10\" is not allowed: pricing.tax_rate is a fraction; must be a fraction >= 0 "
                                          "and <= 1 (or 0% to 100%): type 0.1 or 10%");
  CHECK(v == 7);  // never read as 10% (nor as 1,000%)
  CHECK(ParseFieldInput(tax, "150%", &v) == "\"150%\" is not allowed: must be a fraction >= 0 and <= 1 (or 0% to 100%)");
  CHECK(FormatFieldValue(tax, 0.1) == "10%");
  CHECK(FieldShownAsPercent(*FindField("cluster.mfu")));
  CHECK(!FieldShownAsPercent(*FindField("workload.params")));

  const FieldSpec& params = *FindField("workload.params");
  CHECK(ParseFieldInput(params, "70B", &v) == "");
  CHECK(v == 70e9);
}

// 2026-12-07's walk-through: a latency target typed as "50ms" or "0.5 s" was refused. A duration field takes a
// duration with its unit, converted to the field's; the unit alone says nothing new ("50" is 50 of the field's).
TEST_CASE("quantity: a duration field takes a duration with its unit") {
  const FieldSpec& ttft = *FindField("inference.slo.ttft_ms");
  const FieldSpec& write = *FindField("reliability.checkpoint_write_minutes");
  auto in = [](const FieldSpec& f, const char* text) {
    double v = -1;
    const std::string why = ParseFieldInput(f, text, &v);
    CAPTURE(text);
    CHECK(why == "");
    return v;
  };
  CHECK(in(ttft, "50ms") == 50);
  CHECK(in(ttft, "50 ms") == 50);
  CHECK(in(ttft, "0.5 s") == 500);
  CHECK(in(ttft, "0.5s") == 500);
  CHECK(in(ttft, "2초") == 2000);
  CHECK(in(ttft, "1,500ms") == 1500);
  CHECK(in(ttft, "2 hours") == 7.2e6);
  CHECK(in(ttft, "50") == 50);
  CHECK(in(write, "90초") == 1.5);
  CHECK(in(write, "2h") == 120);
  CHECK(in(write, "30 min") == 30);
  CHECK(in(write, "1시간") == 60);
  double v = -1;
  CHECK(ParseFieldInput(write, "3m", &v) != "");        // a minute or a million: refused, as before
  CHECK(ParseFieldInput(*FindField("workload.tokens"), "50ms", &v) != "");  // not a duration field
  CHECK(ParseFieldInput(ttft, "ms", &v) != "");        // a unit without its number
  CHECK(v == -1);
}

TEST_CASE("quantity: what a field shows reads back to the same value") {
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (f.kind != FieldKind::kNumber && f.kind != FieldKind::kInteger) continue;
    if (f.default_value == 0 && f.is_auto) continue;
    const std::string shown = FormatFieldValue(f, f.default_value);
    double back = -1;
    INFO(f.path << " shows " << shown);
    CHECK(ParseFieldInput(f, shown, &back) == "");
    CHECK(back == doctest::Approx(f.default_value).epsilon(1e-14));
  }
  CHECK(FormatFieldValue(*FindField("workload.params"), 70e9) == "70B");
  CHECK(FormatFieldValue(*FindField("workload.tokens"), 1.4e12) == "1.4T");
  CHECK(FormatFieldValue(*FindField("cluster.gpus"), 2048) == "2,048");
  CHECK(FormatFieldValue(*FindField("pricing.owned.colocation_usd_per_kw_month"), 184.06) == "184.06");
}

TEST_CASE("quantity: FLOPs past 1e15 show with a suffix the parser reads back exactly, never e-notation (issue 47)") {
  CHECK(Q("975.5E") == 9.755e20);
  CHECK(Q("975.5 E") == 9.755e20);
  CHECK(Q("3P") == 3e15);
  CHECK(Q("2Z") == 2e21);
  CHECK(Q("1.2Y") == 1.2e24);
  CHECK(Refused("1e") != "");  // a lower-case e is the exponent, never exa
  CHECK(Refused("E") != "");
  const FieldSpec& flops = *FindField("workload.flops");
  CHECK(FormatFieldValue(flops, 9.755e20) == "975.5E");
  CHECK(FormatFieldValue(flops, 3.15e23) == "315Z");
  CHECK(FormatFieldValue(flops, 5e15) == "5P");
  CHECK(FormatFieldValue(flops, 1e32) == "100,000,000Y");
  // A derived count of 17 significant digits: shown with 15, and the field then holds exactly what it shows.
  const double derived = 9.7551234567890123e20;
  const double held = FieldValueAsShown(flops, derived);
  CHECK(held == doctest::Approx(derived).epsilon(1e-14));
  const std::string shown = FormatFieldValue(flops, held);
  CHECK(shown.find('e') == std::string::npos);
  double back = 0;
  CHECK(ParseFieldInput(flops, shown, &back) == "");
  CHECK(back == held);
  // Auto turned off: a derived count starts at four significant digits, as the results show work (FormatFlops),
  // and the field shows exactly that value; other fields keep the derived value (the target loss a run reaches).
  CHECK(FieldStartValue(flops, 9.1597352832e23) == 9.16e23);
  CHECK(FormatFieldValue(flops, FieldStartValue(flops, 9.1597352832e23)) == "916Z");
  CHECK(FormatFieldValue(flops, FieldStartValue(flops, 1.338216431616e24)) == "1.338Y");
  CHECK(FormatFieldValue(flops, FieldStartValue(flops, 5.92555931136e23)) == "592.6Z");
  CHECK(FieldStartValue(*FindField("workload.target_loss"), 2.0647) == 2.0647);
  CHECK(FieldStartValue(*FindField("reliability.checkpoint_interval_minutes"), 124.123456) == 124.123456);
  // Every value of 1e15 .. 1e32 written with up to 15 digits reads back as shown.
  for (double v = 1.000000000000001e15; v < 1e32; v *= 7.31) {
    const double h = FieldValueAsShown(flops, v);
    const std::string t = FormatFieldValue(flops, h);
    INFO(v << " shows " << t);
    CHECK(t.find("e+") == std::string::npos);
    CHECK(ParseFieldInput(flops, t, &back) == "");
    CHECK(back == h);
  }
}

// Issue 47's walk-through saw "8030M" for Llama 3.1 8B's 8.03e9 parameters: 8.03 x 1e9 is not 8.03e9 in binary, but
// the parser reads "8.03B" as 8.03e9 exactly (it rounds a scaled value to 15 digits). The law, on values as people
// write them (three to six significant digits, 1e6 to 1e15): the field shows the shortest suffix form ("8.03B", never
// "8030M"), and the parser reads it back to the very value.
TEST_CASE("quantity: law: a count of a few digits shows with its own suffix and reads back exactly") {
  const FieldSpec& params = *FindField("workload.params");
  CHECK(FormatFieldValue(params, 8.03e9) == "8.03B");
  CHECK(FormatFieldValue(params, 70.6e9) == "70.6B");
  CHECK(FormatFieldValue(params, 405.85e9) == "405.85B");
  const char* const suffix = "MBT";
  int checked = 0;
  for (int exponent = 6; exponent <= 12; exponent += 3)
    for (int digits = 3; digits <= 6; ++digits)
      for (long long m = 1000; m < 1000000; m += 997) {  // mantissas 1.000 .. 999.999 at `digits` significant digits
        const double mantissa = static_cast<double>(m) / 1000.0;
        char text[32];
        std::snprintf(text, sizeof text, "%.*g", digits, mantissa);
        if (std::strtod(text, nullptr) >= 1000) continue;  // rounded up to the next suffix's 1
        const double value = std::strtod((std::string(text) + "e" + std::to_string(exponent)).c_str(), nullptr);
        if (!ValueInRange(params, value)) continue;
        const std::string shown = FormatFieldValue(params, value);
        INFO(text << "e" << exponent << " shows " << shown);
        CHECK(shown == std::string(text) + suffix[(exponent - 6) / 3]);
        double back = -1;
        CHECK(ParseFieldInput(params, shown, &back) == "");
        CHECK(back == value);
        ++checked;
      }
  CHECK(checked > 3000);
}

TEST_CASE("quantity: a money field's range and its conversion label name the unit in the reader's language") {
  // A new user saw "... 이하의 숫자 USD/GPU-hour" and "₩9,500/GPU-hour = $6.60181/GPU-hour" in Korean (2026-12-07).
  Scenario s = DefaultScenario();
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  const FieldSpec& price = *FindField("pricing.usd_per_gpu_hour");
  CHECK(RenderParam(Lang::kKo, ShownMoneyRangeMessage(s, price)).find("원/GPU시간") != std::string::npos);
  CHECK(RenderParam(Lang::kEn, ShownMoneyRangeMessage(s, price)).find("KRW/GPU-hour") != std::string::npos);
  SetLanguage(Lang::kKo);
  const std::string label = MoneyConversionLabel(s, price, 9500 / s.pricing.krw_per_usd, MoneyUnit::kKrw);
  SetLanguage(Lang::kEn);
  CHECK(label.find("/GPU시간") != std::string::npos);
  CHECK(label.find("GPU-hour") == std::string::npos);
  CHECK(UnitName("no such unit") == "no such unit");  // a unit without a name stays as it is
}
