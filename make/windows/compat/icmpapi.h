/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/*
 * mingw-w64 12 lacks ICMPV6_ECHO_REPLY, which upstream's Inet6AddressImpl.c
 * uses only for the sizeof() of its reply buffer. Declared from Microsoft's
 * documentation of ICMPV6_ECHO_REPLY_LH: an IPV6_ADDRESS_EX (which mingw-w64
 * has, in ipexport.h), a ULONG status and an unsigned int round-trip time.
 */
#include_next <icmpapi.h>
#ifndef PATCHSET_COMPAT_ICMPV6_ECHO_REPLY
#define PATCHSET_COMPAT_ICMPV6_ECHO_REPLY
#include <ipexport.h>
typedef struct {
    IPV6_ADDRESS_EX Address;
    ULONG Status;
    unsigned int RoundTripTime;
} ICMPV6_ECHO_REPLY;
#endif
