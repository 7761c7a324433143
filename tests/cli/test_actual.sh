#!/usr/bin/env bash
# gpucost log and gpucost actual (issue 49): the three log formats read, bad logs refused with exit 2 and one line,
# the variance adding up exactly (decimal arithmetic on the JSON's own digits), the calibrated scenario re-priced.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
runs=$root/tests/data/runs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- gpucost log: each format ---
json=$("$gpucost" log "$runs/megatron_restart.log" --gpu h100-sxm --format json)
check=$(python3 -c '
import json, sys
r = json.load(sys.stdin)
# Hand-worked in tests/core/test_run_logs.cpp: 64 GPUs, 115,343,360 tokens, one restart that lost 760 s, a wall time
# of 1,009.1 s, two checkpoints of 12.05 s (median).
ok = r["schema"] == "gpucost/run@1" and r["gpus"] == 64 and r["tokens"] == 115343360 and r["seq_len"] == 4096
ok = ok and len(r["interruptions"]) == 1 and abs(r["interruptions"][0]["lost_hours"] * 3600 - 760) < 1e-6
ok = ok and abs(r["wall_hours"] * 3600 - 1009.1) < 1e-6 and r["checkpoints"] == {"count": 2, "write_seconds": 12.05}
ok = ok and r["source"]["format"] == "megatron"
print("yes" if ok else "no: " + json.dumps(r)[:400])' <<<"$json")
equals "$check" "yes" "log: Megatron-LM lines read into the record worked by hand"
table=$("$gpucost" log "$runs/megatron_restart.log")
contains "$table" "Megatron-LM iteration lines, 14 lines read" "log: the table names the format and the lines read"
contains "$table" "Not read:" "log: the table says what it could not read"
contains "$table" "the GPU type is not in this log" "log: Megatron's log has no GPU name, and the table says so"
json=$("$gpucost" log "$runs/torchtitan.log" --format json)
contains "$json" '"gpu": "h100-sxm"' "log: torchtitan's device name read as the catalog's h100-sxm"
contains "$json" '"gpus": 8' "log: torchtitan's device mesh gives 8 GPUs"
contains "$json" '"format": "torchtitan"' "log: torchtitan recognised"
json=$("$gpucost" log "$runs/nemo.log" --gpus 16 --seq-len 8192 --format json)
contains "$json" '"format": "nemo"' "log: NeMo recognised"
contains "$json" '"tokens": 10485760' "log: NeMo consumed samples x --seq-len"
json=$("$gpucost" log "$runs/trainer_state.json" --format json)
contains "$json" '"format": "hf_trainer_state"' "log: trainer_state.json recognised"
contains "$json" '"tokens": 13107200' "log: trainer_state.json's num_input_tokens_seen"
ko=$("$gpucost" --lang ko log "$runs/megatron_restart.log")
contains "$ko" "읽지 못한 것:" "log: Korean table"
expect_rc 0 "log: standard input" -- "$gpucost" log - < "$runs/nemo.log"

# --- bad logs: exit 2, one line naming the file and why ---
printf '' > "$work/empty.log"
printf 'Epoch 1/10\n1875/1875 [====] - 5s 3ms/step - loss: 0.29\n' > "$work/keras.log"
head -c 64 "$gpucost" > "$work/binary.log"
printf '{"workload": {"params": 7e9}}' > "$work/scenario.json"
for f in empty keras binary; do
  expect_rc 2 "log: $f.log refused" -- "$gpucost" log "$work/$f.log"
done
expect_rc 2 "log: a scenario given as a log is refused" -- "$gpucost" log "$work/scenario.json"
err=$("$gpucost" log "$runs/bad_truncated.log" 2>&1 >/dev/null)
equals "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" "1" "log: a cut Megatron log is refused in one line"
contains "$err" "bad_truncated.log: 6 lines look like iteration lines but none could be read (first: line 3)" "log: the line says why and where"
err=$("$gpucost" log "$work/keras.log" 2>&1 >/dev/null)
contains "$err" "not a training log gpucost reads" "log: an unknown log says what it looked for"
expect_rc 1 "log: a missing file is an I/O failure" -- "$gpucost" log "$work/nope.log"
err=$("$gpucost" log "$work" 2>&1 >/dev/null)
equals "$err" "gpucost: $work: is a directory, not a file" "log: a directory is named as one (not as a scenario file)"
expect_rc 2 "log: --gpu must be a catalog GPU" -- "$gpucost" log "$runs/nemo.log" --gpu tpu-v5
expect_rc 2 "log: --gpus must be a whole number" -- "$gpucost" log "$runs/nemo.log" --gpus 1.5
expect_rc 2 "log: no file" -- "$gpucost" log
expect_rc 0 "log --help" -- "$gpucost" log --help

# --- gpucost actual: a hand-worked record (tests/core/test_actual.cpp's plan A) ---
cat > "$work/plan.json" <<'EOF'
{"name": "hand-worked A", "workload": {"params": 1e9, "tokens": 189964800000},
 "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.4}, "reliability": {"gpu_mtbf_hours": 0, "checkpointing": false},
 "storage": {"usd_per_gb_month": 0}, "pricing": {"usd_per_gpu_hour": 2.0, "tax_rate": 0.1}}
EOF
cat > "$work/run.json" <<'EOF'
{"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 8, "wall_hours": 130, "tokens": 189964800000,
 "tokens_per_second": 422144, "invoice": {"amount": 2420, "currency": "USD", "includes_tax": true},
 "interruptions": [{"at_hours": 40, "lost_hours": 1.5, "cause": "hardware"}, {"at_hours": 90, "lost_hours": 1.5, "cause": "software"}]}
EOF
json=$("$gpucost" actual "$work/plan.json" "$work/run.json" --format json)
# $1,600 + 10% VAT planned; the invoice $2,420: +$660 = compute +400, failures +48, idle +32, billing and tax +180.
check=$(python3 -c '
import json, sys
from decimal import Decimal
d = json.loads(sys.stdin.read(), parse_float=Decimal)
parts = {v["part"]: v["delta_usd"] for v in d["variance"]}
ok = d["schema"] == "gpucost/actual@1" and d["planned_usd"] == Decimal("1760") and d["actual_usd"] == Decimal("2420")
ok = ok and sum(parts.values()) == d["actual_usd"] - d["planned_usd"] == d["delta_usd"]
ok = ok and parts == {"compute": 400, "failures": 48, "checkpoints": 0, "idle_allocation": 32, "billing_tax": 180}
ok = ok and all(set(v) >= {"part", "planned_usd", "actual_usd", "delta_usd", "why"} and v["why"] for v in d["variance"])
ok = ok and all(v["delta_usd"] == v["actual_usd"] - v["planned_usd"] for v in d["variance"])
c = d["calibrated"]
ok = ok and set(c) >= {"scenario", "next_job_usd", "mtbf_hours", "mtbf_interval_hours"} and c["scenario"]["cluster"]["mfu"] == Decimal("0.32")
print("yes" if ok else "no: " + json.dumps({k: str(v) for k, v in parts.items()}) + " " + str(d["planned_usd"]) + " " + str(d["actual_usd"]))' <<<"$json")
equals "$check" "yes" "actual: the variance worked by hand adds up exactly (decimal) to actual - planned"
# The calibrated scenario is a scenario: gpucost eval prices it at the document's next_job_usd.
python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["calibrated"]["scenario"]))' <<<"$json" > "$work/calibrated.json"
next=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["calibrated"]["next_job_usd"])' <<<"$json")
eval_usd=$("$gpucost" eval "$work/calibrated.json" --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["cost"]["expected_usd"])')
equals "$eval_usd" "$next" "actual: the calibrated scenario evaluates to next_job_usd"
table=$("$gpucost" actual "$work/plan.json" "$work/run.json")
contains "$table" "planned \$1,760, actual \$2,420 as invoiced (+\$660, +37.5%)" "actual: the table's headline"
contains "$table" "Why each part moved:" "actual: the table says why"
ko=$("$gpucost" --lang ko actual "$work/plan.json" "$work/run.json")
contains "$ko" "항목별 변화 이유" "actual: Korean table"

# A log as RUN: read as gpucost log reads it; the GPU the log does not name is the plan's (a note says so).
cat > "$work/plan7b.json" <<'EOF'
{"name": "GPT 7B, 64 H100", "workload": {"params": 6.7e9, "tokens": 115343360, "seq_len": 4096},
 "cluster": {"gpu": "h100-sxm", "gpus": 64, "mfu": 0.45}, "parallel": {"tensor_parallel": 8}, "pricing": {"usd_per_gpu_hour": 2.5}}
EOF
json=$("$gpucost" actual "$work/plan7b.json" "$runs/megatron_restart.log" --format json)
contains "$json" '"code": "gpu_from_plan"' "actual: a log without the GPU takes the plan's, in a note"
contains "$json" '"interruptions_basis": "measured"' "actual: the log's restart is a measured interruption"
check=$(python3 -c '
import json, sys
from decimal import Decimal
d = json.loads(sys.stdin.read(), parse_float=Decimal)
print("yes" if sum(v["delta_usd"] for v in d["variance"]) == d["actual_usd"] - d["planned_usd"] else "no")' <<<"$json")
equals "$check" "yes" "actual: a log's variance adds up exactly"
for f in torchtitan.log nemo.log trainer_state.json megatron_no_time.log; do
  expect_rc 0 "actual: $f as RUN" -- "$gpucost" actual "$work/plan7b.json" "$runs/$f"
done

# --- actual: refusals ---
expect_rc 2 "actual: a bad log as RUN" -- "$gpucost" actual "$work/plan.json" "$runs/bad_truncated.log"
err=$("$gpucost" actual "$work/plan.json" - 2>&1 >/dev/null <<<'{"gpu": "h100-sxm", "gpus": 8, "wall_hours": "long"}')
equals "$err" "gpucost: <stdin>: wall_hours: expected a number > 0 and <= 1,000,000" "actual: a bad record: one line, path and range"
expect_rc 2 "actual: a record with an unknown key" -- "$gpucost" actual "$work/plan.json" - <<<'{"gpu": "h100-sxm", "gpus": 8, "cost": 5}'
expect_rc 2 "actual: a serving plan against a record with no serving field" -- "$gpucost" actual preset:llama2-70b-chat-h100 "$work/run.json"
err=$("$gpucost" actual preset:llama2-70b-chat-h100 "$work/run.json" 2>&1 >/dev/null)
contains "$err" "give requests, output_tokens, replica_hours, ttft_ms or tpot_ms" "actual: the serving refusal names what is missing"

# --- actual: a service against its plan (the core's hand-worked service is tests/core/test_actual.cpp, plan S) ---
cat > "$work/served.json" <<'EOF2'
{"schema": "gpucost/run@1", "gpu": "h100-sxm", "gpus": 16, "wall_hours": 720, "requests": 30000000,
 "output_tokens": 4000000000, "replica_hours": 3000, "tpot_ms": {"p50": 60}, "ttft_ms": {"p50": 400},
 "interruptions": [{"cause": "hardware"}], "invoice": {"amount": 40000, "includes_tax": false}}
EOF2
json=$("$gpucost" actual preset:llama2-70b-chat-h100 "$work/served.json" --format json)
check=$(python3 -c '
import json, sys
from decimal import Decimal
d = json.loads(sys.stdin.read(), parse_float=Decimal)
parts = [v["part"] for v in d["variance"]]
ok = d["schema"] == "gpucost/actual@1" and d["workload"] == "serving" and d["actual_usd"] == Decimal("40000")
ok = ok and parts[:2] == ["volume", "capacity"] and parts[-1] == "billing_tax"
ok = ok and sum(v["delta_usd"] for v in d["variance"]) == d["actual_usd"] - d["planned_usd"]
# 3,000 replica-hours of TP4 replicas: 12,000 GPU-hours held; one failure over them against the 50,000 h prior.
ok = ok and d["run"]["held_gpu_hours"] == 12000 and d["calibrated"]["decode_measured"] is True
# The 400 ms to the first token is solved with the decode (both measured): the prefill MFU moves too.
ok = ok and d["calibrated"]["prefill_measured"] is True and "inference.prefill_mfu" in [c["field"] for c in d["calibrated"]["changes"]]
ok = ok and abs(float(d["calibrated"]["mtbf_hours"]) - (100000 + 12000) / 3) < 1e-6
print("yes" if ok else "no: " + json.dumps(d, default=str)[:600])' <<<"$json")
equals "$check" "yes" "actual: a service: volume, capacity, billing; the deltas add up exactly; MTBF over the GPU-hours held"
python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["calibrated"]["scenario"]))' <<<"$json" > "$work/served_cal.json"
next=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["calibrated"]["next_job_usd"])' <<<"$json")
eval_usd=$("$gpucost" eval "$work/served_cal.json" --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["cost"]["expected_usd"])')
equals "$eval_usd" "$next" "actual: a service's calibrated scenario evaluates to next_job_usd"
ko=$("$gpucost" --lang ko actual preset:llama2-70b-chat-h100 "$work/served.json")
contains "$ko" "확보한 용량" "actual: a service's Korean table"
expect_rc 2 "actual: a service on another GPU" -- "$gpucost" actual preset:llama2-70b-chat-h100 - <<<'{"gpu": "a100-sxm-80gb", "gpus": 8, "requests": 5}'
expect_rc 2 "actual: one argument" -- "$gpucost" actual "$work/plan.json"
expect_rc 2 "actual: stdin twice" -- "$gpucost" actual - - <<<'{}'
expect_rc 0 "actual --help" -- "$gpucost" actual --help
finish
