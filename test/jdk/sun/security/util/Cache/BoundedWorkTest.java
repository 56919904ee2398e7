/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary When many entries expire at once, one put removes at most a few
 *          of them and a get, remove or pull at most the one it looks up
 *          (observed through weak references to the keys, not timed); the
 *          backlog is paid off by the puts that follow, while size() stays
 *          exact
 * @modules java.base/sun.security.util:+open
 * @run main/othervm -Xmx512m BoundedWorkTest
 */

import java.lang.ref.WeakReference;

import sun.security.util.Cache;

public class BoundedWorkTest {

    static final int N = 200_000;

    /** The most expired entries one put removes (MAX_EXPIRED_PER_PUT). */
    static final int PER_PUT = 4;

    /** A key held by the cache alone, so that its release can be seen. */
    record Key(int id) {
    }

    /** Weak references to every key put, to count those released. */
    static final class Keys {
        private final WeakReference<?>[] refs;
        private int released;

        Keys(int n) {
            refs = new WeakReference<?>[n];
        }

        Key make(int i) {
            Key k = new Key(i);
            refs[i] = new WeakReference<>(k);
            return k;
        }

        /** How many keys the cache released since the last call. */
        int releasedSinceLast() {
            forceGC();
            int n = 0;
            for (WeakReference<?> r : refs) {
                if (r != null && r.refersTo(null)) {
                    n++;
                }
            }
            int since = n - released;
            released = n;
            return since;
        }
    }

    /** A full collection: returns once an unreachable object was freed. */
    static void forceGC() {
        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        for (int i = 0; i < 100 && !sentinel.refersTo(null); i++) {
            System.gc();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        if (!sentinel.refersTo(null)) {
            throw new AssertionError("no collection");
        }
    }

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            burstByTime(soft);
            burstBySetTimeout(soft);
            fullCacheExpiringContinuously(soft);
        }
        System.out.println("passed");
    }

    static void checkAtMost(int most, int actual, String what) {
        if (actual > most) {
            throw new AssertionError(what + " removed " + actual
                    + " entries, more than " + most);
        }
    }

    // Values are held here, so that a soft cache's values stay.
    static final Integer[] VALUES = new Integer[N + 2000];
    static {
        for (int i = 0; i < VALUES.length; i++) {
            VALUES[i] = i;
        }
    }

    static Cache<Key, Integer> filled(boolean soft, int capacity, int timeout,
            CacheProbe.ManualClock clock, Keys keys) {
        Cache<Key, Integer> c = CacheProbe.newCache(soft, capacity, timeout, 0,
                clock);
        for (int i = 0; i < N; i++) {
            c.put(keys.make(i), VALUES[i]);
        }
        keys.releasedSinceLast();
        return c;
    }

    static void burstByTime(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Keys keys = new Keys(N + 1001);
        Cache<Key, Integer> c = filled(soft, 0, 60, clock, keys);
        clock.advanceSeconds(60);       // all N expire at this instant
        c.put(keys.make(N), VALUES[N]);
        checkAtMost(PER_PUT, keys.releasedSinceLast(), "a put after the burst");
        CacheProbe.checkEquals(null, c.get(new Key(N / 2)), "expired");
        checkAtMost(1, keys.releasedSinceLast(), "a get of an expired entry");
        CacheProbe.checkEquals(VALUES[N], c.get(new Key(N)), "new entry");
        checkAtMost(0, keys.releasedSinceLast(), "a get of a live entry");
        c.remove(new Key(7));
        checkAtMost(1, keys.releasedSinceLast(), "a remove");
        CacheProbe.checkEquals(null, c.pull(new Key(8)), "pull");
        checkAtMost(1, keys.releasedSinceLast(), "a pull");
        // a stream of puts pays the backlog off, a few entries each
        for (int i = 1; i <= 1000; i++) {
            c.put(keys.make(N + i), VALUES[N + i]);
        }
        int paid = keys.releasedSinceLast();
        checkAtMost(PER_PUT * 1000, paid, "1000 puts");
        CacheProbe.check(paid >= 1000, "1000 puts removed " + paid
                + " expired entries");
        CacheProbe.checkEquals(1001, c.size(), "size is exact");
        CacheProbe.checkEquals(null, c.get(new Key(N - 1)),
                "newest of the burst");
    }

    static void burstBySetTimeout(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Keys keys = new Keys(N + 1);
        Cache<Key, Integer> c = filled(soft, 0, 3600, clock, keys);
        clock.advanceSeconds(10);
        c.setTimeout(5);                // expires every entry
        checkAtMost(0, keys.releasedSinceLast(), "a shorter setTimeout");
        c.put(keys.make(N), VALUES[N]);
        checkAtMost(PER_PUT, keys.releasedSinceLast(), "a put after it");
        CacheProbe.checkEquals(null, c.get(new Key(N / 2)), "expired");
        checkAtMost(1, keys.releasedSinceLast(), "a get after it");
        CacheProbe.checkEquals(1, c.size(), "size after setTimeout");
    }

    /**
     * A full cache whose entries expire one by one as puts come: every put
     * removes a few, and the cache stays within its capacity.
     */
    static void fullCacheExpiringContinuously(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        int puts = 2000;
        Keys keys = new Keys(N + puts);
        Cache<Key, Integer> c = CacheProbe.newCache(soft, N, 1, 0, clock);
        long tick = CacheProbe.SECOND / N;
        for (int i = 0; i < N; i++) {
            c.put(keys.make(i), VALUES[i]);
            clock.advance(tick);
        }
        keys.releasedSinceLast();
        for (int i = 0; i < puts; i++) {
            boolean sample = i % 200 == 0;
            if (sample) {
                keys.releasedSinceLast();
            }
            c.put(keys.make(N + i), VALUES[N + i]);
            clock.advance(tick);
            if (sample) {
                // a few expired, and the oldest evicted if still full
                checkAtMost(PER_PUT + 1, keys.releasedSinceLast(),
                        "put " + i + " into a full cache");
            }
        }
        CacheProbe.check(c.size() <= N, "capacity held");
    }
}
