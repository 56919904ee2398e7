/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/* mingw-w64 ships <wincon.h> in lower case; upstream includes <Wincon.h>. */
#include <wincon.h>
