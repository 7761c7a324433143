#include "format.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace gpucost {
namespace {

std::string Grouped(double v) {
  char digits[64];
  std::snprintf(digits, sizeof digits, "%.0f", std::fabs(v));
  std::string out;
  const int n = static_cast<int>(std::strlen(digits));
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

std::string Scaled(double v, const char* prefix) {
  const double a = std::fabs(v);
  char buf[64];
  if (!std::isfinite(v)) return "n/a";
  if (a >= 1e15) return std::string(v < 0 ? "less than -" : "more than ") + prefix + "1,000T";  // never "6.76e+14T"
  if (a >= 1e12) std::snprintf(buf, sizeof buf, "%s%.3gT", prefix, v / 1e12);
  else if (a >= 1e9) std::snprintf(buf, sizeof buf, "%s%.3gB", prefix, v / 1e9);
  else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%s%.3gM", prefix, v / 1e6);
  else if (a >= 1e4) return prefix + Grouped(v);
  else if (a >= 100) std::snprintf(buf, sizeof buf, "%s%.0f", prefix, v);
  else std::snprintf(buf, sizeof buf, "%s%.2f", prefix, v);
  return buf;
}

}  // namespace

std::string FormatUsd(double usd) { return Scaled(usd, "$"); }

std::string FormatMoney(double amount, const char* currency) {
  if (std::strcmp(currency, "KRW") == 0) {
    if (std::fabs(amount) >= 1e16) return amount < 0 ? "less than -KRW 1억억" : "more than KRW 1억억";
    if (std::fabs(amount) >= 1e8) {  // 억 = 1e8
      char buf[64];
      std::snprintf(buf, sizeof buf, "KRW %.3g억", amount / 1e8);
      return buf;
    }
    return "KRW " + Grouped(amount);
  }
  return FormatUsd(amount);
}

std::string FormatDuration(double hours) {
  char buf[64];
  if (!std::isfinite(hours)) return "n/a";
  if (hours >= 24 * 365 * 2) std::snprintf(buf, sizeof buf, "%.3g years", hours / (24 * 365));
  else if (hours >= 48) std::snprintf(buf, sizeof buf, "%.3g days", hours / 24);
  else if (hours >= 1) std::snprintf(buf, sizeof buf, "%.3g h", hours);
  else if (hours * 60 >= 1) std::snprintf(buf, sizeof buf, "%.3g min", hours * 60);
  else std::snprintf(buf, sizeof buf, "%.3g s", hours * 3600);
  return buf;
}

std::string FormatCount(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) >= 1e15) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }
  if (std::fabs(v) < 100 && v != std::floor(v)) return FormatNumber(v, 3);
  return Grouped(v);
}

std::string FormatFlops(double flops) {
  static const char* const kUnits[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP", "ZFLOP", "YFLOP"};
  int u = 0;
  double v = flops;
  while (std::fabs(v) >= 1000 && u < 8) {
    v /= 1000;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s", v, kUnits[u]);
  return buf;
}

std::string FormatPercent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
  return buf;
}

std::string FormatNumber(double v, int significant) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return buf;
}

}  // namespace gpucost
