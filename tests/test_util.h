// test_util.h — helpers shared by the core tests.
#pragma once
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "json_io.h"
#include "scenario.h"

namespace gpucost::test {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string DataPath(const std::string& name) { return std::string(GPUCOST_TEST_DATA_DIR) + "/" + name; }
inline std::string AssetPath(const std::string& name) { return std::string(GPUCOST_ASSETS_DIR) + "/" + name; }

// Parses scenario JSON, failing the test with every error if invalid.
inline Scenario MustParse(const std::string& text) {
  ScenarioParse p = ParseScenarioJson(text);
  if (!p.ok()) {
    std::string all;
    for (const InputError& e : p.errors) all += e.Text() + "\n";
    throw std::runtime_error("invalid scenario:\n" + all);
  }
  return p.scenario;
}

}  // namespace gpucost::test
