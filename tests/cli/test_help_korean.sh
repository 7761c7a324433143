#!/usr/bin/env bash
# `gpucost --help` and every verb's --help in Korean (issue 27): the text comes from the string tables, and no
# English prose is left. Allowed: the usage syntax (the lines after "사용법:" up to the blank line), command and
# option names, field paths, file names, schemas, product names and units (the list below).
gpucost=$1; root=$2
source "$root/tests/cli/lib.sh"
english_words() { python3 "$root/tests/cli/english_words.py"; }
out=$("$gpucost" --help --lang ko)
contains "$out" "완료된 GPU 작업에 실제로 드는 비용" "gpucost --help --lang ko: the tagline in Korean"
equals "$(english_words <<<"$out")" "" "gpucost --help --lang ko: no English prose"
for verb in eval plan mc sensitivity compare sweep link catalog validate pricing fleet probe; do
  out=$("$gpucost" "$verb" --help --lang ko 2>&1)
  contains "$out" "옵션:" "$verb --help --lang ko: options heading in Korean"
  equals "$(english_words <<<"$out")" "" "$verb --help --lang ko: no English prose"
  en=$("$gpucost" "$verb" --help --lang en 2>&1)
  contains "$en" "options:" "$verb --help in English still English"
done
contains "$("$gpucost" frobnicate --lang ko 2>&1)" "알 수 없는 명령 \"frobnicate\"" "an unknown command in Korean"
# Error paths of a scenario file in Korean (issue 27): a directory, a key given twice, a type error and an unknown
# key with an unknown GPU: the messages are keys of the tables, no English prose.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '{"cluster": {"gpus": 8, "gpus": 16}}' >"$work/dup.json"
printf '{"cluster": {"gpus": "x", "gpu": "z100"}, "not_a_field": 1}' >"$work/bad.json"
for input in "$work" "$work/dup.json" "$work/bad.json"; do
  for verb in eval validate; do
    out=$("$gpucost" "$verb" "$input" --lang ko 2>&1)
    equals "$(english_words <<<"$out")" "" "$verb $(basename "$input") --lang ko: no English prose"
  done
done
finish
