/*
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 * Copyright (c) 2026, the java.base patch set contributors.
 */

/*
 * A test-only JVM agent for the Windows JVM under Wine: it makes ICMP
 * "access denied" for java.base's net.dll, so that InetAddress.isReachable
 * takes its TCP echo fallback (tcp_ping4, tcp_ping6), which is what a
 * Windows process without the right to open ICMP handles gets. Wine's own
 * IcmpCreateFile always succeeds and its Icmp6CreateFile fails with
 * ERROR_CALL_NOT_IMPLEMENTED, so without this the fallback never runs there.
 *
 *   java.exe -agentpath:<this dll> ...
 *
 * At load it loads bin\net.dll (next to bin\server\jvm.dll) and points its
 * import slots of iphlpapi.dll's IcmpCreateFile and Icmp6CreateFile, direct
 * or delay-loaded, at functions that fail with ERROR_ACCESS_DENIED. Nothing
 * else of net.dll changes. Prints what it patched to stderr; fails the JVM's
 * start if it patched nothing.
 */

#include <windows.h>
#include <stdio.h>
#include <string.h>

static HANDLE WINAPI
denied_icmp_create_file(void)
{
    SetLastError(ERROR_ACCESS_DENIED);
    return INVALID_HANDLE_VALUE;
}

/* Points *slot at the stand-in; 1 if done. */
static int
patch_slot(ULONG_PTR *slot, const char *name)
{
    DWORD old;
    if (!VirtualProtect(slot, sizeof(*slot), PAGE_READWRITE, &old)) {
        return 0;
    }
    *slot = (ULONG_PTR)&denied_icmp_create_file;
    VirtualProtect(slot, sizeof(*slot), old, &old);
    fprintf(stderr, "icmp_denied_agent: %s now fails with ERROR_ACCESS_DENIED\n", name);
    return 1;
}

/* Walks one import name table against its address table; returns patches. */
static int
patch_table(BYTE *base, DWORD names_rva, DWORD slots_rva)
{
    ULONG_PTR *names = (ULONG_PTR *)(base + names_rva);
    ULONG_PTR *slots = (ULONG_PTR *)(base + slots_rva);
    int patched = 0;
    for (; *names != 0; names++, slots++) {
        if (IMAGE_SNAP_BY_ORDINAL(*names)) {
            continue;
        }
        const char *name = (const char *)((IMAGE_IMPORT_BY_NAME *)(base + *names))->Name;
        if (strcmp(name, "IcmpCreateFile") == 0 || strcmp(name, "Icmp6CreateFile") == 0) {
            patched += patch_slot(slots, name);
        }
    }
    return patched;
}

/* The delay-load descriptor, as the PE format documents it (all RVAs). */
typedef struct {
    DWORD attributes, dll_name, module_handle, iat, int_, bound_iat, unload_iat, time_stamp;
} delay_descriptor;

static int
patch_net_dll(HMODULE net)
{
    BYTE *base = (BYTE *)net;
    IMAGE_NT_HEADERS *nt = (IMAGE_NT_HEADERS *)(base + ((IMAGE_DOS_HEADER *)base)->e_lfanew);
    IMAGE_DATA_DIRECTORY *dirs = nt->OptionalHeader.DataDirectory;
    int patched = 0;

    if (dirs[IMAGE_DIRECTORY_ENTRY_IMPORT].VirtualAddress != 0) {
        IMAGE_IMPORT_DESCRIPTOR *d = (IMAGE_IMPORT_DESCRIPTOR *)
            (base + dirs[IMAGE_DIRECTORY_ENTRY_IMPORT].VirtualAddress);
        for (; d->Name != 0; d++) {
            if (_stricmp((const char *)(base + d->Name), "iphlpapi.dll") == 0) {
                patched += patch_table(base, d->OriginalFirstThunk, d->FirstThunk);
            }
        }
    }
    if (dirs[IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT].VirtualAddress != 0) {
        delay_descriptor *d = (delay_descriptor *)
            (base + dirs[IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT].VirtualAddress);
        for (; d->dll_name != 0; d++) {
            if ((d->attributes & 1) != 0
                    && _stricmp((const char *)(base + d->dll_name), "iphlpapi.dll") == 0) {
                patched += patch_table(base, d->int_, d->iat);
            }
        }
    }
    return patched;
}

__declspec(dllexport) int
Agent_OnLoad(void *vm, char *options, void *reserved)
{
    (void)vm;
    (void)options;
    (void)reserved;
    WCHAR path[MAX_PATH];
    HMODULE jvm = GetModuleHandleW(L"jvm.dll");
    DWORD n = jvm != NULL ? GetModuleFileNameW(jvm, path, MAX_PATH) : 0;
    WCHAR *cut;
    /* ...\bin\server\jvm.dll -> ...\bin\net.dll */
    if (n == 0 || n >= MAX_PATH || (cut = wcsrchr(path, L'\\')) == NULL) {
        fprintf(stderr, "icmp_denied_agent: cannot find jvm.dll\n");
        return 1;
    }
    *cut = 0;
    if ((cut = wcsrchr(path, L'\\')) == NULL || (size_t)(cut - path) + 9 >= MAX_PATH) {
        fprintf(stderr, "icmp_denied_agent: unexpected jvm.dll path\n");
        return 1;
    }
    wcscpy(cut, L"\\net.dll");
    HMODULE net = LoadLibraryW(path);
    if (net == NULL) {
        fprintf(stderr, "icmp_denied_agent: cannot load net.dll (error %lu)\n", GetLastError());
        return 1;
    }
    if (patch_net_dll(net) == 0) {
        fprintf(stderr, "icmp_denied_agent: net.dll imports no IcmpCreateFile to patch\n");
        return 1;
    }
    return 0;
}
