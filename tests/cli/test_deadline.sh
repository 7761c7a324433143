#!/usr/bin/env bash
# Issue 29: the wait for capacity and the deadline in `gpucost pricing` (table and JSON: one document), the spare
# pool (`gpucost spares`), and the new inputs refused where the model cannot use them.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios

out=$("$gpucost" pricing "$S/h100_deadline.json"); rc=$?
equals "$rc" 0 "pricing with a deadline"
contains "$out" "P(miss deadline)" "the table shows the chance of missing the deadline"
contains "$out" "delay cost" "and the delay cost per model"
contains "$out" "is not the cheapest outcome" "it says when the cheapest rate is not the cheapest outcome"
json=$("$gpucost" pricing "$S/h100_deadline.json" --format json)
contains "$json" '"p_miss_deadline"' "JSON: P(miss deadline) per model"
contains "$json" '"delay_usd"' "JSON: the delay cost per model"
contains "$json" '"cheapest_rate_is_not_cheapest": true' "JSON: the cheapest rate is not the cheapest outcome"
not_contains "$json" "null" "JSON: no non-finite figures"
# The table's P(miss) for spot is the JSON's (one document).
spot_p=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print([m for m in d["models"] if m["model"]=="spot"][0]["schedule"]["p_miss_deadline"])' <<<"$json")
awk -v p="$spot_p" 'BEGIN {exit !(p > 0 && p <= 1)}' && pass "spot P(miss) is a probability ($spot_p)" || fail "spot P(miss): $spot_p"
eval_json=$("$gpucost" eval "$S/h100_deadline.json" --format json)
contains "$eval_json" '"schedule"' "eval: the schedule outlook"
contains "$eval_json" '"delay"' "eval: the delay cost is a part"

sp=$("$gpucost" spares - --steps 8 <<<'{"cluster": {"gpus": 4096}, "workload": {"params": 70e9, "tokens": 2e12}, "reliability": {"gpu_mtbf_hours": 20000, "recovery_minutes": 60, "repair_hours": 24}}'); rc=$?
equals "$rc" 0 "spares: the sweep"
contains "$sp" "*" "spares: the cheapest count is marked"
spj=$("$gpucost" spares - --steps 4 --format json <<<'{"cluster": {"gpus": 512}}')
contains "$spj" '"schema": "gpucost/spares@1"' "spares JSON schema"
expect_rc 2 "spares: --steps out of range" -- "$gpucost" spares "$S/h100_deadline.json" --steps 0

out=$("$gpucost" eval - 2>&1 <<<'{"workload": {"kind": "independent"}, "data": {"preprocess": {"cpu_cores_per_gpu": 4}}}'); rc=$?
equals "$rc" 0 "a data pipeline for independent tasks is evaluated"
contains "$out" "data.preprocess" "and reported as not used, naming the field"
finish
