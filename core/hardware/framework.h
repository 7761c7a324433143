// framework.h — the training framework a job runs under (cluster.framework, issue 26) and what it changes in
// the step-time model (steptime.h): the efficiency its matrix kernels reach on each GPU generation relative to
// Megatron-LM (the reference the GEMM curve is calibrated on), and whether it overlaps tensor-parallel
// collectives and expert all-to-alls with compute by default. The efficiencies are measured: each is fitted
// on the published runs of that framework and generation (assets/validation/measured_runs.json) by
// evidence.cpp, which also refits them leaving each source out in turn (the held-out error it reports).
#pragma once
#include <string>

namespace gpucost {

// kTorchtune (issue 46): PyTorch's fine-tuning library (single device and FSDP2, torch.compile), appended.
enum class Framework : int { kMegatron = 0, kNemo, kDeepspeed, kFsdp, kTorchtitan, kMaxtext, kJax, kOther, kTorchtune };
constexpr int kFrameworkCount = 9;
constexpr Framework kDefaultFramework = Framework::kOther;
const char* FrameworkName(Framework f);          // "megatron", ... (the field's choice names)
bool FrameworkFromName(const std::string& name, Framework* out);
// Frameworks that share their kernels (Megatron-Core: megatron, nemo; PyTorch FSDP: fsdp, torchtitan;
// XLA: maxtext, jax). A framework without a measurement on a generation borrows its family's.
int FrameworkFamily(Framework f);

struct FrameworkDefaults {
  bool tp_overlap = false;  // tensor-parallel collectives chunked behind the GEMMs
  bool ep_overlap = false;  // expert all-to-all behind another micro-batch's compute
  const char* source = "";
};
FrameworkDefaults DefaultsOf(Framework f);

// Kernel efficiency relative to Megatron-LM by framework and GPU architecture (GpuSpec::arch).
struct KernelEfficiencyRow {
  Framework framework = Framework::kOther;
  char arch[16] = {};
  double value = 1;
  int runs = 0;  // measured runs it was fitted on
};
struct KernelEfficiencyTable {
  static constexpr int kMax = 32;
  KernelEfficiencyRow rows[kMax];
  int count = 0;
  void Set(Framework f, const char* arch, double value, int runs);
};
// The key a kernel efficiency is measured under: the GPU architecture, with "-fp8" appended for FP8 training
// (its own kernels: FP8 GEMMs with casts and scaling). precision: the Precision enum's value (scenario.h).
std::string KernelArch(const std::string& arch, int precision);
// The product's table: fitted on every published run (evidence.cpp prints and test_calibration.cpp checks it).
const KernelEfficiencyTable& MeasuredKernelEfficiency();
// Where a framework's efficiency came from (for the evidence's causes).
enum class KernelBorrow { kOwn, kFamily, kSixteenBit, kOtherGpus, kMegatron };
// The framework's efficiency on `arch`: measured, else its family's on that generation, else (FP8 training) its
// own or its family's 16-bit rate there times the FP8 share that frameworks running both measure there, else its
// own (then its family's) on the other generations at the same precision class (issue 46), else 1 (Megatron-LM is
// the reference: 1 by definition on every generation).
double LookupKernelEfficiency(const KernelEfficiencyTable& table, Framework f, const char* arch, KernelBorrow* how = nullptr);

}  // namespace gpucost
