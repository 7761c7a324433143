// The string tables (assets/i18n/*.json), the language choice, and money written the Korean way.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "evaluate.h"
#include "format.h"
#include "i18n.h"
#include "vat.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

std::set<std::string> Placeholders(const std::string& text) {
  std::set<std::string> out;
  for (std::size_t i = 0; i + 2 < text.size(); ++i)
    if (text[i] == '{' && text[i + 1] >= '0' && text[i + 1] <= '9' && text[i + 2] == '}') out.insert(text.substr(i, 3));
  return out;
}

bool HasHangul(const std::string& utf8) {  // U+AC00..U+D7A3 are EA B0 80 .. ED 9E A3
  for (std::size_t i = 0; i + 2 < utf8.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c >= 0xEA && c <= 0xED) return true;
  }
  return false;
}

struct LanguageScope {  // restores English after a test that switches language
  explicit LanguageScope(Lang l) { SetLanguage(l); }
  ~LanguageScope() { SetLanguage(Lang::kEn); }
};

}  // namespace

TEST_CASE("i18n: every English key has a Korean entry (and Korean has no key English lacks)") {
  const std::vector<std::string> en = TranslationKeys(Lang::kEn), ko = TranslationKeys(Lang::kKo);
  REQUIRE(en.size() > 50);
  for (const std::string& k : en) {
    CAPTURE(k);
    CHECK(HasTranslation(Lang::kKo, k.c_str()));
  }
  for (const std::string& k : ko) {
    CAPTURE(k);
    CHECK(HasTranslation(Lang::kEn, k.c_str()));
  }
}

TEST_CASE("i18n: translations keep their placeholders, are not empty, and the Korean table is Korean") {
  int hangul = 0;
  for (const std::string& k : TranslationKeys(Lang::kEn)) {
    CAPTURE(k);
    const std::string en = Tr(Lang::kEn, k.c_str()), ko = Tr(Lang::kKo, k.c_str());
    CHECK(!ko.empty());
    CHECK(Placeholders(en) == Placeholders(ko));
    hangul += HasHangul(ko);
  }
  CHECK(hangul * 10 > static_cast<int>(TranslationKeys(Lang::kKo).size()) * 8);  // over 80% of entries in Hangul
}

TEST_CASE("i18n: the embedded tables are the files in assets/i18n") {
  for (const char* code : {"en", "ko"}) {
    const nlohmann::json j = nlohmann::json::parse(test::ReadFile(test::AssetPath((std::string("i18n/") + code + ".json").c_str())));
    Lang lang;
    REQUIRE(ParseLanguage(code, &lang));
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key()[0] != '_') CHECK(std::string(Tr(lang, it.key().c_str())) == it.value().get<std::string>());
  }
}

TEST_CASE("i18n: lookup, fallback and placeholders") {
  LanguageScope ko(Lang::kKo);
  CHECK(std::string(Tr("eval.cost_per_job")) == "완료된 작업당 비용");
  CHECK(std::string(Tr(Lang::kEn, "eval.cost_per_job")) == "Cost per completed job");
  CHECK(std::string(Tr("no.such.key")) == "no.such.key");
  CHECK(TrFormat("vat.tax", {"10.0%"}) == "부가세 (10.0%)");
  CHECK(FillPlaceholders("{1} of {0}, {2}", {"a", "b"}) == "b of a, {2}");
  CHECK(std::string(PartLabel(kPartCheckpoint)) == "체크포인트 저장");
}

TEST_CASE("i18n: language from a tag or a POSIX locale") {
  Lang l = Lang::kEn;
  CHECK((ParseLanguage("ko-KR", &l) && l == Lang::kKo));
  CHECK((ParseLanguage("ko_KR.UTF-8", &l) && l == Lang::kKo));
  CHECK((ParseLanguage("EN_us", &l) && l == Lang::kEn));
  CHECK((ParseLanguage("C.UTF-8", &l) && l == Lang::kEn));
  CHECK_FALSE(ParseLanguage("fr", &l));
  CHECK_FALSE(ParseLanguage("", &l));
  CHECK(LanguageFromEnvironment(nullptr, nullptr, "ko_KR.UTF-8") == Lang::kKo);
  CHECK(LanguageFromEnvironment("C", nullptr, "ko_KR.UTF-8") == Lang::kEn);  // LC_ALL wins
  CHECK(LanguageFromEnvironment("", "ko_KR.UTF-8", "en_US") == Lang::kKo);   // empty means unset
  CHECK(LanguageFromEnvironment(nullptr, nullptr, nullptr) == Lang::kEn);
  CHECK(LanguageFromEnvironment(nullptr, nullptr, "de_DE") == Lang::kEn);
}

TEST_CASE("KRW: ₩ with separators, and 조/억/만 in Korean") {
  CHECK(FormatKrwGrouped(303041850) == "₩303,041,850");
  CHECK(FormatKrwGrouped(-4000) == "-₩4,000");
  CHECK(FormatKrwGrouped(0.5) == "₩0.50");
  CHECK(FormatKrwKorean(303041850) == "3억 304만 원");      // the example: rounded to 만 원
  CHECK(FormatKrwKorean(300000000) == "3억 원");
  CHECK(FormatKrwKorean(8340000) == "834만 원");
  CHECK(FormatKrwKorean(15000) == "1만 5,000 원");          // below 1억: every won
  CHECK(FormatKrwKorean(9500) == "9,500 원");
  CHECK(FormatKrwKorean(0) == "0 원");
  CHECK(FormatKrwKorean(0.42) == "0.42 원");
  CHECK(FormatKrwKorean(1.2e12) == "1조 2,000억 원");        // from 1조: rounded to 억 원
  CHECK(FormatKrwKorean(123456e12) == "123,456조 원");
  CHECK(FormatKrwKorean(-25e8) == "-25억 원");
  CHECK(FormatKrwKorean(99999999) == "9,999만 9,999 원");
  CHECK(FormatKrwKorean(999999999999.0) == "1조 원");        // 9,999억 9,999.99..만 rounds up to 1조
  SUBCASE("FormatMoney follows the language") {
    CHECK(FormatMoney(303041850, "KRW") == "₩303,041,850");
    CHECK(FormatMoney(1.5e6, "USD") == "$1.5M");
    LanguageScope ko(Lang::kKo);
    CHECK(FormatMoney(303041850, "KRW") == "3억 304만 원");
    CHECK(FormatMoney(1.5e6, "USD") == "$1.5M");
  }
}

TEST_CASE("VAT: supply price + VAT = total, VAT = rate x supply, headline says whether VAT is in") {
  Scenario s = DefaultScenario();
  const VatLines none = VatBreakdown(s, Evaluate(s));
  CHECK_FALSE(none.included());
  CHECK(std::string(VatHeadlineKey(none)) == "vat.excluded");
  CHECK(none.vat_usd == 0);
  s.pricing.tax_rate = 0.10;
  const Result r = Evaluate(s);
  const VatLines v = VatBreakdown(s, r);
  CHECK(v.included());
  CHECK(v.total_usd == r.expected_usd);
  CHECK(v.supply_usd + v.vat_usd == doctest::Approx(v.total_usd).epsilon(1e-12));
  CHECK(v.vat_usd == doctest::Approx(0.10 * v.supply_usd).epsilon(1e-12));
  CHECK(v.supply_usd == doctest::Approx(none.total_usd).epsilon(1e-12));  // the tax is added on top of the same supply
}
