#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Finding and checking the base JDK: the JDK whose java.base we patch.

readonly MIN_BOOT_JDK_FEATURE=17

# The value of KEY in a JDK's release file, without quotes.
release_value() {
    local jdk=$1 key=$2 line
    line=$(grep -E "^$key=" "$jdk/release" 2>/dev/null | head -n 1) || return 0
    line=${line#*=}
    line=${line#\"}
    printf '%s' "${line%\"}"
}

boot_jdk_feature() {
    local version
    version=$(release_value "$1" JAVA_VERSION)
    printf '%s' "${version%%[.+-]*}"
}

# The full runtime version, as java.runtime.version says it.
boot_jdk_version() {
    local version
    version=$(release_value "$1" JAVA_RUNTIME_VERSION)
    [[ -n "$version" ]] || version=$(release_value "$1" JAVA_VERSION)
    printf '%s' "$version"
}

# Prints why DIR is not a usable base JDK, or nothing when it is.
boot_jdk_problem() {
    local jdk=$1 tool feature
    [[ -d "$jdk" ]] || { printf 'no such directory'; return; }
    [[ -f "$jdk/release" ]] || { printf 'not a JDK: it has no release file'; return; }
    for tool in java javac jlink jmod jimage; do
        [[ -x "$jdk/bin/$tool" ]] || { printf 'not a full JDK: bin/%s is missing' "$tool"; return; }
    done
    feature=$(boot_jdk_feature "$jdk")
    [[ "$feature" =~ ^[0-9]+$ ]] \
        || { printf 'its release file has no readable JAVA_VERSION'; return; }
    ((feature >= MIN_BOOT_JDK_FEATURE)) \
        || printf 'JDK %s is too old: the patch set needs JDK %s or later' \
                  "$feature" "$MIN_BOOT_JDK_FEATURE"
}

# Prints the canonical path of a valid base JDK; fails naming LABEL otherwise.
validate_boot_jdk() {
    local jdk=$1 label=$2 problem
    problem=$(boot_jdk_problem "$jdk")
    [[ -z "$problem" ]] || fail "$label: $problem"
    (cd "$jdk" && pwd -P)
}

# JAVA_HOME when it is a JDK 17+, else the newest JDK 17+ under /usr/lib/jvm.
find_default_boot_jdk() {
    local candidate best="" best_version="" version
    if [[ -n "${JAVA_HOME:-}" ]]; then
        if [[ -z "$(boot_jdk_problem "$JAVA_HOME")" ]]; then
            (cd "$JAVA_HOME" && pwd -P)
            return
        fi
        warn "JAVA_HOME=$JAVA_HOME: $(boot_jdk_problem "$JAVA_HOME"); looking in /usr/lib/jvm"
    fi
    for candidate in /usr/lib/jvm/*/; do
        candidate=${candidate%/}
        [[ -z "$(boot_jdk_problem "$candidate")" ]] || continue
        version=$(release_value "$candidate" JAVA_VERSION)
        if [[ -z "$best" ]] || version_newer "$version" "$best_version"; then
            best=$candidate
            best_version=$version
        fi
    done
    [[ -n "$best" ]] || fail "no JDK $MIN_BOOT_JDK_FEATURE+ found in JAVA_HOME or /usr/lib/jvm; use --with-boot-jdk=DIR"
    (cd "$best" && pwd -P)
}

# True when dotted version $1 is newer than $2.
version_newer() {
    [[ "$1" != "$2" ]] && [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" == "$1" ]]
}

# jlink needs the base JDK's modules as jmods: its own jmods/, or else a
# linkable run-time image (JEP 493) that the build turns back into jmods.
find_boot_jdk_modules() {
    local jdk=$1
    if [[ -f "$jdk/jmods/java.base.jmod" ]]; then
        BOOT_JDK_JMODS=$jdk/jmods
        BOOT_JDK_MODULES_SOURCE="jmods ($BOOT_JDK_JMODS)"
    elif "$jdk/bin/jimage" list "$jdk/lib/modules" 2>/dev/null \
            | grep -q 'runtimelink/fs_java.base_files'; then
        BOOT_JDK_JMODS=""
        BOOT_JDK_MODULES_SOURCE="linkable run-time image ($jdk/lib/modules)"
    else
        fail "--with-boot-jdk=$jdk: it has neither jmods/ nor a linkable run-time image, so jlink cannot make an image from it"
    fi
}
