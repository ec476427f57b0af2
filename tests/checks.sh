# Sourced by the script tests that count checks: from the source tree's root
# ($root), with a scratch folder $tmp removed at exit, the build under test
# as $build (BUILD, default build, made absolute), and
#   result WHAT STATUS      counts STATUS 0 in $passed, else in $failed and
#                           says that WHAT failed
#   check WHAT COMMAND...   runs COMMAND, its output in $tmp/last, and counts
#                           its success; a failure shows the output
#   said WHAT PATTERN       the last check's output has a line matching PATTERN
#   has FILE TEXT           FILE holds TEXT
set -u
cd "$(dirname "${BASH_SOURCE[1]}")/.." || exit 2
root=$(pwd) passed=0 failed=0
build=${BUILD:-build}; [[ $build = /* ]] || build=$root/$build
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
result() {
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1"; return 1; fi
}
check() {
    local what=$1; shift
    "$@" > "$tmp/last" 2>&1
    result "$what" $? || sed 's/^/    /' "$tmp/last"
}
said() { grep -q -- "$2" "$tmp/last"; result "$1" $? || sed 's/^/    /' "$tmp/last"; }
has() { grep -qF -- "$2" "$1"; }
