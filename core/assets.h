// assets.h — data files from assets/ embedded into the binary at build time (cmake/embed_assets.cmake).
#pragma once
#include <cstddef>

namespace gpucost {

struct EmbeddedAsset {
  const char* path;  // relative to assets/, e.g. "gpus.json", "presets/llama2-70b.json"
  const char* data;  // NUL-terminated
  std::size_t size;  // bytes, without the terminating NUL
};

// Table ending with {nullptr, nullptr, 0}.
extern const EmbeddedAsset kEmbeddedAssets[];

// The string tables of the languages other than English (i18n/ko.json ...), in a table of their own that every
// program links except the page, which fetches a language's table when it is first needed and installs it
// with InstallLanguageTable (i18n.h). Declared weak: a program without it sees a null table.
extern const EmbeddedAsset kLanguageAssets[] __attribute__((weak));

// The published validation runs (validation/*.json), likewise in a table of their own: every program links it
// but the page, which shows no evidence (core/CMakeLists.txt). Declared weak: a program without it sees null.
extern const EmbeddedAsset kValidationAssets[] __attribute__((weak));

// The asset at `path` (from any table), or nullptr.
const EmbeddedAsset* FindAsset(const char* path);

}  // namespace gpucost
