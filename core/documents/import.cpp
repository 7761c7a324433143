// import.cpp — what a handed-over text is (see import.h).
#include "documents/import.h"

#include "base/text_safety.h"

#include <nlohmann/json.hpp>

#include "scenario/json_io.h"
#include "hardware/probe.h"

namespace gpucost {

namespace {

// Two or more lines with the same number (> 0) of commas outside quotes, not starting with '{' or '[': CSV.
bool LooksCsv(const std::string& t) {
  std::size_t lines = 0, commas = std::string::npos, start = 0;
  while (start < t.size() && lines < 5) {
    std::size_t end = t.find('\n', start);
    if (end == std::string::npos) end = t.size();
    std::size_t n = 0;
    bool quoted = false;  // a comma inside "..." is part of a cell ("Alpaca-style 7B fine-tune, 8 A100-80GB")
    for (std::size_t i = start; i < end; ++i) {
      if (t[i] == '"') quoted = !quoted;
      n += t[i] == ',' && !quoted;
    }
    if (end > start + 1) {
      if (n == 0 || (commas != std::string::npos && n != commas)) return false;
      commas = n;
      ++lines;
    }
    start = end + 1;
  }
  return lines >= 2;
}

// Every document gpucost writes, by schema, with the key that names it (import.doc.*) and the key of what to do
// with it instead (import.do.*).
const struct {
  const char* schema;
  const char* doc_key;
} kDocuments[] = {
    {"gpucost/result@1", "import.doc.result"},
    {"gpucost/compare@1", "import.doc.compare"},
    {"gpucost/pricing@1", "import.doc.pricing"},
    {"gpucost/sweep@1", "import.doc.sweep"},
    {"gpucost/sweep-gpus@1", "import.doc.sweep_gpus"},
    {"gpucost/sensitivity@1", "import.doc.sensitivity"},
    {"gpucost/mc@1", "import.doc.mc"},
    {"gpucost/inference-sim@1", "import.doc.inference_sim"},
    {"gpucost/inference-plan@1", "import.doc.inference_plan"},
    {"gpucost/fleet@1", "import.doc.fleet"},
    {"gpucost/fleet-result@1", "import.doc.fleet_result"},
    {"gpucost/offers@1", "import.doc.offers"},
    {"gpucost/run@1", "import.doc.run"},
    {"gpucost/actual@1", "import.doc.actual"},
};

// A result document written without its schema line (or by hand): the result's own top-level keys.
bool LooksLikeResult(const nlohmann::json& doc) {
  return doc.contains("cost") && doc.contains("time") && doc.contains("gpu_hours") && !doc.contains("cluster");
}

}  // namespace

ImportGuess ClassifyImport(const std::string& text) {
  ImportGuess g;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return g.kind = ImportKind::kEmpty, g;
  if (!ValidUtf8(text)) return g.kind = ImportKind::kBinary, g;
  const char c = text[first];
  if (c == '{' || c == '[') {
    if (text.size() > kMaxJsonBytes || !CheckJsonDepth(text).empty()) return g.kind = ImportKind::kScenario, g;  // the parser says why
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) return g.kind = ImportKind::kScenario, g;  // broken JSON: the parser names the place
    if (!doc.is_object()) return g.kind = ImportKind::kJsonOther, g;
    if (doc.contains("preset")) return g.kind = ImportKind::kPreset, g;
    if (doc.contains("schema") && doc["schema"].is_string()) {
      g.schema = doc["schema"].get<std::string>();
      if (g.schema == kProbeSchema) return g.kind = ImportKind::kProbe, g;
      for (const auto& d : kDocuments)
        if (g.schema == d.schema) {
          g.kind = ImportKind::kDocument;
          g.doc_key = d.doc_key;
          return g;
        }
      if (g.schema.rfind("gpucost/", 0) == 0 && g.schema.rfind("gpucost/scenario@", 0) != 0) {  // a newer document
        g.kind = ImportKind::kDocument;
        g.doc_key = "import.doc.other";
        return g;
      }
    }
    if (LooksLikeResult(doc)) {
      g.kind = ImportKind::kDocument;
      g.doc_key = "import.doc.result";
      return g;
    }
    return g.kind = ImportKind::kScenario, g;
  }
  if (text.size() <= kMaxJsonBytes && !nlohmann::json::parse(text, nullptr, false).is_discarded())
    return g.kind = ImportKind::kJsonOther, g;  // null, 42, "text", true: JSON, but no object
  const std::string t = text.substr(first);
  if (t.find("#s=") != std::string::npos || t.rfind("s=", 0) == 0 || (t.size() > 2 && t.compare(0, 2, "1.") == 0 &&
                                                                       t.find_first_of(" \n") == std::string::npos))
    return g.kind = ImportKind::kLink, g;
  if (LooksCsv(t)) return g.kind = ImportKind::kCsv, g;
  return g;
}

ImportMessage ImportRefusal(const ImportGuess& g, ImportUse use) {
  switch (g.kind) {
    case ImportKind::kEmpty: return {"import.empty", {}};
    case ImportKind::kBinary: return {"import.binary", {}};
    case ImportKind::kCsv: return {"import.csv", {}};
    case ImportKind::kDocument: {  // the document's name and what to do with it are keys themselves
      const std::string todo = "import.do." + g.doc_key.substr(g.doc_key.rfind('.') + 1);
      return {"import.document", {MessageParam::Key(g.doc_key.c_str()), g.schema.empty() ? "gpucost/result@1" : g.schema,
                                  MessageParam::Key(todo.c_str())}};
    }
    case ImportKind::kJsonOther: return {"import.json_other", {}};
    case ImportKind::kText: return {"import.text", {}};
    case ImportKind::kProbe: return use == ImportUse::kPage ? ImportMessage{} : ImportMessage{"import.probe_argument", {}};
    case ImportKind::kLink:
    case ImportKind::kScenario:
    case ImportKind::kPreset: return {};
  }
  return {};
}

std::string ImportRefusalText(const ImportMessage& m, Lang lang) { return m.Text(lang); }

}  // namespace gpucost
