/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/* mingw-w64 ships <mswsock.h> in lower case; upstream includes <Mswsock.h>. */
#include <mswsock.h>
