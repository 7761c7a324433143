#!/usr/bin/env bash
# gpucost mc and gpucost sensitivity: the JSON contract, determinism, option errors (exit 2, one line).
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

scenario='{"reliability": {"gpu_mtbf_hours": 3000}}'
expect_rc 0 "mc with the default trials and seed" -- "$gpucost" mc - <<<"$scenario"
json=$("$gpucost" mc - --trials 500 --seed 7 --format json <<<"$scenario")
for key in '"trials": 500' '"seed": 7' '"time_hours"' '"cost_usd"' '"mean"' '"p10"' '"p50"' '"p90"' \
           '"histogram"' '"counts"' '"closed_form"' '"mean_breakdown"'; do
  contains "$json" "$key" "mc JSON has $key"
done
not_contains "$json" "null" "no null (non-finite) numbers in the mc JSON"
again=$("$gpucost" mc - --trials 500 --seed 7 --format json <<<"$scenario")
equals "$again" "$json" "the same seed gives the same output"
other=$("$gpucost" mc - --trials 500 --seed 8 --format json <<<"$scenario")
[[ $other != "$json" ]] && pass "another seed gives other numbers" || fail "another seed gives other numbers"
# The closed-form check needs a JSON reader: python3, else node; without either it is reported as skipped.
if command -v python3 >/dev/null; then
  check=$(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
t, c, h = j["time_hours"], j["cost_usd"], j["histogram"]
ok = t["p10"] <= t["p50"] <= t["p90"] and c["p10"] <= c["p50"] <= c["p90"]
ok = ok and sum(h["cost_usd"]["counts"]) == j["trials"] and sum(h["time_hours"]["counts"]) == j["trials"]
ok = ok and abs(t["mean"] / j["closed_form"]["time_hours"] - 1) < 0.02
print("ok" if ok else "bad")' "$json")
  equals "$check" "ok" "percentiles ordered, histograms hold every trial, mean near the closed form (python3)"
elif command -v node >/dev/null; then
  check=$(node -e '
const j = JSON.parse(process.argv[1]);
const t = j.time_hours, c = j.cost_usd, h = j.histogram, sum = a => a.reduce((x, y) => x + y, 0);
let ok = t.p10 <= t.p50 && t.p50 <= t.p90 && c.p10 <= c.p50 && c.p50 <= c.p90;
ok = ok && sum(h.cost_usd.counts) === j.trials && sum(h.time_hours.counts) === j.trials;
ok = ok && Math.abs(t.mean / j.closed_form.time_hours - 1) < 0.02;
console.log(ok ? "ok" : "bad");' "$json")
  equals "$check" "ok" "percentiles ordered, histograms hold every trial, mean near the closed form (node)"
else
  skip "no python3 or node to read the mc JSON: the closed-form check cannot run here"
fi
table=$("$gpucost" mc - --trials 200 --seed 1 <<<"$scenario")
contains "$table" "P90" "the table shows P90"
contains "$table" "closed form" "the table shows the closed form"
contains "$table" "trials below it and" "the table says how many trials the P0.5-P99.5 axis counts in its end bins"
flat=$("$gpucost" mc - --trials 200 --seed 1 <<<'{"reliability": {"gpu_mtbf_hours": 0}}')
contains "$flat" "Every trial within 0.1% of" "a spread below the axis resolution is said in words (as on the page)"
contains "$json" '"resolved": true' "the mc JSON says whether the histogram resolves the spread"

expect_rc 2 "--trials 0" -- "$gpucost" mc - --trials 0 <<<"$scenario"
err=$("$gpucost" mc - --trials 0 2>&1 >/dev/null <<<"$scenario")
equals "$err" 'gpucost: mc: --trials must be an integer from 1 to 10,000,000, got "0"' "--trials error names the range"
expect_rc 2 "--trials too many" -- "$gpucost" mc - --trials 10000001 <<<"$scenario"
expect_rc 2 "--trials not an integer" -- "$gpucost" mc - --trials 2.5 <<<"$scenario"
expect_rc 2 "--trials not a number" -- "$gpucost" mc - --trials 1e3x <<<"$scenario"
expect_rc 0 "--trials as people write it (1e3, 1k)" -- "$gpucost" mc - --trials 1e3 <<<"$scenario"
trials=$("$gpucost" mc - --trials 1k --seed 1 --format json <<<"$scenario" | grep -o '"trials": *[0-9]*' | head -1)
equals "$trials" '"trials": 1000' "--trials 1k runs 1000 trials"
expect_rc 2 "--seed negative" -- "$gpucost" mc - --seed -1 <<<"$scenario"
err=$("$gpucost" mc - --seed x 2>&1 >/dev/null <<<"$scenario")
equals "$err" 'gpucost: mc: --seed must be an integer from 0 to 18446744073709551615, got "x"' "--seed error names the range"
expect_rc 2 "--seed beyond 64 bits" -- "$gpucost" mc - --seed 18446744073709551616 <<<"$scenario"
expect_rc 0 "--seed at 2^64 - 1" -- "$gpucost" mc - --trials 10 --seed 18446744073709551615 <<<"$scenario"
expect_rc 2 "csv is not an mc format" -- "$gpucost" mc - --format csv <<<"$scenario"
expect_rc 2 "invalid scenario" -- "$gpucost" mc - <<<'{"cluster": {"gpus": 0}}'
expect_rc 2 "a job that never finishes" -- "$gpucost" mc - <<<'{"cluster": {"gpus": 100000}, "reliability": {"gpu_mtbf_hours": 1, "checkpoint_interval_minutes": 600}}'
expect_rc 1 "missing file" -- "$gpucost" mc /nonexistent/scenario.json
expect_rc 0 "mc --help" -- "$gpucost" mc --help

# --max-work: the request simulation's work cap (the page runs 3e6 request-steps); a training scenario refuses it
batch="$root/assets/presets/batch-summarize-1m-docs.json"
capped=$("$gpucost" mc "$batch" --trials 20000 --seed 1 --max-work 3000000 --format json)
# 200 output tokens per request: 3e6 / (199 decode steps + 1) = 15,000 requests, said in the document
contains "$capped" '"requests": 15000' "--max-work 3000000 simulates 3e6 / 200 = 15000 of 200-token requests"
contains "$capped" '"requests_asked": 20000' "the document keeps the 20000 asked"
contains "$capped" '"max_work_request_steps": 3000000' "the document names the cap it ran under"
whole=$("$gpucost" mc "$batch" --trials 20000 --seed 1 --format json)
contains "$whole" '"requests": 20000' "without --max-work the 20000 requests run whole (5e7 cap)"
expect_rc 2 "--max-work on a training scenario is refused, not ignored" -- "$gpucost" mc - --max-work 1000 <<<"$scenario"
expect_rc 2 "--max-work 0" -- "$gpucost" mc "$batch" --max-work 0
expect_rc 2 "--max-work above 5e7" -- "$gpucost" mc "$batch" --max-work 50000001
# A day's load is not simulated (issue 28): refused, in the reader's language
day="$root/assets/presets/llama2-70b-chat-day-h100.json"
expect_rc 2 "mc of a day's load profile is refused" -- "$gpucost" mc "$day"
err=$("$gpucost" mc "$day" --lang ko 2>&1 >/dev/null)
contains "$err" "하루 부하 프로필" "and the refusal is in Korean with --lang ko"

# sensitivity
expect_rc 0 "sensitivity table" -- "$gpucost" sensitivity - <<<"$scenario"
sj=$("$gpucost" sensitivity - --format json <<<"$scenario")
contains "$sj" '"inputs"' "sensitivity JSON lists inputs"
contains "$sj" '"swing_usd"' "sensitivity JSON has swings"
contains "$sj" '"cluster.mfu"' "MFU is among the inputs"
not_contains "$sj" "null" "no null in the sensitivity JSON"
csv=$("$gpucost" sensitivity - --format csv <<<"$scenario")
contains "$csv" "path,low,high" "sensitivity CSV header"
expect_rc 0 "sensitivity --percent 10" -- "$gpucost" sensitivity - --percent 10 <<<"$scenario"
expect_rc 2 "sensitivity --percent 0" -- "$gpucost" sensitivity - --percent 0 <<<"$scenario"
expect_rc 2 "sensitivity --percent 100" -- "$gpucost" sensitivity - --percent 100 <<<"$scenario"
finish
