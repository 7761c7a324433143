// The string tables (assets/i18n/*.json), the language choice, and money written the Korean way.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "base/assets.h"
#include "base/i18n.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "scenario/money_input.h"
#include "money/offers.h"
#include "documents/presets.h"
#include "scenario/quantity.h"
#include "documents/vat.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

std::set<std::string> Placeholders(const std::string& text) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::size_t end = i + 1;
    while (text[i] == '{' && end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    // {n} and {n:A/B} (the argument with a Korean particle) both place argument n
    if (end > i + 1 && end < text.size() && (text[end] == '}' || text[end] == ':'))
      out.insert(text.substr(i, end - i) + "}");
  }
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
  // "preset.<id>.title" and "preset.<id>.notes": the English text is the preset file's title and notes. (A field's
  // help and source, "help.<path>" and "source.<path>", are in both tables since issue 50.)
  std::set<std::string> preset_keys;
  int preset_notes = 0;
  for (const PresetInfo& p : Presets()) {
    preset_keys.insert("preset." + p.id + ".title");
    if (!p.notes.empty()) {
      preset_keys.insert("preset." + p.id + ".notes");
      ++preset_notes;
    }
  }
  REQUIRE(preset_notes > 0);
  int translated_preset_keys = 0;
  for (const std::string& k : ko) {
    CAPTURE(k);
    if (k.rfind("preset.", 0) == 0) {
      CHECK(preset_keys.count(k) == 1);  // names a preset (and, for .notes, one with notes)
      ++translated_preset_keys;
    } else {
      CHECK(HasTranslation(Lang::kEn, k.c_str()));
    }
  }
  CHECK(translated_preset_keys == static_cast<int>(preset_keys.size()));  // every preset's title and notes in Korean
  // Every field that cites a source has it in Korean.
  int sources = 0;
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (std::string(FieldSource(f, Lang::kEn)) == "-") continue;
    CAPTURE(f.path);
    CHECK(HasTranslation(Lang::kKo, (std::string("source.") + f.path).c_str()));
    ++sources;
  }
  CHECK(sources > 50);
}

TEST_CASE("i18n: translations keep their placeholders, are not empty, and the Korean table is Korean") {
  int hangul = 0;
  for (const std::string& k : TranslationKeys(Lang::kEn)) {
    CAPTURE(k);
    const std::string en = Tr(Lang::kEn, k.c_str()), ko = Tr(Lang::kKo, k.c_str());
    CHECK(!ko.empty());
    CHECK(Placeholders(en) == Placeholders(ko));
  }
  // Counted over the whole Korean table, its Korean-only entries (help, sources, presets) included.
  const std::vector<std::string> ko_keys = TranslationKeys(Lang::kKo);
  for (const std::string& k : ko_keys) {
    CAPTURE(k);
    const std::string ko = Tr(Lang::kKo, k.c_str());
    CHECK(!ko.empty());
    hangul += HasHangul(ko);
  }
  CHECK(hangul * 10 > static_cast<int>(ko_keys.size()) * 8);  // over 80% of entries in Hangul
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

TEST_CASE("i18n: a string table installed at run time (the page fetches Korean) replaces the one there") {
  // Every program but the page embeds Korean (kLanguageAssets); the page installs the fetched file.
  REQUIRE(HasLanguageTable(Lang::kKo));
  const std::string text = test::ReadFile(test::AssetPath("i18n/ko.json"));
  CHECK_FALSE(InstallLanguageTable(Lang::kKo, "not json"));
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job")) == "완료된 작업당 비용");  // a refused table changes nothing
  REQUIRE(InstallLanguageTable(Lang::kKo, R"({"eval.cost_per_job": "작업당"})"));
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job")) == "작업당");
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job_x")) == "eval.cost_per_job_x");
  CHECK(std::string(Tr(Lang::kKo, "lang.name")) == "English");  // a key the table lacks falls back to English
  REQUIRE(InstallLanguageTable(Lang::kKo, text));
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job")) == "완료된 작업당 비용");
  for (Lang lang : {Lang::kEn, Lang::kKo})  // the switch names a language before its table has arrived
    CHECK(std::string(LanguageAutonym(lang)) == Tr(lang, "lang.name"));
}

namespace {
int g_rest_loads = 0;  // how often the two-part table below fetched its rest
std::string RestOfTable(const char* path) {
  ++g_rest_loads;
  const std::string p = path;  // (two names: a file once read is installed, and the next test must fetch its own)
  return p == "i18n/test-ko-more.json" || p == "i18n/test-ko-rest.json" ? R"({"eval.cost_per_job": "작업당, 나머지"})" : "";
}
}  // namespace

TEST_CASE("i18n: a table in two parts (the page's) reads its rest on the first key missed, never for a key known absent") {
  // Issue 47: the page's first part holds the keys its first frames look up; "_more" names the rest, and a null
  // entry a key no table has (looked up, known absent: no fetch for it).
  SetAssetLoader(RestOfTable);
  g_rest_loads = 0;
  REQUIRE(InstallLanguageTable(Lang::kKo, R"({"lang.name": "한국어", "app.no_such_key": null, "_more": "i18n/test-ko-more.json"})"));
  CHECK(std::string(Tr(Lang::kKo, "lang.name")) == "한국어");
  CHECK(std::string(Tr(Lang::kKo, "app.no_such_key")) == "app.no_such_key");  // known absent: English, then the key
  CHECK(g_rest_loads == 0);
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job")) == "작업당, 나머지");  // missed: the rest is read, once
  CHECK(g_rest_loads == 1);
  CHECK(std::string(Tr(Lang::kKo, "no.such.key.either")) == "no.such.key.either");
  CHECK(HasTranslation(Lang::kKo, "eval.cost_per_job"));
  CHECK(g_rest_loads == 1);
  SetAssetLoader(nullptr);
  REQUIRE(InstallLanguageTable(Lang::kKo, test::ReadFile(test::AssetPath("i18n/ko.json"))));
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job")) == "완료된 작업당 비용");
}

namespace {
bool g_rest_arrived = false;  // the probe below: whether the two-part table's rest has arrived
bool RestArrived(const char*) { return g_rest_arrived; }
}  // namespace

TEST_CASE("i18n: whether a key can be read without waiting for the rest of its table (a tooltip's 'loading')") {
  // The page's field help is in the rest of its table, fetched after the first frame: until it has arrived, a tooltip
  // says it is loading instead of fetching it synchronously (web/ui_scenario.cpp).
  SetAssetLoader(RestOfTable);
  SetAssetProbe(RestArrived);
  g_rest_loads = 0;
  g_rest_arrived = false;
  REQUIRE(InstallLanguageTable(Lang::kKo, R"({"lang.name": "한국어", "app.no_such_key": null, "_more": "i18n/test-ko-rest.json"})"));
  CHECK(TranslationReady(Lang::kKo, "lang.name"));        // in the first part
  CHECK(TranslationReady(Lang::kKo, "app.no_such_key"));  // known absent (English has no such key either)
  CHECK_FALSE(TranslationReady(Lang::kKo, "eval.cost_per_job"));  // in the rest, on its way
  CHECK(g_rest_loads == 0);                                        // asking did not fetch it
  g_rest_arrived = true;
  CHECK(TranslationReady(Lang::kKo, "eval.cost_per_job"));
  CHECK(std::string(Tr(Lang::kKo, "eval.cost_per_job")) == "작업당, 나머지");
  CHECK(g_rest_loads == 1);
  SetAssetProbe(nullptr);
  SetAssetLoader(nullptr);
  REQUIRE(InstallLanguageTable(Lang::kKo, test::ReadFile(test::AssetPath("i18n/ko.json"))));
  // A program that embeds its tables (the CLI, the tests) never waits: every field's help and source are here.
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    CAPTURE(Fields()[i].path);
    CHECK(TranslationReady(Lang::kKo, (std::string("help.") + Fields()[i].path).c_str()));
    CHECK(TranslationReady(Lang::kEn, (std::string("source.") + Fields()[i].path).c_str()));
  }
}

TEST_CASE("i18n: lookup, fallback and placeholders") {
  LanguageScope ko(Lang::kKo);
  CHECK(std::string(Tr("eval.cost_per_job")) == "완료된 작업당 비용");
  CHECK(std::string(Tr(Lang::kEn, "eval.cost_per_job")) == "Cost per completed job");
  CHECK(std::string(Tr("no.such.key")) == "no.such.key");
  CHECK(TrFormat("vat.tax", {"10.0%"}) == "부가세 (10.0%)");
  CHECK(FillPlaceholders("{1} of {0}, {2}", {"a", "b"}) == "b of a, {2}");
  CHECK(FillPlaceholders("{10}{1}{0", {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}) == "kb{0");  // two digits
  CHECK(std::string(PartLabel(kPartCheckpoint)) == "체크포인트 저장");
}

TEST_CASE("i18n: a Korean particle agrees with the argument as it is read aloud ({n:A/B})") {
  // Hand-read: 원 (ㄴ), an amount with $ or ₩ read with 달러 or 원 after it, 7 칠 (ㄹ), 9 구, % 퍼센트, 2 이, 4 사, 10 십, 100 백, 1,000 천, 0 영, 12.0 "십이 점 영", GB 비,
  // HBM 엠, 3 삼; 으로/로 takes 로 after ㄹ as after a vowel.
  auto ga = [](const std::string& a) { return FillPlaceholders("{0:이/가}", {a}); };
  CHECK(ga("6,246만 8,717 원") == "6,246만 8,717 원이");
  CHECK(ga("₩62,468,717") == "₩62,468,717이");
  CHECK(ga("$3.99") == "$3.99가");  // 3.99 달러
  CHECK(ga("$0.00") == "$0.00가");  // 0.00 달러, not 영
  CHECK(ga("$1,000") == "$1,000가");
  CHECK(ga("₩1,000") == "₩1,000이");  // 1,000 원
  CHECK(ga("10.0%") == "10.0%가");
  CHECK(FillPlaceholders("버전 {0:을/를} 읽습니다", {"2"}) == "버전 2를 읽습니다");
  CHECK(FillPlaceholders("{0:을/를}", {"1,234"}) == "1,234를");
  CHECK(FillPlaceholders("{0:을/를}", {"10"}) == "10을");
  CHECK(FillPlaceholders("{0:을/를}", {"100"}) == "100을");
  CHECK(FillPlaceholders("{0:을/를}", {"1,000"}) == "1,000을");
  CHECK(FillPlaceholders("{0:을/를}", {"0"}) == "0을");
  CHECK(FillPlaceholders("{0:을/를}", {"12.0"}) == "12.0을");
  CHECK(FillPlaceholders("{0:은/는}", {"12.3 GB"}) == "12.3 GB는");
  CHECK(FillPlaceholders("{0:은/는}", {"HBM"}) == "HBM은");
  CHECK(FillPlaceholders("{0:은/는}", {"(3)"}) == "(3)은");
  CHECK(FillPlaceholders("{0:으로/로}", {"7"}) == "7로");
  CHECK(FillPlaceholders("{0:으로/로}", {"3"}) == "3으로");
  CHECK(FillPlaceholders("{0:으로/로}", {"서울"}) == "서울로");
  CHECK(FillPlaceholders("{0:으로/로}", {"한국"}) == "한국으로");
  CHECK(FillPlaceholders("{0:과/와}", {"H100"}) == "H100과");
  // The CLI's owned-hardware line (found in a new user's walk-through: "구매 부가세 6,246만 8,717 원가 듭니다").
  CHECK(TrFormat(Lang::kKo, "cli.pricing.owned_terms", {"80%", "5", "1억 원", "6,246만 8,717 원"}).find("원이 듭니다") !=
        std::string::npos);
  CHECK(FillPlaceholders("{0:이/가", {"1"}) == "{0:이/가");  // unclosed: left as it is
}

TEST_CASE("i18n: a count's noun agrees with it in English ({n|one|other}); Korean writes it once") {
  CHECK(FillPlaceholders("{0} {0|failure|failures}", {"1"}) == "1 failure");
  CHECK(FillPlaceholders("{0} {0|failure|failures}", {"2"}) == "2 failures");
  CHECK(FillPlaceholders("{0} {0|failure|failures}", {"1.0"}) == "1.0 failures");  // English: "1.0 failures"
  CHECK(FillPlaceholders("{0} {0|failure|failures}", {"0"}) == "0 failures");
  CHECK(FillPlaceholders("{1|x|y}{0|x", {"1", "2"}) == "y{0|x");  // unclosed: left as it is
  // Both paths that fill a table's text: TrFormat and a coded message (the page's notes, the CLI's errors).
  CHECK(TrFormat(Lang::kEn, "cli.months", {"1"}) == "1 month");
  CHECK(TrFormat(Lang::kEn, "cli.months", {"12"}) == "12 months");
  CHECK(TrFormat(Lang::kKo, "cli.months", {"1"}) == "1개월");
  const Message m{"actual.c.mtbf_no_prior", {"1", "1"}};
  CHECK(m.Text(Lang::kEn).rfind("1 failure over 1 GPU-hour;", 0) == 0);
  CHECK(Message{"actual.c.mtbf_no_prior", {"3", "2,048"}}.Text(Lang::kEn).rfind("3 failures over 2,048 GPU-hours;", 0) == 0);
  // The law over the English table: a count's noun after its number is chosen ("1 failures" was on the page), and a
  // selector names a placeholder its text shows.
  const char* const kCounted[] = {" failures", " GPUs", " runs", " requests", " checkpoints", " interruptions",
                                  " preemptions", " replicas", " trials", " tokens", " GPU-hours", " samples"};
  for (const std::string& k : TranslationKeys(Lang::kEn)) {
    CAPTURE(k);
    const std::string en = Tr(Lang::kEn, k.c_str());
    for (std::size_t i = en.find('{'); i != std::string::npos; i = en.find('{', i + 1)) {
      std::size_t end = i + 1;
      while (end < en.size() && en[end] >= '0' && en[end] <= '9') ++end;
      if (end == i + 1 || end >= en.size()) continue;
      const std::string n = en.substr(i, end - i);  // "{0"
      if (en[end] == '|') {
        CHECK(en.find(n + "}") != std::string::npos);
        CHECK(std::count(en.begin() + static_cast<long>(end), en.begin() + static_cast<long>(en.find('}', end)), '|') == 2);
      } else if (en[end] == '}') {
        for (const char* noun : kCounted) CHECK(en.compare(end + 1, std::strlen(noun), noun) != 0);
      }
    }
  }
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
  CHECK(FormatKrwKorean(303041850) == "3억 304만 원");      // the issue's example: rounded to 만 원
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
  SUBCASE("the short form (charts, bars) groups the count of 만 as the exact amount does (issue 30)") {
    CHECK(FormatKrwShort(62699062) == "₩62.7M");
    LanguageScope ko(Lang::kKo);
    CHECK(FormatKrwKorean(62699062) == "6,269만 9,062 원");
    CHECK(FormatKrwShort(62699062) == "6,270만 원");  // was "6270만"; with 원 as the exact amount (issue 47)
    CHECK(FormatKrwShort(62699062, 5) == "6,269.9만 원");
    CHECK(FormatKrwShort(15000, 4) == "1.500만 원");
    CHECK(FormatNumber(1234.567, 6) == "1,234.57");
    CHECK(FormatKrwShort(3.03e8) == "3.03억 원");
    CHECK(FormatKrwShort(9500) == "9,500 원");
  }
}

// 2026-12-07's walk-through: each line rounded to 만 원 apart, "25억 6,002만 원" + "2억 5,600만 원" read "28억 1,603만 원".
// The invoice's lines are written to the won (the cent), the VAT the total's rest, so they add up as shown.
TEST_CASE("VAT lines as an invoice writes them: to the won or the cent, adding up as shown") {
  VatLines v;
  v.rate = 0.1;
  v.supply_usd = 2560024206.4;
  v.vat_usd = 256002420.6;
  v.total_usd = v.supply_usd + v.vat_usd;  // 2,816,026,627
  SetLanguage(Lang::kKo);
  const VatText ko = VatLinesText(v, 1, "KRW");
  SetLanguage(Lang::kEn);
  CHECK(ko.supply == "25억 6,002만 4,206 원");
  CHECK(ko.vat == "2억 5,600만 2,421 원");
  CHECK(ko.total == "28억 1,602만 6,627 원");
  const VatText en = VatLinesText(v, 1, "KRW");
  CHECK(en.supply == "₩2,560,024,206");
  CHECK(en.vat == "₩256,002,421");
  CHECK(en.total == "₩2,816,026,627");
  // Cents: 100.004 + 10.0004 = 110.0044 -> $100.00 + $10.00 = $110.00 (each rounded apart would be the same here;
  // 0.005 + 0.005 = 0.01 is where they differ: $0.01 + $0.00, never $0.01 + $0.01 = $0.01).
  v.supply_usd = 0.005, v.vat_usd = 0.005, v.total_usd = 0.01;
  const VatText cents = VatLinesText(v, 1, "USD");
  CHECK(cents.total == "$0.01");
  CHECK(cents.supply == "$0.01");
  CHECK(cents.vat == "$0.00");
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

TEST_CASE("names: 200 characters of any script survive JSON and share links; 201 and invalid UTF-8 are refused") {
  std::string name;
  const char* const pieces[] = {"7B 사전학습 2T 토큰, H100 256장 ", "日本語 ", "Ελληνικά ", "🙂"};
  for (int i = 0; Utf8Length(name) < kNameMaxChars; ++i) {
    const std::string next = name + pieces[i % 4];
    name = Utf8Length(next) <= kNameMaxChars ? next : name + "x";
  }
  REQUIRE(Utf8Length(name) == kNameMaxChars);
  CHECK(name.size() > 300);  // far beyond the old 63-byte limit
  const std::string doc = nlohmann::json({{"name", name}}).dump();
  const ScenarioParse p = ParseScenarioJson(doc);
  REQUIRE(p.ok());
  CHECK(std::string(p.scenario.name) == name);
  LinkPayload payload{p.scenario, {p.scenario}};
  LinkPayload back;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(EncodeLink(payload, "https://example.org/"), &back, &errors));
  CHECK(std::string(back.scenario.name) == name);
  CHECK(std::string(back.pinned.at(0).name) == name);

  const ScenarioParse too_long = ParseScenarioJson(nlohmann::json({{"name", name + "가"}}).dump());
  REQUIRE(too_long.errors.size() == 1);
  CHECK(too_long.errors[0].Text() == "name: must be text of at most 200 characters, got 201");
  const ScenarioParse bad = ParseScenarioJson(std::string("{\"name\": \"\xED\x95\"}"));  // a cut Hangul syllable
  CHECK_FALSE(bad.ok());  // refused (by the JSON reader: invalid UTF-8), never stored cut
}

TEST_CASE("Utf8Length counts characters and refuses malformed UTF-8") {
  CHECK(Utf8Length("") == 0);
  CHECK(Utf8Length("abc") == 3);
  CHECK(Utf8Length("한국어") == 3);
  CHECK(Utf8Length("₩🙂") == 2);
  CHECK(Utf8Length("\xED\x95") == -1);       // truncated
  CHECK(Utf8Length("\xC0\xAF") == -1);       // overlong
  CHECK(Utf8Length("\x80") == -1);           // a continuation byte alone
  CHECK(Utf8Length("a\xE2\x82") == -1);
}

TEST_CASE("i18n: every scenario field and editor section has a label in every language") {
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const std::string key = std::string("field.") + Fields()[i].path;
    CAPTURE(key);
    CHECK(HasTranslation(Lang::kEn, key.c_str()));
    CHECK(HasTranslation(Lang::kKo, key.c_str()));
  }
  std::set<std::string> sections;
  for (std::size_t i = 0; i < FieldCount(); ++i) sections.insert(Fields()[i].section);
  sections.erase("parallel");  // shown under "hardware"
  for (const std::string& s : sections) {
    CAPTURE(s);
    CHECK(HasTranslation(Lang::kKo, ("section." + s).c_str()));
  }
}

TEST_CASE("i18n: every field's unit, in either currency, is a key in every language (issue 47: \"KRW/day\" in the Korean editor)") {
  Scenario krw = DefaultScenario();
  krw.pricing.currency = static_cast<int>(Currency::kKrw);
  for (const Scenario& s : {DefaultScenario(), krw})
    for (std::size_t i = 0; i < FieldCount(); ++i) {
      const FieldSpec& f = Fields()[i];
      const std::string unit = FieldMoneyUnit(f) == MoneyUnit::kNone ? FieldShownUnit(f) : ShownMoneyUnitText(s, f);
      if (unit.empty()) continue;
      const std::string key = "unitname." + unit;
      CAPTURE(key);
      CHECK(HasTranslation(Lang::kEn, key.c_str()));
      CHECK(HasTranslation(Lang::kKo, key.c_str()));
    }
  CHECK(std::string(Tr(Lang::kKo, "unitname.KRW/day")) == "원/일");
}

TEST_CASE("offers: AWS Seoul (ap-northeast-2) on-demand prices as published, dated and VAT-exclusive") {
  const nlohmann::json f = nlohmann::json::parse(test::ReadFile(test::DataPath("korea_public_figures.json")));
  for (const nlohmann::json& row : f["aws_seoul_on_demand"]["instances"]) {
    const Offer* o = FindOffer(row["offer"].get<std::string>());
    REQUIRE(o != nullptr);
    CAPTURE(o->id);
    CHECK(o->region == "ap-northeast-2");
    CHECK(o->date == f["aws_seoul_on_demand"]["date"].get<std::string>());
    CHECK(o->usd_per_instance_hour == doctest::Approx(row["usd_per_instance_hour"].get<double>()).epsilon(1e-9));
    CHECK(o->note.find("VAT excluded") != std::string::npos);
    const double ratio = o->usd_per_instance_hour / row["us_east_1"].get<double>();
    CHECK(ratio == doctest::Approx(1.38).epsilon(0.01));  // Seoul costs about 1.38x us-east-1 in this snapshot
  }
}

TEST_CASE("money typed in the other currency is converted at the scenario's rate") {
  const Scenario usd = DefaultScenario();  // USD shown; 1,439 KRW/USD (2025-12-30)
  const FieldSpec& fee = *FindField("pricing.fixed_fees_usd");
  const FieldSpec& kwh = *FindField("pricing.owned.usd_per_kwh");
  const FieldSpec& krw_price = *FindField("pricing.krw_per_gpu_hour");
  const FieldSpec& gpus = *FindField("cluster.gpus");
  CHECK(FieldMoneyUnit(fee) == MoneyUnit::kUsd);
  CHECK(FieldMoneyUnit(krw_price) == MoneyUnit::kKrw);
  CHECK(FieldMoneyUnit(*FindField("pricing.krw_per_usd")) == MoneyUnit::kNone);  // the rate itself
  CHECK(FieldMoneyUnit(gpus) == MoneyUnit::kNone);
  struct Case {
    const FieldSpec* f;
    const char* text;
    double value;  // 0: refused
  };
  for (const Case& c : {Case{&fee, "₩1,439,000", 1000}, Case{&fee, "1,439,000원", 1000}, Case{&fee, "143.9만 원", 1000},
                        Case{&fee, "2억", 0}, Case{&fee, "2억 원", 2e8 / 1439}, Case{&fee, "1억 4,390만 KRW", 1.439e8 / 1439},
                        Case{&fee, "$1000", 1000}, Case{&fee, "1000", 1000},
                        Case{&kwh, "₩143.9", 0.1}, Case{&krw_price, "$3", 3 * 1439.0}, Case{&krw_price, "3 USD", 3 * 1439.0}}) {
    CAPTURE(c.text);
    const MoneyTyped m = ParseMoneyField(usd, *c.f, c.text);
    if (c.value == 0) {  // 억 without won in a dollar field: refused, not guessed
      CHECK_FALSE(m.error.empty());
      continue;
    }
    REQUIRE(m.error.empty());
    CHECK(m.stored == doctest::Approx(c.value).epsilon(1e-12));
  }
  CHECK_FALSE(ParseMoneyField(usd, gpus, "₩1000").error.empty());  // not a money field
  const MoneyTyped bad = ParseMoneyField(usd, fee, "₩12x");
  CHECK(bad.error.rfind("\"₩12x\" is not allowed: ", 0) == 0);
}

namespace {

// Every warning and blocking message core writes for these scenarios, and a validation error of each kind.
// Core's messages in English and Korean, each rendered from its key and parameters.
std::vector<std::pair<std::string, std::string>> SampleCoreMessages() {
  std::vector<std::pair<std::string, std::string>> out;
  auto both = [&](const Message& m) { out.emplace_back(m.Text(Lang::kEn), m.Text(Lang::kKo)); };
  auto warnings = [&](const char* json) {
    const ScenarioParse p = ParseScenarioJson(json);
    REQUIRE(p.ok());
    const Result r = Evaluate(p.scenario);
    for (int i = 0; i < r.warnings.count; ++i) out.emplace_back(r.warnings.Text(i, Lang::kEn), r.warnings.Text(i, Lang::kKo));
    const BlockingState b = FindBlockingState(p.scenario, r);
    if (b.blocked) {
      both(b.reason_message);
      both(b.fix_message);
      CHECK(b.reason == b.reason_message.Text(Lang::kEn));  // the documents' English is the key's English
    }
  };
  warnings(R"({"cluster": {"gpus": 16384, "mfu": 0.7}, "reliability": {"gpu_mtbf_hours": 2000, "checkpoint_interval_minutes": 600}})");
  warnings(R"({"reliability": {"checkpointing": false}, "cluster": {"gpus": 4096}})");
  warnings(R"({"pricing": {"model": "spot"}, "cluster": {"gpus": 16384}, "workload": {"params": 70e9, "tokens": 15e12}})");
  warnings(R"({"storage": {"read_gbps": 0.001}, "workload": {"input_bytes_per_token": 4000}})");
  warnings(R"({"workload": {"model": "llama-2-70b"}, "cluster": {"gpus": 8}, "parallel": {"global_batch": 512}})");
  warnings(R"({"workload": {"layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096, "vocab": 32000},
               "parallel": {"global_batch": 512, "tensor_parallel": 3}, "cluster": {"gpus": 63}})");
  for (const char* bad : {R"({"cluster": {"gpus": -1}})", R"({"cluster": {"gpus": "x"}})", R"({"pricing": {"model": "free"}})",
                          R"({"nope": 1})", R"({"cluster": {"gpu": "z100"}})", R"([1])", R"({"name": 5})",
                          R"({"parallel": {"tensor_parallel": 3}})", R"({"workload": {"heads": 7, "hidden": 100}})",
                          R"({"pricing": {"offer": "aws-p4d.24xlarge-us-east-1", "model": "spot"}})"}) {
    for (const InputError& e : ParseScenarioJson(bad).errors) {
      CHECK_FALSE(e.coded.empty());  // every reader and validation error is a key
      out.emplace_back(e.Text(), e.Text(Lang::kKo));
    }
  }
  const FieldSpec& gpus = *FindField("cluster.gpus");
  const FieldSpec& mfu = *FindField("cluster.mfu");
  double v = 0;
  for (const char* typed : {"", "12x", "1,00", "5m", "-3", "150%"}) both(FieldInputProblem(gpus, typed, &v));
  both(FieldInputProblem(mfu, "150%", &v));
  both(FieldInputProblem(mfu, "40", &v));  // issue 25: a bare number above a fraction's range
  return out;
}

}  // namespace

TEST_CASE("i18n: core's messages are keys with parameters, rendered in Korean; English stays as core wrote it") {
  const std::vector<std::pair<std::string, std::string>> messages = SampleCoreMessages();
  REQUIRE(messages.size() > 20);
  for (const auto& m : messages) {
    const std::string& en = m.first;
    const std::string& ko = m.second;
    CAPTURE(en);
    REQUIRE(!en.empty());
    CHECK(HasHangul(ko));
    CHECK(ko != en);
  }
}

TEST_CASE("i18n: a coded error keeps its path; its parameters render in the same language") {
  const ScenarioParse p = ParseScenarioJson(R"({"cluster": {"gpus": -1}})");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].Text() == "cluster.gpus: must be an integer from 1 to 10,000,000, got -1");
  CHECK(p.errors[0].Text(Lang::kKo) == "cluster.gpus: 허용 범위: 1부터 10,000,000까지의 정수. 입력값: -1");
  CHECK(p.errors[0].Body(Lang::kKo) == "허용 범위: 1부터 10,000,000까지의 정수. 입력값: -1");
  const Message loaded{"msg.app.loaded", {MessageParam::Key("msg.app.what_scenario"), "a.json"}};
  CHECK(loaded.Text(Lang::kEn) == "Loaded scenario from a.json");
  CHECK(loaded.Text(Lang::kKo) == "a.json에서 시나리오 불러옴");
}

TEST_CASE("i18n: every scenario field's help (the editor's tooltip) has a Korean text") {
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const std::string key = std::string("help.") + Fields()[i].path;
    CAPTURE(key);
    CHECK(HasTranslation(Lang::kKo, key.c_str()));
    CHECK(HasHangul(Tr(Lang::kKo, key.c_str())));
  }
}
