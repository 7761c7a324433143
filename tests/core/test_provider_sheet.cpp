// The provider comparison sheet (provider_sheet.h): facts side by side, unanswered items open, carried by
// JSON and share links with the comparison.
#include <doctest/doctest.h>

#include <cstring>

#include "job/validate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "money/provider_sheet.h"

using namespace gpucost;

namespace {

const SheetRow& Row(const ProviderSheetDoc& d, const std::string& key) {
  for (const SheetRow& r : d.rows)
    if (r.key == key) return r;
  FAIL("no row " << key);
  return d.rows.front();
}

Scenario Answered() {
  Scenario s = DefaultScenario();
  std::snprintf(s.provider.provider, kSheetTextCapacity, "%s", "국내 클라우드 A, H200 GPU 서버");
  std::snprintf(s.provider.data_location, kSheetTextCapacity, "%s", "대한민국 (서울 가산)");
  std::snprintf(s.provider.encryption, kSheetTextCapacity, "%s", "저장 시 AES-256, 키는 고객 관리");
  s.pricing.tax_rate = 0.1;
  s.pricing.price_includes_tax = true;
  s.pricing.currency = static_cast<int>(Currency::kKrw);
  s.pricing.krw_per_usd = 1439;
  s.storage.usd_per_gb_egress = 120.0 / 1439;  // 120 KRW/GB
  return s;
}

}  // namespace

TEST_CASE("provider sheet: the same rows for every column, unanswered items empty, open security items counted") {
  Scenario blank = DefaultScenario();
  blank.storage.usd_per_gb_egress = 0;  // no egress price entered
  const Scenario answered = Answered();
  const ProviderSheetDoc d = BuildProviderSheet({blank, answered});
  for (const SheetRow& r : d.rows) CHECK(r.values.size() == 2);
  for (const char* key : {"gpu_model", "gpus_per_server", "provider.cpu", "provider.tenancy", "provider.interconnect",
                          "provider.os_driver", "vat", "provider.minimum_term", "provider.setup_fee", "provider.support_scope",
                          "egress", "extra_storage", "provider.data_location", "provider.access_control",
                          "provider.encryption", "provider.audit_logs", "provider.backup_location",
                          "provider.staff_access", "provider.incident_response", "provider.sla"})
    CHECK(Row(d, key).key == key);
  CHECK(Row(d, "gpu_model").values[0] == "NVIDIA H100 SXM5 80GB (80 GB)");
  CHECK(Row(d, "gpus_per_server").values[0] == "8");
  CHECK(Row(d, "provider.data_location").values[0].empty());
  CHECK(Row(d, "provider.data_location").values[1] == "대한민국 (서울 가산)");
  CHECK(Row(d, "vat").values[1] == "included in the price (10.0%)");
  CHECK(Row(d, "egress").values[0].empty());              // no price entered: ask, not "free"
  CHECK(Row(d, "egress").values[1] == "₩120 /GB");
  int security = 0;
  for (const SheetRow& r : d.rows) security += r.group == SheetGroup::kSecurity;
  REQUIRE(d.open_security_items.size() == 2);
  CHECK(d.open_security_items[0] == security);               // nothing answered
  CHECK(d.open_security_items[1] == security - 2);           // a domestic location and encryption answered; the rest stays open
}

TEST_CASE("provider sheet: answers in Korean travel with the comparison in JSON and share links") {
  const Scenario s = Answered();
  const ScenarioParse p = ParseScenarioJson(ScenarioToJson(s));
  REQUIRE(p.ok());
  CHECK(std::string(p.scenario.provider.data_location) == "대한민국 (서울 가산)");
  LinkPayload in{DefaultScenario(), {DefaultScenario(), s}};
  LinkPayload out;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(EncodeLink(in), &out, &errors));
  REQUIRE(out.pinned.size() == 2);
  CHECK(std::string(out.pinned[1].provider.provider) == "국내 클라우드 A, H200 GPU 서버");
  CHECK(std::string(out.pinned[1].provider.encryption) == "저장 시 AES-256, 키는 고객 관리");
  CHECK(BuildProviderSheet(out.pinned).open_security_items == BuildProviderSheet(in.pinned).open_security_items);
}

TEST_CASE("provider sheet: an answer longer than 80 characters is refused with the field's name") {
  const std::string long_answer(81, 'x');
  const ScenarioParse p = ParseScenarioJson("{\"provider\": {\"sla\": \"" + long_answer + "\"}}");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].Text() == "provider.sla: must be text of at most 80 characters, got 81");
}

TEST_CASE("provider sheet: a service's column names the GPUs its pools run on, not cluster.gpu") {
  // Found in a new user's walk-through (2026-12-07): comparing serving options, the A100 column and the H100-prefill /
  // A100-decode column both read "NVIDIA H100 SXM5 80GB" (cluster.gpu) in the sheet's first row.
  Scenario colocated = DefaultScenario();
  colocated.workload.kind = static_cast<int>(WorkloadKind::kInference);
  std::snprintf(colocated.cluster.gpu, kTextCapacity, "%s", "h100-sxm");
  std::snprintf(colocated.inference.decode.gpu, kTextCapacity, "%s", "a100-sxm-80gb");
  Scenario split = colocated;
  split.inference.mode = static_cast<int>(InferenceMode::kDisaggregated);
  std::snprintf(split.inference.prefill.gpu, kTextCapacity, "%s", "h100-sxm");
  Scenario same = split;  // both pools on cluster.gpu: one GPU named
  same.inference.prefill.gpu[0] = same.inference.decode.gpu[0] = 0;
  const ProviderSheetDoc d = BuildProviderSheet({colocated, split, same});
  const std::string a100 = FindGpu("a100-sxm-80gb")->name + " (80 GB)", h100 = "NVIDIA H100 SXM5 80GB (80 GB)";
  CHECK(Row(d, "gpu_model").values[0] == a100);
  CHECK(Row(d, "gpu_model").values[1] == h100 + " (prefill) + " + a100 + " (decode)");
  CHECK(Row(d, "gpu_model").values[2] == h100);
}
