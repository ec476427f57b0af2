#!/usr/bin/env python3
"""Converts results.csv files of schema 2 (a comment line naming the schema,
then the CSV) to schema 3: plain CSV, the version in a first column
schema_version, and the columns of peers and block shapes. Every schema 2
row was a step of the chain at a square block: kind is step, bm, bn, bm_run
and bn_run are its tile, library is empty; roofline_pct becomes
roofline_ratio (the same quotient, not in percent: a wgmma kernel exceeds the
mma.sync ceiling it is held against). The fixed columns follow
core/results.h (the one list of them); the metric columns keep their
order after them. Values are copied unchanged; each file is replaced whole.

    python3 scripts/results_schema3.py results/*/results.csv
"""
import csv
import os
import re
import sys

OLD = "# flashstudy results schema "
HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "results.h")


def fixed_columns():
    with open(HEADER) as f:
        return re.findall(r'X\(\w+, "(\w+)"', f.read())


def convert(path, fixed):
    with open(path, newline="") as f:
        first = f.readline()
        if not first.startswith(OLD):
            sys.exit(f"{path}: does not open with \"{OLD}N\"; not a schema 2 file")
        version = first[len(OLD):].strip()
        if version not in ("1", "2"):
            sys.exit(f"{path}: schema {version}, not 1 or 2")
        rows = [r for r in csv.reader(f) if r]
    old = rows[0]
    if "tile" not in old:
        sys.exit(f"{path}: no tile column; not a schema 2 file")
    rest = [c for c in old if c not in fixed and c not in ("tile", "roofline_pct")]
    out = ["schema_version"] + fixed + rest
    # The writer of flashstudy: LF line ends, quotes only where needed.
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(out)
        for r in rows[1:]:
            cell = dict(zip(old, r))
            tile = cell.get("tile", "")
            cell.update(schema_version="3", kind="step", bm=tile, bn=tile, bm_run=tile, bn_run=tile, library="")
            if cell.get("roofline_pct"):
                cell["roofline_ratio"] = "%.9g" % (float(cell["roofline_pct"]) / 100)
            if cell.get("variant", "").isdigit():
                cell["variant"] = "%02d" % int(cell["variant"])
            w.writerow([cell.get(c, "") for c in out])
    os.replace(tmp, path)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    fixed = fixed_columns()
    for p in sys.argv[1:]:
        convert(p, fixed)
