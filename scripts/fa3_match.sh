#!/usr/bin/env bash
# The fa3 row against FlashAttention-3's own benchmark (make fa3-bench) in one
# call, at that benchmark's 24 shapes and modes: B = 2, Hq = 16, Hkv = 8,
# D = 64 and 128, N = 1k, 4k and 16k, causal and not, cold and hot; on the
# same inputs (N(0, 1)) and layout ([B, H, N, D]), and the same call: the
# fa3 row times what FlashAttention-3's API issues, a causal problem's tile
# counter zeroed and then the kernel, and so does the benchmark with --api.
# A launch series' time moves with the clock the GPU holds through it: under
# the long kernels of 16k the GPU reaches its power cap and the SM clock falls
# from about 1980 to 1500 MHz, the sooner the more load came before
# (flashstudy times a row right after its shape's reference, seconds of load
# at 16k; the benchmark has none). So the fa3 row is timed as the benchmark
# times itself, LAUNCHES (50) launches after its warm-up (--iters; --stop reps
# --reps), the two take turns ROUNDS times, the order swapped every round,
# and each side's time is the median of its rounds' medians. The fastest
# launch of each side, taken at the highest clock, stands beside it.
#   scripts/fa3_match.sh FLASHSTUDY BENCH OUT [ROUNDS]   (ROUNDS: 3)
#   scripts/fa3_match.sh --table OUT                    the table again
# OUT, a new folder: round-R/, each round's fa3 rows as a run folder;
# bench-MODE-R.txt, the benchmark's output; match.md, the two side by side.
set -u
usage="usage: fa3_match.sh FLASHSTUDY BENCH OUT [ROUNDS] | --table OUT"
die() { echo "fa3_match.sh: $*" >&2; exit 2; }
# The table: each side's median over the rounds, per shape and mode.
table() { # folder
    local rounds
    rounds=$(ls -d "$1"/round-* 2> /dev/null | wc -l)
    [ "$rounds" -gt 0 ] && ls "$1"/bench-*.txt > /dev/null 2>&1 || { echo "fa3_match.sh: $1 holds no round-R/ or bench-*.txt" >&2; return 2; }
    awk -v rounds="$rounds" '
function median(list,    v, n, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
# A CSV line into f[1..n], quotes and doubled quotes undone; n.
function csv(line, f,    n, i, c, q, cell) {
    n = 1; cell = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { cell = cell c; i++ }
        else if (c == "\"") q = !q
        else if (!q && c == ",") { f[n++] = cell; cell = "" }
        else cell = cell c
    }
    f[n] = cell
    return n
}
FNR == 1 { file = FILENAME; sub(/.*\//, "", file); bench = file ~ /^bench-(cold|hot)-[0-9]+\.txt$/ }
bench && /^fa3 causal=/ {
    split(file, w, "-"); mode = w[2]
    for (i = 2; i <= NF; i++) { split($i, kv, "="); a[kv[1]] = kv[2] }
    k = mode SUBSEP a["D"] SUBSEP a["causal"] SUBSEP a["N"]
    b[k] = b[k] " " a["time_us"]; last = k
    next
}
bench && /^#   min_us=/ {
    split($2, kv, "="); bmin[last] = bmin[last] " " kv[2]
    if (match($0, /events, [0-9]+ iters/)) biters[substr($0, RSTART + 8, RLENGTH - 14)] = 1
    next
}
file == "results.csv" && FNR == 1 { csv($0, h); for (i in h) col[h[i]] = i; next }
file == "results.csv" {
    csv($0, f)
    if (f[col["variant"]] != "fa3") next
    k = f[col["mode"]] SUBSEP f[col["head_dim"]] SUBSEP f[col["causal"]] SUBSEP f[col["seq"]]
    ok = f[col["status"]] == "ok"
    o[k] = o[k] " " (ok ? f[col["time_median_s"]] * 1e6 : "failed")
    if (ok) { omin[k] = omin[k] " " f[col["time_min_s"]] * 1e6; oreps[f[col["reps"]]] = 1 }
}
END {
    printf "The fa3 row and FlashAttention-3'"'"'s benchmark, taking turns %d times (`scripts/fa3_match.sh`),\n", rounds
    printf "launches a series: %s (benchmark), %s (row). The median of each side'"'"'s medians in µs, their range,\n",
           keys_of(biters), keys_of(oreps)
    printf "and each side'"'"'s fastest launch.\n\n"
    print "| mode | D | mask | N | benchmark µs | fa3 row µs | row / benchmark | within 3% | fastest, benchmark | fastest, row |"
    print "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
    split("cold hot", modes, " "); split("64 128", ds, " "); split("1 0", cs, " "); split("1024 4096 16384", ns, " ")
    for (m = 1; m <= 2; m++) for (d = 1; d <= 2; d++) for (c = 1; c <= 2; c++) for (n = 1; n <= 3; n++) {
        k = modes[m] SUBSEP ds[d] SUBSEP cs[c] SUBSEP ns[n]; shapes++
        printf "| %s | %s | %s | %s | ", modes[m], ds[d], cs[c] ? "causal" : "none", ns[n]
        if (!(k in b) || !(k in o) || o[k] ~ /failed/) {
            printf "%s | %s | | no | | |\n", k in b ? sprintf("%.2f", median(b[k])) : "missing",
                   k in o ? (o[k] ~ /failed/ ? "failed" : sprintf("%.2f", median(o[k]))) : "missing"
            continue
        }
        tb = median(b[k]); to = median(o[k]); r = to / tb
        ok = r >= 0.97 && r <= 1.03; hits += ok
        printf "%.2f (%s) | %.2f (%s) | %.3f | %s | %s | %s |\n", tb, range(b[k]), to, range(o[k]), r, ok ? "yes" : "no",
               lowest(bmin[k]), lowest(omin[k])
    }
    printf "\n**%d of %d** within 3%%.\n", hits, shapes
}
function range(list,    v, n, i, lo, hi) {
    n = split(list, v, " "); lo = hi = v[1] + 0
    for (i = 2; i <= n; i++) { if (v[i] + 0 < lo) lo = v[i] + 0; if (v[i] + 0 > hi) hi = v[i] + 0 }
    return sprintf("%.2f-%.2f", lo, hi)
}
function keys_of(set,    k, out) {
    out = ""
    for (k in set) out = out (out == "" ? "" : " and ") k
    return out == "" ? "none" : out
}
function lowest(list,    v, n, i, lo) {
    if ((n = split(list, v, " ")) == 0) return ""
    lo = v[1] + 0
    for (i = 2; i <= n; i++) if (v[i] + 0 < lo) lo = v[i] + 0
    return sprintf("%.2f", lo)
}
' "$1"/bench-*.txt "$1"/round-*/results.csv
}

if [ "${1:-}" = --table ]; then
    [ $# = 2 ] || die "$usage"
    table "$2" > "$2/match.md.tmp" || { rm -f "$2/match.md.tmp"; exit 2; }
    mv "$2/match.md.tmp" "$2/match.md" && cat "$2/match.md"
    exit
fi
[ $# -ge 3 ] && [ $# -le 4 ] || die "$usage"
fs=$1 bench=$2 out=$3 rounds=${4:-3} launches=${LAUNCHES:-50}
[ -x "$fs" ] && [ -f "$fs" ] || die "$fs is not an executable (make)"
[ -x "$bench" ] && [ -f "$bench" ] || die "$bench is not an executable (make fa3-bench FA3_DIR=...)"
case $rounds in '' | *[!0-9]* | 0*) die "ROUNDS is a whole number from 1, not '$rounds'" ;; esac
case $launches in '' | *[!0-9]* | 0*) die "LAUNCHES is a whole number from 1, not '$launches'" ;; esac
[ -e "$out" ] || [ -L "$out" ] && die "$out exists; name a new folder"
mkdir -p "$out" || die "cannot create $out"

# One round's fa3 rows in MODE: a sweep for each mask, merged at the end.
ours() { # round mode
    for mask in causal no-causal; do
        "$fs" sweep --seq 1024,4096,16384 --head-dim 64,128 --"$mask" --mode "$2" --variants fa3 \
            --no-profile --stop reps --reps "$launches" --out "$out/.round-$1-$2-$mask" > /dev/null || return
    done
}
theirs() { "$bench" --normal --bhnd --api --iters "$launches" $([ "$2" = cold ] && echo --cold) > "$out/bench-$2-$1.txt"; }

for r in $(seq "$rounds"); do
    for mode in cold hot; do
        if [ $((r % 2)) = 1 ]; then theirs "$r" "$mode" && ours "$r" "$mode"
        else ours "$r" "$mode" && theirs "$r" "$mode"; fi || die "round $r, $mode: a run failed"
    done
    "$fs" merge "$out"/.round-"$r"-* --out "$out/round-$r" > /dev/null || die "round $r: the merge failed"
    rm -rf "$out"/.round-"$r"-*
done

table "$out" > "$out/match.md" || die "the table failed"
cat "$out/match.md"
