/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary No single put allocates more than a few table segments, however
 *          large the table grows: the growth of the
 *          hash table is incremental, never one array of every bucket
 * @modules java.base/sun.security.util
 *          jdk.management
 * @run main/othervm -Xmx1g GrowthAllocationTest
 */

import java.lang.management.ManagementFactory;

import sun.security.util.Cache;

public class GrowthAllocationTest {

    static final int N = 1_700_000;             // grows past 2^21 buckets
    static final long LIMIT = 512 * 1024;       // bytes per put

    @SuppressWarnings("deprecation")    // Thread.getId: JDK 17 has no threadId
    public static void main(String[] args) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)
                ManagementFactory.getThreadMXBean();
        if (!mx.isThreadAllocatedMemorySupported()) {
            throw new AssertionError("no per-thread allocation counter");
        }
        mx.setThreadAllocatedMemoryEnabled(true);
        Integer[] keys = new Integer[N];
        for (int i = 0; i < N; i++) {
            keys[i] = i;
        }
        for (boolean soft : new boolean[] {false, true}) {
            Cache<Integer, Integer> c = soft ? Cache.newSoftMemoryCache(0)
                    : Cache.newHardMemoryCache(0, 3600);
            long id = Thread.currentThread().getId();
            long max = 0;
            int at = -1;
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < N; i++) {
                c.put(keys[i], keys[i]);
                long after = mx.getThreadAllocatedBytes(id);
                if (after - before > max) {
                    max = after - before;
                    at = i;
                }
                before = mx.getThreadAllocatedBytes(id);
            }
            System.out.println((soft ? "soft" : "hard") + ": largest put "
                    + max + " bytes, put #" + at);
            if (max > LIMIT) {
                throw new AssertionError((soft ? "soft" : "hard")
                        + ": put #" + at + " allocated " + max + " bytes");
            }
        }
        System.out.println("passed");
    }
}
