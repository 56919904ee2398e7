#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The baseline: the exact upstream OpenJDK source tree of the base JDK's
# release, as a git repository whose release tag the patch is made against.
#
# By default it comes from Debian's source package of that release: its
# .orig tarball is upstream's tree, without Debian's patches. The tarball is
# pinned by name and SHA-256 and fetched from the pool of the Debian archive
# this machine's apt uses, with apt's own downloader, into build/upstream;
# the system's apt configuration and installed packages are never touched.
# Not through the archive's index: it lists only a suite's newest version
# (trixie moved from 25.0.3+9 to 25.0.5+8 in 2026-11), while the pool keeps
# the released tarball. --with-upstream=DIR takes any other OpenJDK git
# checkout instead.
#
# The mainline stand-in: a change goes to mainline (openjdk/jdk) first and
# is backported to the release lines afterwards. This machine cannot fetch
# openjdk/jdk, so the newest feature release in the pool, fetched the same
# way, stands in for it: the series are made against it first, and the base
# JDK's release line gets their backports. --with-mainline=DIR takes any
# other OpenJDK git checkout (a clone of openjdk/jdk, say) instead.

# feature -> "source-package debian-version release-tag orig-tarball sha256"
declare -A UPSTREAM_RELEASES=(
    [25]="openjdk-25 25.0.3+9-2~deb13u1 jdk-25.0.3+9 openjdk-25_25.0.3+9.orig.tar.xz 2dd6c441b49705480db1ebfcd03f43d5dcb7f1d4290e98c1fa6eeefae50cfa07"
    [17]="openjdk-17 17.0.19+10-1~deb12u2 jdk-17.0.19+10 openjdk-17_17.0.19+10.orig.tar.xz 7a61915b168dfb9b45413140d78e38dc5b5250d99d1d99fef7136bf9fd45a07c"
    [26]="openjdk-26 26.0.2.1+1-1 jdk-26.0.2.1+1 openjdk-26_26.0.2.1+1.orig.tar.xz b9a893567232edf475e1511ce2de897a00bc3d775f2e46269f492164150f0d76"
)
# feature -> "source-package debian-version jdk-headless-sha256 jre-headless-sha256"
# of the amd64 packages:
# Debian's build of the release tree above, for a base JDK of an older
# release of that feature (Debian 12 installs 17.0.15; its baseline is
# 17.0.19). A change to a file whose neighbours differ between the two
# releases (17.0.19's SSLSocketImpl reads a field 17.0.15 lacks) compiles
# only against its own release, so the image is made from that build.
declare -A UPSTREAM_RELEASE_RUNTIMES=(
    [17]="openjdk-17 17.0.19+10-1~deb12u2 390eff9273f019e2839a0faaef7a7326d11c32c7db8320316dc6feac48ed2598 587784e0d7efa5256b2224c2f177850a2408485b19ab7e5cb206ceba6a6e9bd4"
)
# The feature release that stands in for mainline (its JDK binaries need a
# newer glibc than Debian 12's: it is a tree to apply and build, not to run).
readonly MAINLINE_STAND_IN=26
# The release lines the change is backported to, in the order the backports
# follow mainline.
readonly RELEASE_LINES="25u 17u"

# A file that every OpenJDK tree of these releases has; its absence means
# DIR is not an OpenJDK checkout.
readonly UPSTREAM_MARKER=src/java.base/share/classes/java/lang/Object.java

# Prints why DIR cannot be the baseline, or nothing when it can.
upstream_problem() {
    local dir=$1
    [[ -d "$dir" ]] || { printf 'no such directory'; return; }
    [[ -f "$dir/$UPSTREAM_MARKER" ]] \
        || { printf 'not an OpenJDK source tree: %s is missing' "$UPSTREAM_MARKER"; return; }
    # The top of its own repository: a plain directory inside some other
    # repository must not pass for one.
    if [[ "$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$dir" && pwd -P)" ]] \
            || ! git -C "$dir" rev-parse --verify -q HEAD >/dev/null 2>&1; then
        printf 'not a git repository with a commit (the patch is a git diff against it)'
    fi
}

# validate_upstream DIR [OPTION]: fails naming the option (--with-upstream)
# when DIR cannot be a tree to make the series against.
validate_upstream() {
    local problem
    problem=$(upstream_problem "$1")
    [[ -z "$problem" ]] || fail "${2:---with-upstream}=$1: $problem"
}

# The archive this machine's apt already uses for Debian itself (not its
# security archive): the first deb URI in its source lists.
debian_archive_uri() {
    local file uri
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [[ -r "$file" ]] || continue
        uri=$(sed -n -E \
                -e 's/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([a-z]+:[^[:space:]]+)[[:space:]].*/\2/p' \
                -e 's/^URIs:[[:space:]]*([^[:space:]]+).*/\1/p' "$file" \
              | grep -v -- '-security' | head -n 1)
        if [[ -n "$uri" ]]; then
            printf '%s' "${uri%/}"
            return
        fi
    done
}

# find_tree FEATURE DIR: sets TREE_DIR, TREE_REF and TREE_ORIGIN for DIR (an
# OpenJDK checkout the user named), or, without DIR, for the release tree of
# JDK FEATURE from Debian's source package, fetched when it is not there yet.
find_tree() {
    local feature=$1 dir=$2
    if [[ -n "$dir" ]]; then
        TREE_DIR=$(cd "$dir" && pwd -P)
        TREE_REF=$(git -C "$TREE_DIR" describe --tags --exact-match HEAD 2>/dev/null \
                   || git -C "$TREE_DIR" rev-parse --short=12 HEAD)
        # Named by where it was cloned from, never by a local path: the
        # origin goes into the webrev, which others read.
        local remote
        remote=$(git -C "$TREE_DIR" remote get-url origin 2>/dev/null || true)
        [[ "$remote" == *://* ]] || remote=""
        TREE_ORIGIN="an OpenJDK checkout${remote:+ of $remote} at $TREE_REF"
        return
    fi
    local package version tag file sha
    read -r package version tag file sha <<<"${UPSTREAM_RELEASES[$feature]}"
    TREE_DIR=$TOPDIR/build/upstream/$tag
    TREE_REF=$tag
    TREE_ORIGIN="Debian source package $package $version"
    if [[ -n "$(upstream_problem "$TREE_DIR")" ]] \
            || ! git -C "$TREE_DIR" rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
        fetch_upstream_tree "$package" "$version" "$tag" "$file" "$sha" "$TREE_DIR"
    fi
}

# Sets UPSTREAM_DIR, UPSTREAM_REF and UPSTREAM_ORIGIN: the base JDK's release.
find_upstream() {
    local jdk_feature=$1 dir=$2
    [[ -n "$dir" || -n "${UPSTREAM_RELEASES[$jdk_feature]:-}" ]] \
        || fail "no known upstream tree for JDK $jdk_feature (known: ${!UPSTREAM_RELEASES[*]}); use --with-upstream=DIR"
    find_tree "$jdk_feature" "$dir"
    UPSTREAM_DIR=$TREE_DIR
    UPSTREAM_REF=$TREE_REF
    UPSTREAM_ORIGIN=$TREE_ORIGIN
}

# The feature version of an OpenJDK source tree (its version-numbers.conf),
# or nothing when it does not say.
tree_feature() {
    [[ -r "$1/make/conf/version-numbers.conf" ]] || return 0
    sed -n 's/^DEFAULT_VERSION_FEATURE=\([0-9][0-9]*\).*/\1/p' \
        "$1/make/conf/version-numbers.conf" | head -n 1
}

# Sets MAINLINE_FEATURE, the feature version of the mainline tree: DIR's
# (--with-mainline), else the stand-in's. Input only: nothing is fetched.
mainline_feature() {
    local jdk_feature=$1 dir=$2
    if [[ -n "$dir" ]]; then
        validate_upstream "$dir" "--with-mainline"
        MAINLINE_FEATURE=$(tree_feature "$dir")
        [[ -n "$MAINLINE_FEATURE" ]] \
            || fail "--with-mainline=$dir: no DEFAULT_VERSION_FEATURE in its make/conf/version-numbers.conf"
    else
        MAINLINE_FEATURE=$MAINLINE_STAND_IN
    fi
    ((jdk_feature <= MAINLINE_FEATURE)) \
        || fail "the base JDK (JDK $jdk_feature) is newer than the mainline tree (JDK $MAINLINE_FEATURE): use --with-mainline=DIR"
}

# Sets MAINLINE_DIR, MAINLINE_REF and MAINLINE_ORIGIN: the tree the series
# are made against first; and RELEASE_LINE, the base JDK's release line
# (25u), whose series are their backports: empty when the base JDK is itself
# of the mainline's feature version, which has no backport.
find_mainline() {
    local jdk_feature=$1 dir=$2
    find_tree "$MAINLINE_STAND_IN" "$dir"
    MAINLINE_DIR=$TREE_DIR
    MAINLINE_REF=$TREE_REF
    MAINLINE_ORIGIN=$TREE_ORIGIN
    [[ "$(tree_feature "$MAINLINE_DIR")" == "$MAINLINE_FEATURE" ]] \
        || fail "$MAINLINE_DIR is not a JDK $MAINLINE_FEATURE tree (make/conf/version-numbers.conf)"
    RELEASE_LINE=""
    ((jdk_feature == MAINLINE_FEATURE)) || RELEASE_LINE=${jdk_feature}u
}

# Sets MAINLINE_BOOT_JDK, the JDK that upstream's build of the mainline tree
# runs on (its configure takes a boot JDK of its own feature version or the
# one before): DIR, else the base JDK when it is one, else the newest such
# JDK under /usr/lib/jvm; when there is none, it is empty and
# MAINLINE_BUILD_SKIP_REASON says why. Input only: nothing is installed.
find_mainline_boot_jdk() {
    local dir=$1 candidate feature best="" best_version="" version
    MAINLINE_BOOT_JDK=""
    MAINLINE_BUILD_SKIP_REASON=""
    if [[ -n "$dir" ]]; then
        MAINLINE_BOOT_JDK=$(validate_boot_jdk "$dir" "--with-mainline-boot-jdk=$dir")
        feature=$(boot_jdk_feature "$MAINLINE_BOOT_JDK")
        ((feature == MAINLINE_FEATURE || feature == MAINLINE_FEATURE - 1)) \
            || fail "--with-mainline-boot-jdk=$dir: JDK $feature cannot build the mainline tree (JDK $MAINLINE_FEATURE needs a boot JDK $((MAINLINE_FEATURE - 1)) or $MAINLINE_FEATURE)"
        return
    fi
    for candidate in "$BOOT_JDK" /usr/lib/jvm/*/; do
        candidate=${candidate%/}
        [[ -z "$(boot_jdk_problem "$candidate")" ]] || continue
        feature=$(boot_jdk_feature "$candidate")
        ((feature == MAINLINE_FEATURE || feature == MAINLINE_FEATURE - 1)) || continue
        if [[ "$candidate" == "$BOOT_JDK" ]]; then
            best=$candidate
            break
        fi
        version=$(release_value "$candidate" JAVA_VERSION)
        if [[ -z "$best" ]] || version_newer "$version" "$best_version"; then
            best=$candidate
            best_version=$version
        fi
    done
    if [[ -n "$best" ]]; then
        MAINLINE_BOOT_JDK=$(cd "$best" && pwd -P)
    else
        MAINLINE_BUILD_SKIP_REASON="no JDK $((MAINLINE_FEATURE - 1)) or $MAINLINE_FEATURE under /usr/lib/jvm to build the mainline tree with (--with-mainline-boot-jdk=DIR)"
    fi
}

# fetch_from_pool PACKAGE FILE SHA256 TARGET [HINT]: FILE of source package
# PACKAGE from the pool of this machine's Debian archive, checked against
# SHA256, unless TARGET is already there; a failure names HINT, what the
# user can do instead.
fetch_from_pool() {
    local package=$1 file=$2 sha=$3 target=$4 hint=${5:+; $5} archive pool
    [[ ! -f "$target" ]] || return 0
    archive=$(debian_archive_uri)
    [[ -n "$archive" ]] \
        || fail "cannot fetch $file: no Debian archive in /etc/apt/sources.list*$hint"
    # The pool's directory: lib* sources under their first four letters.
    pool=${package:0:1}
    [[ "$package" != lib* ]] || pool=${package:0:4}
    info "fetching $file from $archive"
    mkdir -p "$(dirname "$target")"
    /usr/lib/apt/apt-helper download-file "$archive/pool/main/$pool/$package/$file" \
            "$target.tmp" "SHA256:$sha" > "$target.log" 2>&1 \
        || fail "download of $file failed (see $target.log)$hint"
    mv "$target.tmp" "$target"
}

fetch_upstream_tree() {
    local package=$1 version=$2 tag=$3 file=$4 sha=$5 target=$6
    local tarball=$TOPDIR/build/upstream/download/$file
    fetch_from_pool "$package" "$file" "$sha" "$tarball" "use --with-upstream=DIR"
    unpack_upstream_tree "$tarball" "$tag" "$target"
}

# release_runtime FEATURE TAG: sets RELEASE_RUNTIME to Debian's build of
# release TAG (UPSTREAM_RELEASE_RUNTIMES), unpacked under build/tools/ from
# its jdk-headless and jre-headless packages, not installed; empty when none
# is pinned for this machine. The packages' links into the installed
# package's /etc point into the unpacked /etc, so nothing of the installed
# JDK is used; a link to another package's file (cacerts) stays, with a
# warning if that file is missing.
release_runtime() {
    local feature=$1 tag=$2 package version jdk_sha jre_sha dir part sha file link target
    RELEASE_RUNTIME=""
    [[ -n "${UPSTREAM_RELEASE_RUNTIMES[$feature]:-}" ]] || return 0
    [[ "$(dpkg --print-architecture 2>/dev/null)" == amd64 ]] || return 0
    read -r package version jdk_sha jre_sha <<<"${UPSTREAM_RELEASE_RUNTIMES[$feature]}"
    dir=$TOPDIR/build/tools/$tag-$package-$version
    RELEASE_RUNTIME=$dir/root/usr/lib/jvm/java-$feature-openjdk-amd64
    [[ ! -f "$RELEASE_RUNTIME/release" ]] || return 0
    rm -rf "$dir/root.tmp"
    mkdir -p "$dir/root.tmp"
    for part in jdk-headless jre-headless; do
        sha=$jdk_sha
        [[ "$part" == jdk-headless ]] || sha=$jre_sha
        file=${package}-${part}_${version}_amd64.deb
        fetch_from_pool "$package" "$file" "$sha" "$dir/$file"
        dpkg-deb -x "$dir/$file" "$dir/root.tmp"
    done
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        if [[ -e "$dir/root.tmp$target" ]]; then
            ln -sfr "$dir/root.tmp$target" "$link"
        elif [[ ! -e "$target" ]]; then
            warn "${link#"$dir/root.tmp"} of Debian's $tag links to $target, which this machine lacks"
        fi
    done < <(find "$dir/root.tmp" -type l -lname '/etc/*' -print0)
    rm -rf "$dir/root"
    mv "$dir/root.tmp" "$dir/root"
    info "unpacked Debian's $package $version into $dir (not installed)"
}

# One commit with a fixed author and date, tagged with the release, so the
# same tarball always gives the same commit id.
unpack_upstream_tree() {
    local tarball=$1 tag=$2 target=$3 tmp=$3.tmp
    info "unpacking $(basename "$tarball") into $target (a git repository tagged $tag)"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    tar --no-same-owner --strip-components=1 -xf "$tarball" -C "$tmp"
    local -a git=(git -C "$tmp" -c user.name=upstream -c user.email=upstream@invalid
                  -c core.autocrlf=false -c core.safecrlf=false)
    "${git[@]}" init -q
    # No detached auto-gc repacking 70,000 objects behind later commands' backs.
    "${git[@]}" config gc.auto 0
    "${git[@]}" add -A -f
    GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
        "${git[@]}" commit -q --no-verify -m "$tag as released ($(basename "$tarball"))"
    "${git[@]}" tag "$tag"
    rm -rf "$target"
    mv "$tmp" "$target"
}
