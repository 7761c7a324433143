// The page's state transitions (web/app.h) without drawing: loading, links, bad input, pinning, CSV,
// imports through the native platform layer, presets, and "evaluate only when the scenario changed".
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "job/validate.h"
#include "app.h"
#include "scenario/fields.h"
#include "scenario/json_io.h"
#include "documents/link.h"
#include "platform.h"
#include "platform_native.h"
#include "documents/result_json.h"

using namespace gpucost;
using namespace gpucost::app;

namespace {

std::string ReadTestData(const char* name) {
  std::ifstream in(std::string(GPUCOST_TEST_DATA_DIR) + "/" + name);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Json(const Scenario& s) { return ScenarioToJson(s, false); }

}  // namespace

TEST_CASE("the app starts on the defaults, evaluated, with a link") {
  AppState app;
  AppInit(app);
  CHECK(app.result.ok);
  CHECK(app.problems.empty());
  CHECK(AppLink(app).rfind("#s=2.", 0) == 0);
  CHECK(Json(app.scenario) == Json(DefaultScenario()));
}

TEST_CASE("evaluation happens only when the scenario changed") {
  AppState app;
  AppInit(app);
  const long before = app.evaluations;
  AppRefresh(app);
  AppRefresh(app);
  CHECK(app.evaluations == before);
  app.scenario.cluster.gpus = 128;
  AppScenarioEdited(app);
  AppRefresh(app);
  CHECK(app.evaluations == before + 1);
  CHECK(app.result.ok);
}

TEST_CASE("loading JSON replaces the scenario; a bad document keeps the last good one") {
  AppState app;
  AppInit(app);
  CHECK(AppLoadScenario(app, R"({"cluster": {"gpus": 256}, "name": "big"})").empty());
  CHECK(app.scenario.cluster.gpus == 256);
  const double good_cost = app.result.expected_usd;
  const std::string err = AppLoadScenario(app, R"({"cluster": {"gpus": 0}})");
  CHECK(err.find("cluster.gpus") != std::string::npos);
  CHECK(app.error == err);
  CHECK(app.scenario.cluster.gpus == 256);
  CHECK(app.result.expected_usd == good_cost);
  CHECK(!AppLoadScenario(app, "{not json").empty());
  CHECK(app.scenario.cluster.gpus == 256);
}

TEST_CASE("a share link restores the scenario and the pinned comparison exactly") {
  AppState a;
  AppInit(a);
  a.scenario.cluster.gpus = 512;
  a.scenario.pricing.model = static_cast<int>(PricingModel::kSpot);
  a.scenario.reliability.gpu_mtbf_hours = 31234.5;
  AppScenarioEdited(a);
  AppRefresh(a);
  REQUIRE(AppPin(a));
  a.scenario.cluster.gpus = 1024;
  AppScenarioEdited(a);
  AppRefresh(a);
  REQUIRE(AppPin(a));
  AppRefresh(a);
  // The URL fragment follows the user's edits.
  CHECK("#" + platform::GetUrlFragment() == AppLink(a).substr(AppLink(a).find('#')));

  AppState b;
  AppInit(b);
  CHECK(AppOpenLink(b, AppLink(a)).empty());
  CHECK(Json(b.scenario) == Json(a.scenario));
  REQUIRE(b.pinned.size() == 2);
  CHECK(Json(b.pinned[0].scenario) == Json(a.pinned[0].scenario));
  CHECK(b.pinned[1].result.expected_usd == a.pinned[1].result.expected_usd);
  CHECK(AppLink(b) == AppLink(a));
}

TEST_CASE("a bad link shows a message and keeps everything") {
  AppState app;
  AppInit(app);
  app.scenario.cluster.gpus = 16;
  AppScenarioEdited(app);
  AppRefresh(app);
  const std::string before = Json(app.scenario);
  for (const char* bad : {"#s=1.!!!notbase64", "#s=9.abc", "https://x/#nothing", "#s=1."}) {
    const std::string err = AppOpenLink(app, bad);
    CHECK(err.rfind("Bad link: ", 0) == 0);
    CHECK(app.error == err);
    CHECK(Json(app.scenario) == before);
  }
  // Well-formed link, invalid value inside: named by its path.
  LinkPayload bad_value{DefaultScenario(), {}};
  bad_value.scenario.cluster.gpus = 3;
  bad_value.scenario.parallel.tensor_parallel = 2;  // 2 does not divide 3
  const std::string err = AppOpenLink(app, EncodeLink(bad_value));
  CHECK(err.find("s.parallel.tensor_parallel") != std::string::npos);
  CHECK(Json(app.scenario) == before);
}

TEST_CASE("pinning is capped and the CSV carries every column") {
  AppState app;
  AppInit(app);
  for (std::size_t i = 0; i < kMaxPinned; ++i) CHECK(AppPin(app));
  CHECK_FALSE(AppPin(app));
  AppUnpin(app, 0);
  CHECK(app.pinned.size() == kMaxPinned - 1);
  AppUnpin(app, 99);  // out of range: ignored
  CHECK(app.pinned.size() == kMaxPinned - 1);
  std::snprintf(app.pinned[0].scenario.name, kTextCapacity, "%s", "A \"quoted\", name");
  const std::string csv = CompareCsv(app);
  std::istringstream lines(csv);
  std::string header, line, cost;
  std::getline(lines, header);
  while (std::getline(lines, line))
    if (line.rfind("cost.total,", 0) == 0) cost = line;
  CHECK(header.find("\"A \"\"quoted\"\", name\"") != std::string::npos);
  CHECK(std::count(header.begin(), header.end(), ',') >= static_cast<long>(kMaxPinned) + 1);  // key, item, unit, 7 columns
  CHECK(cost.rfind("cost.total,Total (VAT included),USD,", 0) == 0);
  char expected[40];
  std::snprintf(expected, sizeof expected, ",%.2f", app.pinned[0].result.expected_usd);
  CHECK(cost.find(expected) != std::string::npos);
}

TEST_CASE("pinning the four pricing models prices the same job four ways") {
  AppState app;
  AppInit(app);
  REQUIRE(AppPinPricingModels(app) == 4);
  REQUIRE(app.pinned.size() == 4);
  for (int m = 0; m < 4; ++m) {
    CHECK(app.pinned[m].scenario.pricing.model == m);
    CHECK(app.pinned[m].result.ok);
    CHECK(app.pinned[m].scenario.cluster.gpus == app.scenario.cluster.gpus);
  }
  CHECK(app.pinned[0].result.expected_usd == app.result.expected_usd);  // the default is on-demand
  CHECK(app.pinned[1].result.usd_per_gpu_hour < app.pinned[0].result.usd_per_gpu_hour);  // spot discount
}

TEST_CASE("importing a file: scenario, link, bad file, probe report") {
  AppState app;
  AppInit(app);
  platform::NativeQueuePickedFile("mine.json", R"({"cluster": {"gpus": 32}})");
  std::string name, text;
  REQUIRE(platform::TakePickedFile(&name, &text));
  CHECK_FALSE(platform::TakePickedFile(&name, &text));  // once per file
  CHECK(AppImportText(app, name, text).empty());
  CHECK(app.scenario.cluster.gpus == 32);
  CHECK(app.notice == "Loaded scenario from mine.json");

  const std::string err = AppImportText(app, "broken.json", R"({"workload": {"tokens": -5}})");
  CHECK(err.rfind("broken.json: a scenario with 1 problem, the first: workload.tokens", 0) == 0);
  CHECK(err.find("the current scenario is kept") != std::string::npos);
  CHECK(app.scenario.cluster.gpus == 32);

  const std::string probe = ReadTestData("probe_h100_8gpu.json");
  REQUIRE_FALSE(probe.empty());
  CHECK(AppImportText(app, "probe.json", probe).empty());
  CHECK(app.scenario.cluster.peak_tflops > 0);
  CHECK(app.notice.find("cluster.peak_tflops") != std::string::npos);
  // The editor marks the measured fields until the user changes them.
  const std::size_t peak = static_cast<std::size_t>(FindField("cluster.peak_tflops") - Fields());
  const std::size_t gpus = static_cast<std::size_t>(FindField("cluster.gpus") - Fields());
  CHECK(AppFieldMeasured(app, peak));
  CHECK_FALSE(AppFieldMeasured(app, gpus));
  CHECK(app.measured_from.find("synthetic-h100-node") != std::string::npos);
  app.scenario.cluster.peak_tflops = 500;
  CHECK_FALSE(AppFieldMeasured(app, peak));
}

TEST_CASE("importing says what it got, and keeps the scenario when it cannot load it") {
  AppState app;
  AppInit(app);
  app.scenario.cluster.gpus = 96;
  AppScenarioEdited(app);
  AppRefresh(app);
  const std::string result_doc = ResultToJson(app.scenario, app.result);
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {"", "x: an empty text: nothing to open"},
      {"  \n\t", "x: an empty text: nothing to open"},
      {std::string("\x89PNG\r\n\x1a\n\0\0", 10), "x: not text (binary data)"},
      {"file,label,expected_usd\na.json,a,100\nb.json,b,200\n", "x: a CSV table, not a scenario"},
      {result_doc, "x: this is a result document (gpucost/result@1), not a scenario: it holds results, not inputs. Open the link"},
      {"The cluster had 64 GPUs and cost a lot.", "x: neither a scenario (JSON) nor a share link"},
      {"[1, 2]", "x: JSON, but not a scenario"},
  };
  for (const Case& c : cases) {
    INFO(c.expected);
    const std::string err = AppImportText(app, "x", c.text);
    CHECK(err.rfind(c.expected, 0) == 0);
    CHECK(err.find("link: link:") == std::string::npos);
    CHECK(err.find("--help") == std::string::npos);
    CHECK(app.scenario.cluster.gpus == 96);
  }
  // A share link with a comparison says so; a cut one says how much of it arrived.
  REQUIRE(AppPin(app));
  const std::string link = AppLink(app);
  AppState other;
  AppInit(other);
  CHECK(AppImportText(other, "pasted text", link) == "");
  CHECK(other.notice == "Loaded share link with a comparison of 1 pinned from pasted text");
  const std::string cut = link.substr(0, link.size() - 10);
  const std::string err = AppImportText(other, "pasted text", cut);
  const std::size_t data = link.size() - link.rfind('.') - 1;
  CHECK(err == "pasted text: Bad link: incomplete link: " + std::to_string(data - 10) + " of " + std::to_string(data) +
                   " characters (was it cut when copied?)");
  // A preset file is named as one.
  CHECK(AppImportText(other, "p.json", R"({"preset": {"id": "x"}, "scenario": {"cluster": {"gpus": 16}}})") == "");
  CHECK(other.notice == "Loaded preset from p.json");
}

TEST_CASE("presets load and their links stay under 2,000 characters") {
  AppState app;
  AppInit(app);
  REQUIRE_FALSE(AppPresets(app).empty());
  for (const PresetInfo& p : AppPresets(app)) {
    CAPTURE(p.id);
    CHECK(AppLoadPreset(app, p.id).empty());
    AppRefresh(app);
    CHECK(app.result.ok);
    CHECK(AppLink(app).size() < 2000);
  }
  CHECK_FALSE(AppLoadPreset(app, "no-such-preset").empty());
}

TEST_CASE("the page's import opens preset files as well as scenario documents") {
  AppState app;
  AppInit(app);
  CHECK(AppLoadScenario(app, R"({"preset": {"id": "mine"}, "scenario": {"cluster": {"gpus": 128}}})").empty());
  CHECK(app.scenario.cluster.gpus == 128);
  const std::string err = AppLoadScenario(app, R"({"preset": {}, "scenario": {"cluster": {"gpus": -1}}})");
  CHECK(err.find("scenario.cluster.gpus") != std::string::npos);
  CHECK(app.scenario.cluster.gpus == 128);  // kept
}

TEST_CASE("a result beyond the model's numeric range is an error the page shows, never inf or NaN") {
  AppState app;
  AppInit(app);
  CHECK(AppLoadScenario(app, R"({"cluster": {"mfu": 1e-300}, "workload": {"params": 1e15, "tokens": 1e15}})").empty());
  AppRefresh(app);
  REQUIRE_FALSE(app.problems.empty());
  CHECK(app.problems.front().Text().find("outside the model's numeric range") != std::string::npos);
  CHECK_FALSE(app.result.ok);
  CHECK(AppLoadScenario(app, "{}").empty());  // and a sane scenario evaluates again
  AppRefresh(app);
  CHECK(app.problems.empty());
  CHECK(app.result.ok);
}

TEST_CASE("editing a model shape brings workload.params along unless the user typed a count") {
  AppState app;
  AppInit(app);
  auto set_shape = [&](std::int64_t layers) {
    const Scenario before = app.scenario;
    WorkloadInputs& w = app.scenario.workload;
    w.layers = layers, w.hidden = 8192, w.heads = 64, w.seq_len = 4096, w.vocab = 32000, w.ffn_hidden = 28672;
    AppFollowShape(app, before);
  };
  set_shape(80);  // Llama 2 70B's dimensions (counted as a GPT-style layer: 2 FFN matrices, no GQA -> 59e9)
  CHECK(app.scenario.workload.params == doctest::Approx(ParamsFromShape(app.scenario)));
  CHECK(app.scenario.workload.params > 50e9);
  set_shape(40);  // the count keeps following the shape
  CHECK(app.scenario.workload.params == doctest::Approx(ParamsFromShape(app.scenario)));
  CHECK(app.scenario.workload.params < 40e9);
  // A count the user typed stays.
  const std::size_t params = static_cast<std::size_t>(FindField("workload.params") - Fields());
  app.edits[params].touched = true;
  app.scenario.workload.params = 50e9;
  set_shape(80);
  CHECK(app.scenario.workload.params == 50e9);
}

// Issue 18: the model picker fills the shape from a model by name and marks those fields as from the model;
// the link carries the model and its shape.
TEST_CASE("the model picker fills the shape and params and marks the fields as from the model") {
  AppState app;
  AppInit(app);
  CHECK(AppLoadModel(app, "no-such-model").find("unknown model") == 0);
  REQUIRE(AppLoadModel(app, "llama-3.1-405b").empty());
  AppRefresh(app);
  CHECK(std::string(app.scenario.arch.model) == "llama-3.1-405b");
  CHECK(app.scenario.workload.layers == 126);
  CHECK(app.scenario.workload.hidden == 16384);
  CHECK(app.scenario.workload.kv_heads == 8);
  CHECK(app.scenario.workload.params == doctest::Approx(405853388800.0));
  const FieldSpec* layers = FindField("workload.layers");
  const FieldSpec* gpus = FindField("cluster.gpus");
  CHECK(app.edits[static_cast<std::size_t>(layers - Fields())].from_model);
  CHECK(!app.edits[static_cast<std::size_t>(gpus - Fields())].from_model);
  CHECK(app.result.ok);
  LinkPayload decoded;
  std::vector<InputError> errors;
  REQUIRE(DecodeLink(AppLink(app), &decoded, &errors));
  CHECK(Json(decoded.scenario) == Json(app.scenario));
  // Another model replaces the shape (dense -> MoE) and its marks.
  REQUIRE(AppLoadModel(app, "mixtral-8x7b").empty());
  CHECK(app.scenario.arch.experts == 8);
  CHECK(app.scenario.workload.kv_heads == 8);
  CHECK(app.edits[static_cast<std::size_t>(FindField("workload.experts") - Fields())].from_model);
}

TEST_CASE("a preset's name stays only while the scenario equals it; unsaved edits are known") {
  AppState app;
  AppInit(app);
  CHECK_FALSE(AppHasUnsavedEdits(app));  // the defaults
  const std::vector<PresetInfo>& presets = AppPresets(app);
  REQUIRE_FALSE(presets.empty());
  REQUIRE(AppLoadPreset(app, presets.front().id) == "");
  AppRefresh(app);
  CHECK(app.preset_id == presets.front().id);
  CHECK_FALSE(AppHasUnsavedEdits(app));  // the preset as loaded
  app.scenario.cluster.gpus += 8;
  AppScenarioEdited(app);
  AppRefresh(app);
  CHECK(app.preset_id.empty());  // no longer the preset: its name goes
  CHECK(AppHasUnsavedEdits(app));
  REQUIRE(AppPin(app));
  CHECK_FALSE(AppHasUnsavedEdits(app));  // pinned: nothing to lose
  app.scenario.cluster.gpus += 8;
  AppScenarioEdited(app);
  AppRefresh(app);
  CHECK(AppHasUnsavedEdits(app));
  AppEditPinned(app, 0);
  CHECK(app.scenario.cluster.gpus == app.pinned[0].scenario.cluster.gpus);
}

TEST_CASE("an offer fills the price and records itself; another GPU clears it and says the price is unconfirmed") {
  AppState app;
  AppInit(app);
  const Offer* p5 = FindOffer("aws-p5.48xlarge-us-east-1");
  REQUIRE(p5 != nullptr);
  AppApplyOffer(app, *p5);
  AppRefresh(app);
  CHECK(std::string(app.scenario.pricing.offer) == p5->id);
  CHECK(app.scenario.pricing.usd_per_gpu_hour == p5->usd_per_gpu_hour);
  CHECK(std::string(app.scenario.cluster.gpu) == p5->gpu);
  CHECK(app.notice.find(p5->date) != std::string::npos);
  // The offer travels in the scenario (share links, files).
  CHECK(ScenarioToJson(app.scenario, true).find("\"offer\": \"aws-p5.48xlarge-us-east-1\"") != std::string::npos);
  // The same GPU again: nothing changes.
  AppGpuChanged(app);
  CHECK(std::string(app.scenario.pricing.offer) == p5->id);
  std::snprintf(app.scenario.cluster.gpu, kTextCapacity, "%s", "a100-sxm-80gb");
  AppGpuChanged(app);
  CHECK(app.scenario.pricing.offer[0] == '\0');
  CHECK(app.notice.find("unconfirmed") != std::string::npos);
  CHECK(app.scenario.pricing.usd_per_gpu_hour == p5->usd_per_gpu_hour);  // kept as typed, but no longer confirmed
}

TEST_CASE("an error leaves the status line at the next successful action (issue 30)") {
  AppState app;
  AppInit(app);
  CHECK(AppOpenLink(app, "#s=2.garbage") != "");
  CHECK(!app.error.empty());
  app.scenario.cluster.gpus = 256;
  AppScenarioEdited(app);  // an edit the page accepted
  CHECK(app.error.empty());
  CHECK(AppLoadScenario(app, "{\"cluster\": {\"gpus\": \"many\"}}") != "");
  CHECK(!app.error.empty());
  CHECK(AppPin(app));  // pinning works: the old error goes
  CHECK(app.error.empty());
}

TEST_CASE("an older link opens with a note in the status line; a new one without (issue 30)") {
  AppState app;
  AppInit(app);
  CHECK(AppOpenLink(app, "#s=1.eyJzIjp7ImNsdXN0ZXIiOnsiZ3B1cyI6MjU2fX19") == "");
  CHECK(app.scenario.cluster.gpus == 256);
  CHECK(app.notice.find("older") != std::string::npos);
  CHECK(AppOpenLink(app, AppLink(app)) == "");
  CHECK(app.notice.empty());
}
