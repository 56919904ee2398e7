/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/* mingw-w64 ships <winioctl.h> in lower case; upstream includes <Winioctl.h>. */
#include <winioctl.h>
