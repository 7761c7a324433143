// i18n.h — user-visible text as data: one table per language (assets/i18n/<lang>.json, embedded), looked up
// by a stable key. The page and the CLI share the keys; JSON keys and CSV column keys are not translated.
//
//   Tr("cli.eval.cost_per_job")            -> "Cost per completed job" / "완료된 작업당 비용"
//   TrFormat("msg.loaded", {"a.json"})      -> "Loaded a.json" / "a.json 불러옴"  ({0}, {1}, ... replaced)
//   TrFormat("cli.months", {"1"})           -> "1 month" / "1개월"  ("{0} {0|month|months}": FillPlaceholders)
//
// A key missing from the current language falls back to English, then to the key itself (a test holds every
// key present in every language, so the fallback is a safety net, not a feature).
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

namespace gpucost {

enum class Lang : int { kEn = 0, kKo, kCount };

// The language of human output in this process (the page's choice, the CLI's --lang). Default English.
void SetLanguage(Lang lang);

// Whether a language's string table is there (English always; others are embedded except in the page, which
// fetches them: assets.h). InstallLanguageTable: a table's JSON text (assets/i18n/<code>.json); false when it
// is not a JSON object (the table is then unchanged).
bool HasLanguageTable(Lang lang);
bool InstallLanguageTable(Lang lang, const std::string& json_text);
Lang CurrentLanguage();

// "en", "ko" (ISO 639-1 code of a language).
const char* LanguageCode(Lang lang);
// The language named in itself ("English", "한국어"), for the switch: known before its string table arrives.
const char* LanguageAutonym(Lang lang);
// Reads a language tag or a POSIX locale: "ko", "ko-KR", "ko_KR.UTF-8", "en_US", "C". False if unknown.
bool ParseLanguage(const std::string& text, Lang* out);
// The language a POSIX environment asks for: LC_ALL, else LC_MESSAGES, else LANG (each as getenv gives it,
// nullptr for unset). Korean for a Korean locale, English otherwise.
Lang LanguageFromEnvironment(const char* lc_all, const char* lc_messages, const char* lang);

// The text of `key` in the current language (or `lang`). Never nullptr; stable for the process's life.
const char* Tr(const char* key);
const char* Tr(Lang lang, const char* key);
// Tr() with "{0}", "{1}", ... replaced by args (in the order given).
std::string TrFormat(const char* key, std::initializer_list<std::string> args);
std::string TrFormat(Lang lang, const char* key, std::initializer_list<std::string> args);
// Replaces "{0}", "{1}", ... in `text` (exposed for tests and for text that is already translated). A count's noun
// is "{n|one|other}": `one` when argument n reads exactly "1", else `other` (English: "{0} {0|failure|failures}" ->
// "1 failure", "2 failures", "1.5 failures"; a language without plural forms, Korean, writes its noun once).
// Placeholders: {n} the argument; {n|one|other} a count's noun in English (one when the argument reads "1");
// {n:A/B} the argument, then the Korean particle A after a final consonant (batchim) or B after a vowel, as the
// argument is read aloud ("{0:이/가}": "6,246만 원이", "$3.99가", "10.0%가"; "{0:으로/로}" takes 로 after ㄹ too).
std::string FillPlaceholders(const std::string& text, std::initializer_list<std::string> args);
// Whether the text, read aloud in Korean, ends in a final consonant (and whether that consonant is ㄹ): its last
// Hangul syllable, digit (a whole number read by its place: 10 "십", 1,000 "천"; an amount with $ or ₩ by its
// currency's name after it: 달러, 원), Latin letter (L, M, N, R) or none ('%' "퍼센트"); closing brackets, quotes and
// spaces skipped.
bool EndsInFinalConsonant(const std::string& text, bool* rieul = nullptr);
std::string FillPlaceholders(const std::string& text, const std::string* args, std::size_t count);

// Every key of a language's table (sorted), for tests and tools.
std::vector<std::string> TranslationKeys(Lang lang);

// A table in two parts (the page, docs/bundle-size.md): the part its first frames look up, and the rest in a file
// the program loads when a key is first missed (base/assets.h LoadAsset: the page fetches it after its first frame,
// and reads it at once if a key is needed before it has arrived; a late file is slower, never wrong). The first
// part names the file in its "_more" entry and lists the keys its first frames looked up that no table has as null
// (known absent: no load for them). Recording the keys looked up (the profile that decides the first part,
// scripts/profile_first_frame.sh): on from the start when asked, read with LookedUpKeys().
void RecordKeyLookups(bool on);
std::vector<std::string> LookedUpKeys();
// True when `lang`'s table has `key` (no fallback).
bool HasTranslation(Lang lang, const char* key);
// Whether Tr(lang, key) answers without waiting for a file: the key is in the part already read, or the rest of the
// table (and of English's, where the language lacks the key) is read or has arrived (base/assets.h AssetReady). False
// only on the page while the rest is on its way: a tooltip then says the text is loading.
bool TranslationReady(Lang lang, const char* key);

}  // namespace gpucost
