#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Turns a jtreg report into the selector's summary.txt (passed=N failed=N
# skipped=N). jtreg says "no tests selected" with exit code 0, so the counts,
# not the exit code, tell whether anything ran.
set -euo pipefail

results=$1
stats=$results/report/text/stats.txt
if [[ ! -r "$stats" ]]; then
    echo "jtreg wrote no report ($stats); see its output above" > "$results/runner-error.txt"
    exit 0
fi

count() {
    # "Test results: passed: 3; failed: 1; error: 2" -> the number after "$1: "
    sed -n "s/.*[:;] *$1: \([0-9][0-9]*\).*/\1/p" "$stats" | head -n 1
}
passed=$(count passed)
failed=$(count failed)
error=$(count error)
skipped=$(count skipped)
printf 'passed=%d failed=%d skipped=%d\n' "${passed:-0}" "$((${failed:-0} + ${error:-0}))" \
    "${skipped:-0}" > "$results/summary.txt"
