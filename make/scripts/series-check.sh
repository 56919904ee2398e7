#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make series-check: every prefix of every series applies and compiles.
#
# For each series directory make patch wrote (build/<conf>/patch/<topic>/),
# the patches are applied one by one with git am to a fresh clone of the
# baseline tree (make/scripts/series-lib.sh), and after patch k the Java
# files of java.base that patches 1..k added or changed are compiled by the
# base JDK's javac (-Xlint:all -Werror) as patches of java.base made of the
# tree's sources as a Linux build sees them: src/java.base/share/classes,
# then unix/classes and linux/classes, which the shared classes use (without
# them, javac 17 warns that the shared sources use internal API of the base
# JDK's image). A patch that breaks the build of its prefix fails, whatever
# later patches do. Tests and benchmarks are not compiled here (make test
# does), nor native files (make upstream-build and make test
# TEST=windows:all do), nor java.base's Windows and macOS classes: a prefix
# without a Java change of java.base's Linux classes says so and passes.
#
# Usage: series-check.sh <work dir> <series dir>...
# Environment: JAVAC, UPSTREAM_DIR, UPSTREAM_REF, PATCH_AUTHOR.
set -euo pipefail

: "${JAVAC:?}" "${UPSTREAM_DIR:?}" "${UPSTREAM_REF:?}" "${PATCH_AUTHOR:?}"
# shellcheck source=make/scripts/series-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/series-lib.sh"
SERIES_COMMITTER=$PATCH_AUTHOR

work=$(realpath -m "$1")
shift
(($# > 0)) || { echo "series-check: no series given" >&2; exit 2; }

# java.base's classes as a Linux build has them.
CLASS_DIRS=(src/java.base/share/classes src/java.base/unix/classes src/java.base/linux/classes)
say() { printf 'series-check: %s\n' "$*"; }

# others TREE: what the prefix changes besides java.base's shared classes,
# counted by kind: "3 native, 1 test".
others() {
    git -C "$1" diff --name-only "$UPSTREAM_REF" HEAD | awk '
        /^src\/[^\/]+\/[^\/]+\/native\// { n["native"]++; next }
        /^test\// { n["test"]++; next }
        /^src\/java\.base\/(share|unix|linux)\/classes\// { n["java.base, not Java"]++; next }
        /^src\/[^\/]+\/[^\/]+\/classes\// { n["other platform or module classes, not compiled here"]++; next }
        { n["other"]++ }
        END { sep = ""; for (k in n) { printf "%s%d %s", sep, n[k], k; sep = ", " } }'
}

failures=0
prefixes=0
for dir in "$@"; do
    dir=$(realpath "$dir")
    topic=$(basename "$dir")
    mapfile -t patches < <(series_patches "$dir")
    if ((${#patches[@]} == 0)); then
        say "FAILED: $topic: no patches in $dir"
        failures=$((failures + 1))
        continue
    fi
    tree="$work/$topic/tree"
    # The whole of java.base's classes: javac reads the release's sources
    # for what the changed files use.
    series_clone "$UPSTREAM_DIR" "$UPSTREAM_REF" "$tree" "${CLASS_DIRS[*]}" "${patches[@]}"
    patch_path=$(cd "$tree" && for d in "${CLASS_DIRS[@]}"; do [[ ! -d "$d" ]] || printf '%s:' "$d"; done)
    n=${#patches[@]}
    for ((k = 1; k <= n; k++)); do
        patch=${patches[k - 1]}
        what="$topic 1..$k of $n ($(series_subject "$patch"))"
        prefixes=$((prefixes + 1))
        if ! series_am "$tree" "$patch" > "$work/$topic/am-$k.log" 2>&1; then
            cat "$work/$topic/am-$k.log"
            say "FAILED: $what: $(basename "$patch") does not apply"
            failures=$((failures + 1))
            git -C "$tree" am --abort 2> /dev/null || true
            break
        fi
        mapfile -t sources < <(git -C "$tree" diff --name-only --diff-filter=d \
            "$UPSTREAM_REF" HEAD -- "${CLASS_DIRS[@]/%//*.java}" | LC_ALL=C sort)
        if ((${#sources[@]} == 0)); then
            say "ok: $what: no Java file of java.base (Linux) changed, nothing to compile ($(others "$tree"))"
            continue
        fi
        classes="$work/$topic/classes-$k"
        rm -rf "$classes" && mkdir -p "$classes"
        # -implicit:none: what the changed files use is compiled from the
        # tree's sources (so errors and warnings there count), but only the
        # changed files are written.
        if (cd "$tree" && "$JAVAC" -Xlint:all -Werror -implicit:none \
                --patch-module "java.base=${patch_path%:}" -d "$classes" "${sources[@]}") \
                > "$work/$topic/javac-$k.log" 2>&1; then
            say "ok: $what: ${#sources[@]} Java file(s) of java.base compile"
        else
            cat "$work/$topic/javac-$k.log"
            say "FAILED: $what: java.base does not compile (${sources[*]})"
            failures=$((failures + 1))
        fi
    done
done

if ((failures > 0)); then
    say "$failures of the series' prefixes failed ($prefixes tried)"
    exit 1
fi
say "every prefix of $# series applies and compiles ($prefixes prefixes)"
