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
#                       without/<file>/libs/, classes/, wineprefix/
#   WINE, JAVA          Wine's loader; a Linux java for jtreg and the trace check
#   AGENT               icmp_denied_agent.dll
#   JTREG_JAR           jtreg (empty: smoke is skipped)
#   COMPILE_JDK         a Linux JDK of the same feature release: compiles the test
#   TEST_ROOT           our test/jdk; TEST_LIBS: test library roots (upstream's
#                       test/lib, then ours), laid over each other as test/lib
#
# Parts (cases are counted, one line each):
#   smoke    the jtreg test of the change (TEST.groups' jdk_net_loopback), run
#            by jtreg on the Windows JVM: jtreg runs the runtime's java.exe
#            through Wine for every action (compiling with COMPILE_JDK), so
#            @requires, @library and both @run lines are jtreg's own. Under
#            Wine a refused loopback connect is immediate with any DLLs, so
#            this shows the test runs and passes there, not the timing
#   connect  each connect the hunks change got SIO_TCP_INITIAL_RTO before it,
#            the control (off loopback) did not: from WINEDEBUG=+winsock;
#            once on dual-stack sockets, once with -Djava.net.preferIPv4Stack=
#            true. With test/windows/icmp_denied_agent.c, so that isReachable
#            takes its TCP fallback
#   stock    the same check must fail without the change: on the runtime's
#            own DLLs, on exactly the cases of the three hunks; and on the
#            DLLs built with one native file's hunks reverted, on exactly that
#            file's cases (one verdict per file): each hunk is seen
#
# Records its counts in RESULTS_DIR/summary.txt (make/scripts/test-summary.sh)
# and ends with "windows: N passed, N failed[, N skipped]". Exits 0 when it
# ran, whatever the results; non-zero only when it could not run.
set -euo pipefail

: "${WINDOWS_TEST:?}" "${RESULTS_DIR:?}" "${WORK_DIR:?}" "${WINE:?}" "${JAVA:?}" "${AGENT:?}"
: "${COMPILE_JDK:?}" "${TEST_ROOT:?}"
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
    WINEDEBUG=+winsock timeout 300 "$WINE" "$rt/bin/java.exe" -cp "$classes_w" \
        -agentpath:"$agent_w" "$@" WindowsLoopbackConnect connect \
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

# $1: what ran without the change, $2: log name of its connect_check, $3: a
# native file name, or "" for all of them. PASS when the check failed on
# exactly the cases of that file (of every file), on a run that finished.
expect_fails() {
    local what=$1 name=$2 file=$3 fails want
    fails=$(sed -n 's/^FAIL \([^ ]*\): expected .*/\1/p' "$RESULTS_DIR/$name.log" \
            | LC_ALL=C sort | tr '\n' ' ')
    want=$(awk -v f="$file" '{ sub(/\r$/, "") } $1 == "CASE" && $3 == "rto" && (f == "" || $6 == f) { print $2 }' \
            "$RESULTS_DIR/$name.out" | LC_ALL=C sort | tr '\n' ' ')
    if [[ -n $want && $fails == "$want" ]] && grep -q '^DONE' "$RESULTS_DIR/$name.out"; then
        echo "PASS $what: the check fails for: $fails"
    else
        echo "FAIL $what: the check should fail for '$want' only, it failed for" \
            "'${fails:-nothing}' (see $name.log)"
    fi
}

# $1: runtime dir, $2: where the stand-in JDK goes. jtreg runs <jdk>/bin/java
# for the test JDK: here a script that runs the runtime's java.exe under Wine.
# Wine maps / to Z:, so the absolute paths jtreg passes work as they are
# (on the current drive, Z:); only class path lists, ':'-separated by jtreg
# on Linux, become ';'-separated for Windows.
test_jdk() {
    local rt=$1 jdk=$2
    rm -rf "$jdk"
    mkdir -p "$jdk/bin"
    cp "$rt/release" "$jdk/"
    {
        echo '#!/usr/bin/env bash'
        echo '# java for jtreg: a Windows java.exe, under Wine. Made by run-windows-tests.sh.'
        printf 'export WINEPREFIX=%q WINEARCH=win64 WINEDEBUG=-all\n' "$WINEPREFIX"
        printf 'wine=%q java_exe=%q\n' "$WINE" "$rt/bin/java.exe"
        cat <<'EOF'
[[ -z ${CLASSPATH:-} ]] || export CLASSPATH="${CLASSPATH//:/;}"
args=()
while (($# > 0)); do
    case $1 in
        -cp | -classpath | --class-path | -p | --module-path)
            args+=("$1" "${2//:/;}"); shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
exec "$wine" "$java_exe" "${args[@]}"
EOF
    } > "$jdk/bin/java"
    chmod +x "$jdk/bin/java"
}

# smoke: $1 runtime dir. The group's tests, staged as make test stages ours
# (our test/jdk beside the test libraries laid over each other).
jtreg_windows() {
    local rt=$1 dir=$WORK_DIR/jtreg lib rc=0 status
    rm -rf "$dir"
    mkdir -p "$dir/tree/test/lib"
    cp -R "$TEST_ROOT" "$dir/tree/test/jdk"
    for lib in ${TEST_LIBS:-}; do
        cp -R "$lib/." "$dir/tree/test/lib/"
    done
    test_jdk "$rt" "$dir/jdk"
    timeout 900 "$JAVA" -jar "$JTREG_JAR" -othervm -testjdk:"$dir/jdk" -compilejdk:"$COMPILE_JDK" \
        -w:"$dir/work" -r:"$RESULTS_DIR/jtreg/report" -verbose:summary \
        "$dir/tree/test/jdk:jdk_net_loopback" > "$RESULTS_DIR/jtreg.log" 2>&1 || rc=$?
    echo "jtreg exit code $rc" >> "$RESULTS_DIR/jtreg.log"
    local summary=$RESULTS_DIR/jtreg/report/text/summary.txt
    if [[ ! -s $summary ]]; then
        echo "FAIL jtreg ran no test (exit code $rc; see jtreg.log)"
        return
    fi
    while read -r test status; do
        case $status in
            Passed.) echo "PASS $test" ;;
            *) echo "FAIL $test: $status (see jtreg.log and the .jtr under $dir/work)" ;;
        esac
    done < <(awk '{ print $1, $2 }' "$summary")
}

for part in "${parts[@]}"; do
    case $part in
        smoke)
            if [[ -z ${JTREG_JAR:-} || ! -f ${JTREG_JAR:-} ]]; then
                echo "SKIP jtreg test: no jtreg ('${JTREG_JAR:-}')" > "$RESULTS_DIR/smoke.log"
            else
                jtreg_windows "$WORK_DIR/runtime-$libs" > "$RESULTS_DIR/smoke.log"
            fi
            sed "s/^/smoke ($libs): /" "$RESULTS_DIR/smoke.log"
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
            expect_fails "stock control" stock-connect "" > "$RESULTS_DIR/stock.log"
            # One native file's hunks reverted at a time (make/Windows.gmk built
            # the DLLs); a runtime of hard links to the stock one with them.
            for v in "$WORK_DIR"/without/*/libs; do
                [[ -f $v/nio.dll ]] || continue
                file=$(basename "$(dirname "$v")")
                rt=$WORK_DIR/runtime-without
                rm -rf "$rt"
                cp -Rl "$WORK_DIR/runtime-stock" "$rt"
                rm -f "$rt/bin/net.dll" "$rt/bin/nio.dll"
                cp "$v/net.dll" "$v/nio.dll" "$rt/bin/"
                connect_check "$rt" "without-$file"
                expect_fails "without $file's hunks" "without-$file" "$file" >> "$RESULTS_DIR/stock.log"
            done
            if ! grep -q ' without ' "$RESULTS_DIR/stock.log"; then
                echo "FAIL no DLLs with a hunk reverted in $WORK_DIR/without" >> "$RESULTS_DIR/stock.log"
            fi
            sed "s/^/stock: /" "$RESULTS_DIR/stock.log"
            count "$RESULTS_DIR/stock.log"
            ;;
        *) ;;
    esac
done

bash "$(dirname "${BASH_SOURCE[0]}")/test-summary.sh" record "$RESULTS_DIR" windows \
    "$passed" "$failed" 0 "$skipped"
