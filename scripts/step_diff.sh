#!/usr/bin/env bash
# make step N=04: what step 04 changed against 03, without the header comment
# (each file explains itself) and with the kernels' fs03_/fs04_ prefixes made
# equal (and the descriptors' names), so that only the step remains.
set -euo pipefail
[[ ${1:-} =~ ^[0-9]+$ ]] && (( 10#$1 > 0 )) || { echo "usage: make step N=NN (a step after 00)" >&2; exit 2; }
n=$(printf %02d $((10#$1)))
p=$(printf %02d $((10#$1 - 1)))
new=$(ls variants/${n}_*.cu 2>/dev/null | head -1)
old=$(ls variants/${p}_*.cu 2>/dev/null | head -1)
[[ -n $new && -n $old ]] || { echo "make step: no variants/${p}_*.cu and variants/${n}_*.cu" >&2; exit 2; }
body() {
    awk 'NR == 1 && /^\/\*/ { c = 1 } c { if (/\*\//) c = 0; next } { print }' "$1" | sed -e "s/fs$2_/fsNN_/g" -e "s/fs_variant_$2 /fs_variant_NN /"
}
# diff exits 1 when the files differ, which is the point here.
diff -u --label "$old" --label "$new" <(body "$old" "$p") <(body "$new" "$n") || [[ $? == 1 ]]
