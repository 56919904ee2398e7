#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make series-check: every prefix of every series applies and compiles.
#
# For each series directory make patch wrote (build/<conf>/patch/<topic>/
# <line>/), the patches are applied one by one with git am to a fresh clone
# of the tree the series is for (UPSTREAM_DIR: make/Patch.gmk runs this
# once for the mainline series, with the mainline tree, and once for the
# backports, with the baseline; make/scripts/series-lib.sh), and after
# patch k the Java files of java.base that patches 1..k added or changed
# are compiled by JAVAC (-Xlint:all -Werror) as patches of java.base made of the
# tree's sources as a Linux build sees them: src/java.base/share/classes,
# then unix/classes and linux/classes, which the shared classes use (without
# them, javac 17 warns that the shared sources use internal API of the base
# JDK's image). A patch that breaks the build of its prefix fails, whatever
# later patches do. A series of a topic that depends on others (its file
# 'depends') is applied after theirs (series-lib.sh): its prefixes are its
# own patches, on top of their series. Tests and benchmarks are not
# compiled here (make test does), nor native files (make upstream-build and
# make test TEST=windows:all do), nor java.base's Windows and macOS
# classes: a prefix without a Java change of java.base's Linux classes says
# so and passes.
#
# A tree of another feature version than JAVAC's (the mainline tree, whose
# JDK does not run here, checked with the JDK that builds it) is not read
# as sources: its java.base needs classes that only its own build
# generates, and a newer javac. There, the changed files alone are compiled,
# against JAVAC's own java.base; make upstream-build compiles them in the
# tree.
#
# Usage: series-check.sh <work dir> <series dir>...
# Environment: JAVAC, UPSTREAM_DIR, UPSTREAM_REF (the tree the series are
#   for, and its tag), PATCH_AUTHOR; SERIES_ROOT (optional: the output names
#   a series by its path below it).
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

# others TREE BASE: what the prefix changes besides java.base's shared
# classes, counted by kind: "3 native, 1 test".
others() {
    git -C "$1" diff --name-only "$2" HEAD | awk '
        /^src\/[^\/]+\/[^\/]+\/native\// { n["native"]++; next }
        /^test\// { n["test"]++; next }
        /^src\/java\.base\/(share|unix|linux)\/classes\// { n["java.base, not Java"]++; next }
        /^src\/[^\/]+\/[^\/]+\/classes\// { n["other platform or module classes, not compiled here"]++; next }
        { n["other"]++ }
        END { sep = ""; for (k in n) { printf "%s%d %s", sep, n[k], k; sep = ", " } }'
}

# The feature versions of JAVAC and of the tree.
javac_feature=$("$JAVAC" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
tree_feature=$(git -C "$UPSTREAM_DIR" show "$UPSTREAM_REF:make/conf/version-numbers.conf" 2> /dev/null \
               | sed -n 's/^DEFAULT_VERSION_FEATURE=\([0-9]*\).*/\1/p')
own_sources=1
if [[ -n "$tree_feature" && "$javac_feature" != "$tree_feature" ]]; then
    own_sources=0
    say "$UPSTREAM_REF is JDK $tree_feature and javac JDK $javac_feature: the changed files are compiled against JDK $javac_feature's java.base, not the tree's sources"
fi

failures=0
prefixes=0
for dir in "$@"; do
    dir=$(realpath "$dir")
    topic=$(series_name "$dir")
    mapfile -t patches < <(series_patches "$dir")
    if ((${#patches[@]} == 0)); then
        say "FAILED: $topic: no patches in $dir"
        failures=$((failures + 1))
        continue
    fi
    if ! series_prerequisites "$dir"; then
        say "FAILED: $topic: the series it depends on are missing"
        failures=$((failures + 1))
        continue
    fi
    pre=("${SERIES_PREREQUISITES[@]}")
    tree="$work/$topic/tree"
    # The whole of java.base's classes: javac reads the release's sources
    # for what the changed files use.
    series_clone "$UPSTREAM_DIR" "$UPSTREAM_REF" "$tree" "$( ((own_sources)) && echo "${CLASS_DIRS[*]}")" \
        "${pre[@]}" "${patches[@]}"
    for patch in "${pre[@]}"; do
        if ! series_am "$tree" "$patch" > "$work/$topic/am-depends.log" 2>&1; then
            cat "$work/$topic/am-depends.log"
            say "FAILED: $topic: $patch, of a series it depends on, does not apply"
            failures=$((failures + 1))
            continue 2
        fi
    done
    # What the prefixes add to: the tag, or the tag with the series this one
    # depends on. Compiled in the tree's sources, the prefix's own files (the
    # others are in the tree); alone, theirs too, which the prefix may use.
    onto=$(git -C "$tree" rev-parse HEAD)
    since=$onto
    ((own_sources)) || since=$UPSTREAM_REF
    ((${#pre[@]} == 0)) || say "$topic: on top of $(paste -sd' ' "$dir/depends")'s series (${#pre[@]} patch(es))"
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
            "$since" HEAD -- "${CLASS_DIRS[@]/%//*.java}" | LC_ALL=C sort)
        if ((${#sources[@]} == 0)); then
            say "ok: $what: no Java file of java.base (Linux) changed, nothing to compile ($(others "$tree" "$onto"))"
            continue
        fi
        classes="$work/$topic/classes-$k"
        rm -rf "$classes" && mkdir -p "$classes"
        against=""
        if ((own_sources)); then
            root=$tree
            path=${patch_path%:}
        else
            # The changed files alone, in their packages' directories; and
            # the tree's own versions of those it has, before the series.
            root="$work/$topic/changed-$k"
            base="$work/$topic/base-$k"
            rm -rf "$root" "$base" && mkdir -p "$root/java.base" "$base/classes"
            for f in "${sources[@]}"; do
                rel=$f
                for d in "${CLASS_DIRS[@]}"; do rel=${rel#"$d"/}; done
                mkdir -p "$root/java.base/$(dirname "$rel")" "$base/java.base/$(dirname "$rel")"
                cp "$tree/$f" "$root/java.base/$rel"
                git -C "$tree" show "$UPSTREAM_REF:$f" > "$base/java.base/$rel" 2> /dev/null \
                    || rm -f "$base/java.base/$rel"
            done
            mapfile -t sources < <(cd "$root" && find java.base -name '*.java' | LC_ALL=C sort)
            path=java.base
            against=" against JDK $javac_feature's java.base"
            # If the tree's versions do not compile against JAVAC's java.base
            # either (they use what only the tree's JDK has), this check can
            # say nothing of the series' lines: make upstream-build compiles
            # them in the tree.
            mapfile -t base_sources < <(cd "$base" && find java.base -name '*.java' | LC_ALL=C sort)
            if ((${#base_sources[@]} > 0)) && ! (cd "$base" && "$JAVAC" -implicit:none \
                    --patch-module java.base=java.base -d classes "${base_sources[@]}") \
                    > "$work/$topic/javac-base-$k.log" 2>&1; then
                say "ok: $what: not compiled here: the tree's own ${base_sources[*]#java.base/} do not compile against JDK $javac_feature's java.base either (javac-base-$k.log); make upstream-build compiles the series in the tree"
                continue
            fi
        fi
        # -implicit:none: what the changed files use is compiled from the
        # tree's sources (so errors and warnings there count), but only the
        # changed files are written.
        if (cd "$root" && "$JAVAC" -Xlint:all -Werror -implicit:none \
                --patch-module "java.base=$path" -d "$classes" "${sources[@]}") \
                > "$work/$topic/javac-$k.log" 2>&1; then
            say "ok: $what: ${#sources[@]} Java file(s) of java.base compile$against"
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
