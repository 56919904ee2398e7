/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * What the helper asks of the system, seen through its seam: the ioctl and
 * its parameters per Windows build, that the build is asked once, that UDP
 * sockets are left alone, and that a failing ioctl changes nothing.
 */

#include "loopback_test.h"

/* What the fake system saw and how it answers. */
static struct {
    int ioctl_calls;
    SOCKET ioctl_socket;
    DWORD ioctl_code;
    DWORD ioctl_in_len;
    TCP_INITIAL_RTO_PARAMETERS ioctl_in;
    int ioctl_out_null;
    int ioctl_overlapped_null;
    int ioctl_fails_with;          /* 0: succeed */

    int getsockopt_calls;
    int socket_type;
    int getsockopt_fails;

    int version_calls;
    BOOL version_known;
    DWORD major;
    DWORD build;
} fake;

static int WSAAPI
fake_ioctl(SOCKET s, DWORD code, LPVOID in, DWORD in_len, LPVOID out,
           DWORD out_len, LPDWORD returned, LPWSAOVERLAPPED overlapped,
           LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
    (void)out_len; (void)returned; (void)routine;
    fake.ioctl_calls++;
    fake.ioctl_socket = s;
    fake.ioctl_code = code;
    fake.ioctl_in_len = in_len;
    if (in != NULL && in_len == sizeof(fake.ioctl_in)) {
        memcpy(&fake.ioctl_in, in, sizeof(fake.ioctl_in));
    }
    fake.ioctl_out_null = (out == NULL);
    fake.ioctl_overlapped_null = (overlapped == NULL);
    if (fake.ioctl_fails_with != 0) {
        WSASetLastError(fake.ioctl_fails_with);
        return SOCKET_ERROR;
    }
    return 0;
}

static int WSAAPI
fake_getsockopt(SOCKET s, int level, int name, char *value, int *len)
{
    (void)s;
    fake.getsockopt_calls++;
    if (fake.getsockopt_fails || level != SOL_SOCKET || name != SO_TYPE
        || *len < (int)sizeof(int)) {
        WSASetLastError(WSAENOTSOCK);
        return SOCKET_ERROR;
    }
    *(int *)value = fake.socket_type;
    *len = sizeof(int);
    return 0;
}

static BOOL
fake_os_version(DWORD *major, DWORD *build)
{
    fake.version_calls++;
    *major = fake.major;
    *build = fake.build;
    return fake.version_known;
}

static const struct loopback_seam seam = {
    fake_ioctl, fake_getsockopt, fake_os_version
};

static void
fake_windows(DWORD major, DWORD build)
{
    memset(&fake, 0, sizeof(fake));
    fake.socket_type = SOCK_STREAM;
    fake.version_known = TRUE;
    fake.major = major;
    fake.build = build;
}

static int
prepare(volatile LONG *cap, const char *literal)
{
    SOCKADDR_STORAGE sa;
    int len = lt_address(literal, 80, &sa);

    return loopback_prepare(&seam, cap, (SOCKET)42, (struct sockaddr *)&sa,
                            len);
}

/* One fresh process (capability unknown) on the given Windows. */
static void
expect_retransmissions(const char *windows, DWORD major, DWORD build,
                       BOOL known, UCHAR expected)
{
    volatile LONG cap = LOOPBACK_CAP_UNKNOWN;
    char name[160];
    int result;

    fake_windows(major, build);
    fake.version_known = known;
    result = prepare(&cap, "127.0.0.1");

    snprintf(name, sizeof(name), "%s: SIO_TCP_INITIAL_RTO is set once", windows);
    lt_check(name, result == NET_LOOPBACK_APPLIED && fake.ioctl_calls == 1
             && fake.ioctl_code == SIO_TCP_INITIAL_RTO
             && fake.ioctl_socket == (SOCKET)42,
             "result %d, %d calls, code 0x%lx", result, fake.ioctl_calls,
             (unsigned long)fake.ioctl_code);
    snprintf(name, sizeof(name), "%s: input is one TCP_INITIAL_RTO_PARAMETERS, "
             "no output, not overlapped", windows);
    lt_check(name, fake.ioctl_in_len == sizeof(TCP_INITIAL_RTO_PARAMETERS)
             && fake.ioctl_out_null && fake.ioctl_overlapped_null,
             "in_len %lu, out null %d, overlapped null %d",
             (unsigned long)fake.ioctl_in_len, fake.ioctl_out_null,
             fake.ioctl_overlapped_null);
    snprintf(name, sizeof(name), "%s: Rtt is left unspecified", windows);
    lt_check(name, fake.ioctl_in.Rtt == TCP_INITIAL_RTO_UNSPECIFIED_RTT,
             "Rtt %u", (unsigned)fake.ioctl_in.Rtt);
    snprintf(name, sizeof(name), "%s: MaxSynRetransmissions is %u", windows,
             (unsigned)expected);
    lt_check(name, fake.ioctl_in.MaxSynRetransmissions == expected,
             "it is %u", (unsigned)fake.ioctl_in.MaxSynRetransmissions);
}

int
main(void)
{
    volatile LONG cap;
    int result;
    int i;
    int all_applied;

    if (!lt_startup()) {
        return lt_exit_code();
    }

    /* The parameters per Windows build. */
    expect_retransmissions("Windows 10 1709 (16299)", 10, 16299, TRUE,
                           TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS);
    expect_retransmissions("Windows 11 23H2 (22631)", 10, 22631, TRUE,
                           TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS);
    expect_retransmissions("a later major version", 11, 100, TRUE,
                           TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS);
    expect_retransmissions("Windows 10 1703 (15063)", 10, 15063, TRUE, 1);
    expect_retransmissions("the build before 16299", 10, 16298, TRUE, 1);
    expect_retransmissions("Windows 8.1 (6.3.9600)", 6, 9600, TRUE, 1);
    expect_retransmissions("an unknown version", 10, 22631, FALSE, 1);
    lt_check("\"none\" is the documented 0xFE",
             TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS == 0xFE,
             "it is 0x%x", (unsigned)TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS);

    /* IPv6 and IPv4-mapped destinations get the same treatment. */
    fake_windows(10, 19045);
    cap = LOOPBACK_CAP_UNKNOWN;
    result = prepare(&cap, "::1");
    lt_check("::1 gets the ioctl", result == NET_LOOPBACK_APPLIED
             && fake.ioctl_calls == 1, "result %d", result);
    result = prepare(&cap, "::ffff:127.0.0.1");
    lt_check("::ffff:127.0.0.1 gets the ioctl", result == NET_LOOPBACK_APPLIED
             && fake.ioctl_calls == 2, "result %d", result);

    /* The build is asked once per process, whatever happens later. */
    fake_windows(10, 19045);
    cap = LOOPBACK_CAP_UNKNOWN;
    all_applied = 1;
    for (i = 0; i < 5; i++) {
        all_applied &= prepare(&cap, "127.0.0.1") == NET_LOOPBACK_APPLIED;
    }
    lt_check("the OS build is asked once for five connects",
             all_applied && fake.version_calls == 1 && fake.ioctl_calls == 5,
             "%d version queries, %d ioctls", fake.version_calls,
             fake.ioctl_calls);
    fake.build = 15063;            /* cannot happen; proves the cache */
    prepare(&cap, "127.0.0.1");
    lt_check("the decision is kept for the process",
             fake.version_calls == 1 && fake.ioctl_in.MaxSynRetransmissions
             == TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS,
             "%d version queries, MaxSynRetransmissions %u",
             fake.version_calls,
             (unsigned)fake.ioctl_in.MaxSynRetransmissions);
    fake_windows(10, 15063);
    cap = LOOPBACK_CAP_UNKNOWN;
    prepare(&cap, "127.0.0.1");
    fake.build = 19045;
    prepare(&cap, "127.0.0.1");
    lt_check("a legacy decision is kept too",
             fake.version_calls == 1
             && fake.ioctl_in.MaxSynRetransmissions == 1,
             "%d version queries, MaxSynRetransmissions %u",
             fake.version_calls,
             (unsigned)fake.ioctl_in.MaxSynRetransmissions);

    /* UDP sockets, and sockets whose type is unknown, are left alone. */
    fake_windows(10, 19045);
    fake.socket_type = SOCK_DGRAM;
    cap = LOOPBACK_CAP_UNKNOWN;
    result = prepare(&cap, "127.0.0.1");
    lt_check("a UDP socket is left alone",
             result == NET_LOOPBACK_NOT_TCP && fake.ioctl_calls == 0
             && fake.getsockopt_calls == 1,
             "result %d, %d ioctls", result, fake.ioctl_calls);
    lt_check("a UDP socket does not make the helper ask the OS build",
             fake.version_calls == 0, "%d queries", fake.version_calls);
    fake.socket_type = SOCK_RAW;
    result = prepare(&cap, "::1");
    lt_check("a raw socket is left alone",
             result == NET_LOOPBACK_NOT_TCP && fake.ioctl_calls == 0,
             "result %d, %d ioctls", result, fake.ioctl_calls);
    fake.socket_type = SOCK_STREAM;
    fake.getsockopt_fails = 1;
    result = prepare(&cap, "127.0.0.1");
    lt_check("a socket whose type cannot be read is left alone",
             result == NET_LOOPBACK_NOT_TCP && fake.ioctl_calls == 0,
             "result %d, %d ioctls", result, fake.ioctl_calls);

    /* A failing ioctl is swallowed and leaves the caller's error as it was. */
    fake_windows(10, 19045);
    fake.ioctl_fails_with = WSAEOPNOTSUPP;
    cap = LOOPBACK_CAP_UNKNOWN;
    WSASetLastError(WSAEWOULDBLOCK);
    result = prepare(&cap, "127.0.0.1");
    lt_check("a failing ioctl is reported as such",
             result == NET_LOOPBACK_IOCTL_FAILED && fake.ioctl_calls == 1,
             "result %d", result);
    lt_check("a failing ioctl leaves WSAGetLastError as it was",
             WSAGetLastError() == WSAEWOULDBLOCK, "it is %d",
             WSAGetLastError());
    fake.ioctl_fails_with = 0;
    result = prepare(&cap, "127.0.0.1");
    lt_check("a failure is not remembered: the next socket is tried",
             result == NET_LOOPBACK_APPLIED && fake.ioctl_calls == 2,
             "result %d, %d ioctls", result, fake.ioctl_calls);
    WSASetLastError(WSAECONNREFUSED);
    fake.socket_type = SOCK_DGRAM;
    prepare(&cap, "127.0.0.1");
    lt_check("a left-alone socket leaves WSAGetLastError as it was",
             WSAGetLastError() == WSAECONNREFUSED, "it is %d",
             WSAGetLastError());

    WSACleanup();
    return lt_exit_code();
}
