// gpucost — the command-line tool over the same core as the page.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli.h"
#include "base/i18n.h"
#include "verbs.h"
#include "version.h"

namespace gpucost::cli {
namespace {

const Verb kVerbs[] = {
    {"eval", "cli.verb.eval", RunEval},
    {"plan", "cli.verb.plan", RunPlan},
    {"mc", "cli.verb.mc", RunMc},
    {"sensitivity", "cli.verb.sensitivity", RunSensitivity},
    {"compare", "cli.verb.compare", RunCompare},
    {"sweep", "cli.verb.sweep", RunSweep},
    {"link", "cli.verb.link", RunLink},
    {"catalog", "cli.verb.catalog", RunCatalog},
    {"validate", "cli.verb.validate", RunValidate},
    {"pricing", "cli.verb.pricing", RunPricing},
    {"spares", "cli.verb.spares", RunSpares},
    {"fleet", "cli.verb.fleet", RunFleet},
    {"log", "cli.verb.log", RunLog},
    {"actual", "cli.verb.actual", RunActual},
    {"gui", "cli.verb.gui", RunGui},
    {"probe", "cli.verb.probe", RunProbe},
};

void PrintHelp(FILE* f) {  // text from the string tables (assets/i18n): cli.help.*, cli.verb.*
  std::fprintf(f, "gpucost %s — %s\n\n%s: %s\n\n%s:\n", GPUCOST_VERSION, gpucost::Tr("cli.help.tagline"),
               gpucost::Tr("cli.help.usage"), gpucost::Tr("cli.help.usage_line"), gpucost::Tr("cli.help.commands"));
  for (const Verb& v : kVerbs) std::fprintf(f, "  %-12s %s\n", v.name, gpucost::Tr(v.summary));
  std::fprintf(f, "\n%s\n", gpucost::Tr("cli.help.footer"));
  std::fprintf(f, "\n%s\n", gpucost::Tr("scope.not_modelled"));  // issue 50: what the model does not cover
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
  Error(gpucost::TrFormat("cli.unknown_command", {argv[1]}));
  return kExitInvalid;
}
