/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Expiry is computed from time differences, so it stays right when
 *          the nanosecond clock wraps from Long.MAX_VALUE to Long.MIN_VALUE,
 *          and the longest timeout, Integer.MAX_VALUE seconds, does not
 *          overflow
 * @modules java.base/sun.security.util:+open
 * @run main NanoTimeWrapTest
 */

import java.util.Map;

import sun.security.util.Cache;

public class NanoTimeWrapTest {

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            acrossWrap(soft);
            longestTimeout(soft);
            floorAcrossWrap(soft);
        }
        System.out.println("passed");
    }

    static void acrossWrap(boolean soft) {
        // 5 s before the wrap
        CacheProbe.ManualClock clock =
                new CacheProbe.ManualClock(Long.MAX_VALUE - 5 * CacheProbe.SECOND);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 10, 0, clock);
        c.put("a", "1");
        clock.advanceSeconds(8);        // the clock has wrapped: now < 0
        CacheProbe.check(clock.getAsLong() < 0, "clock wrapped");
        c.put("b", "2");
        CacheProbe.checkEquals("1", c.get("a"), "a is 8 s old, alive");
        CacheProbe.checkEquals(2, c.size(), "both alive across the wrap");
        clock.advanceSeconds(2);
        CacheProbe.checkEquals(null, c.get("a"), "a is 10 s old, expired");
        CacheProbe.checkEquals(Map.of("b", "2"), CacheProbe.entries(c),
                "b alive");
        clock.advanceSeconds(8);
        CacheProbe.checkEquals(null, c.get("b"), "b expired after the wrap");
        CacheProbe.checkEquals(0, c.size(), "empty");
    }

    static void longestTimeout(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(-42);
        Cache<String, String> c = CacheProbe.newCache(soft, 0,
                Integer.MAX_VALUE, 0, clock);
        c.put("a", "1");
        // 2^31 - 1 s = 2.1e18 ns: a bigger jump than the range of an int
        // in milliseconds or of a naive now + lifetime near the wrap
        clock.advanceSeconds(Integer.MAX_VALUE - 1L);
        CacheProbe.checkEquals("1", c.get("a"), "alive 1 s before expiry");
        clock.advanceSeconds(1);
        CacheProbe.checkEquals(null, c.get("a"), "expired at 2^31-1 s");

        clock = new CacheProbe.ManualClock(Long.MAX_VALUE);
        c = CacheProbe.newCache(soft, 0, 10, 0, clock);
        c.put("x", "1");
        c.setTimeout(Integer.MAX_VALUE);
        clock.advanceSeconds(1_000_000);
        CacheProbe.checkEquals("1", c.get("x"), "setTimeout(MAX) near wrap");
    }

    static void floorAcrossWrap(boolean soft) {
        // lengthening the timeout keeps expired entries expired; that rule
        // must also hold when the clock wraps in between
        CacheProbe.ManualClock clock =
                new CacheProbe.ManualClock(Long.MAX_VALUE - 3 * CacheProbe.SECOND);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 2, 0, clock);
        c.put("a", "1");
        clock.advanceSeconds(2);        // a expired
        c.put("b", "2");
        clock.advanceSeconds(2);        // wrapped; b expired too
        c.put("c", "3");
        c.setTimeout(100);
        clock.advanceSeconds(1);
        CacheProbe.checkEquals(null, c.get("a"), "a stays expired");
        CacheProbe.checkEquals(null, c.get("b"), "b stays expired");
        CacheProbe.checkEquals("3", c.get("c"), "c alive");
    }
}
