#!/usr/bin/env bash
# gpucost pricing and gpucost fleet: formats, stdin, sums, exit codes and one-line errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

# --- pricing: the same job under four models ---
expect_rc 0 "pricing of an empty scenario (all defaults)" -- "$gpucost" pricing - <<<'{}'
table=$("$gpucost" pricing - <<<'{}')
for label in On-demand Spot Reserved Owned "Capacity risk" "break-even at"; do
  contains "$table" "$label" "pricing table shows $label"
done
json=$("$gpucost" pricing - --format json <<<'{"pricing": {"model": "spot", "usd_per_gpu_hour": 1.8}}')
contains "$json" '"schema": "gpucost/pricing@1"' "pricing JSON names its schema"
contains "$json" '"on_demand_usd_per_gpu_hour": 3.0' "spot price 1.8 at 40% off anchors on-demand at 3.0"
for key in '"term_tail_usd"' '"ratio_to_on_demand"' '"capacity_guaranteed"' '"break_even_utilization"' '"risk"'; do
  contains "$json" "$key" "pricing JSON has $key"
done
not_contains "$json" "null" "no non-finite numbers in the pricing JSON"
csv=$("$gpucost" pricing - --format csv <<<'{}')
equals "$(printf '%s\n' "$csv" | head -1 | cut -d, -f1-3)" "model,usd_per_gpu_hour,job_usd" "pricing CSV header"
equals "$(printf '%s\n' "$csv" | wc -l | tr -d ' ')" "5" "pricing CSV: header + four models"
json=$("$gpucost" pricing - --format json --offer aws-p5.48xlarge-us-east-1 <<<'{}')
contains "$json" '"on_demand_usd_per_gpu_hour": 6.88' "--offer applies the AWS p5 price"
krw=$("$gpucost" pricing - <<<'{"pricing": {"currency": "KRW", "krw_per_gpu_hour": 4400, "krw_per_usd": 1400, "tax_rate": 0.1, "price_includes_tax": true}}')
contains "$krw" "₩4,000" "KRW 4,400 incl. 10% VAT is ₩4,000 per GPU-hour before tax"
free=$("$gpucost" pricing - --format json <<<'{"pricing": {"usd_per_gpu_hour": 0}, "storage": {"usd_per_gb_month": 0}}')
not_contains "$free" "null" "a zero on-demand price gives no non-finite ratios or break-even"
expect_rc 2 "pricing: unknown offer" -- "$gpucost" pricing - --offer nope <<<'{}'
err=$("$gpucost" pricing - 2>&1 >/dev/null <<<'{"pricing": {"spot": {"discount": 1.5}}}')
equals "$err" "gpucost: <stdin>: pricing.spot.discount: must be a number >= 0 and <= 0.99, got 1.5" "pricing: one-line error with path and range"
expect_rc 2 "pricing: no file" -- "$gpucost" pricing
expect_rc 0 "pricing --help" -- "$gpucost" pricing --help

# --- fleet: planner and hybrid ---
doc='{"name": "team", "profile": {"months": 24, "baseline_gpus": 64, "bursts": [{"start_month": 3, "months": 2, "gpus": 128}]}}'
expect_rc 0 "fleet of a profile" -- "$gpucost" fleet - <<<"$doc"
table=$("$gpucost" fleet - <<<"$doc")
for label in "all on-demand" "cloud plan" "hybrid plan" "Commitments" "Total"; do
  contains "$table" "$label" "fleet table shows $label"
done
json=$("$gpucost" fleet - --format json <<<"$doc")
contains "$json" '"schema": "gpucost/fleet-result@1"' "fleet JSON names its schema"
# The planner never does worse than all-on-demand; parts sum to the total.
check=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
ok = d["cloud"]["total_usd"] <= d["all_on_demand"]["total_usd"] * (1 + 1e-12) and d["hybrid"]["total_usd"] <= d["cloud"]["total_usd"] * (1 + 1e-12)
for plan in ("all_on_demand", "cloud", "hybrid"):
    p = d[plan]
    ok = ok and abs(sum(p["breakdown_usd"].values()) - p["total_usd"]) <= 1e-6 * max(1, p["total_usd"])
print("yes" if ok else "no")' <<<"$json")
equals "$check" "yes" "fleet JSON: cloud <= all on-demand, hybrid <= cloud, parts sum to totals"
csv=$("$gpucost" fleet - --format csv <<<"$doc")
contains "$csv" "cloud,total," "fleet CSV has plan totals"
no_owned=$("$gpucost" fleet - --format json <<<'{"demand_gpus": [8, 8, 16], "owned": false}')
not_contains "$no_owned" '"hybrid"' "owned: false leaves the hybrid plan out"
zero=$("$gpucost" fleet - <<<'{"demand_gpus": [0, 0]}')
not_contains "$zero" "nan" "no demand: no NaN ratios in the table"
expect_rc 2 "fleet: negative demand" -- "$gpucost" fleet - <<<'{"demand_gpus": [8, -1]}'
err=$("$gpucost" fleet - 2>&1 >/dev/null <<<'{"demand_gpus": [8, -1]}')
equals "$err" "gpucost: <stdin>: demand_gpus[1]: must be a number >= 0 and <= 1,000,000, got -1" "fleet: one-line error with path and range"
err=$("$gpucost" fleet - 2>&1 >/dev/null <<<'{"demand_gpus": [8], "commitments": [{"term_months": 12, "discount": 2}]}')
equals "$err" "gpucost: <stdin>: commitments[0].discount: must be a number >= 0 and <= 0.99, got 2" "fleet: commitment discount range"
expect_rc 2 "fleet: malformed JSON" -- "$gpucost" fleet - <<<'{"demand_gpus": ['
expect_rc 1 "fleet: missing file" -- "$gpucost" fleet /nonexistent/fleet.json
expect_rc 2 "fleet: unknown format" -- "$gpucost" fleet - --format xml <<<'{"demand_gpus": [1]}'
# fresh2 A10: a KRW plan's table is in won, as its notes are (it was in dollars: "$3.53M" beside notes in won); the
# notes' money reads the same in every language (the document is the same bytes).
krw_doc='{"demand_gpus": [64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64], "on_demand": {"usd_per_gpu_hour": 6}, "currency": {"code": "KRW", "per_usd": 1439}}'
krw_ko=$("$gpucost" fleet - --lang ko <<<"$krw_doc")
contains "$krw_ko" "GPU시간당 8,634 원" "fleet KRW: the table's on-demand price in won (6 x 1,439)"
not_contains "$krw_ko" '$' "fleet KRW: no dollar figure in the Korean table"
krw_en=$("$gpucost" fleet - <<<"$krw_doc")
contains "$krw_en" "on-demand ₩8,634/GPU-hour" "fleet KRW: the English table in won too"
not_contains "$krw_en" '$' "fleet KRW: no dollar figure in the English table"
equals "$("$gpucost" fleet - --format json --lang ko <<<"$krw_doc")" "$("$gpucost" fleet - --format json <<<"$krw_doc")" "fleet KRW: the document is the same in Korean and English"
# fresh2 A9: an offer that lists no commitment or spot price (the document of a Samsung SDS quote): no layer planned
# for it, and the notes say so; a document naming it reads back.
sds='{"demand_gpus": [64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64], "on_demand": {"usd_per_gpu_hour": 6}, "commitments": [], "spot": {"availability": 0}, "not_offered": {"offer": "samsung-sds-scp-gpu-server-h100", "commitments": true, "spot": true}}'
sds_out=$("$gpucost" fleet - <<<"$sds")
contains "$sds_out" "Samsung SDS Samsung Cloud Platform GPU Server, H100 80 GB (1-8 GPUs) lists no reserved price: the plan leaves it out" "fleet: the commitment the offer lists no price for is said"
contains "$sds_out" "(1-8 GPUs) lists no spot price" "fleet: and the spot"
err=$("$gpucost" fleet - 2>&1 >/dev/null <<<'{"demand_gpus": [8], "not_offered": {"offer": "x", "spot": 1}}')
equals "$err" "gpucost: <stdin>: not_offered.spot: expected true or false" "fleet: not_offered.spot must be a boolean"
expect_rc 0 "fleet --help" -- "$gpucost" fleet --help
finish
