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
# The invoice's lines to the won, every group shown, the VAT the total's rest, so that they add up as shown
# (2026-12-07: each rounded to 만 apart, 25억 6,002만 + 2억 5,600만 read 28억 1,603만).
exact() { python3 -c 'import sys
v = int(sys.argv[1]); groups = []
for unit in ["", "만", "억", "조"]:
    v, g = divmod(v, 10000)
    if g: groups.insert(0, f"{g:,}{unit}")
    if not v: break
print(" ".join(groups) + " 원")' "$1"; }
total_won=$(python3 -c "print(round($total))"); supply_won=$(python3 -c "print(round($supply_krw))")
contains "$(line 공급가액)" "$(exact "$supply_won")" "supply price to the won: total - tax from the JSON ($(exact "$supply_won"))"
contains "$(line '부가세 (10.0%)')" "$(exact $((total_won - supply_won)))" "VAT to the won: the total's rest"
contains "$(line '합계')" "$(exact "$total_won")" "total to the won"
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

# The provider sheet beside the comparison: answers as given, unknowns as "ask the provider", open items counted.
dir=$(mktemp -d)
printf '%s' '{"name": "국내 A", "provider": {"data_location": "대한민국 (서울)", "encryption": "AES-256"}}' > "$dir/a.json"
printf '%s' '{"name": "AWS 서울"}' > "$dir/b.json"
sheet=$("$gpucost" compare "$dir/a.json" "$dir/b.json" --sheet --lang ko)
contains "$sheet" "제공사 비교표" "compare --sheet prints the provider sheet"
contains "$sheet" "대한민국 (서울)" "an answered item is shown as given"
contains "$sheet" "제공사에 확인 필요" "an unanswered item reads 'ask the provider' (제공사에 확인 필요)"
contains "$sheet" "보안 항목 9개 중 7개 미확인" "open security items counted for the answered column"
contains "$sheet" "보안 항목 9개 중 9개 미확인" "and for the unanswered one"
contains "$sheet" "필요조건일 뿐 충분조건이 아닙니다" "a domestic data location is necessary, not sufficient"
# The other verbs' human output in Korean: same figures, Korean labels, core's warnings and errors in Korean;
# JSON and CSV identical in both languages (keys stay English).
krw='{"pricing": {"currency": "KRW", "krw_per_usd": 1400}}'
pricing_ko=$("$gpucost" pricing - --lang ko <<<"$krw")
contains "$pricing_ko" "같은 작업을 네 가지 요금 방식으로" "pricing: Korean title"
contains "$pricing_ko" "선점형(스팟)" "pricing: spot written 선점형(스팟)"
contains "$pricing_ko" "손익분기 가동률" "pricing: owned line says 손익분기 가동률"
contains "$pricing_ko" "약정 없음, 용량 미확보" "pricing: the capacity risk (core text) in Korean"
not_contains "$pricing_ko" "Capacity is yours" "pricing: no English risk line left"
equals "$("$gpucost" pricing - --lang ko --format json <<<"$krw")" "$("$gpucost" pricing - --format json <<<"$krw")" "pricing: JSON the same in Korean"
sweep_ko=$("$gpucost" sweep - --gpus --lang ko <<<"$krw")
contains "$sweep_ko" "GPU 수 스윕" "sweep --gpus: Korean title"
contains "$sweep_ko" "GPU 메모리에 들어가지 않음" "sweep: core's infeasible reason in Korean"
contains "$sweep_ko" "최저가" "sweep: the cheapest mark in Korean"
equals "$("$gpucost" sweep - --gpus --lang ko --format csv <<<"$krw")" "$("$gpucost" sweep - --gpus --format csv <<<"$krw")" "sweep: CSV keys and cells the same in Korean"
sens_ko=$("$gpucost" sensitivity - --lang ko <<<"$krw")
contains "$sens_ko" "완료된 작업당 예상 비용" "sensitivity: Korean title"
contains "$sens_ko" "변동 폭" "sensitivity: swing column"
mc_ko=$("$gpucost" mc - --trials 500 --lang ko <<<"$krw" 2>/dev/null)
contains "$mc_ko" "작업당 중단" "mc: interruptions line in Korean"
contains "$mc_ko" "해석해" "mc: closed-form column in Korean"
fleet_ko=$("$gpucost" fleet - --lang ko <<<'{"demand_gpus": [64, 64, 128, 128, 64, 64]}')
contains "$fleet_ko" "전부 온디맨드" "fleet: the all-on-demand column in Korean"
contains "$fleet_ko" "용량 위험과 참고 사항" "fleet: notes header in Korean"
contains "$fleet_ko" "버스트 중" "fleet: core's notes in Korean"
plan_ko=$("$gpucost" plan - --top 3 --lang ko 2>&1 <<<'{"workload": {"model": "llama-2-7b"}, "cluster": {"gpus": 16}, "parallel": {"global_batch": 256}}')
contains "$plan_ko" "레이아웃" "plan: Korean title"
contains "$plan_ko" "t 텐서, p 파이프라인" "plan: the legend in Korean"
inf_ko=$("$gpucost" eval preset:llama2-70b-chat-h100 --lang ko)
contains "$inf_ko" "요청당 비용" "inference eval: cost per request in Korean"
contains "$inf_ko" "출력 토큰 100만 개당 비용" "inference eval: per million output tokens"
contains "$inf_ko" "프리필과 디코드" "inference eval: the pool line in Korean"
val_ko=$("$gpucost" validate - --lang ko <<<'{"cluster": {"gpus": -1}}' 2>&1)
contains "$val_ko" "cluster.gpus: 허용 범위: 1부터 10,000,000까지의 정수. 입력값: -1" "validate: the field error in Korean, the path kept"
contains "$val_ko" "validate: 문제 1개" "validate: summary in Korean"
val_en=$("$gpucost" validate - <<<'{"cluster": {"gpus": -1}}' 2>&1)
contains "$val_en" "cluster.gpus: must be an integer from 1 to 10,000,000, got -1" "validate: English message unchanged"
err_ko=$("$gpucost" eval - --lang ko <<<'{"pricing": {"model": "free"}}' 2>&1)
contains "$err_ko" "알 수 없는 값 \"free\"" "eval: a bad enum named in Korean"
cmp_ko=$("$gpucost" compare "$dir/a.json" "$dir/b.json" --lang ko)
contains "$cmp_ko" "비교 (금액 단위" "compare: Korean title"
contains "$cmp_ko" "완료된 작업당 비용" "compare: the core table's rows in Korean (the ratio to the first column beside each cell, as the page draws it)"
iplan_ko=$("$gpucost" plan preset:llama2-70b-chat-h100 --lang ko)
contains "$iplan_ko" "목표를 충족하는 가장 저렴한 구성" "inference plan: Korean title"
contains "$iplan_ko" "요청당 비용이 최적의" "inference plan: core's verdicts in Korean"
cat_ko=$("$gpucost" catalog gpus --lang ko)
contains "$cat_ko" "GPU 카탈로그" "catalog: Korean title"
# Sensitivity bounds' reasons are codes (sens.bound.<path>): Korean in the table, the document the same bytes.
out=$("$gpucost" sensitivity preset:alpaca-7b-8xa100 --lang ko)
contains "$out" "공급자 간 정가와 협상 할인의 차이에 대한 가정" "sensitivity: the bounds' reasons in Korean"
not_contains "$out" "assumption for the spread" "sensitivity: no English reason left"
equals "$("$gpucost" sensitivity preset:alpaca-7b-8xa100 --format json --lang ko)" \
  "$("$gpucost" sensitivity preset:alpaca-7b-8xa100 --format json --lang en)" "sensitivity --format json: the same bytes in both languages"
finish
