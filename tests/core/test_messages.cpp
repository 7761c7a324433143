// Messages as codes (issue 27): warnings, notes and blocking states are a key of the string tables and its
// parameters; the documents carry them and are the same bytes in every language; the page and the CLI render
// them in theirs from the key, not by matching English text.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "job/evaluate.h"
#include "explore/fleet.h"
#include "base/i18n.h"
#include "scenario/json_io.h"
#include "base/message.h"
#include "money/offers.h"
#include "scenario/quantity.h"
#include "documents/result_json.h"

using namespace gpucost;

namespace {

bool HasHangulText(const std::string& s) {  // U+AC00..U+D7A3: lead bytes EA..ED
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0xEA && c <= 0xED) return true;
  }
  return false;
}

Scenario Parsed(const std::string& json) {
  const ScenarioParse p = ParseScenarioJson(json);
  REQUIRE(p.ok());
  return p.scenario;
}

// Scenarios that raise warnings and each blocking state (training, serving, an offer priced by quote).
const char* const kWarned[] = {
    R"({"cluster": {"gpus": 16384, "mfu": 0.7}, "reliability": {"gpu_mtbf_hours": 2000, "checkpoint_interval_minutes": 600}})",
    R"({"reliability": {"checkpointing": false}, "cluster": {"gpus": 4096}})",
    R"({"pricing": {"model": "spot"}, "cluster": {"gpus": 16384}, "workload": {"params": 70e9, "tokens": 15e12}})",
    R"({"storage": {"read_gbps": 0.001}, "workload": {"input_bytes_per_token": 4000}})",
    R"({"workload": {"model": "llama-2-70b"}, "cluster": {"gpus": 8}, "parallel": {"global_batch": 512}})",
    R"({"workload": {"layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096, "vocab": 32000},
        "parallel": {"global_batch": 512, "tensor_parallel": 3}, "cluster": {"gpus": 63}})",
    R"({"workload": {"kind": "inference", "model": "llama-2-70b"}, "cluster": {"gpu": "l40s", "gpus": 1},
        "inference": {"requests_per_second": 5}})",
    R"({"workload": {"kind": "inference", "model": "llama-2-70b"}, "cluster": {"gpu": "h100-sxm", "gpus": 8},
        "parallel": {"tensor_parallel": 8}, "inference": {"requests_per_second": 500, "decode": {"replicas": 1}}})",
    R"({"data": {"preprocess": {"samples_per_core_second": 100}}, "storage": {"staging": {"dataset_gb": 100}}})",
};

// Those, and one whose offer is priced by quote (blocked until the price is typed).
std::vector<Scenario> WarnedScenarios() {
  std::vector<Scenario> out;
  for (const char* json : kWarned) out.push_back(Parsed(json));
  Scenario quote = DefaultScenario();
  ApplyOffer(*FindOffer("ncp-gpu-server-h200"), &quote);
  out.push_back(quote);
  return out;
}

}  // namespace

TEST_CASE("messages: every warning and blocking state is a key with parameters, rendered in each language") {
  int warnings = 0, blocked = 0;
  for (const Scenario& s : WarnedScenarios()) {
    CAPTURE(ScenarioToJson(s));
    const Result r = Evaluate(s);
    REQUIRE(r.ok);
    for (int i = 0; i < r.warnings.count; ++i, ++warnings) {
      CAPTURE(r.warnings.code[i]);
      REQUIRE(r.warnings.key[i] != nullptr);
      CHECK(HasTranslation(Lang::kEn, r.warnings.key[i]));
      CHECK(HasTranslation(Lang::kKo, r.warnings.key[i]));
      const std::string en = r.warnings.Text(i, Lang::kEn), ko = r.warnings.Text(i, Lang::kKo);
      CAPTURE(en);
      CAPTURE(ko);
      CHECK(HasHangulText(ko));
      CHECK_FALSE(HasHangulText(en));
      for (const std::string& t : {en, ko}) CHECK(t.find("{0}") == std::string::npos);  // every placeholder filled
      for (const MessageParam& p : r.warnings.Params(i)) {  // each value reads the same in both languages
        if (p.is_key) continue;
        CHECK(en.find(p.text) != std::string::npos);
        CHECK(ko.find(p.text) != std::string::npos);
      }
    }
    const BlockingState b = FindBlockingState(s, r);
    if (!b.blocked) continue;
    ++blocked;
    CHECK(b.reason == b.reason_message.Text(Lang::kEn));
    CHECK(b.fix == b.fix_message.Text(Lang::kEn));
    CHECK(HasHangulText(b.reason_message.Text(Lang::kKo)));
    CHECK(HasHangulText(b.fix_message.Text(Lang::kKo)));
  }
  CHECK(warnings >= 10);
  CHECK(blocked >= 3);
}

TEST_CASE("messages: the result document is the same bytes whatever the language (a blocked serving scenario leaked it)") {
  const Lang before = CurrentLanguage();
  for (const Scenario& s : WarnedScenarios()) {
    CAPTURE(ScenarioToJson(s));
    SetLanguage(Lang::kEn);
    const std::string en = ResultToJson(s, Evaluate(s));
    SetLanguage(Lang::kKo);
    const std::string ko = ResultToJson(s, Evaluate(s));
    SetLanguage(before);
    CHECK(en == ko);
    CHECK_FALSE(HasHangulText(en));
  }
  // The document carries the key and parameters: rendering them gives the English message it also carries.
  const Scenario s = Parsed(kWarned[6]);
  const nlohmann::json doc = nlohmann::json::parse(ResultToJson(s, Evaluate(s)));
  const nlohmann::json& b = doc["blocking"];
  REQUIRE(b.is_object());
  CHECK(b["code"] == "serving_does_not_fit");
  std::vector<MessageParam> params;
  for (const auto& p : b["reason_params"]) params.emplace_back(p.get<std::string>());
  CHECK(RenderMessage(Lang::kEn, b["reason_key"].get<std::string>(), params) == b["reason"].get<std::string>());
  // Hand-written: the weights of Llama 2 70B in BF16 (2 bytes x 69B parameters = 138e9 bytes = 128.5 GiB) on one L40S.
  CHECK(b["reason_params"][0] == "128.5 GiB");
  CHECK(b["reason_params"][3] == "NVIDIA L40S 48GB");
}

TEST_CASE("messages: parameters survive the warning list's storage, keys with their own parameters too") {
  Warnings w;
  w.Add("a", "msg.w_fleet_commitment", {MessageParam::Key("msg.term_months", {"18"}), "1,024"});
  REQUIRE(w.count == 1);
  CHECK(w.Text(0, Lang::kEn) == "The 18-month commitment (up to 1,024 GPUs) is a discount, not reserved capacity: GPUs may "
                                "still be unavailable when needed.");
  const std::string ko = w.Text(0, Lang::kKo);
  CHECK(ko.find("18개월") != std::string::npos);
  CHECK(ko.find("1,024") != std::string::npos);
  const nlohmann::json j = WarningJson(w, 0);
  CHECK(j["key"] == "msg.w_fleet_commitment");
  CHECK(j["params"][0]["key"] == "msg.term_months");
  CHECK(j["params"][0]["params"][0] == "18");
  CHECK(j["params"][1] == "1,024");
  // A list longer than the storage is shortened where an item ends, never inside a name, and says so.
  std::string list;
  for (int i = 0; i < 40; ++i) list += (i ? ", " : "") + std::string("workload.field_") + std::to_string(i);
  w.Add("b", "msg.w_fields_not_used_job", {list});
  REQUIRE(w.count == 2);
  const std::string kept = w.Params(1)[0].text;
  CHECK(kept.size() < list.size());
  CHECK(kept.substr(kept.size() - 5) == ", ...");
  CHECK(list.rfind(kept.substr(0, kept.size() - 5), 0) == 0);
  CHECK(list.substr(kept.size() - 5, 2) == ", ");
  // AddFrom copies as it is.
  Warnings copy;
  copy.AddFrom(w, 0);
  CHECK(copy.Text(0, Lang::kKo) == ko);
}

TEST_CASE("messages: a fleet's commitment notes read in Korean, the user's own name as written") {
  FleetInputs f = DefaultFleet();
  f.months = 12;
  for (int m = 0; m < f.months; ++m) f.demand_gpus[m] = 64;
  f.demand_gpus[2] += 64;
  f.plan_hybrid = false;
  auto commitment_notes = [](const FleetInputs& in, Lang lang) {
    const FleetResult r = PlanFleet(in);
    std::string out;
    for (int i = 0; i < r.notes.count; ++i)
      if (std::strcmp(r.notes.code[i], "commitment_not_capacity") == 0) out += r.notes.Text(i, lang) + "\n";
    return out;
  };
  const std::string en = commitment_notes(f, Lang::kEn), ko = commitment_notes(f, Lang::kKo);
  CAPTURE(en);
  CAPTURE(ko);
  REQUIRE(en.find("The 1-year commitment") != std::string::npos);
  CHECK(ko.find("1년") != std::string::npos);  // the fleet's own names are keys
  CHECK(ko.find("1-year") == std::string::npos);
  std::snprintf(f.commitments[0].name, sizeof f.commitments[0].name, "%s", "Team deal");
  CHECK(commitment_notes(f, Lang::kKo).find("Team deal") != std::string::npos);
}

TEST_CASE("messages: validation errors are keys with parameters; the Korean comes from the key, not from the English") {
  const Lang before = CurrentLanguage();
  SetLanguage(Lang::kKo);  // the parser writes the same English whatever the language
  const ScenarioParse p = ParseScenarioJson(
      R"({"cluster": {"gpus": "x", "gpu": "z100"}, "workload": {"precision": "fp3", "heads": 7, "hidden": 100}, "nope": 1})");
  SetLanguage(before);
  REQUIRE(p.errors.size() >= 3);
  std::vector<std::string> en, ko;
  for (const InputError& e : p.errors) {
    CAPTURE(e.Text());
    CHECK_FALSE(e.coded.empty());
    CHECK(e.Text(Lang::kEn) == e.Text());
    CHECK(HasHangulText(e.Text(Lang::kKo)));
    en.push_back(e.Text());
    ko.push_back(e.Text(Lang::kKo));
  }
  // Hand-written: what the parser has always said, and its Korean from the tables' wording.
  CHECK(en[0] == "cluster.gpus: expected a number, got a string; allowed: an integer from 1 to 10,000,000");
  CHECK(ko[0] == "cluster.gpus: 숫자여야 합니다. 입력값: 문자열, 허용 범위: 1부터 10,000,000까지의 정수");
  bool unknown_key = false;
  for (const std::string& t : en) unknown_key |= t == "nope: unknown key: not a scenario field";
  CHECK(unknown_key);
  // The key decides, not the English: an error whose English text were different still reads the same in Korean.
  InputError e = p.errors[0];
  const std::string korean = e.Text(Lang::kKo);
  e.message = "something else entirely";
  CHECK(e.Text(Lang::kKo) == korean);
  // An auto field's range says it may be omitted, in both languages.
  const ScenarioParse a = ParseScenarioJson(R"({"workload": {"layers": -2}})");
  REQUIRE(a.errors.size() == 1);
  CAPTURE(a.errors[0].Text());
  CHECK(a.errors[0].Text().find("(omit for automatic)") != std::string::npos);
  CHECK(a.errors[0].Text(Lang::kKo).find("(생략하면 자동)") != std::string::npos);
  // The JSON of an error carries the key and parameters beside the English.
  const nlohmann::json j = InputErrorJson(p.errors[0]);
  CHECK(j["key"] == "msg.expected_number");
  CHECK(j["params"][0]["key"] == "msg.type_string");
  CHECK(j["params"][1]["key"] == "msg.range_integer");
  CHECK(j["params"][1]["params"][1] == "10,000,000");
}

TEST_CASE("messages: a typed value's refusal is a key with its reason and the range as the field shows it") {
  double v = 0;
  const Message bad = FieldInputProblem(*FindField("cluster.gpus"), "70X", &v);
  CHECK(bad.key == "msg.q_not_allowed_why");
  CHECK(bad.Text(Lang::kEn) == "\"70X\" is not allowed: not a number (numbers look like 70B, 1.5M, 300k, 1e9, 2,048); "
                               "must be an integer from 1 to 10,000,000");
  CHECK(bad.Text(Lang::kEn) == ParseFieldInput(*FindField("cluster.gpus"), "70X", &v));
  const std::string ko = bad.Text(Lang::kKo);
  CAPTURE(ko);
  CHECK(HasHangulText(ko));
  CHECK(ko.find("\"70X\"") != std::string::npos);
  CHECK(ko.find("10,000,000") != std::string::npos);
  // A bare 40 in a fraction field: both ways to type it, in the field's own terms.
  const Message fraction = FieldInputProblem(*FindField("cluster.mfu"), "40", &v);
  CHECK(fraction.key == "msg.q_fraction");
  CHECK(fraction.Text(Lang::kEn).find(": type 0.4 or 40%") != std::string::npos);
  CHECK(fraction.Text(Lang::kKo).find("0.4") != std::string::npos);
  CHECK(FieldInputProblem(*FindField("cluster.mfu"), "40%", &v).empty());
  CHECK(v == 0.4);
}

TEST_CASE("messages: a key given twice is named in Korean too (it was the one validation error left in English)") {
  const ScenarioParse p = ParseScenarioJson(R"({"cluster": {"gpus": 8, "gpus": 16}})");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].Text() == "cluster.gpus: given twice in the same object (JSON leaves duplicates undefined): keep one");
  const std::string ko = p.errors[0].Text(Lang::kKo);
  CAPTURE(ko);
  CHECK(ko.rfind("cluster.gpus: ", 0) == 0);
  CHECK(HasHangulText(ko));
  CHECK(ko.find("given twice") == std::string::npos);
}
