#!/usr/bin/env bash
# Runs test programs and closes with one line that sums their results:
#   tests: N passed, N failed[, N skipped]
# Host tests are cmocka programs; GPU tests print the same closing line.
set -u
passed=0 failed=0 skipped=0 crashed=0
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | awk '/^\[  PASSED  \] [0-9]+ test/ {n += $4} /^[a-z-]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {n += $2} END {print n + 0}')
    f=$(printf '%s\n' "$out" | awk '/^\[  FAILED  \] [0-9]+ test/ {n += $4} /^[a-z-]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {sub(",", "", $4); n += $4} END {print n + 0}')
    s=$(printf '%s\n' "$out" | awk '/^\[  SKIPPED \] [0-9]+ test/ {n += $4} /^[a-z-]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {n += $6} END {print n + 0}')
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then crashed=$((crashed + 1)); echo "$t exited with status $rc" >&2; fi
done
failed=$((failed + crashed))
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
