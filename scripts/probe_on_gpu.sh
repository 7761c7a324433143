#!/usr/bin/env bash
# The CUDA probe's real-GPU checks, run on a GPU machine (for example through the device tool, with
# build/native/shell/gpucost and gpucost-probe-gpu carried from a Debian build, or rebuilt here when their
# libraries are missing: then .devcarry/include must hold nlohmann/ and doctest/). Writes into $OUT:
#   log.txt           everything printed
#   report.json       gpucost probe of this machine (default Llama 2 7B layer shapes; storage on /tmp)
#   test_report.json  the report of tests/cli/test_probe_gpu.sh (scenario tests/cli/scenarios/7b_a100.json)
#   torch.json        PyTorch timing the same GEMMs (every precision, square and layer shapes) and copy
#   sizes_bf16.json, sizes_fp8.json  the probe's GEMMs over sizes and shapes (256^3 .. 16384^3, thin, TP-split
#                     layers, decode-like), to check the step-time model's GEMM curve (steptime.cpp) on this GPU
set -u
OUT=${OUT:-/tmp/probe_out}; mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
cd "$(dirname "$0")/.."
bin=build/native/shell
echo "== $(date -u +%FT%TZ) $(uname -m)"
nvidia-smi --query-gpu=name,driver_version,memory.total,power.limit,clocks.max.sm,clocks.max.mem,temperature.gpu --format=csv

libdirs=""
for lib in libcublasLt.so.13 libnccl.so.2; do
  f=$(find /usr/local /opt /usr/lib -name "$lib" 2>/dev/null | head -1)
  [[ -n $f ]] && libdirs="$libdirs:$(dirname "$f")"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}$libdirs"
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
if ! [[ -x $bin/gpucost-probe-gpu ]] || ldd "$bin/gpucost-probe-gpu" | grep -q "not found" || ! "$bin/gpucost" --version; then
  echo "== rebuilding gpucost and gpucost-probe-gpu here"
  ldd "$bin/gpucost-probe-gpu" 2>&1 | grep -E "not found" || true
  cmake -S . -B /tmp/gpucost-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DGPUCOST_SYSTEM_INCLUDE="$PWD/.devcarry/include" >/tmp/configure.log 2>&1 || { tail -30 /tmp/configure.log; exit 1; }
  ninja -C /tmp/gpucost-build gpucost gpucost-probe-gpu >/tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
  bin=/tmp/gpucost-build/shell
fi
ldd "$bin/gpucost-probe-gpu" | grep -E "cublas|nccl"

echo "== tests/cli/test_probe_gpu.sh"
start=$(date +%s)
GPUCOST_PROBE_KEEP=$OUT/test_report.json bash tests/cli/test_probe_gpu.sh "$bin/gpucost" "$PWD"
echo "test exit $? in $(( $(date +%s) - start )) s"

echo "== gpucost probe (default layer shapes, storage on /tmp)"
mkdir -p /tmp/probe-data /tmp/probe-ckpt
head -c 2000000000 /dev/urandom >/tmp/probe-data/tokens.bin
start=$(date +%s)
"$bin/gpucost" probe --out "$OUT/report.json" --dataset /tmp/probe-data --checkpoint-dir /tmp/probe-ckpt --max-gb 2
echo "probe exit $? in $(( $(date +%s) - start )) s"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv

echo "== PyTorch on the same GEMMs"
python3 - "$OUT/report.json" "$OUT/torch.json" <<'PY'
import json, sys, torch
def median_ms(fn, n=30, warmup=20):
  for _ in range(warmup): fn()
  s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True); t = []
  for _ in range(n):
    s.record(); fn(); e.record(); torch.cuda.synchronize(); t.append(s.elapsed_time(e))
  return sorted(t)[n // 2]
r = json.load(open(sys.argv[1])); rows = []
print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))
for g in r["gemm"]:
  if g["gpu"] != 0: continue
  m, n, k, p = g["m"], g["n"], g["k"], g["precision"]
  a = torch.rand(m, k, device="cuda") * 2 - 1; b = torch.rand(k, n, device="cuda") * 2 - 1
  torch.backends.cuda.matmul.allow_tf32 = p == "tf32"
  if p in ("bf16", "fp16"):
    dt = torch.bfloat16 if p == "bf16" else torch.float16
    a, b = a.to(dt), b.to(dt); fn = lambda: torch.matmul(a, b)
  elif p == "fp8":
    a8 = a.to(torch.float8_e4m3fn); b8 = b.t().contiguous().to(torch.float8_e4m3fn).t()
    one = torch.ones((), device="cuda")
    fn = lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16, use_fast_accum=True)
  else:
    fn = lambda: torch.matmul(a, b)
  try:
    tf = 2 * m * n * k / median_ms(fn) / 1e9
  except Exception as ex:
    print(p, g["shape"], "torch failed:", ex); continue
  rows.append({"precision": p, "shape": g["shape"], "m": m, "n": n, "k": k, "probe_tflops": g["tflops"]["median"], "torch_tflops": tf})
  print("%-5s %-9s %6d %6d %6d probe %7.1f torch %7.1f TFLOP/s (%+.1f%%)" % (p, g["shape"], m, n, k, g["tflops"]["median"], tf, 100 * (g["tflops"]["median"] / tf - 1)))
  del a, b
x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda"); y = torch.empty_like(x)
copy = 2 * x.numel() / median_ms(lambda: y.copy_(x)) / 1e6
pc = [b["gbps"]["median"] for b in r["bandwidth"] if b["gpu"] == 0 and b["kind"] == "hbm_copy"][0]
print("copy probe %.0f torch %.0f GB/s (%+.1f%%)" % (pc, copy, 100 * (pc / copy - 1)))
rows.append({"kind": "hbm_copy", "probe_gbps": pc, "torch_gbps": copy})
json.dump({"torch": torch.__version__, "cuda": torch.version.cuda, "rows": rows}, open(sys.argv[2], "w"), indent=1)
PY
echo "== GEMM sizes (the step-time model's curve)"
shapes=""
for s in sq256:256:256:256 sq512:512:512:512 sq1024:1024:1024:1024 sq2048:2048:2048:2048 sq4096:4096:4096:4096 \
         sq16384:16384:16384:16384 thin_k128:4096:4096:128 thin_n128:4096:128:4096 thin_m128:128:4096:4096 \
         tp8_qkv_1k:1024:1280:8192 tp8_qkv_4k:4096:1280:8192 tp8_down_4k:4096:8192:3584 tp8_up_4k:4096:7168:8192 \
         m16:16:8192:8192 m64:64:8192:8192 m256:256:8192:8192; do shapes="$shapes --shape $s"; done
for p in bf16 fp8; do
  # shellcheck disable=SC2086  # one word per option
  "$bin/gpucost-probe-gpu" --precision "$p" $shapes --out "$OUT/sizes_$p.json"; echo "sizes $p: exit $?"
done

echo "== eval of an H200 scenario with the report"
sed 's/"a100-sxm-80gb"/"h200-sxm"/' tests/cli/scenarios/7b_a100.json >/tmp/h200.json
"$bin/gpucost" eval /tmp/h200.json --probe "$OUT/report.json" | head -30
echo "== done $(date -u +%FT%TZ)"
