// Share links in the compact form (version 2, core/scenario/link_binary.h): short enough for chat tools and e-mail
// (issue 30: 4 pinned scenarios <= 1,000 characters, 8 <= 1,800, where the JSON form took 4,165 and 7,460), exact
// round trips, a checksum that catches a changed character, and every link of the older form still opening.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

#include "job/validate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "scenario/link_binary.h"
#include "documents/presets.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

Scenario Preset(const std::string& id) {
  Scenario s = DefaultScenario();
  std::string error;
  REQUIRE_MESSAGE(LoadPreset(id, &s, &error), error);
  return s;
}

std::vector<Scenario> AllPresets() {
  std::vector<Scenario> out;
  for (const PresetInfo& p : Presets()) out.push_back(Preset(p.id));
  return out;
}

void CheckRoundTrip(const LinkPayload& in, const std::string& link) {
  LinkPayload out;
  std::vector<InputError> errors;
  REQUIRE_MESSAGE(DecodeLink(link, &out, &errors), LinkErrorText(errors));
  CHECK(out.version == 2);
  // Every field, as a file would hold it (text compared up to its end, numbers to the last bit).
  CHECK(ScenarioToJson(out.scenario, false) == ScenarioToJson(in.scenario, false));
  REQUIRE(out.pinned.size() == in.pinned.size());
  for (std::size_t i = 0; i < in.pinned.size(); ++i) CHECK(ScenarioToJson(out.pinned[i], false) == ScenarioToJson(in.pinned[i], false));
}

// What a user pins: the presets in turn (the first again once all are used), each under its own name.
LinkPayload Pinned(std::size_t n) {
  const std::vector<Scenario> presets = AllPresets();
  LinkPayload p;
  p.scenario = presets[0];
  for (std::size_t i = 0; i < n; ++i) {
    Scenario s = presets[i % presets.size()];
    if (i >= presets.size()) {  // the same job again on other terms: spot, a KRW quote with VAT
      s.pricing.model = static_cast<int>(PricingModel::kSpot);
      const std::string name = std::string(presets[i % presets.size()].name) + ", spot";
      std::snprintf(s.name, sizeof s.name, "%s", name.c_str());  // cut at the field's capacity, as a typed name is
    }
    p.pinned.push_back(s);
  }
  return p;
}

}  // namespace

TEST_CASE("link lengths: every preset, and 1, 4 and 8 pinned, within the limits (issue 30)") {
  for (const PresetInfo& info : Presets()) {
    LinkPayload p{Preset(info.id), {}};
    const std::string link = EncodeLink(p);
    MESSAGE(info.id << ": " << link.size() << " characters");
    CHECK(link.rfind("#s=2.", 0) == 0);
    CHECK(link.size() <= 250);
    CheckRoundTrip(p, link);
  }
  for (std::size_t n : {1, 4, 8}) {
    const LinkPayload p = Pinned(n);
    const std::string link = EncodeLink(p, "https://example.org/gpucost/");
    MESSAGE(n << " pinned (distinct presets): " << link.size() << " characters");
    CHECK(link.size() <= (n <= 4 ? 1000u : 1800u));
    CheckRoundTrip(p, link);
  }
  // The usual comparison: one job under four pricing models and at other GPU counts: each column costs little
  // more than what differs from the first.
  LinkPayload same{Preset("llama3-405b-h100"), {}};
  for (int i = 0; i < 8; ++i) {
    Scenario s = same.scenario;
    s.pricing.model = i % 4;
    s.cluster.gpus = 8192 << (i / 4);
    std::snprintf(s.name, sizeof s.name, "405B option %d", i + 1);
    same.pinned.push_back(s);
  }
  const std::string link = EncodeLink(same);
  MESSAGE("8 pinned variations of one job: " << link.size() << " characters");
  CHECK(link.size() <= 400);
  CheckRoundTrip(same, link);
}

TEST_CASE("link: every scenario field can travel in the compact form, once each") {
  std::vector<std::string> listed;
  for (std::size_t i = 0; i < LinkFieldPathCount(); ++i) listed.push_back(LinkFieldPaths()[i]);
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    CAPTURE(Fields()[i].path);
    CHECK(std::count(listed.begin(), listed.end(), Fields()[i].path) == 1);
  }
}

TEST_CASE("link: random scenarios (every field at a random allowed value) round-trip exactly") {
  std::mt19937_64 rng(30);
  const std::vector<Scenario> presets = AllPresets();
  for (int trial = 0; trial < 60; ++trial) {
    LinkPayload p;
    p.scenario = presets[trial % presets.size()];
    const std::size_t pinned = static_cast<std::size_t>(trial % 9);
    for (std::size_t k = 0; k <= pinned; ++k) {
      Scenario s = k == 0 ? p.scenario : p.pinned.empty() ? p.scenario : p.pinned.back();
      for (int change = 0; change < 6; ++change) {  // a few fields changed to a random value in range
        const FieldSpec& f = Fields()[rng() % FieldCount()];
        if (f.kind == FieldKind::kText) continue;
        if (f.kind == FieldKind::kEnum) {
          int n = 0;
          while (f.choices[n]) ++n;
          SetNumber(s, f, static_cast<double>(rng() % n));
        } else if (f.kind == FieldKind::kBool) {
          SetNumber(s, f, static_cast<double>(rng() % 2));
        } else {
          const double lo = f.min, hi = std::min(f.max, f.min + 1e6);
          double v = lo + (hi - lo) * std::uniform_real_distribution<double>(0.01, 1)(rng);
          if (f.kind == FieldKind::kInteger) v = std::floor(v);
          SetNumber(s, f, v);
        }
      }
      if (!ValidateScenario(s).empty()) continue;  // only scenarios a file could hold
      std::snprintf(s.name, sizeof s.name, "trial %d column %zu — 한국어", trial, k);
      if (k == 0) p.scenario = s; else p.pinned.push_back(s);
    }
    CAPTURE(trial);
    CheckRoundTrip(p, EncodeLink(p));
  }
}

TEST_CASE("link: a changed or lost character is caught by the checksum, never opened as another scenario") {
  const LinkPayload p = Pinned(4);
  const std::string link = EncodeLink(p);
  const std::string head = link.substr(0, link.rfind('.') + 1), data = link.substr(head.size());
  const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  int tried = 0, caught = 0;
  for (std::size_t i = 0; i < data.size(); ++i)
    for (int a = 0; a < 64; a += 7) {
      std::string bad = data;
      if (bad[i] == alphabet[a]) continue;
      bad[i] = alphabet[a];
      LinkPayload out;
      std::vector<InputError> errors;
      ++tried;
      if (!DecodeLink(head + bad, &out, &errors)) ++caught;
    }
  CHECK(caught == tried);
  // Two neighbouring characters swapped (a typing slip).
  for (std::size_t i = 0; i + 1 < data.size(); ++i) {
    if (data[i] == data[i + 1]) continue;
    std::string bad = data;
    std::swap(bad[i], bad[i + 1]);
    LinkPayload out;
    std::vector<InputError> errors;
    CHECK_FALSE(DecodeLink(head + bad, &out, &errors));
  }
  LinkPayload out;
  std::vector<InputError> errors;
  CHECK_FALSE(DecodeLink(head + data.substr(0, data.size() - 3), &out, &errors));
  CHECK(errors.front().message.find("incomplete link") == 0);
  errors.clear();
  std::string changed = data;
  changed[data.size() / 2] = changed[data.size() / 2] == 'A' ? 'B' : 'A';
  CHECK_FALSE(DecodeLink(head + changed, &out, &errors));
  CHECK(errors.front().message.find("checksum") != std::string::npos);
}

TEST_CASE("link: every saved link of the older JSON form still opens to the same scenarios, marked as older") {
  const nlohmann::json saved = nlohmann::json::parse(test::ReadFile(test::DataPath("links_v1.json")));
  REQUIRE(saved["links"].size() >= 9);
  for (const auto& entry : saved["links"]) {
    CAPTURE(entry["what"].get<std::string>());
    LinkPayload out;
    std::vector<InputError> errors;
    REQUIRE(DecodeLink(entry["link"].get<std::string>(), &out, &errors));
    CHECK(out.version == 1);
    const auto& expected = entry["scenarios"];
    REQUIRE(expected.size() == out.pinned.size() + 1);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const Scenario& s = i == 0 ? out.scenario : out.pinned[i - 1];
      CHECK(nlohmann::json::parse(ScenarioToJson(s, true)) == expected[i]);
    }
    // ... and shares again in the compact form, shorter, to the same scenarios.
    const std::string again = EncodeLink(out);
    CHECK(again.size() < entry["link"].get<std::string>().size());
    CheckRoundTrip(out, again);
  }
}

TEST_CASE("link: a load profile, an empty autoscale and a named model's shape field set back to its default travel (issue 28)") {
  // Hand-made cases, each read back as a file would read the same JSON.
  const char* files[] = {
      R"({"workload": {"kind": "inference", "model": "llama-3.1-70b"}, "inference": {"load_profile": "business-day"}})",
      R"({"workload": {"kind": "inference", "model": "llama-3.1-70b"}, "inference": {"load_profile": [1,1,1,1,1,1,1,2,3,3,3,3,3,3,3,3,3,2,1,1,1,1,1,0.5], "autoscale": {}}})",
      R"({"workload": {"kind": "inference", "model": "llama-3.1-70b"}, "inference": {"load_profile": "flat", "autoscale": {"min_replicas": 2}}})",
      // ffn_gated false on a model whose shape says true: omitted, the model would fill it back in.
      R"({"workload": {"model": "llama-3.1-70b", "ffn_gated": false}})",
  };
  for (const char* text : files) {
    CAPTURE(text);
    const ScenarioParse parsed = ParseScenarioJson(text);
    REQUIRE(parsed.errors.empty());
    LinkPayload p;
    p.scenario = parsed.scenario;
    p.pinned.push_back(DefaultScenario());  // a column against the defaults, and the first against it
    p.pinned.push_back(parsed.scenario);
    p.pinned.back().inference.load_profile = InferenceLoadProfileInputs{};
    p.pinned.back().inference.autoscale_given = false;  // and the autoscaling taken away with it
    p.pinned.back().inference.autoscale = InferenceAutoscaleInputs{};
    CheckRoundTrip(p, EncodeLink(p));
  }
}
