#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make:TestJcheck - `make jcheck`: each series through Skara's jcheck, with
# the baseline's .jcheck/conf.
#
# Without JCHECK, make jcheck must fail with a message that says how to get
# Skara. With JCHECK (a Skara checkout, from make test ... JCHECK=<dir> or
# the environment), the real series must have no finding (the mainline
# series with the mainline tree's .jcheck/conf, the backports with the
# baseline's, whose messages say what they backport), and a fixture
# series made here against the baseline must fail: one patch adds a Java
# line with trailing whitespace, another makes a Java file executable, and
# the findings must name the check, the file and the line. Skipped (77)
# without JCHECK: Skara is not part of this repository and CI cannot fetch
# it.
#
# Run by make test TEST=make:TestJcheck [JCHECK=<dir>] with the spec's
# variables in the environment and a scratch directory in TEST_WORK_DIR;
# exit 0 passed, 1 failed, 77 skipped.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"
patchset_test_env

W="$TEST_WORK_DIR/TestJcheck"
rm -rf "${W:?}" && mkdir -p "$W"
LOG="$W/out.txt"

jcheckmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Jcheck.gmk" SPEC="$SPEC" \
    JCHECK_OUTPUTDIR="$W/jcheck" "$@"; }
patchmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Patch.gmk" SPEC="$SPEC" "$@"; }
expect_in() { grep -qF -- "$1" "$2" || { cat "$2"; fail "$3: '$1' not in $2"; }; }

# ---------------------------------------------------------- without Skara
if jcheckmake JCHECK= > "$LOG" 2>&1; then
    cat "$LOG"; fail "make jcheck without JCHECK passed"
fi
expect_in "make jcheck needs JCHECK=" "$LOG" "make jcheck without JCHECK says what it needs"
expect_in "git clone https://github.com/openjdk/skara" "$LOG" "make jcheck without JCHECK says how to get Skara"
ok "without JCHECK, make jcheck fails and says how to get Skara"

[[ -n "${JCHECK:-}" ]] || skip "no JCHECK: make test TEST=make:TestJcheck JCHECK=<a Skara checkout> (git clone https://github.com/openjdk/skara)"
[[ -d "$JCHECK" ]] || fail "JCHECK=$JCHECK is not a directory"

# ------------------------------------------------------------- real series
echo "== the series of this configuration, against $UPSTREAM_REF"
patchmake PATCH_OUTPUTDIR="$W/patch" PATCHSET_WORKDIR="$W/patchset" patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch"; }
jcheckmake JCHECK="$JCHECK" PATCH_OUTPUTDIR="$W/patch" > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make jcheck finds something in the real series"; }
cat "$LOG"
expect_in "jcheck: jcheck of Skara " "$LOG" "make jcheck names the Skara it ran"
expect_in "no findings in " "$LOG" "make jcheck sums up"
LINE="$(spec_var RELEASE_LINE)"
if [[ -n "$LINE" ]]; then
    grep -F "jcheck: cache/mainline: " "$LOG" | grep -qF " commit(s) on $(spec_var MAINLINE_REF), checked with its .jcheck/conf" \
        || fail "the mainline series is not checked on the mainline tree"
    grep -F "jcheck: cache/$LINE: " "$LOG" | grep -qF " commit(s) on $UPSTREAM_REF, checked with its .jcheck/conf" \
        || fail "the $LINE backport is not checked on $UPSTREAM_REF"
fi
ok "the real series has no jcheck finding"

# ---------------------------------------------------------------- fixture
echo "== fixture series: trailing whitespace and an executable Java file"
CACHE=src/java.base/share/classes/sun/security/util/Cache.java
R="$W/fixture-repo"
git clone -q --shared --no-checkout "$UPSTREAM_DIR" "$R"
dirname "$CACHE" | git -C "$R" sparse-checkout set --cone --stdin
git -C "$R" -c advice.detachedHead=false checkout -q "$UPSTREAM_REF"
commit() { git -C "$R" add -A && git -C "$R" -c user.name=Fixture -c user.email=fixture@example.org \
    commit -q -m "$1"; }
at=$(grep -n '^public abstract class Cache' "$R/$CACHE" | head -n 1 | cut -d: -f1)
[[ -n "$at" ]] || fail "$CACHE of $UPSTREAM_REF has no 'public abstract class Cache' line"
sed -i "${at}a\\    // A comment that ends in two blanks.  " "$R/$CACHE"
row=$((at + 1))
commit "NNNNNNN: Fixture with trailing whitespace"
chmod +x "$R/$CACHE"
commit "NNNNNNN: Fixture with an executable Java file"
mkdir -p "$W/fixture/ws"
git -C "$R" format-patch -q --cover-letter -o "$W/fixture/ws" "$UPSTREAM_REF"

set +e
jcheckmake JCHECK="$JCHECK" PATCH_OUTPUTDIR="$W/fixture" > "$LOG" 2>&1
rc=$?
set -e
cat "$LOG"
((rc != 0)) || fail "make jcheck passed a series with a trailing-whitespace line"
expect_in "[whitespace]" "$LOG" "jcheck's whitespace check reports the line"
grep -F "[whitespace]" "$LOG" | grep -qF "path=$CACHE" || fail "the whitespace finding does not name $CACHE"
grep -F "[whitespace]" "$LOG" | grep -qF "row=$row" || fail "the whitespace finding does not name line $row"
expect_in "[executable]" "$LOG" "jcheck's executable check reports the executable Java file"
expect_in "8000000: Fixture with trailing whitespace" "$LOG" "the finding names its commit"
expect_in "the subjects carry the placeholder NNNNNNN" "$LOG" "make jcheck says it read the placeholder as an id"
expect_in "ws: 2 finding(s)" "$LOG" "two findings, no more"
expect_in "FAILED: jcheck has findings in 1 series" "$LOG" "make jcheck sums up the failure"
ok "a series with a trailing-whitespace line and an executable Java file fails jcheck"
