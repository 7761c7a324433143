#!/usr/bin/env bash
# Money typed in the scenario's currency on the command line (gpucost eval --set, money_input.h): the same cost
# whichever currency a value is typed in, the conversion said on stderr, a refusal exits 2 naming the field.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

owned='{"pricing": {"model": "owned", "krw_per_usd": 1439}}'
cost() { python3 -c 'import json,sys; print(json.load(sys.stdin)["cost"]["expected_usd"])'; }
usd=$("$gpucost" eval - --format json --set 'pricing.owned.usd_per_kwh=0.1; pricing.fixed_fees_usd=$2,000' <<<"$owned" | cost)
krw=$("$gpucost" eval - --format json \
  --set 'pricing.currency=KRW; pricing.owned.usd_per_kwh=143.9; pricing.fixed_fees_usd=287.8만 원' <<<"$owned" | cost)
typed_usd_in_krw=$("$gpucost" eval - --format json --set 'pricing.currency=KRW; pricing.owned.usd_per_kwh=$0.1; pricing.fixed_fees_usd=2000 USD' <<<"$owned" | cost)
python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b)<=1e-9*a and abs(a-c)<=1e-9*a else 1)" "$usd" "$krw" "$typed_usd_in_krw" \
  && pass "same cost typed in dollars, in won (143.9, 287.8만 원) or in dollars into a won scenario ($usd USD)" \
  || fail "costs differ: $usd / $krw / $typed_usd_in_krw"
said=$("$gpucost" eval - --set 'pricing.currency=KRW; pricing.owned.usd_per_kwh=₩143.9' <<<"$owned" 2>&1 >/dev/null)
contains "$said" "pricing.owned.usd_per_kwh: ₩143.9/kWh = \$0.1/kWh at ₩1,439/\$ (2025-12-30)" "the conversion is said with its dated rate"
refused=$("$gpucost" eval - --set 'pricing.currency=KRW; pricing.owned.usd_per_kwh=₩20,000' <<<"$owned" 2>&1)
contains "$refused" "pricing.owned.usd_per_kwh: \"₩20,000\" is not allowed: must be a number >= 0 and <= 14,390 KRW/kWh" \
  "out of range: refused in the currency the field shows"
expect_rc 2 "an out-of-range won amount exits 2" -- "$gpucost" eval - --set 'pricing.currency=KRW; pricing.owned.usd_per_kwh=₩20,000' <<<"$owned"
expect_rc 2 "만 without won in a dollar scenario exits 2" -- "$gpucost" eval - --set 'pricing.fixed_fees_usd=300만' <<<"$owned"
expect_rc 2 "an unknown field exits 2" -- "$gpucost" eval - --set 'pricing.nope=1' <<<"$owned"
# --set given twice applies both, in order (it used to keep only the last one, silently); other options twice: refused.
both=$("$gpucost" eval - --format json --set 'pricing.owned.usd_per_kwh=0.1' --set 'pricing.fixed_fees_usd=$2,000' <<<"$owned" | cost)
equals "$both" "$usd" "two --set options apply both, as one --set with a ; list"
fees_only=$("$gpucost" eval - --format json --set 'pricing.fixed_fees_usd=$2,000' <<<"$owned" | cost)
[[ $both != "$fees_only" ]] && pass "the first --set is not dropped" || fail "the first --set is not dropped: $both"
expect_rc 2 "another option given twice exits 2" -- "$gpucost" eval - --format json --format text <<<"$owned"
twice=$("$gpucost" eval - --format json --format text <<<"$owned" 2>&1)
contains "$twice" "option --format given twice" "the refusal names the option"
# The Sensitivity table's bounds of a money input read as money in the scenario's currency, with its unit, as the
# page's view writes them (2026-12-07: "3,227" / "5,379" beside a storage price left in dollars, "0.0115", before).
krw_job='{"cluster": {"gpu": "h100-sxm", "gpus": 64}, "workload": {"params": 7e9, "tokens": 1e11},
          "pricing": {"currency": "KRW", "krw_per_usd": 1439, "krw_per_gpu_hour": 4303}}'
sens=$("$gpucost" sensitivity - <<<"$krw_job")
contains "$sens" "₩3,227.25/GPU-hour" "the price's low bound is 0.75 x ₩4,303 per GPU-hour, in won"
contains "$sens" "₩16.5485/GB-month" "the storage price's low bound is \$0.0115 x 1,439 won per GB-month"
contains "$sens" "32%" "a share reads as a percentage"
sens_ko=$("$gpucost" sensitivity - --lang ko <<<"$krw_job")
contains "$sens_ko" "₩3,227.25/GPU시간" "in Korean the unit is Korean"
finish
