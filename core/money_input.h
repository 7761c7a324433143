// money_input.h — money typed in the other currency: "₩5,000", "5,000원", "300만 원", "3억", "5000 KRW" into a
// USD field (fees, storage per GB-month, egress per GB, capex, electricity per kWh, colocation, staff, prices),
// or "$3.5" / "3.5 USD" into a KRW field, converted at the scenario's exchange rate (pricing.krw_per_usd) and
// labelled with the conversion, so a Korean price list can be typed as it reads.
#pragma once
#include <string>

#include "fields.h"

namespace gpucost {

enum class MoneyUnit { kNone, kUsd, kKrw };
// The currency a field's unit is in ("USD/GPU-hour" -> kUsd, "KRW/GPU-hour" -> kKrw, "GPUs" -> kNone).
MoneyUnit FieldMoneyUnit(const FieldSpec& f);

struct MoneyConversion {
  bool applies = false;  // the text names the other currency (otherwise parse it as a plain quantity)
  std::string error;     // applies, but the amount is not a quantity: the reason
  double value = 0;      // in the field's currency
  double typed = 0;      // the amount as typed, in the other currency
};

// Reads `text` typed into field f. Korean units 만 (1e4) and 억 (1e8) are accepted with ₩/원/KRW.
MoneyConversion ConvertTypedMoney(const FieldSpec& f, const std::string& text, double krw_per_usd);

}  // namespace gpucost
