#!/usr/bin/env bash
# gpucost gui (gpucost-gui): the page's UI in a native window under Xvfb - it draws, opens files and links,
# gives the same result as `gpucost eval`, keeps the defaults on bad input, and reports a missing build.
set -u
gpucost=$1; root=$2; out=${3:-/tmp}
. "$root/tests/cli/lib.sh"
mkdir -p "$out"
gui() { xvfb-run -a -s "-screen 0 1280x800x24" "$gpucost" gui "$@"; }

help=$("$gpucost" gui --help); rc=$?
equals "$rc" 0 "gui --help"
contains "$help" "--screenshot" "gui --help lists its options"

# The default scenario: a real frame is drawn, and the result is the CLI's, byte for byte.
shot=$out/gui-default.ppm
rm -f "$shot"
result=$(gui --frames 20 --screenshot "$shot" --print-result); rc=$?
equals "$rc" 0 "gui runs 20 frames and exits"
equals "$result" "$("$gpucost" eval --format json - <<<'{}')" "gui result equals gpucost eval --format json"
equals "$(head -c 16 "$shot" | tr '\n' ' ')" "P6 1280 800 255 " "screenshot is a 1280x800 PPM"
colours=$(tail -c +16 "$shot" | head -c 1500000 | od -An -v -tu1 | tr -s ' ' '\n' | sort -un | wc -l)
[[ $colours -gt 60 ]] && pass "screenshot shows a drawn UI ($colours distinct channel values)" ||
  fail "screenshot looks blank ($colours distinct channel values)"

# A preset file and a share link open as in the page.
preset=$root/assets/presets/llama3-405b-h100.json
equals "$(gui "$preset" --frames 3 --print-result)" "$("$gpucost" eval --format json "$preset")" \
  "a scenario file opens (result equals eval)"
link=$("$gpucost" link "$preset")
equals "$(gui "$link" --frames 3 --print-result)" "$("$gpucost" eval --format json "$preset")" \
  "a share link opens (result equals eval)"

# Bad input: a clear message, the defaults kept (nothing half-applied); usage errors exit 2.
bad=$out/gui-bad.json
echo '{"cluster": {"gpus": -4}}' > "$bad"
err=$(gui "$bad" --frames 2 --print-result 2>&1 >/dev/null)
contains "$err" "cluster.gpus" "a bad scenario file names the field"
equals "$(gui "$bad" --frames 2 --print-result 2>/dev/null)" "$("$gpucost" eval --format json - <<<'{}')" \
  "a bad scenario file keeps the defaults"
expect_rc 1 "a missing file" -- gui /nonexistent/scenario.json --frames 1
expect_rc 2 "--frames 0" -- gui --frames 0
expect_rc 2 "an unknown option" -- gui --no-such-option
missing=$(GPUCOST_GUI=/nonexistent/gpucost-gui "$gpucost" gui 2>&1); rc=$?
equals "$rc" 1 "gpucost gui without gpucost-gui exits 1"
contains "$missing" "gpucost-gui is not built" "and says why"
finish
