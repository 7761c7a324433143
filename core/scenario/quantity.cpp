// quantity.cpp — typed numbers (see quantity.h).
#include "scenario/quantity.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <utility>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/format.h"

namespace gpucost {
namespace {

std::string Trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const std::size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

double SuffixScale(char c) {
  switch (c) {
    case 'k': case 'K': return 1e3;
    case 'M': return 1e6;
    case 'B': case 'b': case 'G': return 1e9;
    case 'T': case 't': return 1e12;
    // Past a trillion, as FLOPs are counted (issue 47: the editor wrote "9.755e+20"): upper case only, so that a
    // lower-case "e" stays the exponent ("1e" is refused, "1E" is 1e18).
    case 'P': return 1e15;
    case 'E': return 1e18;
    case 'Z': return 1e21;
    case 'Y': return 1e24;
    default: return 0;
  }
}

// A duration field's unit in seconds ("ms", "seconds", "minutes", "hours", "days"); 0 for any other unit.
double FieldUnitSeconds(const char* unit) {
  static const struct { const char* unit; double seconds; } kUnits[] = {
      {"ms", 1e-3}, {"seconds", 1}, {"minutes", 60}, {"hours", 3600}, {"days", 86400}};
  for (const auto& u : kUnits)
    if (std::strcmp(unit, u.unit) == 0) return u.seconds;
  return 0;
}

// A duration typed with its unit, as people write one ("50ms", "0.5 s", "30 min", "2h", "3일", "90초"): the unit
// taken off `text` and its length in seconds returned; 0 (text unchanged) when the text ends in none. "m" alone is
// not taken (a million, or a minute?): minutes are "min" or "분".
double TakeDurationUnit(std::string* text) {
  static const struct { const char* suffix; double seconds; } kSuffixes[] = {
      {"밀리초", 1e-3}, {"ms", 1e-3}, {"seconds", 1}, {"second", 1}, {"secs", 1}, {"sec", 1}, {"초", 1}, {"s", 1},
      {"minutes", 60}, {"minute", 60}, {"mins", 60}, {"min", 60}, {"분", 60}, {"hours", 3600}, {"hour", 3600},
      {"hrs", 3600}, {"hr", 3600}, {"시간", 3600}, {"h", 3600}, {"days", 86400}, {"day", 86400}, {"일", 86400},
      {"d", 86400}};
  for (const auto& u : kSuffixes) {
    const std::size_t n = std::strlen(u.suffix);
    if (text->size() > n && text->compare(text->size() - n, n, u.suffix) == 0) {
      const char before = (*text)[text->size() - n - 1];
      if (!(std::isdigit(static_cast<unsigned char>(before)) || before == ' ' || before == '.')) continue;
      text->erase(text->size() - n);
      return u.seconds;
    }
  }
  return 0;
}

// The integer part's digits with separators checked: "1,000" -> "1000"; "" on a misplaced separator.
bool StripSeparators(const std::string& mantissa, std::string* digits) {
  const std::size_t point = mantissa.find_first_of(".eE");
  const std::string whole = mantissa.substr(0, point), rest = point == std::string::npos ? "" : mantissa.substr(point);
  if (rest.find(',') != std::string::npos) return false;
  if (whole.find(',') == std::string::npos) return *digits = mantissa, true;
  std::size_t group_start = 0, first = whole.find(',');
  if (first == 0 || first > 3) return false;
  for (std::size_t i = first; i < whole.size(); i = group_start + 3) {
    if (whole[i] != ',') return false;
    group_start = i + 1;
    if (group_start + 3 > whole.size()) return false;
    for (std::size_t k = group_start; k < group_start + 3; ++k)
      if (!std::isdigit(static_cast<unsigned char>(whole[k]))) return false;
    if (group_start + 3 == whole.size()) break;
  }
  std::string out;
  for (char c : whole)
    if (c != ',') out += c;
  *digits = out + rest;
  return true;
}

std::string Shown(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

Message QuantityProblem(const std::string& text, double* out, bool allow_percent) {
  const Message not_a_number{"msg.q_not_number", {}};
  std::string t = Trim(text);
  if (t.empty()) return {"msg.q_empty", {}};
  if (t.size() > 64) return {"msg.q_too_long", {}};
  // Korean units, largest first, each after its own number: 조 (1e12), 억 (1e8), 만 (1e4): "20억" tokens, "2조",
  // "3억 5,000만" (a new user's "20억" was refused in a count field while money fields read "300만 원").
  static const std::pair<const char*, double> kKoreanUnits[] = {{"조", 1e12}, {"억", 1e8}, {"만", 1e4}};
  bool korean = false;
  for (const auto& unit : kKoreanUnits) korean = korean || t.find(unit.first) != std::string::npos;
  if (korean) {
    double total = 0;
    std::string rest = t;
    for (const auto& [unit, scale] : kKoreanUnits) {
      const std::size_t at = rest.find(unit);
      if (at == std::string::npos) continue;
      double v = 0;
      if (Message e = QuantityProblem(rest.substr(0, at), &v, false); !e.empty()) return e;
      total += v * scale;
      rest = Trim(rest.substr(at + std::strlen(unit)));
    }
    double v = 0;
    if (!rest.empty())
      if (Message e = QuantityProblem(rest, &v, false); !e.empty()) return e;
    if (!std::isfinite(total + v)) return {"msg.q_out_of_range", {}};
    *out = std::strtod(Shown(total + v).c_str(), nullptr);  // as a suffix's scaling: to 15 digits
    return {};
  }
  double scale = 1;
  if (t.back() == '%') {
    if (!allow_percent) return {"msg.q_no_percent", {}};
    scale = 0.01;
    t = Trim(t.substr(0, t.size() - 1));
  } else if (const double s = SuffixScale(t.back()); s != 0 && t.size() > 1) {
    scale = s;
    t = Trim(t.substr(0, t.size() - 1));
  } else if (t.back() == 'm' && t.size() > 1 && std::isdigit(static_cast<unsigned char>(t[t.size() - 2]))) {
    return {"msg.q_m_ambiguous", {}};
  }
  if (t.empty()) return {"msg.q_no_number", {}};
  for (char c : t)  // digits, sign, point, separators and exponent only: rejects "nan", "inf", hex and words
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.' || c == ',' || c == 'e' || c == 'E'))
      return not_a_number;
  const std::size_t sign = (t[0] == '+' || t[0] == '-') ? 1 : 0;
  std::string digits;
  if (!StripSeparators(t.substr(sign), &digits)) return {"msg.q_separators", {}};
  const std::string plain = t.substr(0, sign) + digits;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(plain.c_str(), &end);
  if (end == plain.c_str() || *end != '\0') return not_a_number;
  if (errno == ERANGE || !std::isfinite(v * scale)) return {"msg.q_out_of_range", {}};
  *out = v * scale;
  // 1.1% of 100 is 1.1000000000000001e-02 in binary: round percent and suffix scalings to 15 digits so that
  // a typed "10%" is exactly the 0.1 a file would hold.
  if (scale != 1) *out = std::strtod(Shown(*out).c_str(), nullptr);
  return {};
}

std::string ParseQuantity(const std::string& text, double* out, bool allow_percent) {
  return QuantityProblem(text, out, allow_percent).Text(Lang::kEn);
}

bool FieldShownAsPercent(const FieldSpec& f) {
  return f.kind == FieldKind::kNumber && std::strncmp(f.unit, "fraction", 8) == 0;
}

const char* FieldShownUnit(const FieldSpec& f) {
  if (!FieldShownAsPercent(f)) return f.unit;
  return std::strcmp(f.unit, "fraction/year") == 0 ? "/year" : "";  // the value carries its own "%"
}

std::string UnitName(const std::string& unit) {
  const std::string key = "unitname." + unit;
  return HasTranslation(Lang::kEn, key.c_str()) ? std::string(Tr(key.c_str())) : unit;
}

MessageParam UnitNameParam(const std::string& unit) {
  const std::string key = "unitname." + unit;
  return HasTranslation(Lang::kEn, key.c_str()) ? MessageParam::Key(key.c_str()) : MessageParam(unit);
}

MessageParam ShownRangeMessage(const FieldSpec& f) {
  if (!FieldShownAsPercent(f)) return RangeMessage(f);
  // A fraction as typed (0.4) or a percentage (40%): both ranges, so that "40" is never read as 0.4.
  return MessageParam::Key(f.min_exclusive ? "msg.range_pct_gt" : "msg.range_pct_ge",
                           {Shown(f.min), Shown(f.max), Shown(f.min * 100), Shown(f.max * 100)});
}

std::string DescribeShownRange(const FieldSpec& f) {
  const MessageParam range = ShownRangeMessage(f);
  return RenderMessage(Lang::kEn, range.text, range.args);
}

Message FieldInputProblem(const FieldSpec& f, const std::string& text, double* out) {
  double v = 0;
  const bool percent = FieldShownAsPercent(f);
  // A duration field takes a duration with its unit, converted to the field's ("0.5 s" in a field of ms is 500).
  std::string number = Trim(text);
  const double field_seconds = FieldUnitSeconds(f.unit);
  const double typed_seconds = field_seconds > 0 ? TakeDurationUnit(&number) : 0;
  const Message why = QuantityProblem(number, &v, percent);
  if (why.empty() && typed_seconds > 0) v = std::strtod(Shown(v * typed_seconds / field_seconds).c_str(), nullptr);
  const std::string quoted = "\"" + Trim(text).substr(0, 40) + "\"";
  if (!why.empty()) return {"msg.q_not_allowed_why", {quoted, MessageParam::From(why), ShownRangeMessage(f)}};
  // A fraction field reads a bare number as the fraction it is ("0.4") and "40%" as 0.4; a bare number above
  // the range ("40") is refused, never read as 40% nor as 4,000%.
  if (!ValueInRange(f, v)) {
    if (percent && Trim(text).back() != '%' && v > f.max && ValueInRange(f, v / 100))
      return {"msg.q_fraction", {quoted, f.path, ShownRangeMessage(f), Shown(v / 100), Trim(text) + "%"}};
    return {"msg.q_not_allowed", {quoted, ShownRangeMessage(f)}};
  }
  *out = v;
  return {};
}

std::string ParseFieldInput(const FieldSpec& f, const std::string& text, double* out) {
  return FieldInputProblem(f, text, out).Text(Lang::kEn);
}

std::string FormatFieldValue(const FieldSpec& f, double value) {
  if (FieldShownAsPercent(f)) return Shown(std::strtod(Shown(value * 100).c_str(), nullptr)) + "%";
  const double a = std::fabs(value);
  // A form is shown only when the parser reads it back to this very value (never a silent change).
  auto exact = [value](const std::string& text) {
    double back = 0;
    return QuantityProblem(text, &back).empty() && back == value;
  };
  static const struct { double scale; const char* suffix; } kScales[] = {
      {1e24, "Y"}, {1e21, "Z"}, {1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "B"}, {1e6, "M"}};
  for (const auto& s : kScales) {
    // A short, exact form when there is one ("70B", "1.4T", "975.5E"), else all the digits.
    if (a >= s.scale && a < s.scale * 1e6) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6g", value / s.scale);
      // (The parser itself only past T: the page's first frame shows no such value and keeps the parser's code in
      // its later part, docs/bundle-size.md.)
      // Read back as the parser reads a suffix: scaled, then rounded to 15 digits ("8.03B" is 8.03e9 exactly, though
      // 8.03 x 1e9 is not; issue 47's walk-through saw "8030M").
      const double back = std::strtod(Shown(std::strtod(buf, nullptr) * s.scale).c_str(), nullptr);
      if (back == value && (s.scale < 1e15 || exact(std::string(buf) + s.suffix)))
        return std::string(buf) + s.suffix;
    }
  }
  if (value == std::floor(value) && a < 1e15) return FormatCount(value);  // "2,048"
  // Above that, the digits before the largest suffix that fits ("975.512345678901E"), never "9.75512345678901e+20"
  // (issue 47); e-notation only where no such form reads back exactly (more than 15 significant digits).
  for (const auto& s : kScales) {
    if (a < s.scale || s.scale < 1e15) continue;
    const double m = value / s.scale;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", m);
    const std::string digits = m == std::floor(m) && m < 1e15 ? FormatCount(m) : std::string(buf);  // "100,000,000Y"
    if (digits.find('e') == std::string::npos && exact(digits + s.suffix)) return digits + s.suffix;
    break;
  }
  return Shown(value);
}

double FieldValueAsShown(const FieldSpec& f, double value) {
  double back = value;
  return FieldInputProblem(f, FormatFieldValue(f, value), &back).empty() ? back : value;
}

double FieldStartValue(const FieldSpec& f, double derived) {
  const bool flops = std::strcmp(f.unit, "FLOPs") == 0;
  return FieldValueAsShown(f, flops ? std::strtod(FormatDigits(derived, 4).c_str(), nullptr) : derived);
}

}  // namespace gpucost
