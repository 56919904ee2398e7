/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A full cache drops the entry put longest ago, reads do not change
 *          that order, a put again moves the entry to the back, and entries
 *          expire in the order they were put, each after its lifetime
 * @modules java.base/sun.security.util:+open
 * @run main FifoExpiryOrderTest
 */

import java.util.Map;

import sun.security.util.Cache;

public class FifoExpiryOrderTest {

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            fifoEviction(soft);
            expiryOrder(soft);
            expiredMakeRoomFirst(soft);
        }
        System.out.println("passed");
    }

    static void fifoEviction(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 3, 0, 0, clock);
        c.put("a", "1");
        c.put("b", "2");
        c.put("c", "3");
        // an LRU cache would now keep "a"; a FIFO one must not
        CacheProbe.checkEquals("1", c.get("a"), "a present");
        c.put("d", "4");
        CacheProbe.checkEquals(null, c.get("a"), "a, put first, went first");
        CacheProbe.checkEquals(Map.of("b", "2", "c", "3", "d", "4"),
                CacheProbe.entries(c), "after one eviction");
        // putting "b" again makes it the newest, so "c" goes next
        c.put("b", "2'");
        c.put("e", "5");
        CacheProbe.checkEquals(Map.of("b", "2'", "d", "4", "e", "5"),
                CacheProbe.entries(c), "a put again moves to the back");
    }

    static void expiryOrder(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(1000);
        Cache<Integer, String> c = CacheProbe.newCache(soft, 0, 10, 0, clock);
        for (int i = 0; i < 10; i++) {
            c.put(i, "v" + i);          // entry i put at i seconds
            clock.advanceSeconds(1);
        }
        // now = 10 s: entry 0 has lived exactly its lifetime
        for (int t = 10; t < 20; t++) {
            int firstAlive = t - 9;
            CacheProbe.checkEquals(10 - firstAlive, c.size(),
                    "size at " + t + " s");
            CacheProbe.checkEquals(null, c.get(firstAlive - 1),
                    "entry " + (firstAlive - 1) + " expired at " + t + " s");
            if (firstAlive < 10) {
                CacheProbe.checkEquals("v" + firstAlive, c.get(firstAlive),
                        "entry " + firstAlive + " alive at " + t + " s");
            }
            clock.advanceSeconds(1);
        }
        // one nanosecond short of the lifetime is still alive
        c.put(100, "x");
        clock.advance(10 * CacheProbe.SECOND - 1);
        CacheProbe.checkEquals("x", c.get(100), "alive 1 ns before expiry");
        clock.advance(1);
        CacheProbe.checkEquals(null, c.get(100), "expired at its lifetime");
        CacheProbe.checkEquals(null, c.pull(100), "pull of an expired entry");
    }

    static void expiredMakeRoomFirst(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 2, 5, 0, clock);
        c.put("old", "1");
        clock.advanceSeconds(3);
        c.put("young", "2");
        clock.advanceSeconds(3);        // "old" expired, "young" alive
        c.put("new", "3");
        CacheProbe.checkEquals(Map.of("young", "2", "new", "3"),
                CacheProbe.entries(c), "the expired entry made room");
    }
}
