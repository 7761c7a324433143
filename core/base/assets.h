// assets.h — data files from assets/ embedded into the binary at build time (cmake/embed_assets.cmake).
#pragma once
#include <cstddef>
#include <string>

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

// The data files the page fetches instead of embedding, likewise in a table of their own that every program links
// but the page: the published validation runs (validation/*.json, fetched when its Evidence view first opens and
// installed with InstallAsset), the offers (offers.json, fetched after the first frame; LoadAsset below) and the
// presets (presets/*.json; the page fetches them as one file, presets.json: documents/presets.cpp).
// Declared weak: a program without it sees null.
extern const EmbeddedAsset kFetchedAssets[] __attribute__((weak));

// The asset at `path` (from any table or installed), or nullptr.
const EmbeddedAsset* FindAsset(const char* path);

// A program's way to get a data file it does not embed, now: its text, or "" when it cannot. The page's reads the
// file if it has arrived, else fetches it synchronously (web/platform_web.cpp), as its code split loads a
// function that is called before its module has arrived: a late file is slower, never wrong.
using AssetLoader = std::string (*)(const char* path);
void SetAssetLoader(AssetLoader loader);

// FindAsset, else the program's loader (installing what it returns), else nullptr.
const EmbeddedAsset* LoadAsset(const char* path);

// Whether LoadAsset(path) answers without waiting: the asset is here, or the program's probe says its loader has the
// file (the page: it has arrived, web/platform_web.cpp). True in a program without a probe (its loader, if any, does
// not wait). For text shown as "loading" rather than fetched synchronously (a field's help in a tooltip).
using AssetProbe = bool (*)(const char* path);
void SetAssetProbe(AssetProbe probe);
bool AssetReady(const char* path);

// Installs a data file that arrived at run time (the page fetches the validation runs when its evidence view is
// first opened): FindAsset finds it from then on. An embedded asset of the same path wins; installing a path
// twice keeps the first text. Returns false for an empty text.
bool InstallAsset(const char* path, const std::string& text);

}  // namespace gpucost
