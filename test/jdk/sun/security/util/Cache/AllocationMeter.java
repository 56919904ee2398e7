/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.lang.management.ManagementFactory;

/**
 * The bytes the thread that made it has allocated, from the JVM's
 * per-thread counter: what a put allocates is the difference of two
 * readings around it. Tests that use it need {@code @modules
 * jdk.management}.
 */
final class AllocationMeter {

    private final com.sun.management.ThreadMXBean mx;
    private final long id;

    @SuppressWarnings("deprecation")    // Thread.getId: JDK 17 has no threadId
    AllocationMeter() {
        mx = (com.sun.management.ThreadMXBean)
                ManagementFactory.getThreadMXBean();
        if (!mx.isThreadAllocatedMemorySupported()) {
            throw new AssertionError("no per-thread allocation counter");
        }
        mx.setThreadAllocatedMemoryEnabled(true);
        id = Thread.currentThread().getId();
    }

    /** The bytes allocated so far by the thread that made this meter. */
    long bytes() {
        return mx.getThreadAllocatedBytes(id);
    }
}
