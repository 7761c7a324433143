// gpucost — the command-line tool over the same core as the page.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli.h"
#include "i18n.h"
#include "verbs.h"
#include "version.h"

namespace gpucost::cli {
namespace {

const Verb kVerbs[] = {
    {"eval", "expected time and cost per completed job, with where the money goes", RunEval},
    {"plan", "search parallel layouts: the fastest or cheapest that fit, with step-time breakdowns", RunPlan},
    {"mc", "Monte Carlo of the job timeline: mean, P10/P50/P90 time and cost, histograms", RunMc},
    {"sensitivity", "which inputs move the cost per completed job the most (a tornado)", RunSensitivity},
    {"compare", "several scenarios side by side: cheapest and fastest marked, ratios to the first", RunCompare},
    {"sweep", "one field over a list or range of values (e.g. cluster.gpus), best points marked", RunSweep},
    {"link", "encode a scenario as a share link for the page; --decode a link back to JSON", RunLink},
    {"catalog", "the GPU catalog and every scenario field, with sources", RunCatalog},
    {"validate", "every problem in a scenario, one per line (exit 2 if any)", RunValidate},
    {"pricing", "the same job on-demand, spot, reserved and owned, side by side, with capacity risk", RunPricing},
    {"spares", "hot spares as a pool: cost and goodput against the spare count, the cheapest, a managed buffer", RunSpares},
    {"fleet", "commitment planner over a monthly demand profile: 1-/3-year, spot, on-demand, owned", RunFleet},
    {"gui", "open the calculator in a desktop window (gpucost-gui; the web page's UI)", RunGui},
    {"probe", "measure this machine (GEMM, HBM, links, storage) into a report eval --probe applies", RunProbe},
};

void PrintHelp(FILE* f) {
  std::fprintf(f,
               "gpucost %s — what a completed GPU training job really costs\n\n"
               "usage: gpucost <command> [options]   (gpucost <command> --help for details)\n\ncommands:\n",
               GPUCOST_VERSION);
  for (const Verb& v : kVerbs) std::fprintf(f, "  %-12s %s\n", v.name, v.summary);
  std::fprintf(f,
               "\nScenario files are JSON (schema gpucost/scenario@1); '-' reads standard input.\n"
               "Exit codes: 0 success, 1 I/O or other failure, 2 invalid input, 3 no GPU (probe).\n");
}

// The language of human output: --lang X (anywhere on the line, removed from argv), else the environment
// (LC_ALL, LC_MESSAGES, LANG). JSON and CSV keys stay English either way. False after an error message.
bool TakeLanguage(int* argc, char** argv) {
  using gpucost::Lang;
  gpucost::SetLanguage(gpucost::LanguageFromEnvironment(std::getenv("LC_ALL"), std::getenv("LC_MESSAGES"), std::getenv("LANG")));
  int out = 0;
  for (int i = 0; i < *argc; ++i) {
    const char* a = argv[i];
    const bool joined = std::strncmp(a, "--lang=", 7) == 0;
    if (!joined && std::strcmp(a, "--lang") != 0) {
      argv[out++] = argv[i];
      continue;
    }
    const char* value = joined ? a + 7 : (i + 1 < *argc ? argv[++i] : "");
    Lang lang = Lang::kEn;
    if (!gpucost::ParseLanguage(value, &lang)) {
      Error(gpucost::TrFormat("cli.lang_unknown", {value}));
      return false;
    }
    gpucost::SetLanguage(lang);
  }
  *argc = out;
  return true;
}

}  // namespace
}  // namespace gpucost::cli

int main(int argc, char** argv) {
  using namespace gpucost::cli;
  if (!TakeLanguage(&argc, argv)) return kExitInvalid;
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    PrintHelp(stdout);
    return argc < 2 ? kExitInvalid : kExitOk;
  }
  if (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "version") == 0) {
    std::printf("gpucost %s\n", GPUCOST_VERSION);
    return kExitOk;
  }
  for (const Verb& v : kVerbs)
    if (std::strcmp(argv[1], v.name) == 0) {
      try {
        return v.run(argc - 2, argv + 2);
      } catch (const std::exception& e) {
        Error(std::string(v.name) + ": internal error: " + e.what());
        return kExitFailure;
      }
    }
  Error(std::string("unknown command \"") + argv[1] + "\" (see gpucost --help)");
  return kExitInvalid;
}
