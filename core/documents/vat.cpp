#include "documents/vat.h"
#include "base/asserts.h"
#include "base/format.h"

#include <cmath>
#include <cstring>

namespace gpucost {

VatText VatLinesText(const VatLines& v, double per_usd, const char* currency) {
  const double unit = std::strcmp(currency, "KRW") == 0 ? 1 : 0.01;  // whole won, or cents
  const double total = std::round(v.total_usd * per_usd / unit), supply = std::round(v.supply_usd * per_usd / unit);
  return {FormatMoneyExact(supply * unit, currency), FormatMoneyExact((total - supply) * unit, currency),
          FormatMoneyExact(total * unit, currency)};
}

VatLines VatBreakdown(const Scenario& s, const Result& r) {
  VatLines v;
  v.rate = s.pricing.tax_rate;
  v.recovered = s.pricing.vat_recoverable;
  // The invoice: what was billed before tax (the delay cost is not billed), its VAT and their sum.
  v.supply_usd = r.expected_usd - r.cost_usd.part[kPartTax] - r.cost_usd.part[kPartDelay];
  v.vat_usd = r.vat_usd;
  v.total_usd = v.supply_usd + v.vat_usd;
  GPUCOST_ASSERT(!r.ok || v.supply_usd >= -1e-9 * (1 + r.expected_usd), "the supply price is >= 0");
  // Rented: all of the supply carries VAT; owned: what is bought from suppliers (not staff, not interest).
  GPUCOST_ASSERT(!r.ok || (r.tco.present ? v.vat_usd <= v.rate * v.supply_usd * (1 + 1e-9) + 1e-9
                                         : ApproxEqual(v.vat_usd, v.rate * v.supply_usd)),
                 "VAT = the rate x the taxable supply");
  return v;
}

const char* VatHeadlineKey(const VatLines& v) { return !v.included() ? "vat.excluded" : v.recovered ? "vat.recovered" : "vat.included"; }

}  // namespace gpucost
