// gpucost link FILE|- [PINNED...] [--base URL]        a share link for a scenario (and pinned comparisons)
// gpucost link --decode LINK|- [--pinned I] [--full]   the scenario JSON a link holds
//
// The link carries only the fields that differ from the defaults (core/documents/link.h), decoded through the same
// parser and validation as a scenario file. Round trip: `link --decode` prints the compact scenario JSON,
// and `link` of that JSON gives the same link again.
#include <cstdio>

#include "cli.h"
#include "base/i18n.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "verbs.h"

namespace gpucost::cli {
namespace {

const std::vector<OptionSpec> kLinkOptions = {
    {"--base", true, "cli.opt.link.base"},
    {"--decode", true, "cli.opt.link.decode"},
    {"--pinned", true, "cli.opt.link.pinned"},
    {"--full", false, "cli.opt.link.full"},
};

const char kUsage[] = "gpucost link FILE|- [PINNED...] [--base URL]\n"
                      "       gpucost link --decode LINK|- [--pinned I] [--full]";

int Encode(const Args& args) {
  if (args.positional.empty()) {
    Error(Tr("cli.err.link_one"));
    return kExitInvalid;
  }
  if (args.positional.size() > 1 + kMaxPinned) {
    Error(TrFormat("cli.err.link_pinned_max", {std::to_string(kMaxPinned)}));
    return kExitInvalid;
  }
  if (!StdinAtMostOnce(args.positional, "link")) return kExitInvalid;
  const std::string base = args.Get("--base");
  if (base.find_first_of(" \t\r\n\"<>") != std::string::npos) {
    Error(Tr("cli.err.link_base_chars"));
    return kExitInvalid;
  }
  LinkPayload payload;
  for (std::size_t i = 0; i < args.positional.size(); ++i) {
    Scenario s;
    if (int rc = LoadScenario(args.positional[i], &s)) return rc;
    if (i == 0) payload.scenario = s;
    else payload.pinned.push_back(s);
  }
  std::printf("%s\n", EncodeLink(payload, base).c_str());
  return kExitOk;
}

int Decode(const Args& args) {
  if (!args.positional.empty()) {
    Error(Tr("cli.err.link_decode_value"));
    return kExitInvalid;
  }
  std::string link = args.Get("--decode"), error;
  if (link == "-" && !ReadInput("-", &link, &error)) {
    Error(error);
    return kExitFailure;
  }
  LinkPayload payload;
  std::vector<InputError> errors;
  if (!DecodeLink(link, &payload, &errors)) {
    Error("link: " + LinkErrorMessage(errors).Text(CurrentLanguage()));
    return kExitInvalid;
  }
  if (payload.version < 2) std::fprintf(stderr, "link: %s\n", Tr("link.older_form"));  // it opened: a note only
  const Scenario* s = &payload.scenario;
  if (args.Has("--pinned")) {
    double index = -1;
    if (!ParseNumber(args.Get("--pinned"), &index) || index < 0 || index != static_cast<long>(index) ||
        index >= static_cast<double>(payload.pinned.size())) {
      Error(TrFormat("cli.link.pinned_range", {std::to_string(payload.pinned.size())}));
      return kExitInvalid;
    }
    s = &payload.pinned[static_cast<std::size_t>(index)];
  }
  std::printf("%s\n", ScenarioToJson(*s, !args.Has("--full")).c_str());
  return kExitOk;
}

}  // namespace

int RunLink(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kLinkOptions, &args, "link")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout, kUsage,
               "cli.help.link", kLinkOptions);
    return kExitOk;
  }
  const bool decode = args.Has("--decode");
  if (!decode && (args.Has("--pinned") || args.Has("--full"))) {
    Error(Tr("cli.err.link_pinned_full"));
    return kExitInvalid;
  }
  if (decode && args.Has("--base")) {
    Error(Tr("cli.err.link_base_decode"));
    return kExitInvalid;
  }
  return decode ? Decode(args) : Encode(args);
}

}  // namespace gpucost::cli
