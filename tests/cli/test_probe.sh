#!/usr/bin/env bash
# gpucost probe and eval --probe: storage measurements on a temp dir, the no-GPU path (the real CUDA binary
# when it was built, a missing one, a crashing one), merging a GPU report, and importing reports.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
fixture=$root/tests/data/probe_h100_8gpu.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data/sub" "$tmp/ckpt" "$tmp/empty"
head -c 3000000 /dev/urandom >"$tmp/data/a.bin"; head -c 1000000 /dev/urandom >"$tmp/data/sub/b.bin"
lines() { [[ -z $1 ]] && echo 0 || printf '%s\n' "$1" | wc -l; }

# --- help and invalid arguments
help=$("$gpucost" probe --help); contains "$help" "exit code is 3" "--help documents the no-GPU exit code"
expect_rc 2 "--max-gb 0" -- "$gpucost" probe --skip-gpu --checkpoint-dir "$tmp/ckpt" --max-gb 0
expect_rc 2 "--max-gb not a number" -- "$gpucost" probe --skip-gpu --checkpoint-dir "$tmp/ckpt" --max-gb lots
expect_rc 2 "--dataset not a directory" -- "$gpucost" probe --skip-gpu --dataset "$tmp/nope"
expect_rc 2 "--skip-gpu with nothing to measure" -- "$gpucost" probe --skip-gpu
err=$("$gpucost" probe --skip-gpu --dataset "$tmp/empty" 2>&1 >/dev/null); rc=$?
equals "$rc" 1 "empty dataset directory: exit 1"
contains "$err" "no data to read" "empty dataset directory: says why"

# --- storage only (--skip-gpu): exit 0, temporary file removed, report imports
"$gpucost" probe --skip-gpu --dataset "$tmp/data" --checkpoint-dir "$tmp/ckpt" --max-gb 0.002 \
  --out "$tmp/storage.json" >"$tmp/summary.txt"; rc=$?
equals "$rc" 0 "storage-only probe: exit 0"
report=$(cat "$tmp/storage.json")
contains "$report" '"schema": "gpucost/probe@1"' "report has the schema"
contains "$report" '"gpu_status": "skipped"' "report says the GPU was skipped"
contains "$report" '"kind": "dataset_read"' "report has the dataset read"
contains "$report" '"kind": "checkpoint_write"' "report has the checkpoint write"
contains "$report" '"bytes": 2000000.0' "dataset read bounded by --max-gb"
contains "$(cat "$tmp/summary.txt")" "checkpoint write time" "summary shows the scenario's checkpoint write time"
equals "$(ls -A "$tmp/ckpt")" "" "checkpoint directory left empty"
err=$("$gpucost" eval - --probe "$tmp/storage.json" 2>&1 >/dev/null <<<'{}'); rc=$?
equals "$rc" 0 "eval --probe with the storage report: exit 0"
contains "$err" "storage.read_gbps = " "eval names the fields it set"

# --- no GPU: no GPU binary at all (gpucost built without CUDA)
err=$(GPUCOST_PROBE_GPU=$tmp/missing "$gpucost" probe --checkpoint-dir "$tmp/ckpt" --max-gb 0.001 \
      --out "$tmp/nogpu.json" 2>&1 >/dev/null); rc=$?
equals "$rc" 3 "no GPU binary: exit 3"
equals "$(lines "$err")" 1 "no GPU binary: one line on stderr"
contains "$err" "no usable GPU" "no GPU binary: says so"
contains "$(cat "$tmp/nogpu.json")" '"gpu_status": "unavailable"' "no GPU: report still written, GPU unavailable"
contains "$(cat "$tmp/nogpu.json")" '"kind": "checkpoint_write"' "no GPU: storage measured anyway"

# --- a GPU binary that crashes, or fails
printf '#!/bin/sh\nkill -SEGV $$\n' >"$tmp/crash.sh"; chmod +x "$tmp/crash.sh"
err=$(GPUCOST_PROBE_GPU=$tmp/crash.sh "$gpucost" probe 2>&1 >/dev/null); rc=$?
equals "$rc" 3 "crashing GPU binary: exit 3, gpucost itself does not crash"
equals "$(lines "$err")" 1 "crashing GPU binary: one line"
printf '#!/bin/sh\necho "gpucost-probe-gpu: cudaMalloc failed: out of memory" >&2\nexit 1\n' >"$tmp/fail.sh"
chmod +x "$tmp/fail.sh"
err=$(GPUCOST_PROBE_GPU=$tmp/fail.sh "$gpucost" probe 2>&1 >/dev/null); rc=$?
equals "$rc" 1 "failing GPU binary: exit 1"
contains "$err" "out of memory" "failing GPU binary: its message is passed on"

# --- a GPU binary that measured (the synthetic H100 fixture): merged with storage, suggestions derived
cat >"$tmp/fake.sh" <<EOF
#!/bin/sh
echo "\$@" >"$tmp/fake_args.txt"
while [ \$# -gt 0 ]; do [ "\$1" = --out ] && out=\$2; shift; done
cp "$fixture" "\$out"
EOF
chmod +x "$tmp/fake.sh"
echo '{"workload": {"precision": "fp8", "hidden": 8192, "seq_len": 2048, "ffn_hidden": 28672},
       "parallel": {"tensor_parallel": 8}}' >"$tmp/scenario.json"
summary=$(GPUCOST_PROBE_GPU=$tmp/fake.sh "$gpucost" probe --checkpoint-dir "$tmp/ckpt" --max-gb 0.001 \
          --scenario "$tmp/scenario.json" --out "$tmp/merged.json"); rc=$?
equals "$rc" 0 "probe with a measuring GPU binary: exit 0"
args=$(cat "$tmp/fake_args.txt")
contains "$args" "--precision fp8" "GPU binary gets the scenario's precision"
contains "$args" "--shape=qkv:2048:3072:8192" "GPU binary gets the scenario's layer shapes (TP split)"
contains "$summary" "GEMM bf16 (square)" "summary shows the GEMM figures"
merged=$(cat "$tmp/merged.json")
contains "$merged" '"catalog_gpu": "h100-sxm"' "suggestions match the catalog GPU"
contains "$merged" '"gpu_status": "ok"' "merged report: GPU ok"
contains "$merged" '"kind": "checkpoint_write"' "merged report: storage measured here"
not_contains "$merged" '"hostname": "synthetic-h100-node"' "merged report: the host is this machine, not the GPU report's"
expect_rc 0 "merged report imports" -- "$gpucost" eval - --probe "$tmp/merged.json" <<<'{}'

# --- eval --probe: fields set, used by the model, bad reports
err=$("$gpucost" eval - --probe "$fixture" --format json 2>"$tmp/err.txt" <<<'{}' | grep -o '"peak_tflops_per_gpu": [0-9.]*')
equals "$err" '"peak_tflops_per_gpu": 1068.5672514619882' \
  "eval uses the measured bf16 GEMM (slowest GPU, 730.9) / 0.684 (the H200's sustained fraction, standing in for the H100's)"
contains "$(cat "$tmp/err.txt")" "cluster.peak_tflops = 1,069 TFLOP/s" "eval says which numbers came from the probe"
contains "$(cat "$tmp/err.txt")" "assumed for h100-sxm" "eval says the reference is another GPU's"
contains "$(cat "$tmp/err.txt")" "MFU stays relative to the datasheet" "and how the measured GEMM rate is counted"
err=$("$gpucost" eval - --probe "$fixture" 2>&1 >/dev/null <<<'{"cluster": {"gpu": "a100-sxm-80gb"}}')
contains "$err" "warning: $fixture: the probe measured NVIDIA H100 80GB HBM3" "eval warns when the GPU differs"
sed 's/"median": 742.0/"median": -742.0/' "$fixture" >"$tmp/bad.json"
err=$("$gpucost" eval - --probe "$tmp/bad.json" 2>&1 >/dev/null <<<'{}'); rc=$?
equals "$rc" 2 "bad report: exit 2"
equals "$err" "gpucost: $tmp/bad.json: gemm[0].tflops.median: must be a number > 0 and <= 100,000, got -742" \
  "bad report: one line naming the JSON path"
expect_rc 1 "missing report: exit 1" -- "$gpucost" eval - --probe "$tmp/none.json" <<<'{}'
finish
