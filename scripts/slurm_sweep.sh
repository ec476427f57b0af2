#!/usr/bin/env bash
# A sweep over a Slurm cluster: a job array of one task per shard, each
# `flashstudy sweep --shard K/N` on the GPU(s) Slurm gives it (K is the
# task's place in the array, from 0, whatever ids the array has), then a
# job that starts once every task has succeeded (--dependency=afterok) and
# merges their run folders into one. The jobs read Slurm's own environment
# (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) and nothing of ours.
#
#   scripts/slurm_sweep.sh [--shards N] [--out DIR] [--flashstudy PATH]
#                          [SBATCH_OPTION...] -- [SWEEP_OPTION...]
#
#   --shards N        tasks in the array (default: one per configuration of
#                     the sweep, never more)
#   --out DIR         the merged run folder (default results/<UTC stamp>-slurm);
#                     the tasks' run folders and every job's log go to DIR.shards/
#   --flashstudy PATH the executable the jobs run (default: the build beside
#                     this script, else flashstudy on PATH)
#   SBATCH_OPTION     given to both sbatch calls (--partition=gpu, --time=2:00:00,
#                     --account=...); the tasks get --gres=gpu:1 unless a GPU
#                     option is among them (with more GPUs a task spreads its
#                     rows over them: sweep --devices all)
#   SWEEP_OPTION      flashstudy sweep's options, as on one machine
#
# Before it submits anything, the sweep's options are checked by planning it
# here (flashstudy sweep --plan: no GPU needed). Prints the two job ids.
set -euo pipefail
say() { echo "slurm_sweep: $*"; }
die() { echo "slurm_sweep: $*" >&2; exit 2; }

shards='' out='' fs='' sbatch_opts=() sweep=()
while [ $# -gt 0 ]; do
    case $1 in
        --shards) [ $# -ge 2 ] || die "--shards needs a number"; shards=$2; shift 2 ;;
        --shards=*) shards=${1#*=}; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
        --out=*) out=${1#*=}; shift ;;
        --flashstudy) [ $# -ge 2 ] || die "--flashstudy needs a path"; fs=$2; shift 2 ;;
        --flashstudy=*) fs=${1#*=}; shift ;;
        --) shift; sweep=("$@"); break ;;
        *) sbatch_opts+=("$1"); shift ;;
    esac
done
for a in ${sweep[@]+"${sweep[@]}"}; do
    case $a in
        --shard|--shard=*|--out|--out=*|--plan|--devices|--devices=*)
            die "$a is this script's to set: leave it out of the sweep's options" ;;
    esac
done
for a in ${sbatch_opts[@]+"${sbatch_opts[@]}"}; do
    case $a in
        -a|--array|--array=*|-d|--dependency|--dependency=*|-o|--output|--output=*)
            die "$a is this script's to set: leave it out of the sbatch options" ;;
    esac
done
[ -z "$shards" ] || [[ $shards =~ ^[1-9][0-9]*$ ]] || die "--shards must be a positive number, not \"$shards\""
if [ -z "$fs" ]; then
    fs=$(dirname "$(readlink -f "$0")")/../build/flashstudy
    [ -x "$fs" ] || fs=$(command -v flashstudy) || die "no flashstudy: build it (make) or name it (--flashstudy PATH)"
fi
fs=$(readlink -f "$fs")
[ -x "$fs" ] || die "$fs is not an executable"
# A check build (make test's where there is no GPU) measures nothing: every
# task would refuse. (The test seam's fake GPUs measure nothing either way.)
[ -n "${FLASHSTUDY_FAKE_GPUS:-}" ] || ! "$fs" --version | grep -q '(CODE=check' ||
    die "$fs is a check build (CODE=check, what make test builds without a GPU), which measures nothing: build it with make first"
command -v sbatch >/dev/null || die "sbatch is not on PATH: this is no Slurm submit host"

# The plan: bad options fail here, before any job is queued.
plan=$("$fs" sweep ${sweep[@]+"${sweep[@]}"} --plan) || exit 2
configs=$(printf '%s\n' "$plan" | sed -n 's/^plan: \([0-9]*\) configurations\{0,1\},.*/\1/p')
[ -n "$configs" ] || die "could not read the plan's count of configurations: $(printf '%s\n' "$plan" | tail -1)"
if [ -z "$shards" ] || [ "$shards" -gt "$configs" ]; then
    [ -n "$shards" ] && say "the sweep has $configs configurations: $configs tasks, not $shards"
    shards=$configs
fi

out=${out:-results/$(date -u +%Y%m%d-%H%M%S)-slurm}
out=${out%/}
[ ! -e "$out" ] || die "$out already exists: choose a new --out"
[ ! -e "$out.shards" ] || die "$out.shards already exists: choose a new --out"
mkdir -p "$(dirname "$out")"
out=$(readlink -f "$(dirname "$out")")/$(basename "$out")
mkdir "$out.shards"

# The jobs' scripts, written out (and kept) rather than --wrap'ped: what a
# task ran is there to read. Every value is quoted for bash here and now;
# only SLURM_* are read when they run.
args=$([ ${#sweep[@]} -eq 0 ] || printf '%q ' "${sweep[@]}")
fs_q=$(printf %q "$fs") shards_q=$(printf %q "$out.shards") out_q=$(printf %q "$out")
cat > "$out.shards/task.sh" <<EOF
#!/bin/bash
# A task of flashstudy's job array: its shard of the sweep, its place in the
# array from 0 (an array need not start at 0).
set -eu
k=\$((\$SLURM_ARRAY_TASK_ID - \$SLURM_ARRAY_TASK_MIN))
n=\$SLURM_ARRAY_TASK_COUNT
$fs_q sweep $args--shard "\$k/\$n" --plan
exec $fs_q sweep $args--shard "\$k/\$n" --devices all --out $shards_q/"\$k"
EOF
cat > "$out.shards/merge.sh" <<EOF
#!/bin/bash
# After every task of the array succeeded: their run folders into one.
exec $fs_q merge $shards_q/[0-9]* --out $out_q
EOF
chmod +x "$out.shards/task.sh" "$out.shards/merge.sh"

gpu=(--gres=gpu:1)
for a in ${sbatch_opts[@]+"${sbatch_opts[@]}"}; do
    case $a in --gres*|--gpus*|-G*|--gpu*) gpu=() ;; esac
done
# --parsable prints "id" or "id;cluster".
array=$(sbatch --parsable --job-name=flashstudy-sweep --array="0-$((shards - 1))" \
    --output="$out.shards/slurm-%A_%a.out" ${gpu[@]+"${gpu[@]}"} ${sbatch_opts[@]+"${sbatch_opts[@]}"} \
    "$out.shards/task.sh")
array=${array%%;*}
merge=$(sbatch --parsable --job-name=flashstudy-merge --dependency="afterok:$array" \
    --output="$out.shards/slurm-merge-%j.out" ${sbatch_opts[@]+"${sbatch_opts[@]}"} "$out.shards/merge.sh")
merge=${merge%%;*}
say "array job $array: $shards tasks of $configs configurations (shard K/$shards, K from 0); merge job $merge after them"
say "shards and logs in $out.shards/; the merged run: $out"
