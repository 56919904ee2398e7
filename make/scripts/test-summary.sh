#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The one place that knows the format of test results; every runner (jtreg,
# windows, micro, make) records its counts through it.
#
#   test-summary.sh record <dir> <label> <passed> <failed> <error> <skipped> [<reason>]
#       writes <dir>/summary.txt ("passed=N failed=N error=N skipped=N", then
#       "reason=<why>" when something was skipped) and prints the runner's
#       line, "<label>: N passed, N failed" (", N errors", ", N skipped").
#       A failure is a test that ran and did not pass; an error is a test or
#       a runner that could not run to a verdict.
#
#   test-summary.sh report <test-results dir> '<selector>=<id>'...
#       the closing table of make test, as OpenJDK's "Test summary" (TEST /
#       TOTAL / PASS / FAIL / ERROR), then one plain line
#       "N passed, N failed" (errors count as failed there; ", N skipped"
#       follows when some were). Exits 1 when a test failed or erred, a runner
#       could not run, or a selector ran no test.
set -euo pipefail

counts_line() { # passed failed error skipped
    local line="$1 passed, $2 failed"
    (($3 == 0)) || line+=", $3 errors"
    (($4 == 0)) || line+=", $4 skipped"
    printf '%s' "$line"
}

record() {
    local dir=$1 label=$2 passed=$3 failed=$4 error=$5 skipped=$6 reason=${7:-}
    mkdir -p "$dir"
    {
        printf 'passed=%d failed=%d error=%d skipped=%d\n' "$passed" "$failed" "$error" "$skipped"
        [[ -z "$reason" ]] || printf 'reason=%s\n' "${reason//$'\n'/; }"
    } > "$dir/summary.txt"
    printf '%s: %s\n' "$label" "$(counts_line "$passed" "$failed" "$error" "$skipped")"
}

# summary.txt -> "passed failed error skipped"; a count that is missing
# reads as 0.
read_counts() {
    local passed=0 failed=0 error=0 skipped=0 kv
    for kv in $(head -n 1 "$1"); do
        case "$kv" in
            passed=*) passed=${kv#passed=} ;;
            failed=*) failed=${kv#failed=} ;;
            error=*) error=${kv#error=} ;;
            skipped=*) skipped=${kv#skipped=} ;;
        esac
    done
    printf '%d %d %d %d' "$passed" "$failed" "$error" "$skipped"
}

report() {
    local results=$1
    shift
    local t_total=0 t_passed=0 t_failed=0 t_error=0 t_skipped=0
    local -a rows=() notes=() problems=()
    local pair selector id dir passed failed error skipped total reason mark
    for pair in "$@"; do
        selector=${pair%=*}
        id=${pair##*=}
        dir=$results/$id
        passed=0 failed=0 error=0 skipped=0 reason=""
        if [[ -r "$dir/summary.txt" ]]; then
            read -r passed failed error skipped <<<"$(read_counts "$dir/summary.txt")"
            reason=$(sed -n 's/^reason=//p' "$dir/summary.txt")
        fi
        if [[ -r "$dir/runner-error.txt" ]]; then
            problems+=("$selector: $(<"$dir/runner-error.txt")")
            error=$((error + 1))
        elif [[ ! -r "$dir/summary.txt" ]]; then
            problems+=("$selector: its runner wrote no summary")
            error=$((error + 1))
        elif ((passed + failed + error + skipped == 0)); then
            problems+=("$selector: ran no test")
        fi
        total=$((passed + failed + error + skipped))
        mark="  "
        ((failed + error == 0)) || mark=">>"
        rows+=("$(printf '%s %-40s %5d %5d %5d %5d %s' "$mark" "$selector" "$total" "$passed" \
                  "$failed" "$error" "$mark")")
        [[ -z "$reason" ]] || notes+=("$selector: $skipped skipped: $reason")
        t_total=$((t_total + total))
        t_passed=$((t_passed + passed))
        t_failed=$((t_failed + failed))
        t_error=$((t_error + error))
        t_skipped=$((t_skipped + skipped))
    done

    {
        echo
        echo "=============================="
        echo "Test summary (results in $results)"
        echo "=============================="
        printf '   %-40s %5s %5s %5s %5s\n' TEST TOTAL PASS FAIL ERROR
        printf '%s\n' "${rows[@]}"
        echo "=============================="
        if ((${#notes[@]} > 0)); then
            printf 'note: %s\n' "${notes[@]}"
        fi
        if ((${#problems[@]} > 0)); then
            printf 'error: %s\n' "${problems[@]}"
        fi
        if ((t_failed + t_error > 0 || ${#problems[@]} > 0)); then
            echo "TEST FAILURE"
        else
            echo "TEST SUCCESS"
        fi
        echo
        counts_line "$t_passed" "$((t_failed + t_error))" 0 "$t_skipped"
        echo
    } | tee "$results/summary.txt"

    ((t_failed + t_error == 0 && ${#problems[@]} == 0))
}

case "${1:-}" in
    record) shift; (($# == 6 || $# == 7)) || { echo "usage: $0 record <dir> <label> <passed> <failed> <error> <skipped> [<reason>]" >&2; exit 2; }
            record "$@" ;;
    report) shift; (($# >= 1)) || { echo "usage: $0 report <results dir> '<selector>=<id>'..." >&2; exit 2; }
            report "$@" ;;
    *) echo "usage: $0 record|report ..." >&2; exit 2 ;;
esac
