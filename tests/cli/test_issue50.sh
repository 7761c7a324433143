#!/usr/bin/env bash
# Issue 50 through the CLI: a MIG slice refused where the GPU has none (naming the field), a slice's price and
# the finished model's cost in eval's output (English and Korean), stopped instances as a part, the scope in --help.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

out=$("$gpucost" validate - 2>/dev/null <<<'{"cluster": {"gpu": "l40s", "partition": "1g.10gb"}}'); rc=$?
equals "$rc" 2 "a MIG profile on a GPU without MIG: exit 2"
contains "$out" "cluster.partition: NVIDIA L40S 48GB has no MIG profiles" "the problem names the field and the GPU"
out=$("$gpucost" validate - 2>/dev/null <<<'{"cluster": {"gpu": "h100-sxm", "partition": "3g.20gb"}}')
contains "$out" "1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb" "an unknown profile lists the GPU's profiles"
expect_rc 0 "3g.40gb on an H100 is valid" -- "$gpucost" validate - <<<'{"cluster": {"gpu": "h100-sxm", "partition": "3g.40gb"}}'

# 4 slices of 3g.40gb at half of $4: $2 per slice-hour (partition_price_fraction auto: max(3/7, 4/8)).
json=$("$gpucost" eval - --format json --set 'cluster.partition=3g.40gb;cluster.gpus=4' <<<'{"cluster": {"gpu": "a100-sxm-80gb"}, "pricing": {"usd_per_gpu_hour": 4}, "workload": {"tokens": 1e9}}')
equals "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["partition"]["usd_per_slice_hour"], d["partition"]["memory_gib"])' <<<"$json")" "2.0 40.0" "a slice's price and memory in the document"

scenario='{"workload": {"tokens": 1e10, "program": {"experiments": 0.5, "evaluation_hours": 10}}, "cluster": {"gpus": 8},
 "pricing": {"usd_per_gpu_hour": 4, "stopped_hours": 100, "stopped_price_fraction": 0.1}}'
json=$("$gpucost" eval - --format json <<<"$scenario")
# By hand: stopped 8 x 100 h x $4 x 0.1 = $320; evaluation 8 x 10 h x $4 = $320; experiments half of the run
# without its stopped instances.
equals "$(python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["cost"]; b=c["breakdown"]
f=d["finished_model"]["breakdown"]
print(round(b["stopped"], 6), round(f["evaluation"], 6), abs(c["finished_model_usd"] - (c["expected_usd"] + 0.5 * (c["expected_usd"] - 320) + 320)) < 1e-6 * c["expected_usd"])' <<<"$json")" "320.0 320.0 True" "stopped part, evaluation and the finished model's total"
out=$("$gpucost" eval - <<<"$scenario")
contains "$out" "Stopped instances" "the stopped part is a row of the table"
contains "$out" "Cost of the finished model:" "the finished model's line"
ko=$("$gpucost" eval - --lang ko <<<"$scenario")
contains "$ko" "완성된 모델의 비용:" "the finished model's line in Korean"
contains "$ko" "중지된 인스턴스" "the stopped part in Korean"

out=$("$gpucost" --help)
contains "$out" "Not modelled: FP64 simulation" "the scope in --help"
out=$("$gpucost" --help --lang ko)
contains "$out" "FP64 시뮬레이션" "the scope in Korean --help"
finish
