#!/usr/bin/env bash
# Issue 31: hostile and extreme input through the CLI. Formula cells, control characters, unpriceable serving,
# impossible probe reports, bounded simulation, duplicate keys, implausible exchange rates.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
preset() {  # the chat preset's scenario with a jq-like patch applied by python
  python3 - "$root/assets/presets/llama2-70b-chat-h100.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["scenario"]
for path, value in json.loads(sys.argv[2]).items():
    node = d
    keys = path.split(".")
    for k in keys[:-1]: node = node.setdefault(k, {})
    node[keys[-1]] = value
print(json.dumps(d))
PY
}

# 1. Formula injection: a name that a spreadsheet would evaluate is written as text.
printf '{"name": "=HYPERLINK(\\"http://evil\\",\\"x\\")", "cluster": {"gpus": 8}}' > "$work/formula.json"
printf '{"name": "@SUM(1+1)", "cluster": {"gpus": 16}}' > "$work/at.json"
csv=$("$gpucost" compare "$work/formula.json" "$work/at.json" --format csv)
header=$(sed -n 1p <<<"$csv")  # one column per scenario, headed by its name (core/documents/compare_csv.h)
contains "$header" ",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\"," "CSV: '=' name is quoted text behind a single quote"
contains "$header" ",'@SUM(1+1)" "CSV: '@' name behind a single quote"
not_contains "$csv" ",=HYPERLINK" "CSV: no cell starts with ="

# 2. Terminal injection: control characters in a name are shown escaped, never sent raw.
printf '{"name": "job\\r\\nCost per completed job (VAT not included)  $1.00\\u001b[2K", "cluster": {"gpus": 8}}' > "$work/term.json"
out=$("$gpucost" eval "$work/term.json"); rc=$?
equals "$rc" 0 "eval of a name with control characters"
if grep -q $'\r\|\x1b' <<<"$out"; then fail "eval output holds a raw CR or ESC"; else pass "eval output holds no raw CR or ESC"; fi
contains "$out" 'job\r\nCost per completed job' "the name is shown with its control characters escaped"
equals "$(grep -c '^Cost per completed job' <<<"$out")" 1 "one real cost line, no fake one"
err=$("$gpucost" eval "$work/term.json" --set $'cluster.gpu=x\x1b[31m' 2>&1 >/dev/null)
if grep -q $'\x1b' <<<"$err"; then fail "an echoed value holds a raw ESC"; else pass "an echoed value is escaped in the error"; fi

# 3. Serving that does not fit is not priced; no negative memory.
preset '{"workload.params": 1e13, "parallel.tensor_parallel": 1}' > "$work/10t.json"
out=$("$gpucost" eval "$work/10t.json"); rc=$?
equals "$rc" 0 "eval of 10T parameters on one GPU (blocked, exit 0 as for training)"
contains "$out" "Not priced" "10T on one GPU: not priced"
contains "$out" "18,630 GiB" "10T on one GPU: the reason names the weights per GPU (2e13 bytes, in GiB)"
not_contains "$out" "per request" "10T on one GPU: no cost per request"
json=$("$gpucost" eval "$work/10t.json" --format json)
contains "$json" '"code": "serving_does_not_fit"' "JSON: the blocking code"
not_contains "$json" '"kv_gb_per_gpu": -' "JSON: no negative KV memory"
preset '{"inference.output_tokens": 1e7}' > "$work/long.json"
out=$("$gpucost" eval "$work/long.json")
contains "$out" "Not priced" "1e7 output tokens: not priced"
not_contains "$out" "GPU-hours" "1e7 output tokens: no billions of GPU-hours"

# 4. An impossible probe report is refused with the field and the range.
python3 - "$root/tests/data/probe_h100_8gpu.json" "$work/probe_fast.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["gemm"][0]["tflops"] = {"min": 99999, "median": 99999, "max": 99999}
json.dump(d, open(sys.argv[2], "w"))
PY
err=$("$gpucost" eval "$S/7b_a100.json" --probe "$work/probe_fast.json" 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "eval --probe with 99,999 TFLOP/s on an H100: refused"
contains "$err" "gemm[0].tflops" "the refused field is named"
contains "$err" "at most 1088" "with the datasheet's range (110% of 989 TFLOP/s)"

# 6. The request simulation is bounded: 1e9 requests/s and peak-to-mean 1000 finish quickly and say so.
preset '{"inference.requests_per_second": 1e9}' > "$work/1e9.json"
preset '{"inference.peak_to_mean": 1000}' > "$work/ptm.json"
for f in 1e9 ptm; do
  start=$(date +%s.%N)
  out=$(timeout 60 "$gpucost" mc "$work/$f.json"); rc=$?
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
  equals "$rc" 0 "mc $f: exit 0"
  awk -v t="$took" 'BEGIN {exit !(t < 15)}' && pass "mc $f: ${took} s (< 15 s; was 33 s / bad_alloc)" || fail "mc $f: ${took} s"
done
contains "$("$gpucost" mc "$work/1e9.json")" "Bounded work" "mc 1e9: the bound is said"

# 8. Duplicate keys, implausible exchange rates.
printf '{"pricing": {"usd_per_gpu_hour": 2, "usd_per_gpu_hour": 0.01}}' > "$work/dup.json"
err=$("$gpucost" eval "$work/dup.json" 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "a duplicate key: exit 2"
contains "$err" "pricing.usd_per_gpu_hour: given twice" "a duplicate key: its path"
printf '{"pricing": {"currency": "KRW", "krw_per_usd": 1e-9}}' > "$work/fx.json"
err=$("$gpucost" eval "$work/fx.json" 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "1e-9 KRW per USD: exit 2"
contains "$err" "pricing.krw_per_usd" "1e-9 KRW per USD: the field named"
finish
