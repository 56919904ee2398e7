/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * Which destinations the helper treats as loopback, and that for every other
 * destination it asks nothing of the system.
 */

#include "loopback_test.h"

static int fake_calls = 0;

static int WSAAPI
counting_ioctl(SOCKET s, DWORD code, LPVOID in, DWORD in_len, LPVOID out,
               DWORD out_len, LPDWORD returned, LPWSAOVERLAPPED overlapped,
               LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
    (void)s; (void)code; (void)in; (void)in_len; (void)out; (void)out_len;
    (void)returned; (void)overlapped; (void)routine;
    fake_calls++;
    return 0;
}

static int WSAAPI
counting_getsockopt(SOCKET s, int level, int name, char *value, int *len)
{
    (void)s; (void)level; (void)name; (void)len;
    fake_calls++;
    *(int *)value = SOCK_STREAM;
    return 0;
}

static BOOL
counting_os_version(DWORD *major, DWORD *build)
{
    fake_calls++;
    *major = 10;
    *build = 19045;
    return TRUE;
}

static const struct loopback_seam counting = {
    counting_ioctl, counting_getsockopt, counting_os_version
};

static void
expect(const char *literal, int loopback)
{
    SOCKADDR_STORAGE sa;
    int len = lt_address(literal, 9, &sa);
    volatile LONG cap = LOOPBACK_CAP_UNKNOWN;
    char name[128];
    int got;
    int result;

    if (len == 0) {
        snprintf(name, sizeof(name), "parse %s", literal);
        lt_check(name, 0, "inet_pton rejected the literal");
        return;
    }
    got = loopback_is_loopback((struct sockaddr *)&sa, len);
    snprintf(name, sizeof(name), "%s is %sloopback", literal,
             loopback ? "" : "not ");
    lt_check(name, got == loopback, "classified as %sloopback",
             got ? "" : "not ");

    /* The whole helper, not just the classifier, must agree. */
    fake_calls = 0;
    result = loopback_prepare(&counting, &cap, (SOCKET)1,
                              (struct sockaddr *)&sa, len);
    snprintf(name, sizeof(name), "%s %s", literal,
             loopback ? "gets the ioctl" : "costs no system call");
    if (loopback) {
        lt_check(name, result == NET_LOOPBACK_APPLIED,
                 "result %d, %d calls", result, fake_calls);
    } else {
        lt_check(name, result == NET_LOOPBACK_NOT_LOOPBACK && fake_calls == 0,
                 "result %d, %d calls", result, fake_calls);
    }
}

int
main(void)
{
    struct sockaddr odd;
    struct sockaddr_in6 short6;
    volatile LONG cap = LOOPBACK_CAP_UNKNOWN;
    int result;

    if (!lt_startup()) {
        return lt_exit_code();
    }

    expect("127.0.0.1", 1);
    expect("127.0.0.0", 1);
    expect("127.255.255.254", 1);
    expect("127.1.2.3", 1);
    expect("128.0.0.1", 0);
    expect("126.255.255.255", 0);
    expect("10.0.0.1", 0);
    expect("0.0.0.0", 0);
    expect("255.255.255.255", 0);

    expect("::1", 1);
    expect("::2", 0);
    expect("::", 0);
    expect("fe80::1", 0);
    expect("::1:0:0:1", 0);
    expect("1::1", 0);
    expect("::101", 0);
    expect("::1:1", 0);
    expect("::100:1", 0);
    expect("::ffff:0:1", 0);

    expect("::ffff:127.0.0.1", 1);
    expect("::ffff:127.255.255.254", 1);
    expect("::ffff:10.0.0.1", 0);
    expect("::ffff:128.0.0.1", 0);
    expect("::fffe:127.0.0.1", 0);
    /* IPv4-compatible (deprecated) form: not how Windows maps IPv4. */
    expect("::127.0.0.1", 0);

    memset(&odd, 0, sizeof(odd));
    odd.sa_family = AF_UNIX;
    lt_check("an unknown family is not loopback",
             !loopback_is_loopback(&odd, (int)sizeof(odd)), "it was");
    fake_calls = 0;
    result = loopback_prepare(&counting, &cap, (SOCKET)1, &odd,
                              (int)sizeof(odd));
    lt_check("an unknown family costs no system call",
             result == NET_LOOPBACK_NOT_LOOPBACK && fake_calls == 0,
             "result %d, %d calls", result, fake_calls);

    lt_check("a null address is not loopback",
             !loopback_is_loopback(NULL, 16), "it was");

    memset(&short6, 0, sizeof(short6));
    short6.sin6_family = AF_INET6;
    short6.sin6_addr.s6_addr[15] = 1;
    lt_check("::1 with a too short length is not loopback",
             !loopback_is_loopback((struct sockaddr *)&short6,
                                   (int)sizeof(struct sockaddr_in)),
             "it was");
    lt_check("::1 with its full length is loopback",
             loopback_is_loopback((struct sockaddr *)&short6,
                                  (int)sizeof(short6)),
             "it was not");

    WSACleanup();
    return lt_exit_code();
}
