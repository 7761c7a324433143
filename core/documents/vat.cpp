#include "documents/vat.h"

namespace gpucost {

VatLines VatBreakdown(const Scenario& s, const Result& r) {
  VatLines v;
  v.rate = s.pricing.tax_rate;
  v.recovered = s.pricing.vat_recoverable;
  v.supply_usd = r.expected_usd - r.cost_usd.part[kPartTax];
  v.vat_usd = r.vat_usd;
  v.total_usd = v.supply_usd + v.vat_usd;
  return v;
}

const char* VatHeadlineKey(const VatLines& v) { return !v.included() ? "vat.excluded" : v.recovered ? "vat.recovered" : "vat.included"; }

}  // namespace gpucost
