#!/usr/bin/env bash
# gpucost probe with the real CUDA binary (gpucost-probe-gpu), when it was built. Without a GPU it exits 3 with
# one line. On a GPU machine the whole probe runs and its figures are checked against the catalog's datasheet
# figures and, where PyTorch with CUDA is installed, against PyTorch timing the same GEMM and copy (an
# independent measurement: within 6%, the acceptance check of assets/probes/README.md).
# Reported as skipped (exit 77) when the binary was not built, and for each check that cannot run here.
# GPUCOST_PROBE_KEEP=FILE keeps the GPU machine's report (scripts/probe_on_gpu.sh).
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ckpt"
lines() { [[ -z $1 ]] && echo 0 || printf '%s\n' "$1" | wc -l; }

real=$(dirname "$gpucost")/gpucost-probe-gpu
if [[ ! -x $real ]]; then
  skip "gpucost-probe-gpu not built (no CUDA toolkit): its checks cannot run here"
  finish
fi
expect_rc 2 "gpucost-probe-gpu: bad argument" -- "$real" --shape qkv:0:1:1 --list

err=$("$real" --list 2>&1 >/dev/null); rc=$?
if [[ $rc == 3 ]]; then
  # --- no GPU (here: no driver)
  equals "$(lines "$err")" 1 "gpucost-probe-gpu without a GPU: one line"
  contains "$err" "no usable GPU" "gpucost-probe-gpu without a GPU: says so"
  err=$("$gpucost" probe --out "$tmp/real.json" 2>&1 >/dev/null); rc=$?
  equals "$rc" 3 "gpucost probe with the real binary, no GPU: exit 3"
  equals "$(lines "$err")" 1 "gpucost probe with the real binary, no GPU: one line"
  skip "no GPU here: the measured figures cannot be checked"
  finish
fi

# --- a GPU machine: the whole probe
equals "$rc" 0 "gpucost-probe-gpu --list on a GPU machine: exit 0"
scenario=$root/tests/cli/scenarios/7b_a100.json
"$gpucost" probe --out "$tmp/report.json" --scenario "$scenario" --checkpoint-dir "$tmp/ckpt" --max-gb 1 \
  >"$tmp/summary.txt" 2>"$tmp/err.txt"; rc=$?
equals "$rc" 0 "gpucost probe on a GPU machine: exit 0 ($(head -c 300 "$tmp/err.txt"))"
[[ -n ${GPUCOST_PROBE_KEEP:-} ]] && cp "$tmp/report.json" "$GPUCOST_PROBE_KEEP"
cat "$tmp/summary.txt"
equals "$(ls -A "$tmp/ckpt")" "" "checkpoint directory left empty"

# Figures against the datasheet, read with python3 (else node): each GPU's bf16 square GEMM between 0.55 and
# 0.95 of the dense peak (a healthy H200 sustains 0.68 at its power limit: assets/probes/README.md; above 0.95 means the catalog's
# peak or the FLOP count is wrong), the device copy between 0.6 and 1.0 of the datasheet HBM rate (H100 SXM:
# ~0.9 measured by PyTorch), every rate positive, min <= median <= max.
read_report='
import json, sys
r = json.load(open(sys.argv[1])); gpus = {g["id"]: g for g in json.load(open(sys.argv[2]))["gpus"]}
problems = []
if r["gpu_status"] != "ok": problems.append("gpu_status " + r["gpu_status"])
cat = gpus.get(r["suggestions"]["catalog_gpu"])
if not cat: problems.append("GPU not matched in the catalog: " + r["gpus"][0]["name"])
def rates(rows, key):
  for x in rows:
    s = x[key]
    if not (0 < s["min"] <= s["median"] <= s["max"]): problems.append("rate order %r" % x)
rates(r["gemm"], "tflops"); rates(r["bandwidth"], "gbps")
for g in r["gpus"]:
  i = g["index"]
  sq = [x["tflops"]["median"] for x in r["gemm"] if x["gpu"] == i and x["shape"] == "square" and x["precision"] == "bf16"]
  cp = [x["gbps"]["median"] for x in r["bandwidth"] if x["gpu"] == i and x["kind"] == "hbm_copy"]
  if not sq or not cp: problems.append("GPU %d: no bf16 GEMM or no copy" % i); continue
  if cat:
    f = sq[0] / cat["dense_tflops"]["bf16"]; h = cp[0] / (cat["hbm_tbps"] * 1000)
    print("GPU %d: bf16 %.1f TFLOP/s = %.3f of dense peak; copy %.0f GB/s = %.3f of HBM" % (i, sq[0], f, cp[0], h))
    if not 0.55 <= f <= 0.95: problems.append("GPU %d bf16 fraction %.3f" % (i, f))
    if not 0.6 <= h <= 1.0: problems.append("GPU %d copy fraction %.3f" % (i, h))
for p in ("bf16", "fp16", "tf32", "fp32"):
  if not any(x["precision"] == p and x["shape"] == "square" for x in r["gemm"]): problems.append("no square " + p)
if not any(x["shape"] == "qkv" for x in r["gemm"]): problems.append("no layer GEMM")
print("ok" if not problems else "; ".join(problems))
'
if command -v python3 >/dev/null; then
  out=$(python3 -c "$read_report" "$tmp/report.json" "$root/assets/gpus.json" 2>&1)
  echo "$out"
  equals "$(tail -1 <<<"$out")" "ok" "measured GEMM and HBM rates within the datasheet's bounds"
else
  skip "no python3 to read the report: the datasheet bounds cannot be checked here"
fi

# eval --probe with the real report, the scenario on the measured GPU: the measured rates over the healthy
# references (gpus.json probe_reference) give back about the datasheet's figures on a healthy machine (the four
# H200 runs they come from spread 1-6%; outside 10% this machine or the reference is off).
catalog_gpu=$(grep -o '"catalog_gpu": "[^"]*"' "$tmp/report.json" | cut -d'"' -f4)
if [[ -z $catalog_gpu ]]; then
  skip "the measured GPU is not in the catalog: the import cannot be checked against a datasheet"
else
  sed "s/\"a100-sxm-80gb\"/\"$catalog_gpu\"/" "$scenario" >"$tmp/here.json"
  json=$("$gpucost" eval "$tmp/here.json" --probe "$tmp/report.json" --format json 2>"$tmp/err.txt"); rc=$?
  equals "$rc" 0 "eval --probe with the real report: exit 0"
  contains "$(cat "$tmp/err.txt")" "cluster.peak_tflops = " "eval sets the measured peak"
  contains "$(cat "$tmp/err.txt")" "cluster.hbm_tbps = " "eval sets the measured HBM rate"
  cat "$tmp/err.txt"
  if command -v python3 >/dev/null; then
    out=$(python3 -c '
import json, sys
r = json.loads(sys.argv[1]); g = [x for x in json.load(open(sys.argv[2]))["gpus"] if x["id"] == sys.argv[3]][0]
f = r["work"]["peak_tflops_per_gpu"] / g["dense_tflops"]["bf16"]
print("peak as imported: %.1f TFLOP/s = %.3f of the datasheet" % (r["work"]["peak_tflops_per_gpu"], f))
print("ok" if 0.9 <= f <= 1.1 else "off by more than 10%")' "$json" "$root/assets/gpus.json" "$catalog_gpu" 2>&1)
    echo "$out"
    equals "$(tail -1 <<<"$out")" "ok" "imported peak within 10% of the datasheet (a healthy GPU over its healthy reference)"
  fi
fi

# PyTorch timing the same work (an independent implementation: torch.matmul, Tensor.copy_).
torch_py='
import json, sys, time, torch
# Sustained, as the probe measures: back-to-back for a second first (a cool GPU runs short bursts at boost
# clocks, ~12-20% faster than at its power limit; assets/probes/README.md), then 10 samples of 20 back-to-back
# calls (single calls timed one by one read 584-676 TFLOP/s on the same H200 where batches read 665-676).
def median_ms(fn, samples=10, calls=20):
  t0 = time.time()
  while time.time() - t0 < 1.0:
    for _ in range(10): fn()
    torch.cuda.synchronize()
  s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True); t = []
  for _ in range(samples):
    s.record()
    for _ in range(calls): fn()
    e.record(); torch.cuda.synchronize(); t.append(s.elapsed_time(e) / calls)
  return sorted(t)[samples // 2]
r = json.load(open(sys.argv[1]))
a = torch.rand(8192, 8192, device="cuda", dtype=torch.bfloat16) * 2 - 1
b = torch.rand(8192, 8192, device="cuda", dtype=torch.bfloat16) * 2 - 1
gemm = 2 * 8192**3 / median_ms(lambda: torch.matmul(a, b)) / 1e9
x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda"); y = torch.empty_like(x)
copy = 2 * x.numel() / median_ms(lambda: y.copy_(x)) / 1e6
pg = [g["tflops"]["median"] for g in r["gemm"] if g["gpu"] == 0 and g["shape"] == "square" and g["precision"] == "bf16"][0]
pc = [g["gbps"]["median"] for g in r["bandwidth"] if g["gpu"] == 0 and g["kind"] == "hbm_copy"][0]
print("bf16 8192^3: probe %.1f, PyTorch %.1f TFLOP/s (%+.1f%%); copy: probe %.0f, PyTorch %.0f GB/s (%+.1f%%)"
      % (pg, gemm, 100 * (pg / gemm - 1), pc, copy, 100 * (pc / copy - 1)))
# 6%: on one H200 the probe runs spread 4% (bf16) and the sustained PyTorch runs 3%.
print("ok" if abs(pg / gemm - 1) <= 0.06 and abs(pc / copy - 1) <= 0.06 else "differ by more than 6%")
'
if command -v python3 >/dev/null && python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  out=$(python3 -c "$torch_py" "$tmp/report.json" 2>&1)
  echo "$out"
  equals "$(tail -1 <<<"$out")" "ok" "probe within 6% of PyTorch on the same GPU (bf16 GEMM, device copy)"
else
  skip "no PyTorch with CUDA here: the comparison with an independent measurement cannot run"
fi
finish
