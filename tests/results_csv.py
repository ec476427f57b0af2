#!/usr/bin/env python3
"""results.csv as other programs see it: every checked-in run and the test
fixture read by Python's csv module with default options, and by pandas
with its defaults where pandas is installed (the README's recipes): its
columns those of core/results.h, every id text to both, every row's device
a row of device.csv, and scripts/results_upgrade.py turning the schema 2,
3 and 4 forms of the fixture (schema 4's with and without the device
column) back into the fixture byte for byte. Closes with "results-csv: N passed, N
failed"."""
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

# Where the python3 first on the PATH has no pandas and the system's does,
# the system's runs this.
try:
    import pandas as pd
except ImportError:
    pd = None
    system = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(system) and os.access(system, os.X_OK) and \
            subprocess.run([system, "-c", "import pandas"], capture_output=True).returncode == 0:
        os.execv(system, [system] + sys.argv)

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"results-csv: FAILED: {what}", file=sys.stderr)


with open("core/results.h") as f:
    text = f.read()
    fixed = re.findall(r'^\s*X\(\w+, "(\w+)", "', text, re.M)
    device_cols = re.findall(r'^\s*X\(\w+, "(\w+)", FS_DEV_', text, re.M)
check(len(fixed) > 30 and fixed[-1] == "device", f"core/results.h lists {len(fixed)} columns, the last {fixed[-1:]}")
check(device_cols[:2] == ["device", "name"], f"core/results.h's device.csv columns begin {device_cols[:2]}")

for path in sorted(glob.glob("results/*/results.csv")) + ["tests/fixtures/run/results.csv"]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    cols = list(rows[0].keys()) if rows else []
    check(cols[:1] == ["schema_version"], f"{path}: first column {cols[:1]}, not schema_version")
    check(cols[1:len(fixed) + 1] == fixed, f"{path}: the fixed columns differ from core/results.h")
    check(cols[-1:] == ["metrics_note"], f"{path}: the last column is {cols[-1:]}, not metrics_note")
    check(all(r["schema_version"] == "5" for r in rows), f"{path}: a schema_version other than 5")
    check(all(None not in r and None not in r.values() for r in rows), f"{path}: a row of the wrong length")
    check(all((re.fullmatch(r"\d\d_[a-z0-9_]+", r["variant"]) and r["variant"][3:] == r["slug"]
               if r["kind"] == "step" else r["kind"] == "peer" and re.fullmatch(r"[a-z][a-z0-9_]*", r["variant"]))
              and r["status"] in ("ok", "failed", "skipped") and r["dtype"] in ("fp16", "bf16")
              for r in rows), f"{path}: a row whose kind, variant, dtype or status is not one")
    with open(os.path.join(os.path.dirname(path), "device.csv"), newline="") as f:
        gpus = list(csv.DictReader(f))
    check(gpus and list(gpus[0].keys())[:len(device_cols)] == device_cols,
          f"{path}: device.csv's columns differ from core/results.h")
    check(all(r["device"] in [g["device"] for g in gpus] for r in rows), f"{path}: a row's device has no device.csv row")

# The README's recipes with pandas' defaults: every id is text, in one run
# and in all of them concatenated.
if pd is None:
    print("results-csv: pandas is not installed: the CSV module alone read the files")
else:
    paths = sorted(glob.glob("results/*/results.csv"))
    runs = pd.concat(pd.read_csv(p).assign(run=p.split("/")[-2]) for p in paths)
    check(runs["variant"].map(type).eq(str).all(), "pandas reads a variant id as a number")
    for p in paths + ["tests/fixtures/run/results.csv"]:
        one = pd.read_csv(p)
        check(one["variant"].map(type).eq(str).all() and one["dtype"].map(type).eq(str).all(),
              f"{p}: pandas reads variant or dtype as a number")
    with open(paths[0], newline="") as f:
        step = next(r["variant"] for r in csv.DictReader(f) if r["kind"] == "step")
    in_csv = 0
    for p in paths:
        with open(p, newline="") as f:
            in_csv += sum(1 for r in csv.DictReader(f) if r["variant"] == step)
    check(len(runs[runs.variant == step]) == in_csv, f"pandas finds another number of rows of {step} than csv")

# The data files flashstudy ships are plain CSV too: one header line, no
# comment, every row as long as the header, and (pandas) their ids text.
for path in ("reports/seed_figures.csv", "reports/peers.csv"):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    check(rows and not rows[0][0].startswith("#") and all(len(r) == len(rows[0]) for r in rows),
          f"{path} is not plain CSV")
    if pd is not None:
        t = pd.read_csv(path)
        for col in ("variant", "source", "dtype"):
            if col in t:
                check(t[col].map(type).eq(str).all(), f"{path}: pandas reads {col} as a number")

# The converter, on the fixture as schemas 2, 3 and 4 wrote it, schema 4
# also before every row named its GPU.
fixture = "tests/fixtures/run/results.csv"
with open(fixture, newline="") as f:
    want = f.read()
    f.seek(0)
    rows = list(csv.reader(f))
with open("tests/fixtures/run/device.csv", newline="") as f:
    want_device = f.read()
    f.seek(0)
    gpu = list(csv.reader(f))
header = rows[0]


def old_device(path):
    """device.csv as key,value rows of its one GPU, without the id."""
    with open(path, "w", newline="") as g:
        csv.writer(g, lineterminator="\n").writerows([["key", "value"]] + [[k, v] for k, v in zip(gpu[0], gpu[1])
                                                                             if k != "device"])


def older(row, n, version, without):
    """Row n of the fixture (0: the header) as schema `version` wrote it,
    without the columns `without`."""
    cells = [c for c, col in zip(row, header) if col not in without]
    if n:
        cells[0] = version
    return cells


def schema4(row, n, device=True):
    """A row of the fixture as schema 4 wrote it: no inputs, no rmse; early
    on no device either."""
    return older(row, n, "4", ("inputs", "rmse") + (() if device else ("device",)))


def schema3(row, n):
    """A row of the fixture as schema 3 wrote it: no dtype, a step's bare number."""
    cells = older(row, n, "3", ("inputs", "rmse", "device", "dtype"))
    if n and row[header.index("kind")] == "step":
        cells[1] = row[1][:2]
    return cells


def upgraded(what, tmp, old):
    rc = subprocess.run([sys.executable, "scripts/results_upgrade.py", tmp]).returncode
    with open(old, newline="") as f, open(os.path.join(tmp, "device.csv"), newline="") as g:
        check(rc == 0 and f.read() == want and g.read() == want_device,
              f"scripts/results_upgrade.py does not give back the fixture from {what}")


with tempfile.TemporaryDirectory() as tmp:
    old = os.path.join(tmp, "results.csv")
    with open(old, "w", newline="") as g:
        csv.writer(g, lineterminator="\n").writerows([schema4(r, n) for n, r in enumerate(rows)])
    with open(os.path.join(tmp, "device.csv"), "w", newline="") as g:
        g.write(want_device)
    upgraded("schema 4", tmp, old)
    with open(old, "w", newline="") as g:
        csv.writer(g, lineterminator="\n").writerows([schema4(r, n, device=False) for n, r in enumerate(rows)])
    old_device(os.path.join(tmp, "device.csv"))
    upgraded("schema 4 without device", tmp, old)
    v3 = [schema3(r, n) for n, r in enumerate(rows)]
    with open(old, "w", newline="") as g:
        csv.writer(g, lineterminator="\n").writerows(v3)
    old_device(os.path.join(tmp, "device.csv"))
    upgraded("schema 3", tmp, old)
    # Schema 2: a comment line, no version column, no peers and no block
    # shapes but its square tile.
    new_only = ("schema_version", "kind", "bn", "bm_run", "bn_run", "library")
    with open(old, "w", newline="") as g:
        g.write("# flashstudy results schema 2\n")
        keep = [i for i, c in enumerate(v3[0]) if c not in new_only]
        out = csv.writer(g, lineterminator="\n")
        for n, row in enumerate(v3):
            cells = [row[i] for i in keep]
            if n == 0:
                cells = [{"bm": "tile", "roofline_ratio": "roofline_pct"}.get(c, c) for c in cells]
            else:
                r = v3[0].index("roofline_ratio")
                cells[keep.index(r)] = "%.9g" % (float(row[r]) * 100) if row[r] else ""
            out.writerow(cells)
    old_device(os.path.join(tmp, "device.csv"))
    upgraded("schema 2", tmp, old)

print(f"results-csv: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
