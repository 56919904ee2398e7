#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Resolves what jtreg:<what> means on the overlay of our test/jdk over
# upstream's (the baseline tree's test/jdk):
#
#   all, test/jdk        every test of our test/jdk
#   <group>              a group of our test/jdk/TEST.groups or of the
#                        overlay's groups file (test/TEST.overlay-groups,
#                        whose entries may name upstream's tests, so jtreg
#                        must not read it as a TEST.groups): each of its
#                        entries resolved as a path (or :group) below; else a
#                        group of upstream's TEST.groups, run in upstream's tree
#   test/jdk:<group>     the same, OpenJDK's spelling
#   <path>[#<id>]        relative to test/jdk (or, starting with test/jdk/, to
#                        the top directory): a file we have runs ours, a file
#                        only upstream has runs upstream's, unless we have
#                        hunk files for it (<file>.patch, <file>.*.patch):
#                        then it runs with ours, as the patch makes it; a
#                        directory is the union of ours and upstream's, a
#                        test file of ours shadowing upstream's file of the
#                        same path
#
# Usage: jtreg-resolve.sh <our test/jdk> <overlay groups file> <upstream test/jdk or ""> <what>
# Prints the tests, space separated, each "ours:<abs path>" or
# "upstream:<abs path>" (with #<id> or :<group> kept), or one
# "error: <message>" (and exits 0: make turns it into its own error).
set -euo pipefail

ours=$1
overlay_groups=$2
upstream=$3
what=$4

error() {
    printf 'error: jtreg:%s: %s\n' "$what" "$*"
    exit 0
}

[[ -n "$upstream" && -d "$upstream" ]] || upstream=""

# Our groups files: test/jdk/TEST.groups and the overlay's.
our_groups=("$ours/TEST.groups" "$overlay_groups")

# The names of the groups in the given TEST.groups files.
groups_of() {
    local f
    for f in "$@"; do
        [[ ! -r "$f" ]] || sed -n 's/^\([A-Za-z0-9_]*\)[[:space:]]*=.*/\1/p' "$f"
    done
}

# The entries of group $1 in our groups files (continuation lines joined,
# comments dropped).
group_entries() {
    local f
    for f in "${our_groups[@]}"; do
        [[ -r "$f" ]] || continue
        sed -e 's/#.*//' "$f" | sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' \
            | sed -n "s/^$1[[:space:]]*=\\(.*\\)/\\1/p"
    done
}

is_our_group() {
    groups_of "${our_groups[@]}" | grep -x -- "$1" > /dev/null
}

out=()

# True when we change upstream's file $1 with hunk files.
has_hunk_files() {
    local f
    for f in "$ours/$1.patch" "$ours/$1".*.patch; do
        [[ ! -f "$f" ]] || return 0
    done
    return 1
}

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
    if [[ -f "$ours/$path" ]] || has_hunk_files "$path"; then
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
    local -a entries
    [[ " $seen " != *" $name "* ]] || error "group $name includes itself"
    # Split on blanks only: an entry is never expanded as a glob.
    read -ra entries <<<"$(group_entries "$name" | tr '\n' ' ')"
    for entry in "${entries[@]}"; do
        case "$entry" in
            :*) is_our_group "${entry#:}" \
                    || error "group $name names :${entry#:}, which is not one of our groups"
                resolve_group "${entry#:}" "$seen $name" ;;
            -*) error "group $name: exclusions ($entry) are not supported in our groups" ;;
            *) resolve_path "$entry" ;;
        esac
    done
}

target=$what
target=${target#test/jdk:}
[[ -n "$what" ]] || { printf 'error: jtreg: needs a path, a group or all after the colon\n'; exit 0; }
if [[ "$target" == all || "$target" == test/jdk || "$target" == test/jdk/ ]]; then
    out+=("ours:$ours")
elif [[ "$target" =~ ^[A-Za-z0-9_]+$ ]] && is_our_group "$target"; then
    resolve_group "$target" ""
elif [[ "$target" =~ ^[A-Za-z0-9_]+$ && -n "$upstream" ]] && groups_of "$upstream/TEST.groups" | grep -x -- "$target" > /dev/null; then
    out+=("upstream:$upstream:$target")
elif [[ "$what" == test/jdk:* ]]; then
    error "$target is not one of our groups${upstream:+ nor of the upstream tree}"
else
    resolve_path "$target"
fi
((${#out[@]} > 0)) || error "selects no test"
printf '%s\n' "${out[*]}"
