#!/usr/bin/env bash
# scripts/slurm_sweep.sh under real Slurm on this one machine: Debian's
# slurm-wlm, slurmctld and slurmd on localhost (a node with two GPUs in
# name only) and munge, every file of theirs in a temporary folder (ports
# and a munge socket of their own), started and stopped here. The sweep's
# tasks plan their shards and measure through flashstudy's test seam
# (FLASHSTUDY_FAKE_GPUS, exported to the jobs as sbatch does): no GPU. Then
# a sweep whose tasks die: its merge job must never start.
#
# Run by .ci/run after `make test` (too slow for it: Slurm schedules a
# dependent job within seconds, not at once). As root it installs the
# packages where they are missing (apt-get --no-install-recommends). Where
# the daemons cannot run it says so in one line and runs the fake-Slurm
# contract test (tests/slurm_contract.sh) instead. Closes with "slurm: N
# passed, N failed". Environment: BUILD (default build).
source "$(dirname "$0")/checks.sh"
fs=$build/flashstudy
export SLURM_CONF=$tmp/slurm.conf

stop() {
    for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/pid"; do
        [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 1
    rm -rf "$tmp"
}
trap stop EXIT
fallback() {
    echo "slurm: $1; the contract test with a fake sbatch stands in"
    stop
    trap - EXIT
    exec bash "$root/tests/slurm_contract.sh"
}

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || fallback "slurm-wlm is not installed, and this shell may not install it"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends slurm-wlm munge ||
      { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge; }; } > "$tmp/apt.log" 2>&1 ||
        fallback "apt-get could not install slurm-wlm and munge ($(tail -1 "$tmp/apt.log"))"
fi
[ "$(id -u)" = 0 ] || fallback "the daemons run as root here, and this shell is not"

# munge, on a socket of its own.
mkdir -m 700 "$tmp/munge" "$tmp/state" "$tmp/spool"
key=/etc/munge/munge.key
if [ ! -r "$key" ]; then
    key=$tmp/munge/munge.key
    head -c 1024 /dev/urandom > "$key" && chmod 400 "$key"
fi
munged --force --socket="$tmp/munge/socket" --pid-file="$tmp/munge/pid" --log-file="$tmp/munge/log" \
    --seed-file="$tmp/munge/seed" --key-file="$key" 2> "$tmp/munge/err" ||
    fallback "munged would not start ($(tail -1 "$tmp/munge/err"))"

host=$(hostname -s) port=$((20000 + RANDOM % 10000))
cat > "$SLURM_CONF" <<EOF
ClusterName=flashstudy-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
GresTypes=gpu
NodeName=$host CPUs=$(nproc) Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
# Two GPUs in name only: Slurm hands each task one and sets its
# CUDA_VISIBLE_DEVICES, which the fake's device.csv notes record.
printf 'AutoDetect=off\nNodeName=%s Name=gpu File=/dev/null\nNodeName=%s Name=gpu File=/dev/zero\n' "$host" "$host" \
    > "$tmp/gres.conf"
slurmctld 2> "$tmp/slurmctld.err" || fallback "slurmctld would not start ($(tail -1 "$tmp/slurmctld.err"))"
slurmd -N "$host" 2> "$tmp/slurmd.err" || fallback "slurmd would not start ($(tail -1 "$tmp/slurmd.err"))"
for _ in $(seq 60); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] ||
    fallback "the node never became idle ($(tail -1 "$tmp/slurmctld.log" 2>/dev/null))"
echo "slurm: slurmctld and slurmd run on $host (slurm-wlm $(slurmctld -V | cut -d' ' -f2))"

# Until no job of ours is left queued or running, for at most $1 seconds.
drain() {
    for _ in $(seq $(($1 * 2))); do
        [ -z "$(squeue -h -t PD,R,CG -o %i 2>/dev/null | head -1)" ] && return 0
        [ -n "${2:-}" ] && [ "$(squeue -h -j "$2" -o %r 2>/dev/null)" = DependencyNeverSatisfied ] && return 0
        sleep 0.5
    done
    return 1
}

export FLASHSTUDY_FAKE_GPUS=1
sweep=(--seq 256,1024 --tile 64,128 --variants 1,2,cudnn)   # 4 configurations x 3 variants
bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --out "$tmp/run" -- "${sweep[@]}" > "$tmp/submit" 2>&1
result "slurm_sweep.sh submits ($(tail -1 "$tmp/submit"))" $?
drain 120; result "the array and the merge ran within two minutes" $?
n=$(tail -n +2 "$tmp/run/results.csv" 2>/dev/null | wc -l)
[ "$n" = 12 ] && ! grep -q ',failed,' "$tmp/run/results.csv"; result "the merged run has the 12 rows, none failed ($n)" $?
for k in 0 1 2 3; do
    grep -q "^plan: shard $k/4: 1 of 4 configurations, 3 rows" "$tmp"/run.shards/slurm-*_$k.out 2>/dev/null
    result "task $k planned shard $k/4" $?
done
covered=$(cat "$tmp"/run.shards/slurm-*_[0-9].out 2>/dev/null | sed -n 's/^  #\([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' ')
[ "$covered" = "0 1 2 3 " ]; result "the shards cover the configurations once ($covered)" $?
grep -q "merged 12 rows of 4 runs" "$tmp"/run.shards/slurm-merge-*.out 2>/dev/null; result "the merge job merged them" $?
grep -q "CUDA_VISIBLE_DEVICES=[01]" "$tmp/run/device.csv" 2>/dev/null
result "a task's worker had the GPU Slurm gave the task" $?
"$fs" report "$tmp/run" --out "$tmp/run.md" > /dev/null 2>&1; result "the merged run's report" $?

# Tasks that die: afterok keeps the merge job from ever starting.
FLASHSTUDY_FAKE_DIE=0 bash "$root/scripts/slurm_sweep.sh" --flashstudy "$fs" --out "$tmp/died" -- "${sweep[@]}" \
    > "$tmp/submit" 2>&1
result "the second sweep submits" $?
merge=$(sed -n 's/.*merge job \([0-9]*\) after them.*/\1/p' "$tmp/submit")
drain 120 "$merge"; result "its array ran" $?
[ "$(squeue -h -j "$merge" -o %r 2>/dev/null)" = DependencyNeverSatisfied ] && [ ! -e "$tmp/died" ]
result "its merge job never starts: DependencyNeverSatisfied" $?
scancel "$merge" 2>/dev/null

echo "slurm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
