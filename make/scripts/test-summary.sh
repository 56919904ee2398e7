#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The closing lines of make test: one per selector, then the total, each
# "N passed, N failed" (", N skipped" where some were). Exits 1 when a test
# failed, a runner could not run, or a selector ran no test.
#
# Usage: test-summary.sh <test-results dir> '<selector>=<id>'...
set -euo pipefail

results=$1
shift

total_passed=0
total_failed=0
total_skipped=0
problems=()
lines=()

counts_line() {
    local line="$1 passed, $2 failed"
    (($3 == 0)) || line+=", $3 skipped"
    printf '%s' "$line"
}

for pair in "$@"; do
    selector=${pair%=*}
    id=${pair##*=}
    dir=$results/$id
    passed=0 failed=0 skipped=0 reason=""
    if [[ -r "$dir/runner-error.txt" ]]; then
        problems+=("$selector: $(<"$dir/runner-error.txt")")
        failed=1
    elif [[ -r "$dir/summary.txt" ]]; then
        read -r passed_kv failed_kv skipped_kv < "$dir/summary.txt"
        passed=${passed_kv#passed=}
        failed=${failed_kv#failed=}
        skipped=${skipped_kv#skipped=}
        reason=$(sed -n 's/^reason=//p' "$dir/summary.txt")
        if ((passed + failed + skipped == 0)); then
            problems+=("$selector: ran no test")
        fi
    else
        problems+=("$selector: its runner wrote no summary")
        failed=1
    fi
    line="$selector: $(counts_line "$passed" "$failed" "$skipped")"
    [[ -z "$reason" ]] || line+=" (skipped: $reason)"
    lines+=("$line")
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    total_skipped=$((total_skipped + skipped))
done

{
    echo
    echo "Test summary (results in $results):"
    printf '%s\n' "${lines[@]}"
    if ((${#problems[@]} > 0)); then
        printf 'error: %s\n' "${problems[@]}"
    fi
    echo "Total: $(counts_line "$total_passed" "$total_failed" "$total_skipped")"
} | tee "$results/summary.txt"

if ((total_failed > 0 || ${#problems[@]} > 0)); then
    echo "TEST FAILURE"
    exit 1
fi
