#!/usr/bin/env python3
"""Converts results.csv files of schema 2 (a comment line naming the schema,
then the CSV) to schema 3 (plain CSV, the version in a first column
schema_version). Values are copied unchanged; each file is replaced whole.

    python3 scripts/results_schema3.py results/*/results.csv
"""
import csv
import os
import sys

OLD = "# flashstudy results schema "


def convert(path):
    with open(path, newline="") as f:
        first = f.readline()
        if not first.startswith(OLD):
            sys.exit(f"{path}: does not open with \"{OLD}N\"; not a schema 2 file")
        version = first[len(OLD):].strip()
        if version not in ("1", "2"):
            sys.exit(f"{path}: schema {version}, not 1 or 2")
        rows = list(csv.reader(f))
    # The writer of flashstudy: LF line ends, quotes only where needed.
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        for i, row in enumerate(r for r in rows if r):
            w.writerow(["schema_version" if i == 0 else "3"] + row)
    os.replace(tmp, path)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    for p in sys.argv[1:]:
        convert(p)
