// What a handed-over text is (core/documents/import.h), and that share links carry their length (core/documents/link.h).
#include <doctest/doctest.h>

#include <cctype>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "documents/import.h"
#include "scenario/json_io.h"
#include "documents/presets.h"
#include "documents/result_json.h"
#include "documents/link.h"

using namespace gpucost;

TEST_CASE("import: each kind of text is recognised") {
  CHECK(ClassifyImport("").kind == ImportKind::kEmpty);
  CHECK(ClassifyImport(std::string("PK\3\4\0\0", 6)).kind == ImportKind::kBinary);
  CHECK(ClassifyImport("\xff\xfe{").kind == ImportKind::kBinary);
  CHECK(ClassifyImport("a,b\n1,2\n").kind == ImportKind::kCsv);
  CHECK(ClassifyImport("file,name,usd\nx,\"A, B\",1\ny,\"C\",2\n").kind == ImportKind::kCsv);  // quoted commas
  CHECK(ClassifyImport("https://x.org/gpucost/#s=1.12.eyJzIjp7fX0").kind == ImportKind::kLink);
  CHECK(ClassifyImport("  #s=1.eyJzIjp7fX0\n").kind == ImportKind::kLink);
  CHECK(ClassifyImport(R"({"cluster": {"gpus": 8}})").kind == ImportKind::kScenario);
  CHECK(ClassifyImport(R"({"cluster": )").kind == ImportKind::kScenario);  // broken JSON: the parser says where
  CHECK(ClassifyImport(R"({"preset": {}, "scenario": {}})").kind == ImportKind::kPreset);
  CHECK(ClassifyImport(R"({"schema": "gpucost/probe@1"})").kind == ImportKind::kProbe);
  const ImportGuess result = ClassifyImport(R"({"schema": "gpucost/result@1", "cost": {}})");
  CHECK(result.kind == ImportKind::kDocument);
  CHECK(ImportRefusalText(ImportRefusal(result), Lang::kEn) ==
        "this is a result document (gpucost/result@1), not a scenario: it holds results, not inputs. Open the link it "
        "came from, or import the scenario file.");
  CHECK(ClassifyImport(R"({"schema": "gpucost/compare@1"})").doc_key == "import.doc.compare");
  CHECK(ClassifyImport("Hello, this is prose.").kind == ImportKind::kText);
  CHECK(ImportRefusalText(ImportRefusal(ClassifyImport("")), Lang::kEn).rfind("an empty text", 0) == 0);
  CHECK(ImportRefusal(ClassifyImport(R"({"cluster": {}})")).empty());
}

TEST_CASE("import: real documents are named for what they are, every preset's scenario is a scenario") {
  for (const PresetInfo& info : Presets()) {
    CAPTURE(info.id);
    Scenario s;
    std::string error;
    REQUIRE(LoadPreset(info.id, &s, &error));
    CHECK(ClassifyImport(ScenarioToJson(s, false)).kind == ImportKind::kScenario);
    CHECK(ClassifyImport(ScenarioToJson(s, true)).kind == ImportKind::kScenario);
    const ImportGuess doc = ClassifyImport(ResultToJson(s, Evaluate(s)));
    CHECK(doc.kind == ImportKind::kDocument);
    CHECK(doc.doc_key == "import.doc.result");
  }
  // A result written without its schema line is still a result, not a scenario with 17 unknown keys.
  nlohmann::json r = nlohmann::json::parse(ResultToJson(DefaultScenario(), Evaluate(DefaultScenario())));
  r.erase("schema");
  CHECK(ClassifyImport(r.dump()).doc_key == "import.doc.result");
  // A document of a later version is a document, not a scenario.
  CHECK(ClassifyImport(R"({"schema": "gpucost/something@2"})").kind == ImportKind::kDocument);
}

TEST_CASE("import: on the page a probe report opens; as a CLI scenario argument it is pointed to --probe") {
  const ImportGuess probe = ClassifyImport(R"({"schema": "gpucost/probe@1"})");
  CHECK(ImportRefusal(probe, ImportUse::kPage).empty());
  CHECK(ImportRefusal(probe, ImportUse::kScenarioArgument).key == "import.probe_argument");
}

TEST_CASE("import: every refusal is a code with text in every language, Korean without English prose") {
  const std::vector<std::string> texts = {"", " \n", std::string("PK\3\4\0\0", 6), "a,b\n1,2\n", "[1, 2]", "Hello, prose.",
                                          R"({"schema": "gpucost/probe@1"})", R"({"schema": "gpucost/x@9"})"};
  std::vector<ImportMessage> messages;
  for (const std::string& t : texts) messages.push_back(ImportRefusal(ClassifyImport(t), ImportUse::kScenarioArgument));
  for (const char* schema : {"result", "compare", "pricing", "sweep", "sweep-gpus", "sensitivity", "mc", "inference-sim",
                             "inference-plan", "fleet", "fleet-result", "offers"})
    messages.push_back(ImportRefusal(ClassifyImport(std::string(R"({"schema": "gpucost/)") + schema + R"(@1"})")));
  for (const ImportMessage& m : messages) {
    REQUIRE_FALSE(m.empty());
    CAPTURE(m.key);
    const std::string en = ImportRefusalText(m, Lang::kEn), ko = ImportRefusalText(m, Lang::kKo);
    CHECK(en.find("import.") == std::string::npos);  // no key shown as text
    CHECK(ko.find("import.") == std::string::npos);
    CHECK(en != ko);
    // Korean: outside identifiers (gpucost/..., --probe, FILE, JSON, CSV, field paths), no English word.
    std::string words;
    for (std::size_t i = 0; i < ko.size();) {
      std::size_t j = i;
      while (j < ko.size() && std::isalpha(static_cast<unsigned char>(ko[j]))) ++j;
      if (j > i) {
        const std::string w = ko.substr(i, j - i);
        const bool identifier = (i > 0 && (ko[i - 1] == '/' || ko[i - 1] == '"' || ko[i - 1] == '-' || ko[i - 1] == '.' || ko[i - 1] == '_')) ||
                                (j < ko.size() && (ko[j] == '/' || ko[j] == '.' || ko[j] == '_' || ko[j] == '@' || ko[j] == '-')) ||
                                w == "JSON" || w == "CSV" || w == "FILE" || w == "GPU" || w == "gpucost" || w == "fleet" || w == "s";
        if (!identifier && w.size() > 1) words += w + " ";
        i = j;
      } else {
        ++i;
      }
    }
    CHECK_MESSAGE(words.empty(), ko);
  }
  // A scenario with errors: how many, the first (core's text, localised), and that the current one is kept.
  const ImportMessage errors{"import.scenario_errors", {"2", "cluster.gpus: unknown key: not a scenario field"}};
  CHECK(ImportRefusalText(errors, Lang::kEn) ==
        "a scenario with 2 problems, the first: cluster.gpus: unknown key: not a scenario field. Correct it and load "
        "it again; the current scenario is kept");
  CHECK(ImportRefusalText(errors, Lang::kKo).rfind("문제가 2개 있는 시나리오입니다", 0) == 0);
}

TEST_CASE("link: carries its length; a cut link says how much arrived; old links still open") {
  LinkPayload p{DefaultScenario(), {}};
  p.scenario.cluster.gpus = 128;
  const std::string link = EncodeLink(p, "https://x.org/");
  const std::size_t dot = link.rfind('.');
  const std::string data = link.substr(dot + 1);
  CHECK(link == "https://x.org/#s=2." + std::to_string(data.size()) + "." + data);
  LinkPayload back;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(link, &back, &errors));
  CHECK(back.scenario.cluster.gpus == 128);
  // Cut: N of M characters.
  errors.clear();
  CHECK_FALSE(DecodeLink(link.substr(0, link.size() - 5), &back, &errors));
  CHECK(LinkErrorText(errors) == "incomplete link: " + std::to_string(data.size() - 5) + " of " +
                                     std::to_string(data.size()) + " characters (was it cut when copied?)");
  // The form without the length (links shared before it was added) opens as before.
  errors.clear();
  REQUIRE(DecodeLink("#s=2." + data, &back, &errors));
  CHECK(back.scenario.cluster.gpus == 128);
  // Never "link: link:".
  errors.clear();
  CHECK_FALSE(DecodeLink("garbage", &back, &errors));
  CHECK(LinkErrorText(errors) == "not a gpucost link (expected #s=2.<data>)");
}
