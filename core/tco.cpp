#include "tco.h"

namespace gpucost {

TcoResult ComputeTco(const OwnedInputs& o) {
  TcoResult t;
  t.present = true;
  const double capex = o.capex_usd_per_gpu * (1 + o.spares_fraction);
  t.capex_usd_per_gpu_year = capex * (1 - o.residual_fraction) / o.lifetime_years;
  t.power_usd_per_gpu_year = o.power_kw_per_gpu * o.pue * kHoursPerYear * o.usd_per_kwh;
  t.opex_usd_per_gpu_year = o.opex_usd_per_gpu_year;
  t.usd_per_gpu_year = t.capex_usd_per_gpu_year + t.power_usd_per_gpu_year + t.opex_usd_per_gpu_year;
  t.usd_per_gpu_hour = t.usd_per_gpu_year / (kHoursPerYear * o.utilization);
  t.break_even_utilization = t.usd_per_gpu_year / (kHoursPerYear * o.compare_usd_per_gpu_hour);
  const double running_per_month = (t.power_usd_per_gpu_year + t.opex_usd_per_gpu_year) / 12.0;
  const double cloud_per_month = o.compare_usd_per_gpu_hour * kHoursPerMonth * o.utilization;
  t.break_even_months = cloud_per_month > running_per_month ? capex / (cloud_per_month - running_per_month) : 0;
  return t;
}

}  // namespace gpucost
