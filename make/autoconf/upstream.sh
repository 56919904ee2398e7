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

# feature -> "source-package debian-version release-tag orig-tarball sha256"
declare -A UPSTREAM_RELEASES=(
    [25]="openjdk-25 25.0.3+9-2~deb13u1 jdk-25.0.3+9 openjdk-25_25.0.3+9.orig.tar.xz 2dd6c441b49705480db1ebfcd03f43d5dcb7f1d4290e98c1fa6eeefae50cfa07"
    [17]="openjdk-17 17.0.19+10-1~deb12u2 jdk-17.0.19+10 openjdk-17_17.0.19+10.orig.tar.xz 7a61915b168dfb9b45413140d78e38dc5b5250d99d1d99fef7136bf9fd45a07c"
)

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

validate_upstream() {
    local problem
    problem=$(upstream_problem "$1")
    [[ -z "$problem" ]] || fail "--with-upstream=$1: $problem"
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

# Sets UPSTREAM_DIR, UPSTREAM_REF and UPSTREAM_ORIGIN.
find_upstream() {
    local jdk_feature=$1 dir=$2
    if [[ -n "$dir" ]]; then
        UPSTREAM_DIR=$(cd "$dir" && pwd -P)
        UPSTREAM_REF=$(git -C "$UPSTREAM_DIR" describe --tags --exact-match HEAD 2>/dev/null \
                       || git -C "$UPSTREAM_DIR" rev-parse --short=12 HEAD)
        # Named by where it was cloned from, never by a local path: the
        # origin goes into the webrev, which others read.
        local remote
        remote=$(git -C "$UPSTREAM_DIR" remote get-url origin 2>/dev/null || true)
        [[ "$remote" == *://* ]] || remote=""
        UPSTREAM_ORIGIN="an OpenJDK checkout${remote:+ of $remote} at $UPSTREAM_REF"
        return
    fi
    [[ -n "${UPSTREAM_RELEASES[$jdk_feature]:-}" ]] \
        || fail "no known upstream tree for JDK $jdk_feature (known: ${!UPSTREAM_RELEASES[*]}); use --with-upstream=DIR"
    local package version tag file sha
    read -r package version tag file sha <<<"${UPSTREAM_RELEASES[$jdk_feature]}"
    UPSTREAM_DIR=$TOPDIR/build/upstream/$tag
    UPSTREAM_REF=$tag
    UPSTREAM_ORIGIN="Debian source package $package $version"
    if [[ -n "$(upstream_problem "$UPSTREAM_DIR")" ]] \
            || ! git -C "$UPSTREAM_DIR" rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
        fetch_upstream_tree "$package" "$version" "$tag" "$file" "$sha" "$UPSTREAM_DIR"
    fi
}

fetch_upstream_tree() {
    local package=$1 version=$2 tag=$3 file=$4 sha=$5 target=$6
    local downloads=$TOPDIR/build/upstream/download archive pool tarball
    tarball=$downloads/$file
    if [[ ! -f "$tarball" ]]; then
        archive=$(debian_archive_uri)
        [[ -n "$archive" ]] \
            || fail "cannot fetch the upstream tree: no Debian archive in /etc/apt/sources.list*; use --with-upstream=DIR"
        # The pool's directory: lib* sources under their first four letters.
        pool=${package:0:1}
        [[ "$package" != lib* ]] || pool=${package:0:4}
        info "fetching the upstream tree $tag: $file of $package $version from $archive"
        mkdir -p "$downloads"
        /usr/lib/apt/apt-helper download-file "$archive/pool/main/$pool/$package/$file" \
                "$tarball.tmp" "SHA256:$sha" > "$downloads/download.log" 2>&1 \
            || fail "download of $file failed (see $downloads/download.log); use --with-upstream=DIR"
        mv "$tarball.tmp" "$tarball"
    fi
    unpack_upstream_tree "$tarball" "$tag" "$target"
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
