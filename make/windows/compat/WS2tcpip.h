/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/* mingw-w64 ships <ws2tcpip.h> in lower case; upstream includes <WS2tcpip.h>. */
#include <ws2tcpip.h>
