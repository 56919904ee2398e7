/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary setTimeout applies to the entries already cached, shorter and
 *          longer; an entry that had expired stays expired; a timeout of
 *          zero or less means entries never expire, and entries do not age
 *          until a lifetime is set
 * @modules java.base/sun.security.util:+open
 * @run main SetTimeoutTest
 */

import java.util.Map;

import sun.security.util.Cache;

public class SetTimeoutTest {

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            shorter(soft);
            longer(soft);
            expiredStayExpired(soft);
            neverAndBack(soft);
        }
        System.out.println("passed");
    }

    static void shorter(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 100, 0, clock);
        c.put("a", "1");
        clock.advanceSeconds(5);
        c.put("b", "2");
        clock.advanceSeconds(5);        // a is 10 s old, b 5 s
        c.setTimeout(8);
        CacheProbe.checkEquals(null, c.get("a"), "a older than the new 8 s");
        CacheProbe.checkEquals("2", c.get("b"), "b younger than 8 s");
        CacheProbe.checkEquals(1, c.size(), "size after shortening");
        clock.advanceSeconds(3);        // b is 8 s old
        CacheProbe.checkEquals(null, c.get("b"), "b expires at 8 s too");
        CacheProbe.checkEquals(0, c.size(), "all expired");
    }

    static void longer(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 10, 0, clock);
        c.put("a", "1");
        clock.advanceSeconds(9);
        c.setTimeout(30);
        clock.advanceSeconds(20);       // a is 29 s old
        CacheProbe.checkEquals("1", c.get("a"), "a lives on after lengthening");
        clock.advanceSeconds(1);
        CacheProbe.checkEquals(null, c.get("a"), "a expires at 30 s");
    }

    static void expiredStayExpired(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 10, 0, clock);
        // more expired entries than one operation removes, so that most
        // are still in the cache, untouched, when the timeout changes
        for (int i = 0; i < 100; i++) {
            c.put("e" + i, "x");
        }
        clock.advanceSeconds(5);
        c.put("c", "3");
        clock.advanceSeconds(7);        // e* expired (12 s); c alive (7 s)
        c.setTimeout(3600);
        for (int i = 99; i >= 0; i--) {
            CacheProbe.checkEquals(null, c.get("e" + i),
                    "expired e" + i + " stays expired");
        }
        CacheProbe.checkEquals("3", c.get("c"), "c lives on");
        CacheProbe.checkEquals(Map.of("c", "3"), CacheProbe.entries(c),
                "visited entries after lengthening");
        c.setTimeout(0);
        clock.advanceSeconds(1_000_000);
        CacheProbe.checkEquals("3", c.get("c"), "timeout 0: never expires");
        CacheProbe.checkEquals(1, c.size(), "only c");
    }

    static void neverAndBack(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 0, 0, clock);
        c.put("a", "1");
        clock.advanceSeconds(50);
        c.put("b", "2");
        clock.advanceSeconds(50);
        CacheProbe.checkEquals(2, c.size(), "no timeout: both alive");
        // without a lifetime nothing ages: when one is set, every entry
        // counts as put at that moment (so a put needs no clock read)
        c.setTimeout(60);
        clock.advanceSeconds(59);
        CacheProbe.checkEquals("1", c.get("a"), "a is 59 s old");
        c.put("c", "3");
        clock.advanceSeconds(1);
        CacheProbe.checkEquals(null, c.get("a"), "a is 60 s old");
        CacheProbe.checkEquals(null, c.get("b"), "b is 60 s old");
        CacheProbe.checkEquals("3", c.get("c"), "c is 1 s old");
        c.setTimeout(-5);
        clock.advanceSeconds(1000);
        CacheProbe.checkEquals("3", c.get("c"), "negative: never expires");
        CacheProbe.checkEquals(1, c.size(), "size agrees with get");
    }
}
