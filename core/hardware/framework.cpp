// framework.cpp — training frameworks and their measured kernel efficiency (see framework.h).
#include "hardware/framework.h"

#include <algorithm>
#include <cstring>

namespace gpucost {

const char* FrameworkName(Framework f) {
  static const char* const kNames[kFrameworkCount] = {"megatron", "nemo", "deepspeed", "fsdp",
                                                      "torchtitan", "maxtext", "jax", "other", "torchtune"};
  const int i = static_cast<int>(f);
  return i >= 0 && i < kFrameworkCount ? kNames[i] : "other";
}

bool FrameworkFromName(const std::string& name, Framework* out) {
  for (int i = 0; i < kFrameworkCount; ++i) {
    if (name == FrameworkName(static_cast<Framework>(i))) {
      *out = static_cast<Framework>(i);
      return true;
    }
  }
  return false;
}

int FrameworkFamily(Framework f) {
  switch (f) {
    case Framework::kMegatron:
    case Framework::kNemo: return 0;
    case Framework::kFsdp:
    case Framework::kTorchtitan: return 1;
    case Framework::kTorchtune: return 5;  // single-device recipes with torch.compile: not FSDP's kernels (issue 46)
    case Framework::kMaxtext:
    case Framework::kJax: return 2;
    case Framework::kDeepspeed: return 3;
    case Framework::kOther: return 4;
  }
  return 4;
}

FrameworkDefaults DefaultsOf(Framework f) {
  FrameworkDefaults d;
  switch (f) {
    case Framework::kNemo:
      d.tp_overlap = true;
      d.source = "NeMo's performance recipes and NVIDIA's MLPerf GPT-3 configurations enable tp_comm_overlap "
                 "(Transformer Engine userbuffers) with tensor parallelism on H100";
      break;
    case Framework::kMegatron:
      d.source = "Megatron-LM: --tp-comm-overlap is off unless asked for (the 2021-22 papers' runs expose it)";
      break;
    case Framework::kTorchtitan:
      d.source = "torchtitan: async tensor parallelism is opt-in (enable_async_tensor_parallel, needs torch.compile)";
      break;
    default:
      d.source = "no overlap of tensor-parallel or expert communication by default";
      break;
  }
  return d;
}

void KernelEfficiencyTable::Set(Framework f, const char* arch, double value, int runs) {
  for (int i = 0; i < count; ++i) {
    if (rows[i].framework == f && std::strcmp(rows[i].arch, arch) == 0) {
      rows[i].value = value;
      rows[i].runs = runs;
      return;
    }
  }
  if (count >= kMax) return;
  KernelEfficiencyRow& r = rows[count++];
  r.framework = f;
  std::strncpy(r.arch, arch, sizeof r.arch - 1);
  r.value = value;
  r.runs = runs;
}

const KernelEfficiencyTable& MeasuredKernelEfficiency() {
  static const KernelEfficiencyTable table = [] {
    KernelEfficiencyTable t;
    // Fitted by evidence.cpp on assets/validation/measured_runs.json (all sources); test_calibration.cpp
    // refits them and fails when these differ from the fit. Value = the share of Megatron-LM's GEMM rate
    // that zeroes the mean error of the framework's runs on that generation (runs: how many).
    t.Set(Framework::kDeepspeed, "Ampere", 0.7736, 5);   // MT-NLG 530B x 3, BLOOM 176B (Megatron-DeepSpeed); Juniper's 64-A100 LoRA (HF + DeepSpeed ZeRO-3)
    t.Set(Framework::kNemo, "Hopper-fp8", 0.8713, 63);   // NeMo 24.07 FP8 table x 7 + its fine-tuning table x 6, MLPerf v3.1 GPT-3 175B x 7, DGX Cloud FP8 x 35, MLPerf v4.0/v4.1 Llama 2 70B LoRA on H100 / H200 x 8
    t.Set(Framework::kOther, "Hopper", 0.9507, 2);       // Llama 3 405B on 8K and 16K H100 (Meta's stack)
    t.Set(Framework::kFsdp, "Hopper", 0.8488, 16);       // llm-foundry MPT 7-70B on H100 (Composer FSDP); NeMo AutoModel's LoRA table x 6 (FSDP2)
    t.Set(Framework::kFsdp, "Ampere", 0.9301, 5);        // llm-foundry MPT 7-70B on A100
    t.Set(Framework::kTorchtitan, "Ampere", 0.8606, 6);  // torchtitan Llama 2/3 on 64 A100 (FSDP2)
    // torchtitan's H100 runs were all at a 500 W power limit (Grand Teton, 96GB HBM2e): their runs are predicted
    // at that part's dense peak (measured_runs.json's titan-h100: between the SXM and NVL datasheets, as torchtitan's
    // authors say), so these rates are the framework's, not the power limit's.
    t.Set(Framework::kTorchtitan, "Hopper", 0.7959, 5);  // Llama 3.1 405B on 128 H100, 8B on 8 and 128 (with and without torch.compile)
    t.Set(Framework::kTorchtitan, "Hopper-fp8", 0.7103, 8);  // Llama 3.1 8B and 70B, torch.compile + Float8, CP up to 256K
    t.Set(Framework::kNemo, "Hopper", 1.0106, 35);       // DGX Cloud recipes' Llama 3.1 8B / 70B / 405B, GPT-3 175B and Nemotron-4 15B / 340B BF16 x 35 (NeMo 24.09 / 24.11)
    t.Set(Framework::kMaxtext, "Hopper", 1.0645, 6);     // DGX Cloud recipes' MaxText Llama 2 70B BF16, 64-2,048 H100
    t.Set(Framework::kMaxtext, "Hopper-fp8", 0.9132, 6); // the same table in FP8
    t.Set(Framework::kNemo, "Blackwell-fp8", 0.7924, 1); // MLPerf v4.1 Llama 2 70B LoRA on 8 B200 (preview)
    t.Set(Framework::kDeepspeed, "Hopper", 0.6105, 2);   // Juniper's MLPerf v4.0 LoRA on 8 and 32 H100 (HF Accelerate + DeepSpeed ZeRO-3)
    t.Set(Framework::kTorchtune, "Ampere", 1.0155, 9);   // torchtune's optimization-flags table (Llama 3.2 3B, one A100)
    return t;
  }();
  return table;
}

std::string KernelArch(const std::string& arch, int precision) {
  return precision == 2 ? arch + "-fp8" : arch;  // Precision::kFp8
}

namespace {
bool Fp8Kernels(const char* arch) { return std::strstr(arch, "-fp8") != nullptr; }
}  // namespace

double LookupKernelEfficiency(const KernelEfficiencyTable& table, Framework f, const char* arch, KernelBorrow* how) {
  KernelBorrow unused;
  KernelBorrow& b = how != nullptr ? *how : unused;
  b = KernelBorrow::kOwn;
  if (f == Framework::kMegatron) return 1.0;
  for (int i = 0; i < table.count; ++i)
    if (table.rows[i].framework == f && std::strcmp(table.rows[i].arch, arch) == 0) return table.rows[i].value;
  // The runs-weighted mean of the rows `take` accepts.
  auto weighted = [&](auto take) {
    double sum = 0;
    int n = 0;
    for (int i = 0; i < table.count; ++i)
      if (take(table.rows[i])) {
        sum += table.rows[i].value * table.rows[i].runs;
        n += table.rows[i].runs;
      }
    return n > 0 ? sum / n : -1.0;
  };
  double v = weighted([&](const KernelEfficiencyRow& r) {
    return FrameworkFamily(r.framework) == FrameworkFamily(f) && std::strcmp(r.arch, arch) == 0;
  });
  b = KernelBorrow::kFamily;
  if (v > 0) return v;
  // Issue 46: FP8 training on a generation where the framework (and its family) has no FP8 runs: its own (else its
  // family's) 16-bit rate there, times the share FP8 kernels keep of the 16-bit rate on that generation, measured
  // by the frameworks that run both there (runs-weighted by the smaller of each pair; on Hopper NeMo 0.862 and
  // MaxText 0.858 of their BF16 rates: FP8 GEMMs reach a smaller share of their doubled peak, and the casts and
  // scaling add work). Set after torchtitan's FP8 rows, held out, had fallen to Megatron-LM's 1.00 (-20 .. -38%).
  if (const char* fp8 = std::strstr(arch, "-fp8")) {
    const std::string base(arch, static_cast<std::size_t>(fp8 - arch));
    double share = 0;
    int pairs = 0;
    for (int i = 0; i < table.count; ++i) {
      const KernelEfficiencyRow& r16 = table.rows[i];
      if (base != r16.arch || r16.framework == Framework::kMegatron || !(r16.value > 0)) continue;
      for (int j = 0; j < table.count; ++j) {
        const KernelEfficiencyRow& r8 = table.rows[j];
        if (r8.framework != r16.framework || std::strcmp(r8.arch, arch) != 0) continue;
        const int w = std::min(r8.runs, r16.runs);
        share += r8.value / r16.value * w;
        pairs += w;
      }
    }
    double own16 = -1;
    for (int i = 0; i < table.count; ++i)
      if (table.rows[i].framework == f && base == table.rows[i].arch) own16 = table.rows[i].value;
    if (own16 <= 0)
      own16 = weighted([&](const KernelEfficiencyRow& r) {
        return FrameworkFamily(r.framework) == FrameworkFamily(f) && base == r.arch;
      });
    b = KernelBorrow::kSixteenBit;
    if (pairs > 0 && own16 > 0) return own16 * share / pairs;
  }
  // Issue 46: a framework's kernels relative to Megatron-LM's are a property of its software: on a GPU generation
  // where it (and its family) has no runs, its rate on the other generations at the same precision class (FP8
  // training apart), then its family's there.
  v = weighted([&](const KernelEfficiencyRow& r) { return r.framework == f && Fp8Kernels(r.arch) == Fp8Kernels(arch); });
  if (v <= 0)
    v = weighted([&](const KernelEfficiencyRow& r) {
      return FrameworkFamily(r.framework) == FrameworkFamily(f) && Fp8Kernels(r.arch) == Fp8Kernels(arch);
    });
  b = KernelBorrow::kOtherGpus;
  if (v > 0) return v;
  b = KernelBorrow::kMegatron;
  return 1.0;
}

}  // namespace gpucost
