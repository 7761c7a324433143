#!/usr/bin/env bash
# Korean human output (--lang ko, LANG=ko_KR.UTF-8): labels from assets/i18n/ko.json, KRW in 억/만 from the
# same figures as the JSON, the VAT lines (공급가액 / 부가세 / 합계); JSON keys stay English.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

scenario='{"name": "7B 사전학습", "workload": {"params": 7e9, "tokens": 2e12}, "cluster": {"gpu": "h100-sxm", "gpus": 256},
 "pricing": {"currency": "KRW", "krw_per_usd": 1400, "tax_rate": 0.1}}'
json=$("$gpucost" eval - --format json <<<"$scenario")
ko=$("$gpucost" eval - --lang ko <<<"$scenario")
# 억/만 written independently of the C++ formatter: rounded to 만 원 from 1억 up, every won below.
words() { python3 -c 'import sys
x = float(sys.argv[1]); big = x >= 1e8; v = round(x / 1e4) if big else round(x)
if not big: v, won = divmod(v, 10000)
eok, man = divmod(v, 10000)
parts = ([f"{eok:,}억"] if eok else []) + ([f"{man:,}만"] if man else []) + ([] if big or not won else [f"{won:,}"])
print(" ".join(parts) + " 원")' "$1"; }
field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval("d" + sys.argv[1]))' "$1" <<<"$json"; }
total=$(field '["cost"]["expected"]')
tax_krw=$(python3 -c "print($(field '["cost"]["breakdown"]["tax"]') * 1400)")
supply_krw=$(python3 -c "print($total - $tax_krw)")
contains "$ko" "완료된 작업당 비용 (부가세 포함)" "Korean headline says VAT is included"
contains "$ko" "$(words "$total")" "total in 억/만 equals the JSON figure ($(words "$total"))"
contains "$ko" "공급가액" "supply price line"
contains "$ko" "부가세 (10.0%)" "VAT line with its rate"
contains "$ko" "합계" "total line"
line() { printf '%s\n' "$ko" | grep -F -- "$1" | head -1; }
contains "$(line 공급가액)" "$(words "$supply_krw")" "supply price in 억/만 equals total - tax from the JSON"
contains "$(line '부가세 (10.0%)')" "$(words "$tax_krw")" "VAT in 억/만 equals the JSON tax part"
contains "$ko" "체크포인트 저장" "breakdown part labels in Korean"
contains "$ko" "정상 실행" "normal run (정상 실행) row"
en=$("$gpucost" eval - <<<"$scenario")
contains "$en" "Cost per completed job (VAT included)" "English headline says VAT included"
contains "$en" "₩$(python3 -c "print(f'{round($total):,}')")" "English KRW: ₩ with separators, every won"
env_ko=$(LANG=ko_KR.UTF-8 "$gpucost" eval - <<<"$scenario")
equals "$env_ko" "$ko" "LANG=ko_KR.UTF-8 gives the same output as --lang ko"
lc_all=$(LANG=ko_KR.UTF-8 LC_ALL=C "$gpucost" eval - <<<"$scenario")
equals "$lc_all" "$en" "LC_ALL=C overrides a Korean LANG"
json_ko=$("$gpucost" eval - --format json --lang ko <<<"$scenario")
equals "$json_ko" "$json" "JSON is the same in Korean (keys stay English)"
expect_rc 2 "--lang with an unknown language" -- "$gpucost" eval - --lang fr <<<'{}'
err=$("$gpucost" eval - --lang fr 2>&1 <<<'{}')
equals "$err" 'gpucost: --lang: unknown language "fr" (en or ko)' "--lang error names the value"
finish
