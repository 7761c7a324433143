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

// The asset at `path`, or nullptr.
const EmbeddedAsset* FindAsset(const char* path);

}  // namespace gpucost
