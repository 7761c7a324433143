// text_safety.h — user-supplied text (scenario names, provider-sheet answers, offer names, echoed values) made
// safe for the two places it leaves the program as data for another program (issue 31):
//
//   CsvCell(text)       one RFC 4180 CSV field that a spreadsheet reads as the text typed, never as a formula.
//                       Spreadsheets (Excel, LibreOffice Calc, Google Sheets) evaluate a cell that starts with
//                       = + - @, and a tab or carriage return in front of one of those (OWASP "CSV Injection",
//                       https://owasp.org/www-community/attacks/CSV_Injection). Such a cell is prefixed with a
//                       single quote (the spreadsheets' own "this is text" mark, which they do not display),
//                       unless the whole cell is a plain decimal number ("-1.5", "+3", "-2e-05"), which stays a
//                       number. The field is then quoted ("...", quotes doubled) when it holds a comma, a quote,
//                       a line break or leading/trailing blanks. Every CSV writer (CLI and page) builds its cells
//                       with this function; the result is ready to join with ",".
//   TerminalSafe(text)  text for a terminal line: control characters (C0 incl. ESC, CR, LF, TAB, BS; DEL; the
//                       C1 range U+0080-U+009F) become visible escapes (\n, \r, \t, \e, \xNN, \u{85}), so a name
//                       cannot move the cursor, overwrite a printed line or start an escape sequence. Printable
//                       UTF-8 (Hangul included) passes unchanged; invalid UTF-8 bytes become \xNN; bidirectional
//                       overrides (U+202A-E, U+2066-9, "Trojan Source") become \u{202E} and the like.
#pragma once
#include <string>
#include <string_view>

namespace gpucost {

std::string CsvCell(std::string_view text);
// No NUL byte and well-formed UTF-8: text, not binary (what an import or a log reader is handed).
bool ValidUtf8(const std::string& text);
std::string TerminalSafe(std::string_view text);

}  // namespace gpucost
