// test_links.cpp — GPUs without NVLink (issue 46): the PCIe path beyond the NVLink island, worked by hand, and every
// catalog GPU under every layout family giving finite results (L40S with tensor parallel 4 gave "result work.mfu is
// not finite", exit 2, because the collectives divided by an NVLink bandwidth of 0).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hardware/catalog.h"
#include "hardware/comm.h"
#include "job/evaluate.h"
#include "scenario/json_io.h"
#include "training/steptime.h"
#include "../test_util.h"

using namespace gpucost;

TEST_CASE("inside a node: NVLink inside the island, PCIe beyond it, the host bridge across the sockets") {
  // An L40S-like node: no NVLink, PCIe Gen4 x16 (32 GB/s each way), 8 GPUs, link efficiency 0.8.
  const Links pcie = LinksFor(0, 64, 1, 400e9 / 8 / 8, 8, 0.8);
  CHECK(pcie.nvlink_domain == 1);
  const IntraNodePath four = IntraNodePathOf(4, pcie);  // one socket's four GPUs
  CHECK_FALSE(four.nvlink);
  CHECK(four.bytes_per_s == doctest::Approx(32e9 * 0.8));
  CHECK(four.hop_seconds == doctest::Approx(kNvlinkHopSeconds * 5.7 / 3.4));
  const IntraNodePath eight = IntraNodePathOf(8, pcie);  // both sockets: NCCL's host-bridge bandwidth binds
  CHECK(eight.bytes_per_s == doctest::Approx(kHostBridgeBytesPerS));
  // A bridged pair (A100 PCIe: 600 GB/s NVLink between two cards): a pair rides NVLink, four GPUs ride PCIe.
  const Links bridged = LinksFor(600, 64, 2, 200e9 / 8 / 8, 8, 0.8);
  CHECK(IntraNodePathOf(2, bridged).nvlink);
  CHECK(IntraNodePathOf(2, bridged).bytes_per_s == doctest::Approx(300e9 * 0.8));
  CHECK_FALSE(IntraNodePathOf(4, bridged).nvlink);
  CHECK(IntraNodePathOf(4, bridged).bytes_per_s == doctest::Approx(32e9 * 0.8));
  // An HGX board: all eight on NVLink.
  const Links hgx = LinksFor(900, 128, 8, 3200e9 / 8 / 8, 8, 0.8);
  CHECK(IntraNodePathOf(8, hgx).nvlink);
  // A ring all-reduce of 64 MB over the L40S node's four GPUs, by hand: 2 phases x (3/4 x 64 MB / 25.6 GB/s + 3 hops).
  const double bytes = 64e6;
  CHECK(AllReduceSeconds(bytes, GroupOf(4, 1, 8), pcie) ==
        doctest::Approx(2 * (0.75 * bytes / 25.6e9 + 3 * kPcieHopSeconds)));
}

namespace {

// A Llama-3-8B-like shape small enough to leave most GPUs a fitting layout, and a 70B shape for the wide layouts.
Scenario Shaped(const char* gpu, bool big) {
  std::string text = std::string(R"({"cluster": {"gpu": ")") + gpu + R"(", "gpus": 8, "gpus_per_node": 8},
      "workload": {"model": ")" + (big ? "llama-3.1-70b" : "llama-3.1-8b") + R"(", "tokens": 1e9, "seq_len": 4096}})";
  return test::MustParse(text);
}

struct LayoutCase {
  const char* name;
  int tensor, pipeline, context, zero, interleave;
  bool sequence_parallel, big;
  int finetune;  // 0 full, 1 lora, 2 qlora
};

}  // namespace

TEST_CASE("every catalog GPU x layout family: no result is non-finite (issue 46: L40S TP4 gave work.mfu not finite)") {
  const LayoutCase cases[] = {
      {"data parallel", 1, 1, 1, 0, 1, false, false, 0},        {"ZeRO-1", 1, 1, 1, 1, 1, false, false, 0},
      {"FSDP / ZeRO-3", 1, 1, 1, 3, 1, false, false, 0},        {"tensor 2", 2, 1, 1, 1, 1, true, false, 0},
      {"tensor 4", 4, 1, 1, 1, 1, false, false, 0},             {"tensor 8", 8, 1, 1, 1, 1, true, true, 0},
      {"pipeline 4 interleaved", 1, 4, 1, 1, 2, false, false, 0}, {"tensor 2 pipeline 2 context 2", 2, 2, 2, 1, 1, true, false, 0},
      {"pipeline 8", 1, 8, 1, 0, 1, false, true, 0},            {"LoRA tensor 4", 4, 1, 1, 0, 1, true, true, 1},
      {"QLoRA data parallel", 1, 1, 1, 0, 1, false, false, 2},  {"LoRA FSDP", 1, 1, 1, 3, 1, false, true, 1},
  };
  int checked = 0;
  for (std::size_t g = 0; g < GpuCount(); ++g) {
    const GpuSpec& gpu = Gpus()[g];
    for (const LayoutCase& c : cases) {
      Scenario s = Shaped(gpu.id.c_str(), c.big);
      s.parallel.tensor_parallel = c.tensor;
      s.parallel.pipeline_parallel = c.pipeline;
      s.parallel.context_parallel = c.context;
      s.parallel.data_parallel = 8 / (c.tensor * c.pipeline * c.context);
      s.parallel.zero_stage = c.zero;
      s.parallel.pipeline_interleave = c.interleave;
      s.parallel.sequence_parallel = c.sequence_parallel;
      s.parallel.global_batch = 64;
      s.parallel.micro_batch = 1;
      s.finetune.mode = c.finetune;
      if (gpu.dense_tflops[static_cast<int>(Precision::kBf16)] <= 0) continue;  // no bf16: the scenario is refused
      CAPTURE(gpu.id);
      CAPTURE(c.name);
      const Result r = Evaluate(s);
      REQUIRE(r.ok);
      CHECK(NonFiniteResultPath(r) == "");
      CHECK(r.step.ok());
      CHECK(std::isfinite(r.step.seconds));
      CHECK(r.step.seconds > 0);
      CHECK(std::isfinite(r.step.mfu));
      ++checked;
    }
    // Serving at tensor parallel 1 to 8 (over PCIe where the GPU has no NVLink).
    for (int tp : {1, 2, 4, 8}) {
      Scenario s = test::MustParse(std::string(R"({"workload": {"kind": "inference", "model": "llama-3.1-8b"},
          "cluster": {"gpu": ")") + gpu.id + R"("}, "inference": {"requests_per_second": 2}})");
      s.parallel.tensor_parallel = tp;
      CAPTURE(gpu.id);
      CAPTURE(tp);
      const Result r = Evaluate(s);
      REQUIRE(r.ok);
      CHECK(NonFiniteResultPath(r) == "");
      ++checked;
    }
  }
  CHECK(checked >= 16 * 16);
}

TEST_CASE("L40S, tensor parallel 4: its collectives go over PCIe and the step is finite and slower than on NVLink") {
  Scenario s = Shaped("l40s", false);
  s.parallel.tensor_parallel = 4;
  s.parallel.data_parallel = 2;
  s.parallel.global_batch = 64;
  const Result pcie = Evaluate(s);
  REQUIRE(pcie.step.ok());
  CHECK(NonFiniteResultPath(pcie) == "");
  s.cluster.nvlink_gbps = 900;  // as if the cards were joined by an H100's NVLink
  const Result nvlink = Evaluate(s);
  REQUIRE(nvlink.step.ok());
  CHECK(pcie.step.tp_comm_seconds > 5 * nvlink.step.tp_comm_seconds);
  CHECK(pcie.step.seconds > nvlink.step.seconds);
}
