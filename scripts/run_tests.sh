#!/usr/bin/env bash
# Runs test programs and closes with one line that sums their results:
#   tests: N passed, N failed, N skipped
# Host tests are cmocka programs; GPU tests and the scripts under tests/ print
# the same closing line. SKIPPED: tests that could not run at all (the GPU
# tests on a machine without a GPU), counted as skipped.
set -u
passed=0 failed=0 skipped=${SKIPPED:-0} crashed=0
# The programs run side by side (they are independent), one more than the
# cores, since several wait on their children, timers and gnuplot; their
# outputs are read back in the order given.
out_dir=$(mktemp -d) || exit 2
trap 'rm -rf "$out_dir"' EXIT
jobs=$(($(nproc 2>/dev/null || echo 2) + 1))
i=0
for t in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    { "$t" > "$out_dir/$i.out" 2>&1; echo $? > "$out_dir/$i.rc"; } &
    i=$((i + 1))
done
wait
i=0
for t in "$@"; do
    out=$(cat "$out_dir/$i.out"); rc=$(cat "$out_dir/$i.rc"); i=$((i + 1))
    p=$(printf '%s\n' "$out" | awk '/^\[  PASSED  \] [0-9]+ test/ {n += $4} /^[a-z][a-z0-9-]*: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {n += $2} END {print n + 0}')
    f=$(printf '%s\n' "$out" | awk '/^\[  FAILED  \] [0-9]+ test/ {n += $4} /^[a-z][a-z0-9-]*: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {sub(",", "", $4); n += $4} END {print n + 0}')
    s=$(printf '%s\n' "$out" | awk '/^\[  SKIPPED \] [0-9]+ test/ {n += $4} /^[a-z][a-z0-9-]*: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {n += $6} END {print n + 0}')
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    # A passing program in one line; a failing one with everything it said;
    # one that exits 0 with no count read from it fails too (a closing line
    # this script does not read, or none).
    if [ $rc -eq 0 ] && [ "$f" -eq 0 ] && [ $((p + s)) -gt 0 ]; then
        printf '  ok   %s: %d passed%s\n' "${t##*/}" "$p" "$([ "$s" -gt 0 ] && echo ", $s skipped")"
    else
        printf '%s\n' "$out"
        [ "$f" -eq 0 ] && { crashed=$((crashed + 1)); echo "$t exited with status $rc and $p passed, $s skipped" >&2; }
    fi
done
failed=$((failed + crashed))
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
