"""How a GPU's GEMM rate depends on the data and on how long it runs (power limit, clocks).

Run on a GPU machine with PyTorch: python3 scripts/gemm_sustained.py OUT_DIR. Samples the SM clock and board
power with nvidia-smi every 100 ms while it runs; prints, for bf16 8192^3 GEMMs on zeros, uniform [-1, 1]
(the probe's data) and normal data, the rate of a short burst (10 products after 3 warm-ups) and the rate
sustained after 3 s of back-to-back products, with the clock and power over each phase. Used to set the
probe's healthy-GPU reference (assets/probes/README.md)."""
import json, subprocess, sys, time
import torch

out = sys.argv[1]
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                        "--format=csv,noheader,nounits", "-lms", "100"], stdout=open(out + "/smi.csv", "w"))
time.sleep(1.0)
phases = []


def timed(fn, count):
  s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
  s.record()
  for _ in range(count): fn()
  e.record(); torch.cuda.synchronize()
  return s.elapsed_time(e) / count


def run(name, fn, flops, seconds=3.0):
  time.sleep(2.0)  # idle between phases: the GPU cools back to its idle state
  for _ in range(3): fn()
  torch.cuda.synchronize()
  t0 = time.time()
  burst = flops / timed(fn, 10) / 1e9
  t1 = time.time()
  rates = []
  while time.time() - t1 < seconds: rates.append((time.time(), flops / timed(fn, 20) / 1e9))
  last = [r for t, r in rates if t > t1 + seconds - 1.0]
  sustained = sorted(last)[len(last) // 2]
  phases.append({"name": name, "burst_tflops": burst, "sustained_tflops": sustained, "t_start": t0, "t_burst_end": t1,
                 "t_end": time.time(), "rates": rates})
  print("%-28s burst %7.1f  sustained %7.1f TFLOP/s" % (name, burst, sustained), flush=True)


n = 8192
u = lambda *s: torch.rand(*s, device="cuda") * 2 - 1
for data, make in (("zeros", lambda: torch.zeros(n, n, device="cuda")), ("uniform[-1,1]", lambda: u(n, n)),
                   ("normal", lambda: torch.randn(n, n, device="cuda"))):
  a, b = make().bfloat16(), make().bfloat16()
  run("bf16 8192^3 " + data, lambda: torch.matmul(a, b), 2 * n**3)
a8, b8 = u(n, n).to(torch.float8_e4m3fn), u(n, n).t().contiguous().to(torch.float8_e4m3fn).t()
one = torch.ones((), device="cuda")
run("fp8 8192^3 uniform", lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16, use_fast_accum=True), 2 * n**3)
m, nn, k = 4096, 12288, 4096
a, b, bt = u(m, k).bfloat16(), u(k, nn).bfloat16(), u(nn, k).bfloat16()
run("bf16 qkv a@b", lambda: torch.matmul(a, b), 2 * m * nn * k, 1.5)
run("bf16 qkv a@bT", lambda: torch.matmul(a, bt.t()), 2 * m * nn * k, 1.5)
time.sleep(1.0)
smi.terminate(); smi.wait()

# Clock and power over each phase's burst and its last second.
samples = []
for line in open(out + "/smi.csv"):
  f = [x.strip() for x in line.split(",")]
  try:
    t = time.mktime(time.strptime(f[0].split(".")[0], "%Y/%m/%d %H:%M:%S")) + float("0." + f[0].split(".")[1])
    samples.append((t, float(f[1]), float(f[2]), float(f[3])))
  except (ValueError, IndexError):
    pass
offset = 0.0  # nvidia-smi prints local time; align on the first sample vs now if they differ by hours
if samples and abs(samples[-1][0] - time.time()) > 1800: offset = round((time.time() - samples[-1][0]) / 3600) * 3600
for p in phases:
  def over(t0, t1):
    s = [x for x in samples if t0 <= x[0] + offset <= t1]
    return (sum(x[1] for x in s) / len(s), sum(x[2] for x in s) / len(s), len(s)) if s else (0, 0, 0)
  p["burst_clock_mhz"], p["burst_power_w"], _ = over(p["t_start"] - 0.1, p["t_burst_end"] + 0.1)
  p["sustained_clock_mhz"], p["sustained_power_w"], p["sustained_samples"] = over(p["t_end"] - 1.0, p["t_end"])
  print("%-28s clock %4.0f MHz %5.0f W (burst), %4.0f MHz %5.0f W (last second, %d samples)" % (
      p["name"], p["burst_clock_mhz"], p["burst_power_w"], p["sustained_clock_mhz"], p["sustained_power_w"],
      p["sustained_samples"]))
json.dump({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "phases": phases},
          open(out + "/sustained.json", "w"), indent=1)
