# Sourced by the script tests that count checks: from the source tree's root,
# a scratch folder $tmp removed at exit, and
#   check WHAT COMMAND...   counts COMMAND's success in $passed, else $failed
#   has FILE TEXT           FILE holds TEXT
set -u
cd "$(dirname "${BASH_SOURCE[1]}")/.."
passed=0 failed=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
check() {
    local what=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $what"; fi
}
has() { grep -qF -- "$2" "$1"; }
