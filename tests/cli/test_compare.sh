#!/usr/bin/env bash
# gpucost compare: side-by-side table, marks, ratios, formats, presets, stdin, errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios
no_non_finite() { grep -qiE '(^|[^a-z])(nan|inf|infinity)([^a-z]|$)' <<<"$1" && fail "$2: NaN or infinity" || pass "$2: finite"; }

out=$("$gpucost" compare "$S/7b_spot.json" "$S/batch_tasks.json" "$S/llama3_405b.json"); rc=$?
equals "$rc" 0 "compare three scenarios"
contains "$out" "7B on spot H100" "columns are labelled by scenario name"
contains "$out" "Best" "best row"
contains "$out" "cheapest" "the cheapest is marked"
contains "$out" "fastest" "the fastest is marked"
contains "$out" "Productive compute" "where the money goes"
no_non_finite "$out" "compare table"

# CSV: the marks and ratios agree with the figures.
csv=$("$gpucost" compare "$S/7b_spot.json" "$S/llama3_405b.json" "$S/batch_tasks.json" --format csv)
equals "$(wc -l <<<"$csv")" 4 "CSV: header + one row per scenario"
read -r c1 c2 c3 < <(awk -F, 'NR>1 {printf "%s ", $3}' <<<"$csv")
cheapest_row=$(awk -F, 'NR>1 && $15=="true" {print NR-1}' <<<"$csv")
want=$(awk -v a="$c1" -v b="$c2" -v c="$c3" 'BEGIN {m=a; i=1; if (b<m) {m=b; i=2}; if (c<m) {m=c; i=3}; print i}')
equals "$cheapest_row" "$want" "CSV: the cheapest mark is on the lowest expected_usd"
ratio=$(awk -F, 'NR==3 {print $13}' <<<"$csv")
want=$(awk -v a="$c1" -v b="$c2" 'BEGIN {printf "%.6f", b/a}')
equals "$(awk -v r="$ratio" 'BEGIN {printf "%.6f", r}')" "$want" "CSV: cost_vs_first = expected_usd / first's"
equals "$(awk -F, 'NR==2 {print $13}' <<<"$csv")" "1.0" "CSV: the first scenario's ratio is 1"
no_non_finite "$csv" "compare csv"

json=$("$gpucost" compare "$S/7b_spot.json" - --format json <<<'{"cluster": {"gpus": 128}}')
contains "$json" '"schema": "gpucost/compare@1"' "JSON schema"
contains "$json" '"file": "<stdin>"' "stdin is a scenario"
contains "$json" '"cost_vs_first"' "JSON ratios"
not_contains "$json" "null" "JSON: no non-finite figures"

# Presets: every embedded preset, by file and by id.
for p in "$root"/assets/presets/*.json; do
  id=$(basename "$p" .json)
  expect_rc 0 "compare preset file $id with preset:$id" -- "$gpucost" compare "$p" "preset:$id"
  row=$("$gpucost" compare "$p" "preset:$id" --format json | grep -o '"cost_vs_first": [0-9.e+-]*' | tail -1)
  row=${row#*: }
  equals "$row" "1.0" "preset file and preset:$id give the same cost"
done

expect_rc 2 "no scenarios" -- "$gpucost" compare
expect_rc 2 "stdin twice" -- "$gpucost" compare - - <<<'{}'
expect_rc 2 "an invalid scenario among them" -- "$gpucost" compare "$S/7b_spot.json" "$root/tests/cli/bad_inputs/zero_gpus.json"
err=$("$gpucost" compare "$S/7b_spot.json" "$root/tests/cli/bad_inputs/zero_gpus.json" 2>&1 >/dev/null)
contains "$err" "zero_gpus.json: cluster.gpus: must be an integer from 1 to 10000000, got 0" "names the file and path"
expect_rc 1 "a missing file" -- "$gpucost" compare "$S/7b_spot.json" /nonexistent.json
expect_rc 2 "format xml" -- "$gpucost" compare "$S/7b_spot.json" --format xml
expect_rc 2 "unknown option" -- "$gpucost" compare "$S/7b_spot.json" --frobnicate
expect_rc 0 "--help" -- "$gpucost" compare --help
finish
