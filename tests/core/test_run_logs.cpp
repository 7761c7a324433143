// Run records and the logs read into them (issue 49, core/evidence/run_record.h, log_read.h): each format's excerpt (tests/data/runs/, written
// by hand in the shape its source code prints; the sources are named in each file and in README.md there), worked by
// hand; bad logs refused; the record's parser; the gamma functions against closed forms and tables.
#include <doctest/doctest.h>

#include <cmath>

#include "evidence/log_read.h"
#include "evidence/mtbf_update.h"
#include "evidence/run_record.h"
#include "../test_util.h"

using namespace gpucost;

namespace {

LogRead ReadFixture(const char* name, const LogHints& hints = {}) {
  return ReadRunLog(test::ReadFile(test::DataPath(std::string("runs/") + name)), name, hints);
}

double Lost(const RunRecord& r) {
  double h = 0;
  for (const RunInterruption& x : *r.interruptions) h += *x.lost_hours;
  return h;
}

bool Says(const std::vector<Message>& list, const char* key) {
  for (const Message& m : list)
    if (m.key == key) return true;
  return false;
}

}  // namespace

TEST_CASE("Megatron-LM: iteration lines, the arguments block, a restart from a checkpoint, checkpoint timers") {
  // megatron_restart.log: 64 GPUs (world_size), seq_length 4,096, global batch 256. Lines every 10 iterations, 2.0 s
  // each (the first 2.5 s: warm-up), stamped 20 s apart; a save at 50 and at 100 ((min, max) = (11,800, 12,000) and
  // (11,900, 12,100) ms: the slowest rank held the step 12.0 and 12.1 s). After iteration 80 (10:02:57) the job died;
  // it reloaded the checkpoint of 50 and logged iteration 60 at 10:14:57: 720 s later, 20 iterations behind. Time lost:
  // 720 - (60 - 80) x 2.0 = 760 s. Wall time: 10:00:25 to 10:16:49.1 plus the 10 iterations before the first line at
  // 2.5 s = 984.1 + 25 = 1,009.1 s. Tokens: 110 x 256 samples consumed x 4,096 = 115,343,360.
  const LogRead read = ReadFixture("megatron_restart.log", {"h100-sxm", 0, 0});
  REQUIRE(read.ok);
  const RunRecord& r = read.record;
  CHECK(r.source.format == "megatron");
  CHECK(r.gpu == "h100-sxm");
  CHECK(r.gpus == 64);
  CHECK(*r.seq_len == 4096);
  CHECK(*r.global_batch == 256);
  CHECK(r.step_seconds.size() == 14);
  CHECK(*r.tokens == 115343360.0);
  CHECK(*r.wall_hours * 3600 == doctest::Approx(1009.1).epsilon(1e-9));
  REQUIRE(r.interruptions);
  REQUIRE(r.interruptions->size() == 1);
  CHECK(*(*r.interruptions)[0].lost_hours * 3600 == doctest::Approx(760).epsilon(1e-9));
  CHECK(*(*r.interruptions)[0].at_hours * 3600 == doctest::Approx(152 + 25).epsilon(1e-9));  // 10:02:57 - 10:00:25 + 25 s
  CHECK((*r.interruptions)[0].cause == InterruptionCause::kUnknown);
  REQUIRE(r.checkpoints);
  CHECK(*r.checkpoints->count == 2);
  CHECK(*r.checkpoints->write_seconds == doctest::Approx(12.05));
  CHECK(ValidateRunRecord(r).empty());
  // The record reads back as it was written.
  const RunParse back = ParseRunRecordJson(RunRecordToJson(r));
  REQUIRE(back.ok());
  CHECK(RunRecordToJson(back.record) == RunRecordToJson(r));
}

TEST_CASE("Megatron-LM without timestamps: the iterations redone, the recovery not known") {
  // The same run without timestamps: the restart lost (80 - 50) iterations x 2.0 s = 60 s of work redone; the wall time
  // and the recovery are not in the log.
  const LogRead read = ReadFixture("megatron_no_time.log");
  REQUIRE(read.ok);
  CHECK(!read.record.wall_hours);
  CHECK(Lost(read.record) * 3600 == doctest::Approx(60));
  CHECK(Says(read.record.source.not_read, "log.nr.wall"));
  CHECK(Says(read.record.source.not_read, "log.nr.gpu"));  // Megatron does not print the GPU's name
  // Timestamps of whole seconds (before 2024): 10:16:49 for 10:16:49.1.
  const LogRead old = ReadFixture("megatron_2023.log");
  REQUIRE(old.ok);
  CHECK(*old.record.wall_hours * 3600 == doctest::Approx(1009).epsilon(1e-9));
}

TEST_CASE("NeMo 2: ProgressPrinter lines, iterations counted from 0") {
  // nemo.log: 10 steps ("iteration 0/9999" is the first step done), global_batch_size 128, step times 4.812 (the first)
  // then about 2.01 s: the median of the ten is (2.010 + 2.011) / 2 = 2.0105 s. No sequence length in the log: given.
  const LogRead read = ReadFixture("nemo.log", {"h100-sxm", 16, 8192});
  REQUIRE(read.ok);
  const RunRecord& r = read.record;
  CHECK(r.source.format == "nemo");
  CHECK(r.step_seconds.size() == 10);
  CHECK(r.step_seconds.front() == 4.812);
  CHECK(*r.global_batch == 128);
  CHECK(*r.tokens == 10.0 * 128 * 8192);  // consumed_samples 1,280 x 8,192
  CHECK(r.interruptions->empty());
  CHECK(r.source.lines == 10);
  CHECK(!Says(r.source.not_read, "log.nr.bad_lines"));
}

TEST_CASE("torchtitan: tokens per second per GPU, the world from the device mesh, the GPU from its name, a restart") {
  // torchtitan.log (ANSI colours as torchtitan prints them): device mesh pp=1 x dp_replicate=1 x dp_shard=8 x cp=1 x
  // tp=1 = 8 GPUs; "NVIDIA H100 80GB HBM3" is the h100-sxm. tps 6,600 per GPU from step 10 on (the first line, step
  // 1, 1,200): the whole job's 52,800 tokens/s. A step is 8,192 / 6,600 s. After step 40 an NCCL error; 600 s later
  // the job restarts at step 31 ("Training starts at step 31": the checkpoint of step 30), loads it in 21.1 s and logs
  // step 40 again ten steps later: lost (t2 - t1) - 0 = 600 + 21.1 + 10 x 8,192 / 6,600 = 633.512 s. Two saves of
  // 8.40 and 8.60 s.
  const LogRead read = ReadFixture("torchtitan.log");
  REQUIRE(read.ok);
  const RunRecord& r = read.record;
  CHECK(r.source.format == "torchtitan");
  CHECK(r.gpus == 8);
  CHECK(r.gpu == "h100-sxm");
  REQUIRE(r.tokens_per_second.size() == 9);
  CHECK(r.tokens_per_second[0] == 1200.0 * 8);
  CHECK(r.tokens_per_second[4] == 6600.0 * 8);
  REQUIRE(r.interruptions->size() == 1);
  CHECK(Lost(r) * 3600 == doctest::Approx(600 + 21.1 + 10 * 8192.0 / 6600).epsilon(2e-6));  // the log's ms rounding
  CHECK(*r.checkpoints->count == 2);
  CHECK(*r.checkpoints->write_seconds == doctest::Approx(8.5));
  CHECK(Says(r.source.read, "log.read.mfu_reported"));
  CHECK(Says(r.source.not_read, "log.nr.tokens"));
}

TEST_CASE("Hugging Face trainer_state.json: log_history's last entry, tokens seen") {
  // trainer_state.json: 100 steps, num_input_tokens_seen 100 x 64 x 2,048 = 13,107,200; train_runtime 3,600.5 s:
  // 13,107,200 / 3,600.5 = 3,640.39 tokens/s; train_samples_per_second / train_steps_per_second = 1.778 / 0.028 =
  // 63.5 -> a global batch of 64 sequences (both rates rounded to 3 decimals by speed_metrics).
  const LogRead read = ReadFixture("trainer_state.json");
  REQUIRE(read.ok);
  const RunRecord& r = read.record;
  CHECK(r.source.format == "hf_trainer_state");
  CHECK(*r.tokens == 13107200.0);
  REQUIRE(r.tokens_per_second.size() == 1);
  CHECK(r.tokens_per_second[0] == doctest::Approx(13107200 / 3600.5));
  CHECK(*r.wall_hours == doctest::Approx(3600.5 / 3600));
  CHECK(*r.global_batch == 64);
  CHECK(!r.interruptions);  // not in the state: the plan's, later
  CHECK(Says(r.source.not_read, "log.nr.hf_restarts"));
}

TEST_CASE("Bad logs are refused with a reason") {
  struct Case {
    std::string text;
    const char* key;
  };
  const Case cases[] = {
      {"", "log.refuse.empty"},
      {"  \n\t\n", "log.refuse.empty"},
      {std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10), "log.refuse.binary"},
      {"Epoch 1/10\n1875/1875 [==============================] - 5s 3ms/step - loss: 0.29\n", "log.refuse.unknown"},
      {"{\"workload\": {\"params\": 7e9}}", "log.refuse.json_other"},
      {"{\"log_history\": []}", "log.refuse.hf_empty"},
      // Megatron lines cut before their step time: they look like iteration lines but none can be read.
      {" [2025-06-01 10:00:25.000000] iteration       10/    1000 | consumed samples: 2560 | elapsed time per iteration (ms):\n"
       " [2025-06-01 10:00:45.000000] iteration       20/    1000 | consumed samples: 5120 | elapsed time per iteration (ms): x |\n",
       "log.refuse.lines"},
  };
  for (const Case& c : cases) {
    const LogRead read = ReadRunLog(c.text, "bad.log");
    CHECK_MESSAGE(!read.ok, c.key);
    CHECK(read.refusal.key == c.key);
  }
  CHECK(ReadRunLog(test::ReadFile(test::DataPath("runs/bad_truncated.log")), "bad_truncated.log").refusal.key == "log.refuse.lines");
}

TEST_CASE("Run record: every error names its path and the allowed range") {
  struct Case {
    const char* json;
    const char* path;
  };
  const Case cases[] = {
      {R"({"gpus": 8})", "gpu"},
      {R"({"gpu": "h100-sxm"})", "gpus"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "costs": 1})", "costs"},
      {R"({"gpu": "h100-sxm", "gpus": 0})", "gpus"},
      {R"({"gpu": "h100-sxm", "gpus": 8.5})", "gpus"},
      {R"({"gpu": "tpu-v5", "gpus": 8})", "gpu"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "wall_hours": -1})", "wall_hours"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "tokens_per_second": [1, -2]})", "tokens_per_second[1]"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "tokens_per_second": []})", "tokens_per_second"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "step_seconds": 2})", "global_batch"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "step_seconds": 2, "global_batch": 4, "tokens_per_second": 9})", "step_seconds"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "interruptions": [{"cause": "cosmic rays"}]})", "interruptions[0].cause"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "interruptions": [{"lost_hours": "2"}]})", "interruptions[0].lost_hours"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "invoice": {"currency": "EUR", "amount": 5}})", "invoice.currency"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "invoice": {"currency": "USD"}})", "invoice.amount"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "started_utc": "2025-03-01 08:00"})", "started_utc"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "started_utc": "2025-03-01T08:00:00Z"})", "ended_utc"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "started_utc": "2025-03-02T08:00:00Z", "ended_utc": "2025-03-01T08:00:00Z"})", "ended_utc"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "checkpoints": {"count": 3.5}})", "checkpoints.count"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "ttft_ms": {"p95": 3}})", "ttft_ms.p95"},
      {R"({"schema": "gpucost/scenario@1", "gpu": "h100-sxm", "gpus": 8})", "schema"},
      {R"({"gpu": "h100-sxm", "gpus": 8, "gpus": 9})", "gpus"},
  };
  for (const Case& c : cases) {
    const RunParse p = ParseRunRecordJson(c.json);
    REQUIRE_MESSAGE(!p.ok(), c.json);
    CHECK_MESSAGE(p.errors.front().path == c.path, c.json, " -> ", p.errors.front().Text());
    CHECK(!p.errors.front().coded.empty());
  }
  CHECK(ParseRunRecordJson("[1, 2]").errors.front().coded.key == "run.not_object");
  // JSON that breaks (a paste cut short, a typo): where it broke, not "expected a JSON object".
  const RunParse cut = ParseRunRecordJson(R"({"gpu": "h100-sxm", "gpus": 64, "wall)");
  REQUIRE(!cut.errors.empty());
  CHECK(cut.errors.front().coded.key == "msg.malformed_json");
  CHECK(cut.errors.front().coded.Text(Lang::kEn).find("parse error at line 1") != std::string::npos);
}

TEST_CASE("Run record: times with zones; serving fields; a full record round-trips") {
  CHECK(*ParseUtcSeconds("1970-01-02T00:00:00Z") == 86400);
  CHECK(*ParseUtcSeconds("2025-03-01T17:00:00+09:00") == *ParseUtcSeconds("2025-03-01T08:00:00Z"));
  CHECK(*ParseUtcSeconds("2024-02-29T00:00:00.5Z") - *ParseUtcSeconds("2024-02-28T00:00:00Z") == doctest::Approx(86400.5));
  CHECK(!ParseUtcSeconds("2025-02-30T00:00:00Z"));
  CHECK(!ParseUtcSeconds("2025-03-01T08:00:00"));  // no zone: refused, never guessed
  const RunParse p = ParseRunRecordJson(R"({"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 16,
    "started_utc": "2025-03-01T00:00:00Z", "ended_utc": "2025-03-03T12:00:00+09:00", "billed_gpu_hours": 800,
    "invoice": {"amount": 2200000, "currency": "KRW", "includes_tax": true}, "tokens": 1e10, "step_seconds": [2.1, 2.0],
    "global_batch": 64, "seq_len": 4096, "interruptions": [{"at_hours": 3, "lost_hours": 0.5, "cause": "preemption"}],
    "checkpoints": {"count": 12, "write_seconds": 20}, "idle_gpu_hours": 4, "notes": "첫 실행",
    "requests": 1000, "output_tokens": 250000, "ttft_ms": {"p50": 120, "p99": 480}, "tpot_ms": {"p90": 30}, "replica_hours": 48})");
  REQUIRE(p.ok());
  CHECK(*RunWallHours(p.record) == doctest::Approx(51));  // 03-03 12:00+09:00 = 03-03 03:00Z: 51 h after 03-01 00:00Z
  CHECK(*p.record.ttft_ms.p99 == 480);
  CHECK(!p.record.ttft_ms.p90);
  const RunParse back = ParseRunRecordJson(RunRecordToJson(p.record));
  REQUIRE(back.ok());
  CHECK(RunRecordToJson(back.record) == RunRecordToJson(p.record));
}

TEST_CASE("Gamma functions against closed forms and chi-square tables") {
  // P(1, x) = 1 - e^-x (the exponential distribution); P(1/2, x) = erf(sqrt(x)).
  for (double x : {0.01, 0.5, 1.0, 3.0, 10.0, 40.0}) {
    CHECK(GammaP(1, x) == doctest::Approx(-std::expm1(-x)).epsilon(1e-12));
    CHECK(GammaP(0.5, x) == doctest::Approx(std::erf(std::sqrt(x))).epsilon(1e-12));
  }
  // chi-square quantiles are 2 x GammaPInverse(k / 2, p): 8 d.o.f. 2.733 (5%) and 15.507 (95%); 2 d.o.f. 5.991 (95%)
  // (NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4).
  CHECK(2 * GammaPInverse(4, 0.05) == doctest::Approx(2.7326).epsilon(1e-4));
  CHECK(2 * GammaPInverse(4, 0.95) == doctest::Approx(15.5073).epsilon(1e-4));
  CHECK(2 * GammaPInverse(1, 0.95) == doctest::Approx(5.9915).epsilon(1e-4));
  // The prior alone (no exposure, no failure) is the catalog's figure, and weighs a0 failures.
  const MtbfUpdate prior = UpdateMtbf(50000, 2, 0, 0);
  CHECK(prior.mtbf_hours == 50000);
  CHECK(prior.prior_share == 1);
  // A long failure-free run pushes the MTBF up: (100,000 + 1e6) / 2 = 550,000 h.
  CHECK(UpdateMtbf(50000, 2, 0, 1e6).mtbf_hours == doctest::Approx(550000));
  // No prior (the plan assumed no failures) and none seen: stays "none".
  CHECK(UpdateMtbf(0, 2, 0, 1000).mtbf_hours == 0);
}

TEST_CASE("What is a run: records with or without their schema and logs are; scenarios and other text are not") {
  CHECK(IsRunInput(R"({"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 8})"));
  CHECK(IsRunInput(R"({"gpu": "h100-sxm", "gpus": 8, "wall_hours": 3})"));
  CHECK(IsRunInput(R"({"log_history": [{"step": 1, "loss": 2}]})"));
  CHECK(IsRunInput(test::ReadFile(test::DataPath("runs/torchtitan.log"))));
  // A log cut mid-line is a log (the log reader refuses it, naming the line), not a scenario or a link.
  CHECK(IsRunInput(test::ReadFile(test::DataPath("runs/bad_truncated.log"))));
  CHECK(IsRunInput(R"({"schema": "gpucost/run@1", "gpu": "h100-sxm", "gp)"));  // a record cut short
  CHECK(!IsRunInput(R"({"cluster": {"gpu": "h100-sxm", "gp)"));                // a scenario cut short: the importer's
  CHECK(!IsRunInput(R"({"cluster": {"gpu": "h100-sxm", "gpus": 8}})"));
  CHECK(!IsRunInput(R"({"schema": "gpucost/scenario@1", "gpus": 8})"));
  CHECK(!IsRunInput(R"({"gpus": 8, "workload": {"params": 7e9}})"));  // a scenario with a stray key: the scenario's error
  CHECK(!IsRunInput("hello\n"));
  CHECK(!IsRunInput(""));
}
