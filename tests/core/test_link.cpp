#include <doctest/doctest.h>

#include <cstring>

#include "documents/link.h"

using namespace gpucost;

TEST_CASE("base64url round trip for every length") {
  std::string bytes;
  for (int n = 0; n < 40; ++n) {
    std::string decoded;
    REQUIRE(Base64UrlDecode(Base64UrlEncode(bytes), &decoded));
    CHECK(decoded == bytes);
    bytes.push_back(static_cast<char>(n * 37));
  }
  std::string out;
  CHECK_FALSE(Base64UrlDecode("ab+c", &out));
  CHECK_FALSE(Base64UrlDecode("a", &out));
}

TEST_CASE("a link restores the scenario and the pinned comparison exactly") {
  LinkPayload in;
  in.scenario = DefaultScenario();
  in.scenario.cluster.gpus = 16384;
  in.scenario.reliability.gpu_mtbf_hours = 50678.3;
  std::snprintf(in.scenario.name, sizeof in.scenario.name, "%s", "405B on H100");
  in.pinned.push_back(DefaultScenario());
  in.pinned.back().pricing.model = static_cast<int>(PricingModel::kSpot);
  const std::string link = EncodeLink(in, "https://example.org/gpucost/#old");
  CHECK(link.rfind("https://example.org/gpucost/#s=2.", 0) == 0);
  LinkPayload out;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(link, &out, &errors));
  CHECK(std::memcmp(&out.scenario, &in.scenario, sizeof(Scenario)) == 0);
  REQUIRE(out.pinned.size() == 1);
  CHECK(std::memcmp(&out.pinned[0], &in.pinned[0], sizeof(Scenario)) == 0);
  // The default scenario's link is tiny: the version, one scenario with no change, the checksum.
  CHECK(EncodeLink(LinkPayload{DefaultScenario(), {}}).size() <= 20);
}

TEST_CASE("bad links give a message and never crash") {
  for (const char* bad : {"", "#s=", "#s=2.abc", "#s=1.!!!!", "#s=1.e30", "hello", "#s=1.W10",
                          "#s=1.eyJzIjoxfQ", "#s=1.eyJzIjp7ImNsdXN0ZXIiOnsiZ3B1cyI6MH19fQ"}) {
    CAPTURE(bad);
    LinkPayload out;
    std::vector<InputError> errors;
    CHECK_FALSE(DecodeLink(bad, &out, &errors));
    REQUIRE_FALSE(errors.empty());
    CHECK_FALSE(errors.front().message.empty());
  }
  // A valid link with an out-of-range value names the scenario path.
  LinkPayload out;
  std::vector<InputError> errors;
  CHECK_FALSE(DecodeLink("#s=1.eyJzIjp7ImNsdXN0ZXIiOnsiZ3B1cyI6MH19fQ", &out, &errors));
  CHECK(errors.front().path == "s.cluster.gpus");
}
