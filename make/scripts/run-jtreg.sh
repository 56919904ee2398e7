#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Runs one jtreg selector on the overlay (make/scripts/jtreg-resolve.sh says
# what it holds) and records its counts with test-summary.sh.
#
#   ours:<test>      run on the image: pass, fail (failed) or error. They
#                    run from a copy of our test/jdk in a test tree laid out
#                    as the patched tree will hold it: test/lib is upstream's
#                    test library with ours on top, so that "@library
#                    /test/lib" (TEST.ROOT: external.lib.roots=../../) finds
#                    jdk.test.lib.*, jdk.test.whitebox.WhiteBox and the rest;
#                    upstream's test/jdk libraries that they name (such as
#                    /javax/net/ssl/templates) are copied in beside them.
#   upstream:<test>  run on the image in upstream's test/jdk (its TEST.ROOT,
#                    its test/lib), tests of ours at the same path left out.
#                    A test of upstream's that the patch set changes (a hunk
#                    file of ours) runs with ours instead, as the patch
#                    makes it (PATCHED_ROOT), when upstream's would run.
#                    Each that does not pass there runs again on the stock
#                    base JDK: passing on stock makes it our failure (or
#                    error); not passing on stock either, it is counted as
#                    skipped, "fails on stock too", and listed.
#
# Usage: run-jtreg.sh <results dir> <work dir> <label> <test>... -- <jtreg command> <options>...
# Environment: IMAGE_JDK, BOOT_JDK (the stock JDK), OURS_ROOT (our test/jdk),
#   UPSTREAM_ROOT (upstream's test/jdk, when upstream's tests are selected),
#   PATCHED_ROOT (test/jdk's files as the patch set makes them, exported by
#   make, when it changes a test of upstream's),
#   JTREG_STOCK: "failed" (default) reruns on stock only what did not pass
#   on the image; "all" runs every upstream test on stock as well and
#   records stock's counts in <results dir>/upstream-stock-counts.txt.
# Writes <results dir>/upstream-vs-stock.txt (one line per upstream test
# that did not pass on the image: test, image status, stock status, verdict).
set -euo pipefail

results=$1
work=$2
label=$3
shift 3
tests=()
while (($# > 0)) && [[ "$1" != -- ]]; do
    tests+=("$1")
    shift
done
(($# > 1)) || { echo "usage: $0 <results> <work> <label> <test>... -- <jtreg command>..." >&2; exit 2; }
shift
jtreg=("$@")
: "${IMAGE_JDK:?}" "${BOOT_JDK:?}" "${OURS_ROOT:?}"
stock_mode=${JTREG_STOCK:-failed}
summary=$(dirname "${BASH_SOURCE[0]}")/test-summary.sh

ours=() upstream=()
for t in "${tests[@]}"; do
    case "$t" in
        ours:*) ours+=("${t#ours:}") ;;
        upstream:*) upstream+=("${t#upstream:}") ;;
        *) echo "run-jtreg: not ours:<test> or upstream:<test>: $t" >&2; exit 2 ;;
    esac
done

runner_errors=()

# run <name> <jdk> [jtreg options and tests...]: one jtreg run into
# <results>/<name>/report and <work>/<name>; fails when jtreg wrote no report.
run() {
    local name=$1 jdk=$2 rc=0
    shift 2
    echo "--- jtreg $name: -jdk:$jdk"
    "${jtreg[@]}" -jdk:"$jdk" -w:"$work/$name" -r:"$results/$name/report" "$@" || rc=$?
    echo "jtreg exit code $rc" > "$work/$name.exitcode"
    if [[ ! -r "$results/$name/report/text/summary.txt" ]]; then
        if [[ ! -r "$results/$name/report/text/stats.txt" ]]; then
            runner_errors+=("jtreg ($name) wrote no report (exit code $rc); see its output above")
            return 1
        fi
        : > "$results/$name/report/text/summary.txt"   # no test selected
    fi
}

# "<test> <Passed|Failed|Error|...>" per test of a run's report.
statuses() {
    sed -n 's/^\([^ ]*\)  *\([A-Z][a-z]*\)\..*/\1 \2/p' "$results/$1/report/text/summary.txt"
}

# The tests of upstream's that the patch set changes: relative paths.
changed_upstream=()
if [[ -n "${PATCHED_ROOT:-}" && -d "$PATCHED_ROOT" ]]; then
    while read -r rel; do
        [[ -e "$OURS_ROOT/$rel" ]] || changed_upstream+=("$rel")
    done < <(cd "$PATCHED_ROOT" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
fi

# stage_ours <dir>: <dir>/test/jdk, a copy of our test/jdk with the files
# the patch set changes as it makes them (in place of their hunk files),
# and <dir>/test/lib, upstream's test/lib (when there is an upstream
# tree) with our test/lib copied over it. A library of upstream's test/jdk
# that these tests name ("@library /javax/net/ssl/templates") and we do not
# have is copied from upstream's test/jdk too.
stage_ours() {
    local tree=$1 lib rel
    rm -rf "$tree"
    mkdir -p "$tree/test/lib"
    cp -R "$OURS_ROOT" "$tree/test/jdk"
    find "$tree/test/jdk" -type f -name '*.patch' -delete
    # Every file as the patch set makes it: upstream's tests it changes, and
    # ours that a later topic changes with hunk files of its own.
    if [[ -n "${PATCHED_ROOT:-}" && -d "$PATCHED_ROOT" ]]; then
        cp -R "$PATCHED_ROOT/." "$tree/test/jdk/"
    fi
    for lib in ${UPSTREAM_ROOT:+"$UPSTREAM_ROOT/../lib"} "$OURS_ROOT/../lib"; do
        [[ ! -d "$lib" ]] || cp -R "$lib/." "$tree/test/lib/"
    done
    [[ -n "${UPSTREAM_ROOT:-}" ]] || return 0
    while read -r lib; do
        case "$lib" in /test/lib|/test/lib/*|*..*) continue ;; esac
        if [[ ! -e "$tree/test/jdk$lib" && -d "$UPSTREAM_ROOT$lib" ]]; then
            mkdir -p "$(dirname "$tree/test/jdk$lib")"
            cp -R "$UPSTREAM_ROOT$lib" "$tree/test/jdk$lib"
        fi
    done < <(grep -rhoE --include='*.java' '@library[[:space:]].*' "$tree/test/jdk" \
                 | tr -s '[:blank:]' '\n' | grep -E '^/[A-Za-z0-9_./-]+$' | sort -u)
}

# A changed test of upstream's that upstream's selection would run (jtreg
# lists what a group or directory holds) runs with ours, unless a directory
# of ours that is selected holds it already.
if ((${#upstream[@]} > 0 && ${#changed_upstream[@]} > 0)); then
    mkdir -p "$work"
    "${jtreg[@]}" -jdk:"$BOOT_JDK" -w:"$work/list" -r:"$work/list-report" -l "${upstream[@]}" \
        > "$work/upstream-list.txt" 2>&1 || true
    grep -q '^Tests found:' "$work/upstream-list.txt" \
        || runner_errors+=("jtreg could not list upstream's selection, so upstream's tests that the patch set changes may not run (see $work/upstream-list.txt)")
    for rel in "${changed_upstream[@]}"; do
        awk -v t="$rel" '$0 == t || index($0, t "#") == 1 { found = 1 } END { exit !found }' \
            "$work/upstream-list.txt" || continue
        covered=""
        for t in "${ours[@]}"; do
            [[ "$OURS_ROOT/$rel" != "$t" && "$OURS_ROOT/$rel" != "$t"/* ]] || covered=1
        done
        [[ -n "$covered" ]] || ours+=("$OURS_ROOT/$rel")
    done
fi

passed=0 failed=0 error=0 skipped=0
reasons=()

if ((${#ours[@]} > 0)); then
    tree=$work/tree
    stage_ours "$tree"
    staged=()
    for t in "${ours[@]}"; do
        case "$t" in
            "$OURS_ROOT"|"$OURS_ROOT"/*) staged+=("$tree/test/jdk${t#"$OURS_ROOT"}") ;;
            *) echo "run-jtreg: ours:$t is not under $OURS_ROOT" >&2; exit 2 ;;
        esac
    done
    if run ours "$IMAGE_JDK" "${staged[@]}"; then
        while read -r _ status; do
            case "$status" in
                Passed) passed=$((passed + 1)) ;;
                Failed) failed=$((failed + 1)) ;;
                *) error=$((error + 1)) ;;
            esac
        done < <(statuses ours)
    fi
fi

if ((${#upstream[@]} > 0)); then
    # Our test files, and upstream's that the patch set changes, shadow
    # upstream's files at the same path.
    mkdir -p "$work"
    exclude=$work/shadowed-by-ours.txt
    root=${UPSTREAM_ROOT:?UPSTREAM_ROOT, the upstream test/jdk, is not set}
    { (cd "$OURS_ROOT" && find . -type f \( -name '*.java' -o -name '*.sh' -o -name '*.html' \) \
           | sed 's|^\./||'); printf '%s\n' "${changed_upstream[@]}"; } | sort -u | while read -r rel; do
        [[ ! -f "$root/$rel" ]] || printf '%s 0000000 generic-all\n' "$rel"
    done > "$exclude"
    declare -A image_status=() stock_status=()
    if run upstream "$IMAGE_JDK" -exclude:"$exclude" "${upstream[@]}"; then
        while read -r t status; do image_status[$t]=$status; done < <(statuses upstream)
        again=()
        for t in "${!image_status[@]}"; do
            if [[ "${image_status[$t]}" == Passed ]]; then
                passed=$((passed + 1))
            else
                again+=("$root/$t")
            fi
        done
        if [[ "$stock_mode" == all ]]; then
            again=("${upstream[@]}")
        fi
        if ((${#again[@]} > 0)); then
            if run upstream-stock "$BOOT_JDK" -exclude:"$exclude" "${again[@]}"; then
                while read -r t status; do stock_status[$t]=$status; done < <(statuses upstream-stock)
            fi
        fi
        if [[ "$stock_mode" == all ]]; then
            s_passed=0 s_other=0
            for t in "${!stock_status[@]}"; do
                if [[ "${stock_status[$t]}" == Passed ]]; then s_passed=$((s_passed + 1)); else s_other=$((s_other + 1)); fi
            done
            printf 'stock: %d passed, %d not passed; image: %d tests\n' "$s_passed" "$s_other" \
                "${#image_status[@]}" | tee "$results/upstream-stock-counts.txt"
        fi
        for t in $(printf '%s\n' "${!image_status[@]}" | sort); do
            [[ "${image_status[$t]}" != Passed ]] || continue
            s=${stock_status[$t]:-none}
            if [[ "$s" == Passed ]]; then
                verdict="REGRESSION: passes on stock, not on the image"
                if [[ "${image_status[$t]}" == Failed ]]; then failed=$((failed + 1)); else error=$((error + 1)); fi
            elif [[ "$s" == none ]]; then
                verdict="no stock result: counted as an error"
                error=$((error + 1))
            else
                verdict="fails on stock too"
                skipped=$((skipped + 1))
                reasons+=("$t fails on stock too")
            fi
            printf '%s image=%s stock=%s %s\n' "$t" "${image_status[$t]}" "$s" "$verdict"
        done > "$results/upstream-vs-stock.txt"
        cat "$results/upstream-vs-stock.txt"
    fi
fi

if ((${#runner_errors[@]} > 0)); then
    printf '%s\n' "${runner_errors[@]}" > "$results/runner-error.txt"
fi
reason=""
if ((${#reasons[@]} > 0)); then
    reason=$(IFS=';'; echo "${reasons[*]}")
fi
bash "$summary" record "$results" "$label" "$passed" "$failed" "$error" "$skipped" "$reason"
