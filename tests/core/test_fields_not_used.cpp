// A field the model does not read for this kind of scenario is reported, never ignored (the brief: "never a
// silent change"): FieldsNotUsed (fields.h) and the warning Evaluate adds. The list of fields a serving scenario
// does not read is checked against the model itself: setting any of them leaves every serving preset's result as
// it was (but the warning), so the warning never names a field that matters.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/presets.h"
#include "documents/result_json.h"

using namespace gpucost;
using nlohmann::json;

namespace {

Scenario NotUsedPreset(const std::string& id) {
  Scenario s;
  std::string error;
  REQUIRE_MESSAGE(LoadPreset(id, &s, &error), error);
  return s;
}

// The result document without its warnings.
json WithoutWarnings(const Scenario& s) {
  const Result r = Evaluate(s);
  REQUIRE(r.ok);
  json doc = json::parse(ResultToJson(s, r));
  doc.erase("warnings");
  return doc;
}

std::string Warning(const Result& r, const char* code) {
  for (int i = 0; i < r.warnings.count; ++i)
    if (std::string(r.warnings.code[i]) == code) return r.warnings.Text(i, Lang::kEn);
  return "";
}

// A value other than the field's current one, inside its range (0 when none was found).
bool Perturb(Scenario* s, const FieldSpec& f) {
  const double v = GetNumber(*s, f);
  switch (f.kind) {
    case FieldKind::kBool: SetNumber(*s, f, v != 0 ? 0 : 1); return true;
    case FieldKind::kEnum: SetNumber(*s, f, v != 0 ? 0 : 1); return true;
    case FieldKind::kText: return false;
    case FieldKind::kInteger:
    case FieldKind::kNumber:
      for (double c : {v * 1.37 + 1, v * 0.61, 0.5, 3.0, 17.0}) {
        if (f.kind == FieldKind::kInteger) c = static_cast<double>(static_cast<long long>(c + 0.5));
        if (c != v && ValueInRange(f, c)) {
          SetNumber(*s, f, c);
          return true;
        }
      }
      return false;
  }
  return false;
}

}  // namespace

TEST_CASE("fields not read: every field reported for a serving scenario leaves every serving preset's result unchanged") {
  int reported = 0;
  for (const PresetInfo& p : Presets()) {
    const Scenario base = NotUsedPreset(p.id);
    if (Kind(base) != WorkloadKind::kInference) continue;
    CAPTURE(p.id);
    REQUIRE(FieldsNotUsed(base).empty());  // the presets set nothing they do not use
    const json expected = WithoutWarnings(base);
    for (std::size_t i = 0; i < FieldCount(); ++i) {
      const FieldSpec& f = Fields()[i];
      Scenario s = base;
      if (!Perturb(&s, f) || !ValidateScenario(s).empty()) continue;
      const std::vector<const FieldSpec*> unused = FieldsNotUsed(s);
      const bool named = unused.size() == 1 && unused[0] == &f;
      if (!named) continue;
      CAPTURE(f.path);
      ++reported;
      CHECK(WithoutWarnings(s) == expected);  // really not read
      CHECK(Warning(Evaluate(s), "fields_not_used").find(f.path) != std::string::npos);  // and said
    }
  }
  MESSAGE(reported << " (preset, field) pairs reported as not read by serving, each checked unchanged");
  CHECK(reported >= 5 * 50);  // five serving presets, ~60 training fields each
}

TEST_CASE("fields not read: a training layout on a service, serving inputs on a training job; a model's own shape is not") {
  Scenario chat = NotUsedPreset("llama2-70b-chat-h100");
  chat.parallel.pipeline_parallel = 2;
  chat.reliability.checkpoint_interval_minutes = 30;
  const Result r = Evaluate(chat);
  REQUIRE(r.ok);
  const std::string w = Warning(r, "fields_not_used");
  CHECK(w.find("parallel.pipeline_parallel") != std::string::npos);
  CHECK(w.find("reliability.checkpoint_interval_minutes") != std::string::npos);
  CHECK(w.find("serving") != std::string::npos);

  Scenario train = NotUsedPreset("llama2-70b-a100");
  REQUIRE(Kind(train) == WorkloadKind::kTraining);
  CHECK(FieldsNotUsed(train).empty());
  train.inference.requests_per_second = 5;
  train.inference.slo.tpot_ms = 50;
  const std::string t = Warning(Evaluate(train), "fields_not_used");
  CHECK(t.find("inference.requests_per_second") != std::string::npos);
  CHECK(t.find("inference.slo.tpot_ms") != std::string::npos);

  // A named model fills workload.seq_len, which serving does not read: the model's value is not the user's.
  const ScenarioParse p = ParseScenarioJson(R"({"workload": {"kind": "inference", "model": "llama-2-7b"}})");
  REQUIRE(p.ok());
  CHECK(FieldsNotUsed(p.scenario).empty());
  Scenario typed = p.scenario;
  typed.workload.seq_len = 8192;  // typed over the model's: reported
  REQUIRE(FieldsNotUsed(typed).size() == 1);
  CHECK(std::string(FieldsNotUsed(typed)[0]->path) == "workload.seq_len");

  // Many fields: the first three by path, then how many more, inside a warning's 200 bytes.
  Scenario many = chat;
  many.parallel.zero_stage = 3;
  many.parallel.micro_batch = 4;
  many.cluster.mfu = 0.4;
  const std::string m = Warning(Evaluate(many), "fields_not_used");
  CHECK(m.find(", +") != std::string::npos);
  CHECK(m.size() < 200);
}

TEST_CASE("fields not read: the prefill pool on a colocated service, chunked prefill on a disaggregated one") {
  Scenario chat = NotUsedPreset("llama2-70b-chat-h100");
  REQUIRE(static_cast<InferenceMode>(chat.inference.mode) == InferenceMode::kColocated);
  const json expected = WithoutWarnings(chat);
  chat.inference.prefill.tensor_parallel = 4;
  chat.inference.prefill.usd_per_gpu_hour = 1.5;
  CHECK(WithoutWarnings(chat) == expected);  // a colocated service has one pool (cluster.*, inference.decode.*)
  const std::string w = Warning(Evaluate(chat), "fields_not_used");
  CHECK(w.find("inference.prefill.tensor_parallel") != std::string::npos);
  CHECK(w.find("inference.prefill.usd_per_gpu_hour") != std::string::npos);
  // The KV link is read by the serving plan's split candidates of a colocated scenario: not reported.
  chat = NotUsedPreset("llama2-70b-chat-h100");
  chat.inference.kv_link_gbps = 100;
  CHECK(FieldsNotUsed(chat).empty());

  Scenario split = NotUsedPreset("llama2-70b-split-h100-a100");
  REQUIRE(static_cast<InferenceMode>(split.inference.mode) == InferenceMode::kDisaggregated);
  CHECK(FieldsNotUsed(split).empty());  // its prefill pool is read
  split.inference.chunked_prefill = 0;
  REQUIRE(FieldsNotUsed(split).size() == 1);
  CHECK(std::string(FieldsNotUsed(split)[0]->path) == "inference.chunked_prefill");
}
