#!/usr/bin/env bash
# gpucost on inference scenarios (issue 17): eval's table and JSON contract, presets, errors naming fields.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

chat='{"workload": {"kind": "inference", "params": 68.98e9, "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8,
       "ffn_hidden": 28672, "ffn_gated": true, "vocab": 32000, "tied_embeddings": false},
       "cluster": {"gpu": "h100-sxm"}, "parallel": {"tensor_parallel": 4},
       "inference": {"requests_per_second": 5, "slo": {"ttft_ms": 2000, "tpot_ms": 100}}}'

expect_rc 0 "eval of an inference scenario" -- "$gpucost" eval - <<<"$chat"
table=$("$gpucost" eval - <<<"$chat")
for row in "Cost per request" "Cost per million input tokens" "Cost per million output tokens" "TTFT P50 / P90 / P99" \
           "TPOT P50 / P90 / P99" "Output tokens/s" "Where the money goes" "Prefill GPUs" "Decode GPUs" \
           "Idle capacity (peak, target)" "met at the peak load"; do
  contains "$table" "$row" "eval table shows '$row'"
done

json=$("$gpucost" eval - --format json <<<"$chat")
for key in kv_bytes_per_token weights_gb_per_gpu fits max_concurrency ttft_ms tpot_ms e2e_ms kv_transfer_ms slo_met \
           capacity_requests_per_second utilization output_tokens_per_second output_tokens_per_second_per_gpu \
           usd_per_request usd_per_million_input_tokens usd_per_million_output_tokens usd_per_hour gpus; do
  contains "$json" "\"$key\"" "result JSON has inference.$key"
done
contains "$json" '"kv_bytes_per_token": 327680.0' "KV bytes per token of Llama 2 70B (GQA)"
not_contains "$json" "null" "no null (non-finite) numbers in the inference result"
# The parts add up to the total, and the figures hang together.
check=$(python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1]); i = d["inference"]; c = d["cost"]
parts = sum(c["breakdown"].values())
ok = abs(parts - c["expected_usd"]) <= 1e-9 * c["expected_usd"]
ok &= abs(i["usd_per_request"] * i["requests"] - c["expected_usd"]) <= 1e-9 * c["expected_usd"]
ok &= i["ttft_ms"]["p50"] <= i["ttft_ms"]["p90"] <= i["ttft_ms"]["p99"]
ok &= i["prefill"]["replicas"] >= 1 and i["decode"]["replicas"] >= 1
print("yes" if ok else "no")
PY
)
equals "$check" "yes" "cost parts sum to cost.expected_usd; per request x requests = total; percentiles ordered"

for p in llama2-70b-chat-h100 llama2-70b-split-h100-a100 batch-summarize-1m-docs; do
  expect_rc 0 "eval preset:$p" -- "$gpucost" eval "preset:$p"
done
split=$("$gpucost" eval preset:llama2-70b-split-h100-a100)
contains "$split" "Prefill : decode replicas" "split preset shows the prefill:decode ratio"
contains "$split" "KV transfer (exposed)" "split preset shows the exposed KV transfer"
contains "$split" "KV-cache transfer" "split preset's money includes the KV transfer"
krw=$("$gpucost" eval - <<<"${chat%\}}, \"pricing\": {\"currency\": \"KRW\", \"tax_rate\": 0.1}}")
contains "$krw" "KRW" "KRW scenario shows won"
contains "$krw" "Tax" "VAT is a part"

# (the overrides replace the chat scenario's own cluster and inference: a key given twice is refused, issue 31)
fp8_a100=${chat/'"cluster": {"gpu": "h100-sxm"}'/'"cluster": {"gpu": "a100-sxm-80gb"}'}
fp8_a100=${fp8_a100/'"inference": {'/'"inference": {"weight_precision": "fp8", '}
err=$("$gpucost" eval - 2>&1 >/dev/null <<<"$fp8_a100")
contains "$err" "inference.weight_precision: fp8 is not supported by NVIDIA A100 SXM4 80GB" "unsupported precision names the field"
expect_rc 2 "unknown inference key" -- "$gpucost" eval - <<<'{"workload": {"kind": "inference", "layers": 2, "hidden": 64, "heads": 2}, "inference": {"qps": 3}}'
err=$("$gpucost" eval - 2>&1 >/dev/null <<<'{"workload": {"kind": "inference", "layers": 2, "hidden": 64, "heads": 2}, "inference": {"qps": 3}}')
contains "$err" "inference.qps: unknown key" "unknown key named"

# gpucost compare: colocated H100, colocated A100 and H100 prefill + A100 decode side by side.
a100=$(python3 -c 'import json,sys; s=json.loads(sys.argv[1]); s["cluster"]["gpu"]="a100-sxm-80gb"; s["name"]="A100"; print(json.dumps(s))' "$chat")
printf '%s' "$a100" > "${TMPDIR:-/tmp}/gpucost_inference_a100.json"
cmp=$("$gpucost" compare preset:llama2-70b-chat-h100 "${TMPDIR:-/tmp}/gpucost_inference_a100.json" preset:llama2-70b-split-h100-a100)
contains "$cmp" "Cost per request" "compare shows cost per request for inference scenarios"
contains "$cmp" "Per million output tokens" "compare shows cost per million output tokens"
contains "$cmp" "Latency target met" "compare shows whether each meets its target"

# gpucost plan on an inference scenario: cheapest configuration, runners-up, why the others lose.
expect_rc 0 "plan on an inference scenario" -- "$gpucost" plan - <<<"$chat"
plan=$("$gpucost" plan - --top 3 <<<"$chat")
contains "$plan" "Cheapest configurations meeting the target" "plan shows the cheapest configurations"
contains "$plan" "Why the others lose" "plan shows why the others lose"
contains "$plan" "split" "plan searched disaggregated configurations"
contains "$plan" "colocated" "plan searched colocated configurations"
pj=$("$gpucost" plan - --format json <<<"$chat")
adopted=$(python3 - "$pj" "$chat" <<'PY'
import json, sys
p = json.loads(sys.argv[1]); s = json.loads(sys.argv[2]); b = p["best"][0]
s["inference"]["mode"] = b["mode"]
for pool in ("prefill", "decode"):
    s["inference"][pool] = {k: b[pool][k] for k in ("gpu", "tensor_parallel", "usd_per_gpu_hour")}
s["inference"]["max_batch"] = b["max_batch"]
print(json.dumps(s))
PY
)
want=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["best"][0]["usd_per_request"])' "$pj")
got=$("$gpucost" eval - --format json <<<"$adopted" | python3 -c 'import json,sys; print(json.load(sys.stdin)["inference"]["usd_per_request"])')
same=$(python3 -c 'import sys; a,b=map(float,sys.argv[1:]); print("yes" if abs(a-b) <= 1e-9*b else "no")' "$got" "$want")
equals "$same" "yes" "eval of the adopted best configuration gives the plan's cost per request"

# gpucost mc on an inference scenario: the request simulation beside the closed form.
expect_rc 0 "mc on an inference scenario" -- "$gpucost" mc - --trials 20000 <<<"$chat"
mc=$("$gpucost" mc - --trials 20000 --seed 3 <<<"$chat")
contains "$mc" "simulated P50" "mc shows simulated percentiles"
contains "$mc" "closed form P50" "mc shows the closed form beside them"
contains "$mc" "Within the target" "mc shows the share within the target"
mj=$("$gpucost" mc - --trials 20000 --seed 3 --format json <<<"$chat")
mj2=$("$gpucost" mc - --trials 20000 --seed 3 --format json <<<"$chat")
equals "$mj" "$mj2" "mc on inference is deterministic for a seed"
contains "$mj" '"share_within_target"' "mc JSON has share_within_target"
contains "$mj" '"requests": 20000' "--trials sets the simulated requests"
finish
