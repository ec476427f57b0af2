#!/usr/bin/env bash
# Puts the tables that `flashstudy report RUN --readme` generates into the
# files that hold their markers (<!-- NAME:begin --> ... <!-- NAME:end -->,
# once each): README.md and docs/*.md. The text around them is left as it
# is. Every table must have a home, and a file is replaced only whole.
# `make readme` runs it.
#   usage: readme_tables.sh FLASHSTUDY RUN [FILE...]   (default README.md docs/*.md)
set -euo pipefail
fs=${1:?usage: readme_tables.sh FLASHSTUDY RUN [FILE...]}
run=${2:?usage: readme_tables.sh FLASHSTUDY RUN [FILE...]}
shift 2
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(README.md docs/*.md)
tables=$(mktemp)
trap 'rm -f "$tables"; for f in "${files[@]}"; do rm -f "$f.tables.tmp"; done' EXIT
# A command that fails (set -e) or stops short splices nothing: every block
# it printed must be whole, begin and end marker once each.
"$fs" report "$run" --readme > "$tables"
names=$(sed -n 's/^<!-- \([a-z]*\):begin -->$/\1/p' "$tables")
[ -n "$names" ] || { echo "readme_tables.sh: $fs printed no tables" >&2; exit 1; }
for name in $names; do
    if [ "$(grep -cx "<!-- $name:begin -->" "$tables")" != 1 ] || [ "$(grep -cx "<!-- $name:end -->" "$tables")" != 1 ]; then
        echo "readme_tables.sh: $fs printed the $name table cut short (no <!-- $name:end -->): nothing was changed" >&2
        exit 1
    fi
    homes=0
    for f in "${files[@]}"; do
        b=$(grep -cx "<!-- $name:begin -->" "$f" || true) e=$(grep -cx "<!-- $name:end -->" "$f" || true)
        [ "$b$e" = 00 ] && continue
        [ "$b$e" = 11 ] || { echo "readme_tables.sh: $f needs <!-- $name:begin --> and <!-- $name:end --> once each" >&2; exit 1; }
        homes=$((homes + 1))
    done
    [ $homes = 1 ] || { echo "readme_tables.sh: the table \"$name\" needs its markers in one of ${files[*]} ($homes have them)" >&2; exit 1; }
done
# Each block of the tables file replaces what lies between the same markers.
for f in "${files[@]}"; do
    awk -v tables="$tables" '
        BEGIN {
            while ((getline line < tables) > 0) {
                if (match(line, /^<!-- [a-z]+:begin -->$/)) { name = substr(line, 6, length(line) - 15); block[name] = ""; cur = name }
                else if (line ~ /^<!-- [a-z]+:end -->$/) cur = ""
                else if (cur != "") block[cur] = block[cur] line "\n"
            }
        }
        /^<!-- [a-z]+:begin -->$/ { name = substr($0, 6, length($0) - 15); if (name in block) { print; printf "%s", block[name]; skip = 1; next } }
        /^<!-- [a-z]+:end -->$/ { skip = 0 }
        !skip { print }
    ' "$f" > "$f.tables.tmp"
    if cmp -s "$f" "$f.tables.tmp"; then rm -f "$f.tables.tmp"; else mv "$f.tables.tmp" "$f"; echo "readme_tables.sh: $f: tables from the registry and $run"; fi
done
