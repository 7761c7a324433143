// cmd_gui.cpp — `gpucost gui [FILE | LINK] [options]`: runs gpucost-gui (web/main_desktop.cpp), the page's UI
// in a native window. A separate program so that the command-line tool needs no display or GL libraries.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "cli.h"
#include "verbs.h"

namespace gpucost::cli {

int RunGui(int argc, char** argv) {
  const std::string gui = SiblingExecutable("gpucost-gui", "GPUCOST_GUI");
  if (gui.empty() || access(gui.c_str(), X_OK) != 0) {
    Error(Tr("cli.err.gui_missing"));
    return kExitFailure;
  }
  std::vector<char*> args{const_cast<char*>(gui.c_str())};
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);  // options are gpucost-gui's (gpucost gui --help)
  args.push_back(nullptr);
  execv(args[0], args.data());
  Error(TrFormat("cli.err.gui_run", {gui, std::strerror(errno)}));
  return kExitFailure;
}

}  // namespace gpucost::cli
