#!/usr/bin/env bash
# `make install` into a temporary prefix, then the installed flashstudy in
# another working folder: `report` and `plots` of a copy of the reference run
# named by its bare id, the data files (reports/*.csv, plots/*.gp) found
# beside the executable. Closes with "install: N passed, N failed".
# Environment: MAKE, BUILD and CODE of the build under test, and
# REFERENCE_RUN (the Makefile's).
source "$(dirname "$0")/checks.sh"
run=${REFERENCE_RUN:?the Makefile sets REFERENCE_RUN}
run=${run#results/}

# The build under test is complete: installing it, as a user types it
# (without the ARCHS and CODE make test hands down), takes that build and
# links nothing again (a relink would also pull the executable from under
# the tests running beside). A check build says it measures nothing.
built=$(stat -c %y "$build/flashstudy")
check "make install PREFIX=$tmp/prefix" env -u ARCHS -u CODE -u MAKELEVEL -u MAKEFLAGS "${MAKE:-make}" \
    --no-print-directory -C "$root" install PREFIX="$tmp/prefix" BUILD="${BUILD:-build}"
[ "${CODE:-}" != check ] || said "make install of a check build says so" "check build: it reports and draws but measures nothing"
check "make install builds nothing" test -n "$built" -a "$built" = "$(stat -c %y "$build/flashstudy")"
check "the installed layout" test -x "$tmp/prefix/bin/flashstudy" -a -f "$tmp/prefix/share/flashstudy/reports/peers.csv" \
    -a -f "$tmp/prefix/share/flashstudy/reports/seed_figures.csv" -a -f "$tmp/prefix/share/flashstudy/plots/common.gp"
mkdir -p "$tmp/work/results" && cp -r "$root/results/$run" "$tmp/work/results/"
cd "$tmp/work" || exit 1
check "report $run in another working folder" "$tmp/prefix/bin/flashstudy" report "$run"
said "report says the path it wrote" "^flashstudy: wrote reports/$run.md$"
check "the report has the peers and the seed's figures" grep -q "^## Peers" "reports/$run.md"
check "plots $run --out charts finds the templates" "$tmp/prefix/bin/flashstudy" plots "$run" --out charts
check "the charts' templates are there" test -f charts/common.gp -a -f charts/time.gp
check "report with no run: the newest full run" "$tmp/prefix/bin/flashstudy" report
said "it says which run" "^flashstudy: results/$run, the newest full run"
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
