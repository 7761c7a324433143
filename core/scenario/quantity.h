// quantity.h — one parser for every number a person types (the page's fields and the CLI's options).
// Accepts what people write: "70B", "2T", "1.5M", "300k", "1e9", "1,000", "2,048", "-2.5", and "10%" where
// a fraction is meant. Anything else is refused with a reason: a value is used as typed or not at all
// (never "70B" read as 70 or "1e9" as 19).
#pragma once
#include <string>

#include "scenario/fields.h"

namespace gpucost {

// Parses `text` as a quantity. Korean units, each after its own number: 만 (1e4), 억 (1e8), 조 (1e12) ("20억",
// "3억 5,000만"). Suffixes (case as people write them): k/K thousand, M million, B/G billion,
// T trillion, and in upper case only P (1e15), E (1e18), Z (1e21), Y (1e24) as FLOPs are counted ("975.5E"; a
// lower-case "e" is the exponent); an optional space before the suffix. Thousands separators only in groups of three ("1,000",
// not "1,0"). "%" divides by 100 and is accepted only when allow_percent. Returns "" and sets *out, or the
// reason the text is not a quantity (then *out is unchanged).
std::string ParseQuantity(const std::string& text, double* out, bool allow_percent = false);
Message QuantityProblem(const std::string& text, double* out, bool allow_percent = false);  // the same, as a key

// Fraction fields (unit "fraction", "fraction/year": tax, discounts, utilisation, MFU): shown as "40%", typed as
// the fraction ("0.4") or in percent ("40%"); a bare number above the range ("40") is refused (issue 25).
bool FieldShownAsPercent(const FieldSpec& f);

// A value typed into a field (the page's editor and the CLI's --set): as a quantity (fraction fields read "0.1"
// and "10%" as 0.10, and refuse "10" naming the field and both ranges; duration fields, in ms, seconds, minutes,
// hours or days, also read a duration with its unit: "50ms", "0.5 s", "30 min", "2h", "90초", "1시간", "3일"),
// then the field's kind and range. Returns "" and sets *out, or the inline message
// "\"70X\" is not allowed: must be ..." naming the allowed range as the field shows it.
std::string ParseFieldInput(const FieldSpec& f, const std::string& text, double* out);
Message FieldInputProblem(const FieldSpec& f, const std::string& text, double* out);  // the same, as a key

// The value as a field shows it, in a form ParseFieldInput reads back: "70B", "2,048", "10%" (fraction fields),
// "975.5E" (never "9.755e+20", issue 47).
std::string FormatFieldValue(const FieldSpec& f, double value);
// The value FormatFieldValue's text reads back to: `value` itself but for one with more than 15 significant digits
// (a derived figure), which is rounded to them. What the editor writes into a field it fills (an auto turned off),
// so that the field shows exactly the value used.
double FieldValueAsShown(const FieldSpec& f, double value);
// The value a field starts from when its "auto" is turned off, from the value the model derived: a count of FLOPs to
// four significant digits, as every other large figure reads ("916Z", the results' "916 ZFLOP"; never the derived
// "915.97352832Z"), other fields as FieldValueAsShown. The field then shows exactly the value used.
double FieldStartValue(const FieldSpec& f, double derived);
// The field's unit as shown ("" for fraction fields, whose value carries "%"; "/year" for fraction/year).
const char* FieldShownUnit(const FieldSpec& f);
// A unit's name in the current language from the string tables ("unitname.<unit>": "USD/GPU-hour" -> "USD/GPU시간",
// "/GPU-hour" -> "/GPU시간"), the unit itself where they have none; as a message parameter (rendered in the reader's
// language where shown).
std::string UnitName(const std::string& unit);
MessageParam UnitNameParam(const std::string& unit);
// The allowed range as the field shows it ("> 0% and <= 100%" for percent fields), for messages.
std::string DescribeShownRange(const FieldSpec& f);
MessageParam ShownRangeMessage(const FieldSpec& f);  // the same, as a key and its parameters

}  // namespace gpucost
