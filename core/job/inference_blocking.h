// inference_blocking.h — a serving scenario that cannot run as described is not priced (issue 31): the
// blocking state of evaluate.h for workload.kind = inference, with its reason and fix.
//   serving_does_not_fit   a pool's GPUs cannot hold the weights, the workspace and one request's KV cache
//                          (10T parameters on one GPU; 1e7 output tokens whose KV cache alone is terabytes)
//   serving_over_capacity  the given replicas serve less than the mean load within the target: the queue
//                          grows without end, so no latency or cost per request exists
#pragma once
#include "job/evaluate.h"

namespace gpucost {

// blocked = false when the serving scenario runs (or s is not an inference scenario).
BlockingState FindServingBlockingState(const Scenario& s, const Result& r);

}  // namespace gpucost
