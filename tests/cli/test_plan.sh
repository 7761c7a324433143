#!/usr/bin/env bash
# gpucost plan: layout search, formats, options and one-line errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

gpt3='{"cluster": {"gpu": "a100-sxm-80gb", "gpus": 64, "node_network_gbps": 1600},
 "workload": {"params": 175e9, "tokens": 300e9, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048, "vocab": 51200},
 "parallel": {"global_batch": 64}}'

expect_rc 0 "plan of GPT-3 175B on 64 A100s" -- "$gpucost" plan - <<<"$gpt3"
table=$("$gpucost" plan - --top 3 <<<"$gpt3")
head1=$(head -1 <<<"$table")
not_contains "$head1" "in 0.0" "the search time is not a long decimal of seconds ($head1)"
contains "$table" "layouts evaluated" "table says how many layouts were evaluated"
contains "$table" "recompute" "table has the recompute column"
json=$("$gpucost" plan - --format json --top 4 <<<"$gpt3")
for key in '"evaluated"' '"seconds"' '"plans"' '"parallel"' '"step"' '"memory"' '"tensor_parallel"' \
           '"exposed_comm_seconds"' '"bubble_seconds"' '"mfu"' '"hfu"' '"total_gb"' '"fits"'; do
  contains "$json" "$key" "plan JSON has $key"
done
not_contains "$json" "null" "no non-finite numbers in the plan JSON"
plans=$(python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["plans"]; print(len(p), all(p[i]["step"]["seconds"] <= p[i+1]["step"]["seconds"] for i in range(len(p)-1)), all(x["memory"]["fits"] for x in p))' <<<"$json")
equals "$plans" "4 True True" "four plans, best first, all fit"
cost=$("$gpucost" plan - --objective cost --format json --top 2 <<<"$gpt3")
contains "$cost" '"expected_usd"' "cost objective prices each plan"
contains "$cost" '"objective": "cost"' "cost objective is named"

expect_rc 2 "unknown objective" -- "$gpucost" plan - --objective speed <<<"$gpt3"
err=$("$gpucost" plan - --top 0 2>&1 >/dev/null <<<"$gpt3")
equals "$err" 'gpucost: plan: --top must be an integer from 1 to 32, got "0"' "bad --top names the range"
err=$("$gpucost" plan - 2>&1 >/dev/null <<<'{"parallel": {"global_batch": 64}}')
contains "$err" "workload.layers" "missing shape names the fields"
# A global batch on auto is searched at one sequence per GPU (issue 30: it was refused, exit 2).
tiny='{"cluster": {"gpus": 8}, "workload": {"layers": 2, "hidden": 64, "heads": 2, "seq_len": 16, "vocab": 100}}'
expect_rc 0 "a global batch on auto is searched" -- "$gpucost" plan - <<<"$tiny"
auto=$("$gpucost" plan - --format json <<<"$tiny")
contains "$auto" '"global_batch_auto": true' "the plan says its batch was auto"
contains "$auto" '"global_batch": 8' "searched at one sequence per GPU (8 GPUs)"
contains "$("$gpucost" plan - <<<"$tiny")" "one sequence per GPU" "the table says how the batch was chosen"
expect_rc 2 "unknown format" -- "$gpucost" plan - --format csv <<<"$gpt3"
expect_rc 2 "no file" -- "$gpucost" plan
expect_rc 0 "plan --help" -- "$gpucost" plan --help
small=$("$gpucost" plan - <<<'{"cluster": {"gpu": "a100-sxm-80gb", "gpus": 1}, "workload": {"params": 175e9, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048, "vocab": 51200}, "parallel": {"global_batch": 8}}')
contains "$small" "none fits" "a model too large for the GPUs says so"

# eval: the step-time contract when shape, layout and global batch are given.
layout='{"cluster": {"gpu": "a100-sxm-80gb", "gpus": 64, "node_network_gbps": 1600},
 "workload": {"params": 175e9, "tokens": 300e9, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048, "vocab": 51200},
 "parallel": {"tensor_parallel": 8, "pipeline_parallel": 8, "global_batch": 64, "pipeline_interleave": 3, "sequence_parallel": true, "recompute": "selective", "zero_stage": 0}}'
ej=$("$gpucost" eval - --format json <<<"$layout")
for key in '"step"' '"compute_seconds"' '"recompute_seconds"' '"exposed_comm_seconds"' '"bubble_seconds"' '"hfu"'; do
  contains "$ej" "$key" "eval JSON has $key"
done
contains "$ej" '"mfu_source": "predicted"' "eval uses the predicted MFU without cluster.mfu"
finish
