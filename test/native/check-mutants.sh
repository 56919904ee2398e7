#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Shows that the C tests can fail: builds them against deliberately broken
# copies of the loopback helper ("mutants") and runs them under Wine. Every
# mutant must make at least one case fail; the script exits 1 when one
# survives. Not part of make test (it takes about a minute); run it after
# changing the helper or its tests:
#
#   bash test/native/check-mutants.sh build/linux-x86_64-jdk25
#
# MINGW_CC and WINE may be set; the default is what configure finds here.
set -euo pipefail

outputdir="${1:?usage: check-mutants.sh <build/conf directory>}"
# Wine wants an absolute WINEPREFIX.
outputdir="$(cd "$outputdir" && pwd)"
topdir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mingw_cc="${MINGW_CC:-x86_64-w64-mingw32-gcc}"
wine="${WINE:-$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)}"
helper="$topdir/src/java.base/windows/native/libnet/net_loopback_md.c"
prefix="$outputdir/native/wineprefix"
work="$outputdir/native/mutants"

[[ -f "$prefix/system.reg" ]] || {
    echo "no Wine prefix in $prefix: run 'make test TEST=native:all' first" >&2
    exit 2
}
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
rm -rf "$work"
mkdir -p "$work"

survivors=0

# name, then a sed expression that breaks the helper in one way
mutant() {
    local name="$1" expr="$2" dir="$work/$1" failures=0 t out
    mkdir -p "$dir"
    cp "$topdir/src/java.base/windows/native/libnet/net_loopback_md.h" "$dir/"
    sed "$expr" "$helper" > "$dir/net_loopback_md.c"
    if cmp -s "$helper" "$dir/net_loopback_md.c"; then
        echo "ERROR $name: the mutation did not change the helper"
        survivors=$((survivors + 1))
        return
    fi
    for t in "$topdir"/test/native/Test*.c; do
        t="$(basename "$t" .c)"
        local sources=("$topdir/test/native/$t.c")
        if ! grep -q '^#include "loopback_test.h"' "$topdir/test/native/$t.c"; then
            sources+=("$dir/net_loopback_md.c")
        fi
        if ! "$mingw_cc" -Wall -Wextra -O2 -DWIN32_LEAN_AND_MEAN \
            -D_WIN32_WINNT=0x0602 -I"$topdir/test/native/include" -I"$dir" \
            -o "$dir/$t.exe" "${sources[@]}" -lws2_32 2> "$dir/$t.compile.log"; then
            failures=$((failures + 1))
            continue
        fi
        out=$(timeout 120 "$wine" "$dir/$t.exe" 2>&1 | tr -d '\r' || true)
        if ! grep -q -E '^(PASS|FAIL) ' <<< "$out"; then
            echo "ERROR $name: $t ran no case: $out" >&2
            exit 2
        fi
        failures=$((failures + $(grep -c '^FAIL ' <<< "$out" || true)))
    done
    if [[ "$failures" -gt 0 ]]; then
        echo "killed   $name ($failures failing cases)"
    else
        echo "SURVIVED $name"
        survivors=$((survivors + 1))
    fi
}

mutant "IPv4: only 127.x.x.1" 's/return a\[0\] == 127;/return a[0] == 127 \&\& a[3] == 1;/'
mutant "IPv4-mapped never loopback" 's/return a\[12\] == 127;/return 0;/'
mutant "::1 check ignores byte 14" 's/&& a\[14\] == 0 && a\[15\] == 1;/\&\& a[15] == 1;/'
mutant "::1 check ignores bytes 12-13" 's/return a\[10\] == 0 && a\[11\] == 0 && a\[12\] == 0 && a\[13\] == 0/return a[10] == 0 \&\& a[11] == 0/'
mutant "no-retransmission build off by one" 's/BUILD  16299/BUILD  16300/'
mutant "later major versions treated as old" 's/(major > 10$/(major > 11/'
mutant "Rtt set to 0" 's/rto.Rtt = TCP_INITIAL_RTO_UNSPECIFIED_RTT;/rto.Rtt = 0;/'
mutant "last error not restored" 's/    WSASetLastError(saved_error);//'
mutant "UDP sockets get the ioctl" 's/|| type != SOCK_STREAM) {/) {/'
mutant "capability asked on every connect" 's/cap = \*capability;/cap = LOOPBACK_CAP_UNKNOWN;/'
mutant "a failed ioctl is remembered" 's/result = NET_LOOPBACK_IOCTL_FAILED;/result = NET_LOOPBACK_IOCTL_FAILED; InterlockedExchange(capability, 99);/'
mutant "a failed ioctl leaves the socket non-blocking" 's/result = NET_LOOPBACK_IOCTL_FAILED;/result = NET_LOOPBACK_IOCTL_FAILED; { u_long on = 1; ioctlsocket(s, FIONBIO, \&on); }/'
mutant "a failed ioctl closes the socket" 's/result = NET_LOOPBACK_IOCTL_FAILED;/result = NET_LOOPBACK_IOCTL_FAILED; closesocket(s);/'

if [[ "$survivors" -gt 0 ]]; then
    echo "$survivors mutant(s) survived: the tests miss a way to break the helper"
    exit 1
fi
echo "every mutant was killed"
