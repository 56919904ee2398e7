/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/* mingw-w64 ships <winhttp.h> in lower case; upstream includes <Winhttp.h>. */
#include <winhttp.h>
