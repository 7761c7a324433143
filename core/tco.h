// tco.h — owned hardware: cost per useful GPU-hour and break-even against a cloud price.
#pragma once
#include "result.h"
#include "scenario.h"

namespace gpucost {

constexpr double kHoursPerYear = 8760.0;
constexpr double kHoursPerMonth = kHoursPerYear / 12.0;

// Annual cost per GPU = depreciation of capex (with spares, less residual value) over the lifetime
// + power (kW x PUE x 8,760 h x $/kWh, drawn all year: an upper bound) + opex. Per useful GPU-hour:
// annual / (8,760 x utilization). Break-even utilisation: where that equals compare_usd_per_gpu_hour.
// Break-even months: upfront capex / (monthly cloud cost at the utilisation - monthly running cost).
TcoResult ComputeTco(const OwnedInputs& owned);

}  // namespace gpucost
