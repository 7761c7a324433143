#include "job/validate.h"
#include "documents/presets.h"

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "base/assets.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {

using nlohmann::json;

constexpr const char* kPresetDir = "presets/";

// The preset file's id: "presets/<id>.json" -> "<id>" ("" for other assets).
std::string IdOfPath(const char* path) {
  const std::size_t dir = std::strlen(kPresetDir);
  if (std::strncmp(path, kPresetDir, dir) != 0) return "";
  std::string rest = path + dir;
  const std::string ext = ".json";
  if (rest.size() <= ext.size() || rest.compare(rest.size() - ext.size(), ext.size(), ext) != 0) return "";
  return rest.substr(0, rest.size() - ext.size());
}

// Parses the preset document; returns "" or what is wrong (with the JSON path).
std::string ReadPreset(const EmbeddedAsset& a, PresetInfo* info, json* scenario) {
  const json doc = json::parse(a.data, a.data + a.size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return "not a JSON object";
  const auto preset = doc.find("preset");
  if (preset == doc.end() || !preset->is_object()) return "preset: expected an object";
  for (const char* key : {"id", "title", "source", "notes"}) {
    const auto v = preset->find(key);
    if (v == preset->end() || !v->is_string() || v->get_ref<const std::string&>().empty())
      return std::string("preset.") + key + ": expected a non-empty string";
  }
  info->id = (*preset)["id"].get<std::string>();
  info->title = (*preset)["title"].get<std::string>();
  info->source = (*preset)["source"].get<std::string>();
  info->notes = (*preset)["notes"].get<std::string>();
  if (info->id != IdOfPath(a.path)) return "preset.id: must equal the file name (" + IdOfPath(a.path) + ")";
  const auto s = doc.find("scenario");
  if (s == doc.end() || !s->is_object()) return "scenario: expected an object";
  if (scenario) *scenario = *s;
  return "";
}

// The page fetches the presets as one file instead of embedding them (docs/bundle-size.md): {"presets/<id>.json":
// {...the preset file...}, ...}, written at build time (scripts/page_assets.py).
constexpr const char* kPresetBundle = "presets.json";

// The preset files: presets/<id>.json of the program's tables (every program but the page links them:
// cmake/Assets.cmake), else those of the bundle, read once through LoadAsset (the page: fetched after its first
// frame, read at once when the menu or a load needs it first) and installed under their own paths.
std::vector<const EmbeddedAsset*> PresetAssets() {
  std::vector<const EmbeddedAsset*> out;
  for (const EmbeddedAsset* table : {kEmbeddedAssets, kFetchedAssets})
    for (const EmbeddedAsset* a = table; a && a->path; ++a)
      if (!IdOfPath(a->path).empty()) out.push_back(a);
  if (!out.empty()) return out;
  static std::vector<std::string> bundled;  // the bundle's paths, once it has been read
  if (bundled.empty()) {
    if (const EmbeddedAsset* bundle = LoadAsset(kPresetBundle)) {
      const json doc = json::parse(bundle->data, bundle->data + bundle->size, nullptr, /*allow_exceptions=*/false);
      if (doc.is_object())
        for (auto it = doc.begin(); it != doc.end(); ++it)
          if (!IdOfPath(it.key().c_str()).empty() && InstallAsset(it.key().c_str(), it.value().dump()))
            bundled.push_back(it.key());
    }
  }
  for (const std::string& path : bundled)
    if (const EmbeddedAsset* a = FindAsset(path.c_str())) out.push_back(a);
  return out;
}

}  // namespace

std::vector<PresetInfo> Presets() {
  std::vector<PresetInfo> out;
  for (const EmbeddedAsset* a : PresetAssets()) {
    PresetInfo info;
    if (ReadPreset(*a, &info, nullptr).empty()) out.push_back(info);
  }
  std::sort(out.begin(), out.end(), [](const PresetInfo& x, const PresetInfo& y) { return x.id < y.id; });
  return out;
}

bool LoadPreset(const std::string& id, Scenario* scenario, std::string* error) {
  const std::string path = kPresetDir + id + ".json";
  PresetAssets();  // (the page: the bundle read and installed)
  const EmbeddedAsset* a = FindAsset(path.c_str());
  std::string problem;
  if (!a) {
    problem = "unknown preset \"" + id + "\"; one of:";
    for (const PresetInfo& p : Presets()) problem += " " + p.id;
  } else {
    PresetInfo info;
    json doc;
    problem = ReadPreset(*a, &info, &doc);
    if (problem.empty()) {
      const ScenarioParse parsed = ParseScenarioJson(doc.dump());
      if (parsed.ok()) {
        *scenario = parsed.scenario;
        return true;
      }
      const InputError& e = parsed.errors.front();
      problem = e.path.empty() ? "scenario: " + e.message : "scenario." + e.Text();
    }
    problem = "preset " + id + ": " + problem;
  }
  if (error) *error = problem;
  return false;
}

ScenarioParse ParseScenarioOrPreset(const std::string& text) {
  if (text.size() <= kMaxJsonBytes && CheckJsonDepth(text).empty()) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_object() && doc.contains("preset")) {
      ScenarioParse out;
      out.scenario = DefaultScenario();
      for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "preset" && it.key() != "scenario")
          out.errors.push_back(CodedError(it.key(), {"msg.preset_unknown_key", {}}));
      if (!doc.contains("scenario") || !doc["scenario"].is_object())
        out.errors.push_back(CodedError("scenario", {"msg.preset_scenario", {}}));
      if (!out.errors.empty()) return out;
      ScenarioParse inner = ParseScenarioJson(doc["scenario"].dump());
      for (InputError& e : inner.errors) e.path = e.path.empty() ? "scenario" : "scenario." + e.path;
      return inner;
    }
  }
  return ParseScenarioJson(text);
}

}  // namespace gpucost
