#!/usr/bin/env bash
# `make step` and `make sass` (scripts/step_diff.sh, scripts/sass.sh), with a
# stand-in cuobjdump that names the object it dumps:
#  - a step's diff against its predecessor, step 24, which runs 23's kernel,
#    shown whole, and step 25, after 24, a diff against 23;
#  - a step whose descriptor says `.builds_on = 21`: 28 against 21, 29 (after
#    it) against 28; in a planted tree, one against the step it names, one
#    that also runs that step's kernel, one naming a step without a file, and
#    `.builds_on = 0`, the step before;
#  - sass of a step, of step 24 (23's object, with a note), with no cuobjdump
#    (exit 1, a message) and of a step that does not exist (exit 2);
#  - make step of a step that does not exist (exit 2, a message);
#  - make fa3-bench without FA3_DIR (non-zero, a message, nothing built);
#  - report and plots after the build: nothing rebuilt; a planted
#    build record is the build they take; a CODE that does not exist.
# Closes with "make-targets: N passed, N failed, N skipped".
source "$(dirname "$0")/checks.sh"

bash scripts/step_diff.sh 23 > "$tmp/23" 2>&1
check "make step N=23 is a diff of 22 and 23" has "$tmp/23" "+++ variants/23_block_scales.cu"
bash scripts/step_diff.sh 24 > "$tmp/24" 2>&1
check "make step N=24 says whose kernel it runs" has "$tmp/24" "runs the kernel of variants/23_block_scales.cu"
check "make step N=24 shows its file" has "$tmp/24" ".prepare = fs_fp8_prepare_hadamard,"
bash scripts/step_diff.sh 25 > "$tmp/25" 2>&1
check "make step N=25 is a diff of 23 and 25" has "$tmp/25" "--- variants/23_block_scales.cu"
bash scripts/step_diff.sh 28 > "$tmp/28" 2>&1
check "make step N=28 is a diff of 21 and 28" has "$tmp/28" "--- variants/21_lazy_rescale.cu"
check "make step N=28 is a diff into 28" has "$tmp/28" "+++ variants/28_split_ring.cu"
bash scripts/step_diff.sh 29 > "$tmp/29" 2>&1
check "make step N=29 is a diff of 28 and 29" has "$tmp/29" "--- variants/28_split_ring.cu"
# A planted tree: 03 builds on 01; 04 on 02 and runs its kernel; 08 on 06,
# which has no file; 02's `.builds_on = 0` is the default, 01; a header that
# names a builds_on is not the descriptor.
mkdir -p "$tmp/tree/variants"
plant() { printf '/* .builds_on = 7, in a header */\n__global__ void fs%s_k() {}\n%s\n' "$1" "$3" > "$tmp/tree/variants/$1_$2.cu"; }
plant 00 a "const fs_variant fs_variant_00 = {.number = 0};"
plant 01 b "const fs_variant fs_variant_01 = {.number = 1};"
plant 02 c "const fs_variant fs_variant_02 = {.number = 2, .builds_on = 0,
};"
plant 03 d "const fs_variant fs_variant_03 = {.number = 3,
    .builds_on = 1,
};"
plant 04 e "const fs_variant fs_variant_04 = {.number = 4, .builds_on = 2,
    .plan = fs_variant_02.plan,
};"
plant 08 h "const fs_variant fs_variant_08 = {.number = 8,
    .builds_on = 6,
};"
step_in_tree() { (cd "$tmp/tree" && bash "$OLDPWD/scripts/step_diff.sh" "$1") > "$tmp/p$1" 2>&1; }
step_in_tree 2
check "make step of .builds_on = 0 is a diff against the step before" has "$tmp/p2" "--- variants/01_b.cu"
step_in_tree 3
check "make step of a planted builds_on is a diff against it" has "$tmp/p3" "--- variants/01_b.cu"
step_in_tree 4
check "make step of a planted builds_on that runs its kernel says so" has "$tmp/p4" "runs the kernel of variants/02_c.cu"
step_in_tree 8; rc=$?
check "make step of a builds_on without a file exits 2" test $rc -eq 2
check "make step of a builds_on without a file says why" has "$tmp/p8" "make step: variants/08_h.cu changes step 06, which has no file variants/06_*.cu"
bash scripts/step_diff.sh 99 > "$tmp/99" 2>&1; rc=$?
check "make step N=99 exits 2" test $rc -eq 2
check "make step N=99 says why" has "$tmp/99" "make step: no step 99"

mkdir -p "$tmp/bin" "$tmp/build/variants"
printf '#!/bin/sh\necho "sass of $2"\n' > "$tmp/bin/cuobjdump"
chmod +x "$tmp/bin/cuobjdump"
touch "$tmp/build/variants/23_block_scales.o" "$tmp/build/variants/24_hadamard.o"
PATH="$tmp/bin:$PATH" bash scripts/sass.sh "$tmp/build" 24 > "$tmp/s24" 2>&1
check "make sass V=24 dumps 23's object" has "$tmp/s24" "sass of $tmp/build/variants/23_block_scales.o"
check "make sass V=24 says so" has "$tmp/s24" "step 24 runs step 23's kernel"
PATH="$tmp/bin:$PATH" bash scripts/sass.sh "$tmp/build" 99 > "$tmp/s99" 2>&1; rc=$?
check "make sass V=99 exits 2" test $rc -eq 2
check "make sass V=99 names the steps" has "$tmp/s99" "(the steps: 23 24)"
# Without cuobjdump: a PATH of the system's folders, unless it has one there.
skipped=0
if PATH=/usr/bin:/bin command -v cuobjdump > /dev/null; then
    skipped=2
else
    PATH=/usr/bin:/bin bash scripts/sass.sh "$tmp/build" 23 > "$tmp/s0" 2>&1; rc=$?
    check "make sass without cuobjdump exits 1" test $rc -eq 1
    check "make sass without cuobjdump says so" has "$tmp/s0" "cuobjdump is not on PATH"
fi
# make fa3-bench without a flash-attention checkout: nothing built, a message.
${MAKE:-make} --no-print-directory BUILD="$tmp/build" FA3_DIR= fa3-bench > "$tmp/fb" 2>&1; rc=$?
check "make fa3-bench without FA3_DIR fails" test $rc -ne 0
check "make fa3-bench without FA3_DIR says why" has "$tmp/fb" "make fa3-bench: name a flash-attention checkout"
check "make fa3-bench without FA3_DIR builds nothing" test ! -e "$tmp/build/fa3-bench"
# The goals that run no GPU code take the build that is there as it is: the
# one under test rebuilds nothing (here of a run that does not exist, so
# that nothing is written), and a planted record of another build is what
# they say they build for. make as a user types it, without the ARCHS, CODE
# and make levels make test hands down:
as_typed() { env -u CODE -u ARCHS -u MAKELEVEL -u MAKEFLAGS ${MAKE:-make} --no-print-directory "$@"; }
fs=${BUILD:-build}/flashstudy built=$(stat -c %y "$fs" 2>&1)
for goal in report plots; do
    as_typed BUILD="${BUILD:-build}" RUN="$tmp/no-run" $goal > "$tmp/$goal" 2>&1
    check "make $goal after the build under test rebuilds nothing" test "$built" = "$(stat -c %y "$fs" 2>&1)"
    check "make $goal after the build under test compiles nothing" test "$(grep -c '^  \(NVCC\|CC\|LD\) ' "$tmp/$goal")" -eq 0
done
mkdir -p "$tmp/planted" && echo "sm 80 90" > "$tmp/planted/archs"
as_typed -n BUILD="$tmp/planted" report > "$tmp/planted.out" 2>&1
check "make report takes the build that is there" has "$tmp/planted.out" "machine code sm_80, sm_90 and PTX compute_90"
${MAKE:-make} --no-print-directory -n CODE=fast all > "$tmp/code" 2>&1; rc=$?
check "make CODE=fast fails" test $rc -ne 0
check "make CODE=fast names the codes" has "$tmp/code" "CODE=fast: sm (machine code and PTX), compute (PTX alone) or check"
echo "make-targets: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
