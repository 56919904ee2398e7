#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Messages and package installation shared by the configure scripts.

fail() {
    printf 'configure: error: %s\n' "$1" >&2
    exit 1
}

warn() {
    printf 'configure: warning: %s\n' "$1" >&2
}

info() {
    printf 'configure: %s\n' "$1"
}

# True when configure may install packages itself: as root, or in CI
# (where sudo must work without a password).
may_install() {
    [[ "$(id -u)" == 0 ]] && return 0
    [[ "${CI:-}" == true ]] && sudo -n true 2>/dev/null
}

apt_command() {
    if [[ "$(id -u)" == 0 ]]; then
        printf 'apt-get'
    else
        printf 'sudo apt-get'
    fi
}

# Debian packages that configure decided to install, and for what.
PLANNED_PACKAGES=()

plan_package() {
    local package=$1 planned
    for planned in "${PLANNED_PACKAGES[@]}"; do
        [[ "$planned" != "$package" ]] || return 0
    done
    PLANNED_PACKAGES+=("$package")
}

# Installs the planned packages with one apt-get run. Where configure may not
# install, it says what to run; what is then still missing is decided by the
# checks that follow (fatal for required tools, a skip for optional ones).
install_planned_packages() {
    ((${#PLANNED_PACKAGES[@]} > 0)) || return 0
    local apt
    apt=$(apt_command)
    if ! may_install || ! command -v apt-get >/dev/null; then
        warn "missing packages: ${PLANNED_PACKAGES[*]}"
        warn "install them with: $apt update && $apt install -y --no-install-recommends ${PLANNED_PACKAGES[*]}"
        return 0
    fi
    info "installing ${PLANNED_PACKAGES[*]}"
    local -a sudo=()
    [[ "$(id -u)" == 0 ]] || sudo=(sudo -n)
    "${sudo[@]}" apt-get update -qq >/dev/null \
        || fail "'$apt update' failed; run it by hand to see why"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
        --no-install-recommends "${PLANNED_PACKAGES[@]}" >/dev/null \
        || fail "'$apt install ${PLANNED_PACKAGES[*]}' failed; run it by hand to see why"
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
