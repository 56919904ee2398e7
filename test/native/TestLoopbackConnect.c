/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * Real loopback connects through the helper's product entry point, on real
 * sockets: what the system answers to SIO_TCP_INITIAL_RTO (under Wine:
 * WSAEOPNOTSUPP; on Windows: success), and that a connect after the helper
 * still reaches a listener and is still refused by a closed port, through
 * connect() (blocking and not) and ConnectEx, over IPv4, IPv6 and
 * IPv4-mapped IPv6.
 *
 * A closed port is a port held by a socket that is bound but not listening:
 * nobody else can take it while the test runs, and a SYN to it is answered
 * with a reset.
 */

#include <mswsock.h>

#include "loopback_test.h"

static int last_ioctl_rv;
static int last_ioctl_error;

/* The real ioctl, with a note of what it answered. */
static int WSAAPI
recording_ioctl(SOCKET s, DWORD code, LPVOID in, DWORD in_len, LPVOID out,
                DWORD out_len, LPDWORD returned, LPWSAOVERLAPPED overlapped,
                LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
    last_ioctl_rv = WSAIoctl(s, code, in, in_len, out, out_len, returned,
                             overlapped, routine);
    last_ioctl_error = (last_ioctl_rv == 0) ? 0 : WSAGetLastError();
    return last_ioctl_rv;
}

static const struct loopback_seam recording_system = {
    recording_ioctl, getsockopt, loopback_os_version
};

static const char *
wine_version(void)
{
    typedef const char *(CDECL *wine_get_version_fn)(void);
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    wine_get_version_fn get;

    if (ntdll == NULL) {
        return NULL;
    }
    get = (wine_get_version_fn)(void (*)(void))
        GetProcAddress(ntdll, "wine_get_version");
    return get == NULL ? NULL : get();
}

/* A TCP socket of the literal's family; dual stack for IPv6. */
static SOCKET
tcp_socket(int family)
{
    SOCKET s = socket(family, SOCK_STREAM, IPPROTO_TCP);
    int off = 0;

    if (s != INVALID_SOCKET && family == AF_INET6) {
        setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, (const char *)&off,
                   sizeof(off));
    }
    return s;
}

/* Binds a socket to literal:0; listens when asked. Fills in the port. */
static SOCKET
bound_socket(const char *literal, int listening, unsigned short *port)
{
    SOCKADDR_STORAGE sa;
    int len = lt_address(literal, 0, &sa);
    SOCKET s;

    if (len == 0) {
        return INVALID_SOCKET;
    }
    s = tcp_socket(sa.ss_family);
    if (s == INVALID_SOCKET) {
        return INVALID_SOCKET;
    }
    if (bind(s, (struct sockaddr *)&sa, len) != 0
        || (listening && listen(s, 8) != 0)
        || getsockname(s, (struct sockaddr *)&sa, &len) != 0) {
        closesocket(s);
        return INVALID_SOCKET;
    }
    *port = ntohs(sa.ss_family == AF_INET
                  ? ((struct sockaddr_in *)&sa)->sin_port
                  : ((struct sockaddr_in6 *)&sa)->sin6_port);
    return s;
}

/* Blocking connect through the helper; returns 0 or the WSA error. */
static int
connect_through_helper(int family, const char *literal, unsigned short port,
                       int *helper_result)
{
    SOCKADDR_STORAGE sa;
    int len = lt_address(literal, port, &sa);
    SOCKET s = tcp_socket(family);
    int err = 0;

    if (s == INVALID_SOCKET) {
        return WSAGetLastError();
    }
    *helper_result = NET_PrepareLoopbackConnect(s, (struct sockaddr *)&sa, len);
    if (connect(s, (struct sockaddr *)&sa, len) != 0) {
        err = WSAGetLastError();
    }
    closesocket(s);
    return err;
}

/* Non-blocking connect and select, as SocketChannel does. */
static int
nonblocking_connect_through_helper(int family, const char *literal,
                                   unsigned short port)
{
    SOCKADDR_STORAGE sa;
    int len = lt_address(literal, port, &sa);
    SOCKET s = tcp_socket(family);
    u_long on = 1;
    fd_set writable, failed;
    struct timeval wait = { 30, 0 };
    int err = 0;
    int err_len = sizeof(err);

    if (s == INVALID_SOCKET) {
        return WSAGetLastError();
    }
    ioctlsocket(s, FIONBIO, &on);
    NET_PrepareLoopbackConnect(s, (struct sockaddr *)&sa, len);
    if (connect(s, (struct sockaddr *)&sa, len) != 0) {
        err = WSAGetLastError();
        if (err == WSAEWOULDBLOCK) {
            FD_ZERO(&writable);
            FD_ZERO(&failed);
            FD_SET(s, &writable);
            FD_SET(s, &failed);
            if (select(0, NULL, &writable, &failed, &wait) != 1) {
                err = WSAETIMEDOUT;
            } else if (getsockopt(s, SOL_SOCKET, SO_ERROR, (char *)&err,
                                  &err_len) != 0) {
                err = WSAGetLastError();
            }
        }
    }
    closesocket(s);
    return err;
}

/* ConnectEx, as AsynchronousSocketChannel does; returns 0 or the error. */
static int
connectex_through_helper(int family, const char *literal, unsigned short port)
{
    GUID guid = WSAID_CONNECTEX;
    LPFN_CONNECTEX connect_ex = NULL;
    DWORD bytes = 0;
    DWORD flags = 0;
    SOCKADDR_STORAGE sa, local;
    int len = lt_address(literal, port, &sa);
    int local_len;
    SOCKET s = tcp_socket(family);
    OVERLAPPED overlapped;
    int err = 0;

    if (s == INVALID_SOCKET) {
        return WSAGetLastError();
    }
    if (WSAIoctl(s, SIO_GET_EXTENSION_FUNCTION_POINTER, &guid, sizeof(guid),
                 &connect_ex, sizeof(connect_ex), &bytes, NULL, NULL) != 0) {
        err = WSAGetLastError();
        closesocket(s);
        return err;
    }
    /* ConnectEx wants a bound socket. */
    local_len = lt_address(family == AF_INET ? "0.0.0.0" : "::", 0, &local);
    if (bind(s, (struct sockaddr *)&local, local_len) != 0) {
        err = WSAGetLastError();
        closesocket(s);
        return err;
    }
    NET_PrepareLoopbackConnect(s, (struct sockaddr *)&sa, len);
    memset(&overlapped, 0, sizeof(overlapped));
    overlapped.hEvent = WSACreateEvent();
    if (!connect_ex(s, (struct sockaddr *)&sa, len, NULL, 0, NULL,
                    &overlapped)) {
        err = WSAGetLastError();
        if (err == ERROR_IO_PENDING) {
            err = 0;
            if (WaitForSingleObject(overlapped.hEvent, 30000) != WAIT_OBJECT_0) {
                err = WSAETIMEDOUT;
            } else if (!WSAGetOverlappedResult(s, &overlapped, &bytes, FALSE,
                                               &flags)) {
                err = WSAGetLastError();
            }
        }
    }
    WSACloseEvent(overlapped.hEvent);
    closesocket(s);
    return err;
}

static int
refused(int err)
{
    /* ConnectEx may report the Win32 form of the same error. */
    return err == WSAECONNREFUSED || err == ERROR_CONNECTION_REFUSED;
}

/*
 * All checks for one kind of destination: family is the client socket's,
 * listen_on the address the servers bind, connect_to what the client dials.
 */
static void
exercise(const char *label, int family, const char *listen_on,
         const char *connect_to)
{
    unsigned short open_port = 0;
    unsigned short closed_port = 0;
    SOCKET listener = bound_socket(listen_on, 1, &open_port);
    SOCKET holder = bound_socket(listen_on, 0, &closed_port);
    char name[160];
    int helper_result = -1;
    int err;

    if (listener == INVALID_SOCKET || holder == INVALID_SOCKET) {
        snprintf(name, sizeof(name), "%s connects", label);
        lt_skip(name, "cannot bind a loopback socket for this family here");
        if (listener != INVALID_SOCKET) closesocket(listener);
        if (holder != INVALID_SOCKET) closesocket(holder);
        return;
    }

    err = connect_through_helper(family, connect_to, open_port, &helper_result);
    if (err != 0 && family == AF_INET6 && strchr(connect_to, '.') != NULL) {
        snprintf(name, sizeof(name), "%s connects", label);
        lt_skip(name, "this stack does not connect IPv6 sockets to IPv4-mapped "
                "addresses (no dual stack)");
        closesocket(listener);
        closesocket(holder);
        return;
    }
    snprintf(name, sizeof(name), "%s: connect to a listening port succeeds",
             label);
    lt_check(name, err == 0, "error %d", err);
    snprintf(name, sizeof(name), "%s: the helper took the socket as loopback TCP",
             label);
    lt_check(name, helper_result == NET_LOOPBACK_APPLIED
             || helper_result == NET_LOOPBACK_IOCTL_FAILED,
             "result %d", helper_result);

    err = connect_through_helper(family, connect_to, closed_port, &helper_result);
    snprintf(name, sizeof(name), "%s: connect to a closed port is refused",
             label);
    lt_check(name, err == WSAECONNREFUSED, "error %d", err);

    err = nonblocking_connect_through_helper(family, connect_to, open_port);
    snprintf(name, sizeof(name), "%s: non-blocking connect to a listening port "
             "succeeds", label);
    lt_check(name, err == 0, "error %d", err);
    err = nonblocking_connect_through_helper(family, connect_to, closed_port);
    snprintf(name, sizeof(name), "%s: non-blocking connect to a closed port is "
             "refused", label);
    lt_check(name, err == WSAECONNREFUSED, "error %d", err);

    err = connectex_through_helper(family, connect_to, open_port);
    snprintf(name, sizeof(name), "%s: ConnectEx to a listening port succeeds",
             label);
    lt_check(name, err == 0, "error %d", err);
    err = connectex_through_helper(family, connect_to, closed_port);
    snprintf(name, sizeof(name), "%s: ConnectEx to a closed port is refused",
             label);
    lt_check(name, refused(err), "error %d", err);

    closesocket(listener);
    closesocket(holder);
}

int
main(void)
{
    const char *wine = wine_version();
    volatile LONG cap = LOOPBACK_CAP_UNKNOWN;
    SOCKADDR_STORAGE sa;
    int len;
    SOCKET s;
    int result;
    DWORD major = 0, build = 0;

    if (!lt_startup()) {
        return lt_exit_code();
    }
    if (loopback_os_version(&major, &build)) {
        lt_info("RtlGetVersion: %lu.x build %lu%s%s", (unsigned long)major,
                (unsigned long)build, wine ? ", Wine " : "", wine ? wine : "");
    } else {
        lt_info("RtlGetVersion is not available%s%s", wine ? ", Wine " : "",
                wine ? wine : "");
    }

    /* What this system answers to the ioctl on a real TCP socket. */
    len = lt_address("127.0.0.1", 9, &sa);
    s = tcp_socket(AF_INET);
    result = loopback_prepare(&recording_system, &cap, s,
                              (struct sockaddr *)&sa, len);
    closesocket(s);
    lt_info("SIO_TCP_INITIAL_RTO answered %d, error %d%s", last_ioctl_rv,
            last_ioctl_error,
            last_ioctl_error == WSAEOPNOTSUPP ? " (WSAEOPNOTSUPP)" : "");
    if (wine != NULL) {
        lt_check("Wine answers the ioctl with WSAEOPNOTSUPP",
                 result == NET_LOOPBACK_IOCTL_FAILED
                 && last_ioctl_error == WSAEOPNOTSUPP,
                 "result %d, error %d", result, last_ioctl_error);
    } else {
        lt_check("Windows accepts the ioctl", result == NET_LOOPBACK_APPLIED,
                 "result %d, error %d", result, last_ioctl_error);
    }

    /* The product entry point on a real UDP socket. */
    s = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    WSASetLastError(WSAEINTR);
    result = NET_PrepareLoopbackConnect(s, (struct sockaddr *)&sa, len);
    lt_check("a real UDP socket is left alone", result == NET_LOOPBACK_NOT_TCP,
             "result %d", result);
    lt_check("and WSAGetLastError is as it was", WSAGetLastError() == WSAEINTR,
             "it is %d", WSAGetLastError());
    closesocket(s);

    /* The product entry point on a real TCP socket keeps the last error. */
    s = tcp_socket(AF_INET);
    WSASetLastError(WSAEINTR);
    result = NET_PrepareLoopbackConnect(s, (struct sockaddr *)&sa, len);
    lt_check("a real TCP socket: WSAGetLastError is as it was",
             WSAGetLastError() == WSAEINTR, "it is %d (result %d)",
             WSAGetLastError(), result);
    closesocket(s);

    exercise("IPv4 127.0.0.1", AF_INET, "127.0.0.1", "127.0.0.1");
    /* The product decided the capability from this system's real build. */
    lt_check("the product's decision follows the build RtlGetVersion reports",
             loopback_capability
             == ((major > 10 || (major == 10 && build >= 16299))
                 ? LOOPBACK_CAP_NONE : LOOPBACK_CAP_LEGACY),
             "decision %ld for %lu.x build %lu", (long)loopback_capability,
             (unsigned long)major, (unsigned long)build);
    exercise("IPv6 ::1", AF_INET6, "::1", "::1");
    exercise("IPv4-mapped ::ffff:127.0.0.1", AF_INET6, "127.0.0.1",
             "::ffff:127.0.0.1");

    WSACleanup();
    return lt_exit_code();
}
