#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Shared by the tests of the tooling, test/make/<Name>.sh (sourced, not a
# test itself). A test either stops at the first wrong thing (fail) or checks
# on and reports every wrong thing (check, then finish); 77 means skipped.

fail() { echo "FAILED: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
ok() { echo "ok: $*"; }

CHECK_FAILURES=0

# check WHAT COMMAND...: runs COMMAND and reports WHAT as ok or FAILED.
check() {
    local what=$1
    shift
    if "$@"; then
        ok "$what"
    else
        echo "FAILED: $what"
        CHECK_FAILURES=$((CHECK_FAILURES + 1))
    fi
}

# Ends a test made of checks: exit 1 when any failed.
finish() {
    if ((CHECK_FAILURES > 0)); then
        echo "$CHECK_FAILURES check(s) failed"
        exit 1
    fi
    echo "all checks passed"
}

: "${TOPDIR:?TOPDIR is not set: run through make test TEST=make:<name>}"
: "${OUTPUTDIR:?OUTPUTDIR is not set: run through make test TEST=make:<name>}"
: "${TEST_WORK_DIR:?TEST_WORK_DIR is not set: run through make test TEST=make:<name>}"
SPEC="$OUTPUTDIR/spec.gmk"
[[ -f "$SPEC" ]] || fail "no spec.gmk at $SPEC"
MAKE="${MAKE:-make}"

# A variable of the configuration: RunTests exports them; when a test is run
# by hand, the spec is asked.
spec_var() {
    local name="$1"
    if [[ -n "${!name+set}" ]]; then
        printf '%s\n' "${!name}"
    else
        # $(info) and not echo: values hold parentheses, quotes, tildes.
        # shellcheck disable=SC2016 # $(...) is make's, not the shell's
        printf 'include %s\n$(info $(%s))\nx: ; @:\n' "$SPEC" "$name" | "$MAKE" -s -f - x
    fi
}

# For the tests of the patch set (TestPatch, TestWebrev): PYTHON, FEATURE,
# UPSTREAM_DIR and UPSTREAM_REF of the configuration; skips without a
# baseline tree, fails without Python.
# shellcheck disable=SC2034 # the variables are for the test that calls it
patchset_test_env() {
    PYTHON="$(spec_var PYTHON)"
    FEATURE="$(spec_var BOOT_JDK_FEATURE)"
    UPSTREAM_DIR="$(spec_var UPSTREAM_DIR)"
    UPSTREAM_REF="$(spec_var UPSTREAM_REF)"
    [[ -x "$PYTHON" ]] || fail "PYTHON='$PYTHON' is not executable"
    [[ -d "$UPSTREAM_DIR" ]] || skip "no baseline tree: UPSTREAM_DIR='$UPSTREAM_DIR' (re-run configure)"
}
