// import.h — what a file or pasted text is, before anything is loaded from it: the page's Upload and paste
// box (and anyone else reading "some text a person handed us") say what they got instead of one generic
// "bad link". Pure: looks at the text only.
#pragma once
#include <string>

namespace gpucost {

enum class ImportKind {
  kEmpty,      // nothing but white space
  kBinary,     // NUL bytes or invalid UTF-8: not JSON, not a link
  kCsv,        // comma-separated rows (e.g. a comparison exported as CSV)
  kLink,       // a share link (URL, "#s=..." or "s=1....")
  kScenario,   // a JSON object that is no other gpucost document (validated when loaded)
  kPreset,     // a preset file: {"preset": ..., "scenario": ...}
  kProbe,      // a probe report (gpucost/probe@1)
  kDocument,   // another gpucost document (result, comparison, sweep, ...): not an input
  kJsonOther,  // JSON, but not an object
  kText,       // anything else (prose, a truncated paste)
};

struct ImportGuess {
  ImportKind kind = ImportKind::kText;
  std::string schema;       // kDocument: its "schema" value
  std::string description;  // kDocument: "a result document", "a comparison document", ...
};

ImportGuess ClassifyImport(const std::string& text);

// The message for input that cannot be loaded as it is ("" for kinds that load: link, scenario, preset,
// probe), naming what it is: "empty file", "not JSON (binary)", "a CSV file, not a scenario", "this is a
// result document, not a scenario", ...
std::string ImportRefusal(const ImportGuess& guess);

}  // namespace gpucost
