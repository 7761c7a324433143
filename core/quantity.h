// quantity.h — one parser for every number a person types (the page's fields and the CLI's options).
// Accepts what people write: "70B", "2T", "1.5M", "300k", "1e9", "1,000", "2,048", "-2.5", and "10%" where
// a fraction is meant. Anything else is refused with a reason: a value is used as typed or not at all
// (never "70B" read as 70 or "1e9" as 19).
#pragma once
#include <string>

#include "fields.h"

namespace gpucost {

// Parses `text` as a quantity. Suffixes (case as people write them): k/K thousand, M million, B/G billion,
// T trillion; an optional space before the suffix. Thousands separators only in groups of three ("1,000",
// not "1,0"). "%" divides by 100 and is accepted only when allow_percent. Returns "" and sets *out, or the
// reason the text is not a quantity (then *out is unchanged).
std::string ParseQuantity(const std::string& text, double* out, bool allow_percent = false);

// Fields people think of in percent (unit "fraction", "fraction/year": tax, discounts, utilisation, MFU):
// the page shows and takes them in percent.
bool FieldShownAsPercent(const FieldSpec& f);

// A value typed into a field: as a quantity (percent-shown fields read "10" and "10%" as 0.10), then the
// field's kind and range. Returns "" and sets *out, or the inline message
// "\"70X\" is not allowed: must be ..." naming the allowed range as the field shows it.
std::string ParseFieldInput(const FieldSpec& f, const std::string& text, double* out);

// The value as a field shows it, in a form ParseQuantity reads back: "70B", "2,048", "10" (percent fields).
std::string FormatFieldValue(const FieldSpec& f, double value);
// The field's unit as shown ("%" for percent-shown fields).
const char* FieldShownUnit(const FieldSpec& f);
// The allowed range as the field shows it ("> 0% and <= 100%" for percent fields), for messages.
std::string DescribeShownRange(const FieldSpec& f);

}  // namespace gpucost
