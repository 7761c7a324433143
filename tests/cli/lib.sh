# Tiny assertion helpers for CLI tests. Each prints "ok - ..." or "not ok - ..."; finish exits non-zero on failure.
# Human output follows the locale (gpucost --lang): the tests expect English unless they ask for Korean.
unset LC_ALL LC_MESSAGES; export LANG=C.UTF-8
fails=0; passes=0; skips=0
pass() { passes=$((passes + 1)); echo "ok - $1"; }
# A check that cannot run here is reported as skipped, never as passed: finish then exits 77, which ctest
# shows as "Skipped" (SKIP_RETURN_CODE, tests/CMakeLists.txt) unless a check failed.
skip() { skips=$((skips + 1)); echo "skip - $1"; }
fail() { fails=$((fails + 1)); echo "not ok - $1"; }
# expect_rc CODE "what" -- command args...   (stdin is passed through; output discarded)
expect_rc() {
  local want=$1 what=$2; shift 3
  "$@" >/dev/null 2>&1; local got=$?
  [[ $got == "$want" ]] && pass "$what (exit $got)" || fail "$what: exit $got, want $want"
}
contains() { [[ $1 == *"$2"* ]] && pass "$3" || fail "$3: missing '$2'"; }
not_contains() { [[ $1 != *"$2"* ]] && pass "$3" || fail "$3: found '$2'"; }
equals() { [[ $1 == "$2" ]] && pass "$3" || fail "$3: got '$1', want '$2'"; }
finish() {
  echo "$passes passed, $fails failed, $skips skipped"
  [[ $fails == 0 ]] || exit 1
  [[ $skips == 0 ]] || exit 77
  exit 0
}
