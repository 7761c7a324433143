#!/usr/bin/env bash
# Issue 17: every verb on an inference scenario answers its serving question or says why it has none.
#   compare --serving-options   colocated H100, colocated A100, H100 prefill + A100 decode (prices with sources)
#   sensitivity                 the cost per million output tokens over the serving inputs
#   sweep --gpus, fleet         refused in words (exit 2), the words the page shows
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["scenario"]))' \
  "$root/assets/presets/llama2-70b-chat-h100.json" >"$work/chat.json"

# --- compare --serving-options ---
expect_rc 0 "compare --serving-options of an inference scenario" -- "$gpucost" compare --serving-options "$work/chat.json"
table=$("$gpucost" compare --serving-options "$work/chat.json")
# Issue 28: each column's replica shape is the cheapest per request of TP 1-8 (named in its label).
for text in "Colocated H100 SXM5 80GB TP" "Colocated A100 SXM4 80GB TP" "prefill + A100 SXM4 80GB TP" "replica shape" \
            "Cost per request is the headline" "Cost per request" \
            "Per million output tokens" "TTFT P90" "TPOT P90" "Latency target met" "Prices" "one source for every GPU type: Lambda on-demand" "offer lambda" \
            "Rework after failures (a failed replica's in-flight requests are recomputed)"; do
  contains "$table" "$text" "serving options table shows '$text'"
done
not_contains "$table" "Rework after rollback" "serving options use the serving name of rework"
json=$("$gpucost" compare --serving-options "$work/chat.json" --format json)
check=$(python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1]); cols = d["scenarios"]
ok = len(cols) == 3 and d["schema"] == "gpucost/compare@1"
modes = [c["result"]["inference"]["mode"] for c in cols]
ok &= modes == ["colocated", "colocated", "disaggregated"]
ok &= [c["result"]["inference"]["decode"]["gpu"] for c in cols] == ["h100-sxm", "a100-sxm-80gb", "a100-sxm-80gb"]
ok &= cols[2]["result"]["inference"]["prefill"]["gpu"] == "h100-sxm"
for c in cols:
    s, i = c["serving"], c["result"]["inference"]
    ok &= abs(s["cost_per_request"] - i["usd_per_request"]) <= 1e-12 * i["usd_per_request"]
    ok &= s["ttft_ms_p90"] == i["ttft_ms"]["p90"] and s["tpot_ms_p90"] == i["tpot_ms"]["p90"]
    ok &= s["slo_met"] == i["slo_met"] and s["gpus"] == i["gpus"] and "USD" in c["price_source"]
print("yes" if ok else "no")
PY
)
equals "$check" "yes" "serving options JSON: three columns, the pools asked for, serving figures equal the results'"
# Issue 28: 8,000-token prompts at 1 request/s: the A100 replica widens (TP8), the column states its shape, and a
# set-up needing more than 4x the GPUs of the cheapest carries the warning.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["inference"].update(input_tokens=8000, requests_per_second=1, peak_to_mean=1); print(json.dumps(d))' \
  "$work/chat.json" >"$work/long.json"
long=$("$gpucost" compare --serving-options "$work/long.json" --format json)
check=$(python3 - "$long" <<'PY'
import json, sys
cols = json.loads(sys.argv[1])["scenarios"]
a100 = cols[1]
ok = a100["serving"]["tensor_parallel"]["decode"] == 8 and a100["serving"]["gpus"] < 648 / 4
fewest = min((c for c in cols if c["serving"]["slo_met"]), key=lambda c: c["serving"]["cost_per_request"])["serving"]["gpus"]
for c in cols:
    codes = [w["code"] for w in c["result"]["warnings"]]
    ok &= ("serving_many_gpus" in codes) == (c["serving"]["gpus"] > 4 * fewest)
    ok &= "proportion" in c["serving"]["per_million_tokens_convention"]
print("yes" if ok else "no")
PY
)
equals "$check" "yes" "8,000-token prompts: a TP8 A100 replica (not 648 GPUs at TP4), >4x GPUs warned, one per-million convention"
expect_rc 2 "serving options of a training scenario are refused" -- "$gpucost" compare --serving-options \
  "$root/tests/cli/scenarios/7b_a100.json"
expect_rc 2 "serving options take exactly one scenario" -- "$gpucost" compare --serving-options "$work/chat.json" "$work/chat.json"

# --- sensitivity ---
sens=$("$gpucost" sensitivity "$work/chat.json")
contains "$sens" "Cost per million output tokens" "sensitivity of a serving scenario moves the cost per million output tokens"
contains "$sens" "inference.prefill_mfu" "sensitivity varies the prefill MFU"
contains "$sens" "inference.decode_bandwidth_efficiency" "sensitivity varies the decode bandwidth efficiency"
not_contains "$sens" "cluster.mfu" "sensitivity of a serving scenario leaves out training's MFU"
contains "$("$gpucost" sensitivity "$work/chat.json" --format json)" '"metric": "cost_per_million_output_tokens"' \
  "sensitivity JSON names its metric"

# --- refusals: the same words as the page (assets/i18n/en.json) ---
words() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$root/assets/i18n/en.json" "$1"; }
expect_rc 2 "sweep --gpus of a serving scenario is refused" -- "$gpucost" sweep "$work/chat.json" --gpus
err=$("$gpucost" sweep "$work/chat.json" --gpus 2>&1 >/dev/null)
contains "$err" "$(words serving.refuse_gpu_sweep)" "sweep --gpus says why, in the page's words"
expect_rc 2 "fleet given a serving scenario is refused" -- "$gpucost" fleet "$work/chat.json"
err=$("$gpucost" fleet "$work/chat.json" 2>&1 >/dev/null)
contains "$err" "$(words serving.refuse_fleet)" "fleet says why, in the page's words"
expect_rc 0 "sweep --param still works on a serving scenario" -- "$gpucost" sweep "$work/chat.json" \
  --param inference.requests_per_second --values 1,10
# Issue 28: a day's load is shown by the hour in the table (the page's day section, the same words and figures)
day="$root/assets/presets/coding-assistant-llama31-70b-h100.json"
table=$("$gpucost" eval "$day")
contains "$table" "A day of this load, autoscaled by the hour" "eval shows the day of an autoscaled service"
contains "$table" "23:00" "with every hour"
per_day=$("$gpucost" eval "$day" --format json | python3 -c 'import json,sys; d=json.load(sys.stdin)["inference"]["day"]; print("{:,.0f}".format(d["usd"]))')
contains "$table" "\$$per_day per day" "the day's bill in the table is the JSON's inference.day.usd (\$$per_day)"
ko=$("$gpucost" eval "$day" --lang ko)
contains "$ko" "시간별 오토스케일링" "and in Korean"
finish
