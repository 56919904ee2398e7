#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make upstream-build: one line's series built in context, by upstream's
# own build system, from a copy of the tree they are for (the mainline
# series in the mainline tree, a backport in its release's tree).
#
#  1. installs the Debian packages upstream's configure needs (prints them;
#     refuses when apt would install or upgrade a JDK package);
#  2. clones the tree (UPSTREAM_DIR at UPSTREAM_REF) into <out>/src;
#  3. applies the series (PATCH_FILE, make patch's file of every topic's
#     series of that line) with git apply;
#  4. runs upstream's configure (warnings are errors, its default; headless)
#     with BOOT_JDK as boot JDK, and upstream's make for java.base-java
#     (every class of java.base, javac with -Werror) and java.base-libs (its
#     Linux native libraries, -Werror). Hotspot is not built: java.base-libs
#     would wait for it (20+ minutes on two cores), and libjava only links
#     against libjvm's exported functions, so a libjvm.so is put where the
#     link looks for it: the boot JDK's, when it is of the tree's feature
#     version (an update's VM exports what its feature release's does);
#     else (the mainline tree, built by the JDK before it) a stub that
#     defines, as empty functions, what the tree's own VM headers declare
#     exported: the boot JDK's lacks the functions new in the tree.
#
# Environment: TOPDIR, LINE (mainline, 25u), UPSTREAM_DIR, UPSTREAM_REF,
#   BOOT_JDK, OUT (build/<conf>/upstream-build/<line>), JOBS, PATCH_FILE,
#   PYTHON.
set -euo pipefail

: "${TOPDIR:?}" "${PYTHON:?}" "${LINE:?}" "${UPSTREAM_DIR:?}" "${UPSTREAM_REF:?}" "${BOOT_JDK:?}" "${OUT:?}" "${PATCH_FILE:?}"
JOBS=${JOBS:?}

TOOL=upstream-build
# shellcheck source=make/scripts/upstream-tree.sh
source "$TOPDIR/make/scripts/upstream-tree.sh"

mkdir -p "$OUT"
# shellcheck disable=SC2119 # no packages besides BUILD_PACKAGES
install_build_packages

src=$OUT/src
clone_tree "$src"

apply_patch_file "$src"

conf=$src/build/patched
say "configuring with upstream's configure (boot JDK $BOOT_JDK; log $OUT/configure.log)"
(cd "$src" && bash configure --with-boot-jdk="$BOOT_JDK" --with-conf-name=patched \
     --enable-headless-only --with-jobs="$JOBS" --disable-precompiled-headers \
     --with-native-debug-symbols=none) > "$OUT/configure.log" 2>&1 \
    || { tail -n 30 "$OUT/configure.log"; die "upstream's configure failed (see $OUT/configure.log)"; }
# The point of this build is upstream's -Werror: refuse to build without it.
grep -q '^WARNINGS_AS_ERRORS := true$' "$conf/spec.gmk" \
    || die "upstream's configure did not make warnings errors (WARNINGS_AS_ERRORS in $conf/spec.gmk)"

# libjava and friends link against libjvm's exported functions only.
server=$conf/support/modules_libs/java.base/server
mkdir -p "$server"
boot_feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$BOOT_JDK/release")
tree_feature=$(sed -n 's/^DEFAULT_VERSION_FEATURE=\([0-9]*\).*/\1/p' "$src/make/conf/version-numbers.conf")
if [[ "$boot_feature" == "$tree_feature" ]]; then
    say "linking against the boot JDK's libjvm.so (JDK $boot_feature, as the tree)"
    cp "$BOOT_JDK/lib/server/libjvm.so" "$server/libjvm.so"
else
    say "linking against a stub libjvm.so made from $UPSTREAM_REF's VM headers (the boot JDK is JDK $boot_feature, the tree JDK $tree_feature)"
    "$PYTHON" - "$src" > "$OUT/libjvm-stub.c" <<'PY'
import glob, re, sys
tree = sys.argv[1]
names = set()
for header in sorted(glob.glob(tree + "/src/hotspot/share/include/*.h")
                     + glob.glob(tree + "/src/hotspot/os/posix/include/*.h")):
    with open(header, encoding="utf-8", errors="replace") as f:
        text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", f.read(), flags=re.S)
    names.update(re.findall(r"\bJNIEXPORT\b[^;{(#]*?\b([A-Za-z_]\w*)\s*\(", text))
print("/* Generated: a stand-in for libjvm.so to link java.base's libraries against. */")
for name in sorted(names):
    print("void %s(void) {}" % name)
PY
    count=$(grep -c '^void ' "$OUT/libjvm-stub.c")
    ((count > 100)) || die "only $count exported functions found in $UPSTREAM_REF's src/hotspot/share/include: not a stub libjvm.so to link against"
    gcc -shared -fPIC -o "$server/libjvm.so" "$OUT/libjvm-stub.c" \
        || die "could not compile the stub libjvm.so ($OUT/libjvm-stub.c)"
fi

# java.base-copy puts java.base's exported headers (classfile_constants.h,
# which jvm.h includes) where the native compiles look; upstream gets it
# through the hotspot dependency dropped here.
start=$(date +%s)
: > "$OUT/make.log"
for targets in "java.base-java java.base-copy" java.base-libs; do
    say "make $targets (log $OUT/make.log)"
    # shellcheck disable=SC2086 # $targets: several make goals
    if ! make -C "$src" CONF=patched JOBS="$JOBS" JVM_MAIN_LIB_TARGETS= $targets \
            >> "$OUT/make.log" 2>&1; then
        tail -n 40 "$OUT/make.log"
        die "upstream's build of java.base failed in $targets (see $OUT/make.log)"
    fi
done
end=$(date +%s)
classes=$(find "$conf/jdk/modules/java.base" -name '*.class' | wc -l)
libs=$(find "$conf/support/modules_libs/java.base" -maxdepth 1 -name '*.so' | wc -l)
cache_class=$conf/jdk/modules/java.base/sun/security/util/Cache.class
[[ -f "$cache_class" && "$cache_class" -nt "$src/src/java.base/share/classes/sun/security/util/Cache.java" ]] \
    || die "no Cache.class compiled from the patched source in $conf/jdk/modules/java.base"
say "built java.base: $classes classes, $libs native libraries (lib*.so), in $((end - start)) s"
say "result: $conf/jdk/modules/java.base, $conf/support/modules_libs/java.base"
