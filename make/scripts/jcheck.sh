#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make jcheck: each series through jcheck, the commit checks of OpenJDK's
# Skara tooling, as upstream's pull request bot runs them.
#
#  1. jcheck is compiled with javac from a Skara checkout (JCHECK): the
#     module org.openjdk.skara.jcheck and the modules it needs, found
#     through their module-info.java files, into <work>/modules (reused
#     while the checkout's commit and sources are the same); or JCHECK is
#     a directory of Skara's compiled modules, used as it is. Skara needs a
#     JDK 21 or later: JCHECK_JDK, else the base JDK when it is one, else the
#     newest under /usr/lib/jvm.
#  2. make/src/classes/build/tools/jcheck/RunJcheck.java, which runs jcheck
#     and prints its findings, is compiled against them.
#  3. Each series is applied with git am to a fresh clone of the baseline
#     (make/scripts/series-lib.sh), whose .jcheck/conf decides the checks,
#     and RunJcheck checks the new commits (of a topic that depends on
#     others, its own: theirs are applied first and checked as theirs). Until the JBS issue is filed,
#     the subjects carry the placeholder NNNNNNN, which jcheck's issues
#     check rejects (an id is digits, and the conf's pattern asks for seven
#     of them): it is read as STAND_IN_ID, and the run says so.
#
# Usage: jcheck.sh <work dir> <series dir>...
# Environment: JCHECK, UPSTREAM_DIR, UPSTREAM_REF (the tree the series are
#   for, whose .jcheck/conf counts, and its tag: make/Jcheck.gmk runs this
#   once for the mainline series and once for the backports), PATCH_AUTHOR,
#   BOOT_JDK, BOOT_JDK_FEATURE, TOPDIR; JCHECK_JDK, SERIES_ROOT (optional:
#   the output names a series by its path below it).
set -euo pipefail

: "${UPSTREAM_DIR:?}" "${UPSTREAM_REF:?}" "${PATCH_AUTHOR:?}" "${BOOT_JDK:?}" "${BOOT_JDK_FEATURE:?}" "${TOPDIR:?}"
# shellcheck source=make/scripts/series-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/series-lib.sh"
SERIES_COMMITTER=$PATCH_AUTHOR

PLACEHOLDER=NNNNNNN
# Seven digits, as upstream's .jcheck/conf asks; only ever in the clone.
STAND_IN_ID=8000000
SKARA_URL=https://github.com/openjdk/skara
RUNNER_SRC=$TOPDIR/make/src/classes/build/tools/jcheck/RunJcheck.java

say() { printf 'jcheck: %s\n' "$*"; }
die() { printf 'jcheck: error: %s\n' "$*" >&2; exit 2; }

if [[ -z "${JCHECK:-}" ]]; then
    die "make jcheck needs JCHECK=<a Skara checkout, or a directory of Skara's compiled modules>:
  git clone $SKARA_URL /path/to/skara
  make jcheck JCHECK=/path/to/skara"
fi
[[ -d "$JCHECK" ]] || die "JCHECK=$JCHECK is not a directory"
JCHECK=$(realpath "$JCHECK")
work=$(realpath -m "$1")
shift
(($# > 0)) || die "no series given"
mkdir -p "$work"

# The feature version of a JDK, from its release file (0 when unknown).
feature_of() {
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null | head -n 1 | grep . || echo 0
}

jdk=${JCHECK_JDK:-}
if [[ -z "$jdk" ]]; then
    if ((BOOT_JDK_FEATURE >= 21)); then
        jdk=$BOOT_JDK
    else
        best=0
        for d in /usr/lib/jvm/*/; do
            d=${d%/}
            f=$(feature_of "$d")
            if ((f >= 21 && f > best)) && [[ -x "$d/bin/javac" ]]; then
                best=$f jdk=$d
            fi
        done
    fi
fi
[[ -n "$jdk" ]] || die "Skara needs a JDK 21 or later to build and run, and none is under /usr/lib/jvm: name one with JCHECK_JDK=<dir>"
(($(feature_of "$jdk") >= 21)) || die "JCHECK_JDK=$jdk is not a JDK 21 or later (Skara needs one)"

# ---------------------------------------------------------------- jcheck
# A Skara module's name, from its module-info.java.
module_name() { sed -n 's/^module \([A-Za-z0-9_.]*\).*/\1/p' "$1"; }
# The Skara modules a module reads at run time (not its 'requires static').
module_requires() {
    sed -n 's/^ *requires *\(transitive *\)\{0,1\}\(org\.openjdk\.skara\.[A-Za-z0-9_.]*\) *;.*/\2/p' "$1"
}

if [[ -f "$JCHECK/jcheck/src/main/java/module-info.java" ]]; then
    version=$(git -C "$JCHECK" rev-parse HEAD 2> /dev/null || echo "no git commit")
    # Every module of the checkout, by name: javac finds what it needs.
    declare -A source_of=()
    source_path=()
    for info in "$JCHECK"/*/src/main/java/module-info.java; do
        name=$(module_name "$info")
        [[ -n "$name" ]] || continue
        source_of[$name]=$(dirname "$info")
        source_path+=(--module-source-path "$name=$(dirname "$info")")
    done
    # What runs: jcheck and what it reads, transitively. The modules only
    # 'requires static' names (census's forge) are compiled as far as those
    # need, and are not on the module path.
    runtime=()
    queue=(org.openjdk.skara.jcheck)
    while ((${#queue[@]} > 0)); do
        m=${queue[0]}
        queue=("${queue[@]:1}")
        [[ " ${runtime[*]} " != *" $m "* ]] || continue
        [[ -n "${source_of[$m]:-}" ]] || die "$JCHECK has no module $m (jcheck needs it): is it a Skara checkout?"
        runtime+=("$m")
        mapfile -t -O "${#queue[@]}" queue < <(module_requires "${source_of[$m]}/module-info.java")
    done
    stamp="$version $(cd "$JCHECK" && git status --porcelain 2> /dev/null | md5sum | cut -c1-32) $jdk"
    modules="$work/modules"
    if [[ "$(cat "$work/modules.stamp" 2> /dev/null)" != "$stamp" ]]; then
        say "compiling jcheck from $JCHECK (Skara $version) with $jdk"
        rm -rf "$modules" "$work/modules.stamp"
        mkdir -p "$modules"
        "$jdk/bin/javac" -nowarn -d "$modules" "${source_path[@]}" \
            --module "$(IFS=,; echo "${runtime[*]}")" > "$work/modules.log" 2>&1 \
            || { cat "$work/modules.log"; die "javac could not compile Skara's jcheck from $JCHECK"; }
        echo "$stamp" > "$work/modules.stamp"
    fi
    module_path=$(printf '%s:' "${runtime[@]/#/$modules/}")
else
    # Compiled modules, exploded or as jars.
    if [[ ! -e "$JCHECK/org.openjdk.skara.jcheck" ]] && ! compgen -G "$JCHECK/*jcheck*.jar" > /dev/null; then
        die "JCHECK=$JCHECK is neither a Skara checkout (no jcheck/src/main/java/module-info.java) nor a directory of Skara's compiled modules (no org.openjdk.skara.jcheck in it); get Skara with: git clone $SKARA_URL"
    fi
    version="compiled modules in $JCHECK"
    module_path=$JCHECK
fi

runner="$work/runner"
rm -rf "$runner" && mkdir -p "$runner"
"$jdk/bin/javac" -Xlint:all -Werror -p "$module_path" --add-modules org.openjdk.skara.jcheck \
    -d "$runner" "$RUNNER_SRC" > "$work/runner.log" 2>&1 \
    || { cat "$work/runner.log"; die "javac could not compile $RUNNER_SRC against $version"; }
say "jcheck of Skara $version, run by $jdk"

# ---------------------------------------------------------------- series
findings=0
for dir in "$@"; do
    dir=$(realpath "$dir")
    topic=$(series_name "$dir")
    mapfile -t patches < <(series_patches "$dir")
    if ((${#patches[@]} == 0)); then
        say "FAILED: $topic: no patches in $dir"
        findings=$((findings + 1))
        continue
    fi
    if ! series_prerequisites "$dir"; then
        say "FAILED: $topic: the series it depends on are missing"
        findings=$((findings + 1))
        continue
    fi
    # The series as sent, but for the placeholder id in the mail headers;
    # the series it depends on first (numbered apart: their names may clash).
    mails="$work/$topic/mails"
    rm -rf "$mails" && mkdir -p "$mails/depends"
    stand_in=0
    pre=()
    k=0
    for p in "${SERIES_PREREQUISITES[@]}"; do
        k=$((k + 1))
        pre+=("$mails/depends/$(printf '%04d' "$k")-$(basename "$p")")
        sed "1,/^\$/ s/$PLACEHOLDER/$STAND_IN_ID/g" "$p" > "${pre[-1]}"
    done
    for p in "${patches[@]}"; do
        sed "1,/^\$/ s/$PLACEHOLDER/$STAND_IN_ID/g" "$p" > "$mails/$(basename "$p")"
        cmp -s "$p" "$mails/$(basename "$p")" || stand_in=1
    done
    mapfile -t mailed < <(series_patches "$mails")
    tree="$work/$topic/tree"
    series_clone "$UPSTREAM_DIR" "$UPSTREAM_REF" "$tree" "" "${pre[@]}" "${mailed[@]}"
    for p in "${pre[@]}"; do
        series_am "$tree" "$p" > "$work/$topic/am.log" 2>&1 \
            || { cat "$work/$topic/am.log"; say "FAILED: $topic: $(basename "$p"), of a series it depends on, does not apply";
                 findings=$((findings + 1)); continue 2; }
    done
    onto=$(git -C "$tree" rev-parse HEAD)
    for p in "${mailed[@]}"; do
        series_am "$tree" "$p" > "$work/$topic/am.log" 2>&1 \
            || { cat "$work/$topic/am.log"; say "FAILED: $topic: $(basename "$p") does not apply";
                 findings=$((findings + 1)); continue 2; }
    done
    range="$UPSTREAM_REF..HEAD"
    if ((${#pre[@]} > 0)); then
        range="$onto..HEAD"
        say "$topic: ${#patches[@]} commit(s) on $UPSTREAM_REF with the series of $(paste -sd' ' "$dir/depends") (${#pre[@]} commit(s), not checked here), checked with its .jcheck/conf"
    else
        say "$topic: ${#patches[@]} commit(s) on $UPSTREAM_REF, checked with its .jcheck/conf"
    fi
    if ((stand_in)); then
        pattern=$(git -C "$tree" show HEAD:.jcheck/conf | sed -n 's/^pattern=//p')
        say "note: $topic: the subjects carry the placeholder $PLACEHOLDER, which jcheck's issues check rejects (.jcheck/conf: pattern=${pattern:-none}); checked as $STAND_IN_ID: replace $PLACEHOLDER with the JBS id once the issue is filed"
    fi
    if ! "$jdk/bin/java" -p "$module_path" --add-modules org.openjdk.skara.jcheck -cp "$runner" \
            build.tools.jcheck.RunJcheck "$tree" "$range" | sed "s|^|jcheck: $topic: |"; then
        findings=$((findings + 1))
    fi
done

if ((findings > 0)); then
    say "FAILED: jcheck has findings in $findings series (above)"
    exit 1
fi
say "no findings in $# series"
