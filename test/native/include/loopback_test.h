/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * The few pieces every C test of the loopback helper shares. A test prints
 * one line per case, "PASS <case>", "FAIL <case>: <why>" or
 * "SKIP <case>: <why>", which test/native/run-native.sh counts, and exits
 * non-zero when a case failed.
 *
 * Each test compiles the helper's source into itself so that it can reach
 * the helper's seam (struct loopback_seam) and its static functions.
 */
#ifndef LOOPBACK_TEST_H
#define LOOPBACK_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "net_loopback_md.c"

static int lt_failures = 0;

/* Records one case: passes when ok is true, else prints why it failed. */
static inline void
lt_check(const char *name, int ok, const char *why_format, ...)
{
    va_list args;

    if (ok) {
        printf("PASS %s\n", name);
    } else {
        lt_failures++;
        printf("FAIL %s: ", name);
        va_start(args, why_format);
        vprintf(why_format, args);
        va_end(args);
        printf("\n");
    }
    fflush(stdout);
}

static inline void
lt_skip(const char *name, const char *why)
{
    printf("SKIP %s: %s\n", name, why);
    fflush(stdout);
}

static inline void
lt_info(const char *format, ...)
{
    va_list args;

    printf("INFO ");
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    fflush(stdout);
}

static inline int
lt_exit_code(void)
{
    return lt_failures == 0 ? 0 : 1;
}

/* Fills *sa from a numeric IPv4 or IPv6 literal; returns its length or 0. */
static inline int
lt_address(const char *literal, unsigned short port, SOCKADDR_STORAGE *sa)
{
    struct sockaddr_in *sin = (struct sockaddr_in *)sa;
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)sa;

    memset(sa, 0, sizeof(*sa));
    if (inet_pton(AF_INET, literal, &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        sin->sin_port = htons(port);
        return (int)sizeof(*sin);
    }
    if (inet_pton(AF_INET6, literal, &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons(port);
        return (int)sizeof(*sin6);
    }
    return 0;
}

static inline int
lt_startup(void)
{
    WSADATA data;
    int rv = WSAStartup(MAKEWORD(2, 2), &data);

    lt_check("winsock starts", rv == 0, "WSAStartup returned %d", rv);
    return rv == 0;
}

#endif /* LOOPBACK_TEST_H */
