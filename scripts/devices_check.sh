#!/usr/bin/env bash
# `sweep --devices` against its targets on a machine of two GPUs or more,
# with the default sweep (scripts/gpu_session.sh's: --seq
# 256,1024,4096,16384 --time-budget 0.3) unless other options are given:
#   1. with --devices all it takes at most 0.55 x the wall time of the same
#      sweep on one GPU;
#   2. its merged rows are the one-GPU run's, row for row, with the same
#      statuses;
#   3. a worker killed (SIGKILL) in the middle loses nothing else: every row
#      of the sweep is there, the dead worker's unfinished ones "not run",
#      every other status the one-GPU run's;
#   4. SIGINT to the parent (Ctrl-C) stops every worker: exit 130, and each
#      row that is there is final and as the one-GPU run has it.
# Then the merged run's report and its comparison with the one-GPU run. The
# runs stay in DIR. Closes with "devices: N passed, N failed".
#
#   scripts/devices_check.sh [--flashstudy PATH] [--out DIR] [-- SWEEP_OPTION...]
#
# With FLASHSTUDY_FAKE_GPUS set it runs on flashstudy's fake GPUs (the test
# seam; the one-GPU run is then --devices 0), to try the script without a
# GPU.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
fs=$root/build/flashstudy out=results/devices-check-$(date -u +%Y%m%d-%H%M%S) sweep=()
while [ $# -gt 0 ]; do
    case $1 in
        --flashstudy) fs=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --) shift; sweep=("$@"); break ;;
        *) echo "usage: $0 [--flashstudy PATH] [--out DIR] [-- SWEEP_OPTION...]" >&2; exit 2 ;;
    esac
done
[ ${#sweep[@]} -gt 0 ] || sweep=(--seq 256,1024,4096,16384 --time-budget 0.3)
[ ! -e "$out" ] || { echo "devices: $out exists: choose a new --out" >&2; exit 2; }
mkdir -p "$out" || exit 2
passed=0 failed=0
result() {  # result WHAT STATUS
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "devices: ok: $1"; else
        failed=$((failed + 1)); echo "devices: FAILED: $1" >&2; fi
}
now() { date +%s.%N; }
# Run $2's rows against run $1's (the one-GPU run), by their keys: "same"
# (the same rows, statuses too), "killed" (the same rows; those a dead
# worker did not finish not run, the others as in $1), "stopped" (some of
# $1's rows, as in $1). Prints what it found; fails where it does not hold.
against() {
    python3 - "$1/results.csv" "$2/results.csv" "$3" <<'EOF'
import csv, sys
keys = ("variant", "mode", "batch", "seq", "heads_q", "heads_kv", "head_dim", "dtype", "causal", "bm", "bn")
def rows(path):
    with open(path, newline="") as f:
        return {tuple(r[k] for k in keys): r for r in csv.DictReader(f)}
one, other, how = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
lost = [k for k, r in other.items() if r["reason"].startswith("not run: the worker on GPU ")]
differ = [k for k, r in other.items() if k not in lost and (k not in one or one[k]["status"] != r["status"])]
print(f"{len(other)} rows of {len(one)}, {len(lost)} not run, {len(differ)} unlike the one-GPU run's", end="")
ok = not differ and (set(other) <= set(one) if how == "stopped" else set(other) == set(one))
ok = ok and (bool(lost) if how == "killed" else not lost) and (how != "stopped" or 2 <= len(other) < len(one))
sys.exit(0 if ok else 1)
EOF
}
# Waits until one of the workers' folders under $1/shards holds $2 rows.
rows_in_shards() {
    for _ in $(seq 1200); do
        for f in "$1"/shards/gpu*/results.csv; do
            [ -f "$f" ] && [ "$(($(wc -l < "$f") - 1))" -ge "$2" ] && return 0
        done
        sleep 0.5
    done
    return 1
}

one=(--devices 0)
[ -n "${FLASHSTUDY_FAKE_GPUS:-}" ] || one=()
"$fs" sweep "${sweep[@]}" --devices all --plan | tail -1
t0=$(now)
"$fs" sweep "${sweep[@]}" ${one[@]+"${one[@]}"} --out "$out/one" > "$out/one.log" 2>&1
result "the sweep on one GPU ($(tail -1 "$out/one.log"))" $?
t1=$(now)
"$fs" sweep "${sweep[@]}" --devices all --out "$out/all" > "$out/all.log" 2>&1
result "the sweep with --devices all ($(tail -1 "$out/all.log"))" $?
t2=$(now)
ratio=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.3f", (c - b) / (b - a) }')
awk -v r="$ratio" 'BEGIN { exit !(r <= 0.55) }'
result "wall time: $(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "one GPU %.1f s, all %.1f s", b - a, c - b }'), ratio $ratio (at most 0.55)" $?
said=$(against "$out/one" "$out/all" same); result "the merged rows are the one-GPU run's, statuses too: $said" $?

# A worker killed once rows are coming: the second one.
"$fs" sweep "${sweep[@]}" --devices all --out "$out/killed" > "$out/killed.log" 2>&1 &
pid=$!
victim=
rows_in_shards "$out/killed" 2 && victim=$(sed -n 's/^gpu 1: worker process \([0-9]*\),.*/\1/p' "$out/killed.log")
[ -n "$victim" ] && kill -KILL "$victim"
result "a worker to kill (pid ${victim:-none})" $([ -n "$victim" ]; echo $?)
wait "$pid"
[ $? = 1 ]; result "exit 1 after a worker died" $?
said=$(against "$out/one" "$out/killed" killed)
result "every row there, the dead worker's unfinished ones not run, the others as on one GPU: $said" $?

# SIGINT once rows are coming.
"$fs" sweep "${sweep[@]}" --devices all --out "$out/stopped" > "$out/stopped.log" 2>&1 &
pid=$!
rows_in_shards "$out/stopped" 2 && kill -INT "$pid"
wait "$pid"
[ $? = 130 ]; result "exit 130 after SIGINT" $?
said=$(against "$out/one" "$out/stopped" stopped); result "the rows there are final and as on one GPU: $said" $?

"$fs" report "$out/all" --out "$out/all.md" > /dev/null; result "the merged run's report" $?
"$fs" compare "$out/one" "$out/all" --out "$out/compare.md" > /dev/null; result "compare one GPU against all" $?
echo "devices: $passed passed, $failed failed (runs in $out)"
[ "$failed" -eq 0 ]
