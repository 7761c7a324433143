#!/usr/bin/env bash
# gpucost validate: every problem, one per line; ok and warnings for valid scenarios; exit codes.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios
B=$root/tests/cli/bad_inputs

out=$("$gpucost" validate "$S"/*.json "$root"/assets/presets/*.json preset:alpaca-7b-8xa100); rc=$?
equals "$rc" 0 "sample scenarios and presets are valid"
equals "$(grep -c ': ok$' <<<"$out")" "$(($(ls "$S"/*.json "$root"/assets/presets/*.json | wc -l) + 1))" "one ok line per file"
out=$("$gpucost" validate - <<<'{"cluster": {"mfu": 0.9}}')
contains "$out" "<stdin>: warning: MFU 90%" "warnings are listed for a valid scenario"

out=$("$gpucost" validate - 2>"${TMPDIR:-/tmp}/validate_err.$$" <<<'{"cluster": {"gpus": 0, "gpu": "nope"}, "workload": {"tokens": -1, "precision": "fp4"}}'); rc=$?
err=$(cat "${TMPDIR:-/tmp}/validate_err.$$"); rm -f "${TMPDIR:-/tmp}/validate_err.$$"
equals "$rc" 2 "invalid: exit 2"
equals "$(wc -l <<<"$out")" 4 "four problems, one per line"
contains "$out" "<stdin>: cluster.gpus: must be an integer from 1 to 10,000,000, got 0" "range problem"
contains "$out" '<stdin>: cluster.gpu: unknown GPU "nope"' "catalog problem found next to field problems"
contains "$out" "<stdin>: workload.tokens: must be a number > 0" "second range problem"
contains "$out" '<stdin>: workload.precision: unknown value "fp4"' "enum problem"
equals "$err" "gpucost: validate: 4 problems in 1 of 1 file" "one summary line on stderr"

out=$("$gpucost" validate "$S/7b_spot.json" "$B/zero_gpus.json" --format json 2>/dev/null); rc=$?
equals "$rc" 2 "a mix: exit 2"
contains "$out" '"ok": true' "JSON: the valid file"
contains "$out" '"path": "cluster.gpus"' "JSON: the problem's path"
out=$("$gpucost" validate "$S/7b_spot.json" /nonexistent.json 2>/dev/null); rc=$?
equals "$rc" 1 "an unreadable file: exit 1"
contains "$out" "/nonexistent.json: cannot open" "the unreadable file is listed"
expect_rc 2 "unknown preset" -- "$gpucost" validate preset:nope
expect_rc 2 "preset file with a bad scenario" -- "$gpucost" validate - <<<'{"preset": {"id": "x"}, "scenario": {"cluster": {"gpus": -1}}}'
out=$("$gpucost" validate - 2>/dev/null <<<'{"preset": {"id": "x"}, "scenario": {"cluster": {"gpus": -1}}}')
contains "$out" "scenario.cluster.gpus" "preset file problems are under scenario."
expect_rc 2 "no file" -- "$gpucost" validate
out=$("$gpucost" validate --help)
contains "$out" "pricing.spot.preemptions_per_node_day" "--help lists the schema"
finish
