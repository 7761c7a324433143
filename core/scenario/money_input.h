// money_input.h — money as people type it: "₩5,000", "5,000원", "300만 원", "3억 원", "5000 KRW", "$3.5",
// "3.5 USD", or a plain amount in the currency the field shows (fees, storage per GB-month, egress per GB, capex,
// electricity per kWh, colocation, staff, prices), converted at the scenario's dated exchange rate
// (pricing.krw_per_usd, pricing.krw_per_usd_date) and labelled, so a Korean price list can be typed as it reads.
#pragma once
#include <string>

#include "scenario/fields.h"
#include "base/message.h"

namespace gpucost {

enum class MoneyUnit { kNone, kUsd, kKrw };
// The currency a field's unit is in ("USD/GPU-hour" -> kUsd, "KRW/GPU-hour" -> kKrw, "GPUs" -> kNone).
MoneyUnit FieldMoneyUnit(const FieldSpec& f);

// --- Money fields in the scenario's currency (pricing.currency) ---------------------------------------------
//
// Storage rule: a money field is stored in the currency its JSON name says. usd_* fields (fees, storage per
// GB-month, egress per GB, capex, electricity per kWh, colocation, staff, commitment and pool prices) hold USD;
// pricing.krw_per_gpu_hour holds KRW. So the JSON a person writes says its currency in every key, and old
// scenarios and links mean what they always meant. The page and `gpucost eval --set` show and take each usd_*
// field in the scenario's currency: in a KRW scenario, won, converted at pricing.krw_per_usd (dated by
// pricing.krw_per_usd_date) and labelled. A value typed in won is stored as won / rate, so the cost is the same
// whichever currency it was typed in. Changing the rate later keeps the USD amounts (their won figures move
// with the rate, as a USD price list's do); a KRW price that must not move goes in pricing.krw_per_gpu_hour.

// The currency field f is shown and typed in: kNone for a field that is not money, the scenario's currency for
// usd_* fields, KRW for pricing.krw_per_gpu_hour.
MoneyUnit ShownMoneyUnit(const Scenario& s, const FieldSpec& f);
// The field's unit as shown: "KRW/kWh" for pricing.owned.usd_per_kwh in a KRW scenario, else f.unit.
std::string ShownMoneyUnitText(const Scenario& s, const FieldSpec& f);
// The allowed range in the currency the field shows: "a number >= 0 and <= 14,390 KRW/kWh".
std::string ShownMoneyRange(const Scenario& s, const FieldSpec& f);  // English
MessageParam ShownMoneyRangeMessage(const Scenario& s, const FieldSpec& f);  // the same, as a key and its parameters
// A stored amount as the field shows it, in a form ParseMoneyField reads back ("5,000", "0.08").
std::string FormatShownMoney(const Scenario& s, const FieldSpec& f, double stored);
// A stored amount as money in the currency the field shows, with the field's per-unit name: "₩3,227/GPU시간" in
// Korean, "$2.2425/GPU-hour" (six significant digits; a bound or a figure read as money, not as a field's number).
std::string ShownMoneyAmount(const Scenario& s, const FieldSpec& f, double stored);
// A value of field f read on its own (a bound of the Sensitivity view, on the page and the CLI alike): money as
// ShownMoneyAmount, a share as the field shows it ("32%"), any other number to four significant digits with the
// field's unit in the reader's language ("0.08167 분", "25,000 hours").
std::string FieldAmountText(const Scenario& s, const FieldSpec& f, double stored);
// The conversion a field's figure stands for, when it is shown or was typed in another currency than it is
// stored in: "₩1,439/kWh = $1/kWh at ₩1,439/$ (2025-12-30)". "" when no conversion is involved. Without
// with_typed, only what follows the figure shown above it: "= $1/kWh at ₩1,439/$ (2025-12-30)".
std::string MoneyConversionLabel(const Scenario& s, const FieldSpec& f, double stored, MoneyUnit typed = MoneyUnit::kNone,
                                 bool with_typed = true);

struct MoneyTyped {
  std::string error;                   // "" or the inline message naming the allowed range in the shown currency (English)
  Message error_message;               // the same as a key and parameters (rendered in the reader's language)
  void Refuse(Message why) {
    error = why.Text(Lang::kEn);
    error_message = std::move(why);
  }
  double stored = 0;                   // the value to store (field's own currency)
  MoneyUnit typed = MoneyUnit::kNone;  // the currency the text was read in
  std::string label;                   // the conversion, when one was made (MoneyConversionLabel)
};
// Reads text typed into money field f of scenario s: "₩5,000", "300만 원", "$3.5", "3.5 USD", or a plain
// amount ("1.2") in the currency the field shows. 만/억 need won (written or shown). Used as typed or refused.
MoneyTyped ParseMoneyField(const Scenario& s, const FieldSpec& f, const std::string& text);

}  // namespace gpucost
