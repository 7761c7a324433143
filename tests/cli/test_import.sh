#!/usr/bin/env bash
# A scenario argument that is no scenario is named for what it is, with what to do, in the reader's language
# (issue 27): a result, a comparison, a probe report, a CSV export, empty text, binary junk; a share link in a
# file opens as its scenario; a scenario with errors lists them. All exit 2 (invalid input) except the link.
gpucost=$1; root=$2
source "$root/tests/cli/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$gpucost" eval preset:alpaca-7b-8xa100 --format json >"$tmp/result.json"
out=$("$gpucost" eval "$tmp/result.json" 2>&1)
contains "$out" "this is a result document (gpucost/result@1), not a scenario" "a result document is named as one"
contains "$out" "Open the link it came from, or import the scenario file." "and says what to do"
not_contains "$out" "unknown key" "not the parser's unknown-key message"
expect_rc 2 "a result as a scenario exits 2" -- "$gpucost" eval "$tmp/result.json"
ko=$("$gpucost" eval "$tmp/result.json" --lang ko 2>&1)
contains "$ko" "결과 문서(gpucost/result@1)이며 시나리오가 아닙니다" "in Korean with --lang ko"

"$gpucost" compare preset:alpaca-7b-8xa100 preset:llama2-70b-a100 --format json >"$tmp/compare.json"
contains "$("$gpucost" eval "$tmp/compare.json" 2>&1)" "a comparison document (gpucost/compare@1)" "a comparison"
"$gpucost" compare preset:alpaca-7b-8xa100 preset:llama2-70b-a100 --format csv >"$tmp/compare.csv"
contains "$("$gpucost" validate "$tmp/compare.csv" 2>&1)" "a CSV table, not a scenario" "a CSV export (validate)"
contains "$("$gpucost" eval "$root/tests/data/probe_h100_8gpu.json" 2>&1)" "a probe report, not a scenario: pass it with --probe" \
  "a probe report points to --probe"
contains "$("$gpucost" eval - </dev/null 2>&1)" "an empty text: nothing to open" "empty input"
head -c 64 /dev/urandom | LC_ALL=C tr -d '\n' >"$tmp/junk.bin"; printf '\0' >>"$tmp/junk.bin"
contains "$("$gpucost" eval "$tmp/junk.bin" 2>&1)" "not text (binary data)" "binary junk"
expect_rc 2 "binary junk exits 2" -- "$gpucost" eval "$tmp/junk.bin"

# A share link in a file opens as the scenario it carries: the same cost as the preset it was made from.
"$gpucost" link preset:alpaca-7b-8xa100 >"$tmp/link.txt"
equals "$("$gpucost" eval "$tmp/link.txt" --format json)" "$("$gpucost" eval preset:alpaca-7b-8xa100 --format json)" \
  "a share link opens as its scenario (same result document as the preset)"
printf '#s=1.999.eyJz\n' >"$tmp/cut.txt"
contains "$("$gpucost" eval "$tmp/cut.txt" 2>&1)" "incomplete link" "a cut link says it was cut"
expect_rc 2 "a cut link exits 2" -- "$gpucost" eval "$tmp/cut.txt"

# A scenario with errors: every problem, by path.
out=$("$gpucost" validate - <<<'{"cluster": {"gpus": 0, "gpu": "h100-sxm"}, "workload": {"tokens": -1}}' 2>&1)
contains "$out" "cluster.gpus" "a scenario with errors names the first field"
contains "$out" "workload.tokens" "and the second"
finish
