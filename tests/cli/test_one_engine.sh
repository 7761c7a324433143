#!/usr/bin/env bash
# Issue 25 on the command line: an offer in a scenario is applied by every verb or refused (exit 2); fractions are
# read as typed by --set; serving is billed by the same rules as training (pricing of the chat preset).
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"

seoul='{"pricing": {"offer": "aws-p5.48xlarge-ap-northeast-2"}, "cluster": {"gpu": "a100-sxm-80gb"}}'
json=$("$gpucost" eval - --format json <<<"$seoul")
contains "$json" '"id": "aws-p5.48xlarge-ap-northeast-2"' "eval names the offer"
contains "$json" '"field": "cluster.gpu"' "and the field the scenario set itself"
contains "$json" '"usd_per_gpu_hour": 9.4944' "at the offer's price"
for verb in eval validate pricing sensitivity "mc --trials 50" "sweep --gpus"; do
  expect_rc 2 "$verb refuses an unknown offer" -- "$gpucost" $verb - <<<'{"pricing": {"offer": "aws-p9-nowhere"}}'
done
out=$("$gpucost" validate - 2>&1 <<<'{"pricing": {"offer": "aws-p9-nowhere"}}')
contains "$out" 'pricing.offer: unknown offer "aws-p9-nowhere"' "validate names the field"
expect_rc 0 "sweep applies an offer" -- "$gpucost" sweep - --gpus <<<'{"pricing": {"offer": "aws-p5.48xlarge-us-east-1"}}'

expect_rc 2 "--set cluster.mfu=40 is refused" -- "$gpucost" eval - --set cluster.mfu=40 <<<'{}'
err=$("$gpucost" eval - --set cluster.mfu=40 2>&1 >/dev/null <<<'{}')
contains "$err" 'cluster.mfu is a fraction' "naming the field as a fraction"
a=$("$gpucost" eval - --format json --set cluster.mfu=0.4 <<<'{}' | grep -m1 '"mfu"')
b=$("$gpucost" eval - --format json --set 'cluster.mfu=40%' <<<'{}' | grep -m1 '"mfu"')
equals "$a" "$b" "--set cluster.mfu=0.4 and =40% are the same"
contains "$a" '0.4' "and both are 0.4"

out=$("$gpucost" pricing preset:llama2-70b-chat-h100)
not_contains "$out" '0.0 preemptions' "a spot service sees its preemptions"
not_contains "$out" '(none)' "a 12-month commitment on a one-month service pays the rest of its term"
finish
