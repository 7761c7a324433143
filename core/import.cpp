// import.cpp — what a handed-over text is (see import.h).
#include "import.h"

#include <nlohmann/json.hpp>

#include "json_io.h"
#include "probe.h"

namespace gpucost {
namespace {

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

// Two or more lines with the same number (> 0) of commas, not starting with '{' or '[': CSV.
bool LooksCsv(const std::string& t) {
  std::size_t lines = 0, commas = std::string::npos, start = 0;
  while (start < t.size() && lines < 5) {
    std::size_t end = t.find('\n', start);
    if (end == std::string::npos) end = t.size();
    std::size_t n = 0;
    for (std::size_t i = start; i < end; ++i) n += t[i] == ',';
    if (end > start + 1) {
      if (n == 0 || (commas != std::string::npos && n != commas)) return false;
      commas = n;
      ++lines;
    }
    start = end + 1;
  }
  return lines >= 2;
}

const struct {
  const char* schema;
  const char* description;
} kDocuments[] = {
    {"gpucost/result@1", "a result document"},
    {"gpucost/compare@1", "a comparison document (gpucost compare)"},
    {"gpucost/pricing@1", "a pricing comparison document (gpucost pricing)"},
    {"gpucost/sweep@1", "a sweep document (gpucost sweep)"},
    {"gpucost/sweep-gpus@1", "a GPU-count sweep document (gpucost sweep --gpus)"},
    {"gpucost/fleet@1", "a fleet plan (gpucost fleet)"},
    {"gpucost/fleet-result@1", "a fleet result document"},
    {"gpucost/offers@1", "the offers catalog"},
};

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
          g.description = d.description;
          return g;
        }
    }
    return g.kind = ImportKind::kScenario, g;
  }
  const std::string t = text.substr(first);
  if (t.find("#s=") != std::string::npos || t.rfind("s=", 0) == 0 || (t.size() > 2 && t.compare(0, 2, "1.") == 0 &&
                                                                       t.find_first_of(" \n") == std::string::npos))
    return g.kind = ImportKind::kLink, g;
  if (LooksCsv(t)) return g.kind = ImportKind::kCsv, g;
  return g;
}

std::string ImportRefusal(const ImportGuess& g) {
  switch (g.kind) {
    case ImportKind::kEmpty: return "empty file";
    case ImportKind::kBinary: return "not JSON (binary): expected a scenario, preset, probe report or share link";
    case ImportKind::kCsv: return "a CSV file, not a scenario: open a scenario JSON, preset, probe report or share link";
    case ImportKind::kDocument:
      return "this is " + g.description + " (" + g.schema + "), not a scenario: it holds results, not inputs";
    case ImportKind::kJsonOther: return "JSON, but not a scenario (a scenario is an object: {\"cluster\": ...})";
    case ImportKind::kText:
      return "neither a scenario (JSON) nor a share link (a link holds #s=1.): was the text cut or is it something else?";
    case ImportKind::kLink:
    case ImportKind::kScenario:
    case ImportKind::kPreset:
    case ImportKind::kProbe: return "";
  }
  return "";
}

}  // namespace gpucost
