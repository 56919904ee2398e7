#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make:TestPatch - `make patch` and `make apply`.
#
# A fixture patch set (built here from the base JDK's own Cache.java, so the
# test does not depend on what the patch set holds today) pins down the patch
# format, the selection rules and bad input; then the real patch set is made
# and applied to a synthetic upstream tree (the Java files of the base JDK's
# src.zip at their checkout paths). Both include a hunk that must fail, and
# check that a failed apply leaves the tree exactly as it was.
#
# Run by make test TEST=make:TestPatch with the spec's variables in the
# environment and a scratch directory in TEST_WORK_DIR; exit 0 passed,
# 1 failed, 77 skipped.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"
PYTHON="$(spec_var PYTHON)"
ZIP="$(spec_var BOOT_JDK_SRC_ZIP)"
FEATURE="$(spec_var BOOT_JDK_FEATURE)"
VERSION="$(spec_var BOOT_JDK_VERSION)"
ORIGIN="$(spec_var BOOT_JDK_SRC_ORIGIN)"
[[ -n "$ZIP" && -f "$ZIP" ]] || skip "the base JDK has no src.zip (BOOT_JDK_SRC_ZIP='$ZIP')"
[[ -x "$PYTHON" ]] || fail "PYTHON='$PYTHON' is not executable"

TOOL="$TOPDIR/webrev/webrev.py"
# A directory of our own inside the scratch one, emptied first so a rerun is
# not misled by what an earlier run left (and nothing else there is touched).
W="$TEST_WORK_DIR/TestPatch"
rm -rf "${W:?}" && mkdir -p "$W"
LOG="$W/out.txt"

patchmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Patch.gmk" SPEC="$SPEC" "$@"; }
tree_sum() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum | md5sum); }
# The paths a patch changes, in its order.
patch_paths() { sed -n 's|^diff --git a/\(.*\) b/.*$|\1|p' "$1"; }
# One file's section of a patch, from its "diff --git" line to the next.
section() {
    awk -v p="diff --git a/$2 b/$2" '
        /^diff --git / { on = ($0 == p) } on { print }' "$1"
}
expect_in() { grep -qF -- "$1" "$2" || fail "$3: '$1' not in $2"; }

echo "== synthetic upstream tree from $ZIP"
"$PYTHON" "$TOOL" synth-upstream --zip "$ZIP" --output "$W/pristine" > "$LOG"
[[ -f "$W/pristine/src/java.base/share/classes/sun/security/util/Cache.java" ]] \
    || fail "synthetic tree lacks sun/security/util/Cache.java"
fresh() { rm -rf "${W:?}/$1"; cp -a "$W/pristine" "$W/$1"; }

# ---------------------------------------------------------------- fixture
echo "== fixture patch set"
F="$W/fixture"
CACHE=src/java.base/share/classes/sun/security/util/Cache.java
HELPER=src/java.base/windows/native/libnet/fixturehelper.c
HUNKS=src/java.base/windows/native/libnio/ch/FixtureNet.c
TESTFILE=test/jdk/sun/security/util/Cache/FixtureTest.java
LIBFILE=test/lib/jdk/test/fixture/FixtureLib.java
MICROFILE=test/micro/org/openjdk/bench/java/security/FixtureBench.java
mkdir -p "$F/$(dirname "$CACHE")" "$F/$(dirname "$HELPER")" "$F/$(dirname "$HUNKS")" \
    "$F/$(dirname "$TESTFILE")" "$F/$(dirname "$LIBFILE")" "$F/$(dirname "$MICROFILE")" \
    "$F/make" "$F/doc" "$F/test/make" "$F/test/native" "$F/webrev"
cp "$W/pristine/$CACHE" "$F/$CACHE"
# Two lines replaced, three inserted, one deleted, far apart so that any
# correct diff sees exactly these changes.
sed -i -e '100s/.*/    \/\/ fixture: modified line one/' \
       -e '101s/.*/    \/\/ fixture: modified line two/' \
       -e '300a\    // fixture: inserted one\n    // fixture: inserted two\n    // fixture: inserted three' \
       -e '500d' "$F/$CACHE"
printf '/* fixture helper */\nint fixture_helper(void) { return 0; }\n' > "$F/$HELPER"
cat > "$F/$HUNKS.patch" <<'EOF'
Fixture: call the helper before connecting.
--- a/src/java.base/windows/native/libnio/ch/FixtureNet.c
+++ b/src/java.base/windows/native/libnio/ch/FixtureNet.c
@@ -10,6 +10,7 @@ connect0(JNIEnv *env)
     int rv;
     SOCKADDR sa;
     int sa_len = 0;
+    fixture_helper();
 
     if (to_sockaddr(env, &sa, &sa_len) != 0) {
         return IOS_THROWN;
@@ -40,4 +41,3 @@ connect0(JNIEnv *env)
     if (rv != 0) {
-        old_call();
-        return 1;
+        return 2;
     }
EOF
for f in "$TESTFILE" "$LIBFILE" "$MICROFILE"; do echo "class $(basename "$f" .java) {}" > "$F/$f"; done
mkdir -p "$F/test/jdk/build"
for f in test/jdk/TEST.ROOT test/jdk/TEST.groups test/jdk/build/FixtureImageTest.java \
         make/Fixture.gmk doc/fixture.md \
         test/make/TestFixture.sh test/native/fixture_test.c webrev/fixture.py README.md; do
    echo "not part of the patch set" > "$F/$f"
done
# Hunks for one release only: Legacy.c counts for this base JDK alone,
# Future.c for all others (patchset.rules: "unless jdkN", "if jdkN").
LEGACY=src/java.base/windows/native/libnet/Legacy.c
FUTURE=src/java.base/windows/native/libnet/Future.c
sed "s|$HUNKS|$LEGACY|" "$F/$HUNKS.patch" > "$F/$LEGACY.patch"
sed "s|$HUNKS|$FUTURE|" "$F/$HUNKS.patch" > "$F/$FUTURE.patch"
# And a hunk file that says so of itself: for JDK 1 only.
ONLY1=src/java.base/windows/native/libnet/OnlyOne.c
{ echo "# Baselines: 1"; sed "s|$HUNKS|$ONLY1|" "$F/$HUNKS.patch"; } > "$F/$ONLY1.patch"
RULES="$W/fixture.rules"
{
    echo "exclude $LEGACY.patch unless jdk$FEATURE"
    echo "exclude $FUTURE.patch if jdk$FEATURE"
    cat "$TOPDIR/webrev/patchset.rules"
} > "$RULES"
echo '*.orig' > "$F/.gitignore"
echo "ignored" > "$F/$CACHE.orig"
git -C "$F" init -q
git -C "$F" add -A
git -C "$F" -c user.name=t -c user.email=t@t commit -qm fixture
echo "untracked, not ignored" > "$F/$TESTFILE.untracked.java"

patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch on the fixture"; }
P="$W/out/fixture.patch"
[[ -s "$P" ]] || fail "make patch wrote no $P"
ok "make patch wrote $P"

printf '%s\n' "$CACHE" "$HELPER" "$HUNKS" "$LEGACY" "$LIBFILE" "$MICROFILE" "$TESTFILE" \
    "$TESTFILE.untracked.java" | LC_ALL=C sort > "$W/expected-paths"
patch_paths "$P" > "$W/actual-paths"
diff -u "$W/expected-paths" "$W/actual-paths" \
    || fail "the patch does not hold exactly the selected files (src/, test/jdk, test/lib, test/micro; not TEST.ROOT/TEST.groups, test/jdk/build, make, doc, test/make, test/native, webrev, ignored files)"
LC_ALL=C sort -c "$W/actual-paths" || fail "the patch's files are not in path order"
ok "the patch holds exactly the patch set's files, in path order"
expect_in "  $FUTURE.patch   (fixture.rules: exclude $FUTURE.patch if jdk$FEATURE)" "$P" \
    "the patch says which file it left out for this base JDK, and by which rule"
expect_in "  $ONLY1.patch   (its 'Baselines: 1' line)" "$P" \
    "the patch says which hunk file its Baselines line left out"
grep -q "$LEGACY.patch   (" "$P" && fail "a file kept for this base JDK is listed as left out"
patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/other" BOOT_JDK_FEATURE=1 \
    patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch for another base JDK"; }
patch_paths "$W/other/java.base-jdk1.patch" > "$W/other-paths"
grep -qxF "$LEGACY" "$W/other-paths" && fail "a hunk file for JDK $FEATURE only is in the patch for JDK 1"
grep -qxF "$FUTURE" "$W/other-paths" || fail "a hunk file for all but JDK $FEATURE is not in the patch for JDK 1"
grep -qxF "$ONLY1" "$W/other-paths" || fail "a hunk file with 'Baselines: 1' is not in the patch for JDK 1"
ok "release-specific rules: each file only in the patch for the base JDKs it is for"

expect_in "JDK $VERSION" "$P" "the patch header names the baseline version"
expect_in "$ORIGIN" "$P" "the patch header names where the baseline came from"

section "$P" "$CACHE" > "$W/cache.section"
expect_in "--- a/$CACHE" "$W/cache.section" "Cache.java is diffed against the baseline"
expect_in "+++ b/$CACHE" "$W/cache.section" "Cache.java header"
grep -q '^index [0-9a-f]\{40\}\.\.[0-9a-f]\{40\} 100644$' "$W/cache.section" \
    || fail "Cache.java has no git index line (blob ids let git apply --3way work)"
grep -q '^new file mode' "$W/cache.section" && fail "Cache.java exists in the baseline but is marked new"
[[ "$(grep -c '^-' "$W/cache.section")" -eq 4 ]] || fail "Cache.java: expected 3 removed lines + the --- header"
[[ "$(grep -c '^+' "$W/cache.section")" -eq 6 ]] || fail "Cache.java: expected 5 added lines + the +++ header"
section "$P" "$HELPER" > "$W/helper.section"
expect_in "new file mode 100644" "$W/helper.section" "a native file not in src.zip is new"
expect_in "--- /dev/null" "$W/helper.section" "a new file is diffed against /dev/null"
expect_in "@@ -0,0 +1,2 @@" "$W/helper.section" "the new file's hunk"
section "$P" "$HUNKS" > "$W/hunks.section"
expect_in "--- a/$HUNKS" "$W/hunks.section" "the hunk file gets git-style a/ headers"
sed -n '/^@@/,$p' "$F/$HUNKS.patch" > "$W/hunks.expected"
sed -n '/^@@/,$p' "$W/hunks.section" > "$W/hunks.actual"
cmp -s "$W/hunks.expected" "$W/hunks.actual" || fail "the hunk file's hunks are not in the patch as they are"
grep -q "^Fixture: call the helper" "$P" && fail "the hunk file's comment must not reach a diff section unindented"
ok "headers, blob ids, /dev/null for new files, hunk files taken as they are"

# Apply: the Java part on the synthetic tree, the native part not checked.
fresh a
patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/a" \
    > "$LOG" 2>&1 || { cat "$LOG"; fail "make apply on the synthetic tree"; }
cat "$LOG"
cmp -s "$F/$CACHE" "$W/a/$CACHE" || fail "after make apply, Cache.java differs from the patch set's"
cmp -s "$F/$TESTFILE" "$W/a/$TESTFILE" || fail "after make apply, the new test file is missing or differs"
expect_in "not checked: $HUNKS" "$LOG" "native hunks without an upstream file are reported"
expect_in "not checked: $HELPER" "$LOG" "new native files go with the native hunks"
[[ -e "$W/a/$HELPER" ]] && fail "a native file was applied to a tree without native sources"
ok "make apply: the Java files apply to the synthetic tree; native ones reported as not checked"

before=$(tree_sum "$W/a")
if patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/a" \
    > "$LOG" 2>&1; then fail "applying twice succeeded"; fi
expect_in "already applied" "$LOG" "a second apply says why it stops"
[[ "$(tree_sum "$W/a")" == "$before" ]] || fail "a refused second apply changed the tree"
ok "a second make apply is refused and changes nothing"

# A Java hunk that does not apply.
fresh b
line=$("$PYTHON" "$TOOL" context-line --patch "$P" --path "$CACHE")
sed -i "${line}s/.*/    broken on purpose/" "$W/b/$CACHE"
before=$(tree_sum "$W/b")
if patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/b" \
    > "$LOG" 2>&1; then cat "$LOG"; fail "make apply succeeded on a tree where a hunk cannot apply"; fi
cat "$LOG"
expect_in "hunk 1 of 3 of $CACHE does not apply" "$LOG" "the failing hunk is named"
expect_in "nothing changed" "$LOG" "the error says nothing was applied"
[[ "$(tree_sum "$W/b")" == "$before" ]] || fail "a failed apply changed the tree (half-applied)"
[[ -e "$W/b/$TESTFILE" ]] && fail "a failed apply still created a new file"
ok "a failing hunk is named and nothing is half-applied"

# Native hunks are checked when the tree has native sources: stand-in
# upstream files made of each hunk's old side at its line.
fresh c
"$PYTHON" "$TOOL" fake-native --patch "$P" --output "$W/c" > "$LOG"
cp -a "$W/c" "$W/d"
patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/c" \
    > "$LOG" 2>&1 || { cat "$LOG"; fail "make apply with native sources present"; }
expect_in "applied: $HUNKS" "$LOG" "native hunks are applied when UPSTREAM has the file"
grep -q "not checked" "$LOG" && fail "native files reported as not checked although UPSTREAM has them"
grep -q "^    fixture_helper();$" "$W/c/$HUNKS" || fail "the native hunk's added line is not in $HUNKS"
grep -q "old_call" "$W/c/$HUNKS" && fail "the native hunk's removed line is still in $HUNKS"
cmp -s "$F/$HELPER" "$W/c/$HELPER" || fail "the new native file was not written"
line=$("$PYTHON" "$TOOL" context-line --patch "$P" --path "$HUNKS")
sed -i "${line}s/.*/    broken on purpose/" "$W/d/$HUNKS"
before=$(tree_sum "$W/d")
if patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/d" \
    > "$LOG" 2>&1; then fail "make apply succeeded with a broken native hunk"; fi
expect_in "hunk 1 of 2 of $HUNKS does not apply" "$LOG" "the failing native hunk is named"
[[ "$(tree_sum "$W/d")" == "$before" ]] || fail "a failed native apply changed the tree"
ok "native hunks are checked and applied when UPSTREAM has them; a broken one is named"

# UPSTREAM as a git checkout inside no other checkout, and as one nested in
# ours (build/ is inside this repository): paths must stay UPSTREAM's.
fresh e
git -C "$W/e" init -q && git -C "$W/e" add -A \
    && git -C "$W/e" -c user.name=t -c user.email=t@t commit -qm base
patchmake PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/e" \
    > "$LOG" 2>&1 || { cat "$LOG"; fail "make apply on a git checkout"; }
git -C "$W/e" status --porcelain > "$W/status"
expect_in " M $CACHE" "$W/status" "git sees Cache.java changed in the checkout"
ok "make apply works on a git checkout"

# Bad input gets a clear error.
bad() {  # bad <what> <expected message> <make args...>
    local what="$1" msg="$2"
    shift 2
    if patchmake "$@" > "$LOG" 2>&1; then cat "$LOG"; fail "$what: make succeeded"; fi
    expect_in "$msg" "$LOG" "$what"
}
bad "apply without UPSTREAM" "make apply needs UPSTREAM" \
    PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply
mkdir -p "$W/not-a-checkout"
bad "apply to a non-checkout" "does not look like an OpenJDK checkout" \
    PATCHSET_ROOT="$F" PATCHSET_RULES="$RULES" PATCH_OUTPUTDIR="$W/out" PATCH_NAME=fixture apply UPSTREAM="$W/not-a-checkout"
G="$W/badset"
rm -rf "$G" && mkdir -p "$G/$(dirname "$HUNKS")"
sed 's/^@@ -10,6 +10,7 @@/@@ -10,6 +10,9 @@/' "$F/$HUNKS.patch" > "$G/$HUNKS.patch"
bad "a hunk whose counts are wrong" "$HUNKS.patch" PATCHSET_ROOT="$G" PATCH_OUTPUTDIR="$W/bad" patch
expect_in "hunk 1" "$LOG" "the bad hunk is named"
sed 's|FixtureNet.c|Other.c|' "$F/$HUNKS.patch" > "$G/$HUNKS.patch"
bad "a hunk file naming another file" "must patch $HUNKS" PATCHSET_ROOT="$G" PATCH_OUTPUTDIR="$W/bad" patch
{ echo "# Baselines: seventeen"; cat "$F/$HUNKS.patch"; } > "$G/$HUNKS.patch"
bad "a Baselines line without versions" "expected feature versions" \
    PATCHSET_ROOT="$G" PATCH_OUTPUTDIR="$W/bad" patch
cp "$F/$HUNKS.patch" "$G/$HUNKS.patch"
echo "int x;" > "$G/$HUNKS"
bad "a file stored whole and as hunks" "both exist" PATCHSET_ROOT="$G" PATCH_OUTPUTDIR="$W/bad" patch
[[ -e "$W/bad/java.base-jdk$FEATURE.patch" ]] && fail "a failed make patch left a patch behind"
ok "bad input: clear errors, no patch written"

# ---------------------------------------------------------------- the real set
echo "== the patch set in $TOPDIR"
git -C "$TOPDIR" ls-files --cached --others --exclude-standard -- src > "$W/src-files"
if [[ ! -s "$W/src-files" ]]; then
    echo "note: $TOPDIR has no src/ files yet; only the fixture was tested"
    echo "PASSED (fixture only)"
    exit 0
fi
patchmake patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch on the patch set"; }
R="$OUTPUTDIR/patch/java.base-jdk$FEATURE.patch"
[[ -s "$R" ]] || fail "make patch wrote no $R"
patch_paths "$R" > "$W/real-paths"
while read -r f; do
    grep -qxF -- "${f%.patch}" "$W/real-paths" && continue
    # Only a file that a release-specific rule leaves out may be missing, and
    # the patch must say so.
    grep -qE "^exclude +$f +(if|unless) " "$TOPDIR/webrev/patchset.rules" \
        || { [[ "$f" == *.patch ]] && grep -qE "^#? *Baselines:" "$TOPDIR/$f" \
             && ! grep -qE "^#? *Baselines:.*\<$FEATURE\>" "$TOPDIR/$f"; } \
        || fail "$f is under src/ but not in $R"
    grep -qF "  $f   (" "$R" || fail "$f is left out of $R without a word"
    echo "note: $f is left out for JDK $FEATURE (a release-specific rule or Baselines line)"
done < "$W/src-files"
grep -vE '^(src|test/(jdk|micro|lib))/' "$W/real-paths" && fail "$R holds files outside src/ and the test trees"
grep -xE 'test/jdk/(TEST\.(ROOT|groups)|build/.*)' "$W/real-paths" && fail "$R holds our jtreg harness files"
ok "$R holds every file under src/ ($(wc -l < "$W/src-files") files), $(wc -l < "$W/real-paths") files in all"

fresh r
patchmake apply UPSTREAM="$W/r" > "$LOG" 2>&1 || { cat "$LOG"; fail "make apply of the patch set to the synthetic tree"; }
cat "$LOG"
while read -r f; do
    case "$f" in
        src/*/share/classes/*.java | test/*)
            [[ -f "$TOPDIR/$f" ]] || continue   # a hunk file, not a whole file
            cmp -s "$TOPDIR/$f" "$W/r/$f" || fail "after make apply, $f differs from the patch set's" ;;
    esac
done < "$W/real-paths"
ok "the patch set applies to the synthetic tree; every whole file arrives intact"

# Break the first hunk of the first file the baseline has, and the first
# native hunk file if there is one.
target=$(grep -E '^(src|test)/' "$W/real-paths" | while read -r f; do
    [[ -f "$W/pristine/$f" ]] && { echo "$f"; break; }; done || true)
if [[ -n "$target" ]]; then
    fresh s
    line=$("$PYTHON" "$TOOL" context-line --patch "$R" --path "$target")
    sed -i "${line}s/.*/    broken on purpose/" "$W/s/$target"
    before=$(tree_sum "$W/s")
    if patchmake apply UPSTREAM="$W/s" > "$LOG" 2>&1; then fail "applied to a tree where $target cannot take its hunk"; fi
    expect_in "hunk 1 of" "$LOG" "the failing hunk of $target is named"
    expect_in "$target" "$LOG" "the failing file is named"
    [[ "$(tree_sum "$W/s")" == "$before" ]] || fail "a failed apply changed the tree"
    ok "a broken hunk of $target is named, nothing applied"
else
    echo "note: the patch set changes no file of the baseline's src.zip; no failing-hunk case on it"
fi
fresh n
"$PYTHON" "$TOOL" fake-native --patch "$R" --output "$W/n" > "$LOG"
if [[ -s "$LOG" ]]; then
    patchmake apply UPSTREAM="$W/n" > "$LOG" 2>&1 || { cat "$LOG"; fail "native hunks do not apply to their stand-ins"; }
    grep -q "not checked" "$LOG" && fail "native files reported as not checked although UPSTREAM has them"
    ok "the native hunks apply when UPSTREAM has their files"
fi

echo "PASSED"
