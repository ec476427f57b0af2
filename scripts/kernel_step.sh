# Sourced by step_diff.sh and sass.sh (from the source tree's root).
# step_before NN prints the step that step NN changes: the one its
# descriptor's `.builds_on = MM` names (28 changes the 16-bit 21, not the FP8
# 27), else (no such field, or 0) NN - 1; fs_step_before in C, read from the
# descriptor fs_variant_NN = { ... }; of its file.
step_before() {
    local n src b=
    n=$(printf %02d $((10#$1)))
    src=(variants/"$n"_*.cu)
    [[ -f ${src[0]:-} ]] &&
        b=$(sed -n "/fs_variant_$n = {/,/^};/s/.*\.builds_on[[:space:]]*=[[:space:]]*\([0-9][0-9]*\).*/\1/p" "${src[0]}" | head -n 1)
    if [[ -n $b ]] && (( 10#$b > 0 )); then printf %02d $((10#$b)); else printf %02d $((10#$n - 1)); fi
}
# kernel_step NN prints the step whose file holds step NN's kernel: NN, or,
# for a step whose descriptor takes its predecessor's (24 takes 23's plan and
# launch), that step's kernel step; fs_kernel_step in C, read from the sources.
kernel_step() {
    local n p src
    n=$(printf %02d $((10#$1)))
    while p=$(step_before "$n") && src=(variants/"$n"_*.cu) && [[ -f ${src[0]:-} ]] &&
          grep -q "fs_variant_$p\." "${src[0]}"; do
        n=$p
    done
    echo "$n"
}
