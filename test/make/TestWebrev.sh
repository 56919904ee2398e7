#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make:TestWebrev - `make webrev`.
#
# A fixture patch set against the configuration's release tree: every file
# (a changed Java file, a new one, a native hunk file) gets the whole-file
# sdiff and the cdiff, udiff, old, new, raw and patch views, the stats
# count right, the baseline is named by its release tag and no local path,
# the whole patch is make patch's, and two runs give identical bytes. Then
# the same checks on the real patch set, in build/<conf>/webrev, where a
# file two topics change is in the webrev of each, as its series makes it.
#
# Run by make test TEST=make:TestWebrev with the spec's variables in the
# environment and a scratch directory in TEST_WORK_DIR; exit 0 passed,
# 1 failed, 77 skipped.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"
SKIP_REASON="$(spec_var WEBREV_SKIP_REASON)"
[[ -z "$SKIP_REASON" ]] || skip "$SKIP_REASON"
patchset_test_env

W="$TEST_WORK_DIR/TestWebrev"
rm -rf "${W:?}" && mkdir -p "$W"
LOG="$W/out.txt"
VIEWS=(.sdiff.html .cdiff.html .udiff.html -.html .html .patch)

webrevmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Webrev.gmk" SPEC="$SPEC" "$@"; }
patchmake() { "$MAKE" -s --no-print-directory -f "$TOPDIR/make/Patch.gmk" SPEC="$SPEC" "$@"; }
patch_paths() { sed -n 's|^diff --git a/\(.*\) b/.*$|\1|p' "$1"; }
expect_in() { grep -qF -- "$1" "$2" || fail "$3: '$1' not in $2"; }
lines_of() { awk 'END { print NR }' "$1"; }

# The checks every webrev gets: <dir> <whole patch name>; prints the count.
check_webrev() {
    local dir="$1" name="$2" index="$1/index.html" f v n=0
    [[ -s "$index" ]] || fail "no $index"
    [[ -s "$dir/$name.patch" ]] || fail "the whole patch $name.patch is not in the webrev"
    expect_in "href=\"$name.patch\"" "$index" "the index links the whole patch"
    expect_in "against $UPSTREAM_REF" "$index" "the index names the baseline by its tag"
    grep -rlF "$UPSTREAM_DIR" "$dir" --include='*.html' && fail "a page names the local baseline path"
    patch_paths "$dir/$name.patch" | LC_ALL=C sort -u > "$W/paths"
    [[ -s "$W/paths" ]] || fail "the whole patch in $dir changes no file"
    while read -r f; do
        n=$((n + 1))
        expect_in "<span class=\"path\">$f</span>" "$index" "the index lists $f"
        for v in "${VIEWS[@]}"; do
            [[ -s "$dir/$f$v" ]] || fail "view $f$v is missing"
            expect_in "href=\"$f$v\"" "$index" "the index links $f$v"
        done
        [[ -f "$dir/raw_files/new/$f" ]] || fail "the raw view of $f is missing"
        if [[ "$(grep -cxF "diff --git a/$f b/$f" "$dir/$name.patch")" -eq 1 ]]; then
            cmp -s "$dir/$f.patch" <(awk -v p="diff --git a/$f b/$f" \
                '/^diff --git / { on = ($0 == p) } /^From [0-9a-f]+ / { on = 0 } on { print }' "$dir/$name.patch" \
                | sed '${/^$/d}') \
                || fail "$f.patch is not $f's section of the whole patch"
        else
            # Changed by several patches of a series: the view is the net
            # change, which must make the new file from upstream's.
            rm -rf "$W/net" && mkdir -p "$W/net/$(dirname "$f")"
            git -C "$UPSTREAM_DIR" show "$UPSTREAM_REF:$f" > "$W/net/$f"
            patch -s -p1 -d "$W/net" -i "$dir/$f.patch" > "$W/net.err" 2>&1 \
                || fail "$f.patch does not apply to upstream's $f: $(cat "$W/net.err")"
            cmp -s "$W/net/$f" "$dir/raw_files/new/$f" \
                || fail "$f.patch does not make $f's new file from upstream's"
        fi
        expect_in "$UPSTREAM_REF" "$dir/$f.sdiff.html" "the sdiff of $f names its baseline's tag"
    done < "$W/paths"
    [[ "$(grep -c '<p class="stat">[0-9]* lines changed; [0-9]* ins; [0-9]* del; [0-9]* mod; [0-9]* unchg</p>' "$index")" -eq "$n" ]] \
        || fail "not one stats line per file in $index"
    sed -n 's|.*<span class="path">\([^<]*\)</span>.*|\1|p' "$index" > "$W/listed"
    # (a series lists its files patch by patch; the index, once each, by path)
    cmp -s <(LC_ALL=C sort -u "$W/paths") "$W/listed" || fail "the index does not list the patch's files, by path"
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
echo "== fixture patch set against $UPSTREAM_REF"
F="$W/fixture"
CACHE=src/java.base/share/classes/sun/security/util/Cache.java
NATIVE=src/java.base/windows/native/libnio/ch/WindowsAsynchronousSocketChannelImpl.c
NEWFILE=test/jdk/sun/security/util/Cache/FixtureTest.java
mkdir -p "$F/$(dirname "$CACHE")" "$F/$(dirname "$NATIVE")" "$F/$(dirname "$NEWFILE")" "$F/make"
SPDX_HEADER=$'/*\n * Copyright (c) 2026, the java.base patch set contributors.\n * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0\n */'
git -C "$UPSTREAM_DIR" show "$UPSTREAM_REF:$CACHE" > "$W/Cache.upstream"
OLD_LINES=$(lines_of "$W/Cache.upstream")
hdr=$(awk '/\*\// { print NR; exit }' "$W/Cache.upstream")
# Two lines replaced (one with '<' and '&' to escape), three inserted, one deleted.
{ echo "$SPDX_HEADER"; tail -n +"$((hdr + 1))" "$W/Cache.upstream"; } > "$F/$CACHE"
sed -i -e '100s/.*/    \/\/ fixture: modified <line> one \&/' -e '101s/.*/    \/\/ fixture: modified line two/' \
       -e '300a\    // fixture: inserted one\n    // fixture: inserted two\n    // fixture: inserted three' \
       -e '500d' "$F/$CACHE"
{ echo "$SPDX_HEADER"; echo; echo "class FixtureTest {}"; } > "$F/$NEWFILE"
git -C "$UPSTREAM_DIR" show "$UPSTREAM_REF:$NATIVE" > "$W/native.orig"
at=$(grep -n 'res = (\*ConnectEx_func)' "$W/native.orig" | head -n 1 | cut -d: -f1)
[[ -n "$at" ]] || fail "$NATIVE of $UPSTREAM_REF has no ConnectEx_func call"
sed "${at}a\\    fixture_call();" "$W/native.orig" > "$W/native.new"
{ echo "# Fixture: a call after ConnectEx."
  echo "--- a/$NATIVE"; echo "+++ b/$NATIVE"
  git diff --no-index -U3 "$W/native.orig" "$W/native.new" | sed -n '/^@@/,$p' || true; } > "$F/$NATIVE.patch"
echo "not part of the patch set" > "$F/make/Fixture.gmk"
git -C "$F" init -q && git -C "$F" add -A && git -C "$F" -c user.name=t -c user.email=t@t commit -qm fixture
# One topic, "fix", takes every file of the fixture in one patch.
TOPICS="$W/topics"
mkdir -p "$TOPICS/fix"
printf '%s\n' 'list fix-dev@example.org' 'patch one NNNNNNN: Fixture change' '    **' > "$TOPICS/fix/series"
printf '%s\n' 'NNNNNNN: The fixture' '' 'One patch.' > "$TOPICS/fix/cover-letter.md"
printf '%s\n' 'Title: the fixture' > "$TOPICS/fix/jbs.md"
FARGS=(PATCHSET_ROOT="$F" PATCH_NAME=fixture PATCHSET_WORKDIR="$W/ps" PATCHSET_TOPICS="$TOPICS"
       PATCH_AUTHOR="Fixture Author <fixture@example.org>" COPYRIGHT_HOLDER="Fixture Holder")

webrevmake "${FARGS[@]}" WEBREV_OUTPUTDIR="$W/w1" webrev > "$LOG" 2>&1 || { cat "$LOG"; fail "make webrev on the fixture"; }
n=$(check_webrev "$W/w1/fix" fix) || { echo "$n"; exit 1; }
expect_in 'href="fix/index.html"' "$W/w1/index.html" "the top page links the topic's webrev"
[[ "$n" -eq 3 ]] || fail "the fixture webrev shows $n files, expected 3"
grep -q "Fixture.gmk" "$W/w1/fix/index.html" && fail "a file outside the patch set is in the webrev"
ok "fixture webrev: 3 files, each with its stats, 7 views and working links, baseline named $UPSTREAM_REF"

stat_of() {
    awk -v p="<span class=\"path\">$1</span>" 'index($0, p) { on = 1 }
        on && /<p class="stat">/ { sub(/.*<p class="stat">/, ""); sub(/<\/p>.*/, ""); print; exit }' \
        "$W/w1/fix/index.html"
}
# the fixture's lines and the copyright line's year
want="7 lines changed; 3 ins; 1 del; 3 mod; $((OLD_LINES - 4)) unchg"
[[ "$(stat_of "$CACHE")" == "$want" ]] || fail "Cache.java stats: '$(stat_of "$CACHE")', expected '$want'"
NEW_LINES=$(git -C "$W/ps/repo.git" show "refs/heads/patched:$NEWFILE" | awk 'END { print NR }')
want="$NEW_LINES lines changed; $NEW_LINES ins; 0 del; 0 mod; 0 unchg"
[[ "$(stat_of "$NEWFILE")" == "$want" ]] || fail "new file stats: '$(stat_of "$NEWFILE")', expected '$want'"
N_LINES=$(lines_of "$W/native.orig")
want="2 lines changed; 1 ins; 0 del; 1 mod; $((N_LINES - 1)) unchg"  # and the year
[[ "$(stat_of "$NATIVE")" == "$want" ]] || fail "native hunk file stats: '$(stat_of "$NATIVE")', expected '$want'"
ok "stats lines count ins, del, mod and unchg over the whole file, native ones too"

S="$W/w1/fix/$CACHE.sdiff.html"
[[ "$(grep -c '<tr class="mod"' "$S")" -eq 3 ]] || fail "sdiff: expected 3 modified rows"
[[ "$(grep -c '<tr class="ins"' "$S")" -eq 3 ]] || fail "sdiff: expected 3 inserted rows"
[[ "$(grep -c '<tr class="del"' "$S")" -eq 1 ]] || fail "sdiff: expected 1 deleted row"
[[ "$(grep -c '<tr class="equal"' "$S")" -eq $((OLD_LINES - 4)) ]] || fail "sdiff: not the whole file"
[[ "$(grep -c '<tr class="equal"' "$W/w1/fix/$NATIVE.sdiff.html")" -eq "$((N_LINES - 1))" ]] \
    || fail "the native file's sdiff is not the whole file"
expect_in "modified &lt;line&gt; one &amp;" "$S" "source text is escaped"
grep -q 'modified <line>' "$S" && fail "source text reaches the page unescaped"
expect_in '<span class="k' "$S" "the source is highlighted (Pygments keyword classes)"
[[ "$(grep -c '<td class="ln">' "$W/w1/fix/$CACHE-.html")" -eq "$OLD_LINES" ]] || fail "the old view is not the whole baseline file"
expect_in "Copyright (c) " "$W/w1/fix/$CACHE.html" "the new view shows a copyright line"
grep -q "SPDX" "$W/w1/fix/$CACHE.html" && fail "our SPDX header is in the patched file of a file upstream has"
expect_in "$(sed -n 3p "$W/Cache.upstream" | sed 's/&/\&amp;/g')" "$W/w1/fix/$CACHE.html" "the new view shows upstream's header kept"
expect_in "New file: $UPSTREAM_REF does not have it" "$W/w1/fix/$NEWFILE-.html" "a new file's old view says so"
expect_in "***************" "$W/w1/fix/$NATIVE.cdiff.html" "the cdiff view is a context diff"
expect_in "fixture_call();" "$W/w1/fix/raw_files/new/$NATIVE" "the raw view is the patched file"
expect_in "Fixture: a call after ConnectEx." "$W/w1/fix/index.html" "the hunk file's comment is shown"
ok "views: whole-file sdiff (native too), cdiff, old, new, raw; escaping, highlighting"

patchmake "${FARGS[@]}" PATCH_OUTPUTDIR="$W/patch" patch > "$LOG" 2>&1 || { cat "$LOG"; fail "make patch on the fixture"; }
cmp -s "$W/patch/fixture.patch" "$W/w1/fix/fix.patch" || fail "the webrev's whole patch is not make patch's"
ok "the webrev's whole patch is byte for byte make patch's"

webrevmake "${FARGS[@]}" WEBREV_OUTPUTDIR="$W/w2" webrev > "$LOG" 2>&1 || { cat "$LOG"; fail "second make webrev"; }
diff -r "$W/w1" "$W/w2" > "$LOG" || { cat "$LOG"; fail "two runs differ"; }
cp -a "$W/w1" "$W/w1.first"
webrevmake "${FARGS[@]}" WEBREV_OUTPUTDIR="$W/w1" webrev > "$LOG" 2>&1 || { cat "$LOG"; fail "make webrev over an existing webrev"; }
diff -r "$W/w1.first" "$W/w1" > "$LOG" || { cat "$LOG"; fail "regenerating in place differs"; }
ok "two runs are byte-identical (also in another directory)"

git -C "$F" rm -q "$NEWFILE"
webrevmake "${FARGS[@]}" WEBREV_OUTPUTDIR="$W/w1" webrev > "$LOG" 2>&1 || { cat "$LOG"; fail "make webrev after removing a file"; }
[[ -e "$W/w1/fix/$NEWFILE.html" ]] && fail "a stale view survived regeneration"
ok "regeneration drops files that left the patch set"

mkdir -p "$W/foreign" && echo keep > "$W/foreign/keep.txt"
if webrevmake "${FARGS[@]}" WEBREV_OUTPUTDIR="$W/foreign" webrev > "$LOG" 2>&1; then
    fail "make webrev replaced a directory it did not make"; fi
expect_in "not a webrev made by this tool" "$LOG" "the refusal says why"
[[ -f "$W/foreign/keep.txt" ]] || fail "make webrev deleted a foreign directory's file"
ok "a foreign output directory is left alone"

# ---------------------------------------------------------------- the real set
echo "== the patch set in $TOPDIR"
R="$W/real"
webrevmake WEBREV_OUTPUTDIR="$R" PATCHSET_WORKDIR="$W/ps-real" webrev > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "make webrev on the patch set"; }
for topic in "$R"/*/index.html; do
    topic=$(basename "$(dirname "$topic")")
    n=$(check_webrev "$R/$topic" "$topic") || { echo "$n"; exit 1; }
    ok "$R/$topic: $n files, views and links complete"
done
# Cache.java, which two topics change, is in the webrev of each, as that
# topic's series makes it (its branch in the patched repository).
CACHE=src/java.base/share/classes/sun/security/util/Cache.java
for topic in cache equal-byte-array; do
    [[ -f "$R/$topic/$CACHE.sdiff.html" ]] || fail "$CACHE is not in the webrev of topic $topic"
    git -C "$W/ps-real/repo.git" show "refs/heads/$topic:$CACHE" > "$W/$topic-Cache.java"
    cmp -s "$W/$topic-Cache.java" "$R/$topic/raw_files/new/$CACHE" \
        || fail "the webrev of topic $topic does not show $CACHE as its series makes it"
done
cmp -s "$R/cache/raw_files/new/$CACHE" "$R/equal-byte-array/raw_files/new/$CACHE" \
    && fail "the two topics' webrevs show the same $CACHE"
ok "$CACHE, changed by two topics, is in each topic's webrev with that topic's change alone"
webrevmake WEBREV_OUTPUTDIR="$W/real2" PATCHSET_WORKDIR="$W/ps-real" webrev > "$LOG" 2>&1 \
    || { cat "$LOG"; fail "second make webrev on the patch set"; }
diff -r "$R" "$W/real2" > "$LOG" || { cat "$LOG"; fail "two runs of make webrev differ"; }
ok "two runs on the patch set are byte-identical"

echo "PASSED"
