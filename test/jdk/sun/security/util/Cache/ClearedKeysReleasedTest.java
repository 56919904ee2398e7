/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary The entries (and so the keys) of soft values that the GC cleared
 *          are released within a few operations: 2,000 cleared entries are
 *          gone after 9 gets, each of which purges a bounded number
 * @modules java.base/sun.security.util:+open java.base/java.util:+open
 *          java.base/java.util.concurrent:+open
 * @library /test/lib
 * @build jdk.test.lib.util.ForceGC
 * @run main/othervm ClearedKeysReleasedTest
 */

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import jdk.test.lib.util.ForceGC;
import sun.security.util.Cache;

public class ClearedKeysReleasedTest {

    static final int N = 2000;

    public static void main(String[] args) {
        for (int timeout : new int[] {0, 3600}) {
            Cache<String, byte[]> c = CacheProbe.newCache(true, 0, timeout, 0,
                    new CacheProbe.ManualClock(0));
            byte[] value = new byte[1];
            List<WeakReference<String>> keys = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                String key = "key-" + i;
                keys.add(new WeakReference<>(key));
                c.put(key, value);
            }
            CacheProbe.checkEquals(N, CacheProbe.clearSoftValues(c, v -> true,
                    true), "cleared");
            // the cache still holds every key until an operation purges
            System.gc();
            CacheProbe.checkEquals(N, held(keys), "timeout " + timeout
                    + ": keys held before any operation");
            // 2,000 at most 256 at a time: 8 operations, and one more
            for (int i = 0; i < 9; i++) {
                c.get("absent");
            }
            if (!ForceGC.wait(() -> held(keys) == 0)) {
                throw new AssertionError("timeout " + timeout + ": "
                        + held(keys) + " keys still held");
            }
        }
        System.out.println("passed");
    }

    /** How many of the keys the collector has not found unreachable. */
    static int held(List<WeakReference<String>> keys) {
        int held = 0;
        for (WeakReference<String> k : keys) {
            if (!k.refersTo(null)) {
                held++;
            }
        }
        return held;
    }
}
