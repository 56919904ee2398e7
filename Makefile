# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# Thin entry point, as in OpenJDK: the logic lives in make/. 'make help'
# lists the targets.

TOPDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
include $(TOPDIR)/make/PreInit.gmk
