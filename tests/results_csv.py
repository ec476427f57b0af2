#!/usr/bin/env python3
"""results.csv as other programs see it: every checked-in run and the test
fixture read by Python's csv module with default options (as pandas, DuckDB
and spreadsheets read it), its columns those of core/results.h, and
scripts/results_upgrade.py turning the schema 2 form of the fixture back into
the fixture byte for byte. Closes with "results-csv: N passed, N failed"."""
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"results-csv: FAILED: {what}", file=sys.stderr)


with open("core/results.h") as f:
    fixed = re.findall(r'^\s*X\(\w+, "(\w+)"', f.read(), re.M)
check(len(fixed) > 30, f"core/results.h lists {len(fixed)} columns")

for path in sorted(glob.glob("results/*/results.csv")) + ["tests/fixtures/run/results.csv"]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    cols = list(rows[0].keys()) if rows else []
    check(cols[:1] == ["schema_version"], f"{path}: first column {cols[:1]}, not schema_version")
    check(cols[1:len(fixed) + 1] == fixed, f"{path}: the fixed columns differ from core/results.h")
    check(cols[-1:] == ["metrics_note"], f"{path}: the last column is {cols[-1:]}, not metrics_note")
    check(all(r["schema_version"] == "3" for r in rows), f"{path}: a schema_version other than 3")
    check(all(None not in r and None not in r.values() for r in rows), f"{path}: a row of the wrong length")
    check(all((re.fullmatch(r"\d+", r["variant"]) if r["kind"] == "step" else r["kind"] == "peer" and
               re.fullmatch(r"[a-z0-9_]+", r["variant"])) and r["status"] in ("ok", "failed", "skipped")
              for r in rows), f"{path}: a row whose kind, variant or status is not one")

# The converter, on the fixture as schema 2 wrote it.
fixture = "tests/fixtures/run/results.csv"
with open(fixture, newline="") as f:
    want = f.read()
with tempfile.TemporaryDirectory() as tmp:
    old = os.path.join(tmp, "results.csv")
    # The fixture as schema 2 wrote it: no version column, no peers and no
    # block shapes but its square tile.
    new_only = ("schema_version", "kind", "bn", "bm_run", "bn_run", "library")
    with open(fixture, newline="") as f, open(old, "w", newline="") as g:
        g.write("# flashstudy results schema 2\n")
        rows = list(csv.reader(f))
        keep = [i for i, c in enumerate(rows[0]) if c not in new_only]
        out = csv.writer(g, lineterminator="\n")
        for n, row in enumerate(rows):
            cells = [row[i] for i in keep]
            if n == 0:
                cells = [{"bm": "tile", "roofline_ratio": "roofline_pct"}.get(c, c) for c in cells]
            else:
                r = rows[0].index("roofline_ratio")
                cells[keep.index(r)] = "%.9g" % (float(row[r]) * 100) if row[r] else ""
            out.writerow(cells)
    rc = subprocess.run([sys.executable, "scripts/results_upgrade.py", old]).returncode
    with open(old, newline="") as f:
        check(rc == 0 and f.read() == want, "scripts/results_upgrade.py does not give back the fixture")

print(f"results-csv: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
