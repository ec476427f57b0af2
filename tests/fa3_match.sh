#!/usr/bin/env bash
# scripts/fa3_match.sh, without a GPU:
#  - its table on two rounds made up here: medians over the rounds (an even
#    count: the mean of the middle two), the fastest launches, the series'
#    lengths, the 3% bound on both sides, a failed row, a quoted cell with a
#    comma, rows of other variants ignored;
#  - the checked-in fa3-match run: its match.md is what the table says of
#    its own files;
#  - bad input (no such programs, ROUNDS or LAUNCHES 0, an OUT that exists): exit 2, a
#    message, nothing created or changed.
# Closes with "fa3-match: N passed, N failed".
source "$(dirname "$0")/checks.sh"

run=$tmp/run
mkdir -p "$run/round-1" "$run/round-2"
for r in 1 2; do
    # Round 1: 100 and 200 us; round 2: 104 and 220. The row: 103 and 99 at
    # the first shape (0.990: 101 of 102), 240 and 236 at the second (1.133).
    # The fastest launches: 90 + r and 95 - r (benchmark), 97 and 98 (row).
    printf 'fa3 causal=1 N=1024 D=64 time_us=%s tflops=1\n#   min_us=%s mean_us=1 (per-launch CUDA events, 5 iters after 1 warm-up)\nfa3 causal=1 N=4096 D=64 time_us=%s tflops=1\n' \
        "$([ $r = 1 ] && echo 100 || echo 104)" $((90 + r)) "$([ $r = 1 ] && echo 200 || echo 220)" > "$run/bench-cold-$r.txt"
    printf 'fa3 causal=0 N=1024 D=128 time_us=50 tflops=1\n#   min_us=%s mean_us=1\n' $((95 - r)) > "$run/bench-hot-$r.txt"
    {
        echo 'variant,reason,mode,seq,head_dim,causal,status,reps,time_median_s,time_min_s'
        echo "fa3,\"a, b\",cold,1024,64,1,ok,7,$([ $r = 1 ] && echo 103e-6 || echo 99e-6),9$((6 + r))e-6"
        echo "fa3,,cold,4096,64,1,ok,7,$([ $r = 1 ] && echo 240e-6 || echo 236e-6),1e-4"
        echo "fa3,,hot,1024,128,0,$([ $r = 1 ] && echo ok || echo failed),7,50e-6,4e-5"
        echo 'cudnn,,cold,1024,64,1,ok,9,1e-6,1e-6'
    } > "$run/round-$r/results.csv"
done
bash scripts/fa3_match.sh --table "$run" > "$tmp/out" 2>&1; rc=$?
check "--table exits 0" test $rc -eq 0
check "--table writes match.md" cmp -s "$tmp/out" "$run/match.md"
check "a shape within 3%" has "$tmp/out" "| cold | 64 | causal | 1024 | 102.00 (100.00-104.00) | 101.00 (99.00-103.00) | 0.990 | yes | 91.00 | 97.00 |"
check "a shape outside" has "$tmp/out" "| cold | 64 | causal | 4096 | 210.00 (200.00-220.00) | 238.00 (236.00-240.00) | 1.133 | no |  | 100.00 |"
check "a round that failed" has "$tmp/out" "| hot | 128 | none | 1024 | 50.00 | failed | | no | | |"
check "a shape not measured" has "$tmp/out" "| cold | 128 | none | 16384 | missing | missing | | no | | |"
check "the count" has "$tmp/out" "**1 of 24** within 3%."
check "the series' lengths" has "$tmp/out" "launches a series: 5 (benchmark), 7 (row)."
check "the other variants ignored" test "$(grep -c '| yes |' "$tmp/out")" -eq 1

match=$(ls -d results/*-fa3-match 2> /dev/null | tail -1)
if [ -n "$match" ]; then
    cp -r "$match" "$tmp/checked-in"
    bash scripts/fa3_match.sh --table "$tmp/checked-in" > /dev/null 2>&1
    check "the checked-in match.md is its data's" cmp -s "$match/match.md" "$tmp/checked-in/match.md"
fi

printf '#!/bin/sh\nexit 0\n' > "$tmp/true"
chmod +x "$tmp/true"
bad() { # what, the message, the arguments
    local what=$1 msg=$2; shift 2
    bash scripts/fa3_match.sh "$@" > "$tmp/bad" 2>&1; local rc=$?
    check "$what exits 2" test $rc -eq 2
    check "$what says why" has "$tmp/bad" "$msg"
}
bad "no arguments" "usage: fa3_match.sh"
bad "no such flashstudy" "$tmp/none is not an executable" "$tmp/none" "$tmp/true" "$tmp/new"
bad "no such benchmark" "make fa3-bench" "$tmp/true" "$tmp/none" "$tmp/new"
bad "ROUNDS 0" "ROUNDS is a whole number from 1, not '0'" "$tmp/true" "$tmp/true" "$tmp/new" 0
bad "ROUNDS x" "not 'x'" "$tmp/true" "$tmp/true" "$tmp/new" x
LAUNCHES=0 bad "LAUNCHES 0" "LAUNCHES is a whole number from 1, not '0'" "$tmp/true" "$tmp/true" "$tmp/new"
check "no OUT made by bad input" test ! -e "$tmp/new"
bad "an OUT that exists" "$run exists; name a new folder" "$tmp/true" "$tmp/true" "$run"
check "an OUT that exists is kept" cmp -s "$tmp/out" "$run/match.md"
bad "--table of a folder with no rounds" "holds no round-R/ or bench-*.txt" --table "$tmp"
check "--table of no rounds writes nothing" test ! -e "$tmp/match.md"

echo "fa3-match: $passed passed, $failed failed"
[ $failed -eq 0 ]
