/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary When a million entries expire at once, one put or get examines
 *          at most a fixed number of entries (counted through a test hook,
 *          not timed); the backlog is paid off by the operations that
 *          follow, while size() stays exact
 * @modules java.base/sun.security.util:+open
 * @run main/othervm -Xmx1g BoundedWorkTest
 */

import sun.security.util.Cache;

public class BoundedWorkTest {

    static final int N = 1_000_000;

    /**
     * The most entries one operation may examine: a few expired entries,
     * a few cleared references, a few hash buckets and what they hold,
     * one eviction. Far below N; an implementation that scans does N.
     */
    static final long BOUND = 64;

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            burstByTime(soft);
            burstBySetTimeout(soft);
            fullCacheExpiringContinuously(soft);
        }
        System.out.println("passed");
    }

    static Cache<Integer, Integer> filled(boolean soft, int capacity,
            int timeout, CacheProbe.ManualClock clock) {
        Cache<Integer, Integer> c = CacheProbe.newCache(soft, capacity,
                timeout, 0, clock);
        for (int i = 0; i < N; i++) {
            c.put(i, i);
        }
        CacheProbe.checkEquals(N, c.size(), "filled");
        return c;
    }

    static long work(Cache<Integer, Integer> c, Runnable op, String what) {
        long before = CacheProbe.examined(c);
        op.run();
        long n = CacheProbe.examined(c) - before;
        if (n > BOUND) {
            throw new AssertionError(what + " examined " + n
                    + " entries, more than " + BOUND);
        }
        return n;
    }

    static void burstByTime(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<Integer, Integer> c = filled(soft, 0, 60, clock);
        clock.advanceSeconds(60);       // all N expire at this instant
        work(c, () -> c.put(-1, -1), "put after the burst");
        work(c, () -> CacheProbe.checkEquals(null, c.get(N / 2), "expired"),
                "get of an expired entry");
        work(c, () -> CacheProbe.checkEquals(-1, c.get(-1), "new entry"),
                "get of a live entry");
        work(c, () -> c.remove(7), "remove");
        work(c, () -> c.pull(8), "pull");
        // a stream of puts pays the backlog off, each within the bound
        long paid = 0;
        for (int i = 0; i < 1000; i++) {
            int k = N + i;
            paid += work(c, () -> c.put(k, k), "put " + i + " after the burst");
        }
        CacheProbe.check(paid >= 1000, "the puts removed expired entries");
        CacheProbe.checkEquals(1001, c.size(), "size is exact");
        CacheProbe.checkEquals(null, c.get(N - 1), "newest of the burst");
    }

    static void burstBySetTimeout(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<Integer, Integer> c = filled(soft, 0, 3600, clock);
        clock.advanceSeconds(10);
        work(c, () -> c.setTimeout(5), "setTimeout that expires everything");
        work(c, () -> c.put(-1, -1), "put after setTimeout");
        work(c, () -> c.get(3), "get after setTimeout");
        CacheProbe.checkEquals(1, c.size(), "size after setTimeout");
    }

    static void fullCacheExpiringContinuously(boolean soft) {
        // the worst case of a cache that expunges everything at once: full, every entry about to expire,
        // a put per tick
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<Integer, Integer> c = CacheProbe.newCache(soft, N, 1, 0, clock);
        long tick = CacheProbe.SECOND / N;
        for (int i = 0; i < N; i++) {
            c.put(i, i);
            clock.advance(tick);
        }
        for (int i = 0; i < 100_000; i++) {
            int k = N + i;
            work(c, () -> c.put(k, k), "put " + k + " into a full cache");
            clock.advance(tick);
        }
        CacheProbe.check(c.size() <= N, "capacity held");
    }
}
