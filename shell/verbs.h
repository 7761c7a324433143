// verbs.h — the gpucost subcommands. Each lives in its own cmd_<verb>.cpp and is listed in main.cpp.
#pragma once
#include <string>

#include "scenario/scenario.h"

namespace gpucost::cli {

struct Verb {
  const char* name;
  const char* summary;  // string-table key (cli.verb.<name>)
  int (*run)(int argc, char** argv);  // arguments after the verb
};

int RunEval(int argc, char** argv);
int RunPlan(int argc, char** argv);
int RunMc(int argc, char** argv);
int RunSensitivity(int argc, char** argv);
int RunCompare(int argc, char** argv);
int RunSweep(int argc, char** argv);
int RunLink(int argc, char** argv);
int RunCatalog(int argc, char** argv);
int RunValidate(int argc, char** argv);
int RunPricing(int argc, char** argv);  // cmd_pricing.cpp
int RunFleet(int argc, char** argv);    // cmd_fleet.cpp
int RunSpares(int argc, char** argv);   // cmd_spares.cpp (issue 29)
int RunProbe(int argc, char** argv);
int RunGui(int argc, char** argv);      // cmd_gui.cpp
int RunLog(int argc, char** argv);      // cmd_log.cpp (issue 49)
int RunActual(int argc, char** argv);   // cmd_actual.cpp (issue 49)

// eval --probe REPORT: applies a probe report to *s and says on stderr which fields it set (cmd_probe.cpp).
// Returns kExitOk, kExitInvalid (bad report, one line naming the JSON path) or kExitFailure (I/O).
int ApplyProbeFile(const std::string& path, Scenario* s);

}  // namespace gpucost::cli
