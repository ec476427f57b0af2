#!/usr/bin/env bash
# make sass V=NN: one step's machine code, demangled, from its object in the
# build folder.   usage: sass.sh BUILD NN
set -uo pipefail
. "$(dirname "$0")/kernel_step.sh"
build=$1 v=${2:-}
[[ $v =~ ^[0-9]+$ ]] || { echo "usage: make sass V=NN (a step's number, e.g. V=03)" >&2; exit 2; }
command -v cuobjdump >/dev/null || { echo "make sass: cuobjdump is not on PATH (it comes with the CUDA toolkit's bin)" >&2; exit 1; }
# A step that runs its predecessor's kernel (24: 23's) has no machine code of
# its own: the kernel's step is shown.
n=$(printf %02d $((10#$v))) k=$(kernel_step "$v")
[[ $k != "$n" ]] && echo "make sass: step $n runs step $k's kernel; its machine code:" >&2
n=$k
obj=("$build"/variants/"$n"_*.o)
[[ -f ${obj[0]} ]] || { echo "make sass: no step $n in $build/variants (the steps: $(cd "$build/variants" 2>/dev/null && ls [0-9][0-9]_*.o 2>/dev/null | cut -c1-2 | paste -sd' '))" >&2; exit 2; }
cuobjdump --dump-sass "${obj[0]}" | c++filt
