#!/usr/bin/env bash
# Keeps the page's first load what the code's first frame runs: profiles the built page
# (scripts/profile_first_frame.sh, about 15 s) and, when web/first_frame_funcs.txt or web/first_frame_keys.txt no
# longer match the code (a function renamed, split or added on the first frame's path), writes the fresh lists
# and builds the web preset again with them. The lists in the tree are a cache of this profile: a stale one only
# made the first frame fetch app.deferred.wasm (the browser tests fail on that), never a wrong answer.
#   scripts/first_frame_current.sh [BUILD_DIR] [BUILD TARGET...]   (default build/web, every target)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/web}
shift || true
targets=("$@")
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
saved=$(mktemp -d)
trap 'rm -rf "$saved"' EXIT
for pass in 1 2; do
  cp "$root/web/first_frame_funcs.txt" "$root/web/first_frame_keys.txt" "$saved/"
  bash "$root/scripts/profile_first_frame.sh" "$build" >/dev/null
  if cmp -s "$saved/first_frame_funcs.txt" "$root/web/first_frame_funcs.txt" &&
     cmp -s "$saved/first_frame_keys.txt" "$root/web/first_frame_keys.txt"; then
    echo "first frame: web/first_frame_funcs.txt and first_frame_keys.txt match the code"
    exit 0
  fi
  printf 'first frame: the lists did not match the code (%s); written fresh (commit them), building again\n' \
    "$(diff "$saved/first_frame_funcs.txt" "$root/web/first_frame_funcs.txt" | grep -c '^[<>]' || true) function lines changed" >&2
  if [[ ${#targets[@]} -gt 0 ]]; then
    cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}" >/dev/null
  else
    cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
  fi
done
echo "first frame: the lists still changed after a second profile; the browser tests will say what is fetched" >&2
