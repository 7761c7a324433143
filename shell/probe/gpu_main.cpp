// gpucost-probe-gpu — the GPU half of `gpucost probe` (which runs it and merges its report with the storage
// and host measurements). Also usable alone:
//   gpucost-probe-gpu --out REPORT [--precision P] [--shape NAME:M:N:K]... [--samples N] [--list]
// Exit codes: 0 measured, 1 a CUDA call failed, 2 invalid arguments, 3 no usable GPU (one line on stderr).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "gpu_probe.h"
#include "hardware/probe.h"

namespace {

using namespace gpucost;
using namespace gpucost::probe_gpu;

struct Args {
  std::string out;
  bool list_only = false;
  Options options;
};

bool ParseShape(const std::string& text, ProbeGemmShape* shape) {
  char name[64];
  long long m, n, k;
  char tail;
  if (std::sscanf(text.c_str(), "%63[^:]:%lld:%lld:%lld%c", name, &m, &n, &k, &tail) != 4) return false;
  if (m < 1 || n < 1 || k < 1 || m > 1000000 || n > 1000000 || k > 1000000) return false;
  *shape = {name, m, n, k};
  return true;
}

// Returns "" or the problem.
std::string ParseArgs(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    const std::size_t eq = arg.find('=');
    if (eq != std::string::npos) value = arg.substr(eq + 1), arg = arg.substr(0, eq);
    const bool takes_value = arg == "--out" || arg == "--precision" || arg == "--shape" || arg == "--samples";
    if (takes_value && eq == std::string::npos) {
      if (i + 1 >= argc) return arg + " needs a value";
      value = argv[++i];
    }
    if (arg == "--out") a->out = value;
    else if (arg == "--list") a->list_only = true;
    else if (arg == "--precision") {
      if (value != "bf16" && value != "fp16" && value != "fp8" && value != "tf32" && value != "fp32")
        return "--precision must be one of bf16, fp16, fp8, tf32, fp32";
      a->options.layer_precision = value;
    } else if (arg == "--shape") {
      ProbeGemmShape shape;
      if (!ParseShape(value, &shape)) return "--shape must be NAME:M:N:K with M, N, K from 1 to 1000000";
      a->options.layer_shapes.push_back(shape);
    } else if (arg == "--samples") {
      a->options.samples = std::atoi(value.c_str());
      if (a->options.samples < 3 || a->options.samples > 10000) return "--samples must be from 3 to 10000";
    } else {
      return "unknown argument " + arg;
    }
  }
  if (a->out.empty() && !a->list_only) return "--out REPORT is required (or --list)";
  return "";
}

void Measure(const Options& options, ProbeReport* report) {
  std::vector<std::string> skipped;
  for (std::size_t gpu = 0; gpu < report->gpus.size(); ++gpu) {
    MeasureGemm(static_cast<int>(gpu), options, report, &skipped);
    MeasureDeviceBandwidth(static_cast<int>(gpu), options, report);
  }
  MeasurePeerCopies(options, report);
#if GPUCOST_HAVE_NCCL
  MeasureNcclAllReduce(options, report);
#endif
  for (const std::string& s : skipped) std::fprintf(stderr, "gpucost-probe-gpu: skipped %s\n", s.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (std::string problem = ParseArgs(argc, argv, &args); !problem.empty()) {
    std::fprintf(stderr, "gpucost-probe-gpu: %s\n", problem.c_str());
    return 2;
  }
  ProbeReport report;
  report.gpu_status = "ok";
  try {
    ReadInventory(&report);
    if (!args.list_only) Measure(args.options, &report);
  } catch (const NoGpu& e) {
    std::fprintf(stderr, "gpucost-probe-gpu: %s (no usable GPU)\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpucost-probe-gpu: %s\n", e.what());
    return 1;
  }
  const std::string json = ProbeToJson(report);
  if (args.out.empty()) {
    std::printf("%s\n", json.c_str());
    return 0;
  }
  std::ofstream out(args.out, std::ios::binary);
  if (!(out << json << '\n') || !out.flush()) {
    std::fprintf(stderr, "gpucost-probe-gpu: cannot write %s\n", args.out.c_str());
    return 1;
  }
  return 0;
}
