#!/usr/bin/env bash
# scripts/phases.py and scripts/phases.sh (make phases) without a GPU:
#  - 51 with its clock reads: a read at entry and at each of the ten phases,
#    and the global timer, each where its line is; the copy renamed, its slug
#    phases51, the teardown that prints and that names a failed read-back;
#    and it compiles (PTX, sm_90a);
#  - a step without 51's entry (47) is refused with the line it lacks;
#  - the GPU's name as the run folders carry it (scripts/gpu_slug.sh);
#  - make phases with no step, a step that does not exist, and (where there
#    is no GPU) a step: exit 2 and a message each.
# Closes with "phases: N passed, N failed".
source "$(dirname "$0")/checks.sh"

check "phases.py takes 51" python3 scripts/phases.py variants/51_kv_at_entry.cu 51 "$tmp/99.cu" 99
check "a clock read at entry and at ten phases" test "$(grep -c 'fs_phase\[blockIdx.x\]\[[0-9]*\] = clock64();' "$tmp/99.cu")" -eq 11
check "the global timer at entry" has "$tmp/99.cu" 'fs_phase[blockIdx.x][11] = (long long)g;'
check "K and V sent, then read the clock" grep -qzF $'0, kvh);\n        if (blockIdx.x < FS_PHASE_BLOCKS) fs_phase[blockIdx.x][5]' "$tmp/99.cu"
check "the first K's landing read before the tile is read" grep -qzF $'it / STAGES % 2);\n        if (j == 0 && threadIdx.x == 0 && blockIdx.x < FS_PHASE_BLOCKS) fs_phase[blockIdx.x][8] = clock64();\n        if (j > 0) {' "$tmp/99.cu"
check "the copy's kernel renamed" test "$(grep -c fs51_attention "$tmp/99.cu")" -eq 0
check "the copy is variant 99" has "$tmp/99.cu" 'extern "C" const fs_variant fs_variant_99 = {'
check "its slug" has "$tmp/99.cu" '.slug = "phases51",'
check "its teardown prints" has "$tmp/99.cu" '.teardown = print_phases,'
check "its teardown says when the reads do not come back" has "$tmp/99.cu" 'reading the clock reads back (cudaMemcpyFromSymbol) failed'
check "the copy compiles" ${NVCC:-nvcc} -std=c++17 -Icore -Ivariants -arch=sm_90a -ptx "$tmp/99.cu" -o "$tmp/99.ptx"

python3 scripts/phases.py variants/47_fast_divide.cu 47 "$tmp/47.cu" 99 > "$tmp/47" 2>&1
check "47 is refused" test $? -ne 0
check "with the line it lacks" has "$tmp/47" "phases: variants/47_fast_divide.cu has no line 'fs_tma_prefetch_map(&maps.o);'"
check "and nothing written" test ! -e "$tmp/47.cu"

check "the GPU's name as run folders carry it" \
    test "$(. scripts/gpu_slug.sh; gpu_slug ' NVIDIA H100 80GB HBM3'; gpu_slug '')" = $'nvidia-h100-80gb-hbm3\ngpu'

bash scripts/phases.sh > "$tmp/none" 2>&1
check "no step: exit 2" test $? -eq 2
check "no step: says so" has "$tmp/none" "phases: name a step, two digits (make phases V=51)"
bash scripts/phases.sh 98 > "$tmp/98" 2>&1
check "step 98: exit 2" test $? -eq 2
check "step 98: says so" has "$tmp/98" "phases: no step 98 (no variants/98_*.cu)"
if ! nvidia-smi -L > /dev/null 2>&1; then
    mkdir -p "$tmp/build" && printf '#!/bin/sh\n' > "$tmp/build/flashstudy" && chmod +x "$tmp/build/flashstudy"
    BUILD=$tmp/build bash scripts/phases.sh 51 > "$tmp/gpu" 2>&1
    check "no GPU: exit 2" test $? -eq 2
    check "no GPU: says so" has "$tmp/gpu" "phases: no GPU"
fi
echo "phases: $passed passed, $failed failed"
[ $failed -eq 0 ]
