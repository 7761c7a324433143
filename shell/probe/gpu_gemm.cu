// gpu_gemm.cu — GEMM throughput through cuBLASLt: D[m x n] = A[m x k] B[k x n], TN layout (the one fp8
// requires), fp32 accumulation (tf32: CUBLAS_COMPUTE_32F_FAST_TF32), inputs filled with uniform values in
// [-1, 1] (zeros would draw less power and flatter the clocks). 2 m n k FLOPs per GEMM.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "gpu_timing.h"

#define GPUCOST_CUBLAS(call) ::gpucost::probe_gpu::CheckBlas((call), #call, __FILE__, __LINE__)

namespace gpucost::probe_gpu {
namespace {

void CheckBlas(cublasStatus_t s, const char* what, const char* file, int line) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed at " + file + ":" + std::to_string(line) +
                             ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}

struct GemmTypes {
  cudaDataType_t ab, cd;
  cublasComputeType_t compute;
  std::size_t ab_bytes, cd_bytes;
  int min_cc;  // compute capability x 10
};

bool TypesFor(const std::string& precision, GemmTypes* t) {
  if (precision == "bf16") *t = {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, 80};
  else if (precision == "fp16") *t = {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, 70};
  else if (precision == "fp8") *t = {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, 89};
  else if (precision == "tf32") *t = {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 80};
  else if (precision == "fp32") *t = {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4, 0};
  else return false;
  return true;
}

__device__ float Uniform(std::uint64_t i, std::uint32_t seed) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull + seed;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<float>(x >> 40) / 8388608.0f - 1.0f;  // 24 bits -> [-1, 1)
}

__device__ void Store(float* p, float v) { *p = v; }
__device__ void Store(__half* p, float v) { *p = __float2half(v); }
__device__ void Store(__nv_bfloat16* p, float v) { *p = __float2bfloat16(v); }
__device__ void Store(__nv_fp8_e4m3* p, float v) { *p = __nv_fp8_e4m3(v); }

template <typename T>
__global__ void FillUniform(T* p, std::uint64_t n, std::uint32_t seed) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    Store(p + i, Uniform(i, seed));
}

void Fill(void* p, cudaDataType_t type, std::uint64_t n, std::uint32_t seed, cudaStream_t s) {
  switch (type) {
    case CUDA_R_8F_E4M3: FillUniform<<<1024, 256, 0, s>>>(static_cast<__nv_fp8_e4m3*>(p), n, seed); break;
    case CUDA_R_16F: FillUniform<<<1024, 256, 0, s>>>(static_cast<__half*>(p), n, seed); break;
    case CUDA_R_16BF: FillUniform<<<1024, 256, 0, s>>>(static_cast<__nv_bfloat16*>(p), n, seed); break;
    default: FillUniform<<<1024, 256, 0, s>>>(static_cast<float*>(p), n, seed); break;
  }
  GPUCOST_CUDA(cudaGetLastError());
}

// cuBLASLt handles released on every path out.
struct LtGemm {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic{};
  ~LtGemm() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
    if (lt) cublasLtDestroy(lt);
  }
};

constexpr std::size_t kWorkspaceBytes = 32u << 20;  // NVIDIA's recommendation for Hopper

// Times one shape at one precision; returns false (with *why) when cuBLASLt has no kernel for it or
// the GPU's memory is too small.
bool TimeGemm(int gpu, const std::string& precision, const ProbeGemmShape& shape, const Options& options,
              ProbeGemm* out, std::string* why) {
  GemmTypes t;
  if (!TypesFor(precision, &t)) return *why = "unknown precision", false;
  cudaDeviceProp p{};
  GPUCOST_CUDA(cudaGetDeviceProperties(&p, gpu));
  if (p.major * 10 + p.minor < t.min_cc) return *why = "needs a newer GPU", false;
  const std::uint64_t m = shape.m, n = shape.n, k = shape.k;
  const std::size_t bytes = (m * k + k * n) * t.ab_bytes + m * n * t.cd_bytes + kWorkspaceBytes;
  std::size_t free_bytes = 0, total = 0;
  GPUCOST_CUDA(cudaMemGetInfo(&free_bytes, &total));
  if (bytes > free_bytes * 0.9) return *why = "does not fit in memory", false;

  LtGemm g;
  GPUCOST_CUBLAS(cublasLtCreate(&g.lt));
  GPUCOST_CUBLAS(cublasLtMatmulDescCreate(&g.op, t.compute, CUDA_R_32F));
  const cublasOperation_t trans_a = CUBLAS_OP_T, trans_b = CUBLAS_OP_N;
  GPUCOST_CUBLAS(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof trans_a));
  GPUCOST_CUBLAS(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof trans_b));
  if (t.ab == CUDA_R_8F_E4M3) {  // fast accumulation, as Transformer Engine runs its forward fp8 GEMMs
    const std::int8_t fast = 1;
    GPUCOST_CUBLAS(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
  }
  GPUCOST_CUBLAS(cublasLtMatrixLayoutCreate(&g.a, t.ab, k, m, k));  // column-major k x m, used transposed
  GPUCOST_CUBLAS(cublasLtMatrixLayoutCreate(&g.b, t.ab, k, n, k));
  GPUCOST_CUBLAS(cublasLtMatrixLayoutCreate(&g.c, t.cd, m, n, m));
  GPUCOST_CUBLAS(cublasLtMatmulPreferenceCreate(&g.pref));
  const std::uint64_t workspace = kWorkspaceBytes;
  GPUCOST_CUBLAS(cublasLtMatmulPreferenceSetAttribute(g.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                      sizeof workspace));
  int found = 0;
  if (cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1, &g.heuristic, &found) !=
          CUBLAS_STATUS_SUCCESS || found == 0)
    return *why = "no cuBLASLt kernel", false;

  Stream stream;
  DeviceBuffer a(m * k * t.ab_bytes), b(k * n * t.ab_bytes), d(m * n * t.cd_bytes), ws(kWorkspaceBytes);
  Fill(a.ptr, t.ab, m * k, 1, stream.s);
  Fill(b.ptr, t.ab, k * n, 2, stream.s);
  const float alpha = 1, beta = 0;
  auto run = [&] {
    GPUCOST_CUBLAS(cublasLtMatmul(g.lt, g.op, &alpha, a.ptr, g.a, b.ptr, g.b, &beta, d.ptr, g.c, d.ptr, g.c,
                                  &g.heuristic.algo, ws.ptr, kWorkspaceBytes, stream.s));
  };
  const auto [warmup, launches] = WarmUp(stream.s, options, run);
  const std::vector<double> ms = TimeMs(stream.s, options.samples, launches, run);
  *out = ProbeGemm{gpu, precision, shape.name, shape.m, shape.n, shape.k, warmup, options.samples, launches,
                   RateStats(ms, 2.0 * m * n * k, 1e-12)};
  return true;
}

}  // namespace

void MeasureGemm(int gpu, const Options& options, ProbeReport* report, std::vector<std::string>* skipped) {
  GPUCOST_CUDA(cudaSetDevice(gpu));
  auto measure = [&](const std::string& precision, const ProbeGemmShape& shape) {
    ProbeGemm g;
    std::string why;
    if (TimeGemm(gpu, precision, shape, options, &g, &why)) report->gemm.push_back(g);
    else skipped->push_back("GPU " + std::to_string(gpu) + " " + precision + " " + shape.name + ": " + why);
  };
  for (const std::string& precision : options.precisions)
    measure(precision, {"square", options.square, options.square, options.square});
  for (const ProbeGemmShape& shape : options.layer_shapes) measure(options.layer_precision, shape);
}

}  // namespace gpucost::probe_gpu
