/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package jdk.test.lib.gc;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the garbage collector clear soft references, deterministically.
 *
 * <p>{@code System.gc()} may leave soft references alone, and how long a
 * collector keeps them is a policy. What is guaranteed (the
 * {@link java.lang.ref.SoftReference} specification) is that every softly
 * reachable object is cleared before the VM throws
 * {@link OutOfMemoryError}. So {@link #clearSoftReferences()} fills the heap
 * until that error, drops what it allocated, and then waits until the
 * reference handler has enqueued every cleared reference, so that a test
 * can poll a {@link java.lang.ref.ReferenceQueue} without racing it.
 *
 * <p>Run tests that use it in their own VM with a small heap
 * ({@code @run main/othervm -Xmx64m ...}) so that filling it is quick, and
 * with {@code @modules java.base/jdk.internal.access} so that the wait for
 * the reference handler is possible.
 */
public final class MemoryPressure {

    private MemoryPressure() {
    }

    /**
     * Clears every softly reachable object and returns once the references
     * to them are in their queues.
     *
     * @throws IllegalStateException if the reference handler cannot be
     *         waited for (the test lacks
     *         {@code @modules java.base/jdk.internal.access})
     */
    public static void clearSoftReferences() {
        exhaustHeap();
        awaitReferenceProcessing();
    }

    private static void exhaustHeap() {
        List<Object> hog = new ArrayList<>();
        int chunk = 1 << 20;
        try {
            while (true) {
                hog.add(new long[chunk]);
            }
        } catch (OutOfMemoryError expected) {
            // softly reachable objects were all cleared before this
            hog.clear();
        }
    }

    private static void awaitReferenceProcessing() {
        try {
            Class<?> secrets = Class.forName("jdk.internal.access.SharedSecrets");
            Object access = secrets.getMethod("getJavaLangRefAccess").invoke(null);
            Method wait = Class.forName("jdk.internal.access.JavaLangRefAccess")
                    .getMethod("waitForReferenceProcessing");
            // true means it waited for a batch; repeat until none is left
            while ((Boolean) wait.invoke(access)) {
                // again
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot wait for the reference "
                    + "handler; does the test have @modules "
                    + "java.base/jdk.internal.access?", e);
        }
    }
}
