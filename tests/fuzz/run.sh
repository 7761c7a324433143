#!/usr/bin/env bash
# Fuzzes each target for a bounded time and prints its executions per second and total runs.
#   tests/fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET]      (BUILD_DIR of the sanitize preset)
# New corpus entries go to a temporary directory; crash inputs are kept in BUILD_DIR/fuzz-artifacts/.
set -uo pipefail
build=$1; seconds=${2:-25}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
artifacts=$build/fuzz-artifacts; mkdir -p "$artifacts"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
status=0
declare -A seeds=(
  [scenario]="$root/tests/fuzz/corpus/scenario $root/tests/cli/scenarios $root/tests/cli/bad_inputs $root/assets/presets"
  [link]="$root/tests/fuzz/corpus/link"
  [text]="$root/tests/fuzz/corpus/text")
declare -A dicts=([scenario]="$root/tests/fuzz/scenario.dict" [link]="$root/tests/fuzz/link.dict" [text]="$root/tests/fuzz/text.dict")
for name in scenario link text; do
  mkdir -p "$work/$name"
  # shellcheck disable=SC2086
  "$build/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      -dict="${dicts[$name]}" -artifact_prefix="$artifacts/$name-" -print_final_stats=1 \
      "$work/$name" ${seeds[$name]} >"$work/$name.log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$name.log" | grep -o '[0-9]*$')
  per_s=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work/$name.log" | grep -o '[0-9]*$')
  if [[ $rc == 0 ]]; then
    echo "fuzz_$name: ${runs:-?} runs in ${seconds} s (${per_s:-?} exec/s), no crash"
  else
    status=1
    echo "fuzz_$name: FAILED (exit $rc) after ${runs:-?} runs; crash input in $artifacts/"
    grep -E 'ERROR|violated|SUMMARY|runtime error' "$work/$name.log" | head -20
  fi
done
exit $status
