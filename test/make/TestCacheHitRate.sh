#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The workload tools of make/CacheHitRate.gmk run on both JVMs and agree:
# cache-certs (the recurring intermediates hit on both, all but their first
# parses: fails for an image that evicts them in insertion order), and a
# short cache-sessions at a timeout nothing reaches (a deterministic run:
# the same resumptions on both, some but not all). Both fail when either
# side is not the cache it claims to be (make checks each JVM's classes).
# The arguments make refuses are checked too.
set -euo pipefail

: "${CONF_NAME:?run through make test TEST=make:TestCacheHitRate}"
# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"

# its own results directory: a user's results of make cache-* stay
results="$TEST_WORK_DIR/cache-hitrate"

"$MAKE" -C "$TOPDIR" CONF="$CONF_NAME" HITRATE_DIR="$results" cache-certs \
    > "$TEST_WORK_DIR/certs.log" 2>&1 ||
    { cat "$TEST_WORK_DIR/certs.log"; fail "make cache-certs"; }
# jvm chains intermediates parses hits leaf_rehits
# shellcheck disable=SC2016 # awk's fields, not the shell's
check "cache-certs: the intermediates hit on stock and the image, all but their first parses" \
    awk 'NR > 1 { n++; if ($5 != $4 - $3 || $6 != $2) bad = 1 } END { exit !(n == 2 && !bad) }' \
    "$results/certs.txt"

"$MAKE" -C "$TOPDIR" CONF="$CONF_NAME" HITRATE_DIR="$results" cache-sessions \
    SESSIONS_REGIMES=256:86400 \
    SESSIONS_ROUNDS=1 SESSIONS_SECONDS=2 SESSIONS_POPULATION=2000 SESSIONS_RATE=200 \
    > "$TEST_WORK_DIR/sessions.log" 2>&1 ||
    { cat "$TEST_WORK_DIR/sessions.log"; fail "make cache-sessions"; }
# jvm capacity timeout connections resumed new ...
# shellcheck disable=SC2016 # awk's fields, not the shell's
check "cache-sessions: the same resumptions on stock and the image, some but not all" \
    awk 'NR > 1 { r[NR] = $5; c = $4 } END { exit !(NR == 3 && r[2] == r[3] && r[2] > 0 && r[2] < c) }' \
    "$results/sessions.txt"

bad_rounds=$("$MAKE" -C "$TOPDIR" CONF="$CONF_NAME" HITRATE_DIR="$results" cache-sessions \
    SESSIONS_ROUNDS=0 2>&1 || true)
check "cache-sessions refuses SESSIONS_ROUNDS=0" \
    grep -q "SESSIONS_ROUNDS must be a positive number" <<<"$bad_rounds"
bad_regime=$("$MAKE" -C "$TOPDIR" CONF="$CONF_NAME" HITRATE_DIR="$results" cache-sessions \
    SESSIONS_REGIMES=20480 2>&1 || true)
check "cache-sessions refuses a regime without its timeout" \
    grep -q "'20480' is not <capacity>:<timeout>" <<<"$bad_regime"

finish
