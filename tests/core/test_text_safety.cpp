// Issue 31, observations 1 and 2: user text reaches CSV files and terminals as text, never as a formula or as
// control characters. Expected cells follow OWASP's CSV-injection advice (a leading single quote) and RFC 4180
// quoting, written out by hand.
#include <doctest/doctest.h>

#include <string>

#include "base/text_safety.h"

using namespace gpucost;

TEST_CASE("csv: cells that a spreadsheet would evaluate are neutralised with a leading quote") {
  CHECK(CsvCell("=HYPERLINK(\"http://x\",\"y\")") == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  CHECK(CsvCell("=1+1") == "'=1+1");
  CHECK(CsvCell("+SUM(A1:A9)") == "'+SUM(A1:A9)");
  CHECK(CsvCell("-2+3") == "'-2+3");
  CHECK(CsvCell("@cmd") == "'@cmd");
  CHECK(CsvCell("\t=1") == "'\t=1");
  CHECK(CsvCell("\r=1") == "\"'\r=1\"");
  CHECK(CsvCell("-") == "'-");
}

TEST_CASE("csv: numbers and plain text stay as they are; commas, quotes and line breaks are quoted") {
  CHECK(CsvCell("-1.5") == "-1.5");
  CHECK(CsvCell("+3") == "+3");
  CHECK(CsvCell("-2e-05") == "-2e-05");
  CHECK(CsvCell("12360") == "12360");
  CHECK(CsvCell("Llama 2 70B") == "Llama 2 70B");
  CHECK(CsvCell("a=b") == "a=b");  // '=' inside a cell is not a formula
  CHECK(CsvCell("A \"quoted\", name") == "\"A \"\"quoted\"\", name\"");
  CHECK(CsvCell("two\nlines") == "\"two\nlines\"");
  CHECK(CsvCell(" padded ") == "\" padded \"");
  CHECK(CsvCell("") == "");
  CHECK(CsvCell("한국어 이름") == "한국어 이름");
}

TEST_CASE("terminal: control characters in user text are shown, never obeyed") {
  // The fake line: a name that ends the real line and prints its own price.
  const std::string name = "job\r\nCost per completed job $1.00\x1b[2K\x1b[1A";
  const std::string safe = TerminalSafe(name);
  CHECK(safe == "job\\r\\nCost per completed job $1.00\\e[2K\\e[1A");
  CHECK(TerminalSafe("a\tb\x07\x7f") == "a\\tb\\x07\\x7F");
  CHECK(TerminalSafe("\xc2\x9b" "31m") == "\\u{9B}31m");       // C1 CSI
  CHECK(TerminalSafe("\xe2\x80\xae" "00.1$") == "\\u{202E}00.1$");  // right-to-left override
  CHECK(TerminalSafe("\xff\xfe ok") == "\\xFF\\xFE ok");         // invalid UTF-8
  CHECK(TerminalSafe("Llama 2 70B, H100 — 한국") == "Llama 2 70B, H100 — 한국");
  for (char c = 0; c < 0x20; ++c) CHECK(TerminalSafe(std::string(1, c)).find(c) == std::string::npos);
}
