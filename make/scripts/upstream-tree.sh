# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# What make upstream-build and make upstream-images share, sourced by both
# (make/scripts/upstream-build.sh, make/scripts/upstream-images.sh): the
# Debian packages upstream's configure needs, a private clone of a line's
# tree at its tag, and a line's series applied to it.
#
# The sourcing script sets TOPDIR, PYTHON, LINE, UPSTREAM_DIR, UPSTREAM_REF,
# OUT, PATCH_FILE and TOOL (its name in messages).

say() { printf '%s: %s: %s\n' "$TOOL" "$LINE" "$*"; }
die() { printf '%s: %s: error: %s\n' "$TOOL" "$LINE" "$*" >&2; exit 1; }

# What upstream's configure checks for on Linux (doc/building.md there).
BUILD_PACKAGES=(autoconf make zip unzip file gcc g++ libasound2-dev libcups2-dev
                libfontconfig1-dev libx11-dev libxext-dev libxrender-dev libxrandr-dev
                libxtst-dev libxt-dev)

# $@: packages needed besides BUILD_PACKAGES.
install_build_packages() {
    local missing=() p
    for p in "${BUILD_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        say "build dependencies: all installed (${BUILD_PACKAGES[*]} $*)"
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
    grep '^Inst ' <<<"$plan" | sed "s/^/$TOOL:   /"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" > "$OUT/apt-install.log" 2>&1 \
        || die "apt-get install ${missing[*]} failed (see $OUT/apt-install.log)"
}

# $1: where; a fresh clone of UPSTREAM_DIR at UPSTREAM_REF, its objects shared.
clone_tree() {
    local src=$1
    say "copying the tree $UPSTREAM_REF ($UPSTREAM_DIR) to $src"
    rm -rf "$src"
    git clone -q --shared --no-checkout "$UPSTREAM_DIR" "$src"
    git -C "$src" -c advice.detachedHead=false checkout -q "$UPSTREAM_REF"
}

# $1: the tree. make apply's own check-then-apply (webrev/apply.py): all or
# nothing, and a hunk that does not fit is named.
apply_patch_file() {
    local src=$1
    [[ -r "$PATCH_FILE" ]] || die "no series at $PATCH_FILE: run 'make patch' first"
    "$PYTHON" "$TOPDIR/webrev/webrev.py" apply --patch "$PATCH_FILE" --upstream "$src" \
        || die "$PATCH_FILE does not apply to $UPSTREAM_REF"
}

# Upstream's make must not inherit ours (its SPEC, CONF, flags).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES SPEC CONF TEST JTREG MICRO
