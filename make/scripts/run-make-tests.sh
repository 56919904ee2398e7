#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Runs tests of the tooling (test/make/<name>.sh) one after the other and
# records the selector's counts (make/scripts/test-summary.sh). A script passes with exit code 0, is
# skipped with 77 (its last line says why) and fails with anything else.
# It gets the configuration's variables in its environment and a scratch
# directory in TEST_WORK_DIR.
#
# Usage: run-make-tests.sh <results dir> <scratch dir> <script>...
set -euo pipefail

results=$1
scratch=$2
shift 2

# A script that runs make must start a fresh make, not a sub-make of ours:
# inherited flags, and the command-line variables make also exports, would
# carry our own CONF= and TEST= into it.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES CONF SPEC TEST JTREG MICRO MICRO_JVMS
export MAKE=make

passed=0 failed=0 skipped=0
reasons=()
for script in "$@"; do
    name=$(basename "$script" .sh)
    log=$results/$name.log
    export TEST_WORK_DIR=$scratch/$name
    rm -rf "$TEST_WORK_DIR"
    mkdir -p "$TEST_WORK_DIR"
    echo "--- make:$name"
    set +e
    bash "$script" > "$log" 2>&1
    rc=$?
    set -e
    case "$rc" in
        0) passed=$((passed + 1)); echo "Passed: make:$name" ;;
        77) skipped=$((skipped + 1)); reasons+=("$name: $(tail -n 1 "$log")")
            echo "Skipped: make:$name: $(tail -n 1 "$log")" ;;
        *) failed=$((failed + 1)); cat "$log"; echo "FAILED: make:$name (exit code $rc, log $log)" ;;
    esac
done

reason=""
if ((${#reasons[@]} > 0)); then
    reason=$(IFS=';'; echo "${reasons[*]}")
fi
bash "$(dirname "${BASH_SOURCE[0]}")/test-summary.sh" record "$results" make \
    "$passed" "$failed" 0 "$skipped" "$reason"
