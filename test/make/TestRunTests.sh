#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make test's selectors and summary (make/RunTests.gmk and its scripts):
# - the overlay: a test file we have runs ours, one only upstream has runs
#   upstream's, a directory both have runs both, our groups expand entry by
#   entry, an upstream group runs in upstream's tree (on a fixture of two
#   test roots, through make/scripts/jtreg-resolve.sh);
# - make's selector parsing, by a dry run (make -n) of make/RunTests.gmk on
#   this configuration: an empty jtreg:, an unknown make: name and an unknown
#   type stop make with a clear error; a #id test id and a bare test/jdk/...
#   path reach jtreg intact; a path only upstream has is run from upstream's
#   tree, one we have from ours;
# - JDK=upstream:<line>: a bad value, a line this configuration lacks and
#   TOPICS with it stop make; with make upstream-images' JDKs, jtreg runs on
#   the patched one against its stock twin with that tree's tests (without
#   them, make says how to build them); JDK in the environment is ignored;
# - the summary: OpenJDK's TEST / TOTAL / PASS / FAIL / ERROR table, a runner
#   error counted as an error (not a failure), the plain last line;
# - make clean in a fresh clone runs no configure;
# - the benchmark jar holds every benchmark of ours, also those no series
#   takes;
# - for real, one upstream test (EbaHash.java, which only upstream has) on
#   the image, when this configuration has an upstream tree; and a test of
#   ours whose "@library /test/lib" finds upstream's test library and ours,
#   and whose "@library /javax/net/ssl/templates" finds upstream's templates.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"

resolve=$TOPDIR/make/scripts/jtreg-resolve.sh
summary=$TOPDIR/make/scripts/test-summary.sh

###############################################################################
# The overlay, on a fixture.

ours=$TEST_WORK_DIR/ours/test/jdk
up=$TEST_WORK_DIR/up/test/jdk
mkdir -p "$ours/a/both" "$ours/a/mine" "$up/a/both" "$up/a/theirs"
touch "$ours/a/both/Shared.java" "$up/a/both/Shared.java" "$up/a/both/Other.java" \
      "$ours/a/mine/Mine.java" "$up/a/theirs/Theirs.java"
printf 'g_inner = a/mine\n' > "$ours/TEST.groups"
overlay=$TEST_WORK_DIR/ours/TEST.overlay-groups
cat > "$overlay" <<'EOF'
g_all = \
    :g_inner \
    a/theirs/Theirs.java
g_loop = :g_loop
g_excl = -a/mine
EOF
printf 'upstream_group = a/theirs\n' > "$up/TEST.groups"

expect_resolves() { # what expected
    local got
    got=$(bash "$resolve" "$ours" "$overlay" "$up" "$1")
    check "jtreg:$1 -> $2" test "$got" == "$2"
    [[ "$got" == "$2" ]] || echo "  got: $got"
}
expect_resolve_error() { # what message-part
    local got
    got=$(bash "$resolve" "$ours" "$overlay" "$up" "$1")
    check "jtreg:$1 is an error saying '$2'" grep -qF -- "$2" <<<"$got"
    check "jtreg:$1 is an error line" grep -q '^error: ' <<<"$got"
    [[ "$got" == "error: "*"$2"* ]] || echo "  got: $got"
}

expect_resolves a/theirs/Theirs.java "upstream:$up/a/theirs/Theirs.java"
expect_resolves test/jdk/a/theirs/Theirs.java "upstream:$up/a/theirs/Theirs.java"
expect_resolves a/mine/Mine.java "ours:$ours/a/mine/Mine.java"
expect_resolves a/both/Shared.java "ours:$ours/a/both/Shared.java"
mkdir -p "$ours/a/theirs"
touch "$up/a/theirs/Changed.java" "$ours/a/theirs/Changed.java.patch" \
      "$up/a/theirs/Changed17.java" "$ours/a/theirs/Changed17.java.jdk17.patch"
expect_resolves a/theirs/Changed.java "ours:$ours/a/theirs/Changed.java"
expect_resolves a/theirs/Changed17.java "ours:$ours/a/theirs/Changed17.java"
rm -r "$up/a/theirs/Changed.java" "$up/a/theirs/Changed17.java" "$ours/a/theirs"
expect_resolves a/both "ours:$ours/a/both upstream:$up/a/both"
expect_resolves a/both/ "ours:$ours/a/both upstream:$up/a/both"
expect_resolves 'a/mine/Mine.java#id0' "ours:$ours/a/mine/Mine.java#id0"
expect_resolves 'a/theirs/Theirs.java#id1' "upstream:$up/a/theirs/Theirs.java#id1"
expect_resolves all "ours:$ours"
expect_resolves g_all "ours:$ours/a/mine upstream:$up/a/theirs/Theirs.java"
expect_resolves test/jdk:g_inner "ours:$ours/a/mine"
expect_resolves upstream_group "upstream:$up:upstream_group"
expect_resolve_error '' 'needs a path, a group or all'
expect_resolve_error a/nowhere "neither in test/jdk nor in upstream's"
expect_resolve_error ../x "'..' are not allowed"
expect_resolve_error 'a/nowhere.java#id0' 'needs a test file'
expect_resolve_error g_loop 'includes itself'
expect_resolve_error g_excl 'not supported'
expect_resolve_error test/jdk:nogroup 'not one of our groups'
got=$(bash "$resolve" "$ours" "$overlay" "" a/theirs/Theirs.java)
check "without an upstream tree, an upstream path is an error naming that" \
    grep -qF 'has no upstream tree' <<<"$got"

###############################################################################
# make's selector parsing: a dry run on this configuration.

dry() { # TEST value [more make arguments] -> make's output; sets dry_rc
    local test=$1
    shift
    dry_rc=0
    dry_out=$(cd "$TOPDIR" && "$MAKE" -n -f make/RunTests.gmk SPEC="$SPEC" TEST="$test" "$@" test 2>&1) \
        || dry_rc=$?
}
expect_make_error() { # TEST message-part
    dry "$1"
    check "TEST='$1' stops make" test "$dry_rc" -ne 0
    check "TEST='$1' says '$2'" grep -qF -- "$2" <<<"$dry_out"
    check "TEST='$1' runs no runner" bash -c "! grep -q 'run-jtreg.sh\|run-make-tests.sh\|Windows.gmk\|Micro.gmk' <<<\"\$1\"" _ "$dry_out"
    [[ "$dry_rc" -ne 0 && "$dry_out" == *"$2"* ]] || printf '  make said: %s\n' "$dry_out"
}
expect_make_runs() { # TEST what-the-recipe-holds
    dry "$1"
    check "TEST='$1' is accepted" test "$dry_rc" -eq 0
    check "TEST='$1' hands jtreg $2" grep -qF -- "$2" <<<"$dry_out"
    [[ "$dry_rc" -eq 0 && "$dry_out" == *"$2"* ]] || printf '  make said: %s\n' "$dry_out"
}

expect_make_error 'jtreg:' 'needs a path, a group or all'
expect_make_error 'make:NoSuchTest' "no test 'NoSuchTest' in test/make"
expect_make_error 'make:lib/TestLib' "no test 'lib/TestLib' in test/make"
expect_make_error 'make:' 'name a test of test/make or all'
expect_make_error 'nosuchtype:x' "unknown test type 'nosuchtype'"
expect_make_error 'windows:bogus' 'windows:bogus: expected one of all smoke connect stock'
expect_make_error 'windows:' 'windows:: expected one of'
expect_make_error 'micro:' 'micro: needs a regex'
expect_make_error 'jtreg:no/such/Test.java' 'neither in test/jdk'
expect_make_runs 'jtreg:all' "ours:$TOPDIR/test/jdk "
# '$' (a regex anchor) reaches JMH as it was typed, not eaten by make
dry 'micro:CacheBench\.(get|remove)$'
check "micro:<regex ending in \$> reaches JMH intact" \
    grep -qF -- "'CacheBench\.(get|remove)\$'" <<<"$dry_out"
check "micro:<regex ending in \$> is named with it in the summary" \
    grep -qF -- "'micro:CacheBench\.(get|remove)\$=" <<<"$dry_out"
expect_make_runs 'jtreg:sun/security/util/Cache/CacheModel.java#id0' \
    "ours:$TOPDIR/test/jdk/sun/security/util/Cache/CacheModel.java'#'id0"
expect_make_runs 'test/jdk/sun/security/util/Cache/CacheModel.java' \
    "ours:$TOPDIR/test/jdk/sun/security/util/Cache/CacheModel.java"
upstream_dir=$(spec_var UPSTREAM_DIR)
if [[ -n "$upstream_dir" && -f "$upstream_dir/test/jdk/sun/security/util/Cache/EbaHash.java" ]]; then
    expect_make_runs 'jtreg:sun/security/util/Cache/EbaHash.java' \
        "upstream:$upstream_dir/test/jdk/sun/security/util/Cache/EbaHash.java"
    expect_make_runs 'jtreg:jdk_cache_callers_quick' \
        "upstream:$upstream_dir/test/jdk/sun/security/ssl/SSLSessionContextImpl"
fi

###############################################################################
# JDK=upstream:<line>: the JDKs make upstream-images built, checked by a dry
# run. Only JDK= on make's command line counts.

expect_jdk_error() { # JDK message-part [make arguments]
    local jdk=$1 message=$2
    shift 2
    dry jtreg:all JDK="$jdk" "$@"
    # shellcheck disable=SC2016 # the inner shell's arguments
    check "JDK=$jdk $* stops make saying '$message'" \
        bash -c '[[ "$1" -ne 0 && "$2" == *"$3"* ]]' _ "$dry_rc" "$dry_out" "$message"
    [[ "$dry_rc" -ne 0 && "$dry_out" == *"$message"* ]] || printf '  make said: %s\n' "$dry_out"
}
expect_jdk_error 'bogus' 'expected upstream:<line>'
expect_jdk_error 'upstream:nosuch' "no line 'nosuch' here"
expect_jdk_error 'upstream:mainline' 'does not apply' TOPICS=cache
images=$TOPDIR/build/$(spec_var CONF_NAME)/upstream-images/mainline
if [[ -x "$images/patched/jdk/bin/java" && -x "$images/stock/jdk/bin/java" ]]; then
    dry jtreg:all JDK=upstream:mainline
    check "JDK=upstream:mainline runs jtreg on the patched JDK" \
        grep -qF "IMAGE_JDK='$images/patched/jdk'" <<<"$dry_out"
    check "JDK=upstream:mainline reruns on its stock twin" \
        grep -qF "BOOT_JDK='$images/stock/jdk'" <<<"$dry_out"
    check "JDK=upstream:mainline takes upstream's tests from the mainline tree" \
        grep -qF "UPSTREAM_ROOT='$(spec_var MAINLINE_DIR)/test/jdk'" <<<"$dry_out"
    check "JDK=upstream:mainline writes its results beside the images" \
        grep -qF "$images/test-results/jtreg_all" <<<"$dry_out"
else
    expect_jdk_error 'upstream:mainline' "run 'make upstream-images LINE=mainline' first"
fi
# An environment's JDK (a user's, or a tool's) is not ours: the image runs.
dry_rc=0
dry_out=$(cd "$TOPDIR" && JDK=upstream:nosuch "$MAKE" -n -f make/RunTests.gmk SPEC="$SPEC" \
    TEST=jtreg:all test 2>&1) || dry_rc=$?
check "JDK in the environment is ignored" \
    grep -qF "IMAGE_JDK='$(spec_var IMAGE_JDK)'" <<<"$dry_out"

###############################################################################
# The summary.

results=$TEST_WORK_DIR/results
bash "$summary" record "$results/a" a 3 1 0 2 'x fails on stock too' > /dev/null
bash "$summary" record "$results/b" b 5 0 0 0 > /dev/null
mkdir -p "$results/c"
echo "the Windows runner could not run (exit code 2)" > "$results/c/runner-error.txt"
check "record writes the counts" grep -qx 'passed=3 failed=1 error=0 skipped=2' "$results/a/summary.txt"
check "record writes the reason" grep -qx 'reason=x fails on stock too' "$results/a/summary.txt"
rc=0
out=$(bash "$summary" report "$results" 'jtreg:a=a' 'make:b=b' 'windows:c=c') || rc=$?
check "report fails when a test failed" test "$rc" -eq 1
check "report has OpenJDK's header" grep -qE '^ +TEST +TOTAL +PASS +FAIL +ERROR$' <<<"$out"
check "report row of a failing selector" grep -qE '^>> jtreg:a +6 +3 +1 +0 >>$' <<<"$out"
check "report row of a passing selector" grep -qE '^   make:b +5 +5 +0 +0 *$' <<<"$out"
check "a runner error is an ERROR, not a FAIL" grep -qE '^>> windows:c +1 +0 +0 +1 >>$' <<<"$out"
check "the runner error is named" grep -qF 'error: windows:c: the Windows runner could not run' <<<"$out"
check "the plain last line" test "$(tail -n 1 <<<"$out")" == "8 passed, 2 failed, 2 skipped"
rc=0
out=$(bash "$summary" report "$results" 'make:b=b') || rc=$?
check "report passes when all passed" test "$rc" -eq 0
check "plain line without skips" test "$(tail -n 1 <<<"$out")" == "5 passed, 0 failed"
[[ "$rc" -eq 0 ]] || echo "$out"

###############################################################################
# make clean in a fresh clone (no build/) configures nothing.

clone=$TEST_WORK_DIR/clone
mkdir -p "$clone"
cp -R "$TOPDIR/configure" "$TOPDIR/Makefile" "$TOPDIR/make" "$clone/"
rc=0
out=$(cd "$clone" && env -u MAKEFLAGS "$MAKE" clean 2>&1) || rc=$?
check "make clean in a fresh clone succeeds" test "$rc" -eq 0
check "make clean in a fresh clone runs no configure" bash -c "! grep -qi configure <<<\"\$1\"" _ "$out"
check "make clean in a fresh clone creates no build/" test ! -e "$clone/build"
[[ "$rc" -eq 0 && ! -e "$clone/build" ]] || echo "  make clean said: $out"

###############################################################################
# The benchmark jar holds every benchmark of ours: those in a series (as the
# patched tree has them) and the evidence no series takes, compiled from
# test/micro.

rc=0
out=$(env -u MAKEFLAGS "$MAKE" -s -f "$TOPDIR/make/Micro.gmk" SPEC="$SPEC" micro-jar 2>&1) || rc=$?
check "the benchmark jar builds" test "$rc" -eq 0
[[ "$rc" -eq 0 ]] || echo "  make said: $out"
list=$(python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("META-INF/BenchmarkList").decode())' \
    "$(spec_var OUTPUTDIR)/micro/benchmarks.jar" 2>/dev/null || true)
for bench in $(cd "$TOPDIR/test/micro" && find . -name '*.java' | sed 's|^\./||; s|\.java$||; s|/|.|g'); do
    check "the benchmark jar runs $bench" grep -qF "$bench" <<<"$list"
done
check "the benchmark jar has CacheBench's hunks" grep -qF 'CacheBench_getColliding_jmhTest' <<<"$list"

###############################################################################
# For real: an upstream-only test, run from upstream's tree on the image.

# run_overlay DIR LABEL OURS_ROOT UPSTREAM_ROOT TEST...: run-jtreg.sh on the
# image, into DIR/results, DIR/work and DIR/out.txt; sets rc.
run_overlay() {
    local dir=$1 label=$2 ours_root=$3 upstream_root=$4
    shift 4
    mkdir -p "$dir"
    rc=0
    IMAGE_JDK=$(spec_var IMAGE_JDK) BOOT_JDK=$(spec_var BOOT_JDK) OURS_ROOT=$ours_root \
        UPSTREAM_ROOT=$upstream_root \
        bash "$TOPDIR/make/scripts/run-jtreg.sh" "$dir/results" "$dir/work" "$label" "$@" -- \
        "$(spec_var JAVA)" -jar "$(spec_var JTREG_HOME)/lib/jtreg.jar" -agentvm -conc:1 \
        -timeoutFactor:4 -verbose:summary > "$dir/out.txt" 2>&1 || rc=$?
}

if [[ -n "$upstream_dir" && -f "$upstream_dir/test/jdk/sun/security/util/Cache/EbaHash.java" ]]; then
    real=$TEST_WORK_DIR/real
    run_overlay "$real" upstream-only "$TOPDIR/test/jdk" "$upstream_dir/test/jdk" \
        "upstream:$upstream_dir/test/jdk/sun/security/util/Cache/EbaHash.java"
    check "run-jtreg.sh ran" test "$rc" -eq 0
    check "EbaHash passed, from upstream's tree" \
        grep -q '^sun/security/util/Cache/EbaHash.java  *Passed' "$real/results/upstream/report/text/summary.txt"
    check "it ran on the image" grep -qF -- "-jdk:$(spec_var IMAGE_JDK)" "$real/out.txt"
    check "its counts" grep -qx 'passed=1 failed=0 error=0 skipped=0' "$real/results/summary.txt"
    [[ "$CHECK_FAILURES" -eq 0 ]] || cat "$real/out.txt"

    # Ours, on a fixture root: /test/lib is upstream's test/lib with ours over it.
    lib=$TEST_WORK_DIR/lib
    mkdir -p "$lib/test/jdk/a" "$lib/test/lib/patchset"
    printf 'external.lib.roots=../../\n' > "$lib/test/jdk/TEST.ROOT"
    cat > "$lib/test/lib/patchset/OursOnTop.java" <<'EOF'
package patchset;
public class OursOnTop {
    public static String name() { return "ours"; }
}
EOF
    cat > "$lib/test/jdk/a/LibTest.java" <<'EOF'
/*
 * @test
 * @library /test/lib /javax/net/ssl/templates
 * @build jdk.test.lib.Platform patchset.OursOnTop
 * @run main LibTest
 */
public class LibTest extends SSLContextTemplate {
    public static void main(String[] args) {
        System.out.println("upstream's Platform: linux=" + jdk.test.lib.Platform.isLinux()
                + ", " + patchset.OursOnTop.name() + ", " + LibTest.class.getSuperclass());
    }
}
EOF
    run_overlay "$lib" ours-lib "$lib/test/jdk" "$upstream_dir/test/jdk" \
        "ours:$lib/test/jdk/a/LibTest.java"
    check "run-jtreg.sh ran ours" test "$rc" -eq 0
    check "our test found upstream's jdk.test.lib, our test/lib and upstream's templates" \
        grep -q '^a/LibTest.java  *Passed' "$lib/results/ours/report/text/summary.txt"
    [[ "$CHECK_FAILURES" -eq 0 ]] || cat "$lib/out.txt"

    # A test of upstream's that the patch set changes: upstream's directory
    # selects it, and it runs as the patch makes it (PATCHED_ROOT), with ours.
    chg=$TEST_WORK_DIR/changed
    mkdir -p "$chg/ours/test/jdk/c" "$chg/up/test/jdk/c" "$chg/patched/c"
    printf '\n' | tee "$chg/ours/test/jdk/TEST.ROOT" > "$chg/up/test/jdk/TEST.ROOT"
    : > "$chg/ours/test/jdk/c/Changed.java.patch"
    changed_test() { # passes: true or false
        printf '/*\n * @test\n * @run main Changed\n */\npublic class Changed {\n    public static void main(String[] a) {\n        if (!%s) throw new RuntimeException("upstream'"'"'s file ran");\n    }\n}\n' "$1"
    }
    changed_test false > "$chg/up/test/jdk/c/Changed.java"
    changed_test true > "$chg/patched/c/Changed.java"
    changed_test true > "$chg/up/test/jdk/c/Kept.java"
    sed -i 's/Changed/Kept/g' "$chg/up/test/jdk/c/Kept.java"
    PATCHED_ROOT=$chg/patched run_overlay "$chg" changed "$chg/ours/test/jdk" "$chg/up/test/jdk" \
        "upstream:$chg/up/test/jdk/c"
    check "run-jtreg.sh ran a changed upstream test" test "$rc" -eq 0
    check "the changed test ran with ours, as the patch makes it" \
        grep -q '^c/Changed.java  *Passed' "$chg/results/ours/report/text/summary.txt"
    # shellcheck disable=SC2016 # the inner shell's $1
    check "upstream's file of it did not run" \
        bash -c '! grep -q "^c/Changed.java" "$1"' _ "$chg/results/upstream/report/text/summary.txt"
    check "the rest of upstream's directory ran" \
        grep -q '^c/Kept.java  *Passed' "$chg/results/upstream/report/text/summary.txt"
    check "its counts" grep -qx 'passed=2 failed=0 error=0 skipped=0' "$chg/results/summary.txt"
    [[ "$CHECK_FAILURES" -eq 0 ]] || cat "$chg/out.txt"
fi

finish
