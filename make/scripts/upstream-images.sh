#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make upstream-images LINE=<line>: a whole JDK built from a line's tree as a
# vendor builds it (upstream's configure and make images, HotSpot included),
# twice in one build directory:
#   stock    the tree at its tag;
#   patched  the same tree with the line's series (every topic's) applied;
#            make's own dependencies make it a rebuild of java.base, and of
#            what depends on an API that changed.
# Each image is copied out of the build directory when it is made:
#   <out>/stock/jdk, <out>/patched/jdk.
# Then each is checked: bin/java runs, and the classes the series change
# (MemoryCache and Cache$EqualByteArray of Cache.java, SSLSocketOutputRecord)
# are the ones that build compiled (the patched image's differ from the
# stock one's).
#
# Environment: TOPDIR, LINE, UPSTREAM_DIR, UPSTREAM_REF, BOOT_JDK, OUT
#   (build/<conf>/upstream-images/<line>), JOBS, PATCH_FILE, PYTHON.
set -euo pipefail

: "${TOPDIR:?}" "${PYTHON:?}" "${LINE:?}" "${UPSTREAM_DIR:?}" "${UPSTREAM_REF:?}" "${BOOT_JDK:?}" "${OUT:?}" "${PATCH_FILE:?}"
JOBS=${JOBS:?}

TOOL=upstream-images
# shellcheck source=make/scripts/upstream-tree.sh
source "$TOPDIR/make/scripts/upstream-tree.sh"

# Debian's source packages, the trees here, leave out upstream's bundled
# copies of libjpeg, giflib and libpng and the PC/SC headers: the whole JDK
# is built against the system's, as Debian builds it.
IMAGE_PACKAGES=(libjpeg-dev libgif-dev libpng-dev libpcsclite-dev)
CONFIGURE_ARGS=(--with-boot-jdk="$BOOT_JDK" --enable-headless-only --with-jobs="$JOBS"
                --with-native-debug-symbols=none --with-libjpeg=system --with-giflib=system
                --with-libpng=system --with-extra-cflags=-I/usr/include/PCSC)

# The classes that show which source an image was built from: each changes
# with the series (the abstract class Cache itself does not).
WITNESSES=(sun/security/util/MemoryCache.class "sun/security/util/Cache\$EqualByteArray.class"
           sun/security/ssl/SSLSocketOutputRecord.class)

mkdir -p "$OUT"
install_build_packages "${IMAGE_PACKAGES[@]}"
[[ -r "$PATCH_FILE" ]] || die "no series at $PATCH_FILE: run 'make patch' first"

src=$OUT/src
build=$OUT/build
# A tree at the tag and the build beside it are kept: the next run is
# incremental (configured again only when the arguments changed).
if [[ -d "$src/.git" ]] \
        && [[ "$(git -C "$src" rev-parse HEAD)" == "$(git -C "$UPSTREAM_DIR" rev-parse "$UPSTREAM_REF^{commit}")" ]]; then
    say "reusing $src and $build; back to $UPSTREAM_REF as released"
    git -C "$src" checkout -q -f "$UPSTREAM_REF"
    git -C "$src" clean -q -fd
else
    rm -rf "$build"
    clone_tree "$src"
fi
if [[ ! -f "$build/spec.gmk" || "$(cat "$OUT/configure.args" 2>/dev/null)" != "${CONFIGURE_ARGS[*]}" ]]; then
    mkdir -p "$build"
    say "configuring with upstream's configure (boot JDK $BOOT_JDK; log $OUT/configure.log)"
    (cd "$build" && bash "$src/configure" "${CONFIGURE_ARGS[@]}") > "$OUT/configure.log" 2>&1 \
        || { tail -n 30 "$OUT/configure.log"; die "upstream's configure failed (see $OUT/configure.log)"; }
    grep -q '^WARNINGS_AS_ERRORS := true$' "$build/spec.gmk" \
        || die "upstream's configure did not make warnings errors (WARNINGS_AS_ERRORS in $build/spec.gmk)"
    printf '%s\n' "${CONFIGURE_ARGS[*]}" > "$OUT/configure.args"
fi

# $1: stock or patched. Upstream's make images, then the image copied out.
make_image() {
    local kind=$1 start end
    say "$kind: make images (log $OUT/make-$kind.log)"
    start=$(date +%s)
    if ! make -C "$build" JOBS="$JOBS" images > "$OUT/make-$kind.log" 2>&1; then
        tail -n 40 "$OUT/make-$kind.log"
        die "$kind: upstream's make images failed (see $OUT/make-$kind.log)"
    fi
    end=$(date +%s)
    rm -rf "${OUT:?}/$kind"
    mkdir -p "$OUT/$kind"
    cp -a "$build/images/jdk" "$OUT/$kind/jdk"
    printf '%s\n' "$((end - start))" > "$OUT/$kind/build-seconds"
    say "$kind: built in $((end - start)) s: $OUT/$kind/jdk"
}

# $1: an image; prints the witnesses' digests as that image's runtime has them.
witness_digests() {
    local jdk=$1 dir names
    dir=$(mktemp -d)
    names=$(printf '%s|' "${WITNESSES[@]}" | sed 's/[.$]/\\&/g; s/|$//')
    "$jdk/bin/jimage" extract --dir "$dir" --include "regex:/java.base/($names)" "$jdk/lib/modules"
    (cd "$dir/java.base" && sha256sum "${WITNESSES[@]}")
    rm -rf "$dir"
}

make_image stock
apply_patch_file "$src"
make_image patched

for kind in stock patched; do
    version=$("$OUT/$kind/jdk/bin/java" -version 2>&1) \
        || die "$kind: $OUT/$kind/jdk/bin/java -version failed: $version"
    say "$kind: $(head -n 1 <<<"$version")"
done
# The patched image's witnesses are the classes its build compiled last; the
# stock image's are none of them.
built=$( (cd "$build/jdk/modules/java.base" && sha256sum "${WITNESSES[@]}") )
[[ "$(witness_digests "$OUT/patched/jdk")" == "$built" ]] \
    || die "patched: the image's ${WITNESSES[*]} are not the ones compiled from the series"
stock=$(witness_digests "$OUT/stock/jdk")
while read -r sum name; do
    if grep -q "^$sum " <<<"$stock"; then
        die "stock: $name is the patched build's"
    fi
done <<<"$built"
# make test JDK=upstream:<line> checks the patched image against them
# (test/jdk/build/PatchedJavaBaseTest.java), as it checks our own image.
mkdir -p "$OUT/support/java.base"
printf '%s\n' "$built" > "$OUT/support/java.base/classes.sha256"
say "stock: $OUT/stock/jdk ($(cat "$OUT/stock/build-seconds") s)"
say "patched: $OUT/patched/jdk ($(cat "$OUT/patched/build-seconds") s, after stock)"
