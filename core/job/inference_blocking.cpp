// inference_blocking.cpp — why a serving scenario is not priced (inference_blocking.h).
#include "job/inference_blocking.h"

#include <cmath>

#include "hardware/catalog.h"
#include "base/format.h"
#include "base/i18n.h"
#include "serving/inference.h"
#include "serving/inference_model.h"

namespace gpucost {
namespace {

// The first pool that cannot hold one request (prefill first when split), as a blocking state.
bool PoolDoesNotFit(const Scenario& s, const InferenceModel& m, const InferencePoolInputs& in, BlockingState* b) {
  const GpuSpec* gpu = InferencePoolGpu(s, in);
  if (!gpu) return false;
  const std::int64_t tp = InferencePoolTp(s, in);
  const ReplicaModel r = ReplicaFor(s, m, *gpu, tp);
  if (r.fits) return false;
  const double usable = r.hbm_bytes * m.gpu_memory_fraction;
  const double one_request = m.reserved_tokens * r.kv_bytes_per_token_per_gpu;
  Message why = r.kv_bytes_per_gpu <= 0  // the weights and workspace alone exceed the usable memory
      ? Message{"serving.block.weights", {FormatGib(r.weight_bytes_per_gpu), FormatGib(r.workspace_bytes_per_gpu), FormatGib(usable), gpu->name,
                                          std::to_string(tp)}}
      : Message{"serving.block.kv", {FormatCount(m.input_tokens + m.output_tokens), FormatGib(one_request), FormatGib(r.kv_bytes_per_gpu),
                                     gpu->name, std::to_string(tp)}};
  b->Block("serving_does_not_fit", why, {"serving.block.fit_fix", {}});
  return true;
}

}  // namespace

BlockingState FindServingBlockingState(const Scenario& s, const Result& r) {
  BlockingState b;
  if (!r.ok || !r.inference.present) return b;
  const InferenceResult& ir = r.inference;
  if (!ir.fits) {
    const InferenceModel m = InferenceModelFor(s);
    if (ir.disaggregated && PoolDoesNotFit(s, m, s.inference.prefill, &b)) return b;
    if (PoolDoesNotFit(s, m, s.inference.decode, &b)) return b;
    // fits is false for a reason the pools do not show (no compute at this precision)
    b.Block("serving_does_not_fit", {"serving.block.no_compute", {}}, {"serving.block.fit_fix", {}});
    return b;
  }
  if (!ir.batch_job && ir.utilization > 1) {
    const double per_replica = ir.decode.capacity_rps > 0 ? ir.decode.capacity_rps : 0;
    const double needed = per_replica > 0 ? std::ceil(ir.requests_per_second * s.inference.peak_to_mean / per_replica) : 0;
    b.Block("serving_over_capacity",
            {"serving.block.load", {FormatNumber(ir.requests_per_second, 4), FormatNumber(ir.capacity_requests_per_second, 4)}},
            needed > 0 && !ir.disaggregated ? Message{"serving.block.load_fix_n", {FormatCount(needed)}}
                                            : Message{"serving.block.load_fix", {}});
  }
  return b;
}

}  // namespace gpucost
