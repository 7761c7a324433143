#!/usr/bin/env bash
# gpucost catalog: GPUs, offers, presets and fields, with sources, in every format.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

out=$("$gpucost" catalog); rc=$?
equals "$rc" 0 "catalog (GPUs by default)"
contains "$out" "h100-sxm" "H100 listed"
contains "$out" "989.4" "H100 dense BF16 peak (not the sparse 1979)"
contains "$out" "Sources" "sources are printed"
contains "$out" "datasheet" "a datasheet is cited"
n_assets=$(grep -c '"id":' "$root/assets/gpus.json")
csv=$("$gpucost" catalog gpus --format csv)
equals "$(($(wc -l <<<"$csv") - 1))" "$n_assets" "CSV has one row per GPU of assets/gpus.json"
contains "$("$gpucost" catalog gpus --format json)" '"source":' "JSON has sources"

out=$("$gpucost" catalog offers)
contains "$out" "aws-p5.48xlarge-us-east-1" "an offer is listed"
contains "$out" "https://aws.amazon.com/ec2/pricing/on-demand/" "the offer's source"
json=$("$gpucost" catalog offers --format json)
contains "$json" '"date":' "offers carry dates"
expect_rc 0 "offers CSV" -- "$gpucost" catalog offers --format csv
contains "$out" "aws-p5.48xlarge-us-east-1: billed in 1 s increments, minimum 60 s, whole instances of 8 GPUs" \
  "the table gives each offer's billing rule"
contains "$out" "azure-nd96isr-h100-v5-eastus: billed in 1 s increments, minimum not confirmed" "an unconfirmed minimum says so"
contains "$json" '"minimum_billed_seconds": null' "an unconfirmed figure is null in JSON, not invented"
contains "$json" '"billing_increment_seconds": 60.0' "per-minute billing in JSON (Lambda, CoreWeave)"
csv=$("$gpucost" catalog offers --format csv)
contains "$csv" "billing_increment_seconds,minimum_billed_seconds,billing_source,billing_date" "CSV billing columns"
priced=$("$gpucost" pricing - --offer azure-nd96isr-h100-v5-eastus <<<'{"pricing": {"minimum_billed_seconds": 300}}')
contains "$priced" "Offer azure-nd96isr-h100-v5-eastus: \$12.29/GPU-hour before tax (2026-11-09); billed in 1 s increments, minimum not confirmed (kept 300 s), whole instances of 8 GPUs" \
  "pricing --offer says what it filled and what it kept"
pjson=$("$gpucost" pricing - --offer lambda-8x-h100-sxm --format json <<<'{}')
contains "$pjson" '"rule": "lambda-on-demand"' "the pricing document names the offer's billing rule"

out=$("$gpucost" catalog presets)
for p in "$root"/assets/presets/*.json; do contains "$out" "$(basename "$p" .json)" "preset $(basename "$p" .json) listed"; done
contains "$out" "source:" "presets cite their sources"

out=$("$gpucost" catalog fields)
contains "$out" "reliability.gpu_mtbf_hours" "fields listed"
contains "$out" "Dubey et al. 2024" "a default's source is shown"
json=$("$gpucost" catalog fields --format json)
equals "$(grep -c '"path":' <<<"$json")" "$(grep -c '^  {"' "$root/core/scenario/fields.cpp")" "every field of the table is listed"
expect_rc 0 "fields CSV" -- "$gpucost" catalog fields --format csv
for what in gpus offers presets fields models; do
  for fmt in table json csv; do
    o=$("$gpucost" catalog $what --format $fmt)
    grep -qiE '(^|[^a-z])(nan|infinity)([^a-z]|$)' <<<"$o" && fail "catalog $what $fmt: NaN" || pass "catalog $what $fmt: no NaN"
  done
done

# Models by name (issue 18): every model of assets/models.json, with its source, in every format.
out=$("$gpucost" catalog models); rc=$?
equals "$rc" 0 "catalog models"
for id in llama-2-7b llama-3.1-405b mixtral-8x7b deepseek-v3 gemma-2-27b bloom-176b; do contains "$out" "$id" "model $id listed"; done
contains "$out" "huggingface.co/meta-llama/Llama-3.1-405B" "a model's config is cited"
n_models=$(grep -c '"id":' "$root/assets/models.json")
csv=$("$gpucost" catalog models --format csv)
equals "$(($(wc -l <<<"$csv") - 1))" "$n_models" "CSV has one row per model of assets/models.json"
json=$("$gpucost" catalog models --format json)
equals "$(grep -c '"shape_params":' <<<"$json")" "$n_models" "JSON gives each model's shape-implied count"
contains "$json" '"active_params": 12900000000' "Mixtral's active parameters"
expect_rc 2 "unknown list" -- "$gpucost" catalog tpus
expect_rc 2 "two lists" -- "$gpucost" catalog gpus fields
expect_rc 2 "unknown format" -- "$gpucost" catalog --format yaml
expect_rc 0 "--help" -- "$gpucost" catalog --help

# --- catalog evidence (issue 26): every validation run, in-sample and held out; the nearest runs to a scenario.
# Each call refits the constants without each source in turn (~1.3 s natively, ~40 s under ASan): three calls cover
# the whole document, the nearest runs of a training and of a serving scenario, and the table (CI time).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo '{"cluster": {"gpu": "a100-sxm-80gb", "gpus": 512, "framework": "megatron"}, "workload": {"params": 40e9}}' >"$tmp/s.json"
ev=$("$gpucost" catalog evidence "$tmp/s.json" --format json); rc=$?
equals "$rc" 0 "catalog evidence SCENARIO --format json: exit 0"
runs=$(python3 -c 'import json, sys; d = json.load(sys.stdin); print(len(d["training"]["runs"]) + len(d["serving"]["runs"]))' <<<"$ev")
want=$(grep -c '"id":' "$root/assets/validation/measured_runs.json")
serving=$(grep -c '"id":' "$root/assets/validation/serving_runs.json")
equals "$runs" "$((want + serving))" "evidence lists every training and serving run of the data files (none dropped)"
for key in '"in_sample_mean_abs_error"' '"held_out_mean_abs_error"' '"fit_without"' '"kernel_efficiency"' '"cause"'; do
  contains "$ev" "$key" "evidence JSON has $key"
done
contains "$ev" '"nearest_runs"' "evidence for a scenario: its nearest runs"
contains "$ev" '"error_band"' "evidence for a scenario: the error band there"
contains "$ev" '"id": "narayanan-39.1b-512"' "the nearest run to 40B on 512 A100 under Megatron-LM is Narayanan's 39.1B on 512"
# A serving scenario: its nearest serving measurements (same GPU, model size, TP), and the same in the table.
chat="$root/assets/presets/coding-assistant-llama31-70b-h100.json"
near=$("$gpucost" catalog evidence "$chat" --format json)
contains "$near" '"kind": "inference"' "evidence for a serving scenario says so"
contains "$near" '"nearest_serving_runs"' "evidence for a serving scenario: its nearest serving measurements"
contains "$near" '"id": "nim-llama33-70b-5000-500-c1-itl"' "the nearest to Llama 3.1 70B on H100 is NIM's Llama 3.3 70B on H100"
table=$("$gpucost" catalog evidence "$chat")
contains "$table" "held out" "the evidence table has the held-out column"
contains "$table" "llmfoundry-13b-h100-64" "the evidence table lists the llm-foundry runs"
contains "$table" "Nearest serving measurements" "the table names the nearest serving measurements"
echo '{"cluster": {"gpus": -1}}' >"$tmp/bad.json"
expect_rc 2 "evidence with an invalid scenario: exit 2" -- "$gpucost" catalog evidence "$tmp/bad.json"
expect_rc 1 "evidence with a missing scenario file: exit 1" -- "$gpucost" catalog evidence "$tmp/none.json"
expect_rc 2 "evidence with two scenarios" -- "$gpucost" catalog evidence "$tmp/s.json" "$tmp/s.json"
finish
