#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Builds the complete Windows net.dll and nio.dll with mingw-w64 from an
# upstream OpenJDK tree with this patch set applied, as upstream's
# make/modules/java.base/Lib.gmk would (every .c of libnet and of libnio),
# so that they can replace the stock ones in a Windows JDK runtime.
#
#   build-windows-libs.sh <patched> <upstream tree> <feature> <patch set top> <runtime> <out>
#
# <patched>: java.base's share/native and windows/native as the patch makes
# them (webrev.py export; Windows.gmk runs it); the rest (Java classes for the
# JNI headers, hotspot's include directories) comes from <upstream tree>.
# <runtime>: an unpacked Windows JDK runtime of the same feature release; its
# bin/java.dll and bin/server/jvm.dll are linked against. Uses from the
# environment: MINGW_CC, JAVAC (of a JDK of the same feature release: it
# generates the JNI headers from the tree's classes). Writes
# <out>/net.dll, <out>/nio.dll and <out>/build.log.
#
# mingw-w64 needs a few things the Visual Studio build does not; they live in
# make/windows/compat (headers of ours), not in the hunks: lower-case aliases
# of headers upstream includes with capitals, and ICMPV6_ECHO_REPLY.
set -euo pipefail

src=$1 upstream=$2 feature=$3 top=$4 runtime=$5 out=$6
: "${MINGW_CC:?MINGW_CC is not set}" "${JAVAC:?JAVAC is not set}"

rm -rf "$out"
mkdir -p "$out"
exec 3>&1 > "$out/build.log" 2>&1
trap 'echo "build-windows-libs: failed, see $out/build.log" >&3' ERR

jb=src/java.base
[[ -d "$src/$jb/windows/native/libnet" ]] || { echo "no $jb/windows/native/libnet in $src" >&3; exit 1; }

# gcc, unlike Visual C++, rejects a static definition after a non-static
# forward declaration (17u's NetworkInterface_winXP.c, getAddrsFromAdapter).
# Made static in the exported copy compiled here; not a change of the patch set.
xp=$src/$jb/windows/native/libnet/NetworkInterface_winXP.c
if [[ -f "$xp" ]] && grep -q '^int getAddrsFromAdapter(' "$xp"; then
    sed -i 's/^int getAddrsFromAdapter(/static int getAddrsFromAdapter(/' "$xp"
    echo "gcc: made the forward declaration of getAddrsFromAdapter static"
fi

# classfile_constants.h from its template, as upstream's build makes it.
major=$((feature + 44))
gen=$out/gensrc
mkdir -p "$gen/headers"
sed -e "s/@@VERSION_CLASSFILE_MAJOR@@/$major/" -e 's/@@VERSION_CLASSFILE_MINOR@@/0/' \
    "$upstream/$jb/share/native/include/classfile_constants.h.template" > "$gen/classfile_constants.h"

# JNI headers: javac -h over the tree's classes that have native methods or
# @Native constants, compiled as part of java.base (anything not in the
# tree's sources, e.g. generated classes, comes from the JDK's own java.base).
find "$upstream/$jb/share/classes" "$upstream/$jb/windows/classes" -name '*.java' \
     \( -path '*/java/net/*' -o -path '*/sun/net/*' -o -path '*/sun/nio/*' -o -path '*/java/nio/*' \
        -o -path '*/java/lang/Integer.java' -o -path '*/java/lang/Long.java' \) \
     -print0 | xargs -0 grep -lE '(^|[^A-Za-z_"])native [^"]*\(|@Native' > "$gen/jni-classes.txt"
"$JAVAC" -proc:none -nowarn -XDignore.symbol.file=true -implicit:none \
    --patch-module "java.base=$upstream/$jb/share/classes:$upstream/$jb/windows/classes" \
    -h "$gen/headers" -d "$gen/classes" @"$gen/jni-classes.txt" > "$gen/javac.log" 2>&1 \
    || { cat "$gen/javac.log"; false; }
grep -v '^Note:' "$gen/javac.log" || true
[[ -n "$(ls "$gen/headers")" ]]
echo "$(wc -l < "$gen/jni-classes.txt") classes, $(find "$gen/headers" -name '*.h' | wc -l) JNI headers"

includes=(
    -I"$top/make/windows/compat"
    -I"$gen/headers" -I"$gen"
    -I"$src/$jb/share/native/include" -I"$src/$jb/windows/native/include"
    -I"$upstream/src/hotspot/share/include" -I"$upstream/src/hotspot/os/windows/include"
    -I"$src/$jb/share/native/libjava" -I"$src/$jb/windows/native/libjava"
    -I"$src/$jb/share/native/libnet" -I"$src/$jb/windows/native/libnet"
    -I"$src/$jb/share/native/libnio" -I"$src/$jb/windows/native/libnio"
    -I"$src/$jb/share/native/libnio/ch" -I"$src/$jb/windows/native/libnio/ch"
    -I"$src/$jb/windows/native/libnio/fs"
)
# Upstream's Windows defines (make/autoconf/flags-cflags.m4), no debug.
cflags=(-O2 -DNDEBUG -DWIN32 -D_WINDOWS -DWIN32_LEAN_AND_MEAN -D_WIN32_WINNT=0x0602
        -D_CRT_SECURE_NO_DEPRECATE -D_CRT_NONSTDC_NO_DEPRECATE -w)

# $1: library name, $2: objects dir, rest: source dirs
compile() {
    local name=$1 objdir=$2 f
    shift 2
    mkdir -p "$objdir"
    local pids=()
    while IFS= read -r -d '' f; do
        "$MINGW_CC" "${cflags[@]}" "${includes[@]}" -c "$f" -o "$objdir/$(basename "$f" .c).o" &
        pids+=($!)
        if (( ${#pids[@]} >= 2 )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
    done < <(find "$@" -maxdepth 1 -name '*.c' -print0 | sort -z)
    for f in "${pids[@]}"; do wait "$f"; done
    echo "$name: $(find "$objdir" -name '*.o' | wc -l) objects"
}

compile net "$out/obj/net" "$src/$jb/share/native/libnet" "$src/$jb/windows/native/libnet"
"$MINGW_CC" -shared -o "$out/net.dll" "$out"/obj/net/*.o \
    "$runtime/bin/java.dll" "$runtime/bin/server/jvm.dll" \
    -lws2_32 -liphlpapi -ladvapi32 -lsecur32 -lwinhttp

compile nio "$out/obj/nio" "$src/$jb/share/native/libnio" "$src/$jb/share/native/libnio/ch" \
    "$src/$jb/windows/native/libnio" "$src/$jb/windows/native/libnio/ch" "$src/$jb/windows/native/libnio/fs"
"$MINGW_CC" -shared -o "$out/nio.dll" "$out"/obj/nio/*.o \
    "$runtime/bin/java.dll" "$runtime/bin/server/jvm.dll" "$out/net.dll" \
    -lws2_32 -lmswsock -ladvapi32

# To the log and to make's output; not tee /dev/fd/3, which reopens make's
# output with O_TRUNC when that is a file and erases what came before.
built="built $out/net.dll $out/nio.dll"
echo "$built"
echo "$built" >&3
