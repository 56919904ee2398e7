/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

#ifndef NET_LOOPBACK_MD_H
#define NET_LOOPBACK_MD_H

/*
 * Fail-fast loopback connects on Windows.
 *
 * Windows answers a reset to its SYN by sending the SYN again (two more
 * times by default), so a connect to a closed port on the local machine
 * takes about 2 s instead of failing at once (JDK-8250521). Every connect path of
 * java.base calls NET_PrepareLoopbackConnect just before connect() or
 * ConnectEx(); it is the only place that decides whether and how to shorten
 * the wait.
 *
 * This header is reached through net_util_md.h, so every file that includes
 * net_util.h (libnet and libnio alike) sees it. The function lives in libnet;
 * libnio already links against net.lib.
 */

#include <winsock2.h>

#include "jni.h"

/* What NET_PrepareLoopbackConnect did; callers are free to ignore it. */

/* The destination is not a loopback address: the socket was not touched. */
#define NET_LOOPBACK_NOT_LOOPBACK  0
/* Not a stream socket, or its type could not be read: not touched. */
#define NET_LOOPBACK_NOT_TCP       1
/* SIO_TCP_INITIAL_RTO was set on the socket. */
#define NET_LOOPBACK_APPLIED       2
/* The ioctl failed (e.g. WSAEOPNOTSUPP under Wine or a layered provider);
 * the socket is as it was, and the connect proceeds exactly as before. */
#define NET_LOOPBACK_IOCTL_FAILED  3

/*
 * Prepares socket s for a connect to sa (sa_len bytes): when s is a TCP
 * socket and sa is a loopback address (127.0.0.0/8, ::1, or an IPv4-mapped
 * ::ffff:127.0.0.0/104), sets SIO_TCP_INITIAL_RTO with the RTT left to the
 * system and no SYN retransmission (one retransmission before Windows 10
 * build 16299, which does not know "none"). Never fails the connect: any
 * error is swallowed and WSAGetLastError() is left as the caller had it.
 *
 * Call it right before connect() or ConnectEx(); the socket may be blocking
 * or not, bound or not.
 */
JNIEXPORT int JNICALL
NET_PrepareLoopbackConnect(SOCKET s, const struct sockaddr *sa, int sa_len);

#endif /* NET_LOOPBACK_MD_H */
