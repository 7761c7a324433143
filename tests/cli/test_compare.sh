#!/usr/bin/env bash
# gpucost compare: side-by-side table, marks, ratios, formats, presets, stdin, errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios
no_non_finite() { grep -qiE '(^|[^a-z])(nan|inf|infinity)([^a-z]|$)' <<<"$1" && fail "$2: NaN or infinity" || pass "$2: finite"; }

out=$("$gpucost" compare "$S/7b_spot.json" "$S/batch_tasks.json" "$S/llama3_405b.json"); rc=$?
equals "$rc" 0 "compare three scenarios"
contains "$out" "7B on spot H100" "columns are labelled by scenario name"
contains "$out" "Best" "best row"
contains "$out" "cheapest" "the cheapest is marked"
contains "$out" "fastest" "the fastest is marked"
contains "$out" "Productive compute" "where the money goes"
no_non_finite "$out" "compare table"

# CSV (core/documents/compare_csv.h, the page's export too): UTF-8 with a BOM, one column per scenario headed by its name,
# one row per item; the marks and ratios agree with the figures, supply + VAT = total.
csv=$("$gpucost" compare "$S/7b_spot.json" "$S/llama3_405b.json" "$S/batch_tasks.json" --format csv | tr -d '\r')
equals "$(head -c 3 <<<"$csv" | od -An -tx1 | tr -d ' ')" "efbbbf" "CSV: starts with the UTF-8 byte-order mark"
row() { awk -F, -v k="$1" '$1==k {print; exit}' <<<"$csv"; }
contains "$(head -1 <<<"$csv")" "7B on spot H100" "CSV: the columns are headed by the scenarios' names"
read -r c1 c2 c3 < <(row cost.total | awk -F, '{print $4, $5, $6}')
cheapest=$(row cheapest | awk -F, '{for (i = 4; i <= NF; i++) if ($i == "true") print i - 3}')
want=$(awk -v a="$c1" -v b="$c2" -v c="$c3" 'BEGIN {m=a; i=1; if (b<m) {m=b; i=2}; if (c<m) {m=c; i=3}; print i}')
equals "$cheapest" "$want" "CSV: the cheapest mark is on the lowest total"
ratio=$(row cost_vs_first | awk -F, '{print $5}')
equals "$(awk -v r="$ratio" -v a="$c1" -v b="$c2" 'BEGIN {d = r / (b / a) - 1; print (d < 1e-5 && d > -1e-5) ? "ok" : d}')" "ok" "CSV: cost_vs_first = total / first's (to the cent)"
equals "$(row cost_vs_first | awk -F, '{print $4}')" "1.0" "CSV: the first scenario's ratio is 1"
for k in currency cost.supply cost.vat cost.total cost.term_after_job pricing.krw_per_usd pricing.krw_per_usd_date pricing.offer offer.date; do
  [[ -n $(row "$k") ]] && pass "CSV row $k" || fail "CSV row $k missing"
done
contains "$csv" "sheet." "CSV: the provider sheet rows travel with it"
no_non_finite "$csv" "compare csv"
# VAT: a KRW quote with 10% VAT splits into supply + VAT = total, in whole won.
krw=$("$gpucost" compare - --format csv <<<'{"name": "KRW job", "pricing": {"currency": "KRW", "krw_per_usd": 1380, "krw_per_usd_date": "2026-11-30", "tax_rate": 0.1}}' | tr -d '\r')
supply=$(awk -F, '$1=="cost.supply" {print $4}' <<<"$krw"); vat=$(awk -F, '$1=="cost.vat" {print $4}' <<<"$krw"); total=$(awk -F, '$1=="cost.total" {print $4}' <<<"$krw")
[[ $supply =~ ^[0-9]+$ && $vat =~ ^[0-9]+$ ]] && pass "CSV: KRW in whole won ($supply + $vat)" || fail "CSV: KRW amounts $supply $vat"
equals "$(awk -v s="$supply" -v t="$total" 'BEGIN {d = s * 1.1 - t; print (d < 2 && d > -2) ? "ok" : d}')" "ok" "CSV: supply x 1.1 = total (10% VAT)"
equals "$(awk -v s="$supply" -v v="$vat" -v t="$total" 'BEGIN {d = s + v - t; print (d <= 1 && d >= -1) ? "ok" : d}')" "ok" "CSV: supply + VAT = total (to the won)"
equals "$(awk -F, '$1=="pricing.krw_per_usd_date" {print $4}' <<<"$krw")" "2026-11-30" "CSV: the exchange rate's date"

json=$("$gpucost" compare "$S/7b_spot.json" - --format json <<<'{"cluster": {"gpus": 128}}')
contains "$json" '"schema": "gpucost/compare@1"' "JSON schema"
contains "$json" '"file": "<stdin>"' "stdin is a scenario"
contains "$json" '"cost_vs_first"' "JSON ratios"
# No non-finite figure: the only nulls are the table's "no figure" cells, the first column's ratio to itself here.
nulls=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
table = d.pop("table")
out = [json.dumps(d).count("null")]
out.append(sum(v is None for row in table for v in row["values"]))
out.append(sum(v is None for row in table for v in row["vs_first"][1:]))
out.append(all(row["vs_first"][0] is None for row in table))
out.append(table[0]["key"] == "eval.cost_per_job" and table[0]["marked"] == d["cheapest"])
print(*out)' <<<"$json")
[[ $nulls == "0 0 0 True True" ]] && pass "JSON: no non-finite figures; the table marks the cheapest ($nulls)" || fail "JSON nulls or table: $nulls"

# Presets: every embedded preset, by file and by id.
for p in "$root"/assets/presets/*.json; do
  id=$(basename "$p" .json)
  expect_rc 0 "compare preset file $id with preset:$id" -- "$gpucost" compare "$p" "preset:$id"
  row=$("$gpucost" compare "$p" "preset:$id" --format json | grep -o '"cost_vs_first": [0-9.e+-]*' | tail -1)
  row=${row#*: }
  equals "$row" "1.0" "preset file and preset:$id give the same cost"
done

expect_rc 2 "no scenarios" -- "$gpucost" compare
expect_rc 2 "stdin twice" -- "$gpucost" compare - - <<<'{}'
expect_rc 2 "an invalid scenario among them" -- "$gpucost" compare "$S/7b_spot.json" "$root/tests/cli/bad_inputs/zero_gpus.json"
err=$("$gpucost" compare "$S/7b_spot.json" "$root/tests/cli/bad_inputs/zero_gpus.json" 2>&1 >/dev/null)
contains "$err" "zero_gpus.json: cluster.gpus: must be an integer from 1 to 10,000,000, got 0" "names the file and path"
expect_rc 1 "a missing file" -- "$gpucost" compare "$S/7b_spot.json" /nonexistent.json
expect_rc 2 "format xml" -- "$gpucost" compare "$S/7b_spot.json" --format xml
expect_rc 2 "unknown option" -- "$gpucost" compare "$S/7b_spot.json" --frobnicate
expect_rc 0 "--help" -- "$gpucost" compare --help
finish
