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

import sun.security.util.Cache;

public class GrowthAllocationTest {

    static final int N = 1_700_000;             // grows past 2^21 buckets
    static final long LIMIT = 512 * 1024;       // bytes per put

    public static void main(String[] args) {
        AllocationMeter meter = new AllocationMeter();
        Integer[] keys = new Integer[N];
        for (int i = 0; i < N; i++) {
            keys[i] = i;
        }
        for (boolean soft : new boolean[] {false, true}) {
            Cache<Integer, Integer> c = soft ? Cache.newSoftMemoryCache(0)
                    : Cache.newHardMemoryCache(0, 3600);
            long max = 0;
            int at = -1;
            long before = meter.bytes();
            for (int i = 0; i < N; i++) {
                c.put(keys[i], keys[i]);
                long after = meter.bytes();
                if (after - before > max) {
                    max = after - before;
                    at = i;
                }
                before = meter.bytes();
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
