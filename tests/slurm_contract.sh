#!/usr/bin/env bash
# scripts/slurm_sweep.sh against a fake Slurm: an `sbatch` on PATH that
# records its arguments and runs the job as Slurm would, an array's tasks
# one by one with SLURM_ARRAY_TASK_ID, _MIN, _MAX, _COUNT and
# SLURM_ARRAY_JOB_ID set, a job after an array only when each of its tasks
# succeeded. The measurement is flashstudy's test seam (FLASHSTUDY_FAKE_GPUS,
# exported to the jobs as sbatch exports the environment): no GPU. Checks
# the two submissions' arguments, that the jobs read nothing but Slurm's
# variables, that the tasks' shards cover the sweep once (an array from 1
# too), the merged run's rows, and the refusals (a check build among them).
# Closes with "slurm-contract: N passed, N failed". Environment: BUILD (the Makefile's; default build).
source "$(dirname "$0")/checks.sh"
fs=$build/flashstudy
for v in $(env | sed -n 's/^\(SLURM_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

mkdir -p "$tmp/bin"
cat > "$tmp/bin/sbatch" <<'EOF'
#!/usr/bin/env bash
# Fake sbatch: --parsable, --array=A-B, --dependency=afterok:ID, --output,
# a script; runs the job at once.
set -u
dir=$FAKE_SLURM_DIR
id=$(( $(cat "$dir/next" 2>/dev/null || echo 100) + 1 )); echo "$id" > "$dir/next"
printf '%s\n' "$@" > "$dir/sbatch.$id"
array='' after='' output="$dir/slurm-%j.out" script=''
for a; do
    case $a in
        --array=*) array=${a#*=} ;;
        --dependency=afterok:*) after=${a#*afterok:} ;;
        --output=*) output=${a#*=} ;;
        -*) ;;
        *) script=$a ;;
    esac
done
if [ -n "$after" ] && ! [ -f "$dir/ok.$after" ]; then
    echo "sbatch: job $after did not succeed: job $id never runs" >&2; echo "$id"; exit 0
fi
ok=1
if [ -n "$array" ]; then
    for ((t = ${array%-*}; t <= ${array#*-}; t++)); do
        log=${output//%A/$id}; log=${log//%a/$t}
        SLURM_JOB_ID=$((id + t)) SLURM_ARRAY_JOB_ID=$id SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_TASK_MIN=${array%-*} \
            SLURM_ARRAY_TASK_MAX=${array#*-} SLURM_ARRAY_TASK_COUNT=$(( ${array#*-} - ${array%-*} + 1 )) \
            "$script" > "$log" 2>&1 || ok=0
    done
else
    SLURM_JOB_ID=$id "$script" > "${output//%j/$id}" 2>&1 || ok=0
fi
[ $ok = 1 ] && touch "$dir/ok.$id"
echo "$id"
EOF
chmod +x "$tmp/bin/sbatch"
export PATH=$tmp/bin:$PATH FAKE_SLURM_DIR=$tmp FLASHSTUDY_FAKE_GPUS=1
sweep=(--seq 256,1024 --tile 64,128 --variants 1,2,cudnn)   # 4 configurations x 3 variants
cd "$tmp" || exit 1

check "slurm_sweep.sh submits" bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --partition=gpu --out "$tmp/run" \
    -- "${sweep[@]}"
said "it says the array and its tasks" "array job 101: 4 tasks of 4 configurations"
said "it says the merge job" "merge job 102 after them"
arr=$tmp/sbatch.101 mrg=$tmp/sbatch.102
grep -qx -- "--array=0-3" "$arr" && grep -qx -- "--parsable" "$arr" && grep -qx -- "--gres=gpu:1" "$arr" \
    && grep -qx -- "--partition=gpu" "$arr"; result "the array: 0-3, a GPU a task, the sbatch options" $?
grep -qx -- "--dependency=afterok:101" "$mrg" && grep -qx -- "--partition=gpu" "$mrg" && ! grep -q -- "--gres" "$mrg"
result "the merge: after the array succeeded, no GPU" $?
vars=$(grep -oh '\$[{(]*[A-Za-z_][A-Za-z_0-9]*' "$tmp/run.shards/task.sh" "$tmp/run.shards/merge.sh" | tr -d '${(' | sort -u | tr '\n' ' ')
[ "$vars" = "SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN k n " ]
result "the jobs read Slurm's variables alone (read: $vars)" $?
for k in 0 1 2 3; do
    grep -q "^plan: shard $k/4: 1 of 4 configurations, 3 rows" "$tmp/run.shards/slurm-101_$k.out"
    result "task $k plans shard $k/4" $?
done
covered=$(cat "$tmp"/run.shards/slurm-101_*.out | sed -n 's/^  #\([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' ')
[ "$covered" = "0 1 2 3 " ]; result "the shards cover the configurations once (covered: $covered)" $?
check "the merged run reads back" "$fs" report "$tmp/run" --out "$tmp/run.md"
rows() { tail -n +2 "$1/results.csv" | cut -d, -f2-17 | LC_ALL=C sort; }
check "one process's run of the sweep" "$fs" sweep "${sweep[@]}" --devices 0 --out "$tmp/single"
[ "$(rows "$tmp/run")" = "$(rows "$tmp/single")" ] && [ "$(tail -n +2 "$tmp/run/results.csv" | wc -l)" = 12 ]
result "the merged rows are the one process's rows" $?

# An array numbered from 1: the tasks still take shards 0 to 3.
rm -rf "$tmp"/run.shards/[0-9]*
for t in 1 2 3 4; do
    SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=4 "$tmp/run.shards/task.sh" > "$tmp/task$t.out" 2>&1
    grep -q "^plan: shard $((t - 1))/4:" "$tmp/task$t.out"; result "array id $t (from 1) takes shard $((t - 1))" $?
done

# More shards than configurations: one a configuration.
check "--shards 10 of 4 configurations" bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --shards 10 \
    --out "$tmp/capped" -- "${sweep[@]}"
said "it says it makes 4 tasks" "the sweep has 4 configurations: 4 tasks, not 10"
grep -qx -- "--array=0-3" "$tmp/sbatch.103"; result "--shards 10 gives 4 tasks" $?
[ "$(tail -n +2 "$tmp/capped/results.csv" | wc -l)" = 12 ]; result "the capped run has every row" $?

# Refusals: nothing submitted.
n=$(ls "$tmp"/sbatch.* | wc -l)
! bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --out "$tmp/bad" -- --seq 0 > "$tmp/out" 2>&1 \
    && grep -q -- "--seq must be a positive integer" "$tmp/out"; result "a bad sweep option is flashstudy's message" $?
! bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --out "$tmp/run" -- "${sweep[@]}" > "$tmp/out" 2>&1 \
    && grep -q "run already exists" "$tmp/out"; result "an existing --out is refused" $?
! bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --out "$tmp/bad" -- --shard 0/2 > "$tmp/out" 2>&1 \
    && grep -q -- "--shard is this script's to set" "$tmp/out"; result "--shard is the script's" $?
printf '#!/bin/sh\necho "flashstudy 1.0"\necho "this build'"'"'s kernels were compiled fast (CODE=check, ...)"\n' > "$tmp/bin/fs-check"
chmod +x "$tmp/bin/fs-check"
! env -u FLASHSTUDY_FAKE_GPUS bash "$root/scripts/slurm_sweep.sh" --flashstudy "$tmp/bin/fs-check" --out "$tmp/bad" \
    -- "${sweep[@]}" > "$tmp/out" 2>&1 && grep -q "fs-check is a check build (CODE=check" "$tmp/out"
result "a check build is refused" $?
[ "$(ls "$tmp"/sbatch.* | wc -l)" = "$n" ] && [ ! -e "$tmp/bad" ] && [ ! -e "$tmp/bad.shards" ]
result "a refusal submits and makes nothing" $?

# A task that fails: the merge job never runs.
check "a sweep whose task dies" env FLASHSTUDY_FAKE_DIE=0 bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" \
    --out "$tmp/died" -- "${sweep[@]}"
[ ! -e "$tmp/died" ]; result "no merge after a failed task" $?

echo "slurm-contract: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
