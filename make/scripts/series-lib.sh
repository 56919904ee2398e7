#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# What make series-check (series-check.sh) and make jcheck (jcheck.sh) share:
# the series make patch wrote, each applied commit by commit with git am to
# a fresh clone of the baseline tree (after the series it depends on, if
# any). Sourced, not run.

# series_patches DIR: the patches of the series in DIR, in order, without
# its cover letter (0000-cover-letter.patch).
series_patches() {
    find "$1" -maxdepth 1 -type f -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' \
        | LC_ALL=C sort
}

# series_prerequisites DIR: sets SERIES_PREREQUISITES to the patches that
# apply before the series in DIR, in order: those of the series of the
# topics its file 'depends' names (make patch writes it for a topic that
# depends on others: a dependent pull request upstream), each the same
# line's series beside it (<topic>/<line>/ -> <other>/<line>/). Empty
# without that file; fails, saying why, when a series it names is missing.
series_prerequisites() {
    local dir line root name
    SERIES_PREREQUISITES=()
    dir=$(realpath "$1")
    [[ -f "$dir/depends" ]] || return 0
    line=$(basename "$dir")
    root=$(dirname "$(dirname "$dir")")
    while read -r name; do
        [[ -n "$name" ]] || continue
        if [[ ! -f "$root/$name/$line/0000-cover-letter.patch" ]]; then
            echo "$dir/depends names $name, but $root/$name/$line holds no series (run make patch)" >&2
            return 1
        fi
        mapfile -t -O "${#SERIES_PREREQUISITES[@]}" SERIES_PREREQUISITES \
            < <(series_patches "$root/$name/$line")
    done < "$dir/depends"
}

# series_name DIR: how the output names the series in DIR: its path below
# SERIES_ROOT (cache/mainline, cache/25u), else the directory's name.
series_name() {
    local dir root
    dir=$(realpath "$1")
    root=$(realpath -m "${SERIES_ROOT:-/nonexistent}")
    if [[ "$dir" == "$root"/* ]]; then
        printf '%s\n' "${dir#"$root"/}"
    else
        basename "$dir"
    fi
}

# series_subject PATCH: the patch's subject, without its [PATCH k/n].
series_subject() {
    awk '/^Subject: / { s = $0; getline n; while (n ~ /^ /) { s = s n; getline n } print s; exit }' "$1" \
        | sed -E 's/^Subject: (\[PATCH[^]]*\] )?//'
}

# series_clone UPSTREAM_DIR REF DEST 'DIR...' PATCH...: DEST becomes a fresh
# clone of the baseline that shares its objects (nothing is written to the
# baseline), on its default branch reset to REF, with only the directories
# the patches touch checked out, and the DIRs (space-separated, may be
# empty): git am needs no more, and it takes a second where the whole tree
# takes ten.
series_clone() {
    local upstream="$1" ref="$2" dest="$3" extra="$4" branch
    shift 4
    rm -rf "${dest:?}"
    git clone -q --shared --no-checkout "$upstream" "$dest"
    # shellcheck disable=SC2086 # $extra is a list of directories
    { sed -n 's|^diff --git a/\(.*\) b/.*$|\1|p' "$@" | xargs -r -n 1 dirname
      [[ -z "$extra" ]] || printf '%s\n' $extra; } \
        | LC_ALL=C sort -u | git -C "$dest" sparse-checkout set --cone --stdin
    # jcheck's branches check allows the default branch: stay on it.
    branch=$(git -C "$dest" symbolic-ref --short HEAD)
    git -C "$dest" checkout -q -B "$branch" "$ref"
}

# series_am DEST PATCH: applies one patch as a commit. The committer is the
# series' author (SERIES_COMMITTER, 'Name <email>'), so that the same
# series gives the same commits; --keep-cr leaves a carriage return in a
# line for the checks to see.
series_am() {
    local name email
    name=$(sed -E 's/ *<.*//' <<<"${SERIES_COMMITTER:?}")
    email=$(sed -E 's/.*<(.*)>.*/\1/' <<<"$SERIES_COMMITTER")
    git -C "$1" -c user.name="$name" -c user.email="$email" am -q --keep-cr \
        --committer-date-is-author-date "$2"
}
