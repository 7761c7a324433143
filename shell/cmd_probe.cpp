// gpucost probe [--out REPORT] [--dataset DIR] [--checkpoint-dir DIR] [--max-gb N] [--scenario FILE] [--skip-gpu]
//
// Storage and host measurements run here (no CUDA); the GPU measurements run in the separate executable
// gpucost-probe-gpu (built only with the CUDA toolkit, found next to this binary or through
// $GPUCOST_PROBE_GPU), so this tool never links CUDA.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "documents/catalog.h"
#include "cli.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "documents/probe_suggestions.h"
#include "storage_probe.h"
#include "verbs.h"
#include "version.h"

namespace gpucost::cli {
namespace {

constexpr int kGpuProbeMinutes = 20;  // the GPU binary is stopped after this long

const std::vector<OptionSpec> kProbeOptions = {
    {"--out", true, "cli.opt.probe.out"},
    {"--dataset", true, "cli.opt.probe.dataset"},
    {"--checkpoint-dir", true, "cli.opt.probe.checkpoint-dir"},
    {"--max-gb", true, "cli.opt.probe.max-gb"},
    {"--scenario", true, "cli.opt.probe.scenario"},
    {"--skip-gpu", false, "cli.opt.probe.skip-gpu"},
};

constexpr const char* kDescription = "cli.help.probe";  // assets/i18n

std::string NowUtc() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}


// Runs argv[0] with argv, its stderr captured (at most 4 KiB kept). Returns the exit code, 127 when it could
// not be started, 128 + signal when killed.
int RunCapturingStderr(const std::vector<std::string>& argv, std::string* err) {
  int fds[2];
  if (pipe(fds) != 0) return *err = std::strerror(errno), 127;
  const pid_t pid = fork();
  if (pid < 0) return *err = std::strerror(errno), 127;
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  char buf[512];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(kGpuProbeMinutes);
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, 1000);
    if (ready < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {  // a hung driver or NCCL must not hang gpucost
      kill(pid, SIGKILL);
      err->append("\nstopped after " + std::to_string(kGpuProbeMinutes) + " minutes");
      break;
    }
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (err->size() < 4096) err->append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string LastLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const std::size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

// Runs the GPU probe; fills the GPU part of *report. Returns kExitOk, kExitNoGpu or kExitFailure.
int MeasureGpus(const Scenario& s, ProbeReport* report) {
  const std::string binary = SiblingExecutable("gpucost-probe-gpu", "GPUCOST_PROBE_GPU");
  if (binary.empty() || access(binary.c_str(), X_OK) != 0) {
    report->gpu_message = "no GPU probe: gpucost-probe-gpu not found next to gpucost (built without the CUDA toolkit?)";
    return kExitNoGpu;
  }
  char tmp[] = "/tmp/gpucost-probe-gpu-XXXXXX";
  const int fd = mkstemp(tmp);
  if (fd < 0) return report->gpu_message = "cannot create a temporary file", kExitFailure;
  close(fd);
  std::vector<std::string> argv = {binary, "--out", tmp, "--precision", PrecisionName(GetPrecision(s))};
  for (const ProbeGemmShape& g : TrainingGemmShapes(s))
    argv.push_back("--shape=" + g.name + ":" + std::to_string(g.m) + ":" + std::to_string(g.n) + ":" + std::to_string(g.k));
  std::string err, text;
  const int rc = RunCapturingStderr(argv, &err);
  const bool read_ok = rc == 0 && ReadInput(tmp, &text, &err);
  std::remove(tmp);
  if (rc == kExitNoGpu || rc == 127 || rc >= 128) {
    report->gpu_message = rc == kExitNoGpu ? LastLine(err) : "GPU probe could not run: " + LastLine(err);
    return kExitNoGpu;
  }
  if (!read_ok) return report->gpu_message = "GPU probe failed (exit " + std::to_string(rc) + "): " + LastLine(err), kExitFailure;
  ProbeParse gpu = ParseProbeJson(text);
  if (!gpu.ok()) return report->gpu_message = "GPU probe wrote an invalid report: " + gpu.errors[0].Text(), kExitFailure;
  if (!err.empty()) std::fputs(err.c_str(), stderr);  // what it skipped (e.g. fp8 before Hopper)
  report->gpu_status = "ok";
  report->driver_version = gpu.report.driver_version;
  report->runtime_version = gpu.report.runtime_version;
  report->gpus = gpu.report.gpus;
  report->peer_access = gpu.report.peer_access;
  report->gemm = gpu.report.gemm;
  report->bandwidth = gpu.report.bandwidth;
  return kExitOk;
}

// Runs the requested storage measurements. Returns kExitOk or kExitFailure (message printed).
int MeasureStorage(const Args& args, double max_bytes, ProbeReport* report) {
  std::string error;
  ProbeStorage m;
  if (args.Has("--dataset")) {
    if (!MeasureDatasetRead(args.Get("--dataset"), max_bytes, &m, &error)) return Error("probe: " + error), kExitFailure;
    report->storage.push_back(m);
  }
  if (args.Has("--checkpoint-dir")) {
    if (!MeasureCheckpointWrite(args.Get("--checkpoint-dir"), max_bytes, &m, &error))
      return Error("probe: " + error), kExitFailure;
    report->storage.push_back(m);
  }
  return kExitOk;
}

void PrintSummary(const ProbeReport& r) {
  Table t;
  t.Row({"measurement", "figure", "note"});
  t.Rule();
  if (!r.gpus.empty()) t.Row({"GPUs", std::to_string(r.gpus.size()) + " x " + r.gpus[0].name, r.suggestions.catalog_gpu});
  for (const char* p : {"bf16", "fp16", "fp8", "tf32", "fp32"}) {
    const double tflops = MeasuredGemmTflops(r, p);
    if (tflops <= 0) continue;
    std::string note;
    for (const ProbePeakFraction& f : r.suggestions.peak_fraction)
      if (f.precision == p) note = FormatPercent(f.fraction) + " of dense peak (MFU ceiling)";
    t.Row({std::string("GEMM ") + p + " (square)", FormatNumber(tflops, 4) + " TFLOP/s", note});
  }
  if (double v = MeasuredHbmTbps(r); v > 0) t.Row({"HBM", FormatNumber(v, 4) + " TB/s", "best of copy and triad"});
  if (double v = MeasuredPeerGbps(r); v > 0) t.Row({"GPU to GPU", FormatNumber(v, 4) + " GB/s", "one direction, slowest pair"});
  for (const ProbeStorage& s : r.storage)
    t.Row({s.kind == "dataset_read" ? "dataset read" : "checkpoint write", FormatNumber(s.gbps, 4) + " GB/s",
           FormatNumber(s.bytes / 1e9, 3) + " GB in " + FormatNumber(s.seconds, 3) + " s"});
  if (r.suggestions.checkpoint_write_minutes > 0)
    t.Row({"checkpoint write time", FormatNumber(r.suggestions.checkpoint_write_minutes, 3) + " min",
           FormatNumber(r.suggestions.checkpoint_gb, 4) + " GB checkpoint"});
  t.Print(stdout);
}

bool ParseMaxBytes(const Args& args, double* bytes) {
  const std::string text = args.Get("--max-gb", "2");
  double gb = 0;
  if (!ParseNumber(text, &gb) || gb < 1e-3 || gb > 1e4) {
    OptionRangeError("probe", "--max-gb", NumberRange("0.001", "10000"), text);
    return false;
  }
  *bytes = gb * 1e9;
  return true;
}

bool CheckDirectories(const Args& args) {
  for (const char* option : {"--dataset", "--checkpoint-dir"}) {
    std::error_code ec;
    if (args.Has(option) && !std::filesystem::is_directory(args.Get(option), ec)) {
      Error("probe: " + std::string(option) + " " + TrFormat("cli.err.not_directory", {args.Get(option)}));
      return false;
    }
  }
  return true;
}

}  // namespace

int RunProbe(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, kProbeOptions, &args, "probe")) return kExitInvalid;
  if (args.Has("--help")) {
    PrintUsage(stdout,
               "gpucost probe [--out REPORT] [--dataset DIR] [--checkpoint-dir DIR] [--max-gb N] [--scenario FILE] "
               "[--skip-gpu]", kDescription, kProbeOptions);
    return kExitOk;
  }
  if (!args.positional.empty()) return Error(TrFormat("cli.err.probe_unexpected", {args.positional[0]})), kExitInvalid;
  double max_bytes = 0;
  if (!ParseMaxBytes(args, &max_bytes) || !CheckDirectories(args)) return kExitInvalid;
  const bool skip_gpu = args.Has("--skip-gpu");
  if (skip_gpu && !args.Has("--dataset") && !args.Has("--checkpoint-dir"))
    return Error(Tr("cli.err.probe_nothing")), kExitInvalid;
  Scenario s = DefaultScenario();
  if (args.Has("--scenario"))
    if (int rc = LoadScenario(args.Get("--scenario"), &s)) return rc;

  ProbeReport report;
  report.created_utc = NowUtc();
  report.tool_version = GPUCOST_VERSION;
  report.host = ReadHostInventory();
  report.gpu_status = skip_gpu ? "skipped" : "unavailable";
  const int gpu_rc = skip_gpu ? kExitOk : MeasureGpus(s, &report);
  if (const int rc = MeasureStorage(args, max_bytes, &report)) return rc;
  DeriveSuggestions(s, &report);
  if (std::vector<InputError> errors = ValidateProbe(report); !errors.empty())
    return Error("probe: internal error, invalid report: " + errors[0].Text()), kExitFailure;

  const std::string json = ProbeToJson(report);
  if (args.Has("--out")) {
    std::ofstream out(args.Get("--out"), std::ios::binary);
    if (!(out << json << '\n') || !out.flush()) return Error(TrFormat("cli.err.probe_cannot_write", {args.Get("--out")})), kExitFailure;
  } else {
    std::printf("%s\n", json.c_str());
  }
  const std::string where = args.Has("--out") ? args.Get("--out") : Tr("cli.probe.stdout");
  if (gpu_rc == kExitNoGpu) {
    Error(TrFormat("cli.err.probe_no_gpu", {report.gpu_message, where}));
    return kExitNoGpu;
  }
  if (gpu_rc != kExitOk) {
    Error("probe: " + report.gpu_message);
    return gpu_rc;
  }
  if (args.Has("--out")) PrintSummary(report);
  return kExitOk;
}

int ApplyProbeFile(const std::string& path, Scenario* s) {
  std::string text, error;
  if (!ReadInput(path, &text, &error)) return Error(error), kExitFailure;
  const ProbeParse parse = ParseProbeJson(text);
  if (!parse.ok()) return Error(path + ": " + parse.errors[0].Text(CurrentLanguage())), kExitInvalid;
  if (const Message mismatch = ProbeGpuMismatchMessage(parse.report, *s); !mismatch.empty())
    Error(TrFormat("cli.err.warning", {path + ": " + mismatch.Text(CurrentLanguage())}));
  const std::vector<std::string> set = ApplyProbe(parse.report, s);
  std::string list;
  for (const std::string& field : set) {
    const FieldSpec* f = FindField(field.c_str());
    list += (list.empty() ? "" : ", ") + field + " = " + FormatNumber(GetNumber(*s, *f), 4) + " " + f->unit;
  }
  Error(TrFormat("cli.err.probe_measured", {path, parse.report.host.hostname, parse.report.created_utc,
                                            list.empty() ? std::string(Tr("cli.err.probe_nothing_used")) : list}));
  if (std::find(set.begin(), set.end(), "cluster.peak_tflops") != set.end())
    Error(TrFormat("cli.err.note", {ProbeImportNote(parse.report, *s).Text(CurrentLanguage())}));
  return kExitOk;
}

}  // namespace gpucost::cli
