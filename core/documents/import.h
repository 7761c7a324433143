// import.h — what a file or pasted text is, before anything is loaded from it: the page's Upload and paste
// box, `load()`, and the CLI's scenario arguments say what they got instead of a parser message ("cost: unknown
// key", "parse error at line 1"). Pure: looks at the text only. Messages are codes: a string-table key plus its
// arguments, rendered in the reader's language at the edge (ImportRefusalText).
#pragma once
#include <string>
#include <vector>

#include "base/i18n.h"
#include "base/message.h"

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
  std::string schema;    // kDocument: its "schema" value ("" for a result document written without one)
  std::string doc_key;   // kDocument: the string-table key naming it ("import.doc.result", ...)
};

ImportGuess ClassifyImport(const std::string& text);


// Where the text is going: the page's import box opens links and probe reports itself; a CLI scenario argument
// opens share links (decoded) but not probe reports (they go with --probe).
enum class ImportUse { kPage, kScenarioArgument };

// A message as a code: `key` in assets/i18n/<lang>.json with {0}, {1}, ... filled from `args`. Empty key: the
// text loads (link, scenario, preset; probe on the page).
// What an import got and what to do, as a message (rendered in the reader's language).
using ImportMessage = Message;

ImportMessage ImportRefusal(const ImportGuess& guess, ImportUse use = ImportUse::kPage);
// The message in `lang`: what the text is and what to do ("This is a result document (gpucost eval), not a
// scenario: it holds results, not inputs. Open the link it came from, or import the scenario file.").
std::string ImportRefusalText(const ImportMessage& message, Lang lang);

}  // namespace gpucost
