// Issue 31 on the page's side (web/app.h), without drawing: the comparison's CSV (with the provider sheet)
// writes names and answers as text, never as spreadsheet formulas; a link inside an address holding "s="
// opens; a 2 MB link or scenario is refused by its size, cleanly.
#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "app.h"
#include "documents/link.h"

using namespace gpucost;
using namespace gpucost::app;

TEST_CASE("page CSV: a pinned name and a provider answer that start with = + - @ are written as text") {
  AppState app;
  AppInit(app);
  std::snprintf(app.scenario.name, kTextCapacity, "%s", "=HYPERLINK(\"http://evil\",\"x\")");
  std::snprintf(app.scenario.provider.provider, kSheetTextCapacity, "%s", "+cmd|' /C calc'!A0");
  REQUIRE(AppPin(app));
  std::snprintf(app.scenario.name, kTextCapacity, "%s", "@SUM(A1)");
  std::snprintf(app.scenario.provider.provider, kSheetTextCapacity, "%s", "-2+3");
  REQUIRE(AppPin(app));
  const std::string csv = CompareCsv(app);
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  CHECK(header == "\xEF\xBB\xBFkey,item,unit,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",'@SUM(A1)\r");  // core/documents/compare_csv.h
  CHECK(csv.find(",'+cmd|' /C calc'!A0,'-2+3") != std::string::npos);
  // No cell of the file starts a formula: every line's cells checked.
  std::string line;
  std::istringstream all(csv);
  while (std::getline(all, line)) {
    CAPTURE(line);
    CHECK(line.find(",=") == std::string::npos);
    CHECK(line.find(",+") == std::string::npos);
    CHECK(line.find(",@") == std::string::npos);
  }
}

TEST_CASE("page links: an address holding s= in its path or query; a 2 MB link refused by its size") {
  AppState app;
  AppInit(app);
  Scenario s = app.scenario;
  s.cluster.gpus = 512;
  const std::string link = EncodeLink({s, {}}, "https://example.org/as=1/?s=2");
  CHECK(AppOpenLink(app, link) == "");
  CHECK(app.scenario.cluster.gpus == 512);
  const std::string huge = "https://example.org/#s=1." + std::string(2 << 20, 'A');
  CHECK(AppOpenLink(app, huge).find("64 KiB") != std::string::npos);
  CHECK(app.scenario.cluster.gpus == 512);  // unchanged
  CHECK(AppLoadScenario(app, "{\"name\": \"" + std::string(2 << 20, 'x') + "\"}").find("1 MiB") != std::string::npos);
}
