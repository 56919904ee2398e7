#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The windows: selector: java.base's Windows net.dll and nio.dll, built from
# the upstream tree plus the patch set's hunks, in a real Windows JDK runtime
# under Wine. Called by make/Windows.gmk, which has built and cached
# everything this uses.
#
# Environment:
#   WINDOWS_TEST        all | smoke | connect | stock
#   WINDOWS_LIBS        patched (default) | stock: which net.dll/nio.dll the
#                       smoke and connect parts run with
#   RESULTS_DIR         where logs and summary.txt go
#   WORK_DIR            build/<conf>/windows: runtime-stock/, runtime-patched/,
#                       classes/, wineprefix/
#   WINE, JAVA          Wine's loader; a Linux java for the trace check
#   AGENT               icmp_denied_agent.dll
#
# Parts (cases are counted, one line each):
#   smoke    echo over Socket, SocketChannel, AsynchronousSocketChannel, a
#            datagram, a refused connect, file I/O: the libraries are whole
#   connect  every loopback connect path got SIO_TCP_INITIAL_RTO before its
#            connect, the controls (UDP, off loopback) did not: from
#            WINEDEBUG=+winsock; once on dual-stack sockets, once with
#            -Djava.net.preferIPv4Stack=true. With test/windows/
#            icmp_denied_agent.c, so that isReachable takes its TCP fallback
#   stock    the same connect check on the unmodified runtime must fail, on
#            the AsynchronousSocketChannel and isReachable cases and nowhere
#            else: the check can see the gaps this patch set closes
#
# Records its counts in RESULTS_DIR/summary.txt (make/scripts/test-summary.sh)
# and ends with "windows: N passed, N failed[, N skipped]". Exits 0 when it
# ran, whatever the results; non-zero only when it could not run.
set -euo pipefail

: "${WINDOWS_TEST:?}" "${RESULTS_DIR:?}" "${WORK_DIR:?}" "${WINE:?}" "${JAVA:?}" "${AGENT:?}"
libs=${WINDOWS_LIBS:-patched}
case $libs in
    patched | stock) ;;
    *) echo "WINDOWS_LIBS=$libs: expected patched or stock" >&2; exit 2 ;;
esac
case $WINDOWS_TEST in
    all) parts=(smoke connect stock) ;;
    smoke | connect | stock) parts=("$WINDOWS_TEST") ;;
    *) echo "windows:$WINDOWS_TEST: expected all, smoke, connect or stock" >&2; exit 2 ;;
esac
# With the stock libraries, smoke and connect already run on stock.
if [[ $libs == stock ]]; then
    parts=("${parts[@]/stock/}")
fi

export WINEPREFIX=$WORK_DIR/wineprefix
export WINEARCH=win64
classes_w="Z:${WORK_DIR//\//\\}\\classes"
agent_w="Z:${AGENT//\//\\}"
passed=0 failed=0 skipped=0

# $1: runtime dir, then java.exe's arguments; WINEDEBUG from the caller.
wine_java() {
    local rt=$1
    shift
    timeout 300 "$WINE" "$rt/bin/java.exe" -cp "$classes_w" "$@"
}

# Adds a case file's PASS/FAIL/SKIP lines to the counts.
count() {
    local p f s
    p=$(grep -c '^PASS ' "$1" || true)
    f=$(grep -c '^FAIL ' "$1" || true)
    s=$(grep -c '^SKIP ' "$1" || true)
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# $1: runtime dir, $2: log name, then java options. Runs connect under
# +winsock, then the check.
connect_check() {
    local rt=$1 name=$2 rc=0
    shift 2
    WINEDEBUG=+winsock wine_java "$rt" -agentpath:"$agent_w" "$@" WindowsLoopbackConnect connect \
        > "$RESULTS_DIR/$name.out" 2> "$RESULTS_DIR/$name.trace" || rc=$?
    echo "java.exe exit code $rc" >> "$RESULTS_DIR/$name.out"
    rc=0
    "$JAVA" -cp "$WORK_DIR/classes" WindowsLoopbackConnect check \
        "$RESULTS_DIR/$name.out" "$RESULTS_DIR/$name.trace" > "$RESULTS_DIR/$name.log" 2>&1 || rc=$?
    # A check that died without a verdict must not count as nothing wrong.
    if [[ $rc -ne 0 ]] && ! grep -q '^FAIL ' "$RESULTS_DIR/$name.log"; then
        echo "FAIL $name: the check itself exited with $rc" >> "$RESULTS_DIR/$name.log"
    fi
}

for part in "${parts[@]}"; do
    case $part in
        smoke)
            rm -rf "$WORK_DIR/scratch" && mkdir -p "$WORK_DIR/scratch"
            rc=0
            WINEDEBUG=-all wine_java "$WORK_DIR/runtime-$libs" WindowsLoopbackConnect smoke \
                "Z:${WORK_DIR//\//\\}\\scratch" > "$RESULTS_DIR/smoke.log" 2>&1 || rc=$?
            if [[ $rc -ne 0 ]] && ! grep -q '^FAIL ' "$RESULTS_DIR/smoke.log"; then
                echo "FAIL smoke: java.exe exit code $rc" >> "$RESULTS_DIR/smoke.log"
            fi
            sed "s/^/smoke ($libs): /" "$RESULTS_DIR/smoke.log" | grep -E ': (PASS|FAIL|SKIP) ' || true
            count "$RESULTS_DIR/smoke.log"
            ;;
        connect)
            # Dual-stack sockets (IPv4 dialled as ::ffff:a.b.c.d), then AF_INET ones.
            connect_check "$WORK_DIR/runtime-$libs" connect
            sed "s/^/connect ($libs): /" "$RESULTS_DIR/connect.log"
            count "$RESULTS_DIR/connect.log"
            connect_check "$WORK_DIR/runtime-$libs" connect-ipv4 -Djava.net.preferIPv4Stack=true
            sed "s/^/connect ($libs, preferIPv4Stack): /" "$RESULTS_DIR/connect-ipv4.log"
            count "$RESULTS_DIR/connect-ipv4.log"
            ;;
        stock)
            connect_check "$WORK_DIR/runtime-stock" stock-connect
            # Expected: FAIL exactly on the AsynchronousSocketChannel and isReachable
            # cases, the paths the patch adds.
            fails=$(sed -n 's/^FAIL \(.*\): expected .*/\1/p' "$RESULTS_DIR/stock-connect.log" \
                    | LC_ALL=C sort | tr '\n' ' ')
            want=$(sed -n 's/^CASE \(\(AsynchronousSocketChannel\|isReachable\)[^ ]*\) rto .*/\1/p' \
                    "$RESULTS_DIR/stock-connect.out" | LC_ALL=C sort | tr '\n' ' ')
            if [[ -n $want && $fails == "$want" ]] && grep -q '^DONE' "$RESULTS_DIR/stock-connect.out"; then
                echo "PASS stock control: the check fails on the stock runtime for: $fails" \
                    > "$RESULTS_DIR/stock.log"
            else
                echo "FAIL stock control: on the stock runtime the check should fail for" \
                    "'$want' only, it failed for '${fails:-nothing}' (see stock-connect.log)" \
                    > "$RESULTS_DIR/stock.log"
            fi
            sed "s/^/stock: /" "$RESULTS_DIR/stock.log"
            count "$RESULTS_DIR/stock.log"
            ;;
        *) ;;
    esac
done

bash "$(dirname "${BASH_SOURCE[0]}")/test-summary.sh" record "$RESULTS_DIR" windows \
    "$passed" "$failed" 0 "$skipped"
