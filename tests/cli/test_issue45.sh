#!/usr/bin/env bash
# Issue 45: money that obeys its laws, through the CLI. A switched pricing model is the pricing table's row (and
# says so on stderr); owned hardware's annual parts add up to the printed total with interest; serving options
# name their one price source; a provider's unlisted model is not priced.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

S='{"cluster": {"gpu": "h100-sxm", "gpus": 64}, "workload": {"params": 7e9, "tokens": 1e11},
    "pricing": {"currency": "KRW", "tax_rate": 0.1, "krw_per_gpu_hour": 4303}}'
total() { python3 -c 'import json,sys; print(repr(json.load(sys.stdin)["cost"]["expected_usd"]))'; }
row() { python3 -c 'import json,sys; m=[r for r in json.load(sys.stdin)["models"] if r["model"]==sys.argv[1]][0]; print(repr(m["total_usd"]))' "$1"; }
for model in spot reserved owned; do
  got=$("$gpucost" eval - --set "pricing.model=$model" --format json 2>/dev/null <<<"$S" | total)
  want=$("$gpucost" pricing - --format json <<<"$S" | row "$model")
  equals "$got" "$want" "eval --set pricing.model=$model = gpucost pricing's $model row (KRW, VAT)"
done
note=$("$gpucost" eval - --set pricing.model=spot --format json 2>&1 >/dev/null <<<"$S")
contains "$note" "Pricing model on-demand → spot" "the switch says so in one line on stderr"
contains "$note" "₩2,582" "with the re-derived price in won"
P=preset:llama2-70b-chat-h100
got=$("$gpucost" eval "$P" --set pricing.model=spot --format json 2>/dev/null | total)
want=$("$gpucost" pricing "$P" --format json | row spot)
equals "$got" "$want" "serving: eval --set pricing.model=spot = the pricing row"

out=$("$gpucost" pricing - <<<'{"pricing": {"model": "owned", "owned": {"interest_rate": 0.05}}}')
sum=$(python3 -c '
import re, sys
line = [l for l in sys.stdin.read().splitlines() if "per GPU-year" in l][0]
parts = [float(x.replace(",", "")) for x in re.findall(r"\$([0-9,.]+)", line)]
print("ok" if abs(sum(parts[:-1]) - parts[-1]) <= 1 else "parts %s sum to %s" % (parts[:-1], sum(parts[:-1])))' <<<"$out")
equals "$sum" "ok" "owned: the annual parts, interest included, add up to the printed total"

json=$("$gpucost" compare --serving-options "$P" --format json)
contains "$json" '"price_source": "Lambda on-demand, lambda-8x-h100-sxm (2026-09-20) and lambda-8x-a100-sxm-80gb (2026-09-20)' \
  "serving options: one source and date for every GPU type, named"
# The table names that source in the reader's language (the document keeps its English words).
ko=$("$gpucost" --lang ko compare --serving-options "$P")
contains "$ko" "Lambda 온디맨드, lambda-8x-h100-sxm (2026-09-20), lambda-8x-a100-sxm-80gb (2026-09-20); 시나리오에 입력한 h100-sxm 가격은 섞지 않음" \
  "serving options: the price source in Korean"
not_contains "$ko" "is not mixed in" "serving options: no English left in the Korean price source"

# A price-by-quote offer has no list price: its line said "$0.00/GPU-hour before tax" above a table priced at the
# quote; and the offer's line is in the reader's language.
out=$("$gpucost" pricing - --offer kt-cloud-ai-nexus-h200 --quote '₩9,500' <<<'{}' 2>/dev/null)
contains "$out" "Offer kt-cloud-ai-nexus-h200: price by quote (no public list price, 2026-12), priced at the quote typed" \
  "pricing: a quote offer's line says it is priced at the quote"
not_contains "$out" "\$0.00/GPU-hour" "pricing: no list price of \$0.00 for a quote offer"
ko=$("$gpucost" --lang ko pricing - --offer coreweave-hgx-h100 <<<'{}')
contains "$ko" "상품 coreweave-hgx-h100: GPU시간당 \$6.16 (세전, 2026-09-20); 60초 단위 과금" "pricing: the offer's line in Korean"
out=$("$gpucost" pricing - --offer aws-p5.48xlarge-us-east-1 <<<'{"parallel": {"zero_stage": 3}}')
contains "$out" "lists no spot price" "a model the offer does not list is said"
contains "$out" "not priced" "and not priced"

# The refusal law in the document: a job that can never recover (every checkpoint unusable) is blocked with its
# reason and not priced (cost.expected_usd null, as a blocked pricing row's total), on the text and JSON paths alike.
B=$("$gpucost" eval preset:alpaca-7b-8xa100 --set reliability.bad_checkpoint_probability=1 --format json 2>/dev/null)
equals "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["blocking"]["code"], d["cost"]["expected_usd"], d["cost"]["expected"])' <<<"$B")" \
  "bad_checkpoints_never_recover None None" "a blocked job's document names the reason and carries no price"
T=$("$gpucost" eval preset:alpaca-7b-8xa100 --set reliability.bad_checkpoint_probability=1 2>/dev/null)
contains "$T" "Not priced: the job cannot run as described" "and the text says it is not priced (the page's words)"
# As the page: no time, GPU-hours or money of a job that is not priced (a new user saw "2.58e+15 years" and a cost per
# billion tokens under "not priced", 2026-12-07).
for row in "Expected time" "GPU-hours billed" "Cost per billion tokens" "if nothing fails" "Where the time"; do
  not_contains "$T" "$row" "a blocked job's text has no '$row'"
done
contains "$("$gpucost" eval preset:alpaca-7b-8xa100 --set reliability.bad_checkpoint_probability=1 --lang ko 2>/dev/null)" \
  "가격 없음" "and in Korean"

# And in a comparison: the blocked column is not priced (JSON null, the table says so), never cheapest, no ratio to it.
W=$(mktemp -d)
echo '{"workload": {"params": 70e9, "tokens": 1e9}}' > "$W/blocked.json"
echo '{"workload": {"params": 7e9, "tokens": 2e11}}' > "$W/fits.json"
equals "$("$gpucost" compare "$W/blocked.json" "$W/fits.json" --format json | python3 -c 'import json,sys; print([(s["expected_cost"], s["cheapest"], "cost_vs_first" in s) for s in json.load(sys.stdin)["scenarios"]][0])')" \
  "(None, False, False)" "compare: a blocked column carries no price and is not the cheapest"
contains "$("$gpucost" compare "$W/blocked.json" "$W/fits.json")" "not priced" "compare's table says it is not priced"
rm -rf "$W"

finish
