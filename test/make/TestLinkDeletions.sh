#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The cache's tests catch every dropped link: Cache.java as this
# configuration's image has it, with any one statement that calls link(...)
# or unlink(...) deleted, must fail ExpiryOrder or CacheModel (under a fixed
# seed), while the file as it is passes both. Each mutant is compiled as a
# patch of java.base and run on the base JDK.
set -euo pipefail
# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"

BOOT_JDK="$(spec_var BOOT_JDK)"
UPSTREAM_DIR="$(spec_var UPSTREAM_DIR)"
SHARE=src/java.base/share/classes
CACHE="$OUTPUTDIR/java.base-src/$SHARE/sun/security/util/Cache.java"
TESTS="$TOPDIR/test/jdk/sun/security/util/Cache"
RANDOM_FACTORY="$UPSTREAM_DIR/test/lib/jdk/test/lib/RandomFactory.java"
[[ -f "$CACHE" ]] || fail "no $CACHE: run make java.base first"
[[ -f "$RANDOM_FACTORY" ]] || skip "no upstream test library in $UPSTREAM_DIR"

W="$TEST_WORK_DIR"
EXPORTS=(--add-exports java.base/sun.security.util=ALL-UNNAMED)
"$BOOT_JDK/bin/javac" -nowarn -XDsuppressNotes "${EXPORTS[@]}" -d "$W/tests" \
    "$RANDOM_FACTORY" "$TESTS/ExpiryOrder.java" "$TESTS/CacheModel.java" 2> "$W/javac.log" \
    || { cat "$W/javac.log"; fail "the tests do not compile"; }

# passes CLASSES: whether both tests pass with java.base patched by CLASSES.
passes() {
    local test
    for test in ExpiryOrder CacheModel; do
        timeout 300 "$BOOT_JDK/bin/java" -Xmx32m -Dseed=1 --patch-module "java.base=$1" \
            "${EXPORTS[@]}" -cp "$W/tests" "$test" > "$W/run.log" 2>&1 || return 1
    done
}

caught() { ! passes "$1"; }

# compile SOURCE CLASSES WHAT: Cache.java as a patch of java.base.
compile() {
    mkdir -p "$W/src/sun/security/util" "$2"
    cp "$1" "$W/src/sun/security/util/Cache.java"
    "$BOOT_JDK/bin/javac" -nowarn -XDsuppressNotes --patch-module "java.base=$W/src" -d "$2" \
        "$W/src/sun/security/util/Cache.java" > "$W/javac.log" 2>&1 \
        || { cat "$W/javac.log"; fail "$3 does not compile"; }
}

compile "$CACHE" "$W/classes" "Cache.java"
passes "$W/classes" || { cat "$W/run.log"; fail "the tests fail on Cache.java as it is"; }

mapfile -t statements < <(grep -nE '^[[:space:]]*(un)?link\(.*\);' "$CACHE" | cut -d: -f1)
((${#statements[@]} >= 10)) || fail "found ${#statements[@]} link/unlink statements in $CACHE, expected the core's"
for n in "${statements[@]}"; do
    what="line $n, $(sed -n "${n}s/^[[:space:]]*//p" "$CACHE")"
    sed "${n}d" "$CACHE" > "$W/mutant.java"
    rm -rf "$W/mutant"
    compile "$W/mutant.java" "$W/mutant" "the file without $what"
    check "without $what, a test fails" caught "$W/mutant"
done
finish
