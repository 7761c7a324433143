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

bool EndsInFinalConsonant(const std::string& text, bool* rieul) {
  bool l = false;
  bool final = false;
  // Walk back over UTF-8 code points to the last one that is read aloud.
  std::size_t i = text.size();
  while (i > 0) {
    std::size_t start = i - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    unsigned cp = static_cast<unsigned char>(text[start]);
    const std::size_t len = i - start;
    if (len == 2) cp = ((cp & 0x1F) << 6) | (static_cast<unsigned char>(text[start + 1]) & 0x3F);
    if (len == 3)
      cp = ((cp & 0x0F) << 12) | ((static_cast<unsigned char>(text[start + 1]) & 0x3F) << 6) |
           (static_cast<unsigned char>(text[start + 2]) & 0x3F);
    const bool skipped = cp == ' ' || cp == ')' || cp == ']' || cp == '"' || cp == '\'' || cp == '*' || cp == 0x201D ||
                         cp == 0x2019 || cp == 0xA0;
    if (skipped) {
      i = start;
      continue;
    }
    if (cp >= 0xAC00 && cp <= 0xD7A3) {
      const unsigned jong = (cp - 0xAC00) % 28;
      final = jong != 0;
      l = jong == 8;
    } else if ((cp >= '0' && cp <= '9') && (text.find('$') != std::string::npos || text.find("\xE2\x82\xA9") != std::string::npos)) {
      // An amount with its currency sign is read with the currency's name after it: "$3.99" 3.99 달러, "₩1,000" 1,000 원.
      final = text.find('$') == std::string::npos;  // 원 (ㄴ); 달러 ends in a vowel
    } else if (cp >= '0' && cp <= '9') {
      // The number the digit ends: a decimal fraction is read digit by digit, a whole number by its last non-zero
      // place (십 백 천 만 ... 억: each ends in a consonant; 조 from 10^12 does not).
      std::size_t j = start, zeros = 0;
      bool nonzero = false, decimal = false;
      while (true) {
        const char c = text[j];
        if (c == '.') decimal = true;
        if (c >= '1' && c <= '9') nonzero = true;
        if (c == '0' && !nonzero) ++zeros;
        if (j == 0 || !((text[j - 1] >= '0' && text[j - 1] <= '9') || text[j - 1] == ',' || text[j - 1] == '.')) break;
        --j;
      }
      const char last = text[start];
      if (last != '0' || decimal || !nonzero) {  // 영 (0), or the digit's own name
        static const bool kFinal[10] = {true, true, false, true, false, false, true, true, true, false};
        final = kFinal[last - '0'];
        l = last == '1' || last == '7' || last == '8';
      } else {
        final = zeros < 12 || zeros >= 16;  // 십 .. 천억 end in a consonant; 조 .. 천조 do not
      }
    } else if ((cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z')) {
      const char c = static_cast<char>(cp | 0x20);
      final = c == 'l' || c == 'm' || c == 'n' || c == 'r';  // 엘 엠 엔 알
      l = c == 'l' || c == 'r';
    }
    break;
  }
  if (rieul) *rieul = final && l;
  return final;
}

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
      const std::size_t slash = text.find('/', end + 1);
      if (text[end] == ':' && slash < close && close != std::string::npos) {  // {n:A/B}: a Korean particle
        bool rieul = false;
        const bool consonant = EndsInFinalConsonant(args[n], &rieul);
        const std::string a = text.substr(end + 1, slash - end - 1), b = text.substr(slash + 1, close - slash - 1);
        out += args[n];
        out += consonant && !(rieul && b == "로") ? a : b;
        i = close;
        continue;
      }
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
