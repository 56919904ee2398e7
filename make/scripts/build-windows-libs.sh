#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Builds the complete Windows net.dll and nio.dll with mingw-w64 from an
# upstream OpenJDK tree with this patch set applied, as upstream's
# make/modules/java.base/Lib.gmk would (every .c of libnet and of libnio),
# so that they can replace the stock ones in a Windows JDK runtime.
#
#   build-windows-libs.sh <patched> <upstream tree> <feature> <patch set top> <runtime> <out>
#   build-windows-libs.sh --without-each <patched> <upstream tree> <feature> <patch set top> \
#       <runtime> <out> <built>
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
# --without-each: for each native .c file a hunk file of the patch set
# changes (<top>/src/java.base/*/native/**/<file>.c[.*].patch) and that
# <patched> holds changed, <out>/<file>/libs/ gets the two DLLs built from
# <patched> with that one file as <upstream tree> has it, that is with its
# hunks reverted; the trace check must fail on each. Sources identical to
# <patched>'s reuse the objects and JNI headers in <built> (the first form's
# <out> for <patched>), so each costs one compile and two links.
#
# mingw-w64 needs a few things the Visual Studio build does not; they live in
# make/windows/compat (headers of ours), not in the hunks: lower-case aliases
# of headers upstream includes with capitals, and ICMPV6_ECHO_REPLY.
set -euo pipefail

if [[ $1 == --without-each ]]; then
    src=$2 upstream=$3 top=$5 out=$7 built=$8
    rm -rf "$out"
    mkdir -p "$out"
    n=0
    while IFS= read -r rel; do
        if [[ ! -f "$upstream/$rel" || ! -f "$src/$rel" ]] || cmp -s "$src/$rel" "$upstream/$rel"; then
            continue
        fi
        v=$out/$(basename "$rel")
        mkdir -p "$v"
        cp -R "$src" "$v/libs-src"
        cp "$upstream/$rel" "$v/libs-src/$rel"
        REUSE_SRC=$src REUSE_OUT=$built bash "${BASH_SOURCE[0]}" "$v/libs-src" "$upstream" "$4" "$top" "$6" \
            "$v/libs"
        n=$((n + 1))
    done < <(cd "$top" && find src/java.base/*/native -name '*.c*.patch' \
                 | sed -E 's/\.c(\.[A-Za-z0-9-]+)*\.patch$/.c/' | LC_ALL=C sort -u)
    (( n > 0 )) || { echo "build-windows-libs: no native file of $src differs from $upstream" >&2; exit 1; }
    exit 0
fi

src=$1 upstream=$2 feature=$3 top=$4 runtime=$5 out=$6
: "${MINGW_CC:?MINGW_CC is not set}" "${JAVAC:?JAVAC is not set}"
# Set by --without-each: a build of a tree that differs from this one only
# in .c files, whose objects and generated headers serve where they can.
reuse_src=${REUSE_SRC:-} reuse_out=${REUSE_OUT:-}

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

gen=$out/gensrc
# Generated headers, from the upstream tree only.
generate() {
    # classfile_constants.h from its template, as upstream's build makes it.
    major=$((feature + 44))
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
}
if [[ -n $reuse_src ]]; then
    # Only .c files may differ, or the objects reused below would be wrong.
    diff -rq -x '*.c' "$reuse_src" "$src"
    cp -R "$reuse_out/gensrc" "$gen"
    echo "generated headers of $reuse_out"
else
    generate
fi

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
    local name=$1 objdir=$2 f o reused=0
    shift 2
    mkdir -p "$objdir"
    local pids=()
    while IFS= read -r -d '' f; do
        o=$(basename "$f" .c).o
        if [[ -n $reuse_src ]] && cmp -s "$f" "$reuse_src/${f#"$src"/}"; then
            cp "$reuse_out/obj/$name/$o" "$objdir/$o"
            reused=$((reused + 1))
            continue
        fi
        "$MINGW_CC" "${cflags[@]}" "${includes[@]}" -c "$f" -o "$objdir/$o" &
        pids+=($!)
        if (( ${#pids[@]} >= 2 )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
    done < <(find "$@" -maxdepth 1 -name '*.c' -print0 | sort -z)
    for f in "${pids[@]}"; do wait "$f"; done
    echo "$name: $(find "$objdir" -name '*.o' | wc -l) objects${reuse_src:+ ($reused reused)}"
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
