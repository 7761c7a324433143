#include "assets.h"

#include <cstring>
#include <initializer_list>

namespace gpucost {

const EmbeddedAsset* FindAsset(const char* path) {
  for (const EmbeddedAsset* table : {kEmbeddedAssets, kLanguageAssets, kValidationAssets})
    for (const EmbeddedAsset* a = table; a && a->path; ++a)
      if (std::strcmp(a->path, path) == 0) return a;
  return nullptr;
}

}  // namespace gpucost
