/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary The entries (and so the keys) of soft values that the GC cleared
 *          are released after a few operations, not one per operation
 *          slice of 4: 2,000 cleared entries are gone
 *          after 9 gets
 * @modules java.base/sun.security.util:+open
 * @run main ClearedKeysReleasedTest
 */

import sun.security.util.Cache;

public class ClearedKeysReleasedTest {

    static final int N = 2000;

    public static void main(String[] args) {
        for (int timeout : new int[] {0, 3600}) {
            Cache<String, byte[]> c = CacheProbe.newCache(true, 0, timeout, 0,
                    new CacheProbe.ManualClock(0));
            byte[] value = new byte[1];
            for (int i = 0; i < N; i++) {
                c.put("key-" + i, value);
            }
            CacheProbe.checkEquals(N, CacheProbe.clearSoftValues(c, k -> true),
                    "cleared");
            // ceil(2000 / 256) = 8 operations, and one more
            for (int i = 0; i < 9; i++) {
                c.get("absent");
            }
            CacheProbe.checkEquals(0, CacheProbe.intField(c, "count"),
                    "timeout " + timeout + ": entries still held");
        }
        System.out.println("passed");
    }
}
