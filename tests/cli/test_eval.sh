#!/usr/bin/env bash
# gpucost eval: formats, stdin, exit codes and one-line errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

expect_rc 0 "eval of an empty scenario (all defaults)" -- "$gpucost" eval - <<<'{}'
expect_rc 0 "eval --format json" -- "$gpucost" eval - --format json <<<'{"cluster": {"gpus": 128}}'
json=$("$gpucost" eval - --format json <<<'{"cluster": {"gpus": 128}}')
for key in '"ideal_hours"' '"expected_hours"' '"billed"' '"goodput"' '"expected_interruptions"' \
           '"checkpoint_interval_minutes"' '"optimal_checkpoint_interval_minutes"' '"normal_run_usd"' \
           '"expected_usd"' '"breakdown"'; do
  contains "$json" "$key" "result JSON has $key"
done
not_contains "$json" "NaN" "no NaN in the result"
not_contains "$json" "null" "no null (non-finite) numbers in the result"
csv=$("$gpucost" eval - --format csv <<<'{}')
contains "$csv" "cost.expected_usd," "CSV has cost.expected_usd"

expect_rc 2 "invalid value" -- "$gpucost" eval - <<<'{"cluster": {"gpus": 0}}'
err=$("$gpucost" eval - 2>&1 >/dev/null <<<'{"cluster": {"gpus": 0}}')
equals "$err" "gpucost: <stdin>: cluster.gpus: must be an integer from 1 to 10,000,000, got 0" "one-line error names file, path, range"
expect_rc 1 "missing file" -- "$gpucost" eval /nonexistent/scenario.json
expect_rc 2 "no file given" -- "$gpucost" eval
expect_rc 2 "unknown format" -- "$gpucost" eval - --format xml <<<'{}'
expect_rc 0 "eval --help" -- "$gpucost" eval --help
expect_rc 0 "--version" -- "$gpucost" --version
expect_rc 0 "--help" -- "$gpucost" --help
expect_rc 2 "unknown command" -- "$gpucost" frobnicate
# One formatter: no leading blank line, no trailing blanks in the table, separators from four digits.
table=$("$gpucost" eval "$root/tests/cli/scenarios/7b_spot.json")
second=$(sed -n 2p <<<"$table")
contains "$second" "Cost per completed job" "the eval table starts right under its title (no line of blanks)"
trailing=$(grep -c ' $' <<<"$table" || true)
equals "$trailing" "0" "and no trailing blanks"
contains "$table" '$6,295' "four-digit money has a separator"
# A field only the step-time model reads, set where the MFU does not come from it, is reported with the reason, in
# the table and the document alike, and the cost is the same to the cent (fields.h: FieldsNotUsed).
preset="$root/assets/presets/llama2-70b-a100.json"  # cluster.mfu 0.43 given, no model shape
table=$("$gpucost" eval "$preset" --set 'parallel.flash_attention=false')
contains "$table" "Set but not used (cluster.mfu is given; only the step-time model reads them): parallel.flash_attention." "eval: a step-time input with cluster.mfu given is reported, with the reason"
cost() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["cost"]["expected_usd"], [w["key"] for w in d["warnings"] if w["code"] == "fields_not_used"])'; }
equals "$("$gpucost" eval "$preset" --format json --set 'parallel.flash_attention=false' | cost)" \
       "$("$gpucost" eval "$preset" --format json | cost | sed "s/\[\]/['msg.w_fields_not_used_mfu']/")" "eval --format json: the same warning, the same expected cost"
ko=$("$gpucost" --lang ko eval "$preset" --set 'parallel.flash_attention=false')
contains "$ko" "설정했지만 쓰지 않는 필드 (cluster.mfu가 주어졌고" "eval --lang ko: the reason in Korean"
shaped='{"workload":{"model":"llama-2-7b","tokens":1e11},"cluster":{"gpus":64},"parallel":{"tensor_parallel":8,"flash_attention":false}}'
contains "$("$gpucost" eval - <<<"$shaped")" "a step time is predicted only with a model shape and a global batch): parallel.flash_attention" "eval: a shape without a global batch predicts no step: reported"
not_contains "$("$gpucost" eval - --set 'parallel.global_batch=256' <<<"$shaped")" "Set but not used" "eval: the step-time model sets the MFU: not reported"
# The MFU's FLOP convention is the one its figure is counted with: 6 N for full training, 4 N + 6 A for an adapter
# fine-tune (2026-12-07: a LoRA result stated 6 N beside a figure counted with 4 N + 6 A).
lora=$("$gpucost" eval - --format json <<<'{"workload": {"model": "llama-3.1-70b", "tokens": 1e8, "finetune": "lora"}, "cluster": {"gpu": "h100-sxm", "gpus": 8}, "parallel": {"global_batch": 64}}')
contains "$lora" '"mfu_convention": "MFU: model FLOPs 4 N + 6 A + 12 L h s per token for a LoRA / QLoRA fine-tune' "a LoRA's MFU convention is 4 N + 6 A"
full=$("$gpucost" eval - --format json <<<'{"workload": {"model": "llama-3.1-70b", "tokens": 1e8}, "cluster": {"gpu": "h100-sxm", "gpus": 64}, "parallel": {"global_batch": 64}}')
contains "$full" '"mfu_convention": "MFU: model FLOPs 6 N + 12 L h s per token' "full training's MFU convention is 6 N"
finish
