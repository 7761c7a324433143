#include "money_input.h"

#include <cstring>

#include "quantity.h"

namespace gpucost {
namespace {

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

bool StripPrefix(std::string* s, const char* p) {
  if (s->rfind(p, 0) != 0) return false;
  *s = Trim(s->substr(std::strlen(p)));
  return true;
}

bool StripSuffix(std::string* s, const char* p) {
  const std::size_t n = std::strlen(p);
  if (s->size() < n || s->compare(s->size() - n, n, p) != 0) return false;
  *s = Trim(s->substr(0, s->size() - n));
  return true;
}

// The currency the text names (removing its marks), or kNone.
MoneyUnit TakeCurrency(std::string* s) {
  if (StripPrefix(s, "₩") || StripSuffix(s, "원") || StripSuffix(s, "KRW") || StripSuffix(s, "krw") || StripPrefix(s, "KRW"))
    return MoneyUnit::kKrw;
  if (StripPrefix(s, "$") || StripSuffix(s, "USD") || StripSuffix(s, "usd") || StripPrefix(s, "USD")) return MoneyUnit::kUsd;
  return MoneyUnit::kNone;
}

// "3억 5,000만" -> 3.5e8 (Korean units), else the quantity parser. Returns "" or the reason.
std::string ParseAmount(const std::string& text, double* out) {
  double total = 0;
  std::string rest = text;
  bool any_unit = false;
  for (const auto& [unit, scale] : {std::pair<const char*, double>{"억", 1e8}, {"만", 1e4}}) {
    const std::size_t at = rest.find(unit);
    if (at == std::string::npos) continue;
    double v = 0;
    if (const std::string e = ParseQuantity(Trim(rest.substr(0, at)), &v); !e.empty()) return e;
    total += v * scale;
    rest = Trim(rest.substr(at + std::strlen(unit)));
    any_unit = true;
  }
  if (any_unit && rest.empty()) {
    *out = total;
    return "";
  }
  double v = 0;
  if (const std::string e = ParseQuantity(rest, &v); !e.empty()) return e;
  *out = total + v;
  return "";
}

}  // namespace

MoneyUnit FieldMoneyUnit(const FieldSpec& f) {
  if (f.kind != FieldKind::kNumber) return MoneyUnit::kNone;
  if (std::strncmp(f.unit, "USD", 3) == 0) return MoneyUnit::kUsd;
  if (std::strncmp(f.unit, "KRW/", 4) == 0 && std::strcmp(f.path, "pricing.krw_per_usd") != 0) return MoneyUnit::kKrw;
  return MoneyUnit::kNone;
}

MoneyConversion ConvertTypedMoney(const FieldSpec& f, const std::string& text, double krw_per_usd) {
  MoneyConversion c;
  const MoneyUnit field = FieldMoneyUnit(f);
  std::string amount = Trim(text);
  const MoneyUnit typed = TakeCurrency(&amount);
  if (field == MoneyUnit::kNone || typed == MoneyUnit::kNone || typed == field || !(krw_per_usd > 0)) return c;
  c.applies = true;
  if (const std::string e = ParseAmount(amount, &c.typed); !e.empty()) {
    c.error = "\"" + text + "\": " + e;
    return c;
  }
  c.value = typed == MoneyUnit::kKrw ? c.typed / krw_per_usd : c.typed * krw_per_usd;
  return c;
}

}  // namespace gpucost
