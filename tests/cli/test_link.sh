#!/usr/bin/env bash
# gpucost link: encode, decode, exact round trip (files, presets, stdin, pinned), --base, errors.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
S=$root/tests/cli/scenarios

link=$("$gpucost" link "$S/llama3_405b.json" --base https://example.org/gpucost/); rc=$?
equals "$rc" 0 "encode a scenario"
[[ $link == "https://example.org/gpucost/#s=2."* ]] && pass "link starts with the base and #s=2." || fail "link: $link"
(( ${#link} < 150 )) && pass "the compact form is short (${#link} characters)" || fail "link of ${#link} characters"
default=$("$gpucost" link - <<<'{}')
[[ $default =~ ^#s=2\.12\.[A-Za-z0-9_-]{12}$ ]] && pass "the default scenario's link is 12 characters of data ($default)" || fail "default link: $default"
err=$("$gpucost" link --decode "${default:0:${#default}-3}" 2>&1 >/dev/null)
equals "$err" "gpucost: link: incomplete link: 9 of 12 characters (was it cut when copied?)" "a cut link says how much of it arrived"
bad="${default:0:10}$([[ ${default:10:1} == A ]] && echo B || echo A)${default:11}"
err=$("$gpucost" link --decode "$bad" 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "a link with one character changed is refused"
contains "$err" "checksum mismatch" "and says the checksum caught it"
expect_rc 0 "a link without the length (older links) still opens" -- "$gpucost" link --decode "#s=1.eyJzIjp7fX0"
note=$("$gpucost" link --decode "#s=1.11.eyJzIjp7fX0" 2>&1 >/dev/null)
contains "$note" "older, longer form" "an older link opens with a note"

# Round trip: file -> link -> JSON -> link gives the same link, and the decoded scenario evaluates identically.
for f in "$S"/*.json "$root"/assets/presets/*.json preset:llama2-70b-a100; do
  name=$(basename "$f")
  link=$("$gpucost" link "$f")
  json=$("$gpucost" link --decode "$link"); rc=$?
  equals "$rc" 0 "$name: decode"
  again=$("$gpucost" link - <<<"$json")
  equals "$again" "$link" "$name: link -> decode -> link is the same link"
  a=$("$gpucost" eval "$f" --format json); b=$("$gpucost" eval - --format json <<<"$json")
  [[ "$a" == "$b" ]] && pass "$name: the decoded scenario evaluates identically" || fail "$name: evaluations differ"
  full=$("$gpucost" link --decode "$link" --full)
  c=$("$gpucost" eval - --format json <<<"$full")
  [[ "$a" == "$c" ]] && pass "$name: --full decodes to the same scenario" || fail "$name: --full differs"
done

# Exact numbers survive: a value with 17 significant digits.
link=$("$gpucost" link - <<<'{"reliability": {"gpu_mtbf_hours": 50678.312345678912}, "name": "Ünïcode ✓"}')
json=$("$gpucost" link --decode "$link")
contains "$json" '50678.31234567891' "17-digit value survives the round trip"
contains "$json" '"name": "Ünïcode ✓"' "UTF-8 name survives the round trip"

# Pinned comparison scenarios.
link=$("$gpucost" link "$S/7b_spot.json" "$S/batch_tasks.json" "$S/7b_a100.json")
equals "$("$gpucost" link --decode "$link" --pinned 1 | "$gpucost" link -)" "$("$gpucost" link "$S/7b_a100.json")" "pinned scenario 1 decodes exactly"
expect_rc 2 "pinned index out of range" -- "$gpucost" link --decode "$link" --pinned 2
expect_rc 2 "pinned index not a number" -- "$gpucost" link --decode "$link" --pinned x
# A link from stdin, with whitespace a copy-paste adds; the full URL of a page with other parameters.
equals "$(printf '  %s\n\n' "$link" | "$gpucost" link --decode - | "$gpucost" link -)" "$("$gpucost" link "$S/7b_spot.json")" "link read from stdin"
expect_rc 0 "a URL with other fragment parameters" -- "$gpucost" link --decode "https://x.org/p?q=1#a=2&s=1.eyJzIjp7fX0&b=3"

expect_rc 2 "no file" -- "$gpucost" link
expect_rc 2 "stdin twice" -- "$gpucost" link - - <<<'{}'
expect_rc 2 "invalid scenario" -- "$gpucost" link "$root/tests/cli/bad_inputs/unknown_gpu.json"
expect_rc 1 "missing file" -- "$gpucost" link /nonexistent.json
expect_rc 2 "--base with spaces" -- "$gpucost" link "$S/7b_spot.json" --base "http://a b/"
expect_rc 2 "--decode with a file too" -- "$gpucost" link --decode "#s=1.eyJzIjp7fX0" "$S/7b_spot.json"
expect_rc 2 "--full without --decode" -- "$gpucost" link "$S/7b_spot.json" --full
expect_rc 2 "garbage link" -- "$gpucost" link --decode "not a link"
expect_rc 2 "empty link" -- "$gpucost" link --decode ""
expect_rc 0 "--help" -- "$gpucost" link --help
finish
