// platform_web.cpp — platform.h in the browser. Strings travel from JavaScript through Module.gpucostOut:
// a JS function stages a string there and returns its UTF-8 length, C++ allocates and copies it out.
// index.html owns the hidden <input type=file id=file-input>: its change handler reads the file and leaves
// {name, text} in Module.gpucostPicked, then wakes the main loop.
#include <emscripten.h>

#include <cstdio>

#include "platform.h"

// clang-format off
EM_JS(int, gpucost_js_copy, (const char* text), {
  var t = UTF8ToString(text);
  Module.gpucostCopied = t;
  if (!navigator.clipboard || !navigator.clipboard.writeText) { Module.gpucostCopyState = 3; return 0; }
  Module.gpucostCopyState = 1;
  navigator.clipboard.writeText(t).then(function () { Module.gpucostCopyState = 2; Module._gpucost_wake(); },
                                        function () { Module.gpucostCopyState = 3; Module._gpucost_wake(); });
  return 1;
});
EM_JS(int, gpucost_js_copy_state, (), { return Module.gpucostCopyState || 0; });
EM_JS(void, gpucost_js_download, (const char* name, const char* text, const char* mime), {
  // A leading byte order mark (CSV for Excel) is kept: UTF8ToString's TextDecoder would drop it.
  var bom = HEAPU8[text] === 0xEF && HEAPU8[text + 1] === 0xBB && HEAPU8[text + 2] === 0xBF;
  var blob = new Blob([bom ? '\uFEFF' + UTF8ToString(text + 3) : UTF8ToString(text)], {type: UTF8ToString(mime)});
  var a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = UTF8ToString(name);
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 2000);
});
EM_JS(void, gpucost_js_pick_file, (const char* accept), {
  var input = document.getElementById('file-input');
  if (!input) return;
  input.accept = UTF8ToString(accept);
  input.value = '';
  input.click();
});
EM_JS(int, gpucost_js_stage_picked, (int what), {
  var p = Module.gpucostPicked;
  if (!p) return -1;
  Module.gpucostOut = what === 0 ? p.name : p.text;
  if (what === 1) Module.gpucostPicked = null;
  return lengthBytesUTF8(Module.gpucostOut);
});
EM_JS(int, gpucost_js_stage_fragment, (), {
  Module.gpucostOut = location.hash.replace(/^#/, '');
  try { Module.gpucostOut = decodeURIComponent(Module.gpucostOut); } catch (e) {}
  return lengthBytesUTF8(Module.gpucostOut);
});
EM_JS(int, gpucost_js_stage_address, (), {
  Module.gpucostOut = location.href.split('#')[0];
  return lengthBytesUTF8(Module.gpucostOut);
});
EM_JS(void, gpucost_js_copy_out, (char* buf, int cap), { stringToUTF8(Module.gpucostOut, buf, cap); });
EM_JS(void, gpucost_js_set_fragment, (const char* fragment), {
  var f = UTF8ToString(fragment);
  history.replaceState(null, '', f ? '#' + f : location.pathname + location.search);
});
// Fonts: index.html's gpucostFetchFont() fetches fonts/NAME once, keeps its bytes in gpucostFiles and calls
// _gpucost_fonts_changed() (the main loop rebuilds the atlas, copying the bytes in). No file system is linked
// (-sFILESYSTEM=0): fetched files reach the module through these two calls.
EM_JS(void, gpucost_js_request_font, (const char* name), { gpucostFetchFont(UTF8ToString(name)); });
// String tables: gpucostFetchStrings() fetches i18n/CODE.json once and calls _gpucost_strings_changed().
EM_JS(void, gpucost_js_request_strings, (const char* code), { gpucostFetchStrings(UTF8ToString(code)); });
// Data files (validation runs): gpucostFetchFile() fetches PATH once and calls _gpucost_files_changed().
EM_JS(void, gpucost_js_request_file, (const char* path), { gpucostFetchFile(UTF8ToString(path), '_gpucost_files_changed'); });
// A data file needed now (gpucostLoadFileNow in index.html: a synchronous fetch unless it has arrived); its size.
EM_JS(int, gpucost_js_load_file_now, (const char* path), { return gpucostLoadFileNow(UTF8ToString(path)); });
EM_JS(int, gpucost_js_file_size, (const char* path), {
  var bytes = gpucostFiles[UTF8ToString(path)];
  return bytes ? bytes.length : -1;
});
EM_JS(void, gpucost_js_file_copy, (const char* path, char* out), { HEAPU8.set(gpucostFiles[UTF8ToString(path)], out); });
EM_JS(void, gpucost_js_store_language, (const char* code), {
  try { localStorage.setItem('gpucost.lang', UTF8ToString(code)); } catch (e) {}
  gpucostApplyLanguage(UTF8ToString(code));
});
EM_JS(int, gpucost_js_stage_language, (int stored), {
  var v = '';
  if (stored) { try { v = localStorage.getItem('gpucost.lang') || ''; } catch (e) {} }
  else v = navigator.language || '';
  Module.gpucostOut = v;
  return lengthBytesUTF8(v);
});
// clang-format on

namespace gpucost::platform {
namespace {

std::string TakeStaged(int length) {
  if (length <= 0) return "";
  std::string out(static_cast<std::size_t>(length) + 1, '\0');
  gpucost_js_copy_out(out.data(), length + 1);
  out.resize(static_cast<std::size_t>(length));
  return out;
}

// The bytes index.html fetched to `path` ("fonts/ko-ui.ttf"), "" when they have not arrived.
std::string FetchedFile(const std::string& path) {
  const int size = gpucost_js_file_size(path.c_str());
  if (size <= 0) return "";
  std::string bytes(static_cast<std::size_t>(size), '\0');
  gpucost_js_file_copy(path.c_str(), bytes.data());
  return bytes;
}

}  // namespace

bool CopyToClipboard(const std::string& text) { return gpucost_js_copy(text.c_str()) != 0; }

CopyState LastCopyState() {
  switch (gpucost_js_copy_state()) {
    case 1: return CopyState::kPending;
    case 2: return CopyState::kCopied;
    case 3: return CopyState::kRefused;
    default: return CopyState::kNone;
  }
}

void DownloadFile(const std::string& filename, const std::string& text, const char* mime_type) {
  gpucost_js_download(filename.c_str(), text.c_str(), mime_type);
}

void PickFile(const char* accept) { gpucost_js_pick_file(accept); }

bool TakePickedFile(std::string* name, std::string* text) {
  const int name_length = gpucost_js_stage_picked(0);
  if (name_length < 0) return false;
  *name = TakeStaged(name_length);
  *text = TakeStaged(gpucost_js_stage_picked(1));
  return true;
}

std::string GetUrlFragment() { return TakeStaged(gpucost_js_stage_fragment()); }
void SetUrlFragment(const std::string& fragment) { gpucost_js_set_fragment(fragment.c_str()); }
std::string PageAddress() { return TakeStaged(gpucost_js_stage_address()); }

std::string FontBytes(const char* name) { return FetchedFile(std::string("fonts/") + name); }
void RequestFont(const char* name) { gpucost_js_request_font(name); }
std::string LanguageTableText(const char* code) { return FetchedFile(std::string("i18n/") + code + ".json"); }
void RequestLanguageTable(const char* code) { gpucost_js_request_strings(code); }
std::string DataFileText(const char* path) { return FetchedFile(path); }
void RequestDataFile(const char* path) { gpucost_js_request_file(path); }
std::string DataFileNow(const char* path) { return gpucost_js_load_file_now(path) > 0 ? FetchedFile(path) : ""; }
bool DataFileArrived(const char* path) { return gpucost_js_file_size(path) > 0; }
std::string StoredLanguage() { return TakeStaged(gpucost_js_stage_language(1)); }
void StoreLanguage(const char* code) { gpucost_js_store_language(code); }
std::string HostLanguage() { return TakeStaged(gpucost_js_stage_language(0)); }

}  // namespace gpucost::platform
