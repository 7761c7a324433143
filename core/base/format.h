// format.h — human formatting shared by the CLI and the page (one place, one style).
#pragma once
#include <string>

namespace gpucost {

std::string FormatUsd(double usd);                 // "$1.23M", "$45,678", "$0.42"
// Money in `currency` ("USD" or "KRW") in the current language (i18n.h): USD "$1.23M"; KRW "₩303,041,850" in
// English and "3억 304만 원" in Korean (조/억/만 units, rounded to 만 원 from 1만 원 up, to 억 원 from 1조 up).
std::string FormatMoney(double amount, const char* currency);
// Money that may be a fraction of a cent (cost per request or per million tokens): three significant digits
// below 100 ("$0.000665", "₩0.931"), FormatMoney above.
std::string FormatSmallMoney(double amount, const char* currency);
std::string FormatKrwGrouped(double krw);          // "₩303,041,850" (whole won; "₩0.42" below 100)
std::string FormatKrwKorean(double krw);           // "3억 304만 원", "9,500 원", "1조 2,000억 원"
// Money to its smallest unit, every digit shown (an invoice's lines, which must add up as shown): "₩2,560,024,206"
// in English and "25억 6,002만 4,206 원" in Korean; "$1,234,567.89". The amount is rounded to whole won / cents.
std::string FormatMoneyExact(double amount, const char* currency);
// Short, for chart axes and bars, in the current language: "₩1.23B" / "3.03억", "6,270만" (the count of 만 grouped
// as FormatKrwKorean groups it); with `significant` every one of those digits shown (ticks that line up).
std::string FormatKrwShort(double krw);
std::string FormatKrwShort(double krw, int significant);
std::string FormatGib(double bytes, int significant = 4);  // memory: "12.35 GiB" (numeric.h kBytesPerGib)
std::string FormatDuration(double hours);          // "3.2 days", "5.1 h", "12 min"
// The same in the unit FormatDuration gives `like_hours`: an axis's ticks all in its largest tick's unit ("0 ms",
// "50 ms" ... "200 ms", never "0 s" beside "50 ms"; "0.5 s" beside "1.5 s"). like_hours <= 0: FormatDuration(hours).
std::string FormatDurationLike(double hours, double like_hours);
std::string FormatCount(double v);                 // "1,234", "1.2e+21"
// A range's bound in a message: whole numbers grouped ("10,000,000"; beyond 1e12 as "1e+15"), fractions as
// typed ("0.99", "0.001"). One form for every "must be ... from A to B" on page and CLI (issue 30).
std::string FormatBound(double v);
std::string FormatFlops(double flops);             // "5.9e21 FLOP" -> "5.88 ZFLOP"
std::string FormatPercent(double fraction);        // "41.2%"
// A ratio to a reference ("vs on-demand"): a percentage up to 10x ("162.1%"), then a multiple with three
// significant digits ("x527", never "52654.9%", issue 47).
std::string FormatRatio(double ratio);
std::string FormatSignedPercent(double fraction);  // "+4.9%", "-32.9%" (an error: predicted / measured - 1)
std::string FormatNumber(double v, int significant = 4);  // shortest sensible
std::string FormatScaled(double v);                // "1B", "8.03B", "70B", "1.4T" (three digits, a count's suffix)
// The same with a given number of significant digits, every one shown (chart ticks that must differ and line up:
// "10.70 days", "$3.30M" beside "$3.32M").
std::string FormatUsd(double usd, int significant);
std::string FormatDuration(double hours, int significant);
std::string FormatDigits(double v, int significant);  // "3.30", "48.0", "100" (no trailing point)

}  // namespace gpucost
