/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary newSoftMemoryQueue with a huge maxQueueSize costs memory for the
 *          tickets queued, not for maxQueueSize slots per key
 * @modules java.base/sun.security.util
 * @run main/othervm -Xmx64m LargeQueueSizeTest
 */

import sun.security.util.Cache;

public class LargeQueueSizeTest {

    public static void main(String[] args) {
        for (int max : new int[] {1_000_000, Integer.MAX_VALUE}) {
            Cache<String, String> c = Cache.newSoftMemoryQueue(0, 3600, max);
            String value = "ticket";
            for (int i = 0; i < 1000; i++) {
                c.put("host" + i + ":443", value, true);
            }
            c.put("host0:443", value, true);
            if (c.size() != 1000) {
                throw new AssertionError("size " + c.size());
            }
        }
        System.out.println("passed");
    }
}
