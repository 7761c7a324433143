#!/usr/bin/env bash
# gpucost eval: formats, stdin, exit codes and one-line errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

expect_rc 0 "eval of an empty scenario (all defaults)" -- "$gpucost" eval - <<<'{}'
expect_rc 0 "eval --format json" -- "$gpucost" eval - --format json <<<'{"cluster": {"gpus": 128}}'
json=$("$gpucost" eval - --format json <<<'{"cluster": {"gpus": 128}}')
for key in '"ideal_hours"' '"expected_hours"' '"billed"' '"goodput"' '"expected_interruptions"' \
           '"checkpoint_interval_minutes"' '"optimal_checkpoint_interval_minutes"' '"normal_run_usd"' \
           '"expected_usd"' '"breakdown"'; do
  contains "$json" "$key" "result JSON has $key"
done
not_contains "$json" "NaN" "no NaN in the result"
not_contains "$json" "null" "no null (non-finite) numbers in the result"
csv=$("$gpucost" eval - --format csv <<<'{}')
contains "$csv" "cost.expected_usd," "CSV has cost.expected_usd"

expect_rc 2 "invalid value" -- "$gpucost" eval - <<<'{"cluster": {"gpus": 0}}'
err=$("$gpucost" eval - 2>&1 >/dev/null <<<'{"cluster": {"gpus": 0}}')
equals "$err" "gpucost: <stdin>: cluster.gpus: must be an integer from 1 to 10,000,000, got 0" "one-line error names file, path, range"
expect_rc 1 "missing file" -- "$gpucost" eval /nonexistent/scenario.json
expect_rc 2 "no file given" -- "$gpucost" eval
expect_rc 2 "unknown format" -- "$gpucost" eval - --format xml <<<'{}'
expect_rc 0 "eval --help" -- "$gpucost" eval --help
expect_rc 0 "--version" -- "$gpucost" --version
expect_rc 0 "--help" -- "$gpucost" --help
expect_rc 2 "unknown command" -- "$gpucost" frobnicate
# One formatter: no leading blank line, no trailing blanks in the table, separators from four digits.
table=$("$gpucost" eval "$root/tests/cli/scenarios/7b_spot.json")
second=$(sed -n 2p <<<"$table")
contains "$second" "Cost per completed job" "the eval table starts right under its title (no line of blanks)"
trailing=$(grep -c ' $' <<<"$table" || true)
equals "$trailing" "0" "and no trailing blanks"
contains "$table" '$6,295' "four-digit money has a separator"
finish
