#!/usr/bin/env bash
# Installs the Debian packages the tests and charts need when they are missing
# and this shell may (root with apt-get); otherwise says what to install.
set -u
need=()
[ -f /usr/include/cmocka.h ] || need+=(libcmocka-dev)
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
command -v c++filt >/dev/null 2>&1 || need+=(binutils)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "flashstudy: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # apt's chatter (debconf's notes included) only when it fails.
    log=$({ apt-get install -y -qq --no-install-recommends "${need[@]}" || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; }; } 2>&1) \
        || { printf '%s\n' "$log" >&2; echo "flashstudy: apt-get install ${need[*]} failed" >&2; exit 1; }
else
    echo "flashstudy: missing ${need[*]}; install them (apt-get install ${need[*]})" >&2
    [ -f /usr/include/cmocka.h ] || exit 1
fi
