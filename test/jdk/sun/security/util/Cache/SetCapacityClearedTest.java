/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary setCapacity drops no live entry while entries whose soft values
 *          the GC cleared still count, nor while a key's queue holds no
 *          value left that get would return
 * @modules java.base/sun.security.util:+open java.base/java.util:+open
 *          java.base/java.util.concurrent:+open
 * @run main SetCapacityClearedTest
 */

import java.util.HashMap;
import java.util.Map;

import sun.security.util.Cache;

public class SetCapacityClearedTest {

    public static void main(String[] args) {
        for (int timeout : new int[] {0, 3600}) {
            Cache<Integer, String> c = CacheProbe.newCache(true, 0, timeout, 0,
                    new CacheProbe.ManualClock(0));
            Map<Integer, String> live = new HashMap<>();
            for (int i = 0; i < 20; i++) {
                String v = "v" + i;
                c.put(i, v);
                if (i % 2 == 0) {
                    live.put(i, v);
                }
            }
            // the odd ones, interleaved with the live ones, are cleared
            // (and not yet enqueued, as right after a GC)
            int cleared = CacheProbe.clearSoftValues(c,
                    v -> !live.containsValue(v), false);
            CacheProbe.checkEquals(10, cleared, "cleared");
            c.setCapacity(10);
            CacheProbe.checkEquals(live, CacheProbe.entries(c),
                    "timeout " + timeout + ": every live entry kept");
            for (Map.Entry<Integer, String> e : live.entrySet()) {
                CacheProbe.checkEquals(e.getValue(), c.get(e.getKey()),
                        "get " + e.getKey());
            }
        }
        queueWithNothingLeft();
        System.out.println("passed");
    }

    /**
     * A queue whose newest value was cleared may hold only expired values
     * while its key, stamped when that newest value was queued, looks
     * live: the key must go before a live one does.
     */
    static void queueWithNothingLeft() {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<Integer, String> c = CacheProbe.newCache(true, 0, 10, 2, clock);
        String expiring = "expiring";
        String cleared = "cleared";
        String live = "live";
        c.put(1, expiring, true);
        clock.advanceSeconds(6);
        c.put(2, live, true);
        c.put(1, cleared, true);            // key 1 is the newest now
        CacheProbe.checkEquals(1, CacheProbe.clearSoftValues(c,
                v -> v == cleared, false), "cleared");
        clock.advanceSeconds(5);            // "expiring" is 11 s old
        c.setCapacity(1);
        CacheProbe.checkEquals(live, c.get(2),
                "the live key kept, the key with nothing left removed");
    }
}
