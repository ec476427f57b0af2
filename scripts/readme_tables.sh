#!/usr/bin/env bash
# Puts the tables that `flashstudy report RUN --readme` generates into
# README.md, each between its markers (<!-- variants:begin --> ...
# <!-- variants:end -->, <!-- steps:begin --> ... <!-- steps:end -->);
# the text around them is left as it is. `make readme` runs it.
#   usage: readme_tables.sh FLASHSTUDY RUN [README]
set -euo pipefail
fs=${1:?usage: readme_tables.sh FLASHSTUDY RUN [README]}
run=${2:?usage: readme_tables.sh FLASHSTUDY RUN [README]}
readme=${3:-README.md}
[ -f "$readme" ] || { echo "readme_tables.sh: no $readme" >&2; exit 1; }
tables=$(mktemp)
trap 'rm -f "$tables" "$readme.tmp"' EXIT
# A command that fails (set -e) or stops short splices nothing: every block
# it printed must be whole, begin and end marker once each.
"$fs" report "$run" --readme > "$tables"
names=$(sed -n 's/^<!-- \([a-z]*\):begin -->$/\1/p' "$tables")
[ -n "$names" ] || { echo "readme_tables.sh: $fs printed no tables" >&2; exit 1; }
for name in $names; do
    if [ "$(grep -cx "<!-- $name:begin -->" "$tables")" != 1 ] || [ "$(grep -cx "<!-- $name:end -->" "$tables")" != 1 ]; then
        echo "readme_tables.sh: $fs printed the $name table cut short (no <!-- $name:end -->): README.md left as it was" >&2
        exit 1
    fi
    if [ "$(grep -cx "<!-- $name:begin -->" "$readme")" != 1 ] || [ "$(grep -cx "<!-- $name:end -->" "$readme")" != 1 ]; then
        echo "readme_tables.sh: $readme needs the lines <!-- $name:begin --> and <!-- $name:end --> once each" >&2
        exit 1
    fi
done
# Each block of the tables file replaces what lies between the same markers.
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
' "$readme" > "$readme.tmp"
mv "$readme.tmp" "$readme"
echo "readme_tables.sh: $readme: tables from the registry and $run"
