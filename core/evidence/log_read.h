// log_read.h — the logs people already have, read into a run record (issue 49). Each format's lines are read into
// a trace (log_trace.h) by its own file; what a trace says about the run (throughput, restarts, lost time, wall
// time, checkpoints) is worked out once, here, for every format. The formats, from their sources:
//
//   megatron    Megatron-LM's training_log(), megatron/training/training.py (NVIDIA/Megatron-LM):
//               " [2025-06-01 10:00:00.123456] iteration      100/   20000 | consumed samples:       102400 |
//               elapsed time per iteration (ms): 9876.5 | ... | global batch size:  1024 | ..." (the timestamp's
//               fraction since 2024; older logs have none), the arguments block ("  seq_length ..... 4096",
//               "  world_size ..... 1024"), "successfully saved checkpoint from iteration N to DIR",
//               "successfully loaded checkpoint from DIR ... at iteration N" (megatron/training/checkpointing.py)
//               and the checkpoint timer ("save-checkpoint ......: (min, max)" in ms, megatron/core/timers.py).
//   nemo        NeMo 2's ProgressPrinter, nemo/lightning/pytorch/callbacks/progress_printer.py (NVIDIA/NeMo):
//               "Training epoch 0, iteration 99/9999 | lr: 3e-05 | global_batch_size: 1024 | global_step: 99 |
//               reduced_train_loss: 2.345 | train_step_timing in s: 9.876 | consumed_samples: 102400".
//   torchtitan  torchtitan's MetricsProcessor.log(), torchtitan/components/metrics.py (pytorch/torchtitan):
//               "[titan] 2025-06-01 10:00:00,123 - root - INFO - step: 10  loss:  9.2345  grad_norm: 1.2345
//               memory: 61.23GiB(77.42%)  tps: 6,543  tflops: 342.10  mfu: 34.59%" (tps: tokens per second per
//               GPU; ANSI colours stripped), "Finished saving|staging the checkpoint in 12.34 seconds."
//               (components/checkpoint.py), "Training starts at step N" (trainer.py), "Building device mesh with
//               parallelism: pp=1, dp_replicate=1, dp_shard=8, cp=1, tp=1, ep=1" (distributed/parallel_dims.py)
//               and "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory" (components/metrics.py).
//   hf_trainer_state  Hugging Face Trainer's trainer_state.json, TrainerState.save_to_json
//               (src/transformers/trainer_callback.py): log_history, whose last entry after training holds
//               train_runtime, train_samples_per_second and train_steps_per_second (trainer_utils.speed_metrics);
//               num_input_tokens_seen when include_num_input_tokens_seen was on; global_step, max_steps.
//
// Restarts: the iteration (step) going back, or a checkpoint loaded after training began. With timestamps, the
// time lost to one is the wall time between the last line before it and the first after, less the progress made
// in between ((t2 - t1) - (i2 - i1) x the median step time; negative progress is work redone); without
// timestamps, the iterations redone since the checkpoint x the step time (the recovery itself is then not known).
#pragma once
#include <cstdint>
#include <string>

#include "evidence/run_record.h"
#include "base/message.h"

namespace gpucost {

enum class LogFormat : int { kNone = 0, kMegatron, kNemo, kTorchtitan, kHfTrainerState };
const char* LogFormatName(LogFormat f);  // "megatron", "nemo", "torchtitan", "hf_trainer_state"

// What the log does not say, given by the person reading it (`gpucost log --gpu --gpus --seq-len`); 0 / "": not given.
struct LogHints {
  std::string gpu;
  std::int64_t gpus = 0;
  std::int64_t seq_len = 0;
};

struct LogRead {
  bool ok = false;       // a format was recognised and read
  Message refusal;       // why not: an empty or binary file, no line of a known format
  RunRecord record;      // record.source: the format, the lines read, what was read and what was not
};

// Which format the text is in (kNone: none gpucost reads). Looks at the text only.
LogFormat DetectLogFormat(const std::string& text);
// Reads a log into a run record. file_name names it in the record's source.
LogRead ReadRunLog(const std::string& text, const std::string& file_name, const LogHints& hints = {});

// What a handed-over text is for the Plan vs actual view: a run record (schema gpucost/run@1, or a JSON object with a
// record's keys and none of a scenario's sections; JSON cut short that names the run schema or log_history) or a log
// of a format gpucost reads, readable or not (lines of the format that cannot be read: the log reader refuses it).
bool IsRunInput(const std::string& text);

}  // namespace gpucost
