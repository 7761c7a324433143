// The comparison's CSV (issue 30): the page's "Export CSV" and `gpucost compare --format csv` write the same bytes
// for the same scenarios (the CLI is run as a program here, on files holding the pinned scenarios).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "app.h"
#include "scenario/json_io.h"

using namespace gpucost;
using namespace gpucost::app;

namespace {

std::string RunCli(const std::string& args) {
  std::string out;
  FILE* p = popen(("LC_ALL=C LANG=C \"" GPUCOST_CLI "\" " + args).c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace

TEST_CASE("the page's comparison CSV and gpucost compare --format csv are the same bytes") {
  AppState app;
  AppInit(app);
  SetLanguage(Lang::kEn);
  REQUIRE(AppLoadPreset(app, "llama2-70b-a100") == "");
  REQUIRE(AppPin(app));
  REQUIRE(AppLoadScenario(app, R"({"name": "7B on A100, KRW with VAT, \"quoted\"", "cluster": {"gpu": "a100-sxm-80gb", "gpus": 128},
                         "pricing": {"currency": "KRW", "krw_per_usd": 1380, "krw_per_usd_date": "2026-11-30",
                                     "tax_rate": 0.1, "offer": "aws-p4de.24xlarge-us-east-1"}})") == "");  // on-demand: the offer lists no reserved rate (issue 25 refuses one without a price)
  REQUIRE(AppPin(app));
  REQUIRE(AppLoadPreset(app, "llama3-405b-h100") == "");
  REQUIRE(AppPin(app));
  std::string files;
  for (std::size_t i = 0; i < app.pinned.size(); ++i) {
    const std::string path = "compare_csv_" + std::to_string(i) + ".json";
    std::ofstream(path) << ScenarioToJson(app.pinned[i].scenario, true);
    files += " " + path;
  }
  const std::string page = CompareCsv(app), cli = RunCli("compare" + files + " --format csv");
  CHECK(page.rfind("\xEF\xBB\xBF", 0) == 0);
  CHECK(page.find("\"7B on A100, KRW with VAT, \"\"quoted\"\"\"") != std::string::npos);
  CHECK(page.find("Llama-2-70B class") != std::string::npos);
  CHECK(page.size() > 500);
  if (cli != page) { std::ofstream("compare_csv_page.csv") << page; std::ofstream("compare_csv_cli.csv") << cli; }
  CHECK(cli == page);
  for (std::size_t i = 0; i < app.pinned.size(); ++i) std::remove(("compare_csv_" + std::to_string(i) + ".json").c_str());
}
