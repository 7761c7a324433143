#!/usr/bin/env bash
# `gpucost --help` and every verb's --help in Korean (issue 27): the text comes from the string tables, and no
# English prose is left. Allowed: the usage syntax (the lines after "사용법:" up to the blank line), command and
# option names, field paths, file names, schemas, product names and units (the list below).
gpucost=$1; root=$2
source "$root/tests/cli/lib.sh"
# Each output is kept and read by one Python at the end (a Python per check was most of this test's time).
prose_dir=$(mktemp -d)
prose_n=0
no_english() {  # no_english TEXT LABEL
  prose_n=$((prose_n + 1))
  printf '%s' "$1" >"$prose_dir/$prose_n"
  printf '%s\n' "$2" >"$prose_dir/$prose_n.label"
}
check_no_english() {
  local files=() i name words read_back=0
  for ((i = 1; i <= prose_n; ++i)); do files+=("$prose_dir/$i"); done
  while IFS=$'\t' read -r name words; do
    equals "$words" "" "$(cat "$name.label")"
    read_back=$((read_back + 1))
  done < <(python3 "$root/tests/cli/english_words.py" "${files[@]}")
  equals "$read_back" "$prose_n" "every output was read for English prose ($prose_n)"
}
out=$("$gpucost" --help --lang ko)
contains "$out" "완료된 GPU 작업에 실제로 드는 비용" "gpucost --help --lang ko: the tagline in Korean"
no_english "$out" "gpucost --help --lang ko: no English prose"
for verb in eval plan mc sensitivity compare sweep link catalog validate pricing fleet probe log actual; do
  out=$("$gpucost" "$verb" --help --lang ko 2>&1)
  contains "$out" "옵션:" "$verb --help --lang ko: options heading in Korean"
  no_english "$out" "$verb --help --lang ko: no English prose"
  en=$("$gpucost" "$verb" --help --lang en 2>&1)
  contains "$en" "options:" "$verb --help in English still English"
done
contains "$("$gpucost" frobnicate --lang ko 2>&1)" "알 수 없는 명령 \"frobnicate\"" "an unknown command in Korean"
# Error paths of a scenario file in Korean (issue 27): a directory, a key given twice, a type error and an unknown
# key with an unknown GPU: the messages are keys of the tables, no English prose.
work=$(mktemp -d)
trap 'rm -rf "$work" "$prose_dir"' EXIT
printf '{"cluster": {"gpus": 8, "gpus": 16}}' >"$work/dup.json"
printf '{"cluster": {"gpus": "x", "gpu": "z100"}, "not_a_field": 1}' >"$work/bad.json"
# Validation errors of mixture-of-experts, fine-tuning and serving scenarios (these were English in Korean).
printf '{"workload": {"experts": 8, "dense_layers": 3}, "parallel": {"expert_parallel": 3}}' >"$work/moe.json"
printf '{"workload": {"finetune": "lora", "layers": 0}}' >"$work/lora.json"
printf '{"workload": {"kind": "inference", "model": "llama-3.1-8b"}, "inference": {"slo": {"percentile": 75}, "speculative": {"tokens_per_step": 4}, "autoscale": {"max_replicas": 2, "min_replicas": 3}, "prefix_cache_hit": 0.5}}' >"$work/serving.json"
for input in "$work" "$work/dup.json" "$work/bad.json" "$work/moe.json" "$work/lora.json" "$work/serving.json"; do
  for verb in eval validate; do
    out=$("$gpucost" "$verb" "$input" --lang ko 2>&1)
    no_english "$out" "$verb $(basename "$input") --lang ko: no English prose"
  done
done
# eval --probe with a report of another GPU: the warning in Korean (it was English once the matcher was gone).
warn=$("$gpucost" eval "$root/assets/presets/alpaca-7b-8xa100.json" --probe "$root/tests/data/probe_h100_8gpu.json" \
       --lang ko 2>&1 >/dev/null | grep '경고')
contains "$warn" "측정했지만" "eval --probe, another GPU: the warning in Korean"
no_english "$warn" "eval --probe, another GPU --lang ko: no English prose ($warn)"
# Usage and option errors of every verb in Korean (issue 27: these were English): each exits non-zero with a message
# from the tables and no English prose. The cases run one per line: a verb and its arguments.
chat="$root/assets/presets/llama2-70b-chat-h100.json"
train="$root/assets/presets/alpaca-7b-8xa100.json"
printf '{"cluster": {"gpu": "h100-sxm", "gpus": 8}}' >"$work/noshape.json"
printf '{"demand_gpus": [1, 2], "profile": {"months": 2}}' >"$work/fleet-both.json"
printf '{"profile": {"baseline_gpus": 8}, "commitments": [{"term_months": 12}]}' >"$work/fleet-missing.json"
printf '{"profile": {"months": 3}, "commitments": [{"discount": 2, "capacity_guaranteed": 1}]}' >"$work/fleet-range.json"
# An offer that lists no spot price, with spot (the offer's rules were English); probe reports that are not reports,
# or break a rule (the reader's and the range checks were English; a report is also what eval --probe reads).
printf '{"pricing": {"offer": "aws-p4d.24xlarge-us-east-1", "model": "spot"}}' >"$work/offer-spot.json"
printf '[1]' >"$work/probe-array.json"
sed 's/"median": 742.0/"median": -742.0/' "$root/tests/data/probe_h100_8gpu.json" >"$work/probe-range.json"
sed 's/"median": 742.0/"median": 7420.0/' "$root/tests/data/probe_h100_8gpu.json" >"$work/probe-beyond.json"
sed 's/"kind": "hbm_copy"/"kind": "hbm_cpy"/' "$root/tests/data/probe_h100_8gpu.json" >"$work/probe-kind.json"
while IFS= read -r line; do
  [ -z "$line" ] && continue
  eval "set -- $line"
  out=$("$gpucost" "$@" --lang ko 2>&1 >/dev/null); rc=$?
  equals "$([ "$rc" -ne 0 ] && echo failed)" "failed" "$line: refused"
  no_english "$out" "$line --lang ko: no English prose ($out)"
done <<CASES
eval "$train" --foo
eval "$train" --format
eval "$train" --format xml
eval "$train" --set nonsense
eval "$train" --set nonsense.field=1
eval "$train" --set pricing.whole_nodes=maybe
eval "$train" --set "pricing.usd_per_gpu_hour=3억"
eval "$train" --set cluster.gpus=70X
mc "$train" --trials 0
mc "$train" --seed x
mc "$train" --max-work 5
mc "$chat" --max-work 0
plan "$train" --objective fast
plan "$train" --top 0
plan "$work/noshape.json"
sweep "$train"
sweep "$train" --param nonsense --values 1
sweep "$train" --param cluster.gpus --values 1,x
sweep "$train" --param cluster.gpus --values 1,2 --budget 3
sweep "$train" --gpus --per-doubling 0
sweep "$train" --gpus --budget -1
sensitivity "$train" --percent 100
compare
compare --serving-options
compare --serving-options "$train"
link
link --decode "$train"
link --decode "https://x.org/#s=2.100.abc"
link --decode "https://x.org/#s=9.abc"
link --decode "https://x.org/#s=2.4.a*b!"
catalog foo
catalog gpus offers
fleet
fleet "$work/fleet-both.json"
fleet "$work/fleet-missing.json"
fleet "$work/fleet-range.json"
probe 42
spares "$chat"
spares
validate
pricing "$train" --offer nonsense
eval "$work/offer-spot.json"
eval "$train" --probe "$work/probe-array.json"
eval "$train" --probe "$work/probe-range.json"
eval "$train" --probe "$work/probe-beyond.json"
eval "$train" --probe "$work/probe-kind.json"
probe --skip-gpu --dataset "$work/none"
sweep "$train" --gpus --steps 3
sweep "$train" --param cluster.gpus --from x --to 3
sweep "$train" --param pricing.model --from 1 --to 3
CASES

check_no_english
finish
