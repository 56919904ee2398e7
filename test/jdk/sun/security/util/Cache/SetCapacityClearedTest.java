/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary setCapacity drops no live entry while entries whose soft values
 *          the GC cleared still count
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
        System.out.println("passed");
    }
}
