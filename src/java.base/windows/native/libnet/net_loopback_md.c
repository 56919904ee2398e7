/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>
#include <windows.h>

#include "net_loopback_md.h"

/*
 * Windows 10 version 1709 (build 16299) is the first to accept
 * TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS; older builds take the byte as a
 * plain count, so there we ask for the smallest count they accept, 1.
 */
#define LOOPBACK_NO_SYN_RETRANSMISSION_BUILD  16299
#define LOOPBACK_LEGACY_SYN_RETRANSMISSIONS   1

/* The OS capability, decided on the first loopback TCP connect. */
#define LOOPBACK_CAP_UNKNOWN       0
#define LOOPBACK_CAP_NONE          1   /* no SYN retransmission */
#define LOOPBACK_CAP_LEGACY        2   /* one SYN retransmission */

/*
 * The seam: everything the helper asks of the system. The product passes a
 * constant table of the real functions, which the compiler turns into direct
 * calls; the C tests in test/native pass their own table to watch and steer
 * the helper (they compile this file into the test program).
 */
typedef int (WSAAPI *loopback_ioctl_fn)(SOCKET, DWORD, LPVOID, DWORD,
                                        LPVOID, DWORD, LPDWORD,
                                        LPWSAOVERLAPPED,
                                        LPWSAOVERLAPPED_COMPLETION_ROUTINE);
typedef int (WSAAPI *loopback_getsockopt_fn)(SOCKET, int, int, char *, int *);
/* Fills in the real major version and build number; FALSE when unknown. */
typedef BOOL (*loopback_os_version_fn)(DWORD *major, DWORD *build);

struct loopback_seam {
    loopback_ioctl_fn      ioctl;
    loopback_getsockopt_fn getsockopt;
    loopback_os_version_fn os_version;
};

/*
 * True for 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104. Anything else,
 * including a null or short address and an unknown family, is not loopback.
 */
static int
loopback_is_loopback(const struct sockaddr *sa, int sa_len)
{
    const unsigned char *a;
    int i;

    if (sa == NULL || sa_len < (int)sizeof(sa->sa_family)) {
        return 0;
    }
    if (sa->sa_family == AF_INET) {
        if (sa_len < (int)sizeof(struct sockaddr_in)) {
            return 0;
        }
        a = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
        return a[0] == 127;
    }
    if (sa->sa_family == AF_INET6) {
        if (sa_len < (int)sizeof(struct sockaddr_in6)) {
            return 0;
        }
        a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
        for (i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return 0;
            }
        }
        if (a[10] == 0xff && a[11] == 0xff) {
            return a[12] == 127;
        }
        return a[10] == 0 && a[11] == 0 && a[12] == 0 && a[13] == 0
            && a[14] == 0 && a[15] == 1;
    }
    return 0;
}

static LONG
loopback_decide_capability(const struct loopback_seam *seam)
{
    DWORD major = 0;
    DWORD build = 0;

    if (seam->os_version(&major, &build)
        && (major > 10
            || (major == 10 && build >= LOOPBACK_NO_SYN_RETRANSMISSION_BUILD))) {
        return LOOPBACK_CAP_NONE;
    }
    /* Older, or unknown: one retransmission is valid everywhere. */
    return LOOPBACK_CAP_LEGACY;
}

static int
loopback_prepare(const struct loopback_seam *seam, volatile LONG *capability,
                 SOCKET s, const struct sockaddr *sa, int sa_len)
{
    TCP_INITIAL_RTO_PARAMETERS rto;
    DWORD returned = 0;
    int type = 0;
    int optlen = sizeof(type);
    int saved_error;
    int result;
    LONG cap;

    /* Decided from the address alone, so other connects pay no system call. */
    if (!loopback_is_loopback(sa, sa_len)) {
        return NET_LOOPBACK_NOT_LOOPBACK;
    }

    /* The caller may still read the error of an earlier call. */
    saved_error = WSAGetLastError();

    if (seam->getsockopt(s, SOL_SOCKET, SO_TYPE, (char *)&type, &optlen) != 0
        || type != SOCK_STREAM) {
        result = NET_LOOPBACK_NOT_TCP;
    } else {
        cap = *capability;
        if (cap == LOOPBACK_CAP_UNKNOWN) {
            /* Two threads may race here; both compute the same answer. */
            cap = loopback_decide_capability(seam);
            InterlockedExchange(capability, cap);
        }
        rto.Rtt = TCP_INITIAL_RTO_UNSPECIFIED_RTT;
        rto.MaxSynRetransmissions = (cap == LOOPBACK_CAP_NONE)
            ? TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS
            : LOOPBACK_LEGACY_SYN_RETRANSMISSIONS;
        /*
         * A failure is not remembered: it may belong to this socket's
         * provider only, and the next socket may well accept the ioctl.
         */
        if (seam->ioctl(s, SIO_TCP_INITIAL_RTO, &rto, sizeof(rto),
                        NULL, 0, &returned, NULL, NULL) == 0) {
            result = NET_LOOPBACK_APPLIED;
        } else {
            result = NET_LOOPBACK_IOCTL_FAILED;
        }
    }

    WSASetLastError(saved_error);
    return result;
}

typedef LONG (WINAPI *loopback_rtl_get_version_fn)(OSVERSIONINFOW *);

/*
 * RtlGetVersion reports the real version; GetVersionEx and
 * VerifyVersionInfo answer "Windows 8" to a process whose executable has no
 * Windows 10 manifest, which would cost an embedded JVM the full fix.
 */
static BOOL
loopback_os_version(DWORD *major, DWORD *build)
{
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    loopback_rtl_get_version_fn get_version;
    OSVERSIONINFOW info;

    if (ntdll == NULL) {
        return FALSE;
    }
    get_version = (loopback_rtl_get_version_fn)(void (*)(void))
        GetProcAddress(ntdll, "RtlGetVersion");
    if (get_version == NULL) {
        return FALSE;
    }
    ZeroMemory(&info, sizeof(info));
    info.dwOSVersionInfoSize = sizeof(info);
    if (get_version(&info) != 0) {      /* not STATUS_SUCCESS */
        return FALSE;
    }
    *major = info.dwMajorVersion;
    *build = info.dwBuildNumber;
    return TRUE;
}

static const struct loopback_seam loopback_system = {
    WSAIoctl,
    getsockopt,
    loopback_os_version
};

static volatile LONG loopback_capability = LOOPBACK_CAP_UNKNOWN;

JNIEXPORT int JNICALL
NET_PrepareLoopbackConnect(SOCKET s, const struct sockaddr *sa, int sa_len)
{
    return loopback_prepare(&loopback_system, &loopback_capability,
                            s, sa, sa_len);
}
