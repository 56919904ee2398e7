#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make:TestWebrev - `make webrev`.
#
# On a fixture patch set with known edits (made here from the base JDK's own
# Cache.java): the index lists every file with the right stats line, every
# view and every link exists, the header names the baseline, the whole patch
# is the one make patch writes, and two runs give identical bytes. Then the
# same on the real patch set, in build/<conf>/webrev.
#
# Run by make test TEST=make:TestWebrev with the spec's variables in the
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
SKIP_REASON="$(spec_var WEBREV_SKIP_REASON)"
[[ -z "$SKIP_REASON" ]] || skip "$SKIP_REASON"
[[ -n "$ZIP" && -f "$ZIP" ]] || skip "the base JDK has no src.zip (BOOT_JDK_SRC_ZIP='$ZIP')"
[[ -x "$PYTHON" ]] || fail "PYTHON='$PYTHON' is not executable"

TOOL="$TOPDIR/webrev/webrev.py"
# A directory of our own inside the scratch one, emptied first so a rerun is
# not misled by what an earlier run left (and nothing else there is touched).
W="$TEST_WORK_DIR/TestWebrev"
rm -rf "${W:?}" && mkdir -p "$W"
LOG="$W/out.txt"

webrevmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Webrev.gmk" SPEC="$SPEC" "$@"; }
patchmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Patch.gmk" SPEC="$SPEC" "$@"; }
patch_paths() { sed -n 's|^diff --git a/\(.*\) b/.*$|\1|p' "$1"; }
html_escape() { "$PYTHON" -c 'import html, sys; print(html.escape(sys.argv[1], quote=False))' "$1"; }
expect_in() { grep -qF -- "$1" "$2" || fail "$3: '$1' not in $2"; }

# The checks every webrev gets: <dir> <whole patch name>
check_webrev() {
    local dir="$1" name="$2" index="$1/index.html" f v n=0
    [[ -s "$index" ]] || fail "no $index"
    [[ -s "$dir/$name.patch" ]] || fail "the whole patch $name.patch is not in the webrev"
    expect_in "href=\"$name.patch\"" "$index" "the index links the whole patch"
    expect_in "JDK $(html_escape "$VERSION")" "$index" "the header names the baseline version"
    expect_in "$(html_escape "$ORIGIN")" "$index" "the header names where the baseline came from"
    patch_paths "$dir/$name.patch" > "$W/paths"
    [[ -s "$W/paths" ]] || fail "the whole patch in $dir changes no file"
    while read -r f; do
        n=$((n + 1))
        expect_in "<span class=\"path\">$f</span>" "$index" "the index lists $f"
        for v in "$f.sdiff.html" "$f.udiff.html" "$f-.html" "$f.html" "$f.patch"; do
            [[ -s "$dir/$v" ]] || fail "view $v is missing"
            expect_in "href=\"$v\"" "$index" "the index links $v"
        done
        cmp -s "$dir/$f.patch" <(awk -v p="diff --git a/$f b/$f" \
            '/^diff --git / { on = ($0 == p) } on { print }' "$dir/$name.patch") \
            || fail "$f.patch is not $f's section of the whole patch"
    done < "$W/paths"
    [[ "$(grep -c '<p class="stat">[0-9]* lines changed; [0-9]* ins; [0-9]* del; [0-9]* mod; [0-9]* unchg' "$index")" -eq "$n" ]] \
        || fail "not one stats line per file in $index"
    sed -n 's|.*<span class="path">\([^<]*\)</span>.*|\1|p' "$index" > "$W/listed"
    cmp -s "$W/paths" "$W/listed" || fail "the index does not list the patch's files in its order"
    LC_ALL=C sort -c "$W/listed" || fail "the index is not in path order"
    # Every link of every page leads somewhere.
    "$PYTHON" - "$dir" <<'EOF' || fail "broken links in $dir"
import os, re, sys
from urllib.parse import unquote
root, bad = sys.argv[1], 0
for dirpath, _, files in os.walk(root):
    for fn in files:
        if not fn.endswith(".html"):
            continue
        page = os.path.join(dirpath, fn)
        text = open(page, encoding="utf-8", errors="surrogateescape").read()
        ids = set(re.findall(r' id="([^"]+)"', text))
        for href in re.findall(r'href="([^"]+)"', text):
            target, _, frag = unquote(href).partition("#")
            if not target:
                if frag not in ids:
                    print("%s: anchor #%s missing" % (page, frag)); bad += 1
            elif not os.path.exists(os.path.normpath(os.path.join(dirpath, target))):
                print("%s: %s does not exist" % (page, href)); bad += 1
sys.exit(1 if bad else 0)
EOF
    echo "$n"
}

# ---------------------------------------------------------------- fixture
echo "== fixture patch set"
F="$W/fixture"
CACHE=src/java.base/share/classes/sun/security/util/Cache.java
HELPER=src/java.base/windows/native/libnet/fixturehelper.c
HUNKS=src/java.base/windows/native/libnio/ch/FixtureNet.c
TESTFILE=test/jdk/sun/security/util/Cache/FixtureTest.java
rm -rf "${F:?}"
mkdir -p "$F/$(dirname "$CACHE")" "$F/$(dirname "$HELPER")" "$F/$(dirname "$HUNKS")" \
    "$F/$(dirname "$TESTFILE")" "$F/make"
"$PYTHON" - "$ZIP" "$CACHE" "$F/$CACHE" <<'EOF'
import sys, zipfile
entry = "java.base/" + sys.argv[2].split("/classes/", 1)[1]
open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(entry))
EOF
cp "$F/$CACHE" "$W/Cache.orig"
OLD_LINES=$(awk 'END { print NR }' "$W/Cache.orig")
# Two lines replaced, three inserted, one deleted, far apart so that any
# correct diff sees exactly these changes; a '<' and '&' to be escaped.
sed -i -e '100s/.*/    \/\/ fixture: modified <line> one \&/' \
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
echo "class FixtureTest {}" > "$F/$TESTFILE"
echo "not part of the patch set" > "$F/make/Fixture.gmk"

webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/w1" PATCH_NAME=fixture webrev > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make webrev on the fixture"; }
n=$(check_webrev "$W/w1" fixture) || { echo "$n"; exit 1; }
[[ "$n" -eq 4 ]] || fail "the fixture webrev shows $n files, expected 4"
ok "fixture webrev: 4 files, each listed with its stats, 5 views and working links"
grep -q "Fixture.gmk" "$W/w1/index.html" && fail "a file outside the patch set is in the webrev"

stat_of() {  # the stats line the index gives a file
    awk -v p="<span class=\"path\">$1</span>" 'index($0, p) { on = 1 }
        on && /<p class="stat">/ { sub(/.*<p class="stat">/, ""); sub(/<\/p>.*/, ""); print; exit }' \
        "$W/w1/index.html"
}
want="6 lines changed; 3 ins; 1 del; 2 mod; $((OLD_LINES - 3)) unchg"
[[ "$(stat_of "$CACHE")" == "$want" ]] || fail "Cache.java stats: '$(stat_of "$CACHE")', expected '$want'"
want="2 lines changed; 2 ins; 0 del; 0 mod; 0 unchg"
[[ "$(stat_of "$HELPER")" == "$want" ]] || fail "new file stats: '$(stat_of "$HELPER")', expected '$want'"
want="3 lines changed; 1 ins; 1 del; 1 mod; 8 unchg (unchg counts the hunks' context only)"
[[ "$(stat_of "$HUNKS")" == "$want" ]] || fail "hunk file stats: '$(stat_of "$HUNKS")', expected '$want'"
ok "stats lines count ins, del, mod and unchg right"

S="$W/w1/$CACHE.sdiff.html"
[[ "$(grep -c '<tr class="mod"' "$S")" -eq 2 ]] || fail "sdiff: expected 2 modified rows"
[[ "$(grep -c '<tr class="ins"' "$S")" -eq 3 ]] || fail "sdiff: expected 3 inserted rows"
[[ "$(grep -c '<tr class="del"' "$S")" -eq 1 ]] || fail "sdiff: expected 1 deleted row"
[[ "$(grep -c '<tr class="equal"' "$S")" -eq $((OLD_LINES - 3)) ]] || fail "sdiff: not the whole file"
expect_in "modified &lt;line&gt; one &amp;" "$S" "source text is escaped"
grep -q 'modified <line>' "$S" && fail "source text reaches the page unescaped"
expect_in '<span class="k' "$S" "the source is highlighted (Pygments keyword classes)"
expect_in ".src .k" "$W/w1/highlight.css" "the highlight style sheet"
[[ "$(grep -c '<td class="ln">' "$W/w1/$CACHE-.html")" -eq "$OLD_LINES" ]] || fail "the old view is not the whole baseline file"
[[ "$(grep -c '<td class="ln">' "$W/w1/$CACHE.html")" -eq $((OLD_LINES + 2)) ]] || fail "the new view is not the whole new file"
expect_in "New file" "$W/w1/$HELPER-.html" "a new file's old view says it is new"
expect_in "not at hand" "$W/w1/$HUNKS.sdiff.html" "a hunk file without its upstream file says so"
expect_in "Fixture: call the helper" "$W/w1/index.html" "the hunk file's comment is shown"
ok "views: sdiff rows, whole old and new files, escaping, highlighting"

patchmake PATCHSET_ROOT="$F" PATCH_OUTPUTDIR="$W/patch" PATCH_NAME=fixture patch > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make patch on the fixture"; }
cmp -s "$W/patch/fixture.patch" "$W/w1/fixture.patch" || fail "the webrev's whole patch is not make patch's"
ok "the webrev's whole patch is byte for byte make patch's"

# Deterministic: again into another directory, and again into the same one.
webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/w2" PATCH_NAME=fixture webrev > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "second make webrev"; }
diff -r "$W/w1" "$W/w2" > "$LOG" || { cat "$LOG"; fail "two runs differ"; }
cp -a "$W/w1" "$W/w1.first"
webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/w1" PATCH_NAME=fixture webrev > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make webrev over an existing webrev"; }
diff -r "$W/w1.first" "$W/w1" > "$LOG" || { cat "$LOG"; fail "regenerating in place differs"; }
ok "two runs are byte-identical (also in another directory)"

# A file that leaves the patch set leaves the webrev.
rm "$F/$TESTFILE"
webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/w1" PATCH_NAME=fixture webrev > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make webrev after removing a file"; }
[[ -e "$W/w1/$TESTFILE.html" ]] && fail "a stale view survived regeneration"
grep -q "FixtureTest" "$W/w1/index.html" && fail "a removed file is still in the index"
ok "regeneration drops files that left the patch set"

# With UPSTREAM, a native hunk file is shown whole.
U="$W/upstream"
mkdir -p "$U/src/java.base"
"$PYTHON" "$TOOL" fake-native --patch "$W/w1/fixture.patch" --output "$U" > "$LOG"
webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/w3" PATCH_NAME=fixture UPSTREAM="$U" webrev \
    > "$LOG" 2>&1 || { cat "$LOG"; fail "make webrev with UPSTREAM"; }
U_LINES=$(awk 'END { print NR }' "$U/$HUNKS")
grep -q "not at hand" "$W/w3/$HUNKS.sdiff.html" && fail "with UPSTREAM the hunk file is still shown in pieces"
want="3 lines changed; 1 ins; 1 del; 1 mod; $((U_LINES - 2)) unchg"
expect_in "<p class=\"stat\">$want</p>" "$W/w3/index.html" "with UPSTREAM, unchg counts the whole file"
cmp -s "$W/w1/fixture.patch" "$W/w3/fixture.patch" || fail "UPSTREAM changed the patch's bytes"
ok "UPSTREAM shows native hunk files whole, without changing the patch"

# Bad input and a foreign output directory.
mkdir -p "$W/foreign" && echo keep > "$W/foreign/keep.txt"
if webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/foreign" webrev > "$LOG" 2>&1; then
    fail "make webrev replaced a directory it did not make"; fi
expect_in "not a webrev made by this tool" "$LOG" "the refusal says why"
[[ -f "$W/foreign/keep.txt" ]] || fail "make webrev deleted a foreign directory's file"
printf '@@ -1 +1 @@\n-a\n+b\n' > "$F/$HUNKS.patch"
if webrevmake PATCHSET_ROOT="$F" WEBREV_OUTPUTDIR="$W/w4" webrev > "$LOG" 2>&1; then
    fail "make webrev accepted a hunk file without headers"; fi
expect_in "$HUNKS.patch" "$LOG" "the bad hunk file is named"
[[ -e "$W/w4/index.html" ]] && fail "a failed make webrev left an index behind"
ok "bad input: clear errors, nothing written"

# ---------------------------------------------------------------- the real set
echo "== the patch set in $TOPDIR"
if [[ -z "$(git -C "$TOPDIR" ls-files --cached --others --exclude-standard -- src)" ]]; then
    echo "note: $TOPDIR has no src/ files yet; only the fixture was tested"
    echo "PASSED (fixture only)"
    exit 0
fi
webrevmake webrev > "$LOG" 2>&1 || { cat "$LOG"; fail "make webrev on the patch set"; }
R="$OUTPUTDIR/webrev"
n=$(check_webrev "$R" "java.base-jdk$FEATURE") || { echo "$n"; exit 1; }
git -C "$TOPDIR" ls-files --cached --others --exclude-standard -- src > "$W/src-files"
while read -r f; do
    grep -qxF -- "${f%.patch}" "$W/paths" && continue
    grep -qE "^exclude +$f +(if|unless) " "$TOPDIR/webrev/patchset.rules" \
        || { [[ "$f" == *.patch ]] && grep -qE "^#? *Baselines:" "$TOPDIR/$f" \
             && ! grep -qE "^#? *Baselines:.*\<$FEATURE\>" "$TOPDIR/$f"; } \
        || fail "$f is under src/ but not in the webrev"
    expect_in "Left out for this base JDK: $f " "$R/index.html" "the index says $f was left out"
done < "$W/src-files"
ok "$R: $n files, every file under src/ listed, views and links complete"
rm -rf "${W:?}/real.first" && cp -a "$R" "$W/real.first"
webrevmake webrev > "$LOG" 2>&1 || { cat "$LOG"; fail "second make webrev on the patch set"; }
diff -r "$W/real.first" "$R" > "$LOG" || { cat "$LOG"; fail "two runs of make webrev differ"; }
ok "two runs on the patch set are byte-identical"

echo "PASSED"
