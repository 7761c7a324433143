// presets.h — ready-made scenarios (assets/presets/*.json, embedded at build time; the page fetches them as one
// file, presets.json, after its first frame), each citing the published run or study it reproduces. A preset file is
//   {"preset": {"id", "title", "source", "notes"}, "scenario": {...gpucost/scenario@1 document...}}.
// The page shows them, the CLI lists them; tests check that each reproduces its cited headline figure.
#pragma once
#include <string>
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

struct PresetInfo {
  std::string id;      // "llama2-70b-a100" (also the file name without .json)
  std::string title;   // one line for menus
  std::string source;  // where the figures come from (paper, section/table, URL)
  std::string notes;   // what is taken from the source, what is assumed
};

// Every embedded preset, sorted by id. Presets whose file cannot be read are left out (a test checks
// that none is).
std::vector<PresetInfo> Presets();

// Parses preset `id` into *scenario (over the defaults). Returns false with a message naming the preset
// and the JSON path when the id is unknown or the file is invalid; *scenario is then unchanged.
bool LoadPreset(const std::string& id, Scenario* scenario, std::string* error);

// Parses a scenario document, or a preset file ({"preset": {...}, "scenario": {...}}, assets/presets/),
// whose errors are then reported under "scenario.". What the CLI reads and the page's import accepts.
ScenarioParse ParseScenarioOrPreset(const std::string& text);

}  // namespace gpucost
