// billing_notes.h — what pricing a pool (money/billing.h PlanBilling) tells the job's result.
#pragma once

#include "job/result.h"
#include "money/billing.h"

namespace gpucost {

// The owned line's TCO (when priced as owned), the price per billed GPU-hour and the display currency.
inline void ApplyBillingNotes(const BillingNotes& notes, Result* r) {
  if (notes.has_tco) r->tco = notes.tco;
  r->usd_per_gpu_hour = notes.usd_per_gpu_hour;
  r->display_currency = notes.display_currency;
  r->display_per_usd = notes.display_per_usd;
}

}  // namespace gpucost
