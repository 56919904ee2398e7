/* SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0 */
/* mingw-w64 ships <sddl.h> in lower case; upstream includes <Sddl.h>. */
#include <sddl.h>
