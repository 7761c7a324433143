#!/usr/bin/env bash
# Domestic clouds in `gpucost catalog offers` (price by quote, facts with sources) and the quote asked for before
# a price-by-quote offer is priced (gpucost pricing --offer ... --quote, gpucost eval of an unpriced scenario).
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

table=$("$gpucost" catalog offers)
for id in kt-cloud-ai-nexus-h200 ncp-gpu-server-h200 kakao-cloud-gpu-b200 nhn-cloud-gpu-b200 samsung-sds-scp-gpu-server-h100; do
  contains "$table" "$id" "catalog offers lists $id"
done
contains "$table" "price by quote" "quote offers say 'price by quote' instead of a price"
contains "$table" "stopped_billing: Active: billed. Stopped: billed" "Kakao's stopped-instance billing with its source"
contains "$table" "https://docs.kakaocloud.com/en/service/bcs/gpu/gpu-main" "facts name their source"
ko=$("$gpucost" catalog offers --lang ko)
contains "$ko" "stopped_billing: Active: 과금. Stopped: 과금(자원 할당 유지)" "in Korean, Kakao's facts in Korean, the source kept"
contains "$ko" "stopped_billing: 중지: 90일 동안 홈페이지 요금의 90% 할인" "NHN Cloud's stopped-instance billing in Korean"
contains "$ko" "공개 가격을 확인할 수 없음: NHN Cloud에 견적을 문의하세요" "the offer's note in Korean"
equals "$("$gpucost" catalog offers --format json --lang ko)" "$("$gpucost" catalog offers --format json --lang en)" \
  "catalog offers --format json is the same bytes in Korean and English"
equals "$("$gpucost" pricing preset:alpaca-7b-8xa100 --offer aws-p5.48xlarge-ap-northeast-2 --format json --lang ko)" \
  "$("$gpucost" pricing preset:alpaca-7b-8xa100 --offer aws-p5.48xlarge-ap-northeast-2 --format json --lang en)" \
  "pricing --offer --format json (the offer's billing text included) is the same bytes in Korean and English"
json=$("$gpucost" catalog offers --format json)
python3 - "$json" <<'PY' && pass "JSON: quote offers have a null price, price_by_quote true, dated sourced facts" || fail "JSON quote offers"
import json, sys
offers = {o["id"]: o for o in json.loads(sys.argv[1])}
kt = offers["kt-cloud-ai-nexus-h200"]
assert kt["price_by_quote"] is True and kt["usd_per_gpu_hour"] is None and kt["usd_per_instance_hour"] is None
assert kt["tax_rate"] == 0.1
assert all(f["source"] and f["date"] and f["value"] for o in offers.values() for f in o["facts"])
assert offers["aws-p5.48xlarge-ap-northeast-2"]["price_by_quote"] is False
PY
csv=$("$gpucost" catalog offers --format csv)
contains "$csv" "price_by_quote" "CSV has the price_by_quote column"

asked=$("$gpucost" pricing - --offer kakao-cloud-gpu-b200 <<<'{}' 2>&1)
contains "$asked" "Kakao Cloud (GPU instance, B200 (8 per node)) is priced by quote" "pricing --offer of a quote offer asks for the quote"
expect_rc 2 "pricing of a quote offer without --quote exits 2" -- "$gpucost" pricing - --offer kakao-cloud-gpu-b200 <<<'{}'
priced=$("$gpucost" pricing - --offer kakao-cloud-gpu-b200 --quote '₩9,500' --format json <<<'{"pricing": {"krw_per_usd": 1400}}' 2>/dev/null)
python3 - "$priced" <<'PY' && pass "with --quote ₩9,500 the on-demand price is 9,500 / 1,400 USD per GPU-hour" || fail "quoted price not used"
import json, sys
d = json.loads(sys.argv[1])
od = [m for m in d["models"] if m["model"] == "on_demand"][0]
assert abs(od["usd_per_gpu_hour"] - 9500 / 1400) < 1e-9, od
PY
unpriced=$("$gpucost" eval - <<<'{"pricing": {"offer": "ncp-gpu-server-h200"}}')
contains "$unpriced" "priced by quote" "eval of a scenario naming a quote offer without a price says why"
contains "$unpriced" "Not priced: price by quote" "and prints no cost"
blocking=$("$gpucost" eval - --format json <<<'{"pricing": {"offer": "ncp-gpu-server-h200"}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["blocking"]["code"])')
equals "$blocking" "price_by_quote" "eval JSON: blocking.code = price_by_quote"
finish
