#include "base/assets.h"

#include <cstring>
#include <deque>
#include <initializer_list>

namespace gpucost {

namespace {

struct InstalledAsset {
  std::string path, text;
  EmbeddedAsset asset;
};

std::deque<InstalledAsset>& Installed() {  // a deque: an asset's address stays put as others are added
  static std::deque<InstalledAsset> installed;
  return installed;
}

AssetLoader g_loader = nullptr;
AssetProbe g_probe = nullptr;

}  // namespace

const EmbeddedAsset* FindAsset(const char* path) {
  for (const EmbeddedAsset* table : {kEmbeddedAssets, kLanguageAssets, kFetchedAssets})
    for (const EmbeddedAsset* a = table; a && a->path; ++a)
      if (std::strcmp(a->path, path) == 0) return a;
  for (const InstalledAsset& a : Installed())
    if (a.path == path) return &a.asset;
  return nullptr;
}

bool InstallAsset(const char* path, const std::string& text) {
  if (text.empty()) return false;
  if (FindAsset(path) != nullptr) return true;
  InstalledAsset& a = Installed().emplace_back(InstalledAsset{path, text, {}});
  a.asset = {a.path.c_str(), a.text.c_str(), a.text.size()};
  return true;
}

void SetAssetLoader(AssetLoader loader) { g_loader = loader; }

const EmbeddedAsset* LoadAsset(const char* path) {
  if (const EmbeddedAsset* a = FindAsset(path)) return a;
  if (g_loader == nullptr || !InstallAsset(path, g_loader(path))) return nullptr;
  return FindAsset(path);
}

void SetAssetProbe(AssetProbe probe) { g_probe = probe; }

bool AssetReady(const char* path) { return FindAsset(path) != nullptr || g_probe == nullptr || g_probe(path); }

}  // namespace gpucost
