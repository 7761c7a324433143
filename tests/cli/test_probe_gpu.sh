#!/usr/bin/env bash
# gpucost probe with the real CUDA binary (gpucost-probe-gpu), when it was built: without a GPU it exits 3 with
# one line; on a GPU machine --list succeeds. Reported as skipped (exit 77) when the binary was not built.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ckpt"
lines() { [[ -z $1 ]] && echo 0 || printf '%s\n' "$1" | wc -l; }

# --- no GPU: the real CUDA binary, when it was built (here: no driver -> exit 3)
real=$(dirname "$gpucost")/gpucost-probe-gpu
if [[ -x $real ]]; then
  err=$("$real" --list 2>&1 >/dev/null); rc=$?
  if [[ $rc == 3 ]]; then
    equals "$(lines "$err")" 1 "gpucost-probe-gpu without a GPU: one line"
    contains "$err" "no usable GPU" "gpucost-probe-gpu without a GPU: says so"
    err=$("$gpucost" probe --out "$tmp/real.json" 2>&1 >/dev/null); rc=$?
    equals "$rc" 3 "gpucost probe with the real binary, no GPU: exit 3"
    equals "$(lines "$err")" 1 "gpucost probe with the real binary, no GPU: one line"
  else
    equals "$rc" 0 "gpucost-probe-gpu --list on a GPU machine: exit 0"
  fi
  expect_rc 2 "gpucost-probe-gpu: bad argument" -- "$real" --shape qkv:0:1:1 --list
else
  skip "gpucost-probe-gpu not built (no CUDA toolkit): its checks cannot run here"
fi

finish
