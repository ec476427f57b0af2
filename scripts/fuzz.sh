#!/usr/bin/env bash
# Fuzzes the CSV reader with libFuzzer under AddressSanitizer and UBSan.
#   scripts/fuzz.sh [SECONDS]      (default 120; BUILD=dir, default build)
# Seeds are tests/fuzz/corpus; what the fuzzer finds goes to $BUILD/fuzz/corpus,
# a crashing input to $BUILD/fuzz/crash-*.
set -eu
seconds=${1:-120}
build=${BUILD:-build}
cc=${FUZZ_CC:-clang}
out=$build/fuzz
command -v "$cc" >/dev/null 2>&1 || { echo "fuzz: $cc not found (apt-get install clang)" >&2; exit 1; }
case $seconds in ''|*[!0-9]*) echo "fuzz: SECONDS must be a whole number, not '$seconds'" >&2; exit 2;; esac
mkdir -p "$out/corpus"
"$cc" -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Icore tests/fuzz/table_fuzz.c core/table.c core/files.c core/alloc.c core/fail.c \
    -o "$out/table_fuzz" \
    || { echo "fuzz: building with -fsanitize=fuzzer failed; clang's libFuzzer runtime may be missing (apt-get install libclang-rt-$("$cc" -dumpversion | cut -d. -f1)-dev)" >&2; exit 1; }
echo "fuzz: fs_table_read for ${seconds} s"
"$out/table_fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -artifact_prefix="$out/" "$out/corpus" tests/fuzz/corpus
