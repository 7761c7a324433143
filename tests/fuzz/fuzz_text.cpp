// fuzz_text — any bytes as user text (a scenario name, a provider-sheet answer) through the CSV writer and the
// terminal renderer (issue 31). Properties: a CSV cell reads back (RFC 4180) as the text, behind one single
// quote exactly when a spreadsheet would otherwise evaluate it, and never starts a formula; terminal text and a
// CLI table built from it hold no control character (C0, DEL, C1, bidirectional overrides) but the table's line
// ends; text with none keeps its bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli.h"
#include "fuzz_util.h"
#include "base/text_safety.h"

using namespace gpucost;

namespace {

// One RFC 4180 field back to its text (the whole string is one field).
std::string ReadCsvField(const std::string& cell) {
  if (cell.empty() || cell[0] != '"') {
    if (cell.find_first_of(",\"\n\r") != std::string::npos) fuzz::Violated("an unquoted CSV cell holds a separator");
    return cell;
  }
  if (cell.size() < 2 || cell.back() != '"') fuzz::Violated("a quoted CSV cell does not end with a quote");
  std::string out;
  for (std::size_t i = 1; i + 1 < cell.size(); ++i) {
    if (cell[i] == '"') {
      if (i + 2 >= cell.size() || cell[i + 1] != '"') fuzz::Violated("a lone quote inside a quoted CSV cell");
      ++i;
    }
    out += cell[i];
  }
  return out;
}

bool Formula(const std::string& s) {
  return !s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n');
}

bool PlainNumber(const std::string& s) {
  if (s.empty() || s.find_first_not_of("+-0123456789.eE") != std::string::npos) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

void CheckTerminal(const std::string& out, bool allow_newline) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(out[i]);
    if ((c < 0x20 && !(allow_newline && c == '\n')) || c == 0x7F) fuzz::Violated("a control character reached the terminal");
    const unsigned char c1 = i + 1 < out.size() ? static_cast<unsigned char>(out[i + 1]) : 0;
    const unsigned char c2 = i + 2 < out.size() ? static_cast<unsigned char>(out[i + 2]) : 0;
    if (c == 0xC2 && c1 >= 0x80 && c1 <= 0x9F) fuzz::Violated("a C1 control reached the terminal");
    if (c == 0xE2 && ((c1 == 0x80 && c2 >= 0xAA && c2 <= 0xAE) || (c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9)))
      fuzz::Violated("a bidirectional override reached the terminal");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);

  const std::string cell = CsvCell(text);
  const std::string back = ReadCsvField(cell);
  const bool neutralised = Formula(text) && !PlainNumber(text);
  if (back != (neutralised ? "'" + text : text)) fuzz::Violated("a CSV cell does not read back as its text");
  if (Formula(back) && !PlainNumber(back)) fuzz::Violated("a CSV cell starts a formula");

  const std::string safe = TerminalSafe(text);
  CheckTerminal(safe, false);
  if (TerminalSafe(safe) != safe) fuzz::Violated("TerminalSafe is not idempotent on its own output");

  // The CLI table renderer with the text in every cell.
  char* buf = nullptr;
  std::size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  if (!f) return 0;
  cli::Table t;
  t.Row({"name", text});
  t.Rule();
  t.Row({text, "$1.00"});
  t.Print(f);
  std::fclose(f);
  CheckTerminal(std::string(buf, len), true);
  std::free(buf);
  return 0;
}
