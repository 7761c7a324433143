// platform_native.cpp — platform.h for native builds (UI smoke test, tests, an optional desktop window).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <imgui.h>

#include "platform.h"
#include "platform_native.h"

namespace gpucost::platform {
namespace {

struct PickedFile {
  bool ready = false;
  std::string name, text;
};

NativeRecord g_record;
PickedFile g_picked;

}  // namespace

bool NativeReadFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

NativeRecord& NativeRecorded() { return g_record; }

void NativeQueuePickedFile(const std::string& name, const std::string& text) {
  g_picked = {true, name, text};
}

bool CopyToClipboard(const std::string& text) {
  g_record.clipboard = text;
  if (ImGui::GetCurrentContext()) ImGui::SetClipboardText(text.c_str());
  return true;
}

CopyState LastCopyState() { return g_record.clipboard.empty() ? CopyState::kNone : CopyState::kCopied; }

void DownloadFile(const std::string& filename, const std::string& text, const char* /*mime_type*/) {
  g_record.download_name = filename;
  g_record.download_text = text;
  ++g_record.downloads;
  if (const char* dir = std::getenv("GPUCOST_DOWNLOAD_DIR")) {
    std::ofstream out(std::string(dir) + "/" + filename, std::ios::binary);
    out << text;
  }
}

void PickFile(const char* /*accept*/) {
  ++g_record.picks_requested;
  const char* path = std::getenv("GPUCOST_PICK_FILE");
  std::string text;
  if (path && NativeReadFile(path, &text)) NativeQueuePickedFile(path, text);
}

bool TakePickedFile(std::string* name, std::string* text) {
  if (!g_picked.ready) return false;
  *name = g_picked.name;
  *text = g_picked.text;
  g_picked = {};
  return true;
}

std::string GetUrlFragment() { return g_record.fragment; }
void SetUrlFragment(const std::string& fragment) { g_record.fragment = fragment; }
std::string PageAddress() { return ""; }

std::string FontBytes(const char* name) {  // $GPUCOST_FONT_DIR (e.g. build/web/site/fonts), else none
  const char* dir = std::getenv("GPUCOST_FONT_DIR");
  std::string bytes;
  if (dir && *dir && NativeReadFile(std::string(dir) + "/" + name, &bytes)) return bytes;
  return "";
}
void RequestFont(const char*) {}
std::string LanguageTableText(const char*) { return ""; }
void RequestLanguageTable(const char*) {}
std::string DataFileText(const char*) { return ""; }
void RequestDataFile(const char*) {}
std::string DataFileNow(const char*) { return ""; }
bool DataFileArrived(const char*) { return true; }
std::string StoredLanguage() { return g_record.language; }
void StoreLanguage(const char* code) { g_record.language = code; }
std::string HostLanguage() {
  const char* v = std::getenv("LANG");
  return v ? v : "";
}

}  // namespace gpucost::platform
