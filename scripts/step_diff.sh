#!/usr/bin/env bash
# make step N=04: what step 04 changed against the step it changes (03; a
# step whose descriptor says `.builds_on = 21` against 21), without the header
# comment (each file explains itself) and with the kernels' fs03_/fs04_
# prefixes made equal (and the descriptors' names), so that only the step
# remains. A step that borrows its predecessor's kernel is shown whole.
set -uo pipefail
. "$(dirname "$0")/kernel_step.sh"
[[ ${1:-} =~ ^[0-9]+$ ]] && (( 10#$1 > 0 )) || { echo "usage: make step N=NN (a step after 00)" >&2; exit 2; }
n=$(printf %02d $((10#$1)))
p=$(step_before "$n")
shopt -s nullglob
new=(variants/"$n"_*.cu) old=(variants/"$p"_*.cu)
if (( ! ${#new[@]} )); then
    steps=(variants/[0-9][0-9]_*.cu)
    echo "make step: no step $n (the steps run from ${steps[0]:9:2} to ${steps[-1]:9:2})" >&2
    exit 2
fi
if (( ! ${#old[@]} )); then
    echo "make step: ${new[0]} changes step $p, which has no file variants/${p}_*.cu" >&2
    exit 2
fi
body() {
    awk 'NR == 1 && /^\/\*/ { c = 1 } c { if (/\*\//) c = 0; next } { print }' "$1" | sed -e "s/fs$2_/fsNN_/g" -e "s/fs_variant_$2 /fs_variant_NN /"
}
# A step that runs its predecessor's kernel (24 runs 23's) is its own file's
# body: the diff would show the kernel it borrows as deleted.
k=$(kernel_step "$n")
if [[ $k != "$n" ]]; then
    kernel=(variants/"$k"_*.cu)
    echo "make step: ${new[0]} runs the kernel of ${kernel[0]}; what it changes is its own file:"
    body "${new[0]}" "$n"
    exit 0
fi
# After such a step (25 after 24), the diff is against the kernel's step.
p=$(kernel_step "$p") old=(variants/"$p"_*.cu)
# diff exits 1 when the files differ, which is the point here.
diff -u --label "${old[0]}" --label "${new[0]}" <(body "${old[0]}" "$p") <(body "${new[0]}" "$n")
(( $? <= 1 ))
