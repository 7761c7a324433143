#include "vat.h"

namespace gpucost {

VatLines VatBreakdown(const Scenario& s, const Result& r) {
  VatLines v;
  v.rate = s.pricing.tax_rate;
  v.total_usd = r.expected_usd;
  v.vat_usd = r.cost_usd.part[kPartTax];
  v.supply_usd = r.expected_usd - v.vat_usd;
  return v;
}

const char* VatHeadlineKey(const VatLines& v) { return v.included() ? "vat.included" : "vat.excluded"; }

}  // namespace gpucost
