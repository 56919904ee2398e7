/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @key randomness
 * @summary size() counts exactly the entries accept() shows in a cache of
 *          queued values, also when the collector clears the newest value
 *          of a key and the older ones expire before the key would, and
 *          when setTimeout removes the expired values of a queue; random
 *          sequences of queued puts, gets, setTimeout, clock steps and
 *          cleared values, with fixed seeds
 * @modules java.base/sun.security.util:+open java.base/java.util:+open
 *          java.base/java.util.concurrent:+open
 *          java.base/java.util:+open
 *          java.base/java.util.concurrent:+open
 * @run main QueueSizeTest
 */

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import sun.security.util.Cache;

public class QueueSizeTest {

    static final long SECOND = CacheProbe.SECOND;

    public static void main(String[] args) {
        newestCleared();
        setTimeoutEmptiesQueue();
        for (long seed = 0; seed < 3000; seed++) {
            random(seed);
        }
        System.out.println("passed");
    }

    /**
     * Values a and b queued under k, b cleared by the collector: once a
     * expires, k has no value left, although its newest put is younger
     * than the lifetime.
     */
    static void newestCleared() {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(true, 0, 1, 3, clock);
        String a = "a";
        String b = "b";
        c.put("k", a, true);
        clock.advance(SECOND / 2);
        c.put("k", b, true);
        CacheProbe.checkEquals(1, CacheProbe.clearSoftValues(c, o -> o == b, true), "cleared");
        clock.advance(SECOND * 6 / 10);        // a expired, b would not be
        checkSize(c, "newest value cleared, the older expired");
        CacheProbe.checkEquals(0, c.size(), "size");
        CacheProbe.checkEquals(null, c.get("k"), "get");
    }

    /**
     * A longer lifetime removes the queued values that had expired; a key
     * left with none goes too.
     */
    static void setTimeoutEmptiesQueue() {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(true, 0, 1, 3, clock);
        String a = "a";
        String b = "b";
        c.put("k", a, true);
        clock.advance(SECOND / 2);
        c.put("k", b, true);
        CacheProbe.checkEquals(1, CacheProbe.clearSoftValues(c, o -> o == b, true), "cleared");
        clock.advance(SECOND * 6 / 10);
        c.setTimeout(10);
        checkSize(c, "setTimeout after the newest value was cleared");
        CacheProbe.checkEquals(0, c.size(), "size");
        CacheProbe.checkEquals(null, c.get("k"), "get");
    }

    static final int[] TIMEOUTS = {0, 1, 2, 3, 5, 10, -1};

    static void random(long seed) {
        Random r = new Random(seed);
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(r.nextLong());
        Cache<String, String> c = CacheProbe.newCache(true, r.nextInt(4),
                TIMEOUTS[r.nextInt(TIMEOUTS.length)], 1 + r.nextInt(3), clock);
        int keys = 1 + r.nextInt(3);
        int ops = 10 + r.nextInt(70);
        List<String> values = new ArrayList<>();     // held for the cache
        List<String> log = new ArrayList<>();
        for (int op = 0; op < ops; op++) {
            String k = "k" + r.nextInt(keys);
            String v = "v" + op;
            int what = r.nextInt(12);
            if (what < 5) {
                values.add(v);
                c.put(k, v, true);
                log.add("put(" + k + ", " + v + ", true)");
            } else if (what < 6) {
                log.add("get(" + k + ") = " + c.get(k));
            } else if (what < 8) {
                long d = r.nextInt(40) * SECOND / 10;
                clock.advance(d);
                log.add("advance " + d);
            } else if (what < 10) {
                int t = TIMEOUTS[r.nextInt(TIMEOUTS.length)];
                c.setTimeout(t);
                log.add("setTimeout(" + t + ")");
            } else if (what < 11) {
                values.add(v);
                c.put(k, v);
                log.add("put(" + k + ", " + v + ")");
            } else if (!values.isEmpty()) {
                String x = values.get(r.nextInt(values.size()));
                log.add("cleared " + x + ": "
                        + CacheProbe.clearSoftValues(c, o -> o == x, true));
            }
            if (r.nextInt(8) == 0 || op == ops - 1) {
                try {
                    checkSize(c, "seed " + seed);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + " after " + log,
                            e);
                }
            }
        }
    }

    /** size() and accept() agree, whichever is called first. */
    static void checkSize(Cache<String, String> c, String what) {
        int size = c.size();
        Map<String, String> entries = CacheProbe.entries(c);
        CacheProbe.checkEquals(size, entries.size(), what + ": size() then "
                + entries);
        entries = CacheProbe.entries(c);
        CacheProbe.checkEquals(entries.size(), c.size(), what + ": "
                + entries + " then size()");
    }
}
