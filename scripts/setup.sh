#!/usr/bin/env bash
# Installs everything gpucost's build and tests need on Debian 12. Idempotent and quiet when all is there.
#   scripts/setup.sh            native + web + browser-test dependencies
# Environment: GPUCOST_SETUP_VERBOSE=1 prints each step.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { [[ ${GPUCOST_SETUP_VERBOSE:-0} == 1 ]] && printf 'setup: %s\n' "$*" >&2 || true; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }

packages=(cmake g++ make ninja-build ccache clang libclang-rt-14-dev emscripten binaryen libglfw3-dev xvfb xauth libgl1-mesa-dri nlohmann-json3-dev doctest-dev
          chromium nodejs npm node-terser xz-utils dpkg-dev fonts-nanum python3-fonttools)
missing=()
for p in "${packages[@]}"; do
  # Node.js may come from elsewhere than Debian; any working node/npm will do.
  case $p in nodejs) command -v node >/dev/null 2>&1 && continue ;; npm) command -v npm >/dev/null 2>&1 && continue ;; esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

as_root() {
  if [[ $(id -u) == 0 ]]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
  else die "need root to run: $* (re-run as root or with passwordless sudo, or install these yourself)"; fi
}

updated=0
apt_update() { [[ $updated == 1 ]] && return 0; say "apt-get update"; as_root apt-get update -qq >/dev/null; updated=1; }

if (( ${#missing[@]} )); then
  printf 'setup: installing %s\n' "${missing[*]}" >&2
  apt_update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi

# Dear ImGui sources (Debian's source package 'imgui'), unpacked into third_party/, never committed.
imgui_dir="$root/third_party/imgui-1.86"
if [[ ! -f $imgui_dir/imgui.cpp ]]; then
  printf 'setup: fetching Dear ImGui 1.86 sources (Debian source package imgui)\n' >&2
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    src=/etc/apt/sources.list.d/gpucost-deb-src.sources
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | as_root tee "$src" >/dev/null
    else
      grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | as_root tee /etc/apt/sources.list.d/gpucost-deb-src.list >/dev/null
    fi
    updated=0
  fi
  apt_update
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source --download-only imgui >/dev/null 2>&1) || die "apt-get source imgui failed"
  mkdir -p "$root/third_party"
  tar -xJf "$tmp"/imgui_1.86*.orig.tar.xz -C "$root/third_party"
  rm -rf "$tmp"
  [[ -f $imgui_dir/imgui.cpp ]] || die "imgui sources not found after unpacking"
fi
# Our one change to ImGui (issue 30: lines never break inside a number): its word wrap may break after . , ; ! ?
# and a quote, which split "$0.434" and "1,234" at the end of a line. A break after them is kept only when no
# digit follows. Applied to the unpacked copy, every run (idempotent: the marker line says it is done);
# tests/ui/test_wrap.cpp checks it.
if ! grep -q 'gpucost: no break inside a number' "$imgui_dir/imgui_draw.cpp"; then
  python3 - "$imgui_dir/imgui_draw.cpp" <<'EOF' || die "could not patch imgui_draw.cpp's word wrap"
import sys
path = sys.argv[1]
text = open(path, encoding='utf-8').read()
old = """inside_word = (c != '.' && c != ',' && c != ';' && c != '!' && c != '?' && c != '\\"');"""
new = old[:-1] + """ || (next_s < text_end && *next_s >= '0' && *next_s <= '9');  // gpucost: no break inside a number"""
if text.count(old) != 1:
    sys.exit('imgui_draw.cpp: the word-wrap line was not found once')
open(path, 'w', encoding='utf-8').write(text.replace(old, new))
EOF
fi

# Playwright (driver only; it uses Debian's /usr/bin/chromium).
if [[ ! -d $root/tests/browser/node_modules/playwright-core ]]; then
  printf 'setup: npm install (tests/browser: playwright-core)\n' >&2
  (cd "$root/tests/browser" && npm install --no-audit --no-fund --silent >/dev/null) || die "npm install in tests/browser failed"
fi
say "all dependencies present"
