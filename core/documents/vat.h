// vat.h — a cost split the way a Korean (or any VAT) invoice shows it: supply price, VAT, total.
// The model adds tax as its own part of the cost (result.h kPartTax); this reads it back as three lines and
// says whether the headline figure includes VAT. The page and the CLI both print these lines.
#pragma once
#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

struct VatLines {
  double supply_usd = 0;   // 공급가액: everything before tax
  double vat_usd = 0;      // 부가세: the tax part
  double total_usd = 0;    // 합계: supply + VAT (the invoice; = Result::expected_usd unless the VAT is recovered)
  double rate = 0;         // pricing.tax_rate (0.10 for Korean VAT)
  bool recovered = false;  // pricing.vat_recoverable: the cost (Result::expected_usd) is the supply price
  bool included() const { return rate > 0; }  // the headline total includes VAT
};

// The expected cost per completed job of `r` (evaluated from `s`) as supply, VAT and total.
VatLines VatBreakdown(const Scenario& s, const Result& r);

// The three lines as an invoice writes them, in the display currency to the won or the cent, so that they add up
// as shown (supply + VAT = total; each rounded to 만 원 apart, "25억 6,002만 + 2억 5,600만" read "28억 1,603만"): the
// total and the supply rounded, the VAT their difference.
struct VatText {
  std::string supply, vat, total;
};
VatText VatLinesText(const VatLines& v, double per_usd, const char* currency);

// "VAT included (10%)" / "부가세 포함 (10%)", "net of recovered VAT", or "VAT excluded" without a tax rate.
const char* VatHeadlineKey(const VatLines& v);  // i18n key: vat.included, vat.recovered or vat.excluded

}  // namespace gpucost
