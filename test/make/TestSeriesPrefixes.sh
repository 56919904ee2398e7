#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make:TestSeriesPrefixes - `make series-check`: every prefix of every
# series applies to a fresh clone of its tree and compiles.
#
# The real series (make patch: the mainline series, on the mainline tree,
# and their backports, on the baseline) must pass, the native-only topic
# saying that it has nothing to compile, the mainline's Java files compiled
# against the JDK that builds the mainline (its tree's sources need a newer
# javac). Then a fixture series made here against the
# baseline, whose second patch uses a method only its third adds: the whole
# series compiles, its prefix 1..2 does not, and the check must fail naming
# that prefix, and pass the others; a second fixture topic whose patch does
# not apply to the baseline must be named too. A fixture patch with a lint
# warning fails as well (-Xlint:all -Werror).
#
# Run by make test TEST=make:TestSeriesPrefixes with the spec's variables in
# the environment and a scratch directory in TEST_WORK_DIR; exit 0 passed,
# 1 failed, 77 skipped.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"
patchset_test_env

W="$TEST_WORK_DIR/TestSeriesPrefixes"
rm -rf "${W:?}" && mkdir -p "$W"
LOG="$W/out.txt"

patchmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Patch.gmk" SPEC="$SPEC" "$@"; }
expect_in() { grep -qF -- "$1" "$2" || { cat "$2"; fail "$3: '$1' not in $2"; }; }
expect_not_in() { ! grep -qF -- "$1" "$2" || { cat "$2"; fail "$3: '$1' in $2"; }; }

# ------------------------------------------------------------- real series
echo "== the series of this configuration, against $UPSTREAM_REF and the mainline tree"
patchmake PATCH_OUTPUTDIR="$W/patch" PATCHSET_WORKDIR="$W/patchset" patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch"; }
start=$SECONDS
patchmake PATCH_OUTPUTDIR="$W/patch" SERIES_CHECK_DIR="$W/check" series-check > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make series-check on the real series"; }
cat "$LOG"
expect_in "every prefix of" "$LOG" "series-check sums up"
LINE="$(spec_var RELEASE_LINE)"
series=0
for dir in "$W"/patch/*/*/; do
    dir=${dir%/}
    name=$(basename "$(dirname "$dir")")/$(basename "$dir")
    series=$((series + 1))
    n=$(find "$dir" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | wc -l)
    for ((k = 1; k <= n; k++)); do
        expect_in "ok: $name 1..$k of $n " "$LOG" "series-check tries every prefix of $name"
    done
done
((series > 0)) || fail "make patch wrote no series"
# (the cache's two topics change one file, Cache.java: each series is tried alone)
for topic in cache equal-byte-array; do
    for line in mainline $LINE; do
        [[ -d "$W/patch/$topic/$line" ]] || fail "make patch wrote no $topic/$line series"
    done
done
if [[ -d "$W/patch/windows-loopback" ]]; then
    for line in mainline $LINE; do
        expect_in "ok: windows-loopback/$line 1..1 of 1" "$LOG" "the native-only topic passes"
        grep -F "windows-loopback/$line 1..1" "$LOG" | grep -qF "nothing to compile" \
            || fail "the native-only topic does not say that it has nothing to compile"
    done
fi
grep -qE "^series-check: ok: [^ ]+/${LINE:-mainline} .*: [0-9]+ Java file\(s\) of java.base compile\$" "$LOG" \
    || fail "no prefix of the ${LINE:-mainline} series compiled a Java file against its tree's sources"
if [[ -n "$LINE" ]]; then
    grep -qE "^series-check: ok: [^ ]+/mainline .*: [0-9]+ Java file\(s\) of java.base compile( against JDK [0-9]+'s java.base)?\$" "$LOG" \
        || fail "no prefix of the mainline series compiled a Java file"
fi
ok "every prefix of the real series applies and compiles ($((SECONDS - start)) s)"

# ---------------------------------------------------------------- fixture
echo "== fixture series: a prefix that does not compile"
PKG=src/java.base/share/classes/sun/security/util
A="$PKG/SeriesFixtureA.java"
B="$PKG/SeriesFixtureB.java"
C="$PKG/SeriesFixtureC.java"
R="$W/fixture-repo"
git clone -q --shared --no-checkout "$UPSTREAM_DIR" "$R"
echo "$PKG" | git -C "$R" sparse-checkout set --cone --stdin
git -C "$R" -c advice.detachedHead=false checkout -q "$UPSTREAM_REF"
commit() { git -C "$R" add -A && git -C "$R" -c user.name=Fixture -c user.email=fixture@example.org \
    commit -q -m "$1"; }
java_file() {  # java_file PATH BODY...: a class of sun.security.util
    local name
    name=$(basename "$1" .java)
    { echo "package sun.security.util;"; echo; echo "final class $name {"
      printf '    %s\n' "${@:2}"; echo "}"; } > "$R/$1"
}
java_file "$A" "static int one() { return 1; }"
commit "NNNNNNN: Fixture one"
java_file "$B" "static int three() { return SeriesFixtureA.one() + SeriesFixtureA.two(); }"
commit "NNNNNNN: Fixture two uses what three adds"
java_file "$A" "static int one() { return 1; }" "static int two() { return 2; }"
commit "NNNNNNN: Fixture three"
java_file "$C" "static Object raw() { java.util.List l = new java.util.ArrayList(); return l; }"
commit "NNNNNNN: Fixture four warns"
OUT="$W/fixture-out"
mkdir -p "$OUT/fix" "$OUT/noapply"
git -C "$R" format-patch -q --cover-letter -o "$OUT/fix" "$UPSTREAM_REF"
# Patch three alone: it changes a file the baseline does not have.
git -C "$R" format-patch -q --cover-letter -o "$OUT/noapply" -1 HEAD~1

set +e
patchmake PATCH_OUTPUTDIR="$OUT" SERIES_CHECK_DIR="$W/fixture-check" series-check > "$LOG" 2>&1
rc=$?
set -e
cat "$LOG"
((rc != 0)) || fail "series-check passed a series whose prefix 1..2 does not compile"
expect_in "ok: fix 1..1 of 4 (NNNNNNN: Fixture one): 1 Java file(s) of java.base compile" "$LOG" \
    "the good prefix 1..1"
expect_in "FAILED: fix 1..2 of 4 (NNNNNNN: Fixture two uses what three adds): java.base does not compile" \
    "$LOG" "the broken prefix 1..2 is named"
expect_in "cannot find symbol" "$LOG" "javac's error is shown"
expect_in "ok: fix 1..3 of 4 (NNNNNNN: Fixture three): 2 Java file(s) of java.base compile" "$LOG" \
    "the prefix 1..3, fixed, compiles"
expect_in "FAILED: fix 1..4 of 4 (NNNNNNN: Fixture four warns): java.base does not compile" "$LOG" \
    "a prefix with a lint warning fails (-Xlint:all -Werror)"
expect_in "[rawtypes]" "$LOG" "javac's warning is shown"
expect_in "FAILED: noapply 1..1 of 1 (NNNNNNN: Fixture three): 0001-NNNNNNN-Fixture-three.patch does not apply" \
    "$LOG" "a patch that does not apply is named"
expect_in "3 of the series' prefixes failed (5 tried)" "$LOG" "series-check counts the failures"
expect_not_in "FAILED: fix 1..1" "$LOG" "the good prefix 1..1 passes"
ok "a prefix that does not compile, one that warns and a patch that does not apply fail the check"

echo "== fixture series: one that depends on another"
# make patch's layout, <topic>/<line>/: "dep" changes a file only "base"
# adds, and uses what it adds; its file 'depends' names base, whose series
# series-check applies first. "orphan" names a series that is not there.
git -C "$R" -c advice.detachedHead=false checkout -q "$UPSTREAM_REF"
java_file "$A" "static int one() { return 1; }"
commit "NNNNNNN: Fixture base"
java_file "$A" "static int one() { return 1; }" "static int two() { return 2; }"
java_file "$B" "static int three() { return SeriesFixtureA.one() + SeriesFixtureA.two(); }"
commit "NNNNNNN: Fixture dependent"
OUT="$W/depends-out"
mkdir -p "$OUT/base/fixture" "$OUT/dep/fixture" "$OUT/orphan/fixture"
git -C "$R" format-patch -q --cover-letter -o "$OUT/base/fixture" -1 HEAD~1
git -C "$R" format-patch -q --cover-letter -o "$OUT/dep/fixture" -1 HEAD
cp "$OUT"/dep/fixture/*.patch "$OUT/orphan/fixture"
echo base > "$OUT/dep/fixture/depends"
echo nosuch > "$OUT/orphan/fixture/depends"
set +e
patchmake PATCH_OUTPUTDIR="$OUT" SERIES_CHECK_DIR="$W/depends-check" series-check > "$LOG" 2>&1
rc=$?
set -e
cat "$LOG"
((rc != 0)) || fail "series-check passed a series whose file 'depends' names no series"
expect_in "ok: base/fixture 1..1 of 1 (NNNNNNN: Fixture base)" "$LOG" "the series depended on passes alone"
expect_in "dep/fixture: on top of base's series (1 patch(es))" "$LOG" "the dependent series is applied after base's"
expect_in "ok: dep/fixture 1..1 of 1 (NNNNNNN: Fixture dependent): 2 Java file(s) of java.base compile" "$LOG" \
    "the dependent series applies and compiles on top of base's"
expect_in "orphan/fixture/depends names nosuch, but " "$LOG" "a missing series depended on is named"
expect_in "FAILED: orphan/fixture: the series it depends on are missing" "$LOG" "a missing series depended on fails"
ok "a series that depends on another is checked on top of it; a missing one fails"
