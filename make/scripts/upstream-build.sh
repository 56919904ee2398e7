#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make upstream-build: the patched java.base built in context, by upstream's
# own build system, from a copy of the baseline tree.
#
#  1. installs the Debian packages upstream's configure needs (prints them;
#     refuses when apt would install or upgrade a JDK package);
#  2. clones the baseline (UPSTREAM_DIR at UPSTREAM_REF) into <out>/src;
#  3. applies the patch set (PATCH_FILE, make patch's output) with git apply;
#  4. runs upstream's configure (warnings are errors, its default; headless)
#     with the base JDK as boot JDK, and upstream's make for java.base-java
#     (every class of java.base, javac with -Werror) and java.base-libs (its
#     Linux native libraries, -Werror). Hotspot is not built: java.base-libs
#     would wait for it (20+ minutes on two cores), and libjava only links
#     against libjvm's exported JVM_* functions, so the base JDK's libjvm.so
#     of the same release is put where the link looks for it.
#
# Environment: TOPDIR, UPSTREAM_DIR, UPSTREAM_REF, BOOT_JDK, BOOT_JDK_FEATURE,
#   OUT (build/<conf>/upstream-build), JOBS, PATCH_FILE, PYTHON.
set -euo pipefail

: "${TOPDIR:?}" "${PYTHON:?}" "${UPSTREAM_DIR:?}" "${UPSTREAM_REF:?}" "${BOOT_JDK:?}" "${BOOT_JDK_FEATURE:?}" "${OUT:?}" "${PATCH_FILE:?}"
JOBS=${JOBS:?}

say() { printf 'upstream-build: %s\n' "$*"; }
die() { printf 'upstream-build: error: %s\n' "$*" >&2; exit 1; }

# What upstream's configure checks for on Linux (doc/building.md there).
BUILD_PACKAGES=(autoconf make zip unzip file gcc g++ libasound2-dev libcups2-dev
                libfontconfig1-dev libx11-dev libxext-dev libxrender-dev libxrandr-dev
                libxtst-dev libxt-dev)

install_build_packages() {
    local missing=() p
    for p in "${BUILD_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        say "build dependencies: all installed (${BUILD_PACKAGES[*]})"
        return
    fi
    local -a sudo=()
    if [[ "$(id -u)" != 0 ]]; then
        if [[ "${CI:-}" == true ]] && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            die "missing build dependencies; install them with: sudo apt-get install --no-install-recommends ${missing[*]}"
        fi
    fi
    say "installing ${missing[*]}"
    local plan
    plan=$("${sudo[@]}" apt-get install -s --no-install-recommends "${missing[@]}")
    # Never change the JDKs: not the base JDK, not any other.
    if grep -E '^Inst (openjdk|temurin|default-j|java-common)' <<<"$plan"; then
        die "apt would install or upgrade a JDK package (above); install ${missing[*]} by hand"
    fi
    grep '^Inst ' <<<"$plan" | sed 's/^/upstream-build:   /'
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" > "$OUT/apt-install.log" 2>&1 \
        || die "apt-get install ${missing[*]} failed (see $OUT/apt-install.log)"
}

# make apply's own check-then-apply (webrev/apply.py): all or nothing, and a
# hunk that does not fit is named.
apply_patch_file() {
    local src=$1
    [[ -r "$PATCH_FILE" ]] || die "no patch at $PATCH_FILE: run 'make patch' first"
    "$PYTHON" "$TOPDIR/webrev/webrev.py" apply --patch "$PATCH_FILE" --upstream "$src" \
        || die "$PATCH_FILE does not apply to $UPSTREAM_REF"
}

# Upstream's make must not inherit ours (its SPEC, CONF, flags).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES SPEC CONF TEST JTREG MICRO

mkdir -p "$OUT"
install_build_packages

src=$OUT/src
say "copying the baseline $UPSTREAM_REF ($UPSTREAM_DIR) to $src"
rm -rf "$src"
git clone -q --shared --no-checkout "$UPSTREAM_DIR" "$src"
git -C "$src" -c advice.detachedHead=false checkout -q "$UPSTREAM_REF"

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
cp "$BOOT_JDK/lib/server/libjvm.so" "$server/libjvm.so"

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
