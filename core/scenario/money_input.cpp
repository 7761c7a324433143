#include "scenario/money_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "base/format.h"
#include "base/i18n.h"
#include "scenario/json_io.h"
#include "scenario/quantity.h"

namespace gpucost {
namespace {

std::string TrimBlanks(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

bool StripPrefix(std::string* s, const char* p) {
  if (s->rfind(p, 0) != 0) return false;
  *s = TrimBlanks(s->substr(std::strlen(p)));
  return true;
}

bool StripSuffix(std::string* s, const char* p) {
  const std::size_t n = std::strlen(p);
  if (s->size() < n || s->compare(s->size() - n, n, p) != 0) return false;
  *s = TrimBlanks(s->substr(0, s->size() - n));
  return true;
}

// The currency the text names (removing its marks), or kNone.
MoneyUnit TakeCurrency(std::string* s) {
  if (StripPrefix(s, "₩") || StripSuffix(s, "원") || StripSuffix(s, "KRW") || StripSuffix(s, "krw") || StripPrefix(s, "KRW"))
    return MoneyUnit::kKrw;
  if (StripPrefix(s, "$") || StripSuffix(s, "USD") || StripSuffix(s, "usd") || StripPrefix(s, "USD")) return MoneyUnit::kUsd;
  return MoneyUnit::kNone;
}

}  // namespace

MoneyUnit FieldMoneyUnit(const FieldSpec& f) {
  if (f.kind != FieldKind::kNumber) return MoneyUnit::kNone;
  if (std::strncmp(f.unit, "USD", 3) == 0) return MoneyUnit::kUsd;
  if (std::strncmp(f.unit, "KRW/", 4) == 0 && std::strcmp(f.path, "pricing.krw_per_usd") != 0) return MoneyUnit::kKrw;
  return MoneyUnit::kNone;
}

// --- money fields in the scenario's currency ---------------------------------------------------------------

namespace {

const char* CurrencyCode(MoneyUnit u) { return u == MoneyUnit::kKrw ? "KRW" : "USD"; }

// What follows the currency in a field's unit: "/kWh" for "USD/kWh", "" for "USD".
const char* UnitRest(const FieldSpec& f) { return f.unit + 3; }

// Multiplies an amount in `from` to get it in `to`.
double Factor(const Scenario& s, MoneyUnit from, MoneyUnit to) {
  if (from == to) return 1;
  return from == MoneyUnit::kUsd ? s.pricing.krw_per_usd : 1 / s.pricing.krw_per_usd;
}

// `v` to `significant` digits with thousands separators: 1439 -> "1,439", 143.9 -> "143.9", 0.0834 -> "0.0834".
std::string GroupedSignificant(double v, int significant) {
  if (!std::isfinite(v) || std::fabs(v) >= 1e15) return FormatNumber(v, significant);
  const int before = v == 0 ? 1 : static_cast<int>(std::floor(std::log10(std::fabs(v)))) + 1;  // <= 0 below 1
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, significant - before), v);
  std::string text = buf;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  const std::size_t point = std::min(text.find('.'), text.size());
  for (std::size_t i = point; i > (text[0] == '-' ? 4u : 3u); i -= 3) text.insert(i - 3, ",");
  return text;
}

std::string LabelAmount(double v, MoneyUnit u, const FieldSpec& f) {
  return (u == MoneyUnit::kKrw ? "₩" : "$") + GroupedSignificant(v, 6) + UnitName(UnitRest(f));  // "/GPU시간" in Korean
}

bool HasKoreanUnit(const std::string& text) {  // the quantity parser's units (quantity.h)
  return text.find("만") != std::string::npos || text.find("억") != std::string::npos || text.find("조") != std::string::npos;
}

}  // namespace

MessageParam ShownMoneyRangeMessage(const Scenario& s, const FieldSpec& f) {
  const double k = Factor(s, FieldMoneyUnit(f), ShownMoneyUnit(s, f));
  return MessageParam::Key("fmt.range_unit", {NumberRangeMessage(GroupedSignificant(f.min * k, 9), GroupedSignificant(f.max * k, 9),
                                                                 f.min_exclusive),
                                              UnitNameParam(ShownMoneyUnitText(s, f))});
}

std::string ShownMoneyRange(const Scenario& s, const FieldSpec& f) { return RenderParam(Lang::kEn, ShownMoneyRangeMessage(s, f)); }

MoneyUnit ShownMoneyUnit(const Scenario& s, const FieldSpec& f) {
  const MoneyUnit stored = FieldMoneyUnit(f);
  if (stored != MoneyUnit::kUsd) return stored;
  return s.pricing.currency == static_cast<int>(Currency::kKrw) ? MoneyUnit::kKrw : MoneyUnit::kUsd;
}

std::string ShownMoneyUnitText(const Scenario& s, const FieldSpec& f) {
  const MoneyUnit shown = ShownMoneyUnit(s, f);
  if (shown == MoneyUnit::kNone || shown == FieldMoneyUnit(f)) return f.unit;
  return std::string(CurrencyCode(shown)) + UnitRest(f);
}

std::string FormatShownMoney(const Scenario& s, const FieldSpec& f, double stored) {
  const double v = stored * Factor(s, FieldMoneyUnit(f), ShownMoneyUnit(s, f));
  // Nine significant digits: 5,000 won stored as 5000 / 1439 dollars shows as "5,000", not "4,999.99999999".
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  const double rounded = std::strtod(buf, nullptr);
  if (rounded == std::floor(rounded) && std::fabs(rounded) < 1e15) return FormatCount(rounded);
  return GroupedSignificant(rounded, 9);  // "13,662.4416", never "13662.4416" (issue 30)
}

std::string ShownMoneyAmount(const Scenario& s, const FieldSpec& f, double stored) {
  const MoneyUnit shown = ShownMoneyUnit(s, f);
  return shown == MoneyUnit::kNone ? FormatFieldValue(f, stored) : LabelAmount(stored * Factor(s, FieldMoneyUnit(f), shown), shown, f);
}

std::string FieldAmountText(const Scenario& s, const FieldSpec& f, double stored) {
  if (FieldMoneyUnit(f) != MoneyUnit::kNone) return ShownMoneyAmount(s, f, stored);
  const std::string unit = UnitName(FieldShownUnit(f));
  const std::string value = FieldShownAsPercent(f) ? FormatFieldValue(f, stored) : FormatNumber(stored, 4);
  return unit.empty() ? value : value + " " + unit;
}

std::string MoneyConversionLabel(const Scenario& s, const FieldSpec& f, double stored, MoneyUnit typed, bool with_typed) {
  const MoneyUnit stored_unit = FieldMoneyUnit(f);
  const MoneyUnit shown = ShownMoneyUnit(s, f);
  if (stored_unit == MoneyUnit::kNone) return "";
  if (typed == MoneyUnit::kNone) typed = shown;
  if (typed == stored_unit && shown == stored_unit) return "";
  const MoneyUnit other = typed == stored_unit ? shown : stored_unit;
  const std::string left = LabelAmount(stored * Factor(s, stored_unit, typed), typed, f);
  const std::string right = LabelAmount(stored * Factor(s, stored_unit, other), other, f);
  const std::string rate = GroupedSignificant(s.pricing.krw_per_usd, 9);
  const char* date = s.fx.krw_per_usd_date;
  const std::string at = date[0] ? TrFormat("money.at_rate", {right, rate, date}) : TrFormat("money.at_rate_undated", {right, rate});
  return with_typed ? TrFormat("money.label", {left, at}) : "= " + at;
}

MoneyTyped ParseMoneyField(const Scenario& s, const FieldSpec& f, const std::string& text) {
  MoneyTyped t;
  const MoneyUnit stored_unit = FieldMoneyUnit(f);
  if (stored_unit == MoneyUnit::kNone) {
    t.Refuse({"msg.money_not_field", {f.path}});
    return t;
  }
  std::string amount = TrimBlanks(text);
  const std::string quoted = "\"" + amount.substr(0, 40) + "\"";
  t.typed = TakeCurrency(&amount);
  if (t.typed == MoneyUnit::kNone) t.typed = ShownMoneyUnit(s, f);
  if (HasKoreanUnit(amount) && t.typed != MoneyUnit::kKrw) {
    t.Refuse({"money.korean_units_need_won", {quoted}});
    return t;
  }
  double v = 0;
  if (const Message why = QuantityProblem(amount, &v); !why.empty()) {  // 만, 억, 조 included
    t.Refuse({"msg.q_not_allowed_why", {quoted, MessageParam::From(why), ShownMoneyRangeMessage(s, f)}});
    return t;
  }
  const double stored = v * Factor(s, t.typed, stored_unit);
  if (!ValueInRange(f, stored)) {
    t.Refuse({"msg.q_not_allowed", {quoted, ShownMoneyRangeMessage(s, f)}});
    return t;
  }
  t.stored = stored;
  t.label = MoneyConversionLabel(s, f, stored, t.typed);
  return t;
}

}  // namespace gpucost
