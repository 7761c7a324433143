#!/usr/bin/env bash
# Command 1 of the README: installs what is missing, builds the web app and serves it.
#   scripts/serve.sh [PORT]      (default 8080)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
cmake --preset web >/dev/null
cmake --build --preset web -j "$(nproc 2>/dev/null || echo 2)" --target gpucost_web
exec node tests/browser/serve.mjs build/web/site "${1:-8080}"
