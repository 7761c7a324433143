// A field the model does not read for this kind of scenario is reported, never ignored (the brief: "never a
// silent change"): FieldsNotUsed (fields.h) and the warning Evaluate adds. The list of fields a serving scenario
// does not read is checked against the model itself: setting any of them leaves every serving preset's result as
// it was (but the warning), so the warning never names a field that matters.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "job/validate.h"
#include "job/evaluate.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "scenario/models.h"
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
      const std::vector<FieldNotUsed> unused = FieldsNotUsed(s);
      const bool named = unused.size() == 1 && unused[0].field == &f && unused[0].why == NotUsedWhy::kKind;
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
  CHECK(std::string(FieldsNotUsed(typed)[0].field->path) == "workload.seq_len");

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
  CHECK(std::string(FieldsNotUsed(split)[0].field->path) == "inference.chunked_prefill");
}

// ---------------------------------------------------------------------------------------------------------------
// The step-time model's inputs (fields.cpp: kReadOnlyByStepModel): read only when it predicts the MFU.

namespace {

// The evaluation as the result document writes it, without what a field not used may still change: the warnings
// (they name it) and the step-time model's own prediction (doc.step, the band's step_seconds_range: shown, but with
// cluster.mfu given it sets no time). Everything else (every total, part, the MFU, memory, blocking) is compared.
std::string Totals(const Scenario& s) {
  const Result r = Evaluate(s);
  if (!r.ok) return "not ok";
  json doc = json::parse(ResultToJson(s, r));
  doc.erase("warnings");
  doc.erase("step");
  if (doc.contains("evidence_band")) doc["evidence_band"].erase("step_seconds_range");
  return doc.dump();
}

// What Evaluate asks: the layouts were ranked when the job does not fit its memory.
std::vector<FieldNotUsed> AsEvaluated(const Scenario& s) {
  const Result r = Evaluate(s);
  return FieldsNotUsed(s, r.memory_present && !r.memory.fits());
}

std::vector<std::string> StepPaths(const Scenario& s) {
  std::vector<std::string> out;
  for (const FieldNotUsed& u : AsEvaluated(s))
    if (u.why != NotUsedWhy::kKind) out.push_back(u.field->path);
  return out;
}

bool Has(const std::vector<std::string>& paths, const char* path) {
  for (const std::string& p : paths)
    if (p == path) return true;
  return false;
}

Scenario WithModel(Scenario s, const char* id) {
  const ModelSpec* m = FindModel(id);
  REQUIRE(m != nullptr);
  ApplyModel(*m, &s, [](const char*) { return false; });
  return s;
}

}  // namespace

TEST_CASE("fields not read: the step-time model's inputs when cluster.mfu is given or no step can be predicted") {
  // Llama-2-70B on 2,048 A100s with the card's MFU 0.43 and no model shape: compute = 6 N D / (GPUs x peak x MFU)
  // = 6 x 70e9 x 2e12 / (2048 x 312e12 x 0.43) = 3.07e6 s, whatever the attention kernel.
  Scenario given = NotUsedPreset("llama2-70b-a100");
  REQUIRE(given.cluster.mfu == 0.43);
  REQUIRE(FieldsNotUsed(given).empty());
  const Result before = Evaluate(given);
  CHECK(before.ideal_hours * 3600 == doctest::Approx(6 * 70e9 * 2e12 / (2048 * 312e12 * 0.43)).epsilon(1e-9));
  given.parallel.flash_attention = false;
  REQUIRE(FieldsNotUsed(given).size() == 1);
  CHECK(FieldsNotUsed(given)[0].why == NotUsedWhy::kMfuGiven);
  const std::string w = Warning(Evaluate(given), "fields_not_used");
  CHECK(w.find("parallel.flash_attention") != std::string::npos);
  CHECK(w.find("cluster.mfu is given") != std::string::npos);
  CHECK(Evaluate(given).expected_usd == before.expected_usd);

  // The same job with Llama 2 70B's shape and a global batch, cluster.mfu on auto: the step-time model sets the MFU,
  // and the attention kernel changes it (and so the cost): not reported.
  Scenario predicted = WithModel(NotUsedPreset("llama2-70b-a100"), "llama-2-70b");
  predicted.cluster.mfu = 0;
  predicted.parallel.tensor_parallel = 8;
  predicted.parallel.pipeline_parallel = 4;
  predicted.parallel.zero_stage = 1;
  predicted.parallel.global_batch = 1024;
  REQUIRE(ValidateScenario(predicted).empty());
  const Result fused = Evaluate(predicted);
  REQUIRE(fused.mfu_source == MfuSource::kPredicted);
  predicted.parallel.flash_attention = false;
  predicted.parallel.fused_elementwise = false;
  CHECK(StepPaths(predicted).empty());
  CHECK(Evaluate(predicted).mfu < fused.mfu);

  // The shape with cluster.mfu given: the kernels no longer set the time (reported), but a fused attention kernel
  // still changes the activation memory (memory.cpp: 5 a s / (h t) bytes per sbh without it): not reported.
  Scenario given_70b = predicted;  // selective recompute (the default) drops the scores: only the step model reads it
  given_70b.cluster.mfu = 0.43;
  CHECK(Has(StepPaths(given_70b), "parallel.flash_attention"));
  Scenario shaped = WithModel(NotUsedPreset("llama2-70b-a100"), "llama-2-7b");  // Llama 2 7B: its scores fit
  shaped.parallel.tensor_parallel = 8;
  shaped.parallel.zero_stage = 1;
  shaped.parallel.global_batch = 1024;
  shaped.parallel.flash_attention = false;
  shaped.parallel.fused_elementwise = false;
  REQUIRE(shaped.cluster.mfu == 0.43);
  CHECK(Has(StepPaths(shaped), "parallel.flash_attention"));  // selective recompute drops the scores anyway
  shaped.parallel.recompute = static_cast<int>(Recompute::kSelectiveOp);  // keeps them
  const std::vector<std::string> paths = StepPaths(shaped);
  CHECK(Has(paths, "parallel.fused_elementwise"));
  CHECK_FALSE(Has(paths, "parallel.flash_attention"));
  Scenario flash_on = shaped;
  flash_on.parallel.flash_attention = true;
  CHECK(Evaluate(flash_on).memory.activations_bytes < Evaluate(shaped).memory.activations_bytes);
  flash_on.parallel.fused_elementwise = true;
  CHECK(Totals(flash_on) != Totals(shaped));  // the memory moved
  Scenario fused_on = shaped;
  fused_on.parallel.fused_elementwise = true;
  CHECK(Totals(fused_on) == Totals(shaped));

  // No shape and no cluster.mfu: the default MFU; a field only the step model reads is reported with that reason.
  // FP8 takes its default MFU from the step model on a reference shape with this scenario's kernels (fp8_gain.h):
  // the elementwise kernels are read then, the single-node MFU still not.
  Scenario plain = NotUsedPreset("llama2-70b-a100");
  plain.cluster.mfu = 0;
  plain.parallel.fused_elementwise = false;
  plain.parallel.single_node_mfu = 0.5;
  REQUIRE(FieldsNotUsed(plain).size() == 2);
  CHECK(FieldsNotUsed(plain)[0].why == NotUsedWhy::kNoShape);
  CHECK(Warning(Evaluate(plain), "fields_not_used").find("only with a model shape and a global batch") != std::string::npos);
  std::snprintf(plain.cluster.gpu, kTextCapacity, "%s", "h100-sxm");
  plain.workload.precision = static_cast<int>(Precision::kFp8);
  REQUIRE(ValidateScenario(plain).empty());
  CHECK(StepPaths(plain) == std::vector<std::string>{"parallel.single_node_mfu"});
  Scenario eager = plain;
  eager.parallel.fused_elementwise = true;
  CHECK(Evaluate(eager).mfu != Evaluate(plain).mfu);  // read by the FP8 reference step
}

// The law: a field FieldsNotUsed reports for the step-time model changes nothing in the evaluation (bit for bit),
// on generated training jobs: with and without a shape, a global batch, cluster.mfu, FP8, each step input set at
// random. A field the list names wrongly (one memory, the layout's validity or the FP8 default reads) breaks it.
TEST_CASE("fields not read: law: changing a field reported for the step-time model leaves the evaluation as it was") {
  const auto start = std::chrono::steady_clock::now();
  const char* const gpus[] = {"h100-sxm", "a100-sxm-80gb", "h200-sxm", "b200"};
  const char* const models[] = {"llama-2-7b", "llama-3.1-8b", "llama-2-70b", "mistral-7b"};
  const char* const step_paths[] = {"cluster.node_network_gbps", "cluster.link_efficiency", "cluster.hbm_tbps",
                                    "cluster.nvlink_gbps", "cluster.framework", "parallel.overlap_comm",
                                    "parallel.single_node_mfu", "parallel.flash_attention", "parallel.tp_comm_overlap",
                                    "parallel.ep_comm_overlap", "parallel.fused_elementwise"};
  Rng rng(2026);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng.Uniform() * static_cast<double>(n)) % n; };
  int scenarios = 0, checked = 0;
  for (int k = 0; k < 300; ++k) {
    Scenario s = DefaultScenario();
    std::snprintf(s.cluster.gpu, kTextCapacity, "%s", gpus[pick(4)]);
    s.cluster.gpus = 8 << (2 * pick(4));  // 8 to 512
    const std::size_t shape = pick(3);    // 0: params only; 1: a model's shape and a global batch; 2: no batch
    if (shape == 0) {
      s.workload.params = 1e9 * (1 + 69 * rng.Uniform());
      if (rng.Uniform() < 0.3) s.workload.heads = 32;  // heads without the rest of the shape: memory reads them
    } else {
      s = WithModel(s, models[pick(4)]);
      s.parallel.tensor_parallel = 8;
      if (shape == 1) s.parallel.global_batch = s.cluster.gpus / 8 * (1 + static_cast<std::int64_t>(pick(8)));
    }
    s.workload.tokens = 1e10 * (1 + 99 * rng.Uniform());
    if (rng.Uniform() < 0.5) s.cluster.mfu = 0.2 + 0.35 * rng.Uniform();
    if (rng.Uniform() < 0.3) s.workload.precision = static_cast<int>(Precision::kFp8);
    if (rng.Uniform() < 0.3) s.parallel.zero_stage = 3;
    if (rng.Uniform() < 0.4) s.parallel.recompute = static_cast<int>(pick(6));
    for (const char* path : step_paths)
      if (rng.Uniform() < 0.4) Perturb(&s, *FindField(path));
    if (!ValidateScenario(s).empty()) continue;
    ++scenarios;
    const std::string expected = Totals(s);
    for (const FieldNotUsed& u : AsEvaluated(s)) {
      if (u.why == NotUsedWhy::kKind) continue;
      Scenario changed = s;
      if (!Perturb(&changed, *u.field) || !ValidateScenario(changed).empty()) continue;
      const std::string path = u.field->path;
      CAPTURE(path);
      CAPTURE(ScenarioToJson(s));
      ++checked;
      CHECK(Totals(changed) == expected);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(scenarios << " generated training jobs, " << checked << " reported step inputs changed, each leaving the evaluation as it was (" << seconds << " s)");
  CHECK(scenarios >= 250);
  CHECK(checked >= 400);
}

// ---------------------------------------------------------------------------------------------------------------
// The serving inputs read only for a model with routed experts (fields.h: NotUsedWhy::kNoExperts).

TEST_CASE("fields not read: the MoE-only serving inputs on a dense model, the experts' split without data attention") {
  // Llama 3.1 70B on 8 H100 is dense: neither how the k expert outputs are summed nor how the experts are split can
  // change it. DeepSeek-V3 has routed experts: the finalize pass is read (its sum is (k + 1) x hidden x 2 bytes per
  // token and MoE layer, test_small_messages.cpp), the split only under data-parallel attention.
  const auto service = [](const char* model, const char* gpu, const char* attention) {
    const json doc = {{"workload", {{"kind", "inference"}, {"model", model}}},
                      {"cluster", {{"gpu", gpu}}},
                      {"parallel", {{"tensor_parallel", 8}}},
                      {"inference", {{"attention", attention}}}};
    const ScenarioParse p = ParseScenarioJson(doc.dump());
    REQUIRE(p.ok());
    return p.scenario;
  };
  Scenario dense = service("llama-3.1-70b", "h100-sxm", "tensor");
  REQUIRE(Warning(Evaluate(dense), "fields_not_used").empty());
  const json expected = WithoutWarnings(dense);
  dense.inference.fused_moe_finalize = true;
  dense.inference.moe_split = static_cast<int>(MoeSplit::kTensor);
  CHECK(WithoutWarnings(dense) == expected);
  const std::string w = Warning(Evaluate(dense), "fields_not_used");
  CHECK(w.find("inference.fused_moe_finalize, inference.moe_split") != std::string::npos);
  CHECK(w.find("routed experts") != std::string::npos);

  Scenario moe = service("deepseek-v3", "h200-sxm", "tensor");
  const json moe_expected = WithoutWarnings(moe);
  moe.inference.fused_moe_finalize = true;  // read: one pass and one kernel fewer
  CHECK(WithoutWarnings(moe) != moe_expected);
  CHECK(Warning(Evaluate(moe), "fields_not_used").empty());
  moe.inference.moe_split = static_cast<int>(MoeSplit::kTensor);  // tensor attention: the experts follow it anyway
  CHECK(Warning(Evaluate(moe), "fields_not_used").find("inference.moe_split") != std::string::npos);
  Scenario data = service("deepseek-v3", "h200-sxm", "data");
  const json data_expected = WithoutWarnings(data);
  data.inference.moe_split = static_cast<int>(MoeSplit::kTensor);  // read: the experts tensor-split, tokens gathered
  CHECK(WithoutWarnings(data) != data_expected);
  CHECK(Warning(Evaluate(data), "fields_not_used").empty());
}

// The law on generated services: a MoE-only input the evaluation reports leaves its document as it was (all but the
// warnings), bit for bit; one it does not report changes it somewhere (so the rule cannot report everything).
TEST_CASE("fields not read: law: a MoE-only serving input reported as unused changes nothing") {
  const char* const models[] = {"llama-3.1-8b", "llama-3.1-70b", "qwen2.5-72b", "mixtral-8x7b", "deepseek-v3", "qwen3-235b-a22b"};
  const char* const gpus[] = {"h100-sxm", "h200-sxm", "a100-sxm-80gb", "b200"};
  const char* const paths[] = {"inference.fused_moe_finalize", "inference.moe_split", "inference.weight_scaling"};
  Rng rng(46);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng.Uniform() * static_cast<double>(n)) % n; };
  int reported = 0, read_and_moved = 0;
  for (int k = 0; k < 120; ++k) {
    const json doc = {{"workload", {{"kind", "inference"}, {"model", models[pick(6)]}}},
                      {"cluster", {{"gpu", gpus[pick(4)]}}},
                      {"parallel", {{"tensor_parallel", 1 << (1 + pick(3))}}},
                      {"inference", {{"attention", pick(2) ? "data" : "tensor"},
                                     {"weight_precision", pick(2) ? "fp8" : "bf16"},
                                     {"input_tokens", 128 << pick(6)},
                                     {"output_tokens", 64 << pick(4)}}}};
    const ScenarioParse p = ParseScenarioJson(doc.dump());
    if (!p.ok() || !ValidateScenario(p.scenario).empty()) continue;
    const Result base_result = Evaluate(p.scenario);
    if (!base_result.ok) continue;
    const json base = WithoutWarnings(p.scenario);
    for (const char* path : paths) {
      Scenario s = p.scenario;
      REQUIRE(Perturb(&s, *FindField(path)));
      CAPTURE(doc.dump());
      CAPTURE(path);
      const bool named = Warning(Evaluate(s), "fields_not_used").find(path) != std::string::npos;
      if (named) {
        ++reported;
        CHECK(WithoutWarnings(s) == base);
      } else if (WithoutWarnings(s) != base) {
        ++read_and_moved;
      }
    }
  }
  MESSAGE(reported << " MoE-only inputs reported unused (each unchanged), " << read_and_moved << " read and moving the result");
  CHECK(reported >= 90);
  CHECK(read_and_moved >= 30);
  // Block scales on bf16 weights: said, and nothing moves (the decode step reads them for fp8 only).
  const ScenarioParse p = ParseScenarioJson(R"({"workload": {"kind": "inference", "model": "deepseek-v3"}, "cluster": {"gpu": "h200-sxm"},
                                              "parallel": {"tensor_parallel": 8}, "inference": {"weight_precision": "bf16", "weight_scaling": "block"}})");
  REQUIRE(p.ok());
  CHECK(Warning(Evaluate(p.scenario), "fields_not_used").find("read only for fp8 weights") != std::string::npos);
}
