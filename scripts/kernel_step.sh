# Sourced by step_diff.sh and sass.sh (from the source tree's root).
# kernel_step NN prints the step whose file holds step NN's kernel: NN, or,
# for a step whose descriptor takes its predecessor's (24 takes 23's plan and
# launch), that step's kernel step; fs_kernel_step in C, read from the sources.
kernel_step() {
    local n p src
    n=$(printf %02d $((10#$1)))
    while p=$(printf %02d $((10#$n - 1))) && src=(variants/"$n"_*.cu) && [[ -f ${src[0]:-} ]] &&
          grep -q "fs_variant_$p\." "${src[0]}"; do
        n=$p
    done
    echo "$n"
}
