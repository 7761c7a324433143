// format.h — human formatting shared by the CLI and the page (one place, one style).
#pragma once
#include <string>

namespace gpucost {

std::string FormatUsd(double usd);                 // "$1.23M", "$45,678", "$0.42"
std::string FormatMoney(double amount, const char* currency);  // "₩1,234,567" / "$1.2M"
std::string FormatDuration(double hours);          // "3.2 days", "5.1 h", "12 min"
std::string FormatCount(double v);                 // "1,234", "1.2e+21"
std::string FormatFlops(double flops);             // "5.9e21 FLOP" -> "5.88 ZFLOP"
std::string FormatPercent(double fraction);        // "41.2%"
std::string FormatNumber(double v, int significant = 4);  // shortest sensible

}  // namespace gpucost
