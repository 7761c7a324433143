#!/usr/bin/env bash
# gpucost sweep: values and ranges over any numeric field, marks, formats, errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios
no_non_finite() { grep -qiE '(^|[^a-z])(nan|inf|infinity)([^a-z]|$)' <<<"$1" && fail "$2: NaN or infinity" || pass "$2: finite"; }

out=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 16,64,256); rc=$?
equals "$rc" 0 "sweep --values"
contains "$out" "cheapest" "the cheapest point is marked"
contains "$out" "fastest" "the fastest point is marked"
no_non_finite "$out" "sweep table"

# A geometric range over an integer field: 8, 16, ..., 1024 exactly.
csv=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --from 8 --to 1024 --steps 8 --log --format csv)
equals "$(awk -F, 'NR>1 {printf "%s ", $1}' <<<"$csv")" "8 16 32 64 128 256 512 1024 " "log range hits powers of two"
# The sweep point equals eval of the same scenario.
one=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 256 --format csv | awk -F, 'NR==2 {print $2}')
direct=$(sed 's/"gpus": 64/"gpus": 256/' "$S/7b_spot.json" | "$gpucost" eval - --format csv | awk -F, '$1=="cost.expected_usd" {print $2}')
equals "$one" "$direct" "a sweep point costs what eval of that scenario costs"
# More GPUs never make this job slower: time falls along the range.
times=$(awk -F, 'NR>1 {print $4}' <<<"$csv")
sort -g -r <<<"$times" | cmp -s - <(echo "$times") && pass "expected time falls as GPUs grow" || fail "time not monotone: $times"
fastest=$(awk -F, 'NR>1 && $10=="true" {print $1}' <<<"$csv")
equals "$fastest" "1024" "the fastest is the largest cluster"

# A linear range on a number field, and --deadline.
out=$("$gpucost" sweep - --param reliability.checkpoint_interval_minutes --from 10 --to 200 --steps 5 --deadline 1000 <<<'{}')
contains "$out" "cheapest within deadline" "deadline mark"
out=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 8,16 --deadline 1)
contains "$out" "No point is expected to finish within" "an unreachable deadline is said"
# Enums by name, bools as true/false.
out=$("$gpucost" sweep "$S/7b_spot.json" --param pricing.model --values on_demand,spot,owned --format csv)
equals "$(awk -F, 'NR>1 {printf "%s ", $1}' <<<"$out")" "on_demand spot owned " "enum values by name"
expect_rc 0 "bool values" -- "$gpucost" sweep "$S/7b_spot.json" --param reliability.checkpoint_async --values false,true
json=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.mfu --values 0.3,0.5 --format json)
contains "$json" '"schema": "gpucost/sweep@1"' "JSON schema"
not_contains "$json" "null" "JSON: no non-finite figures"
for p in "$root"/assets/presets/*.json; do
  expect_rc 0 "sweep preset $(basename "$p")" -- "$gpucost" sweep "$p" --param reliability.gpu_mtbf_hours --from 10000 --to 100000 --steps 3 --log
done

# --gpus: the GPU-count sweep of core/explore/sweep.h (data parallelism grows with N, infeasible points listed).
out=$("$gpucost" sweep preset:llama2-70b-a100 --gpus --deadline 1500 --budget 4e6); rc=$?
equals "$rc" 0 "sweep --gpus on a preset"
contains "$out" "does not fit in GPU memory" "infeasible points say why"
contains "$out" "cheapest within deadline" "deadline mark"
contains "$out" "fastest within budget" "budget mark"
csv=$("$gpucost" sweep "$S/7b_spot.json" --gpus --from 8 --to 512 --format csv)
equals "$(awk -F, 'NR==2 {print $1} END {print $1}' <<<"$csv" | tr '\n' ' ')" "8 512 " "--from/--to bound the GPU counts"
min=$(awk -F, 'NR>1 && $4=="true" {print $5}' <<<"$csv" | sort -g | head -1)
equals "$(awk -F, '$12 ~ /cheapest/ {print $5}' <<<"$csv")" "$min" "the cheapest mark is on the lowest cost"
contains "$("$gpucost" sweep - --gpus --format json <<<'{}')" '"schema": "gpucost/sweep-gpus@1"' "--gpus JSON"
expect_rc 2 "--gpus with --param" -- "$gpucost" sweep "$S/7b_spot.json" --gpus --param cluster.gpus
expect_rc 2 "--per-doubling 0" -- "$gpucost" sweep "$S/7b_spot.json" --gpus --per-doubling 0
expect_rc 2 "--from above --to" -- "$gpucost" sweep "$S/7b_spot.json" --gpus --from 64 --to 8
expect_rc 2 "--budget without --gpus" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.mfu --values 0.3 --budget 5

# Errors: one line, exit 2.
err=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 64,0 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "out-of-range value: exit 2"
equals "$err" "gpucost: sweep: cluster.gpus = 0: must be an integer from 1 to 10,000,000" "out-of-range value: names field and range"
err=$("$gpucost" sweep "$S/llama3_405b.json" --param cluster.gpus --values 1000 2>&1 >/dev/null)
contains "$err" "parallel.tensor_parallel" "an inconsistent point names the conflicting field"
expect_rc 2 "unknown field" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpuz --values 1
expect_rc 2 "text field" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpu --values 1
expect_rc 2 "no values" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus
expect_rc 2 "values and range" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 8 --from 1 --to 2
expect_rc 2 "not a number" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 8,abc
expect_rc 2 "nan value" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.mfu --values nan
expect_rc 2 "inf value" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.mfu --values inf
expect_rc 2 "huge value" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.mfu --values 1e999
expect_rc 2 "too many steps" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --from 1 --to 9 --steps 100000
expect_rc 2 "fractional steps" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --from 1 --to 9 --steps 2.5
expect_rc 2 "log of zero" -- "$gpucost" sweep "$S/7b_spot.json" --param storage.dataset_gb --from 0 --to 9 --log
expect_rc 2 "enum by range" -- "$gpucost" sweep "$S/7b_spot.json" --param pricing.model --from 0 --to 2
expect_rc 2 "unknown enum value" -- "$gpucost" sweep "$S/7b_spot.json" --param pricing.model --values free
expect_rc 2 "bad deadline" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 8 --deadline -1
expect_rc 1 "missing file" -- "$gpucost" sweep /nonexistent.json --param cluster.gpus --values 8
expect_rc 0 "--help" -- "$gpucost" sweep --help
# Numbers as people type them (core/scenario/quantity.h): 70B is 70e9, never 70; 10% for a fraction; 2e3 for an integer.
csv=$("$gpucost" sweep "$S/7b_spot.json" --param workload.params --values 7B,70B --format csv)
contains "$csv" $'\n70000000000.0,' "--values 70B sweeps 70e9 parameters"
csv=$("$gpucost" sweep "$S/7b_spot.json" --param pricing.tax_rate --values 10% --format csv)
contains "$csv" $'\n0.1,' "--values 10% is a tax rate of 0.1"
csv=$("$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 2e3 --format csv)
contains "$csv" $'\n2000,' "--values 2e3 is 2000 GPUs"
expect_rc 2 "70X is refused" -- "$gpucost" sweep "$S/7b_spot.json" --param workload.params --values 70X
expect_rc 2 "10% for a non-fraction is refused" -- "$gpucost" sweep "$S/7b_spot.json" --param cluster.gpus --values 10%
finish
