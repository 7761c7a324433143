// text_safety.cpp — CSV cells and terminal text from user-supplied strings (text_safety.h).
#include "base/text_safety.h"

#include <cstdio>

namespace gpucost {
namespace {

// A plain decimal number as a spreadsheet reads one: optional sign, digits with at most one '.', optional
// exponent. Nothing else (no spaces, no "=1+1", no "-A1").
bool IsPlainNumber(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t digits = 0;
  bool dot = false;
  for (; i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') ++digits;
    else if (s[i] == '.' && !dot) dot = true;
    else break;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

bool StartsFormula(std::string_view s) {
  if (s.empty()) return false;
  const char c = s[0];
  return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' || c == '\n';
}

// Bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069; lead byte E2): they reorder what follows
// on the line ("Trojan Source", CVE-2021-42574), so a name could make a printed figure read differently.
bool IsBidiControl(unsigned char b1, unsigned char b2) {
  return (b1 == 0x80 && b2 >= 0xAA && b2 <= 0xAE) || (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9);
}

}  // namespace

std::string CsvCell(std::string_view text) {
  std::string cell;
  if (StartsFormula(text) && !IsPlainNumber(text)) cell = "'";
  cell.append(text.data(), text.size());
  const bool blank_edge = !cell.empty() && (cell.front() == ' ' || cell.back() == ' ');
  if (!blank_edge && cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7F) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case 0x1B: out += "\\e"; break;
        default:
          std::snprintf(buf, sizeof buf, "\\x%02X", c);
          out += buf;
      }
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte; continuation bytes checked; overlong/surrogates left to
    // the terminal (they are not control characters).
    const std::size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 ? 2 : 0;
    bool valid = len > 0 && i + len <= text.size();
    for (std::size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (!valid) {
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
      ++i;
      continue;
    }
    if (len == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {  // C1 controls U+0080-U+009F
      std::snprintf(buf, sizeof buf, "\\u{%02X}", static_cast<unsigned char>(text[i + 1]));
      out += buf;
    } else if (len == 3 && c == 0xE2 && IsBidiControl(static_cast<unsigned char>(text[i + 1]), static_cast<unsigned char>(text[i + 2]))) {
      const unsigned cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
      std::snprintf(buf, sizeof buf, "\\u{%04X}", cp);
      out += buf;
    } else {
      out.append(text.data() + i, len);
    }
    i += len;
  }
  return out;
}

bool ValidUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0) return false;
    const int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + extra >= s.size()) return false;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += 1 + extra;
  }
  return true;
}

}  // namespace gpucost
