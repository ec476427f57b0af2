#!/usr/bin/env bash
# Holds flashstudy's CUPTI counters against Nsight Compute's, on a GPU machine.
#
#   scripts/ncu_crosscheck.sh [--config SPEC]... [--configs FILE] FLASHSTUDY [OUT.md]
#                                                       (make crosscheck)
#
# A SPEC is one configuration, words separated by spaces, each optional (the
# rest are `flashstudy run`'s defaults, the seed's configuration):
#   B=2 N=1024 Hq=16 Hkv=8 D=128 tile=32 causal|noncausal cold|hot
# e.g. --config "N=4096" --config "N=1000 D=64 Hkv=4 noncausal". FILE holds
# one SPEC a line ('#' starts a comment, empty lines are skipped; the word
# "defaults" alone is the seed's configuration). Without --config or
# --configs: the seed's configuration and N=4096. `make crosscheck` uses
# scripts/ncu_crosscheck.configs. Every SPEC is checked before the first run.
#
# For each configuration:
#  (a) `flashstudy run` as usual, profiling through CUPTI, timed;
#  (b) `flashstudy run --no-profile` under ncu, timed: the harness still
#      launches each variant once inside its NVTX range `profile` (nested in
#      the variant's range, e.g. 03_causal_skip/profile), and ncu collects the
#      same metrics for the kernels there (--nvtx-include "profile]": profile
#      at the top of the push/pop stack);
#  (c) the same study with --no-profile and no ncu, timed: the base that
#      both profilers add to;
#  (d) prints, variant by variant and metric by metric, both values and their
#      difference, flagging counts off by more than 2%, percentages by more
#      than 1 point and kernel time (ncu's gpu__time_duration against the
#      study's time_median_s) by more than 5%; then the wall times and the
#      profiling cost of each: CUPTI's from the results' profile_s and
#      profile_passes columns (variants x passes), ncu's over the bare run.
# The table goes to OUT.md (default reports/ncu_crosscheck.md); the run
# folders and ncu's CSV stay in a temporary folder named at the end.
#
# ncu replays each kernel with its caches flushed (--cache-control all) when
# the run is cold, and leaves them alone when hot. A variant that launches
# several kernels (the naive one) is one CUPTI range: its ncu counts are summed
# over its kernels, its percentages are kernel-time-weighted means and are not
# flagged (ncu flushes caches before each kernel; the range flushes once).
#
# Environment: VARIANTS (a --variants list; default every variant), NCU (default ncu), NVTX_INCLUDE (default "profile]"; prefix
# "Domain@" if the harness names an NVTX domain), FLUSH_KERNELS (regex of
# kernel names that are the L2 flush, dropped if ncu sees them; default flush).
set -euo pipefail

die() { echo "ncu_crosscheck: $*" >&2; exit 1; }

usage="usage: $0 [--config SPEC]... [--configs FILE] FLASHSTUDY [OUT.md]"
specs=()
while [ $# -gt 0 ]; do
    case $1 in
        --config) [ $# -ge 2 ] || die "--config needs a SPEC; $usage"; specs+=("$2"); shift 2 ;;
        --configs)
            [ $# -ge 2 ] || die "--configs needs a FILE; $usage"
            [ -r "$2" ] || die "--configs $2: cannot read it"
            while IFS= read -r line || [ -n "$line" ]; do
                line=${line%%#*}
                [ -n "${line//[[:space:]]/}" ] && specs+=("$line")
            done < "$2"
            shift 2 ;;
        --) shift; break ;;
        -*) die "unknown option $1; $usage" ;;
        *) break ;;
    esac
done
[ $# -eq 1 ] || [ $# -eq 2 ] || die "$usage"
[ ${#specs[@]} -gt 0 ] || specs=("defaults" "N=4096")

# A SPEC's words as `flashstudy run` options, into the array `args`.
spec_args() {
    args=()
    local w
    for w in $1; do
        case $w in
            defaults) ;;
            B=*) args+=(--batch "${w#*=}") ;;
            N=*) args+=(--seq "${w#*=}") ;;
            Hq=*) args+=(--heads-q "${w#*=}") ;;
            Hkv=*) args+=(--heads-kv "${w#*=}") ;;
            D=*) args+=(--head-dim "${w#*=}") ;;
            tile=*) args+=(--tile "${w#*=}") ;;
            causal) args+=(--causal) ;;
            noncausal|non-causal) args+=(--no-causal) ;;
            cold|hot) args+=(--mode "$w") ;;
            *) die "configuration \"$1\": unknown word \"$w\" (B= N= Hq= Hkv= D= tile= causal noncausal cold hot defaults)" ;;
        esac
    done
    [ -z "${VARIANTS:-}" ] || args+=(--variants "$VARIANTS")
}
# Every SPEC checked before the first run, so that a typo costs no GPU time.
for spec in "${specs[@]}"; do spec_args "$spec"; done
fs=$1
out=${2:-reports/ncu_crosscheck.md}
NCU=${NCU:-ncu}
NVTX_INCLUDE=${NVTX_INCLUDE:-profile]}
FLUSH_KERNELS=${FLUSH_KERNELS:-flush}
tmp=$out.tmp
trap 'rm -f "$tmp"' EXIT

[ -x "$fs" ] || die "$fs is not an executable (build it: make)"
command -v "$NCU" >/dev/null || die "$NCU not found: put Nsight Compute on PATH or set NCU"
command -v awk >/dev/null || die "awk not found"
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "${TMPDIR:-/tmp}/ncu_crosscheck.XXXXXX")

"$fs" metrics --names > "$work/metrics.txt" || die "$fs metrics --names failed"
[ -s "$work/metrics.txt" ] || die "$fs metrics --names printed nothing"
# ncu also measures each kernel's duration, which flashstudy times with events.
tname=gpu__time_duration.sum
metrics=$(awk -v t="$tname" '{ printf "%s,", $1 } END { print t }' "$work/metrics.txt")

now() { date +%s.%N; }

# awk helpers: a CSV line with quoted fields (ncu's and ours) into f[1..n];
# a number without ncu's thousands separators, or "" when not a number.
read_csv='
function csvsplit(line, f,    n, i, c, q, cur) {
    split("", f); n = 0; cur = ""; q = 0
    sub(/\r$/, "", line)
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 }
            else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
function num(s) { gsub(/,/, "", s); return s ~ /^[-+0-9.eE]+$/ ? s + 0 : "" }
'

# The first ok row's mode column: cold or hot.
run_mode() {
    awk "$read_csv"'
        /^#/ || NF == 0 { next }
        !h { n = csvsplit($0, f); for (i = 1; i <= n; i++) col[f[i]] = i; h = 1; next }
        { csvsplit($0, f); if (f[col["status"]] == "ok") { print f[col["mode"]]; exit } }' "$1"
}

# Inputs: metrics.txt, results.csv, ncu's raw-page CSV log; the markdown
# table to stdout, the number of values off to offfile and the profiling cost
# (seconds and passes summed over the ok rows) to costfile. Kernel time is
# ncu's gpu__time_duration against flashstudy's time_median_s (CUDA events,
# profiler off): the number the study quotes.
compare='
FNR == 1 { file++ }
file == 1 { m++; name[m] = $1; column[m] = $2; unit[m] = $3; next }
file == 2 {
    if (/^#/ || NF == 0) next
    n = csvsplit($0, f)
    if (!rh) { for (i = 1; i <= n; i++) rc[f[i]] = i; rh = 1
               split("variant slug status time_median_s profile_s profile_passes", need, " ")
               for (i in need) if (!(need[i] in rc)) { print "results.csv lacks " need[i] > "/dev/stderr"; bad = 1; exit 1 }
               next }
    if (f[rc["status"]] != "ok") next
    # The NVTX range of the row: NN_slug for a step, the slug for a peer.
    key = f[rc["kind"]] == "peer" ? f[rc["slug"]] : sprintf("%02d_%s", f[rc["variant"]], f[rc["slug"]])
    if (key in seen) { print "results.csv has " key " twice: one configuration per run expected" > "/dev/stderr"; bad = 1; exit 1 }
    seen[key] = 1; keys[++nk] = key
    for (i = 1; i <= m; i++) fsv[key, i] = (column[i] in rc) ? num(f[rc[column[i]]]) : ""
    fst[key] = num(f[rc["time_median_s"]]) * 1e9
    cost += num(f[rc["profile_s"]]); passes = f[rc["profile_passes"]]
    next
}
file == 3 {
    if (!nh) { if ($0 !~ /^"ID"/) next
               n = csvsplit($0, f)
               for (i = 1; i <= n; i++) { nc[f[i]] = i; if (f[i] ~ /Push\/Pop_Range/) nvtx = i }
               if (!nvtx || !("Kernel Name" in nc)) { print "ncu CSV has no NVTX or kernel-name column" > "/dev/stderr"; bad = 1; exit 1 }
               if (!(tname in nc)) { print "ncu CSV lacks " tname > "/dev/stderr"; bad = 1; exit 1 }
               for (i = 1; i <= m; i++) if (!(name[i] in nc)) { print "ncu CSV lacks " name[i] > "/dev/stderr"; bad = 1; exit 1 }
               nh = 1; next }
    n = csvsplit($0, f)
    if (f[nc["ID"]] == "") {                       # the units row
        if (f[nc[tname]] != "nsecond" && f[nc[tname]] != "ns") { print "ncu reports " tname " in " f[nc[tname]] ", not ns" > "/dev/stderr"; bad = 1; exit 1 }
        next }
    if (f[nc["Kernel Name"]] ~ flush) { flushed++; next }
    key = ""
    for (k = 1; k <= nk; k++) if (index(f[nvtx], ":" keys[k] ":")) { key = keys[k]; break }
    if (key == "") { stray++; next }
    kernels[key]++; total_kernels++
    t = num(f[nc[tname]]); tsum[key] += t
    for (i = 1; i <= m; i++) {
        v = num(f[nc[name[i]]])
        if (v == "") { missing[key, i] = 1; continue }
        ncu[key, i] += unit[i] == "pct" ? v * t : v
    }
}
function show(x) { return x == "" ? "-" : (x == int(x) && x < 1e15 ? sprintf("%.0f", x) : sprintf("%.4g", x)) }
function row(key, col, a, b, kind,    diff, check, rel) {
    diff = ""; check = "ok"
    if (a == "" || b == "") { check = "**missing**"; off++ }
    else if (kind == "pct") {
        diff = sprintf("%+.2f pt", a - b)
        if (kernels[key] > 1) check = "not compared: " kernels[key] " kernels"
        else if (a - b > 1 || b - a > 1) { check = "**off**"; off++ }
    } else {
        rel = b != 0 ? (a - b) / b : (a == 0 ? 0 : 1)
        diff = sprintf("%+.2f%%", 100 * rel)
        if (rel < 0) rel = -rel
        if (kind == "ns" && kernels[key] > 1) check = "not compared: " kernels[key] " kernels (events include the gaps between them)"
        else if (rel > (kind == "ns" ? 0.05 : 0.02)) { check = "**off**"; off++ }
    }
    compared++
    printf "| %s | %s | %s | %s | %s | %s |\n", key, col, show(a), show(b), diff, check
}
END {
    if (bad) exit 1
    print "| variant | metric | flashstudy | ncu | difference | check |"
    print "| --- | --- | ---: | ---: | ---: | --- |"
    for (k = 1; k <= nk; k++) {
        key = keys[k]
        if (!kernels[key]) { printf "| %s | all | | | | **ncu profiled no kernel of it** |\n", key; off++; continue }
        row(key, "kernel time (ns): time_median_s", fst[key], tsum[key], "ns")
        for (i = 1; i <= m; i++) {
            b = ((key, i) in missing) ? "" : ncu[key, i]
            if (b != "" && unit[i] == "pct") b = tsum[key] > 0 ? b / tsum[key] : ""
            row(key, column[i], fsv[key, i], b, unit[i] == "pct" ? "pct" : "count")
        }
    }
    printf "\n%d values compared, %d off or missing.", compared, off
    if (flushed) printf " %d flush kernel(s) dropped.", flushed
    if (stray) printf " %d kernel(s) under \"profile\" matched no ok variant of results.csv.", stray
    print ""
    print off + 0 > offfile
    print cost + 0, passes + 0, nk + 0, total_kernels + 0 > costfile
}'

total_off=0
{
    echo "# ncu cross-check"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $("$NCU" --version | tail -n 1), $(basename "$fs") at $fs."
    echo "Tolerances: counts 2%, percentages 1 point, kernel time 5%. Metrics: \`flashstudy metrics --names\`."
    echo "Both runs use unlocked clocks (ncu --clock-control none)."
} > "$tmp"

labels=()
for c in "${!specs[@]}"; do
    spec_args "${specs[c]}"
    label="${specs[c]}"
    [ ${#args[@]} -gt 0 ] || label="the seed's configuration (flashstudy run defaults)"
    labels+=("$label")
    dir=$work/config$c
    mkdir -p "$dir"
    echo "ncu_crosscheck: ${labels[c]}: flashstudy run ${args[*]}" >&2
    t0=$(now)
    "$fs" run --out "$dir/cupti" "${args[@]}" > "$dir/cupti.log" 2>&1 \
        || die "flashstudy run failed: see $dir/cupti.log"
    t1=$(now)
    results=$dir/cupti/results.csv
    [ -f "$results" ] || die "no $results after flashstudy run --out $dir/cupti"
    mode=$(run_mode "$results")
    case $mode in
        cold) cache=all ;;
        hot) cache=none ;;
        *) die "$results has no ok row with mode cold or hot" ;;
    esac
    # The same study with no counters at all: what both profilers add to it.
    t4=$(now)
    "$fs" run --no-profile --out "$dir/bare" "${args[@]}" > "$dir/bare.log" 2>&1 \
        || die "flashstudy run --no-profile failed: see $dir/bare.log"
    t5=$(now)
    echo "ncu_crosscheck: ${labels[c]}: the same under ncu, --no-profile (slow)" >&2
    t2=$(now)
    "$NCU" --clock-control none --cache-control "$cache" --nvtx --nvtx-include "$NVTX_INCLUDE" \
        --metrics "$metrics" --csv --page raw --print-units base --log-file "$dir/ncu.csv" \
        "$fs" run --no-profile --out "$dir/ncu" "${args[@]}" > "$dir/ncu.log" 2>&1 \
        || die "ncu or flashstudy failed: see $dir/ncu.log and $dir/ncu.csv"
    t3=$(now)
    {
        echo
        echo "## ${labels[c]}"
        echo
        echo "Mode $mode (ncu --cache-control $cache)."
        echo
        awk -v flush="$FLUSH_KERNELS" -v tname="$tname" -v offfile="$work/off" -v costfile="$work/cost" \
            "$read_csv$compare" "$work/metrics.txt" "$results" "$dir/ncu.csv" \
            || die "comparison failed: inputs in $dir"
        echo
        read -r prof passes variants kernels < "$work/cost"
        awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" -v f="$t5" -v prof="$prof" -v passes="$passes" \
            -v variants="$variants" -v kernels="$kernels" -v metrics="$(wc -l < "$work/metrics.txt")" 'BEGIN {
            bare = f - e; ncu = d - c - bare
            printf "Wall time: flashstudy with CUPTI %.1f s; flashstudy --no-profile %.1f s; the same under ncu %.1f s.\n",
                   b - a, bare, d - c
            printf "Profiling cost, %d metrics: CUPTI %.2f s in its profile phases (%d variants x %d passes, %.0f ms a pass); ",
                   metrics, prof, variants, passes, (variants * passes > 0 ? 1000 * prof / (variants * passes) : 0)
            printf "ncu %.1f s over the bare run (%d kernels, %.2f s a kernel); ncu/CUPTI %.1f.\n",
                   ncu, kernels, (kernels > 0 ? ncu / kernels : 0), (prof > 0 ? ncu / prof : 0) }'
    } >> "$tmp"
    total_off=$((total_off + $(cat "$work/off")))
    echo "$label|$(cat "$work/off")|$(cat "$work/cost")|$t0 $t1 $t2 $t3 $t4 $t5" >> "$work/summary"
done
# One line per configuration: what an H200 hour went to, and the verdict.
{
    echo
    echo "## Summary"
    echo
    echo "| configuration | values off | CUPTI profile s | ncu over bare s | ncu/CUPTI |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    # The conditional in parentheses: bare, awk would read its ">" as a redirection.
    awk -F'|' '{ split($3, c, " "); split($4, t, " ")
                 ncu = (t[4] - t[3]) - (t[6] - t[5])
                 printf "| %s | %d | %.2f | %.1f | %s |\n", $1, $2, c[1], ncu, (c[1] > 0 ? sprintf("%.1f", ncu / c[1]) : "-") }' \
        "$work/summary"
} >> "$tmp"
mv "$tmp" "$out"
cat "$out"
echo >&2
echo "ncu_crosscheck: wrote $out; $total_off value(s) off or missing; runs and ncu's CSV in $work" >&2
