/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * Stands in for the JDK's jni.h when the loopback helper is compiled alone
 * with mingw-w64: the helper needs nothing from JNI but the two linkage
 * macros, and these are their values in the JDK's Windows jni_md.h.
 */
#ifndef LOOPBACK_TEST_JNI_H
#define LOOPBACK_TEST_JNI_H

#define JNIEXPORT __declspec(dllexport)
#define JNICALL __stdcall

#endif
