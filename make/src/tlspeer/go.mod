// SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0

module tlspeer

go 1.22
