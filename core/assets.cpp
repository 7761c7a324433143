#include "assets.h"

#include <cstring>

namespace gpucost {

const EmbeddedAsset* FindAsset(const char* path) {
  for (const EmbeddedAsset* a = kEmbeddedAssets; a->path; ++a)
    if (std::strcmp(a->path, path) == 0) return a;
  return nullptr;
}

}  // namespace gpucost
