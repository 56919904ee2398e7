#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make images made a real runtime image: a native launcher and lib/modules
# (no wrapper script, no --patch-module), the same modules as the base JDK,
# and an unchanged tree rebuilds nothing. That the image's java.base holds
# our classes is test/jdk/build/PatchedJavaBaseTest's job.
set -euo pipefail

: "${IMAGE_JDK:?run through make test TEST=make:TestImages}"
: "${BOOT_JDK:?}" "${CONF_NAME:?}"
# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"

is_elf() {
    [[ "$(head -c 4 "$1" | od -An -c | tr -d ' \n')" == '177ELF' ]]
}

check "bin/java is a native launcher, not a script" is_elf "$IMAGE_JDK/bin/java"
check "the image has lib/modules" test -s "$IMAGE_JDK/lib/modules"
check "the image has a release file" test -s "$IMAGE_JDK/release"

image_modules=$("$IMAGE_JDK/bin/java" --list-modules | sed 's/@.*//' | LC_ALL=C sort)
base_modules=$("$BOOT_JDK/bin/java" --list-modules | sed 's/@.*//' | LC_ALL=C sort)
check "the image has the base JDK's modules ($(wc -l <<<"$base_modules"))" \
    test "$image_modules" == "$base_modules"

flags=$("$IMAGE_JDK/bin/java" -XshowSettings:properties -version 2>&1)
check "java.base is not patched at run time" bash -c "! grep -q 'jdk.module.patch' <<<'$flags'"

# The image was built before this test ran: building again must do nothing.
again=$(make -C "$TOPDIR" CONF="$CONF_NAME" images 2>&1)
check "an unchanged tree rebuilds nothing" \
    bash -c "! grep -qE '^(Compiling|Packaging|Linking|Restoring)' <<<'$again'"

finish
