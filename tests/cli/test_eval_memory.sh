#!/usr/bin/env bash
# gpucost eval: memory per GPU (issue 4 contract), measured scaling points, batch-size effect.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

gpt3='"workload": {"params": 175e9, "tokens": 3e11, "layers": 96, "hidden": 12288, "heads": 96, "seq_len": 2048, "vocab": 51200}'
fits="{\"cluster\": {\"gpu\": \"a100-sxm-80gb\", \"gpus\": 64}, $gpt3,
       \"parallel\": {\"tensor_parallel\": 8, \"pipeline_parallel\": 8, \"sequence_parallel\": true, \"recompute\": \"selective\"}}"
json=$("$gpucost" eval - --format json <<<"$fits")
for key in '"model_states_gb"' '"activations_gb"' '"total_gb"' '"device_gb"' '"fits": true' '"headroom_gb"'; do
  contains "$json" "$key" "memory JSON has $key (GPT-3 175B, tensor 8 x pipeline 8)"
done
table=$("$gpucost" eval - <<<"$fits")
contains "$table" "Memory per GPU" "table shows memory per GPU"
contains "$table" ", fits" "table says it fits"

tight="{\"cluster\": {\"gpu\": \"a100-sxm-80gb\", \"gpus\": 64}, $gpt3,
        \"parallel\": {\"tensor_parallel\": 8, \"pipeline_parallel\": 2, \"recompute\": \"none\"}}"
json=$("$gpucost" eval - --format json <<<"$tight")
contains "$json" '"fits": false' "pipeline 2 without recompute does not fit"
contains "$json" '"smallest_fitting_layout"' "the smallest fitting layout is named"
contains "$json" '"memory_does_not_fit"' "warning code memory_does_not_fit"
table=$("$gpucost" eval - <<<"$tight")
contains "$table" "Smallest layout that fits" "table warning names the smallest layout that fits"

json=$("$gpucost" eval - --format json <<<'{"workload": {"params": 7e9}}')
contains "$json" '"activations_known": false' "params only: activations unknown"
not_contains "$json" "null" "params only: no null numbers"

points='{"cluster": {"gpus": 256}, "scaling": {"points": [{"gpus": 8, "tokens_per_second": 80000}, {"gpus": 64, "tokens_per_second": 600000}]}}'
json=$("$gpucost" eval - --format json <<<"$points")
contains "$json" '"mfu_source": "measured"' "MFU from measured points"
contains "$json" '"scaling_extrapolated"' "extrapolation beyond 64 GPUs warns"
expect_rc 2 "one measured point is refused" -- "$gpucost" eval - <<<'{"scaling": {"points": [{"gpus": 8, "tokens_per_second": 80000}]}}'
err=$("$gpucost" eval - 2>&1 >/dev/null <<<'{"scaling": {"points": [{"gpus": 8, "tokens_per_second": 1}, {"gpus": -2, "tokens_per_second": 1}]}}')
contains "$err" "scaling.points[1].gpus" "error names scaling.points[1].gpus"

json=$("$gpucost" eval - --format json <<<'{"workload": {"seq_len": 4096}, "parallel": {"global_batch": 1024, "critical_batch_tokens": 4194304}}')
contains "$json" '"batch_size_token_factor": 2.0' "batch of B_noise tokens doubles the tokens needed"
# Memory is GiB wherever it is shown (2026-12-07: the serving table said "34.49 GB" of weights and "40.72 GB per GPU"
# of KV cache beside the training table's GiB): the table's figures are the JSON's bytes over 2^30, worked here.
serving=$(cat "$root/assets/presets/llama2-70b-chat-h100.json")
json=$("$gpucost" eval - --format json <<<"$serving")
table=$("$gpucost" eval - <<<"$serving")
weights=$(python3 -c 'import json,sys; print("%.4g GiB" % (json.load(sys.stdin)["inference"]["weights_gb_per_gpu"] * 1e9 / 2**30))' <<<"$json")
kv=$(python3 -c 'import json,sys; print("%.4g GiB per GPU" % (json.load(sys.stdin)["inference"]["decode"]["kv_gb_per_gpu"] * 1e9 / 2**30))' <<<"$json")
contains "$table" "$weights" "serving weights per GPU in GiB ($weights)"
contains "$table" "$kv" "serving KV cache per GPU in GiB ($kv)"
not_contains "$table" " GB" "the serving table writes no decimal GB"
sweep=$("$gpucost" sweep - --gpus --from 64 --to 128 <<<"$fits")
contains "$sweep" "memory GiB" "the sweep's memory column is in GiB"
finish
