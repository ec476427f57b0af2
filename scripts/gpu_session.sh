#!/usr/bin/env bash
# The whole GPU-side session in one command, for a machine that has an NVIDIA
# GPU but perhaps no gnuplot: build there, run the GPU tests, the study, the
# tile and sequence-length sweeps, the sanitizers and the ncu cross-check, and
# leave every CSV and log in OUT as one archive plus a short summary.
#   scripts/gpu_session.sh OUT [STEP...]
#   steps: build test-gpu validate test-gpu-ptx faults run inside-16k wall make-run trace sass-cost tiles sweep hopper
#          hopper-d64 bf16 bf16-full accuracy hq64 gap ab mma-sync repeat torch torch-ncu cudnn919 sanitize sanitize-new sanitize-last initcheck
#          crosscheck fa3-bench fa3-match chain check fa4-shapes phases fp8
# faults: the study loop's fault scenarios alone (test-gpu runs them too).
# initcheck: compute-sanitizer's initcheck alone over 08-16, the slowest of
# the four tools.
# sass-cost: the default study with the two SASS-instrumented counters that
# have hardware twins added back, to see what instrumenting every
# instruction costs the counters' replay.
# hopper: the steps beyond the log beside the cuDNN peer at the shapes their
# targets name; torch, torch-ncu and cudnn919 are cross-checks that need
# PyTorch (PyTorch's own backends; ncu's counters of its FlashAttention-2
# kernel, beside the mma-sync sweep's of 09 and 10; our cuDNN row on the
# cuDNN PyTorch carries). REPEATS: runs of `repeat` (default 4).
# FA3_DIR (a flash-attention checkout, e.g. a copy of the FlashAttention-3
# tree with its bench/) builds the fa3 peer into every step; fa3-bench runs
# that tree's own benchmark in the same call, to compare the fa3 row with;
# fa3-match, the two in turns (scripts/fa3_match.sh; ROUNDS, default 3).
# Each step has a time limit and the next step runs whatever the last did.
set -u
out=${1:?usage: gpu_session.sh OUT [STEP...]}; shift
steps=${*:-build test-gpu run tiles sweep hopper torch cudnn919 sanitize crosscheck}
mkdir -p "$out/logs" results
export ARCHS=${ARCHS:-90}
fs=build/flashstudy
summary=$out/summary.txt
# Run folders are named as `flashstudy run` names its own: the UTC time the
# run starts and the GPU (scripts/gpu_slug.sh), then what it is.
. scripts/gpu_slug.sh
gpu=$(gpu_slug "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)")
rid() { echo "results/$(date -u +%Y%m%d-%H%M%S)-$gpu${1:+-$1}"; }
# Whatever this call adds to results/ goes into the archive.
touch "$out/.start"
# The block-shape sweep: the steps whose plan reads BM x BN, from the
# binary's registry (00 and the peers ignore the block shape).
tiled() { "$fs" list --ids | grep -E '^[0-9]+_' | grep -v '^00_' | paste -sd, ; }
# The steps from N on and the Hopper peers, from the registry.
from_step() { { "$fs" list --ids | grep -E '^[0-9]+_' | awk -F_ -v from="$1" '$1 + 0 >= from'; echo cudnn; echo fa3; } | paste -sd, ; }
# The GPU tests' programs (tests/gpu_*.c), as the Makefile names them.
gpu_tests() { ls tests/gpu_*.c | sed 's|^tests/\(.*\)\.c$|build/tests/\1|' | paste -sd' '; }
# The log's last step and the steps beyond it.
hopper() { from_step 8; }
# The 16-bit chain past FlashAttention-3: the last step and the steps it
# changes in turn (step_before: 28 changes 21), down to 19 (FROM), so that
# the FP8 road, which branches off 21, stays aside.
. scripts/kernel_step.sh
past() { local n ids=
         n=$("$fs" list --ids | grep -E '^[0-9]+_' | tail -1 | cut -d_ -f1)
         while (( 10#$n >= ${FROM:-19} )); do ids=$n,$ids; n=$(step_before "$n"); done
         echo "${ids}cudnn,fa3"; }
# The cuDNN that PyTorch carries, for a like-with-like comparison.
torch_cudnn() { python3 -c 'import glob, os, torch; print((glob.glob(os.path.join(os.path.dirname(torch.__file__), "..", "nvidia", "cudnn", "lib", "libcudnn.so.9")) + [""])[0])'; }

# What sets FlashAttention-2 apart from 09 and 10 (their columns of the same
# names in the mma-sync sweeps): shared-memory reads, occupancy, cycles; at
# the clock the GPU chooses, as flashstudy measures (no clock control).
torch_ncu_metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
torch_ncu_metrics+=,launch__occupancy_limit_registers,sm__cycles_active.max,smsp__inst_executed.sum
torch_ncu_metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
torch_ncu_metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active

hopper_d64() { step hopper-d64 120 "$fs" sweep --seq 4096,16384 --tile 128x64,128x128 --head-dim 64 --variants "$(hopper)" \
                   --time-budget 0.5 --out "$(rid hopper-d64)"; }
# The chain's last N steps; the last one (or the VARIANTS given) goes under
# the four sanitizers.
last_steps() { "$fs" list --ids | grep -E '^[0-9]+_' | tail -"$1" | paste -sd, ; }

# DEADLINE: seconds the whole session may take (default: no limit); a step
# gets what is left of it at most, and none starts with under 10 s left, so
# that the archive is always packed.
step() { # name, limit in seconds, command...
    local name=$1 limit=$2; shift 2
    local t0=$SECONDS
    if [ -n "${DEADLINE:-}" ]; then
        local left=$((DEADLINE - SECONDS))
        [ "$left" -ge 10 ] || { printf '%-12s skipped: the deadline\n' "$name" | tee -a "$summary"; return; }
        [ "$left" -ge "$limit" ] || limit=$left
    fi
    # -k: a step that outlives its TERM by 15 s is killed (one that hung in
    # a counter pass once held the whole call).
    timeout -k 15 "$limit" "$@" > "$out/logs/$name.log" 2>&1
    local rc=$?
    printf '%-12s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - t0))" | tee -a "$summary"
    tail -n 25 "$out/logs/$name.log"
}

# The parts of a run (BASE-SUFFIX folders) that were written, merged into
# BASE as step NAME, and removed once the merged run is there.
merge_parts() { # name, base, suffixes...
    local name=$1 base=$2 parts=() s; shift 2
    for s in "$@"; do [ -d "$base-$s" ] && parts+=("$base-$s"); done
    [ ${#parts[@]} -gt 0 ] && step "$name" 60 "$fs" merge "${parts[@]}" --out "$base"
    [ -f "$base/results.csv" ] && rm -rf "${parts[@]}"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$summary"
for s in $steps; do
    case $s in
    # With FA3_DIR, FlashAttention-3's own benchmark too (make fa3-bench),
    # linked with the fa3 peer's objects of its kernels.
    build)      step build 300 make -j"$(nproc)" ARCHS="$ARCHS" all $(gpu_tests) ${FA3_DIR:+fa3-bench} ;;
    # The PTX-only build, which the driver JIT-compiles: what a GPU newer
    # than every target runs.
    test-gpu-ptx) step test-gpu-ptx 300 env -u FA3_DIR make --no-print-directory -j"$(nproc)" BUILD=build-ptx CODE=compute test-gpu ;;
    test-gpu)   step test-gpu 300 make --no-print-directory test-gpu ;;
    # The shape matrix with every variant's own line (test-gpu prints the
    # closing line alone).
    validate)   step validate 200 build/tests/gpu_validate ;;
    faults)     step faults 200 build/tests/gpu_faults ;;
    # The reference run: the study and the views inside every kernel (hot
    # lines, timelines), with where each phase's time went.
    run)        step run 150 env FLASHSTUDY_PROFILE_TRACE=1 "$fs" run --hotspots --timeline --out "$(rid)" ;;
    # The views inside at 16k causal, the shape of the first cuDNN target:
    # the last two steps beside the cuDNN peer.
    inside-16k) step inside-16k 120 "$fs" run --seq 16384 --tile 128x128 --variants "$(last_steps 2),cudnn" --hotspots --timeline \
                    --time-budget 0.5 --out "$(rid 16k-inside)" ;;
    wall)       step wall 60 sh -c "time \"$fs\" run --out $(rid wall)" ;;
    # What a newcomer's first `make run` costs: a build folder of its own,
    # the build, the study, its report and charts.
    make-run)   step make-run 200 env -u FA3_DIR sh -c "time make BUILD=build-fresh run" ;;
    tiles)      step tiles 150 "$fs" sweep --tile 32,64,128 --time-budget 0.5 --variants "$(tiled)" --out "$(rid tiles)" ;;
    sweep)      step sweep 220 "$fs" sweep --seq 256,1024,4096,16384 --time-budget 0.3 --out "$(rid seq)" ;;
    hopper)     step hopper 240 "$fs" sweep --seq 1024,4096,16384 --tile 128x64,128x128 --variants "$(hopper)" --time-budget 0.5 --out "$(rid hopper)"
                step hopper-full 200 "$fs" sweep --seq 1024,4096,16384 --tile 128x128 --no-causal --variants "$(hopper)" --time-budget 0.5 --out "$(rid hopper-full)"
                hopper_d64 ;;
    hopper-d64) hopper_d64 ;;
    # bf16: the log's configuration, and the Hopper sweep beside the peers.
    bf16)       step bf16 150 "$fs" run --dtype bf16 --out "$(rid bf16)"
                step bf16-hopper 240 "$fs" sweep --dtype bf16 --seq 1024,4096,16384 --tile 128x128 --head-dim 64,128 \
                    --variants "$(hopper)" --time-budget 0.5 --out "$(rid bf16-hopper)" ;;
    bf16-full)  step bf16-hopper-full 240 "$fs" sweep --dtype bf16 --seq 1024,4096,16384 --tile 128x128 --head-dim 64,128 \
                    --no-causal --variants "$(hopper)" --time-budget 0.5 --out "$(rid bf16-hopper-full)" ;;
    # Speed against error: every step and peer in both types, on normal
    # inputs and on FlashAttention-3's outliers, timed (no counters), at the
    # log's configuration and at 4k for the Hopper steps.
    accuracy)   step accuracy 200 "$fs" sweep --dtype fp16,bf16 --inputs normal,outliers --no-profile \
                    --time-budget 0.3 --out "$(rid accuracy)"
                step accuracy-4k 150 "$fs" sweep --dtype fp16,bf16 --inputs normal,outliers --no-profile --seq 4096 \
                    --tile 128x128 --variants "$(hopper)" --time-budget 0.3 --out "$(rid accuracy-4k)" ;;
    # The shape of NVIDIA's H200 figures (B = 2, Hq = 64, Hkv = 8, D = 128):
    # the last step beside the peers, both types, causal and not.
    hq64)       step hq64 150 "$fs" sweep --dtype fp16,bf16 --heads-q 64 --seq 4096,8192,16384 --tile 128x128 \
                    --variants "$(last_steps 1),cudnn,fa3" --time-budget 0.5 --out "$(rid hq64)"
                step hq64-full 150 "$fs" sweep --dtype fp16,bf16 --heads-q 64 --seq 4096,8192,16384 --tile 128x128 \
                    --no-causal --variants "$(last_steps 1),cudnn,fa3" --time-budget 0.5 --out "$(rid hq64-full)"
                [ -x build/fa3-bench/fa3_bench ] &&
                    step fa3-bench-hq64 120 build/fa3-bench/fa3_bench --cold --no-check --hq 64 --no-d64 --ns 4096,8192,16384 ;;
    # The matrix the chain past FlashAttention-3 is judged on: D = 128 at
    # Hq = 16 and 64, causal and not, and D = 64 causal (B = 2, Hkv = 8);
    # the five sweeps merged into one run folder, named by the first one's time.
    chain)      base=$(rid chain)
                step chain-16 200 "$fs" sweep --seq 1024,4096,16384 --tile 128x128 --variants "$(past)" \
                    --time-budget 0.5 --out "$base-16"
                step chain-16-full 150 "$fs" sweep --seq 1024,4096,16384 --tile 128x128 --no-causal --variants "$(past)" \
                    --time-budget 0.5 --out "$base-16-full"
                step chain-64 200 "$fs" sweep --heads-q 64 --seq 4096,8192,16384 --tile 128x128 --variants "$(past)" \
                    --time-budget 0.5 --out "$base-64"
                step chain-64-full 200 "$fs" sweep --heads-q 64 --seq 4096,8192,16384 --tile 128x128 --no-causal \
                    --variants "$(past)" --time-budget 0.5 --out "$base-64-full"
                step chain-d64 150 "$fs" sweep --head-dim 64 --seq 1024,4096,16384 --tile 128x128 --variants "$(past)" \
                    --time-budget 0.5 --out "$base-d64"
                merge_parts chain-merge "$base" 16 16-full 64 64-full d64 ;;
    # A new step (VARIANTS, default the last) validated in both types, on
    # normal and outlier inputs, at small, ragged and long N, causal at both
    # head sizes and block shapes asked, and without the mask where the wide
    # blocks run: timing only, two sweeps merged into one run folder.
    check)      base="results/$(date -u +%Y%m%d-%H%M%S)-check"; v=${VARIANTS:-$(last_steps 1)}
                step check-causal 120 "$fs" sweep --seq 100,1024,4096,4500 --head-dim 64,128 --tile 128x64,128x128 \
                    --dtype fp16,bf16 --inputs normal,outliers --no-profile --variants "$v" --time-budget 0.02 --out "$base-c"
                step check-full 90 "$fs" sweep --seq 4096,4500,8192 --head-dim 128 --tile 128x128 --no-causal \
                    --dtype fp16,bf16 --inputs normal,outliers --no-profile --variants "$v" --time-budget 0.02 --out "$base-n"
                merge_parts check-merge "$base" c n ;;
    # FlashAttention-4's two published Hopper figures (bf16, B = 2, Hq = 64,
    # Hkv = 8, D = 128: 16k causal, 8k without the mask): the last step (or
    # VARIANTS) beside cuDNN, two sweeps merged.
    fa4-shapes) base=$(rid bf16); v=${VARIANTS:-$(last_steps 1)}
                step fa4-causal 90 "$fs" sweep --heads-q 64 --seq 16384 --tile 128x128 --dtype bf16 --variants "$v,cudnn" \
                    --time-budget 0.5 --out "$base-c"
                step fa4-full 90 "$fs" sweep --heads-q 64 --seq 8192 --tile 128x128 --no-causal --dtype bf16 \
                    --variants "$v,cudnn" --time-budget 0.5 --out "$base-n"
                merge_parts fa4-merge "$base" c n ;;
    # The last step's block entry and first tile timed from inside (make phases).
    phases)     step phases 200 bash scripts/phases.sh "$(last_steps 1 | cut -d_ -f1)" ;;
    # The FP8 steps (FROM, default 22, on) beside the last 16-bit step and the
    # peers (cuDNN's FP8 attention among them): small shapes on both input
    # distributions first (validation and error), then NVIDIA's H200 shape,
    # causal and not; their SASS's e4m3 wgmmas (QGMMA) counted. The three
    # sweeps are merged into one run folder, named by the first one's time.
    fp8)        fp8="$(from_step "${FROM:-22}" | sed 's/,cudnn,fa3$//')"; last16="$(from_step 21 | cut -d, -f1)"
                for f in build/variants/[0-9][0-9]_*.sass; do [ -f "$f" ] && echo "${f##*/}: $(grep -c QGMMA "$f") QGMMA, $(grep -c HGMMA "$f") HGMMA"; done | tail -3 | tee -a "$summary"
                base=$(rid fp8)
                step fp8-small 120 "$fs" sweep --seq 100,1024 --tile 128x128 --variants "$last16,$fp8,cudnn_fp8" --inputs normal,outliers \
                    --no-profile --time-budget 0.2 --out "$base-small"
                step fp8-hq64 240 "$fs" sweep --heads-q 64 --seq 4096,8192,16384 --tile 128x128 \
                    --variants "$last16,$fp8,cudnn_fp8,cudnn,fa3" --inputs normal,outliers --time-budget 0.5 --out "$base-hq64"
                step fp8-hq64-full 200 "$fs" sweep --heads-q 64 --seq 4096,8192,16384 --tile 128x128 --no-causal \
                    --variants "$last16,$fp8,cudnn_fp8,cudnn,fa3" --time-budget 0.5 --out "$base-hq64-full"
                merge_parts fp8-merge "$base" small hq64 hq64-full ;;
    # Where the last step loses to FlashAttention-3: both (and cuDNN) under
    # the same counters, hot lines and timelines at Hq = 64, 4k causal (its
    # worst ratio) and 16k causal.
    gap)        for n in 4096 16384; do
                    step "gap-$n" 150 "$fs" run --heads-q 64 --seq "$n" --tile 128x128 --variants "$(last_steps 1),cudnn,fa3" \
                        --hotspots --timeline --time-budget 0.5 --out "$(rid "gap-$n")"
                done ;;
    # Other trees (OLD: their folders, e.g. from git archive) against this
    # build, timing only, in turn twice each at the log's configuration: what
    # a change to the house, or to one step, did to the times.
    ab)         for t in ${OLD:?ab needs OLD}; do step "ab-build-${t##*/}" 200 env -u FA3_DIR make -C "$t" -j"$(nproc)" ARCHS="$ARCHS" all; done
                for i in 1 2; do
                    step "ab-new-$i" 90 "$fs" run --no-profile --out "$(rid ab-new-$i)"
                    for t in $OLD; do
                        step "ab-${t##*/}-$i" 90 sh -c "cd '$t' && build/flashstudy run --no-profile --out '$PWD/$(rid "ab-${t##*/}-$i")'"
                    done
                done ;;
    # The mma.sync steps at both block shapes, causal and not (the Hopper
    # sweep's non-causal run takes 128 x 128 alone, where they spill
    # registers), for the call that measures PyTorch's backends (torch).
    mma-sync)   step mma-sync 150 "$fs" sweep --seq 1024,4096,16384 --tile 128x64,128x128 \
                    --variants 08,09,10 --time-budget 0.5 --out "$(rid mma-sync)"
                step mma-sync-full 150 "$fs" sweep --seq 1024,4096,16384 --tile 128x64,128x128 --no-causal \
                    --variants 08,09,10 --time-budget 0.5 --out "$(rid mma-sync-full)" ;;
    # The last step and the cuDNN peer in turn, four runs of both, at 16k
    # causal (D = 64 and 128), where their ratio is within the clock's spread
    # from one launch series to the next.
    repeat)     for i in $(seq "${REPEATS:-4}"); do
                    step "repeat-$i" 60 "$fs" sweep --seq 16384 --head-dim 64,128 --tile 128x128 \
                        --variants "$(last_steps 1),cudnn" --no-profile --time-budget 1 --out "$(rid repeat-$i)"
                done ;;
    torch)      step torch 200 sh -c "python3 scripts/torch_peers.py > results/$(date -u +%Y%m%d-%H%M%S)-torch-peers.csv" ;;
    # ncu's log keeps its own ==PROF== and ==WARNING== lines; the CSV is the rest.
    torch-ncu)  step torch-ncu 200 sh -c "ncu --csv --clock-control none --log-file '$out/logs/torch-ncu.csv' \
                    --kernel-name regex:flash_fwd --metrics $torch_ncu_metrics python3 scripts/torch_peers.py --once flash2 &&
                    grep -v '^==' '$out/logs/torch-ncu.csv' > results/$(date -u +%Y%m%d-%H%M%S)-torch-ncu.csv" ;;
    cudnn919)   step cudnn919 100 env FLASHSTUDY_CUDNN="$(torch_cudnn)" "$fs" run --variants 16,cudnn --out "$(rid cudnn919)" ;;
    sanitize)   step sanitize 400 bash scripts/sanitize.sh "$fs" "results/$(date -u +%Y%m%d-%H%M%S)-sanitize" ;;
    sanitize-last) step sanitize 240 env VARIANTS="${VARIANTS:-$(last_steps 1)}" bash scripts/sanitize.sh "$fs" "results/$(date -u +%Y%m%d-%H%M%S)-sanitize" ;;
    sanitize-new) step sanitize 150 env VARIANTS="$(hopper),cublas" bash scripts/sanitize.sh "$fs" "results/$(date -u +%Y%m%d-%H%M%S)-sanitize" ;;
    initcheck)  step initcheck 240 env TOOLS=initcheck VARIANTS="$(hopper | sed 's/,cudnn$//')" \
                    bash scripts/sanitize.sh "$fs" "results/$(date -u +%Y%m%d-%H%M%S)-initcheck" ;;
    sass-cost)  step sass-cost 60 env FLASHSTUDY_PROFILE_TRACE=1 "$fs" run --out "$(rid sass-cost)" \
                    --metrics smsp__sass_thread_inst_executed.sum,smsp__sass_inst_executed_op_branch.sum ;;
    trace)      step trace 60 env FLASHSTUDY_PROFILE_TRACE=1 "$fs" run --out "$(rid trace)"
                step trace-4096 60 env FLASHSTUDY_PROFILE_TRACE=1 "$fs" run --seq 4096 --out "$(rid trace-4096)" ;;
    # A configuration under ncu costs about 8 s per variant: the crosscheck
    # takes two of the variants whose L2 hit rate once left [0, 100] (03,
    # 05), the log's last step, the chain's last and the peers (VARIANTS:
    # another list).
    crosscheck) step crosscheck 420 env VARIANTS="${VARIANTS:-03,05,08,$(last_steps 1),cudnn,fa3}" \
                    bash scripts/ncu_crosscheck.sh --configs scripts/ncu_crosscheck.configs "$fs" "results/$(date -u +%Y%m%d-%H%M%S)-ncu-crosscheck.md" ;;
    # FlashAttention-3's benchmark at the Hopper sweep's shapes, cold like
    # the sweep and hot (built by the build step, or here).
    fa3-bench)  step fa3-bench 120 build/fa3-bench/fa3_bench --cold
                step fa3-bench-hot 120 build/fa3-bench/fa3_bench --no-check ;;
    # Our fa3 row and that benchmark at its shapes, in its two modes, taking
    # turns ROUNDS (3) times, on the same inputs and layout.
    fa3-match)  step fa3-match 540 bash scripts/fa3_match.sh "$fs" build/fa3-bench/fa3_bench "$(rid fa3-match)" "${ROUNDS:-3}" ;;
    *)          echo "unknown step $s" | tee -a "$summary" ;;
    esac
done
find results -mindepth 1 -maxdepth 1 -newer "$out/.start" -print0 | tar czf "$out/results.tgz" --null -T -
tar czf "$out/logs.tgz" -C "$out" logs
echo "archive: $(du -h "$out/results.tgz" | cut -f1) of results, logs in logs.tgz"
