#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# configure and the choice of configuration: bad input gets a clear error
# naming what is wrong, a non-zero exit, and leaves nothing behind; good input
# writes a spec that make then picks as OpenJDK's make would.
#
# Runs in a copy of the tree's make files under TEST_WORK_DIR, so neither the
# repository nor its build/ is touched. Needs BOOT_JDK and TEST_WORK_DIR
# (make test TEST=make:TestConfigure sets both).
set -euo pipefail

: "${BOOT_JDK:?run through make test TEST=make:TestConfigure}"
# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_tree=$(cd "$here/../.." && pwd)

tree=$TEST_WORK_DIR/tree
mkdir -p "$tree"
cp -R "$source_tree/configure" "$source_tree/Makefile" "$source_tree/make" "$tree/"
# Share the JMH jars already fetched, so the good case needs no download.
if [[ -d "$source_tree/build/tools" ]]; then
    mkdir -p "$tree/build"
    cp -R "$source_tree/build/tools" "$tree/build/"
fi
# And the upstream trees already fetched (a link: they are 1 GB each).
if [[ -d "$source_tree/build/upstream" ]]; then
    mkdir -p "$tree/build"
    ln -s "$source_tree/build/upstream" "$tree/build/upstream"
fi

snapshot() {
    (cd "$tree" && find . \( -path ./build/tools -o -path ./build/upstream \) -prune -o -print | LC_ALL=C sort)
}

# Runs configure with the given options; expects failure, a message that
# contains $1 and an untouched tree.
expect_error() {
    local expected=$1
    shift
    local before after out rc=0
    before=$(snapshot)
    out=$(cd "$tree" && bash configure "$@" 2>&1) || rc=$?
    after=$(snapshot)
    check "configure $* exits non-zero" test "$rc" -ne 0
    check "configure $* says '$expected'" grep -qF -- "$expected" <<<"$out"
    check "configure $* writes nothing" test "$before" == "$after"
    [[ "$rc" -ne 0 && "$out" == *"$expected"* ]] || printf '  its output was: %s\n' "$out"
}

# A directory that looks like a JDK of the given version, with the given tools.
fake_jdk() {
    local dir=$1 version=$2 tool
    shift 2
    mkdir -p "$dir/bin"
    printf 'JAVA_VERSION="%s"\n' "$version" > "$dir/release"
    for tool in "$@"; do
        printf '#!/bin/sh\nexit 0\n' > "$dir/bin/$tool"
        chmod +x "$dir/bin/$tool"
    done
}

fake_jdk "$TEST_WORK_DIR/jdk11" 11.0.2 java javac jlink jmod jimage
fake_jdk "$TEST_WORK_DIR/nojavac" 21.0.1 java jlink jmod jimage
fake_jdk "$TEST_WORK_DIR/nojmods" 21.0.1 java javac jlink jmod jimage
mkdir -p "$TEST_WORK_DIR/norelease/bin"

# Upstream trees: the marker file only, then the same as a tagged git repository.
mkdir -p "$TEST_WORK_DIR/notjdk" "$TEST_WORK_DIR/nogit/src/java.base/share/classes/java/lang"
touch "$TEST_WORK_DIR/nogit/src/java.base/share/classes/java/lang/Object.java"
cp -R "$TEST_WORK_DIR/nogit" "$TEST_WORK_DIR/fakeupstream"
git -C "$TEST_WORK_DIR/fakeupstream" init -q
git -C "$TEST_WORK_DIR/fakeupstream" add -A
git -C "$TEST_WORK_DIR/fakeupstream" -c user.name=t -c user.email=t@invalid commit -qm fake
git -C "$TEST_WORK_DIR/fakeupstream" tag jdk-99+1

expect_error "unknown option '--with-bogus'" --with-bogus=1
expect_error "unknown option 'extra'" extra
expect_error "option --with-boot-jdk needs a value" --with-boot-jdk
expect_error "option --with-boot-jdk needs a value" --with-boot-jdk=
expect_error "option --with-jtreg needs a value" --with-jtreg
expect_error "--with-boot-jdk=/no/such/jdk: no such directory" --with-boot-jdk=/no/such/jdk
expect_error "--with-boot-jdk=$TEST_WORK_DIR/norelease: not a JDK: it has no release file" \
    --with-boot-jdk="$TEST_WORK_DIR/norelease"
expect_error "--with-boot-jdk=$TEST_WORK_DIR/jdk11: JDK 11 is too old" \
    --with-boot-jdk="$TEST_WORK_DIR/jdk11"
expect_error "--with-boot-jdk=$TEST_WORK_DIR/nojavac: not a full JDK: bin/javac is missing" \
    --with-boot-jdk="$TEST_WORK_DIR/nojavac"
expect_error "neither jmods/ nor a linkable run-time image" \
    --with-boot-jdk="$TEST_WORK_DIR/nojmods"
expect_error "--with-jtreg=/no/jtreg: not a jtreg home" \
    --with-boot-jdk="$BOOT_JDK" --with-jtreg=/no/jtreg
expect_error "--with-jmh=latest: not a JMH version" --with-boot-jdk="$BOOT_JDK" --with-jmh=latest
expect_error "--with-conf-name=a/b: a configuration name may hold only" \
    --with-boot-jdk="$BOOT_JDK" --with-conf-name=a/b
expect_error "option --with-upstream needs a value" --with-upstream
expect_error "--with-upstream=/no/such/tree: no such directory" \
    --with-boot-jdk="$BOOT_JDK" --with-upstream=/no/such/tree
expect_error "--with-upstream=$TEST_WORK_DIR/notjdk: not an OpenJDK source tree" \
    --with-boot-jdk="$BOOT_JDK" --with-upstream="$TEST_WORK_DIR/notjdk"
expect_error "--with-upstream=$TEST_WORK_DIR/nogit: not a git repository" \
    --with-boot-jdk="$BOOT_JDK" --with-upstream="$TEST_WORK_DIR/nogit"
expect_error "--with-mainline=/no/such/tree: no such directory" \
    --with-boot-jdk="$BOOT_JDK" --with-mainline=/no/such/tree
expect_error "--with-mainline=$TEST_WORK_DIR/fakeupstream: no DEFAULT_VERSION_FEATURE" \
    --with-boot-jdk="$BOOT_JDK" --with-mainline="$TEST_WORK_DIR/fakeupstream"
expect_error "--with-mainline-boot-jdk=/no/such/jdk: no such directory" \
    --with-boot-jdk="$BOOT_JDK" --with-mainline-boot-jdk=/no/such/jdk

help_out=$(cd "$tree" && bash configure --help)
check "configure --help prints the options" grep -qF -- "--with-boot-jdk=DIR" <<<"$help_out"

# Good input: a spec with what make needs.
(cd "$tree" && bash configure --with-boot-jdk="$BOOT_JDK" --with-conf-name=first > "$TEST_WORK_DIR/configure.log" 2>&1) \
    || { cat "$TEST_WORK_DIR/configure.log"; echo "FAILED: configure with good input"; exit 1; }
spec=$tree/build/first/spec.gmk
check "configure writes build/first/spec.gmk" test -f "$spec"
check "the spec names the base JDK" grep -qxF "BOOT_JDK := $BOOT_JDK" "$spec"
check "the spec has no unreplaced placeholder" bash -c "! grep -q '@[A-Z_]*@' '$spec'"
check "the summary names the conf" grep -qF "* Name:           first" "$TEST_WORK_DIR/configure.log"
feature=$(sed -n 's/^BOOT_JDK_FEATURE := //p' "$spec")
check "the baseline is the release tree of JDK $feature" \
    grep -qE "^UPSTREAM_REF := jdk-${feature}[.+]" "$spec"
check "the baseline is a git repository at that tag" \
    git -C "$(sed -n 's/^UPSTREAM_DIR := //p' "$spec")" rev-parse -q --verify \
    "refs/tags/$(sed -n 's/^UPSTREAM_REF := //p' "$spec")"
check "the mainline tree is the stand-in's, a git repository at its tag" \
    git -C "$(sed -n 's/^MAINLINE_DIR := //p' "$spec")" rev-parse -q --verify \
    "refs/tags/$(sed -n 's/^MAINLINE_REF := //p' "$spec")"
check "the spec names the release line, jdk${feature}u's" grep -qxF "RELEASE_LINE := ${feature}u" "$spec"
check "the summary says which series make patch writes" \
    grep -qF "* Series:         mainline against jdk-" "$TEST_WORK_DIR/configure.log"

# --with-upstream: any OpenJDK git checkout; its tag names the baseline.
(cd "$tree" && bash configure --with-boot-jdk="$BOOT_JDK" --with-conf-name=other \
    --with-upstream="$TEST_WORK_DIR/fakeupstream" > "$TEST_WORK_DIR/configure-other.log" 2>&1) \
    || { cat "$TEST_WORK_DIR/configure-other.log"; echo "FAILED: configure --with-upstream"; exit 1; }
check "--with-upstream: the spec names its tag" \
    grep -qxF "UPSTREAM_REF := jdk-99+1" "$tree/build/other/spec.gmk"
rm -rf "$tree/build/other"

# Conf selection, as in OpenJDK: one conf is used, two need CONF=.
run_make() {
    (cd "$tree" && make "$@" 2>&1) || true
}
check "one conf: make uses it" grep -qF "build/first/spec.gmk" <<<"$(run_make -n java.base)"
mkdir -p "$tree/build/second"
sed 's/^CONF_NAME := first$/CONF_NAME := second/' "$spec" > "$tree/build/second/spec.gmk"
check "two confs: make asks for CONF" grep -qF "More than one configuration: first second" \
    <<<"$(run_make -n java.base)"
check "CONF=sec picks build/second" grep -qF "build/second/spec.gmk" \
    <<<"$(run_make -n CONF=sec java.base)"
check "CONF=nomatch is an error listing the confs" \
    grep -qF "No configuration matches CONF=nomatch. Configured: first second" \
    <<<"$(run_make -n CONF=nomatch java.base)"
check "make help needs no conf" grep -qF "make test [TEST=...]" <<<"$(run_make help)"

finish
