#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Resolves what jtreg:<what> means on the overlay of our test/jdk over
# upstream's (the baseline tree's test/jdk):
#
#   all                  every test of our test/jdk
#   <group>              a group of our test/jdk/TEST.groups: each of its
#                        entries resolved as a path (or :group) below; else a
#                        group of upstream's TEST.groups, run in upstream's tree
#   test/jdk:<group>     the same, OpenJDK's spelling
#   <path>[#<id>]        relative to test/jdk (or, starting with test/jdk/, to
#                        the top directory): a file we have runs ours, a file
#                        only upstream has runs upstream's; a directory is the
#                        union of ours and upstream's, a test file of ours
#                        shadowing upstream's file of the same path
#
# Usage: jtreg-resolve.sh <our test/jdk> <upstream test/jdk or ""> <what>
# Prints the tests, space separated, each "ours:<abs path>" or
# "upstream:<abs path>" (with #<id> or :<group> kept), or one
# "error: <message>" (and exits 0: make turns it into its own error).
set -euo pipefail

ours=$1
upstream=$2
what=$3

error() {
    printf 'error: jtreg:%s: %s\n' "$what" "$*"
    exit 0
}

[[ -n "$upstream" && -d "$upstream" ]] || upstream=""

# The names of the groups in a TEST.groups file.
groups_of() {
    [[ -r "$1/TEST.groups" ]] || return 0
    sed -n 's/^\([A-Za-z0-9_]*\)[[:space:]]*=.*/\1/p' "$1/TEST.groups"
}

# The entries of group $2 in $1/TEST.groups (continuation lines joined,
# comments dropped).
group_entries() {
    sed -e 's/#.*//' "$1/TEST.groups" | sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' \
        | sed -n "s/^$2[[:space:]]*=\\(.*\\)/\\1/p"
}

is_group() { # root name
    groups_of "$1" | grep -qx -- "$2"
}

out=()

resolve_path() {
    local path=$1 id=""
    if [[ "$path" == *"#"* ]]; then
        id="#${path#*#}"
        path=${path%%#*}
    fi
    path=${path#./}
    path=${path#test/jdk/}
    while [[ "$path" == */ ]]; do path=${path%/}; done
    [[ -n "$path" ]] || error "names no path"
    [[ "$path" != /* ]] || error "an absolute path; give it relative to test/jdk"
    case "/$path/" in */../*|*/./*) error "'.' and '..' are not allowed in a test path" ;; esac
    if [[ -n "$id" && ! -f "$ours/$path" && ! -f "${upstream:-/nonexistent}/$path" ]]; then
        error "$path$id: an id (#...) needs a test file"
    fi
    if [[ -f "$ours/$path" ]]; then
        out+=("ours:$ours/$path$id")
    elif [[ -d "$ours/$path" ]]; then
        out+=("ours:$ours/$path")
        [[ -z "$upstream" || ! -d "$upstream/$path" ]] || out+=("upstream:$upstream/$path")
    elif [[ -n "$upstream" && -e "$upstream/$path" ]]; then
        out+=("upstream:$upstream/$path$id")
    elif [[ -z "$upstream" ]]; then
        error "$path is not in test/jdk, and this configuration has no upstream tree"
    else
        error "$path is neither in test/jdk nor in upstream's test/jdk ($upstream)"
    fi
}

# Our groups are expanded here (so that their entries overlay); nested
# groups are followed, a cycle stops.
resolve_group() {
    local name=$1 seen=$2 entry
    [[ " $seen " != *" $name "* ]] || error "group $name includes itself"
    for entry in $(group_entries "$ours" "$name"); do
        case "$entry" in
            :*) is_group "$ours" "${entry#:}" \
                    || error "group $name names :${entry#:}, which is not a group of test/jdk/TEST.groups"
                resolve_group "${entry#:}" "$seen $name" ;;
            -*) error "group $name: exclusions ($entry) are not supported in our TEST.groups" ;;
            *) resolve_path "$entry" ;;
        esac
    done
}

target=$what
target=${target#test/jdk:}
[[ -n "$what" ]] || { printf 'error: jtreg: needs a path, a group or all after the colon\n'; exit 0; }
if [[ "$target" == all ]]; then
    out+=("ours:$ours")
elif [[ "$target" =~ ^[A-Za-z0-9_]+$ ]] && is_group "$ours" "$target"; then
    resolve_group "$target" ""
elif [[ "$target" =~ ^[A-Za-z0-9_]+$ && -n "$upstream" ]] && is_group "$upstream" "$target"; then
    out+=("upstream:$upstream:$target")
elif [[ "$what" == test/jdk:* ]]; then
    error "$target is not a group of test/jdk/TEST.groups${upstream:+ nor of the upstream tree}"
else
    resolve_path "$target"
fi
((${#out[@]} > 0)) || error "selects no test"
printf '%s\n' "${out[*]}"
