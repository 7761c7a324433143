#include "base/i18n.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/assets.h"

namespace gpucost {
namespace {

Lang g_lang = Lang::kEn;
const char* const kCodes[] = {"en", "ko"};

using Table = std::map<std::string, std::string, std::less<>>;
using KeySet = std::set<std::string, std::less<>>;

constexpr int kLangs = static_cast<int>(Lang::kCount);
Table g_tables[kLangs];
KeySet g_absent[kLangs];        // keys the first part says no table has (null entries)
std::string g_more[kLangs];     // the file holding the rest of the table, until it is read ("" then)
bool g_read[kLangs] = {};
bool g_record = false;
KeySet g_looked_up;

// Keys starting with "_" are notes for translators (e.g. "_about") and are not part of the table, except "_more" (the
// file with the rest of a table in two parts). A null value marks a key known to be absent.
bool ParseTable(const char* begin, const char* end, Table* out, KeySet* absent, std::string* more) {
  const nlohmann::json j = nlohmann::json::parse(begin, end, nullptr, false);
  if (!j.is_object()) return false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "_more" && it.value().is_string() && more) *more = it.value().get<std::string>();
    else if (it.value().is_null() && absent) absent->insert(it.key());
    else if (it.value().is_string() && !it.key().empty() && it.key()[0] != '_') (*out)[it.key()] = it.value().get<std::string>();
  }
  return true;
}

// A key missed in `lang`'s table: reads the rest of the table when it has one still to read. True when it did.
bool ReadRest(int i, std::string_view key) {
  if (g_more[i].empty() || g_absent[i].count(key)) return false;
  const std::string path = std::move(g_more[i]);
  g_more[i].clear();
  if (const EmbeddedAsset* a = LoadAsset(path.c_str())) ParseTable(a->data, a->data + a->size, &g_tables[i], nullptr, nullptr);
  return true;
}

// The table of one language, parsed from its embedded asset on first use (empty until installed when the
// program does not embed it: the page).
const Table& TableOf(Lang lang) {
  const int i = static_cast<int>(lang);
  if (!g_read[i]) {
    g_read[i] = true;
    const std::string path = std::string("i18n/") + kCodes[i] + ".json";
    if (const EmbeddedAsset* a = FindAsset(path.c_str())) ParseTable(a->data, a->data + a->size, &g_tables[i], &g_absent[i], &g_more[i]);
  }
  return g_tables[i];
}

// The table of `lang` that has `key` if any part of it does (the rest read on a miss).
const Table& TableWith(Lang lang, std::string_view key) {
  if (g_record) g_looked_up.emplace(key);
  const Table& t = TableOf(lang);
  if (t.find(key) == t.end()) ReadRest(static_cast<int>(lang), key);
  return t;
}

}  // namespace

void SetLanguage(Lang lang) { g_lang = lang; }

bool HasLanguageTable(Lang lang) { return !TableOf(lang).empty(); }

bool InstallLanguageTable(Lang lang, const std::string& json_text) {
  Table table;
  KeySet absent;
  std::string more;
  if (!ParseTable(json_text.data(), json_text.data() + json_text.size(), &table, &absent, &more)) return false;
  const int i = static_cast<int>(lang);
  g_tables[i] = std::move(table);
  g_absent[i] = std::move(absent);
  g_more[i] = std::move(more);
  g_read[i] = true;
  return true;
}
Lang CurrentLanguage() { return g_lang; }
const char* LanguageCode(Lang lang) { return kCodes[static_cast<int>(lang)]; }
const char* LanguageAutonym(Lang lang) { return lang == Lang::kKo ? "한국어" : "English"; }

bool ParseLanguage(const std::string& text, Lang* out) {
  std::string code;  // the language part: up to '-', '_', '.' or '@'
  for (char c : text) {
    if (c == '-' || c == '_' || c == '.' || c == '@') break;
    code += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  if (code == "ko") *out = Lang::kKo;
  else if (code == "en" || code == "c" || code == "posix") *out = Lang::kEn;
  else return false;
  return true;
}

Lang LanguageFromEnvironment(const char* lc_all, const char* lc_messages, const char* lang) {
  for (const char* v : {lc_all, lc_messages, lang})
    if (v && *v) {  // the first one set decides, as setlocale() does
      Lang l = Lang::kEn;
      return ParseLanguage(v, &l) ? l : Lang::kEn;
    }
  return Lang::kEn;
}

const char* Tr(Lang lang, const char* key) {
  const Table& t = TableWith(lang, key);
  if (auto it = t.find(std::string_view(key)); it != t.end()) return it->second.c_str();
  if (lang != Lang::kEn) return Tr(Lang::kEn, key);
  return key;
}

const char* Tr(const char* key) { return Tr(g_lang, key); }

std::string FillPlaceholders(const std::string& text, const std::string* args, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // {n}: one or more digits between braces; {n|one|other}: a count's noun (one when args[n] reads "1").
    std::size_t end = i + 1, n = 0;
    while (text[i] == '{' && end < text.size() && end - i <= 3 && text[end] >= '0' && text[end] <= '9')
      n = 10 * n + static_cast<std::size_t>(text[end++] - '0');
    if (end > i + 1 && end < text.size() && n < count) {
      if (text[end] == '}') {
        out += args[n];
        i = end;
        continue;
      }
      const std::size_t bar = text.find('|', end + 1), close = text.find('}', end);
      if (text[end] == '|' && bar < close && close != std::string::npos) {
        const bool one = args[n] == "1";
        out.append(text.data() + (one ? end : bar) + 1, one ? bar - end - 1 : close - bar - 1);
        i = close;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string FillPlaceholders(const std::string& text, std::initializer_list<std::string> args) {
  return FillPlaceholders(text, args.begin(), args.size());
}

std::string TrFormat(const char* key, std::initializer_list<std::string> args) {
  return FillPlaceholders(Tr(key), args);
}

std::string TrFormat(Lang lang, const char* key, std::initializer_list<std::string> args) {
  return FillPlaceholders(Tr(lang, key), args);
}

std::vector<std::string> TranslationKeys(Lang lang) {
  const int i = static_cast<int>(lang);
  TableOf(lang);
  ReadRest(i, "");  // every key: the rest too
  std::vector<std::string> keys;
  for (const auto& [k, v] : g_tables[i]) keys.push_back(k);
  return keys;
}

bool HasTranslation(Lang lang, const char* key) { return TableWith(lang, key).count(std::string_view(key)) != 0; }

bool TranslationReady(Lang lang, const char* key) {
  const int i = static_cast<int>(lang);
  const std::string_view k(key);
  if (TableOf(lang).count(k)) return true;
  if (!g_more[i].empty() && !g_absent[i].count(k) && !AssetReady(g_more[i].c_str())) return false;
  return lang == Lang::kEn || HasTranslation(lang, key) || TranslationReady(Lang::kEn, key);
}

void RecordKeyLookups(bool on) { g_record = on; }

std::vector<std::string> LookedUpKeys() { return {g_looked_up.begin(), g_looked_up.end()}; }

}  // namespace gpucost
