/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Null keys, and null values in a hard cache, behave as in earlier
 *          releases; a null value removes its key from a soft cache; a
 *          timeout of zero or less means "never expires" for get and size
 *          alike; a capacity of zero or less means unbounded; invalid
 *          arguments are rejected with a clear exception
 * @modules java.base/sun.security.util:+open
 * @run main BadInputTest
 */

import java.util.Map;

import sun.security.util.Cache;

public class BadInputTest {

    public static void main(String[] args) {
        nullKeys(Cache.newHardMemoryCache(10));
        nullKeys(Cache.newSoftMemoryCache(10));
        nullValueHard();
        nullValueSoft();
        negativeTimeout();
        nonPositiveCapacity();
        invalidArguments();
        System.out.println("passed");
    }

    static void nullKeys(Cache<String, String> c) {
        // the LinkedHashMap-based cache of earlier releases accepts a null key
        c.put(null, "n");
        c.put("a", "1");
        CacheProbe.checkEquals("n", c.get(null), "null key");
        CacheProbe.checkEquals(2, c.size(), "null key counts");
        Map<String, String> expected = new java.util.HashMap<>();
        expected.put(null, "n");
        expected.put("a", "1");
        CacheProbe.checkEquals(expected, CacheProbe.entries(c), "visited");
        CacheProbe.checkEquals("n", c.pull(null), "pull null key");
        CacheProbe.checkEquals(null, c.get(null), "pulled");
        c.put(null, "m");
        c.remove(null);
        CacheProbe.checkEquals(null, c.get(null), "removed");
        CacheProbe.checkEquals(1, c.size(), "only a");
    }

    static void nullValueHard() {
        Cache<String, String> c = Cache.newHardMemoryCache(10);
        c.put("a", "1");
        c.put("a", null);               // as before: kept, reads null
        CacheProbe.checkEquals(null, c.get("a"), "null value read back");
        CacheProbe.checkEquals(1, c.size(), "null value counts");
        Map<String, String> expected = new java.util.HashMap<>();
        expected.put("a", null);
        CacheProbe.checkEquals(expected, CacheProbe.entries(c), "visited");
    }

    static void nullValueSoft() {
        // a soft reference to null cannot be told from a cleared one, and
        // cleared entries are purged: null removes the key
        Cache<String, String> c = Cache.newSoftMemoryCache(10);
        c.put("a", "1");
        c.put("a", null);
        CacheProbe.checkEquals(null, c.get("a"), "null value reads null");
        CacheProbe.checkEquals(0, c.size(), "size agrees with get");
        CacheProbe.checkEquals(Map.of(), CacheProbe.entries(c), "visited");
        Cache<String, String> q = Cache.newSoftMemoryQueue(10, 0, 3);
        q.put("k", "t1", true);
        q.put("k", null, true);
        CacheProbe.checkEquals(null, q.get("k"), "null ticket");
        CacheProbe.checkEquals(0, q.size(), "queue size agrees");
    }

    static void negativeTimeout() {
        // earlier releases' constructor takes a negative timeout as already
        // expired for size() but never expired for get(): not here
        for (boolean soft : new boolean[] {false, true}) {
            CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
            Cache<String, String> c = CacheProbe.newCache(soft, 10, -1, 0,
                    clock);
            c.put("a", "1");
            clock.advanceSeconds(1_000_000);
            CacheProbe.checkEquals("1", c.get("a"), "negative timeout: get");
            CacheProbe.checkEquals(1, c.size(), "negative timeout: size");
        }
        Cache<String, String> h = Cache.newHardMemoryCache(10, -30);
        h.put("a", "1");
        CacheProbe.checkEquals(1, h.size(), "factory, negative: size");
        CacheProbe.checkEquals("1", h.get("a"), "factory, negative: get");
        Cache<String, String> s = Cache.newSoftMemoryCache(10, -30);
        s.put("a", "1");
        CacheProbe.checkEquals(1, s.size(), "soft factory, negative: size");
        CacheProbe.checkEquals("1", s.get("a"), "soft factory, negative: get");
    }

    static void nonPositiveCapacity() {
        for (int cap : new int[] {0, -1, Integer.MIN_VALUE}) {
            Cache<Integer, Integer> c = Cache.newHardMemoryCache(cap);
            for (int i = 0; i < 1000; i++) {
                c.put(i, i);
            }
            CacheProbe.checkEquals(1000, c.size(), "capacity " + cap);
            c.setCapacity(10);
            CacheProbe.checkEquals(10, c.size(), "setCapacity(10)");
            c.setCapacity(-7);
            for (int i = 0; i < 1000; i++) {
                c.put(i, i);
            }
            CacheProbe.checkEquals(1000, c.size(), "setCapacity(-7)");
        }
    }

    static void invalidArguments() {
        try {
            Cache.newSoftMemoryQueue(10, 10, -1);
            throw new AssertionError("negative queue size accepted");
        } catch (IllegalArgumentException expected) {
            CacheProbe.check(expected.getMessage().contains("-1"),
                    "message names the value: " + expected.getMessage());
        }
        try {
            new Cache.EqualByteArray(null);
            throw new AssertionError("null byte array accepted");
        } catch (NullPointerException expected) {
            // earlier releases failed later, in hashCode
        }
    }
}
