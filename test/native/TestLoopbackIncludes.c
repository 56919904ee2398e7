/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * The helper's header where the hunks put it: after the system headers in
 * the order libnio's Net.c and libnet's net_util_md.h include them, then
 * called the way the hunks call it (a SOCKETADDRESS union like libnet's, a
 * SOCKET, an int descriptor cast to SOCKET). Unlike the other tests this one
 * links the helper as a separate object, as libnio links libnet.
 */

#include <windows.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <iphlpapi.h>
#include <icmpapi.h>
#include <mstcpip.h>
#include <stdio.h>

#include "jni.h"
#include "net_loopback_md.h"
/* Twice, as net_util_md.h and a caller may both include it. */
#include "net_loopback_md.h"

typedef union {
    struct sockaddr     sa;
    struct sockaddr_in  sa4;
    struct sockaddr_in6 sa6;
} TEST_SOCKETADDRESS;

static int failures = 0;

static void
check(const char *name, int ok, int result)
{
    printf("%s %s", ok ? "PASS" : "FAIL", name);
    if (!ok) {
        printf(": result %d", result);
        failures++;
    }
    printf("\n");
}

int
main(void)
{
    WSADATA data;
    TEST_SOCKETADDRESS sa;
    SOCKET s;
    int fd;
    int result;

    if (WSAStartup(MAKEWORD(2, 2), &data) != 0) {
        printf("FAIL winsock starts\n");
        return 1;
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa4.sin_family = AF_INET;
    sa.sa4.sin_addr.s_addr = htonl(0x0a000001);     /* 10.0.0.1 */
    s = socket(AF_INET, SOCK_STREAM, 0);
    result = NET_PrepareLoopbackConnect(s, &sa.sa, sizeof(sa.sa4));
    check("called as in Net.c: a non-loopback address is left alone",
          result == NET_LOOPBACK_NOT_LOOPBACK, result);

    sa.sa4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fd = (int)s;
    result = NET_PrepareLoopbackConnect((SOCKET)fd, &sa.sa,
                                        sizeof(struct sockaddr_in));
    check("called as in PlainSocketImpl.c: a loopback TCP socket is taken",
          result == NET_LOOPBACK_APPLIED || result == NET_LOOPBACK_IOCTL_FAILED,
          result);
    closesocket(s);

    WSACleanup();
    return failures == 0 ? 0 : 1;
}
