/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A ticket that has expired is never handed out again, also after
 *          setTimeout made the lifetime longer or unbounded, although its
 *          key was put again later than the ticket
 * @modules java.base/sun.security.util:+open
 * @run main ExpiredTicketTest
 */

import java.util.Map;

import sun.security.util.Cache;

public class ExpiredTicketTest {

    public static void main(String[] args) {
        for (int newTimeout : new int[] {0, 100, -1}) {
            for (String op : new String[] {"get", "pull", "accept"}) {
                check(newTimeout, op);
            }
        }
        System.out.println("passed");
    }

    static void check(int newTimeout, String op) {
        String what = "setTimeout(" + newTimeout + "), " + op;
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(7);
        Cache<String, String> c = CacheProbe.newCache(true, 10, 2, 5, clock);
        String t1 = "t1";
        String t2 = "t2";
        c.put("k", t1, true);
        clock.advance(1_300_000_000L);
        c.put("k", t2, true);
        clock.advance(1_000_000_000L);      // t1 is 2.3 s old, t2 1.0 s
        c.setTimeout(newTimeout);
        // more operations than any floor bookkeeping needs to settle
        for (int i = 0; i < 10; i++) {
            c.get("other" + i);
        }
        switch (op) {
            case "get" -> {
                CacheProbe.checkEquals(t2, c.get("k"), what);
                CacheProbe.checkEquals(null, c.get("k"), what + ", again");
            }
            case "pull" -> CacheProbe.checkEquals(t2, c.pull("k"), what);
            default -> CacheProbe.checkEquals(Map.of("k", t2),
                    CacheProbe.entries(c), what);
        }
    }
}
