#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make:TestPatch - `make patch` and `make apply` against the exact upstream
# release trees and the mainline stand-in.
#
# A fixture patch set, made here from the baseline's own files, pins down
# the selection rules, the licence headers (a changed file keeps upstream's,
# a new one gets the GPL notice), the mainline series and their backports
# (layout, cover letters, commit messages, a backport that is not clean),
# two topics that change one file (each series alone, both in make apply's
# file, hunk-edit/hunk-save of one patch's step, hunks that conflict), a
# topic that depends on another (its series on that one's, dependency
# order, TOPICS, its letters, bad 'depends' lines) and the errors. Then the
# real patch set is made for every release tree under build/upstream/ and
# applied to a fresh checkout of it: it must apply, keep Cache.java's
# upstream header and CacheBench's upstream benchmarks, give every new file
# the GPL notice, refuse a second apply and name the hunk that fails on a
# broken tree; every series must git-am alone onto its tree (a dependent
# topic's after the series it depends on), the mainline series onto the
# mainline tree, each backport onto its release's, the cache's two topics,
# which both change Cache.java, too.
#
# Run by make test TEST=make:TestPatch with the spec's variables in the
# environment and a scratch directory in TEST_WORK_DIR; exit 0 passed,
# 1 failed, 77 skipped.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"
# series_prerequisites: the series a dependent topic's series applies after
# shellcheck source=make/scripts/series-lib.sh
source "$TOPDIR/make/scripts/series-lib.sh"
patchset_test_env

W="$TEST_WORK_DIR/TestPatch"
rm -rf "${W:?}" && mkdir -p "$W"
LOG="$W/out.txt"
NOTICE="DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER."
# Upstream's copyright lines end so; spelt in two parts, so that this file
# does not hold the phrase itself.
UPSTREAM_COPYRIGHT="Oracle and/or"" its affiliates"

patchmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Patch.gmk" SPEC="$SPEC" "$@"; }
tree_sum() { (cd "$1" && find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum | md5sum); }
patch_paths() { sed -n 's|^diff --git a/\(.*\) b/.*$|\1|p' "$1"; }
section() {  # one file's part of a patch (the first, where a series changes it twice)
    awk -v p="diff --git a/$2 b/$2" '/^diff --git / { on = ($0 == p && !seen); if (on) seen = 1 }
        /^From [0-9a-f]+ / { on = 0 } on { print }' "$1"
}
expect_in() { grep -qF -- "$1" "$2" || fail "$3: '$1' not in $2"; }
upstream_file() { git -C "$1" show "$2:$3"; }
# The leading /* ... */ comment of a file.
leading_comment() { awk '/\*\// { print; exit } { print }' "$1"; }
# The same, but for the last year of the copyright line, which the series
# sets to the change's year as upstream does.
header_of() { leading_comment "$1" | sed -E 's/(Copyright \(c\) [0-9]{4}), [0-9]{4}, /\1, YEAR, /'; }

# A fresh checkout of a release tree: a clone sharing its objects (nothing
# is written to it), with only the directories the patch touches checked
# out, so that it takes a second and git apply sees exactly upstream's files.
checkout() {  # checkout <tree> <tag> <patch> <dest>
    rm -rf "${4:?}"
    git clone -q --shared --no-checkout "$1" "$4"
    patch_paths "$3" | xargs -n 1 dirname | LC_ALL=C sort -u \
        | git -C "$4" sparse-checkout set --cone --stdin
    git -C "$4" -c advice.detachedHead=false checkout -q "$2"
}

# ---------------------------------------------------------------- fixture
echo "== fixture patch set against $UPSTREAM_REF"
F="$W/fixture"
CACHE=src/java.base/share/classes/sun/security/util/Cache.java
NATIVE=src/java.base/windows/native/libnio/ch/WindowsAsynchronousSocketChannelImpl.c
NEWFILE=test/jdk/sun/security/util/Cache/FixtureTest.java
NEWSRC=src/java.base/share/classes/sun/security/util/FixtureNew.java
HEADERLESS=test/jdk/sun/security/util/Cache/Headerless.java
mkdir -p "$F/$(dirname "$CACHE")" "$F/$(dirname "$NATIVE")" "$F/$(dirname "$NEWFILE")" \
    "$F/make" "$F/test/make"
SPDX_HEADER=$'/*\n * Copyright (c) 2026, the java.base patch set contributors.\n * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0\n */'
# Our Cache.java: upstream's with our header instead of upstream's, two
# lines replaced, three inserted, one deleted.
upstream_file "$UPSTREAM_DIR" "$UPSTREAM_REF" "$CACHE" > "$W/Cache.upstream"
hdr=$(leading_comment "$W/Cache.upstream" | wc -l)
{ echo "$SPDX_HEADER"; tail -n +"$((hdr + 1))" "$W/Cache.upstream"; } > "$F/$CACHE"
sed -i -e '100s/.*/    \/\/ fixture: modified line one/' -e '101s/.*/    \/\/ fixture: modified line two/' \
       -e '300a\    // fixture: inserted one\n    // fixture: inserted two\n    // fixture: inserted three' \
       -e '500d' "$F/$CACHE"
{ echo "$SPDX_HEADER"; echo; echo "class FixtureTest {}"; } > "$F/$NEWFILE"
{ echo "$SPDX_HEADER"; echo; echo "class FixtureNew {}"; } > "$F/$NEWSRC"
# A hunk file: one line added after the first line of upstream's file that
# holds ConnectEx_func (made from the tree here, so nothing of it is stored).
upstream_file "$UPSTREAM_DIR" "$UPSTREAM_REF" "$NATIVE" > "$W/native.orig"
at=$(grep -n 'res = (\*ConnectEx_func)' "$W/native.orig" | head -n 1 | cut -d: -f1)
[[ -n "$at" ]] || fail "$NATIVE of $UPSTREAM_REF has no ConnectEx_func call"
sed "${at}a\\    fixture_call();" "$W/native.orig" > "$W/native.new"
{ echo "# Fixture: a call after ConnectEx."
  git diff --no-index -U3 "$W/native.orig" "$W/native.new" | sed -n '/^@@/,$p' \
      | sed "1i --- a/$NATIVE\n+++ b/$NATIVE"; } > "$F/$NATIVE.patch" || true
grep -q '^@@' "$F/$NATIVE.patch" || fail "could not make the fixture's hunk file"
# Release-specific: Legacy for this base JDK only, Future for all others,
# OnlyOne says it is for JDK 1 only.
LEGACY=src/java.base/windows/native/libnet/Legacy.c
FUTURE=src/java.base/windows/native/libnet/Future.c
ONLY1=src/java.base/windows/native/libnet/OnlyOne.c
mkdir -p "$F/$(dirname "$LEGACY")"
for f in "$LEGACY" "$FUTURE" "$ONLY1"; do
    { [[ "$f" != "$ONLY1" ]] || echo "# Baselines: 1"
      sed -n '/^---/,$p' "$F/$NATIVE.patch" | sed "s|$NATIVE|$f|"; } > "$F/$f.patch"
done
RULES="$W/fixture.rules"
{ echo "exclude $LEGACY.patch unless jdk$FEATURE"
  echo "exclude $FUTURE.patch if jdk$FEATURE"
  cat "$TOPDIR/webrev/patchset.rules"; } > "$RULES"
# Legacy.c and Future.c do not exist upstream: only the rules keep them out.
rm "$F/$LEGACY.patch"
# Three topics: "fix" takes the Java files in two patches (the second changes
# Cache.java again, as a hunk file on the first's result), "nat" the native
# hunk files, and "other" changes Cache.java too, apart from fix's lines: a
# hunk file against upstream's file, <path>.<id>.patch as the first patch of
# its topic.
TOPICS="$F/webrev/topics"
mkdir -p "$TOPICS/fix" "$TOPICS/nat" "$TOPICS/other"
printf '%s\n' 'list fix-dev@example.org' 'patch one NNNNNNN: Fixture change one' "    $CACHE" \
    "    $(dirname "$NEWFILE")/*.java" 'patch two NNNNNNN: Fixture change two' "    $CACHE.two.patch" "    $NEWSRC" \
    > "$TOPICS/fix/series"
printf '%s\n' '<!-- a comment line, not sent -->' 'NNNNNNN: The fixture series' '' \
    'Baseline @BASELINE@.' '@PATCHES@' 'Tests:' '@TESTS@' \
    "Cache.java in one: @NUMSTAT one $CACHE@, kept @UNCHANGED one $CACHE@." \
    > "$TOPICS/fix/cover-letter.md"
printf '%s\n' 'list nat-dev@example.org' 'patch native NNNNNNN: Fixture native change' \
    '    src/java.base/windows/native/**' > "$TOPICS/nat/series"
printf '%s\n' 'NNNNNNN: The native fixture' '' 'One patch.' > "$TOPICS/nat/cover-letter.md"
printf '%s\n' 'list other-dev@example.org' 'patch other NNNNNNN: Fixture other change' \
    "    $CACHE.other.patch" > "$TOPICS/other/series"
printf '%s\n' 'NNNNNNN: The other fixture' '' 'One patch.' > "$TOPICS/other/cover-letter.md"
# Each topic's JBS text; fix's names its reproducer, a file of its directory.
for t in fix nat other; do
    printf '%s\n' '<!-- not sent -->' "Title: the $t fixture" '' 'Run @BASELINE@.' > "$TOPICS/$t/jbs.md"
done
printf '%s\n' '/*' ' * Copyright (c) 2026, the java.base patch set contributors.' \
    ' * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0' ' */' \
    'public class Repro { }' > "$TOPICS/fix/Repro.java"
printf '%s\n' 'Run java Repro.java:' '@INCLUDE webrev/topics/fix/Repro.java@' >> "$TOPICS/fix/jbs.md"
# other's hunk file: a line after upstream's line 400 (fix changes its own
# lines 100, 101, 300 and 500, upstream's about 20 lines further).
sed '400a\    // fixture: added by topic other' "$W/Cache.upstream" > "$W/Cache.other"
{ echo "# Fixture: a line of topic other."
  git diff --no-index -U3 "$W/Cache.upstream" "$W/Cache.other" | sed -n '/^@@/,$p' \
      | sed "1i --- a/$CACHE\n+++ b/$CACHE"; } > "$F/$CACHE.other.patch" || true
grep -q '^@@' "$F/$CACHE.other.patch" || fail "could not make the fixture's hunk file of topic other"
# Patch two: one more line after the first fixture line of patch one.
printf '%s\n' "--- a/$CACHE" "+++ b/$CACHE" "@@ -100,2 +100,3 @@" \
    "     // fixture: modified line one" "+    // fixture: added in patch two" \
    "     // fixture: modified line two" > "$F/$CACHE.two.patch"
sed -i 's|^class FixtureTest {}$|/*\n * @test\n * @summary A fixture test.\n */\nclass FixtureTest {}|' "$F/$NEWFILE"
echo "not part of the patch set" > "$F/make/Fixture.gmk"
echo "not part of the patch set" > "$F/test/make/TestFixture.sh"
echo '*.orig' > "$F/.gitignore"
echo "ignored" > "$F/$CACHE.orig"
git -C "$F" init -q && git -C "$F" add -A && git -C "$F" -c user.name=t -c user.email=t@t commit -qm fixture
year=$(git -C "$F" log -1 --format=%cd --date=format:%Y)
AUTHOR="Fixture Author <fixture@example.org>"
# The fixture's mainline is the baseline itself, taking this release's hunk
# files: its backport to this release line is then clean.
LINE=${FEATURE}u
FARGS=(PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture
       PATCHSET_WORKDIR="$W/ps" PATCHSET_TOPICS="$TOPICS" PATCH_AUTHOR="$AUTHOR"
       COPYRIGHT_HOLDER="Fixture Holder, Inc." MAINLINE_DIR="$UPSTREAM_DIR"
       MAINLINE_REF="$UPSTREAM_REF" MAINLINE_PATCH_NAME=fixture-mainline RELEASE_LINE="$LINE"
       RELEASE_LINES="$LINE" MAINLINE_FILES_OF="$FEATURE")

patchmake "${FARGS[@]}" patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch on the fixture"; }
P="$W/out/fixture.patch"
printf '%s\n' "$CACHE" "$CACHE" "$CACHE" "$NATIVE" "$NEWFILE" "$NEWSRC" | LC_ALL=C sort > "$W/expected-paths"
patch_paths "$P" | LC_ALL=C sort > "$W/actual-paths"
diff -u "$W/expected-paths" "$W/actual-paths" || fail "the patch does not hold exactly the selected files"
expect_in "$FUTURE.patch (fixture.rules: exclude $FUTURE.patch if jdk$FEATURE)" "$LOG" \
    "make patch says which file a release rule left out"
expect_in "$ONLY1.patch (its 'Baselines: 1' line)" "$LOG" "make patch says which file its Baselines line left out"
ok "selection: rules, release rules, Baselines lines, ignored files"

# Per topic, the mainline series and its backport: a cover letter and the
# patches, in order, each with its subject and the configured author.
for line in mainline "$LINE"; do
    for f in 0000-cover-letter.patch 0001-NNNNNNN-Fixture-change-one.patch 0002-NNNNNNN-Fixture-change-two.patch; do
        [[ -f "$W/out/fix/$line/$f" ]] || fail "series fix/$line: no $f (has: $(cd "$W/out/fix" && echo */*))"
    done
    [[ -f "$W/out/nat/$line/0001-NNNNNNN-Fixture-native-change.patch" ]] || fail "series nat/$line: no patch"
done
[[ -f "$W/out/fixture-mainline.patch" ]] || fail "no file of every topic's mainline series"
C="$W/out/fix/mainline/0000-cover-letter.patch"
expect_in "Subject: [PATCH 0/2] NNNNNNN: The fixture series" "$C" "the cover letter's subject is the source's first line"
expect_in "To: fix-dev@example.org" "$C" "the cover letter goes to the topic's list"
expect_in "Baseline $UPSTREAM_REF." "$C" "@BASELINE@ is the release tag"
expect_in "2/2 NNNNNNN: Fixture change two" "$C" "@PATCHES@ lists the patches"
expect_in "- $NEWFILE: A fixture test." "$C" "@TESTS@ lists the tests with their summaries"
# 5 and 3 of the fixture's, and the copyright line's year.
expect_in "Cache.java in one: 6 added, 4 removed (10 changed lines)" "$C" "@NUMSTAT@ counts the patch's lines"
total=$(grep -c '[^[:space:]]' "$W/Cache.upstream")
grep -qE "kept [0-9]+ of its $total non-blank lines unchanged" "$C" || fail "@UNCHANGED@ does not count upstream's $total non-blank lines"
grep -q "a comment line" "$C" && fail "the source's comment reached the cover letter"
expect_in "From: $AUTHOR" "$W/out/fix/mainline/0001-NNNNNNN-Fixture-change-one.patch" "the patch's author is the configured one"
expect_in "+    // fixture: added in patch two" "$W/out/fix/mainline/0002-NNNNNNN-Fixture-change-two.patch" \
    "a <path>.<id>.patch hunk file goes into its patch"
grep -q "backport" "$C" && fail "the mainline cover letter speaks of backports (their letters do)"
J="$W/out/fix/mainline/jbs.md"
expect_in "Run $UPSTREAM_REF." "$J" "the JBS text is the topic's jbs.md, filled"
expect_in "public class Repro { }" "$J" "the JBS text includes the reproducer"
grep -q "patch set\|SPDX\|not sent" "$J" && fail "the JBS text carries our header or comment"
[[ -f "$W/out/fix/$LINE/jbs.md" ]] && fail "a backport has a JBS text of its own"
ok "one series per topic, cover letter filled from the series, JBS text beside it, stacked hunk files"

# The backport: its cover letter and each commit say what they backport.
B="$W/out/fix/$LINE/0000-cover-letter.patch"
expect_in "Subject: [PATCH $LINE 0/2] Backport of NNNNNNN: The fixture series" "$B" \
    "the backport's cover letter names the mainline change"
expect_in "Backport of the mainline change NNNNNNN to $LINE. The order is mainline, then" "$B" \
    "the backport's cover letter says where it stands"
expect_in "Clean: each patch changes $UPSTREAM_REF's files as the mainline patch" "$B" \
    "a backport that changes what the mainline change does is clean"
expect_in "The series applies to $UPSTREAM_REF." "$B" "the backport's cover letter names its tree"
for f in "$W"/out/fix/"$LINE"/000[1-9]-*.patch; do
    subject=$(sed -n 's/^Subject: \[PATCH [^]]*\] //p' "$f")
    body=$(awk '/^$/ { b = 1; next } /^---$/ { exit } b' "$f" | paste -sd' ')
    [[ "$body" == "Backport of $subject"* ]] || fail "$(basename "$f"): the message says '$body', not 'Backport of $subject...'"
    grep -q '^Subject: \[PATCH '"$LINE"' ' "$f" || fail "$(basename "$f"): the subject does not carry [PATCH $LINE ...]"
done
# The mainline commits say nothing of a backport; the file for make apply
# is the backport's.
grep -q "^Backport of" "$W"/out/fix/mainline/000[1-9]-*.patch && fail "a mainline commit calls itself a backport"
expect_in "Backport of NNNNNNN: Fixture change one" "$W/out/fixture.patch" "make apply's file is the backport series"
ok "the backport series: subjects [PATCH $LINE k/n], 'Backport of <mainline subject>' in each message and the cover letter"

# Two topics change Cache.java: each series holds its own lines only and
# git-ams alone onto the tree; all topics together (the file for make apply,
# applied below) hold both, and where paths are disjoint the tree of all
# topics is the union of the topics' trees.
for line in mainline "$LINE"; do
    [[ -f "$W/out/other/$line/0001-NNNNNNN-Fixture-other-change.patch" ]] || fail "series other/$line: no patch"
    grep -q "fixture: modified line one" "$W"/out/other/"$line"/0001-*.patch && fail "series other/$line holds fix's lines"
    grep -q "added by topic other" "$W"/out/fix/"$line"/000[1-9]-*.patch && fail "series fix/$line holds other's line"
done
for topic in fix other; do
    checkout "$UPSTREAM_DIR" "$UPSTREAM_REF" "$P" "$W/alone-$topic"
    git -C "$W/alone-$topic" -c user.name=t -c user.email=t@t am -q "$W"/out/"$topic"/mainline/000[1-9]-*.patch \
        > "$LOG" 2>&1 || { cat "$LOG"; fail "series $topic does not git-am alone onto $UPSTREAM_REF"; }
done
grep -q "added by topic other" "$W/alone-fix/$CACHE" && fail "series fix alone made other's line"
grep -q "fixture: modified line one" "$W/alone-other/$CACHE" && fail "series other alone made fix's lines"
PSREPO="$W/ps/repo.git"
git -C "$PSREPO" show "patched:$CACHE" > "$W/Cache.all"
for want in "fixture: modified line one" "fixture: added in patch two" "added by topic other"; do
    expect_in "$want" "$W/Cache.all" "all topics' Cache.java has each topic's lines"
done
[[ "$(grep -c "Copyright (c) [0-9]*, $year, " "$W/Cache.all")" -eq 1 ]] \
    || fail "all topics' Cache.java does not have its copyright line once, ending in $year"
for pair in "nat:$NATIVE" "fix:$NEWSRC" "fix:$NEWFILE"; do
    [[ "$(git -C "$PSREPO" rev-parse "patched:${pair#*:}")" == "$(git -C "$PSREPO" rev-parse "${pair%%:*}:${pair#*:}")" ]] \
        || fail "all topics' ${pair#*:} is not topic ${pair%%:*}'s"
done
ok "two topics change one file: each series alone has its own lines and git-ams; all topics have both"

# A release's own hunk file makes its backport unclean; the cover letter
# names the file. (Here the mainline takes the files of a release 99 that
# only the native hunk file names.)
cp "$F/$NATIVE.patch" "$W/native.keep"
sed 's/fixture_call();/fixture_call(1);/' "$W/native.keep" > "$F/$NATIVE.jdk$FEATURE.patch"
{ echo "# Baselines: 99"; cat "$W/native.keep"; } > "$F/$NATIVE.patch"
# (Future.c's rule leaves it out for this release only; here, for all.)
sed "s|^exclude $FUTURE.patch if jdk$FEATURE\$|exclude $FUTURE.patch|" "$RULES" > "$W/unclean.rules"
patchmake "${FARGS[@]}" PATCHSET_RULES="$W/unclean.rules" RELEASE_LINES="99u $LINE" \
    MAINLINE_FILES_OF=99 PATCH_OUTPUTDIR="$W/unclean" patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch with a hunk file of the release's own"; }
expect_in "+    fixture_call();" "$W/unclean/nat/mainline/0001-NNNNNNN-Fixture-native-change.patch" \
    "the mainline takes the hunk file of MAINLINE_FILES_OF's release"
expect_in "+    fixture_call(1);" "$W/unclean/nat/$LINE/0001-NNNNNNN-Fixture-native-change.patch" \
    "the backport takes its release's own hunk file"
expect_in "Not clean: the change to these files is made for $UPSTREAM_REF's" "$W/unclean/nat/$LINE/0000-cover-letter.patch" \
    "the unclean backport says so"
# (Compared as text: the letters wrap their lines.)
flat() { paste -sd' ' "$1" | tr -s ' ' > "$2"; }
flat "$W/unclean/nat/$LINE/0000-cover-letter.patch" "$W/unclean/backport-letter.txt"
expect_in "- $NATIVE (patch native)" "$W/unclean/backport-letter.txt" "the unclean backport names the file"
# (Between 99u and the line, the long-term lines that fall between them.)
expect_in "The order is mainline, then 99u, then " "$W/unclean/backport-letter.txt" \
    "the backport letter names the lines in order, newest first"
expect_in "then $LINE." "$W/unclean/backport-letter.txt" \
    "the backport letter names the lines in order, the release's last"
expect_in "Clean: each patch" "$W/unclean/fix/$LINE/0000-cover-letter.patch" "the other topic's backport stays clean"
mv "$W/native.keep" "$F/$NATIVE.patch"
rm "$F/$NATIVE.jdk$FEATURE.patch"
ok "a backport with its release's own hunk file is named not clean, with the file"

section "$P" "$CACHE" > "$W/cache.section"
grep -q '^new file' "$W/cache.section" && fail "Cache.java exists upstream but is marked new"
# The fixture's lines, the copyright line's year, and the ---/+++ headers.
[[ "$(grep -c '^-' "$W/cache.section")" -eq 5 ]] || fail "Cache.java: expected 3 removed lines + the year + the --- header"
[[ "$(grep -c '^+' "$W/cache.section")" -eq 7 ]] || fail "Cache.java: expected 5 added lines + the year + the +++ header"
grep -q 'SPDX' "$W/cache.section" && fail "our SPDX header reached the patch of a file upstream has"
grep -q "^-.*Copyright" "$W/cache.section" || fail "Cache.java: the copyright line's year was not updated"
ok "a whole file upstream has: only our changes and the year, upstream's header kept"
section "$P" "$NEWSRC" > "$W/new.section"
for want in "+ * $NOTICE" "+ * Copyright (c) 2026, Fixture Holder, Inc. All rights reserved." \
            '"Classpath" exception' "+class FixtureNew {}"; do
    expect_in "$want" "$W/new.section" "a new source file carries the GPL + Classpath notice"
done
grep -q 'SPDX' "$W/new.section" && fail "our SPDX line reached a new file in the patch"
section "$P" "$NEWFILE" > "$W/newtest.section"
for want in "+ * $NOTICE" "+ * published by the Free Software Foundation." "+class FixtureTest {}"; do
    expect_in "$want" "$W/newtest.section" "a new test carries the GPL notice"
done
grep -q 'Classpath' "$W/newtest.section" && fail "a new test got the Classpath exception; upstream's tests have none"
grep -q 'SPDX' "$W/newtest.section" && fail "our SPDX line reached a new test in the patch"
section "$P" "$NATIVE" > "$W/native.section"
expect_in "+    fixture_call();" "$W/native.section" "the hunk file's line"
grep -q "^+.*Copyright (c) [0-9]*, $year, $UPSTREAM_COPYRIGHT" "$W/native.section" \
    || fail "the touched upstream file's copyright line does not end in $year"
ok "a new source file gets the GPL + Classpath notice, a new test the GPL notice; a hunk file goes in through git apply"

# make hunk-edit gives the whole patched file; make hunk-save of an edit
# regenerates the hunk file, notes kept, and checks it on every tree.
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-edit FILE="$NATIVE" > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-edit"; }
# (with the series' year in the copyright line, which make hunk-save leaves
# to the series)
cmp -s <(grep -v Copyright "$W/native.new") <(grep -v Copyright "$W/edit/$NATIVE") \
    || fail "make hunk-edit did not write upstream's file with the hunks"
sed -i 's/^    fixture_call();$/    fixture_call(2);/' "$W/edit/$NATIVE"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-save FILE="$NATIVE" > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-save"; }
expect_in "+    fixture_call(2);" "$F/$NATIVE.patch" "make hunk-save wrote the edit's hunk"
expect_in "# Fixture: a call after ConnectEx." "$F/$NATIVE.patch" "make hunk-save kept the notes"
grep -q "Copyright" "$F/$NATIVE.patch" && fail "make hunk-save put the copyright year into the hunk file"
expect_in "applies to $TOPDIR/build/upstream/" "$LOG" "make hunk-save checked the release trees"
# A hunk file for some releases only is checked on those only: a release
# tree it is not for (a stand-in with nothing in it) is passed over.
sed -i "1i # Baselines: $FEATURE" "$F/$NATIVE.patch"
mkdir -p "$W/trees/jdk-1.0.0+1"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" HUNK_CHECK_TREES="$UPSTREAM_DIR $W/trees/jdk-1.0.0+1" \
    hunk-save FILE="$NATIVE" > "$LOG" 2>&1 || { cat "$LOG"; fail "make hunk-save of a hunk file for $FEATURE only"; }
expect_in "not for $W/trees/jdk-1.0.0+1 (its 'Baselines: $FEATURE' line)" "$LOG" \
    "make hunk-save passes over a release its Baselines line leaves out"
expect_in "applies to $UPSTREAM_DIR" "$LOG" "make hunk-save still checks the releases named"
sed -i '1d; s/fixture_call(2);/fixture_call();/' "$F/$NATIVE.patch"
ok "make hunk-edit / hunk-save: the whole file out, the hunk file back, notes kept, Baselines honoured"

# A file several patches change (here three, of two topics): hunk-edit and
# hunk-save need PATCH=<topic>:<id>, and then work on that patch's step
# alone: the file as it leaves it, and its own hunk file.
cp "$F/$CACHE.other.patch" "$W/other.keep"
cp "$F/$CACHE.two.patch" "$W/two.keep"
for target in hunk-edit hunk-save; do
    if patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" "$target" FILE="$CACHE" > "$LOG" 2>&1; then
        cat "$LOG"; fail "make $target of a file three patches change, without PATCH"; fi
    expect_in "$CACHE is changed by 3 patches (fix:one, fix:two, other:other)" "$LOG" "make $target says which patches change it"
    expect_in "PATCH=<topic>:<id>" "$LOG" "make $target says how to name one"
done
for keep in other two; do
    cmp -s "$F/$CACHE.$keep.patch" "$W/$keep.keep" || fail "a refused make hunk-save changed $CACHE.$keep.patch"
done
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-edit FILE="$CACHE" PATCH=other:other > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-edit PATCH=other:other"; }
cmp -s <(grep -v Copyright "$W/Cache.other") <(grep -v Copyright "$W/edit/$CACHE") \
    || fail "make hunk-edit PATCH=other:other did not write upstream's file with other's line alone"
sed -i 's|// fixture: added by topic other$|// fixture: added by topic other, edited|' "$W/edit/$CACHE"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-save FILE="$CACHE" PATCH=other:other > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-save PATCH=other:other"; }
expect_in "+    // fixture: added by topic other, edited" "$F/$CACHE.other.patch" "make hunk-save wrote other's edit into its hunk file"
expect_in "# Fixture: a line of topic other." "$F/$CACHE.other.patch" "make hunk-save kept other's notes"
grep -q "fixture: modified line one\|Copyright" "$F/$CACHE.other.patch" && fail "other's hunk file took fix's lines or the year"
[[ "$(grep -c '^@@' "$F/$CACHE.other.patch")" -eq 1 ]] || fail "other's hunk file: expected its one hunk"
expect_in "applies to $TOPDIR/build/upstream/" "$LOG" "make hunk-save checked the first patch's hunk file on the release trees"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-edit FILE="$CACHE" PATCH=fix:two > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-edit PATCH=fix:two"; }
grep -q "added by topic other" "$W/edit/$CACHE" && fail "make hunk-edit PATCH=fix:two wrote other's line"
grep -q "fixture: added in patch two" "$W/edit/$CACHE" || fail "make hunk-edit PATCH=fix:two lacks patch two's line"
sed -i 's|// fixture: added in patch two$|// fixture: added in patch two, edited|' "$W/edit/$CACHE"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-save FILE="$CACHE" PATCH=fix:two > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-save PATCH=fix:two"; }
expect_in "+    // fixture: added in patch two, edited" "$F/$CACHE.two.patch" "make hunk-save wrote patch two's edit into its hunk file"
grep -q "^[-+].*fixture: modified line one\|added by topic other" "$F/$CACHE.two.patch" \
    && fail "patch two's hunk file took patch one's or other's lines"
cp "$W/other.keep" "$F/$CACHE.other.patch"
cp "$W/two.keep" "$F/$CACHE.two.patch"
ok "make hunk-edit / hunk-save of a file two topics change: refused without PATCH; with it, that patch's step alone"

# Apply to a fresh checkout of the tree; twice is refused; a broken tree
# gets the failing hunk named and stays as it was.
checkout "$UPSTREAM_DIR" "$UPSTREAM_REF" "$P" "$W/a"
patchmake "${FARGS[@]}" apply UPSTREAM="$W/a" > "$LOG" 2>&1 || { cat "$LOG"; fail "make apply of the fixture"; }
diff <(header_of "$W/Cache.upstream") <(header_of "$W/a/$CACHE") > /dev/null \
    || fail "after make apply, Cache.java's header is not upstream's"
before=$(tree_sum "$W/a")
if patchmake "${FARGS[@]}" apply UPSTREAM="$W/a" > "$LOG" 2>&1; then fail "applying twice succeeded"; fi
expect_in "already applied" "$LOG" "a second apply says why it stops"
[[ "$(tree_sum "$W/a")" == "$before" ]] || fail "a refused second apply changed the tree"
checkout "$UPSTREAM_DIR" "$UPSTREAM_REF" "$P" "$W/b"
# the first context line of Cache.java's second hunk (the first is the year)
line=$(sed -n 's/^@@ -\([0-9]*\),.*/\1/p' "$W/cache.section" | sed -n 2p)
sed -i "${line}s/.*/    broken on purpose/" "$W/b/$CACHE"
before=$(tree_sum "$W/b")
if patchmake "${FARGS[@]}" apply UPSTREAM="$W/b" > "$LOG" 2>&1; then fail "applied to a broken tree"; fi
# (5 hunks of fix's two patches, 1 of other's: its year is fix's)
expect_in "hunk 2 of 6 of $CACHE does not apply" "$LOG" "the failing hunk is named"
[[ "$(tree_sum "$W/b")" == "$before" ]] || fail "a failed apply changed the tree (half-applied)"
cmp -s "$W/Cache.all" "$W/a/$CACHE" || fail "make apply did not make all topics' Cache.java"
ok "make apply: applies; a second apply is refused; a failing hunk is named, nothing half-applied"

# Bad input gets a clear error and no patch.
bad() {  # bad <what> <expected message>
    if patchmake "${FARGS[@]}" PATCH_OUTPUTDIR="$W/bad" patch > "$LOG" 2>&1; then cat "$LOG"; fail "$1: make succeeded"; fi
    expect_in "$2" "$LOG" "$1"
    [[ ! -e "$W/bad/fixture.patch" ]] || fail "$1: a failed make patch left a patch behind"
}
cp "$F/$NATIVE.patch" "$W/native.good"
sed -i "s/^ \(.*ConnectEx_func.*\)$/ \1 broken/" "$F/$NATIVE.patch"
bad "a hunk file that does not fit the tree" "$NATIVE.patch: hunk 1 of 1 (@@ -"
expect_in "does not apply to $NATIVE of $UPSTREAM_REF" "$LOG" "the tree is named by its tag"
sed "s|$NATIVE|src/other.c|" "$W/native.good" > "$F/$NATIVE.patch"
bad "a hunk file naming another file" "must patch $NATIVE"
cp "$W/native.good" "$F/$NATIVE.patch"
{ echo "# Baselines: seventeen"; cat "$W/native.good"; } > "$F/$NATIVE.patch"
bad "a Baselines line without versions" "expected feature versions"
cp "$W/native.good" "$F/$NATIVE.patch"
echo "int x;" > "$F/$NATIVE"
bad "a file stored whole and as hunks" "both exist"
rm "$F/$NATIVE"
echo "class Headerless {}" > "$F/$HEADERLESS"
bad "a new file without our header" "$HEADERLESS: new upstream, but it has no leading comment"
rm "$F/$HEADERLESS"
STRAY=src/java.base/share/classes/Stray.java
{ echo "$SPDX_HEADER"; echo "class Stray {}"; } > "$F/$STRAY"
bad "a file in no series" "$STRAY is in no topic's series"
echo "    $STRAY" >> "$TOPICS/fix/series"
echo "    $STRAY" >> "$TOPICS/nat/series"
bad "a file in two patches" "$STRAY is taken by more than one patch: fix:two, nat:native"
rm "$F/$STRAY"
sed -i "\|^    $STRAY\$|d" "$TOPICS/fix/series" "$TOPICS/nat/series"
# other changes the line fix changes (the fixture's line 100, upstream's
# header in place of ours): each topic alone applies, all together not.
clash=$((100 - $(printf '%s\n' "$SPDX_HEADER" | wc -l) + hdr))
sed "${clash}s/.*/    \/\/ fixture: line one of topic other/" "$W/Cache.upstream" > "$W/Cache.clash"
{ echo "# Fixture: a clash."
  git diff --no-index -U3 "$W/Cache.upstream" "$W/Cache.clash" | sed -n '/^@@/,$p' \
      | sed "1i --- a/$CACHE\n+++ b/$CACHE"; } > "$F/$CACHE.other.patch" || true
bad "two topics whose hunks conflict" "$CACHE is changed by topics fix and other, and their changes conflict: patch other of other does not apply on top of fix"
cp "$W/other.keep" "$F/$CACHE.other.patch"
ok "bad input: clear errors, no patch written"

# A line bound for upstream that speaks of this repository stops make patch,
# naming the file, the line and why.
cp "$F/$NEWSRC" "$W/newsrc.good"
echo "// as the stock JDK did" >> "$F/$NEWSRC"
bad "an added line saying 'stock'" "compares with a 'stock' build: // as the stock JDK did"
cp "$W/newsrc.good" "$F/$NEWSRC"
echo "// see make/Fixture.gmk" >> "$F/$NEWSRC"
bad "an added line naming one of our files" "names this repository's make/Fixture.gmk: // see make/Fixture.gmk"
cp "$W/newsrc.good" "$F/$NEWSRC"
patchmake "${FARGS[@]}" patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch after the reference checks"; }
ok "make patch refuses added lines that speak of this repository (words, file names)"

# A topic that depends on another (a dependent pull request upstream):
# "after" changes a line that fix's patch two added, so its series is made
# on fix's head and applies after fix's; "after" sorts before "fix", so the
# order must come from the dependency. It comes along with TOPICS=after,
# not with TOPICS=fix; an unknown topic, a cycle and a misplaced line are
# errors naming the series file's line.
mkdir -p "$TOPICS/after"
printf '%s\n' 'list after-dev@example.org' 'depends fix' 'patch after NNNNNNN: Fixture after change' \
    "    $CACHE.after.patch" > "$TOPICS/after/series"
printf '%s\n' 'NNNNNNN: The after fixture' '' 'One patch.' > "$TOPICS/after/cover-letter.md"
printf '%s\n' 'Title: the after fixture' '' '@DEPENDS@' > "$TOPICS/after/jbs.md"
printf '%s\n' "--- a/$CACHE" "+++ b/$CACHE" "@@ -100,3 +100,3 @@" \
    "     // fixture: modified line one" "-    // fixture: added in patch two" \
    "+    // fixture: changed by topic after" "     // fixture: modified line two" > "$F/$CACHE.after.patch"
cp "$F/$CACHE.after.patch" "$W/after.keep"
D="$W/dep"
patchmake "${FARGS[@]}" PATCH_OUTPUTDIR="$D" patch > "$W/dep-patch.txt" 2>&1 \
    || { cat "$W/dep-patch.txt"; fail "make patch with a topic that depends on another"; }
for line in mainline "$LINE"; do
    A="$D/after/$line/0001-NNNNNNN-Fixture-after-change.patch"
    [[ -f "$A" ]] || fail "series after/$line: no patch"
    [[ "$(cat "$D/after/$line/depends")" == fix ]] || fail "series after/$line: its file 'depends' does not name fix"
    [[ ! -e "$D/fix/$line/depends" ]] || fail "series fix/$line has a file 'depends'"
    expect_in "-    // fixture: added in patch two" "$A" "after's series is against fix's head"
    grep -q "^+.*fixture: modified line one" "$A" && fail "series after/$line holds fix's lines"
    # git am after fix's series (the file 'depends' names them, as for
    # series-check and jcheck); alone onto the tag it does not apply.
    checkout "$UPSTREAM_DIR" "$UPSTREAM_REF" "$D/fixture.patch" "$W/dep-alone"
    if git -C "$W/dep-alone" -c user.name=t -c user.email=t@t am -q "$A" > "$LOG" 2>&1; then
        fail "series after/$line git-ams onto $UPSTREAM_REF without fix's"; fi
    checkout "$UPSTREAM_DIR" "$UPSTREAM_REF" "$D/fixture.patch" "$W/dep-am"
    series_prerequisites "$D/after/$line" || fail "series after/$line: no prerequisites"
    [[ "${#SERIES_PREREQUISITES[@]}" -eq 2 && "${SERIES_PREREQUISITES[0]}" == "$D/fix/$line/0001-"* ]] \
        || fail "series after/$line: its prerequisites are not fix's two patches: ${SERIES_PREREQUISITES[*]}"
    git -C "$W/dep-am" -c user.name=t -c user.email=t@t am -q "${SERIES_PREREQUISITES[@]}" "$A" \
        > "$LOG" 2>&1 || { cat "$LOG"; fail "series after/$line does not git-am after fix's"; }
    expect_in "    // fixture: changed by topic after" "$W/dep-am/$CACHE" "after fix's and after's series"
    grep -q "added in patch two" "$W/dep-am/$CACHE" && fail "after's series left fix's line it replaces"
done
# Dependency order, not the names': fix's series first, in the output and in
# each line's file of all topics.
order=$(sed -n "s|^Wrote $D/\([a-z]*\)/mainline:.*|\1|p" "$W/dep-patch.txt" | paste -sd' ')
[[ "$order" == "fix after nat other" ]] || fail "make patch wrote the series in the order $order"
for whole in "$D/fixture.patch" "$D/fixture-mainline.patch"; do
    order=$(sed -n 's/^Subject: .*Fixture \(change two\|after change\)$/\1/p' "$whole" | paste -sd,)
    [[ "$order" == "change two,after change" ]] || fail "$whole: fix and after in the order $order"
done
checkout "$UPSTREAM_DIR" "$UPSTREAM_REF" "$D/fixture.patch" "$W/dep-all"
"$PYTHON" "$TOPDIR/webrev/webrev.py" apply --patch "$D/fixture.patch" --upstream "$W/dep-all" > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "the file of all topics, after's included, does not apply"; }
expect_in "    // fixture: changed by topic after" "$W/dep-all/$CACHE" "the file of all topics holds after's change"
# The letters say it, as OpenJDK's dependent pull requests do.
flat "$D/after/mainline/0000-cover-letter.patch" "$W/dep-letter.txt"
# (a letter without @DEPENDS@ opens with its sentence; jbs.md has it)
DEPENDS="This pull request depends on the one for NNNNNNN: The fixture series."
expect_in "Subject: [PATCH 0/1] NNNNNNN: The after fixture $DEPENDS One patch." "$W/dep-letter.txt" \
    "the dependent's letter opens naming the pull request it depends on"
[[ "$(grep -o "depends on" "$W/dep-letter.txt" | wc -l)" -eq 1 ]] || fail "the dependent's letter says it depends more than once"
flat "$D/after/mainline/jbs.md" "$W/dep-jbs.txt"
expect_in "$DEPENDS" "$W/dep-jbs.txt" "@DEPENDS@ says which pull request it depends on"
grep -q "depends on" "$D/fix/mainline/0000-cover-letter.patch" && fail "fix's letter says it depends on something"
flat "$D/after/$LINE/0000-cover-letter.patch" "$W/dep-backport.txt"
expect_in "This backport depends on the backport of NNNNNNN: The fixture series to $LINE." "$W/dep-backport.txt" \
    "the dependent backport's letter names the backport it depends on"
expect_in "The series applies to $UPSTREAM_REF on top of the backport of NNNNNNN: The fixture series." \
    "$W/dep-backport.txt" "the dependent backport's letter says what it applies to"
ok "a topic that depends on another: its series against that one's head, git am after its series, dependency order, letters say so"

# TOPICS=after (webrev.py --only-topics) brings fix along; TOPICS=fix alone
# is fix alone.
patchmake "${FARGS[@]}" PATCH_OUTPUTDIR="$W/dep-only" TOPICS=after patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch TOPICS=after"; }
expect_in "after depends on fix: its series is made too" "$LOG" "TOPICS=after says it makes fix's series too"
[[ "$(cd "$W/dep-only" && echo */)" == "after/ fix/" ]] || fail "TOPICS=after wrote the series of $(cd "$W/dep-only" && echo */)"
expect_in "    // fixture: changed by topic after" <(git -C "$W/ps/repo.git" show "patched:$CACHE") \
    "the tree of TOPICS=after holds after's change"
patchmake "${FARGS[@]}" PATCH_OUTPUTDIR="$W/dep-only" TOPICS=fix patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch TOPICS=fix"; }
[[ "$(cd "$W/dep-only" && echo */)" == "fix/" ]] || fail "TOPICS=fix wrote the series of $(cd "$W/dep-only" && echo */)"
ok "TOPICS=after includes fix, which it depends on; TOPICS=fix stays fix alone"

# hunk-edit / hunk-save of after's patch: the file as fix's series and after's
# patch leave it, and a hunk file against fix's head.
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-edit FILE="$CACHE" PATCH=after:after > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-edit PATCH=after:after"; }
for want in "fixture: modified line one" "fixture: changed by topic after"; do
    expect_in "$want" "$W/edit/$CACHE" "make hunk-edit PATCH=after:after has fix's and after's lines"
done
grep -q "added in patch two\|added by topic other" "$W/edit/$CACHE" && fail "make hunk-edit PATCH=after:after has a line it should not"
sed -i 's|// fixture: changed by topic after$|// fixture: changed by topic after, edited|' "$W/edit/$CACHE"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-save FILE="$CACHE" PATCH=after:after > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-save PATCH=after:after"; }
expect_in "-    // fixture: added in patch two" "$F/$CACHE.after.patch" "after's hunk file is against fix's head"
expect_in "+    // fixture: changed by topic after, edited" "$F/$CACHE.after.patch" "make hunk-save wrote after's edit"
grep -q "^[-+].*fixture: modified line one\|Copyright" "$F/$CACHE.after.patch" && fail "after's hunk file took fix's lines or the year"
patchmake "${FARGS[@]}" PATCH_OUTPUTDIR="$D" patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch after make hunk-save PATCH=after:after"; }
# A new topic's first hunk file: its series names it before it exists, or
# while it holds its notes only; hunk-edit and hunk-save take that.
rm "$F/$CACHE.after.patch"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-edit FILE="$CACHE" PATCH=after:after > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-edit PATCH=after:after before its hunk file exists"; }
expect_in "names $CACHE.after.patch, which matches no file yet" "$LOG" "make hunk-edit notes the missing hunk file"
expect_in "    // fixture: added in patch two" "$W/edit/$CACHE" "make hunk-edit of a patch with no hunks yet gives fix's file"
sed -i 's|// fixture: added in patch two$|// fixture: changed by topic after|' "$W/edit/$CACHE"
echo "# Fixture: after's notes." > "$F/$CACHE.after.patch"
patchmake "${FARGS[@]}" HUNK_EDIT_DIR="$W/edit" hunk-save FILE="$CACHE" PATCH=after:after > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make hunk-save PATCH=after:after into a hunk file of notes only"; }
expect_in "$CACHE.after.patch holds no hunks yet" "$LOG" "make hunk-save notes the hunk file of notes only"
[[ "$(grep '^[-+]' "$F/$CACHE.after.patch" | paste -sd'|')" == "$(grep '^[-+]' "$W/after.keep" | paste -sd'|')" ]] \
    || fail "make hunk-save of a new hunk file did not write after's change against fix's head"
expect_in "# Fixture: after's notes." "$F/$CACHE.after.patch" "make hunk-save kept the new hunk file's notes"
cp "$W/after.keep" "$F/$CACHE.after.patch"
ok "make hunk-edit / hunk-save of a dependent topic's patch: on top of the series it depends on, also before its hunk file is written"

cp "$TOPICS/after/series" "$W/after-series.keep"
cp "$TOPICS/fix/series" "$W/fix-series.keep"
sed -i 's/^depends fix$/depends nosuch/' "$TOPICS/after/series"
bad "a topic that depends on no topic" "$TOPICS/after/series:2: depends on nosuch, which is no topic (topics: after, fix, nat, other)"
cp "$W/after-series.keep" "$TOPICS/after/series"
sed -i '1a depends after' "$TOPICS/fix/series"
bad "topics that depend on each other" "$TOPICS/after/series:2: depends on fix: a cycle (after -> fix -> after)"
cp "$W/fix-series.keep" "$TOPICS/fix/series"
echo "depends fix" >> "$TOPICS/after/series"
bad "a 'depends' line after a patch" "$TOPICS/after/series:5: 'depends' after a 'patch' line"
cp "$W/after-series.keep" "$TOPICS/after/series"
sed -i '2a depends nat' "$TOPICS/after/series"
bad "two 'depends' lines" "$TOPICS/after/series:3: a second 'depends' line"
rm -r "$TOPICS/after" "$F/$CACHE.after.patch"
ok "a bad 'depends' line (no such topic, a cycle, after a patch, a second one) is an error naming its line"

# ---------------------------------------------------------------- the real set
# The patch set for every release tree configure fetched; the one this
# configuration does not use gets its feature version from its tag. Each
# time, the mainline series against the configuration's mainline tree too.
MAINLINE_DIR="$(spec_var MAINLINE_DIR)"
MAINLINE_REF="$(spec_var MAINLINE_REF)"
MAINLINE_FEATURE="$(spec_var MAINLINE_FEATURE)"
[[ -d "$MAINLINE_DIR/.git" ]] || fail "no mainline tree: MAINLINE_DIR='$MAINLINE_DIR' (re-run configure)"
mainline_checked=0
trees=0
for want in jdk-25.0.3+9 jdk-17.0.19+10; do
    T="$TOPDIR/build/upstream/$want"
    if [[ ! -d "$T/.git" ]]; then
        echo "note: skipping $want: $T is missing (bash configure for that base JDK fetches it)"
        continue
    fi
    trees=$((trees + 1))
    feature=${want#jdk-}
    feature=${feature%%.*}
    echo "== the patch set against $want"
    R="$W/real-$want"
    ARGS=(BOOT_JDK_FEATURE="$feature" UPSTREAM_DIR="$T" UPSTREAM_REF="$want" PATCH_OUTPUTDIR="$R/patch"
          PATCHSET_WORKDIR="$R/ps" UPSTREAM_ORIGIN="build/upstream/$want" RELEASE_LINE="${feature}u")
    patchmake "${ARGS[@]}" patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch against $want"; }
    PR="$R/patch/java.base-jdk$feature.patch"
    # A copyright line may change its last year only, or gain one (a single
    # year, "2018, ", becomes "2018, 2026, ").
    year_free() { sed -E 's/^[-+]//; s/(Copyright \(c\) [0-9]{4}), ([0-9]{4}, )?/\1, YEAR, /' | LC_ALL=C sort -u; }
    gone=$(LC_ALL=C comm -23 <(grep "^-.*$UPSTREAM_COPYRIGHT" "$PR" | year_free) \
                             <(grep "^+.*$UPSTREAM_COPYRIGHT" "$PR" | year_free))
    [[ -z "$gone" ]] || fail "the patch against $want deletes an upstream copyright line: $gone"
    checkout "$T" "$want" "$PR" "$R/tree"
    patchmake "${ARGS[@]}" apply UPSTREAM="$R/tree" > "$LOG" 2>&1 || { cat "$LOG"; fail "make apply to $want"; }
    ok "make apply: the patch set applies to a fresh checkout of $want"
    # Every series git-ams onto its tree: the backports onto this release's,
    # the mainline series (the same for every release) onto the mainline
    # tree, once; and the mainline series in one file applies there.
    PM="$R/patch/java.base-jdk$MAINLINE_FEATURE.patch"
    [[ -f "$PM" ]] || fail "$want: make patch wrote no $(basename "$PM")"
    if ((!mainline_checked)); then
        checkout "$MAINLINE_DIR" "$MAINLINE_REF" "$PM" "$R/mainline-tree"
        # What make apply PATCH_FILE=... runs, without making the series again.
        "$PYTHON" "$TOPDIR/webrev/webrev.py" apply --patch "$PM" --upstream "$R/mainline-tree" > "$LOG" 2>&1 \
            || { cat "$LOG"; fail "make apply of the mainline series to $MAINLINE_REF"; }
        ok "make apply: the mainline series in one file apply to a fresh checkout of $MAINLINE_REF"
    fi
    lines=()
    for letter in "$R"/patch/*/*/0000-cover-letter.patch; do
        dir=$(dirname "$letter")
        line=$(basename "$dir")
        name=$(basename "$(dirname "$dir")")/$line
        case "$line" in
            mainline) ((!mainline_checked)) || continue
                      tree=$MAINLINE_DIR ref=$MAINLINE_REF whole=$PM ;;
            "${feature}u") tree=$T ref=$want whole=$PR ;;
            *) fail "$want: a series for $line: $dir" ;;
        esac
        lines+=("$line")
        checkout "$tree" "$ref" "$whole" "$R/am-${name/\//-}"
        # (a topic that depends on others: after their series)
        series_prerequisites "$dir" || fail "$want: series $name: the series it depends on are missing"
        series=("${SERIES_PREREQUISITES[@]}")
        after=${series[*]:+ after the series of $(paste -sd' ' "$dir/depends")}
        for f in "$dir"/0*.patch; do
            [[ "$f" == */0000-cover-letter.patch ]] || series+=("$f")
        done
        git -C "$R/am-${name/\//-}" -c user.name=t -c user.email=t@t am -q "${series[@]}" \
            > "$LOG" 2>&1 || { cat "$LOG"; fail "git am of series $name onto $ref"; }
        if [[ "$line" != mainline ]]; then
            # Each commit says what it backports.
            git -C "$R/am-${name/\//-}" log --format='%s%x01%b%x00' "$ref..HEAD" \
                | "$PYTHON" -c '
import sys
for entry in sys.stdin.read().split("\0"):
    if entry.strip():
        subject, body = entry.strip("\n").split("\1")
        if " ".join(body.split()) != "Backport of " + subject:
            sys.exit("%r does not say: Backport of %s" % (body, subject))' \
                || fail "a commit of $name does not say what it backports"
            expect_in "Backport of the mainline change" "$letter" "the cover letter of $name says what it backports"
        fi
        ok "series $name git-ams${after:- alone} onto a fresh clone of $ref$after"
    done
    [[ " ${lines[*]} " == *" ${feature}u "* ]] || fail "$want: make patch wrote no ${feature}u series"
    mainline_checked=1

    # The cache's two topics (the core, EqualByteArray Comparable) each
    # change Cache.java and apply alone (their series git-am'd above, each
    # onto a fresh clone); make apply's file holds both: each topic's change
    # of Cache.java is in the file it made, which is all topics' tree.
    for topic in cache equal-byte-array; do
        for line in mainline "${feature}u"; do
            dir="$R/patch/$topic/$line"
            [[ -f "$dir/0000-cover-letter.patch" ]] || fail "$want: make patch wrote no $topic/$line series"
            cat "$dir"/000[1-9]-*.patch | grep -qxF "diff --git a/$CACHE b/$CACHE" \
                || fail "$want: series $topic/$line does not change $CACHE"
        done
        mapfile -t reversed < <(ls -r "$R/patch/$topic/${feature}u"/000[1-9]-*.patch)
        git -C "$R/tree" apply --check -R --include="$CACHE" "${reversed[@]}" > "$LOG" 2>&1 \
            || { cat "$LOG"; fail "$want: the applied $CACHE lacks the change of series $topic/${feature}u"; }
    done
    git -C "$R/ps/repo.git" show "patched:$CACHE" > "$R/Cache.all"
    cmp -s "$R/Cache.all" "$R/tree/$CACHE" \
        || fail "$want: make apply's $CACHE is not all topics' (refs/heads/patched)"
    ok "$want: cache and equal-byte-array both change Cache.java, each series alone; make apply's file makes both changes"

    # The cache's pull requests stay ones a reviewer reads gladly: the core's
    # mainline series changes at most 180 lines of Cache.java, and its series,
    # cover letter aside, at most 600 with its tests; EqualByteArray's at most
    # 200. Every mainline letter is a pull request's body with a JBS text
    # beside it; the backport letters name the backports' order, 21u
    # included, and say that no 21u tree was available.
    changed=$(cat "$R"/patch/cache/mainline/000[1-9]-*.patch | git apply --numstat --include="$CACHE" - \
              | awk '{ n += $1 + $2 } END { print n + 0 }')
    ((changed > 0 && changed <= 180)) || fail "$want: the core changes $changed lines of Cache.java (budget 180)"
    sizes=""
    for topic_budget in cache:600 equal-byte-array:200; do
        topic=${topic_budget%%:*} budget=${topic_budget##*:}
        for line in mainline "${feature}u"; do
            all=$(cat "$R"/patch/"$topic"/"$line"/000[1-9]-*.patch | git apply --numstat - | awk '{ n += $1 + $2 } END { print n }')
            ((all <= budget)) || fail "$want: the $topic series for $line changes $all lines (budget $budget)"
        done
        sizes+="$topic $all; "
        paste -sd' ' "$R/patch/$topic/${feature}u/0000-cover-letter.patch" | tr -s ' ' > "$R/letter.txt"
        expect_in "The order is mainline, then 25u, then 21u, then 17u." "$R/letter.txt" \
            "the $topic backport letter names the backports' order"
        expect_in "No 21u tree was available" "$R/letter.txt" "the $topic backport letter says 21u's tree was missing"
    done
    for dir in "$R"/patch/*/mainline; do
        [[ -s "$dir/jbs.md" ]] || fail "$want: $dir has no JBS text"
        grep -q '^### Backports' "$dir/0000-cover-letter.patch" && fail "$want: $dir's letter has a Backports section"
    done
    ok "$want: the core changes $changed lines of Cache.java; changed lines per series: ${sizes%; }"

    # The TLS flight's core stays at most 80 changed lines of java.base,
    # copyright years aside (the tool bumps them).
    for line in mainline "${feature}u"; do
        core=$(awk '/^diff --git / { java_base = ($3 ~ /^a\/src\/java.base\//) }
                    java_base && /^[-+]/ && !/^(\+\+\+|---) / && !/Copyright \(c\)/ { n++ }
                    END { print n + 0 }' "$R"/patch/tls-flight/"$line"/000[1-9]-*.patch)
        ((core > 0 && core <= 80)) \
            || fail "$want: the tls-flight series for $line changes $core lines of java.base (budget 80)"
        # tls-first-data, made on top of tls-flight: at most 60 of its own.
        first=$(awk '/^diff --git / { java_base = ($3 ~ /^a\/src\/java.base\//) }
                    java_base && /^[-+]/ && !/^(\+\+\+|---) / && !/Copyright \(c\)/ { n++ }
                    END { print n + 0 }' "$R"/patch/tls-first-data/"$line"/000[1-9]-*.patch)
        ((first > 0 && first <= 60)) \
            || fail "$want: the tls-first-data series for $line changes $first lines of java.base (budget 60)"
    done
    ok "$want: the tls-flight series change $core lines of java.base, copyright years aside (budget 80); tls-first-data $first (budget 60)"

    diff <(upstream_file "$T" "$want" "$CACHE" | header_of /dev/stdin) \
         <(header_of "$R/tree/$CACHE") > /dev/null \
        || fail "$want: the applied Cache.java does not start with upstream's header"
    ok "$want: Cache.java keeps upstream's copyright and licence header"

    BENCH=test/micro/org/openjdk/bench/java/security/CacheBench.java
    methods() { awk '/^ *@Benchmark *$/ { b = 1; next } b && /public/ { sub(/\(.*/, ""); print $NF; b = 0 }' "$1" | LC_ALL=C sort; }
    upstream_file "$T" "$want" "$BENCH" > "$R/bench.upstream"
    methods "$R/bench.upstream" > "$R/bench.upstream.methods"
    methods "$R/tree/$BENCH" > "$R/bench.applied.methods"
    [[ -s "$R/bench.upstream.methods" ]] || fail "$want: no benchmarks found in upstream's CacheBench"
    missing=$(LC_ALL=C comm -23 "$R/bench.upstream.methods" "$R/bench.applied.methods")
    [[ -z "$missing" ]] || fail "$want: CacheBench lost upstream's benchmarks: $missing"
    diff <(header_of "$R/bench.upstream") <(header_of "$R/tree/$BENCH") > /dev/null \
        || fail "$want: CacheBench's upstream header changed"
    ok "$want: CacheBench keeps upstream's header and benchmarks ($(paste -sd' ' "$R/bench.upstream.methods"))"

    n=0
    while read -r f; do
        n=$((n + 1))
        grep -qF "$NOTICE" "$R/tree/$f" || fail "$want: new file $f lacks the GPL notice"
        case "$f" in
            test/*) grep -q 'Classpath' "$R/tree/$f" && fail "$want: new test $f has the Classpath exception" ;;
            *) grep -q '"Classpath" exception' "$R/tree/$f" || fail "$want: new file $f lacks the Classpath exception" ;;
        esac
        grep -q 'SPDX-License-Identifier' "$R/tree/$f" && fail "$want: new file $f still has our SPDX line"
    done < <(awk '/^diff --git / { p = $3; sub(/^a\//, "", p) } /^new file mode/ { print p }' "$PR")
    ok "$want: all $n new files carry the GPL notice (with the Classpath exception outside test/)"
done
((trees > 0)) || skip "neither release tree is under $TOPDIR/build/upstream (bash configure fetches them)"

echo "PASSED"
