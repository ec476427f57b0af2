#!/usr/bin/env python3
"""Upgrades run folders written by an older flashstudy to the current
results schema, 5. Values are copied unchanged; each file is replaced whole.

Schema 2 (and 1) opened with a comment line naming the schema. Schema 3 is
plain CSV, the version in a first column schema_version, with the columns
of peers and block shapes: every schema 2 row was a step of the chain at a
square block, so kind is step, bm, bn, bm_run and bn_run are its tile,
library is empty; roofline_pct becomes roofline_ratio (the same quotient,
not in percent). Schema 4 names a step by its number and slug
("08_const_strides", text to every CSV reader) and adds the element type,
dtype, after head_dim: fp16 for every older row, and the code its kernels
ran (code: empty, as an older run did not record it). It also names the GPU of
every row: a device column (its id in device.csv), and device.csv becomes a
table of one row per GPU where it was key,value rows of the one GPU. An
older run's GPU gets its name as a slug for an id ("nvidia-h200"): the UUID
that a new run's ids end in was not recorded. Schema 5 adds the inputs'
distribution, inputs, after dtype (normal: every older run drew N(0, 1)),
and the root mean square error, rmse, after max_abs_err (empty: an older
run did not record it). The views' files beside results.csv (inside.csv,
hotspots.csv, timeline.csv) get the same changes to their keys.

The fixed columns of both files follow core/results.h (the one list of
them); the metric columns keep their order after them.

    python3 scripts/results_upgrade.py results/RUN [results/RUN ...]
"""
import csv
import os
import re
import sys

OLD = "# flashstudy results schema "
HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "results.h")
VIEWS = ("inside.csv", "hotspots.csv", "timeline.csv")


def columns(kind):
    """core/results.h's columns of results.csv (kind "COL") or device.csv ("DEV")."""
    with open(HEADER) as f:
        text = f.read()
    return re.findall(r'X\(\w+, "(\w+)", FS_DEV_' if kind == "DEV" else r'X\(\w+, "(\w+)", "', text)


def slug(name):
    """As harness/rundir.c names a GPU: "NVIDIA H200" -> "nvidia-h200"."""
    out = ""
    for ch in name.lower():
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            out += ch
        elif out and out[-1] != "-":
            out += "-"
    return out.rstrip("-")


def write(path, header, rows, comments=""):
    """As flashstudy writes: LF line ends, quotes only where needed."""
    tmp = path + ".upgrade.tmp"
    with open(tmp, "w", newline="") as f:
        f.write(comments)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


def read_results(path):
    """(schema, header, rows as dicts) of a results.csv of any schema."""
    with open(path, newline="") as f:
        first = f.readline()
        if first.startswith(OLD):
            version = first[len(OLD):].strip()
            if version not in ("1", "2"):
                sys.exit(f"{path}: schema {version}, not 1 or 2")
            rows = [r for r in csv.reader(f) if r]
        else:
            f.seek(0)
            rows = [r for r in csv.reader(f) if r]
            if not rows or rows[0][:1] != ["schema_version"]:
                sys.exit(f"{path}: neither a comment line naming the schema nor a schema_version column")
            version = rows[1][0] if len(rows) > 1 else "5" if "inputs" in rows[0] else "4" if "dtype" in rows[0] else "3"
    return int(version), rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]


def upgrade_device(path):
    """device.csv as a table; returns the id of its GPU, the only one an
    older run had."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    if not rows:
        sys.exit(f"{path} is empty")
    if rows[0] != ["key", "value"]:
        if "device" not in rows[0] or len(rows) != 2:
            sys.exit(f"{path}: neither key,value rows nor a table of one GPU")
        return rows[1][rows[0].index("device")]
    keys = dict((r[0], r[1] if len(r) > 1 else "") for r in rows[1:])
    keys["device"] = slug(keys.get("name", "")) or "gpu"
    known = columns("DEV")
    header = known + [k for k in keys if k not in known]
    write(path, header, [[keys.get(c, "") for c in header]])
    return keys["device"]


def step_id(variant, slug_):
    return "%02d_%s" % (int(variant), slug_) if variant.isdigit() else variant


def upgrade_results(path, fixed, device):
    """Returns the step numbers' slugs where the ids changed (for the views)."""
    version, old, rows = read_results(path)
    # Schema 4 grew columns before its first release (code, device): a file
    # with all of them is current.
    if version >= 5 and all(c in old for c in fixed):
        return {}
    if version <= 2 and "tile" not in old:
        sys.exit(f"{path}: no tile column; not a schema 2 file")
    rest = [c for c in old if c not in fixed and c not in ("schema_version", "tile", "roofline_pct")]
    header = ["schema_version"] + fixed + rest
    slugs = {}
    out = []
    for cell in rows:
        if version <= 2:
            tile = cell.get("tile", "")
            cell.update(kind="step", bm=tile, bn=tile, bm_run=tile, bn_run=tile, library="")
            if cell.get("roofline_pct"):
                cell["roofline_ratio"] = "%.9g" % (float(cell["roofline_pct"]) / 100)
        if cell.get("kind") == "step" and cell.get("variant", "").isdigit():
            slugs[int(cell["variant"])] = cell["slug"]
            cell["variant"] = step_id(cell["variant"], cell["slug"])
        cell.setdefault("dtype", "fp16")
        cell.setdefault("inputs", "normal")
        cell.setdefault("device", device)
        cell.update(schema_version="5")
        out.append([cell.get(c, "") for c in header])
    write(path, header, out)
    return slugs


def upgrade_view(path, slugs, device):
    """A view's table, which may open with comment lines (kept): the keys of
    core/results.h's fs_inside_keys, dtype after head_dim, inputs after
    dtype, device after bn."""
    with open(path, newline="") as f:
        text = f.read()
    body = text
    while body.startswith("#"):
        body = body[body.find("\n") + 1:] if "\n" in body else ""
    comments = text[:len(text) - len(body)]
    rows = [r for r in csv.reader(body.splitlines(keepends=True)) if r]
    header, out = rows[0], rows[1:]
    if "inputs" in header:
        return
    v = header.index("variant")

    def insert(after, column, value):
        at = header.index(after) + 1
        return header[:at] + [column] + header[at:], [r[:at] + [value] + r[at:] for r in out]

    for r in out:
        if r[v].isdigit():
            if int(r[v]) not in slugs:
                sys.exit(f"{path}: step {r[v]} has no row in results.csv")
            r[v] = step_id(r[v], slugs[int(r[v])])
    if "dtype" not in header:
        header, out = insert("head_dim", "dtype", "fp16")
    if "device" not in header:
        header, out = insert("bn", "device", device)
    header, out = insert("dtype", "inputs", "normal")
    write(path, header, out, comments)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    fixed = columns("COL")
    for arg in sys.argv[1:]:
        folder = os.path.dirname(arg) if arg.endswith("results.csv") else arg
        device = upgrade_device(os.path.join(folder, "device.csv"))
        slugs = upgrade_results(os.path.join(folder, "results.csv"), fixed, device)
        for name in VIEWS:
            if os.path.exists(os.path.join(folder, name)):
                upgrade_view(os.path.join(folder, name), slugs, device)
