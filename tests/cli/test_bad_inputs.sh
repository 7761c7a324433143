#!/usr/bin/env bash
# The bad-input table: every kind of broken scenario, answered by `eval` and `validate` with the documented
# exit code (2 invalid input; 1 for a file that cannot be read) and ONE line on stderr that names the file,
# the JSON path and what is allowed. No crash, no hang, no NaN or infinity in any output.
set -u
gpucost=$1; root=$2
. "$root/tests/cli/lib.sh"
dir=$root/tests/cli/bad_inputs
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Generated fixtures (binary or large).
head -c 4096 /dev/zero | tr '\0' '\377' >"$tmp/binary_junk.bin"
printf '\x00\x01\x02{"cluster"\x00\x7f\x80\xc3\x28' >>"$tmp/binary_junk.bin"
printf '%.0s[' $(seq 1 100000) >"$tmp/deep_arrays.json"
{ printf '{"cluster": '; printf '%.0s{"a": ' $(seq 1 40); printf '1'; printf '%.0s}' $(seq 1 41); } >"$tmp/deep_objects.json"
{ printf '{"name": "'; head -c 1100000 /dev/zero | tr '\0' 'x'; printf '"}'; } >"$tmp/huge.json"

# fixture | exit code | what the one stderr line must contain
cases=$(cat <<'EOF'
malformed.json|2|malformed JSON
truncated.json|2|malformed JSON
unknown_key.json|2|cluster.gpuz: unknown key
unknown_section.json|2|colour: unknown key
wrong_type_number.json|2|cluster.gpus: expected a number, got a string; allowed: an integer from 1 to
wrong_type_section.json|2|cluster: expected an object, got a number
wrong_type_bool.json|2|reliability.checkpoint_async: expected true or false, got a string
unknown_enum.json|2|pricing.model: unknown value "free"; one of: on_demand, spot, reserved, owned
negative_params.json|2|workload.params: must be a number > 0 and <= 
zero_gpus.json|2|cluster.gpus: must be an integer from 1 to 10,000,000, got 0
zero_tokens.json|2|workload.tokens: must be a number > 0
mfu_above_one.json|2|cluster.mfu: must be a number > 0 and <= 1 (omit for automatic), got 1.5
fractional_gpus.json|2|cluster.gpus: must be an integer from 1 to 10,000,000, got 8.5
negative_price.json|2|pricing.usd_per_gpu_hour: must be a number >= 0
overflow_number.json|2|number overflow
overflow_integer.json|2|cluster.gpus: must be an integer from 1 to 10,000,000, got 9.99999
unknown_gpu.json|2|cluster.gpu: unknown GPU "h900-sxm"; one of: 
unknown_model.json|2|workload.model: unknown model "llama-9b"; one of: llama-2-7b, 
expert_parallel_experts.json|2|parallel.expert_parallel: must divide workload.experts (8)
lora_without_shape.json|2|workload.finetune: lora and qlora need the model shape
unsupported_precision.json|2|workload.precision: fp8 is not supported by
layout_mismatch.json|2|parallel.tensor_parallel: tensor_parallel x pipeline_parallel (3) must divide cluster.gpus (64)
wrong_schema.json|2|schema: must be "gpucost/scenario@1"
nul_in_name.json|2|name: must not contain NUL characters
long_name.json|2|name: must be text of at most 200 characters, got 201
empty.json|2|an empty text: nothing to open
whitespace.json|2|an empty text: nothing to open
null_document.json|2|JSON, but not a scenario
array_document.json|2|JSON, but not a scenario
invalid_utf8.json|2|not text (binary data)
nan_literal.json|2|malformed JSON
infinity_literal.json|2|malformed JSON
non_finite_result.json|2|is not finite
@binary_junk.bin|2|not text (binary data)
@deep_arrays.json|2|JSON nested deeper than 32 levels
@deep_objects.json|2|JSON nested deeper than 32 levels
@huge.json|2|input larger than 1 MiB
/nonexistent/scenario.json|1|cannot open (No such file or directory)
/tmp|1|is a directory
EOF
)

no_non_finite() {  # no NaN or infinity in any output (file names such as nan_literal.json aside)
  local text=${1//$3/}
  if grep -qiE '(^|[^a-z])(nan|inf|infinity)([^a-z]|$)' <<<"$text"; then fail "$2: output holds NaN or infinity"; fi
}

while IFS='|' read -r fixture want message; do
  case $fixture in
    @*) file=$tmp/${fixture#@} ;;
    /*) file=$fixture ;;
    *) file=$dir/$fixture ;;
  esac
  for verb in eval validate; do
    out=$(timeout 10 "$gpucost" $verb "$file" 2>"$tmp/err"); got=$?
    err=$(cat "$tmp/err")
    what="$verb $fixture"
    [[ $got == "$want" ]] && pass "$what: exit $got" || fail "$what: exit $got, want $want (stderr: ${err:0:200})"
    no_non_finite "$out$err" "$what" "$file"
    if [[ $verb == eval ]]; then
      [[ $(wc -l <"$tmp/err") == 1 ]] && pass "$what: one stderr line" || fail "$what: $(wc -l <"$tmp/err") stderr lines"
      contains "$err" "gpucost: $file: " "$what: the line names the file"
      contains "$err" "$message" "$what: the line names the problem"
      [[ -z $out ]] && pass "$what: nothing on stdout" || fail "$what: stdout not empty"
    else
      contains "$out" "$file: " "$what: the problem is listed on stdout"
      contains "$out" "$message" "$what: the listed problem names it"
    fi
  done
done <<<"$cases"

# The same through standard input.
err=$("$gpucost" eval - 2>&1 >/dev/null <"$dir/zero_gpus.json"); rc=$?
equals "$rc" 2 "stdin: exit 2"
equals "$err" "gpucost: <stdin>: cluster.gpus: must be an integer from 1 to 10,000,000, got 0" "stdin: one line naming <stdin>"
err=$("$gpucost" eval - 2>&1 >/dev/null <"$tmp/binary_junk.bin"); rc=$?
equals "$rc" 2 "stdin binary junk: exit 2"

# validate lists every problem, not only the first.
out=$("$gpucost" validate - 2>/dev/null <<<'{"cluster": {"gpus": 0, "mfu": 2}, "workload": {"params": -1}, "x": 1}')
equals "$(grep -c '^<stdin>: ' <<<"$out")" 4 "validate lists all four problems"
contains "$out" "<stdin>: x: unknown key" "validate: unknown key listed"
contains "$out" "<stdin>: cluster.mfu: must be" "validate: mfu listed"

# Garbage links: exit 2 and a message that names the problem.
while IFS='|' read -r link message; do
  err=$(timeout 10 "$gpucost" link --decode "$link" 2>&1 >/dev/null); rc=$?
  equals "$rc" 2 "link --decode '${link:0:30}': exit 2"
  contains "$err" "$message" "link --decode '${link:0:30}': names the problem"
  [[ $(wc -l <<<"$err") == 1 ]] && pass "link --decode '${link:0:30}': one line" || fail "link: several lines"
done <<'EOF'
garbage|gpucost: link: not a gpucost link (expected #s=2.<data>)
https://example.org/#s=9.abcd|unsupported link version "9"
#s=1.!!!!|corrupted link data (not base64url)
#s=1.W10|corrupted link data (not a scenario)
#s=1.eyJzIjp7ImNsdXN0ZXIiOnsiZ3B1cyI6MH19fQ|s.cluster.gpus: must be an integer from 1 to 10,000,000, got 0
#s=1.eyJzIjp7fSwicSI6MX0|unknown link key "q"
EOF
deep=$(printf '%.0s[' $(seq 1 200) | base64 -w0 | tr '+/' '-_' | tr -d '=')
err=$("$gpucost" link --decode "#s=1.$deep" 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "deeply nested link: exit 2"
contains "$err" "nested deeper than 32" "deeply nested link: names the problem"
err=$(head -c 70000 /dev/zero | tr '\0' 'A' | "$gpucost" link --decode - 2>&1 >/dev/null); rc=$?
equals "$rc" 2 "oversized link: exit 2"
contains "$err" "longer than 64 KiB" "oversized link: names the problem"
finish
