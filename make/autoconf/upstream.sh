#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The baseline: the exact upstream OpenJDK source tree of the base JDK's
# release, as a git repository whose release tag the patch is made against.
#
# By default it comes from Debian's source package of that release (its
# .orig tarball is upstream's tree, without Debian's patches), fetched with
# apt through a private source list and state under build/upstream/apt, so
# the system's apt configuration and installed packages are never touched.
# --with-upstream=DIR takes any other OpenJDK git checkout instead.

# feature -> "source-package version release-tag suite"
declare -A UPSTREAM_RELEASES=(
    [25]="openjdk-25 25.0.3+9-2~deb13u1 jdk-25.0.3+9 trixie"
    [17]="openjdk-17 17.0.19+10-1~deb12u2 jdk-17.0.19+10 bookworm"
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
    git -C "$dir" rev-parse --verify -q HEAD >/dev/null 2>&1 \
        || printf 'not a git repository with a commit (the patch is a git diff against it)'
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
        UPSTREAM_ORIGIN="--with-upstream ($UPSTREAM_DIR)"
        return
    fi
    [[ -n "${UPSTREAM_RELEASES[$jdk_feature]:-}" ]] \
        || fail "no known upstream tree for JDK $jdk_feature (known: ${!UPSTREAM_RELEASES[*]}); use --with-upstream=DIR"
    local package version tag suite
    read -r package version tag suite <<<"${UPSTREAM_RELEASES[$jdk_feature]}"
    UPSTREAM_DIR=$TOPDIR/build/upstream/$tag
    UPSTREAM_REF=$tag
    UPSTREAM_ORIGIN="Debian source package $package $version"
    if [[ -n "$(upstream_problem "$UPSTREAM_DIR")" ]] \
            || ! git -C "$UPSTREAM_DIR" rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
        fetch_upstream_tree "$package" "$version" "$tag" "$suite" "$UPSTREAM_DIR"
    fi
}

# apt with a source list and state of its own, so nothing of the system's
# apt configuration or package state changes.
private_apt() {
    local tool=$1 state=$2
    shift 2
    "$tool" -o Dir::Etc::SourceList="$state/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" \
        -o APT::Sandbox::User="$(id -un)" "$@"
}

fetch_upstream_tree() {
    local package=$1 version=$2 tag=$3 suite=$4 target=$5
    local state=$TOPDIR/build/upstream/apt archive line uri file hash tarball
    archive=$(debian_archive_uri)
    [[ -n "$archive" ]] \
        || fail "cannot fetch the upstream tree: no Debian archive in /etc/apt/sources.list*; use --with-upstream=DIR"
    info "fetching the upstream tree $tag: $package $version (the .orig tarball) from $archive $suite"
    mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$TOPDIR/build/upstream/download"
    printf 'deb-src %s %s main\n' "$archive" "$suite" > "$state/sources.list"
    private_apt apt-get "$state" update -qq > "$state/update.log" 2>&1 \
        || fail "apt-get update of $archive $suite failed (see $state/update.log)"
    line=$(private_apt apt-get "$state" source --print-uris "$package=$version" 2>/dev/null \
           | awk '$2 ~ /\.orig\.tar\.[a-z]+$/ { print; exit }')
    [[ -n "$line" ]] \
        || fail "source package $package $version is not in $archive $suite; use --with-upstream=DIR"
    read -r uri file _ hash <<<"$line"
    uri=${uri//\'/}
    tarball=$TOPDIR/build/upstream/download/$file
    if [[ ! -f "$tarball" ]]; then
        private_apt /usr/lib/apt/apt-helper "$state" download-file "$uri" "$tarball.tmp" "$hash" \
            > "$state/download.log" 2>&1 || fail "download of $uri failed (see $state/download.log)"
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
    "${git[@]}" add -A -f
    GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
        "${git[@]}" commit -q --no-verify -m "$tag as released ($(basename "$tarball"))"
    "${git[@]}" tag "$tag"
    rm -rf "$target"
    mv "$tmp" "$target"
}
