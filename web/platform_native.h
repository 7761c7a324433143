// platform_native.h — what the native platform implementation recorded, for the UI tests.
#pragma once
#include <string>

namespace gpucost::platform {

struct NativeRecord {
  std::string clipboard;          // last text copied
  std::string download_name;      // last download offered
  std::string download_text;
  int downloads = 0;
  int picks_requested = 0;        // PickFile() calls
  std::string fragment;           // current URL fragment
  std::string language;           // StoreLanguage()
};

NativeRecord& NativeRecorded();
// Reads a whole file (false when it cannot be opened).
bool NativeReadFile(const std::string& path, std::string* text);
// Queues a file as if the user had picked it (delivered by the next TakePickedFile()).
void NativeQueuePickedFile(const std::string& name, const std::string& text);

}  // namespace gpucost::platform
