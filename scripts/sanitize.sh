#!/usr/bin/env bash
# make sanitize: every variant under compute-sanitizer's memcheck, racecheck,
# synccheck and initcheck at seven shapes (tiny with N not a multiple of
# any tile, the seed's N, and both at D=64: a ring goes round several times
# only at the longer one; 320 tiles of 128 rows, more than the H200's 132
# SMs, so that a persistent block takes tiles after its first; one without
# the causal mask long enough for 29's blocks of 176 keys, and one with it
# long enough for 33's), after a planted out-of-bounds write proves that
# memcheck reports what it should. Zero errors is the bar. The summary goes
# to <run folder>/sanitize.txt; exit status 1 when anything was reported.
# It checks the chain's steps; VARIANTS=LIST (ids or slugs, as --variants)
# names others, such as the peers, whose libraries' kernels are not ours to
# mend (racecheck reports hazards inside cuDNN's attention kernel).
# TOOLS=LIST (space-separated) runs some of the four tools only.
set -u
fs=${1:?usage: sanitize.sh FLASHSTUDY [RUN_FOLDER]}
out=${2:-results/$(date -u +%Y%m%d-%H%M%S)-sanitize}
command -v compute-sanitizer >/dev/null || { echo "sanitize: compute-sanitizer not found (it comes with the CUDA toolkit)" >&2; exit 2; }
nvidia-smi -L >/dev/null 2>&1 || { echo "sanitize: no GPU" >&2; exit 2; }
VARIANTS=${VARIANTS:-$("$fs" list --ids | grep -E '^[0-9]+_' | paste -sd,)}
mkdir -p "$out" || exit 2
build=$(dirname "$fs")
summary=$out/sanitize.txt.tmp
: > "$summary"
failed=0

nvcc -arch=native -o "$build/planted_fault" tests/sanitize/planted_fault.cu || exit 2
if compute-sanitizer --tool memcheck --error-exitcode 99 "$build/planted_fault" > "$out/planted_fault.log" 2>&1; then
    echo "planted fault: NOT caught (memcheck reported nothing)" | tee -a "$summary"; failed=1
else
    echo "planted fault: caught by memcheck ($(grep -c 'Invalid __global__ write' "$out/planted_fault.log") invalid write report)" | tee -a "$summary"
fi

shapes=("--seq 100 --batch 1 --heads-q 4 --heads-kv 2 --head-dim 128"
        "--seq 1024 --batch 1 --heads-q 2 --heads-kv 1 --head-dim 128"
        "--seq 100 --batch 1 --heads-q 4 --heads-kv 1 --head-dim 64"
        "--seq 1024 --batch 1 --heads-q 4 --heads-kv 1 --head-dim 64"
        "--seq 200 --batch 2 --heads-q 80 --heads-kv 8 --head-dim 128"
        "--seq 5700 --batch 1 --heads-q 2 --heads-kv 1 --head-dim 128 --no-causal"
        "--seq 8200 --batch 1 --heads-q 1 --heads-kv 1 --head-dim 128")
for tool in ${TOOLS:-memcheck racecheck synccheck initcheck}; do
    for shape in "${shapes[@]}"; do
        log=$out/$tool-$(echo "$shape" | awk '{print "N" $2 "-D" $10}').log
        # One repetition, no counters: the sanitizer checks the launches, not the timing.
        compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 \
            "$fs" run $shape --variants "$VARIANTS" --reps 1 --time-budget 0.001 --no-profile --mode hot --out "$out/run" --force > "$log" 2>&1
        rc=$?
        # memcheck, synccheck and initcheck close with "ERROR SUMMARY: N errors",
        # racecheck with "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)".
        errors=$(grep -Eo 'ERROR SUMMARY: [0-9]+|\([0-9]+ errors' "$log" | tr -dc '0-9\n' | awk '{s += $1} END {print s + 0}')
        status=clean; [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ] && { status="NOT clean (exit $rc)"; failed=1; }
        printf '%-10s %-55s errors %-4s %s\n' "$tool" "$shape" "$errors" "$status" | tee -a "$summary"
    done
done
rm -rf "$out/run"
mv "$summary" "$out/sanitize.txt"
echo "sanitize: summary in $out/sanitize.txt"
exit $failed
