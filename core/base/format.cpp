#include "base/format.h"
#include "base/numeric.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/i18n.h"

namespace gpucost {
namespace {

std::string Grouped(double v, int decimals = 0) {  // "1,234" / "1,234.5"
  char digits[64];
  std::snprintf(digits, sizeof digits, "%.*f", decimals, std::fabs(v));
  const char* dot = std::strchr(digits, '.');
  const int n = dot ? static_cast<int>(dot - digits) : static_cast<int>(std::strlen(digits));
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out + (dot ? dot : "");
}

std::string Scaled(double v, const char* prefix, int significant = 3, bool keep_zeros = false) {
  if (!std::isfinite(v)) return "n/a";
  const double a = std::fabs(v);
  const std::string sign = v < 0 ? "-" : "";  // "-$7,901", not "$-7,901"
  char buf[64];
  if (a >= 1e15) return std::string(v < 0 ? "less than -" : "more than ") + prefix + "1,000T";  // never "6.76e+14T"
  const auto digits = [&](double x) { return keep_zeros ? FormatDigits(x, significant) : FormatNumber(x, significant); };
  if (keep_zeros && a == 0) return std::string(prefix) + "0";  // a tick at zero: "$0" beside "$100", never "$0.00"
  if (a >= 1e12) return sign + prefix + digits(a / 1e12) + "T";
  if (a >= 1e9) return sign + prefix + digits(a / 1e9) + "B";
  if (a >= 1e6) return sign + prefix + digits(a / 1e6) + "M";
  if (a >= 999.5) {  // separators from four digits: $7,901 beside $12,383; cents only when more digits are asked
    const int whole_digits = static_cast<int>(std::floor(std::log10(a))) + 1;
    return sign + prefix + Grouped(a, std::clamp(significant - whole_digits, 0, 2));
  }
  else if (a >= 100) std::snprintf(buf, sizeof buf, "%.*f", std::clamp(significant - 3, 0, 2), a);
  else std::snprintf(buf, sizeof buf, "%.2f", a);
  return sign + prefix + buf;
}

// The largest unit that keeps a positive duration of `hours` at 1 or more (milliseconds below a second).
struct DurationUnit {
  const char* key;
  double hours;  // hours in one of it
};
DurationUnit DurationUnitOf(double hours) {
  if (hours >= 24 * 365 * 2) return {"unit.years", 24 * 365};
  if (hours >= 48) return {"unit.days", 24};
  if (hours >= 1) return {"unit.hours", 1};
  if (hours * 60 >= 1) return {"unit.minutes", 1.0 / 60};
  if (hours * 3600 >= 1) return {"unit.seconds", 1.0 / 3600};
  return {"unit.milliseconds", 1.0 / 3600e3};
}

std::string InUnit(double hours, const DurationUnit& unit, int significant, bool keep_zeros) {
  const double v = hours / unit.hours;
  return TrFormat(unit.key, {keep_zeros ? FormatDigits(v, significant) : FormatNumber(v, significant)});
}

// Hours in the largest unit that keeps the figure above 1 ("3.2 days"); keep_zeros: every digit shown ("37.0 days").
std::string Duration(double hours, int significant, bool keep_zeros) {
  if (!std::isfinite(hours)) return "n/a";
  if (!(hours > 0)) return InUnit(0, {"unit.seconds", 1.0 / 3600}, significant, keep_zeros);
  if (hours * 3600e3 < 1e-3) return Tr("unit.under_1us");
  return InUnit(hours, DurationUnitOf(hours), significant, keep_zeros);
}

}  // namespace

std::string FormatUsd(double usd) { return Scaled(usd, "$"); }
std::string FormatScaled(double v) { return Scaled(v, ""); }
std::string FormatUsd(double usd, int significant) { return Scaled(usd, "$", significant, true); }

std::string FormatKrwGrouped(double krw) {
  if (!std::isfinite(krw)) return "n/a";
  if (std::fabs(krw) < 100 && krw != std::floor(krw)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s₩%.2f", krw < 0 ? "-" : "", std::fabs(krw));
    return buf;
  }
  return (krw < 0 ? "-₩" : "₩") + Grouped(std::fabs(krw));
}

// `rest` counted in 10^(4 unit) won, as groups of four digits: won, 만 (10^4), 억 (10^8), 조 (10^12, the top group may
// exceed 9,999); zero groups left out: "25억 6,002만 4,206".
static std::string KoreanGroups(double rest, int unit) {
  static const char* const kUnits[] = {"", "만", "억", "조"};
  std::string out;
  for (; rest > 0 && unit < 4; ++unit) {
    const double group = unit == 3 ? rest : std::fmod(rest, 1e4);
    rest = unit == 3 ? 0 : std::floor(rest / 1e4);
    if (group > 0) out = Grouped(group) + kUnits[unit] + (out.empty() ? "" : " ") + out;
  }
  return out;
}

std::string FormatKrwKorean(double krw) {
  if (!std::isfinite(krw)) return "n/a";
  const double a = std::fabs(krw);
  const std::string sign = krw < 0 ? "-" : "";
  if (a < 1e4) {
    if (a < 100 && a != std::floor(a)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%.2f 원", sign.c_str(), a);
      return buf;
    }
    return sign + Grouped(a) + " 원";
  }
  // Rounded to 만 원 from 1억 up and to 억 원 from 1조 up (the digits below are noise in a cost).
  const int unit = a >= 1e12 ? 2 : a >= 1e8 ? 1 : 0;
  return sign + KoreanGroups(std::round(a / std::pow(1e4, unit)), unit) + " 원";
}

std::string FormatMoneyExact(double amount, const char* currency) {
  if (!std::isfinite(amount)) return "n/a";
  const bool krw = std::strcmp(currency, "KRW") == 0;
  const double a = std::round(std::fabs(amount) * (krw ? 1 : 100)) / (krw ? 1 : 100);
  const std::string sign = amount < 0 && a > 0 ? "-" : "";
  if (!krw) return sign + "$" + Grouped(a, 2);
  if (CurrentLanguage() != Lang::kKo || a < 1e4) return sign + "₩" + Grouped(a);
  return sign + KoreanGroups(a, 0) + " 원";  // every group of four digits, none rounded away
}

std::string FormatKrwShort(double v) {
  if (!std::isfinite(v)) return "n/a";
  char buf[64];
  const double a = std::fabs(v);
  if (a >= 1e15) return TrFormat(v < 0 ? "app.less_than" : "app.more_than", {v < 0 ? "-KRW 1,000T" : "KRW 1,000T"});  // never an exponent with a suffix
  if (CurrentLanguage() == Lang::kKo) {  // always with 원, as the exact amount beside it ("724.6만 원", issue 47)
    if (a >= 1e12) std::snprintf(buf, sizeof buf, "%.3g조 원", v / 1e12);
    else if (a >= 1e8) std::snprintf(buf, sizeof buf, "%.3g억 원", v / 1e8);
    else if (a >= 1e4) return FormatNumber(v / 1e4, 4) + "만 원";  // "6,270만 원" beside "6,269만 9,062 원" (issue 30)
    else return FormatKrwKorean(v);
    return buf;
  }
  if (a >= 1e12) std::snprintf(buf, sizeof buf, "₩%.3gT", v / 1e12);
  else if (a >= 1e9) std::snprintf(buf, sizeof buf, "₩%.3gB", v / 1e9);
  else if (a >= 1e6) std::snprintf(buf, sizeof buf, "₩%.3gM", v / 1e6);
  else return FormatKrwGrouped(v);
  return buf;
}

std::string FormatKrwShort(double v, int significant) {
  const double a = std::fabs(v);
  if (!std::isfinite(v) || a >= 1e15) return FormatKrwShort(v);
  const auto scaled = [&](double unit, const char* before, const char* after) {
    return std::string(before) + FormatDigits(v / unit, significant) + after;
  };
  if (CurrentLanguage() == Lang::kKo) {
    if (a >= 1e12) return scaled(1e12, "", "조 원");
    if (a >= 1e8) return scaled(1e8, "", "억 원");
    if (a >= 1e4) {  // every digit shown, the count of 만 grouped as the exact amount is: "6,270만 원", "1.500만 원"
      const double man = v / 1e4;
      const int digits = std::max(significant, 4);
      return (std::fabs(man) >= 999.5 ? FormatNumber(man, digits) : FormatDigits(man, digits)) + "만 원";
    }
    return FormatKrwKorean(v);
  }
  if (a >= 1e12) return scaled(1e12, "₩", "T");
  if (a >= 1e9) return scaled(1e9, "₩", "B");
  if (a >= 1e6) return scaled(1e6, "₩", "M");
  return FormatKrwGrouped(v);
}

std::string FormatGib(double bytes, int significant) { return FormatNumber(bytes / kBytesPerGib, significant) + " GiB"; }

std::string FormatMoney(double amount, const char* currency) {
  if (std::strcmp(currency, "KRW") == 0) {
    const auto krw = CurrentLanguage() == Lang::kKo ? FormatKrwKorean : FormatKrwGrouped;
    if (std::fabs(amount) >= 1e18) return std::string(amount < 0 ? "less than -" : "more than ") + krw(1e18);
    return krw(amount);
  }
  return FormatUsd(amount);
}

std::string FormatSmallMoney(double amount, const char* currency) {
  if (!std::isfinite(amount) || std::fabs(amount) >= 100) return FormatMoney(amount, currency);
  // Three significant digits, never in exponent form ("$0.0000392", "$1.54", "₩54.8"): a price per request or
  // per token is read as money.
  const bool krw = std::strcmp(currency, "KRW") == 0;
  const double magnitude = amount == 0 ? 0 : std::floor(std::log10(std::fabs(amount)));
  const int decimals = static_cast<int>(std::max(krw ? 0.0 : 2.0, std::min(12.0, 2 - magnitude)));
  char buf[64];
  std::snprintf(buf, sizeof buf, krw ? "₩%.*f" : "$%.*f", decimals, amount);
  return buf;
}

std::string FormatDuration(double hours) { return Duration(hours, 3, false); }
std::string FormatDurationLike(double hours, double like_hours) {
  if (!std::isfinite(hours) || !(like_hours > 0)) return FormatDuration(hours);
  return InUnit(hours, DurationUnitOf(like_hours), 3, false);
}
std::string FormatDuration(double hours, int significant) { return Duration(hours, significant, true); }

std::string FormatCount(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) < 100 && v != std::floor(v)) return FormatNumber(v, 3);
  return Grouped(v);
}

std::string FormatBound(double v) {
  char buf[64];
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e12) return Grouped(v);
  if (std::isfinite(v) && std::fabs(v) >= 1e12) {
    // Beyond a trillion, the form people type and the parser reads back ("1e15", "2.5e17"), never "1e+15" or
    // "1000000000000": the shortest mantissa that reads back to exactly the bound.
    for (int digits = 0; digits < 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*e", digits, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
    std::string out = buf;
    const std::size_t e = out.find('e');
    std::string exponent = out.substr(e + 1);
    if (!exponent.empty() && exponent[0] == '+') exponent.erase(0, 1);
    while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
    return out.substr(0, e) + "e" + exponent;
  }
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

std::string FormatFlops(double flops) {
  static const char* const kUnits[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP", "ZFLOP", "YFLOP"};
  int u = 0;
  double v = flops;
  while (std::fabs(v) >= 1000 && u < 8) {
    v /= 1000;
    ++u;
  }
  if (std::fabs(v) >= 1000) return Grouped(std::round(v)) + " " + kUnits[u];  // past YFLOP: "42,000 YFLOP", never 4.2e+04
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s", v, kUnits[u]);
  return buf;
}

std::string FormatPercent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
  return buf;
}

std::string FormatRatio(double ratio) {
  if (!std::isfinite(ratio) || std::fabs(ratio) < 10) return FormatPercent(ratio);
  return "x" + FormatNumber(ratio, 3);
}

std::string FormatSignedPercent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", fraction * 100);
  return buf;
}

std::string FormatDigits(double v, int significant) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%#.*g", significant, v);
  std::string out = buf;
  if (!out.empty() && out.back() == '.') out.pop_back();  // "100." -> "100"
  return out;
}

std::string FormatNumber(double v, int significant) {
  const double a = std::fabs(v);
  if (std::isfinite(v) && a >= 1000 && a < 1e15) {  // 34,040 and 1,234.57, never 3.404e+04
    const int integer_digits = static_cast<int>(std::floor(std::log10(a))) + 1;
    const int decimals = std::max(0, significant - integer_digits);
    const double scale = std::pow(10.0, std::max(0, integer_digits - significant));
    // Whole digits beyond `significant` are rounded off; below, %.*f rounds at the last decimal shown (rounding to a
    // whole number first turned 6,269.9 into "6,270" at 5 significant digits).
    std::string out = Grouped(decimals > 0 ? v : std::round(v / scale) * scale, decimals);
    if (decimals > 0) {  // as %g does: no trailing zeros
      while (out.back() == '0') out.pop_back();
      if (out.back() == '.') out.pop_back();
    }
    return out;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return buf;
}

}  // namespace gpucost
