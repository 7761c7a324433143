// Blocking states (issue 14, observation 8): a job that does not fit, never finishes or has no valid layout is
// not priced; the reason and the fix come first. Numbers never mix a suffix and an exponent.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "base/format.h"
#include "documents/result_json.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

Scenario Shape70B() { return test::FineTune70B(); }

}  // namespace

TEST_CASE("blocking: memory that does not fit names a fitting layout as the fix: on the cluster's own GPUs when one fits") {
  Scenario s = Shape70B();
  s.parallel.tensor_parallel = 1;
  s.parallel.zero_stage = 0;
  s.parallel.micro_batch = 4;
  const Result r = Evaluate(s);
  const BlockingState b = FindBlockingState(s, r);
  REQUIRE(b.blocked);
  CHECK(std::string(b.code) == "memory_does_not_fit");
  // Issue 47: a layout fits on the scenario's own GPUs, so the fix names that one rather than a smaller cluster.
  REQUIRE(r.memory_fit_at_gpus.found);
  CHECK(b.fix.find("A layout that fits on these " + std::to_string(s.cluster.gpus) + " GPUs") == 0);
  Scenario small = s;  // a cluster too small for any layout: the smallest count that fits
  small.cluster.gpus = 8;
  const Result rs = Evaluate(small);
  REQUIRE(rs.memory_smallest_fit.found);
  CHECK_FALSE(rs.memory_fit_at_gpus.found);
  CHECK(FindBlockingState(small, rs).fix.find("Smallest layout that fits: " + std::to_string(rs.memory_smallest_fit.layout.gpus()) + " GPUs") == 0);
  const auto doc = nlohmann::json::parse(ResultToJson(s, r));
  CHECK(doc["blocking"]["code"] == "memory_does_not_fit");
  CHECK_FALSE(FindBlockingState(Shape70B(), Evaluate(Shape70B())).blocked);
  CHECK_FALSE(nlohmann::json::parse(ResultToJson(Shape70B(), Evaluate(Shape70B()))).contains("blocking"));
}

TEST_CASE("blocking: a job that never finishes and a layout that cannot run") {
  Scenario s = DefaultScenario();
  s.cluster.gpus = 10000000;  // the 10,000,000 GPUs
  Result r = Evaluate(s);
  REQUIRE(r.never_finishes);
  CHECK(std::string(FindBlockingState(s, r).code) == "never_finishes");
  Scenario odd = Shape70B();
  odd.parallel.tensor_parallel = 3;  // 64 heads do not split 3 ways; 64 GPUs not either
  odd.cluster.gpus = 66;
  r = Evaluate(odd);
  REQUIRE(r.ok);
  const BlockingState b = FindBlockingState(odd, r);
  CHECK(b.blocked);
  CHECK(std::string(b.code) == "no_valid_layout");
}

TEST_CASE("format: money beyond the model's range says 'more than', never a suffix with an exponent") {
  for (double v : {6.76e26, 1e15, 3.3e300}) {
    const std::string usd = FormatUsd(v);
    CAPTURE(usd);
    CHECK(usd == "more than $1,000T");
    CHECK(usd.find("e+") == std::string::npos);
  }
  CHECK(FormatUsd(9.99e14).find("e+") == std::string::npos);
  CHECK(FormatMoney(6.76e26 * 1400, "KRW").find("e+") == std::string::npos);
  CHECK(FormatMoney(6.76e26 * 1400, "KRW").rfind("more than", 0) == 0);
}
