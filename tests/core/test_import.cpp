// What a handed-over text is (core/import.h), and that share links carry their length (core/link.h).
#include <doctest/doctest.h>

#include "import.h"
#include "link.h"

using namespace gpucost;

TEST_CASE("import: each kind of text is recognised") {
  CHECK(ClassifyImport("").kind == ImportKind::kEmpty);
  CHECK(ClassifyImport(std::string("PK\3\4\0\0", 6)).kind == ImportKind::kBinary);
  CHECK(ClassifyImport("\xff\xfe{").kind == ImportKind::kBinary);
  CHECK(ClassifyImport("a,b\n1,2\n").kind == ImportKind::kCsv);
  CHECK(ClassifyImport("https://x.org/gpucost/#s=1.12.eyJzIjp7fX0").kind == ImportKind::kLink);
  CHECK(ClassifyImport("  #s=1.eyJzIjp7fX0\n").kind == ImportKind::kLink);
  CHECK(ClassifyImport(R"({"cluster": {"gpus": 8}})").kind == ImportKind::kScenario);
  CHECK(ClassifyImport(R"({"cluster": )").kind == ImportKind::kScenario);  // broken JSON: the parser says where
  CHECK(ClassifyImport(R"({"preset": {}, "scenario": {}})").kind == ImportKind::kPreset);
  CHECK(ClassifyImport(R"({"schema": "gpucost/probe@1"})").kind == ImportKind::kProbe);
  const ImportGuess result = ClassifyImport(R"({"schema": "gpucost/result@1", "cost": {}})");
  CHECK(result.kind == ImportKind::kDocument);
  CHECK(ImportRefusal(result) == "this is a result document (gpucost/result@1), not a scenario: it holds results, not inputs");
  CHECK(ClassifyImport(R"({"schema": "gpucost/compare@1"})").description.find("comparison") != std::string::npos);
  CHECK(ClassifyImport("Hello, this is prose.").kind == ImportKind::kText);
  CHECK(ImportRefusal(ClassifyImport("")) == "empty file");
  CHECK(ImportRefusal(ClassifyImport(R"({"cluster": {}})")) == "");
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
