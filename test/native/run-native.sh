#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Builds the C tests of the Windows loopback helper with mingw-w64 and runs
# them under Wine. Called by make/Native.gmk (run-native), which passes:
#   TOPDIR              the repository
#   NATIVE_OUTPUTDIR    where executables and the Wine prefix go
#   NATIVE_TEST         "all", or test names (Test*.c without .c), comma
#                       or space separated
#   NATIVE_TESTS        every test name (make/Native.gmk's list)
#   RESULTS_DIR         where logs and summary.txt go
#   MINGW_CC, WINE      the tools; NATIVE_SKIP_REASON non-empty = skip all
#
# Each test prints PASS/FAIL/SKIP lines per case; this script counts cases.
# It exits 0 when it ran (even with failures: summary.txt tells) and non-zero
# only when it could not run at all (bad selection, Wine would not start).
set -euo pipefail

die() {
    echo "run-native: $*" >&2
    exit 2
}

: "${TOPDIR:?TOPDIR is not set}"
: "${NATIVE_OUTPUTDIR:?NATIVE_OUTPUTDIR is not set}"
: "${RESULTS_DIR:?RESULTS_DIR is not set (where summary.txt goes)}"
NATIVE_TEST="${NATIVE_TEST:-all}"
MINGW_CC="${MINGW_CC:-}"
WINE="${WINE:-}"
NATIVE_SKIP_REASON="${NATIVE_SKIP_REASON:-}"

test_src="$TOPDIR/test/native"
helper_src="$TOPDIR/src/java.base/windows/native/libnet"

# The test names come from make/Native.gmk, which has the one list.
read -ra available <<<"${NATIVE_TESTS:-}"
[[ ${#available[@]} -gt 0 ]] || die "NATIVE_TESTS is empty: no tests in $test_src (run through make/Native.gmk)"

selected=()
if [[ "$NATIVE_TEST" == "all" ]]; then
    selected=("${available[@]}")
else
    for want in ${NATIVE_TEST//,/ }; do
        found=""
        for name in "${available[@]}"; do
            if [[ "$name" == "$want" ]]; then
                found="$name"
            fi
        done
        [[ -n "$found" ]] || die "unknown native test '$want'; known: ${available[*]}"
        selected+=("$found")
    done
fi
[[ ${#selected[@]} -gt 0 ]] || die "NATIVE_TEST='$NATIVE_TEST' selects no test"

mkdir -p "$RESULTS_DIR"

# The counts go through the one writer of summary.txt.
write_summary() {   # passed failed skipped reason
    bash "$TOPDIR/make/scripts/test-summary.sh" record "$RESULTS_DIR" native "$1" "$2" 0 "$3" "$4"
}

skip_reason="$NATIVE_SKIP_REASON"
if [[ -z "$skip_reason" ]]; then
    if [[ -z "$MINGW_CC" || ! -x "$(command -v "$MINGW_CC" || true)" ]]; then
        skip_reason="mingw-w64 C compiler not found (MINGW_CC='$MINGW_CC'); install gcc-mingw-w64-x86-64"
    elif [[ -z "$WINE" || ! -x "$(command -v "$WINE" || true)" ]]; then
        skip_reason="Wine not found (WINE='$WINE'); install wine64"
    fi
fi
if [[ -n "$skip_reason" ]]; then
    echo "SKIPPED ${#selected[@]} native test(s): $skip_reason"
    write_summary 0 0 "${#selected[@]}" "$skip_reason"
    exit 0
fi

bin_dir="$NATIVE_OUTPUTDIR/bin"
prefix="$NATIVE_OUTPUTDIR/wineprefix"
mkdir -p "$bin_dir"

export WINEPREFIX="$prefix"
export WINEDEBUG=-all
# No Mono or Gecko download prompts: the tests need neither.
export WINEDLLOVERRIDES="mscoree,mshtml="

if [[ ! -f "$prefix/system.reg" ]]; then
    echo "Creating the Wine prefix $prefix (once per build directory)"
    if ! timeout 600 "$WINE" wineboot --init > "$RESULTS_DIR/wineboot.log" 2>&1; then
        cat "$RESULTS_DIR/wineboot.log" >&2
        die "Wine could not create its prefix in $prefix"
    fi
    # wineboot returns before wineserver has written the registry; a prefix
    # without it is not ready (and would be created again next time).
    waited=0
    while [[ ! -f "$prefix/system.reg" && "$waited" -lt 120 ]]; do
        sleep 1
        waited=$((waited + 1))
    done
    if [[ ! -f "$prefix/system.reg" ]]; then
        cat "$RESULTS_DIR/wineboot.log" >&2
        die "Wine created no registry in $prefix within 120 s"
    fi
fi

# The two defines are the JDK's own for Windows (flags-cflags.m4): the helper
# must compile with the headers as the JDK build sees them (Windows 8 API).
cflags=(-Wall -Wextra -Werror -O2 -DWIN32_LEAN_AND_MEAN -D_WIN32_WINNT=0x0602
        -I"$test_src/include" -I"$helper_src")
passed=0
failed=0
skipped=0
skip_reasons=""

for name in "${selected[@]}"; do
    echo "=== $name"
    exe="$bin_dir/$name.exe"
    log="$RESULTS_DIR/$name.log"
    # Tests built on loopback_test.h compile the helper's source into
    # themselves (to reach its seam); the others link it as its own object,
    # as libnio links libnet.
    sources=("$test_src/$name.c")
    if ! grep -q '^#include "loopback_test.h"' "$test_src/$name.c"; then
        sources+=("$helper_src/net_loopback_md.c")
    fi
    if ! "$MINGW_CC" "${cflags[@]}" -o "$exe" "${sources[@]}" -lws2_32 \
        > "$RESULTS_DIR/$name.compile.log" 2>&1; then
        cat "$RESULTS_DIR/$name.compile.log"
        echo "FAIL $name: does not compile with ${MINGW_CC##*/} ${cflags[*]}"
        failed=$((failed + 1))
        continue
    fi

    rc=0
    # Output goes to a file, not a pipe: wineserver outlives the test and
    # would hold a pipe open.
    timeout 300 "$WINE" "$exe" > "$log.raw" 2>&1 || rc=$?
    tr -d '\r' < "$log.raw" > "$log"
    rm -f "$log.raw"
    cat "$log"

    p=$(grep -c '^PASS ' "$log" || true)
    f=$(grep -c '^FAIL ' "$log" || true)
    s=$(grep -c '^SKIP ' "$log" || true)
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    if [[ "$s" -gt 0 ]]; then
        while IFS= read -r line; do
            skip_reasons="${skip_reasons:+$skip_reasons; }$name: ${line#SKIP }"
        done < <(grep '^SKIP ' "$log")
    fi
    if [[ "$rc" -ne 0 && "$f" -eq 0 ]]; then
        echo "FAIL $name: exited with $rc without a failing case (crashed or timed out)"
        failed=$((failed + 1))
    elif [[ "$rc" -eq 0 && "$f" -gt 0 ]]; then
        echo "FAIL $name: reported failures but exited 0"
    elif [[ "$p" -eq 0 && "$f" -eq 0 ]]; then
        echo "FAIL $name: ran no case"
        failed=$((failed + 1))
    fi
done

echo "Results: $RESULTS_DIR"
write_summary "$passed" "$failed" "$skipped" "$skip_reasons"
