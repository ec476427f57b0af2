#!/usr/bin/env bash
# make phases V=NN: where a block's first moments go in step NN, timed from
# inside. scripts/phases.py makes a copy of the step with thread 0's clock
# reads at each phase of the block's entry and first tile; this builds it as
# variant 99 in a scratch copy of the tree and of its build ($BUILD/phases,
# so that only the copy and the registry compile), runs it at the log's
# problem (B = 2, Hq = 16, Hkv = 8, fp16, causal, N = 1024) at D = 128 and
# 64, timing only, and writes what it prints, medians over the grid's blocks,
# to results/<time>-<gpu>-phases-NN.txt. More sweep options (--seq 4096, ...)
# follow NN. Needs a GPU; the copy is not a step and not in the registry.
set -u
. "$(dirname "$0")/gpu_slug.sh"
v=${1:-}; shift
[[ $v =~ ^[0-9][0-9]$ ]] || { echo "phases: name a step, two digits (make phases V=51)" >&2; exit 2; }
src=$(ls variants/"$v"_*.cu 2>/dev/null | head -1)
[ -n "$src" ] || { echo "phases: no step $v (no variants/${v}_*.cu)" >&2; exit 2; }
build=${BUILD:-build}
[ -x "$build/flashstudy" ] || { echo "phases: build flashstudy first (make)" >&2; exit 2; }
nvidia-smi -L >/dev/null 2>&1 || { echo "phases: no GPU" >&2; exit 2; }
[ -n "${ROOMS:-}" ] || { echo "phases: run it as make phases V=$v, which names the code's folders" >&2; exit 2; }

tree=$build/phases
rm -rf "$tree" && mkdir -p "$tree/build" || exit 2
cp -a Makefile plots scripts $ROOMS "$tree"/ || exit 2
tar -C "$build" --exclude=./phases -cf - . | tar -C "$tree/build" -xf - || exit 2
python3 scripts/phases.py "$src" "$v" "$tree/variants/99_phases$v.cu" 99 || exit 2
sed -i 's/^\(    X(09) .*\) \\$/\1 X(99) \\/' "$tree/variants/registry.c"
grep -q 'X(99)' "$tree/variants/registry.c" || { echo "phases: variants/registry.c: no list of steps to add 99 to" >&2; exit 2; }
fa3=$(cat "$build/fa3_dir" 2>/dev/null)
make -C "$tree" --no-print-directory -j"$(nproc)" BUILD=build ${fa3:+FA3_DIR="$(cd "$fa3" && pwd)"} all > "$tree/build.log" 2>&1 ||
    { tail -20 "$tree/build.log"; echo "phases: the copy did not build ($tree/build.log)" >&2; exit 1; }

name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
out=results/$(date -u +%Y%m%d-%H%M%S)-$(gpu_slug "$name")-phases-$v.txt
{
    echo "# scripts/phases.sh $v $*, $(date -u '+%Y-%m-%d %H:%M') UTC, on $name"
    echo "# $src with thread 0's clock reads (scripts/phases.py), built as variant 99, timing only. Per phase, over"
    echo "# the grid's blocks, the cycles since thread 0's first read at its entry: the four tensor maps'"
    echo "# prefetches issued; the barriers initialised and fenced; the first tile decoded; its K/V head worked"
    echo "# out; its first K and V sent for; its Q sent for; thread 0 at the block's first __syncthreads; then,"
    echo "# as a consumer, warpgroup 0's first K landed, its rows of Q landed, its first step done. The last"
    echo "# line is the global timer at entry, in ns since the grid's first block's. The last launch's stamps."
    "$tree/build/flashstudy" sweep --variants 99 --seq 1024 --head-dim 128,64 --tile 128x128 --no-profile \
        --time-budget 0.05 --out "$tree/run" "$@" | grep '^PROBE'
} > "$out.tmp" && grep -q '^PROBE' "$out.tmp" && mv "$out.tmp" "$out" ||
    { rm -f "$out.tmp"; echo "phases: the copy printed no clock reads" >&2; exit 1; }
cat "$out"
