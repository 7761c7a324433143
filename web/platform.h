// platform.h — the few things the page needs from its host, behind one tiny interface (after floooh's
// v6502r util.c): clipboard, file download, file pick/upload and the URL fragment. One implementation per
// host, chosen by CMake, no virtual calls:
//   platform_web.cpp     the browser (EM_JS: navigator.clipboard, Blob download, hidden <input type=file>,
//                        location.hash with history.replaceState)
//   platform_native.cpp  a native build (UI smoke test, optional desktop window): clipboard through ImGui,
//                        downloads written under $GPUCOST_DOWNLOAD_DIR (else kept in memory), files picked
//                        from $GPUCOST_PICK_FILE; everything is also recorded for tests (platform_native.h).
#pragma once
#include <string>

namespace gpucost::platform {

// Copies text to the system clipboard. Returns false if the host refused synchronously (the browser may
// still refuse later: the page keeps a visible text field for copying by hand).
bool CopyToClipboard(const std::string& text);

// What became of the last copy: the browser answers asynchronously.
enum class CopyState { kNone, kPending, kCopied, kRefused };
CopyState LastCopyState();

// Offers `text` to the user as a file download named `filename` (e.g. "scenario.json").
void DownloadFile(const std::string& filename, const std::string& text, const char* mime_type);

// Asks the user for a file (asynchronous in the browser). `accept`: e.g. ".json,application/json".
void PickFile(const char* accept);

// A file the user picked since the last call: true and its name and text, once per file.
bool TakePickedFile(std::string* name, std::string* text);

// The URL fragment without '#' ("" when none; always "" natively unless set).
std::string GetUrlFragment();
// Replaces the URL fragment without adding a history entry and without reloading ("" removes it).
void SetUrlFragment(const std::string& fragment);

// The page's address without the fragment ("" natively): the base of share links.
std::string PageAddress();

// Fonts fetched on demand (web/fonts, built by scripts/subset_font.py): "ko-ui.ttf", "ko-typing.ttf", "ko-min.ttf".
// FontBytes: the font's bytes once they have arrived ("" before, and natively unless $GPUCOST_FONT_DIR holds
// the file). RequestFont: starts fetching it (once); the page rebuilds its font atlas when it arrives.
std::string FontBytes(const char* name);
void RequestFont(const char* name);

// A language's string table (assets/i18n/<code>.json) where the program does not embed it (the page, to keep
// its first load light: core/base/assets.h). LanguageTableText: its text once it has arrived ("" before, and
// natively, where every table is embedded). RequestLanguageTable: starts fetching it (once); the page installs
// it when it arrives (AppLanguageTablesArrived).
std::string LanguageTableText(const char* code);
void RequestLanguageTable(const char* code);

// A data file the page fetches when a view first needs it (the published validation runs, "validation/NAME.json":
// 29 KB that the first load does without). DataFileText: its text once it has arrived ("" before, and natively,
// where it is embedded). RequestDataFile: starts fetching it (once); the page draws again when it arrives.
std::string DataFileText(const char* path);
void RequestDataFile(const char* path);
// The file now: DataFileText if it has arrived, else fetched synchronously (the page's offers, when a link or an
// edit needs them before the fetch after the first frame is done; "" natively and when the fetch fails). The
// program's asset loader (core/base/assets.h SetAssetLoader).
std::string DataFileNow(const char* path);
// Whether DataFileNow(path) answers without waiting (the file has arrived; natively, always): the program's asset
// probe (core/base/assets.h SetAssetProbe), so that a tooltip says its text is loading rather than wait for it.
bool DataFileArrived(const char* path);

// The user's language choice, kept by the host (localStorage in the browser; "" when none), and the host's
// own preference (navigator.language, $LANG): the page picks Korean when either says Korean.
std::string StoredLanguage();
void StoreLanguage(const char* code);
std::string HostLanguage();

}  // namespace gpucost::platform
