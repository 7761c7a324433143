"""A GPU's GEMM rate over a long soak: bf16 8192^3 products back to back for SECONDS (default 40) on uniform
[-1, 1] data, the rate every 0.25 s, with the SM clock, board power, temperature and throttle reasons sampled by
nvidia-smi every 200 ms. Run on a GPU machine with PyTorch: python3 scripts/gemm_soak.py OUT_DIR [SECONDS].
Shows whether the probe's ~0.3 s warm-up reaches the rate a long training run sustains (assets/probes/README.md)."""
import json, subprocess, sys, time
import torch

out, seconds = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 40.0
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active",
                        "--format=csv,noheader,nounits", "-lms", "200"], stdout=open(out + "/soak_smi.csv", "w"))
n = 8192
a = (torch.rand(n, n, device="cuda") * 2 - 1).bfloat16()
b = (torch.rand(n, n, device="cuda") * 2 - 1).bfloat16()
torch.matmul(a, b); torch.cuda.synchronize()
time.sleep(2.0)
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
rows, t0 = [], time.time()
while time.time() - t0 < seconds:
  s.record()
  for _ in range(180): torch.matmul(a, b)  # ~0.25 s
  e.record(); torch.cuda.synchronize()
  rows.append((time.time() - t0, 2 * n**3 * 180 / s.elapsed_time(e) / 1e9))
smi.terminate(); smi.wait()
samples = []
for line in open(out + "/soak_smi.csv"):
  f = [x.strip() for x in line.split(",")]
  try: samples.append((f[0], float(f[1]), float(f[2]), float(f[3]), f[4]))
  except (ValueError, IndexError): pass
busy = [x for x in samples if x[2] > 300]
marks = [0.25, 0.5, 1, 2, 3, 5, 10, 15, 20, 30, 40, 60, 90, 120]
for m in marks:
  r = [x for x in rows if x[0] <= m + 1e-9]
  if r and m <= seconds: print("t=%5.2f s  %6.1f TFLOP/s" % (r[-1][0], r[-1][1]))
k = len(busy)
for i in (0, k // 4, k // 2, 3 * k // 4, k - 1):
  if 0 <= i < k: print("smi %s: SM %4.0f MHz, %5.1f W, %2.0f C, throttle %s" % busy[i])
json.dump({"gpu": torch.cuda.get_device_name(0), "rows": rows, "smi": samples}, open(out + "/soak.json", "w"))
