/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Ticket queues (newSoftMemoryQueue, put(k, v, true)) as TLS
 *          clients use them for session tickets: bounded per key, oldest
 *          handed out first, consumed by get, key gone when its queue is
 *          empty, each ticket expiring on its own
 * @modules java.base/sun.security.util:+open
 * @run main TicketQueueTest
 */

import java.util.Map;

import sun.security.util.Cache;

public class TicketQueueTest {

    public static void main(String[] args) {
        factory();
        for (boolean soft : new boolean[] {false, true}) {
            order(soft);
            bounded(soft);
            plainPutReplacesQueue(soft);
            perTicketExpiry(soft);
            pullRemoveAccept(soft);
            keysCountAgainstCapacity(soft);
        }
        System.out.println("passed");
    }

    static void factory() {
        Cache<String, String> c = Cache.newSoftMemoryQueue(10, 3600, 2);
        c.put("h:1", "t1", true);
        c.put("h:1", "t2", true);
        c.put("h:1", "t3", true);
        CacheProbe.checkEquals("t2", c.get("h:1"), "factory: bound of 2");
        CacheProbe.checkEquals("t3", c.get("h:1"), "factory: then t3");
        CacheProbe.checkEquals(null, c.get("h:1"), "factory: empty");
        // a soft cache without a queue treats canQueue as a plain put
        Cache<String, String> plain = Cache.newSoftMemoryCache(10, 3600);
        plain.put("k", "a", true);
        plain.put("k", "b", true);
        CacheProbe.checkEquals("b", plain.get("k"), "no queue: replaced");
        CacheProbe.checkEquals("b", plain.get("k"), "no queue: not consumed");
    }

    static void order(boolean soft) {
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 0, 5,
                new CacheProbe.ManualClock(0));
        for (int i = 1; i <= 3; i++) {
            c.put("k", "t" + i, true);
        }
        CacheProbe.checkEquals(1, c.size(), "one key");
        CacheProbe.checkEquals("t1", c.get("k"), "oldest first");
        CacheProbe.checkEquals("t2", c.get("k"), "then the next");
        CacheProbe.checkEquals(1, c.size(), "key stays while it has tickets");
        CacheProbe.checkEquals("t3", c.get("k"), "last one");
        CacheProbe.checkEquals(0, c.size(), "empty queue: key removed");
        CacheProbe.checkEquals(null, c.get("k"), "nothing left");
    }

    static void bounded(boolean soft) {
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 0, 3,
                new CacheProbe.ManualClock(0));
        for (int i = 1; i <= 10; i++) {
            c.put("k", "t" + i, true);
        }
        CacheProbe.checkEquals("t8", c.get("k"), "bounded: the oldest went");
        CacheProbe.checkEquals("t9", c.get("k"), "bounded: t9");
        CacheProbe.checkEquals("t10", c.get("k"), "bounded: t10");
        CacheProbe.checkEquals(null, c.get("k"), "bounded: empty");
    }

    static void plainPutReplacesQueue(boolean soft) {
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 0, 3,
                new CacheProbe.ManualClock(0));
        c.put("k", "t1", true);
        c.put("k", "t2", true);
        c.put("k", "plain", false);
        CacheProbe.checkEquals("plain", c.get("k"), "plain put replaced");
        CacheProbe.checkEquals("plain", c.get("k"), "plain is not consumed");
        c.put("k", "q1", true);
        CacheProbe.checkEquals("q1", c.get("k"), "queue replaces plain");
        CacheProbe.checkEquals(null, c.get("k"), "and only q1 was queued");
    }

    static void perTicketExpiry(boolean soft) {
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(0);
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 10, 5, clock);
        c.put("k", "t1", true);
        clock.advanceSeconds(6);
        c.put("k", "t2", true);
        clock.advanceSeconds(6);        // t1 is 12 s old, t2 6 s
        CacheProbe.checkEquals("t2", c.get("k"), "expired t1 skipped");
        CacheProbe.checkEquals(0, c.size(), "queue empty");

        c.put("k", "t3", true);
        clock.advanceSeconds(6);
        c.put("k", "t4", true);         // the key lives as long as t4
        clock.advanceSeconds(6);
        CacheProbe.checkEquals(1, c.size(), "key alive with its newest");
        clock.advanceSeconds(4);        // t4 10 s old
        CacheProbe.checkEquals(0, c.size(), "key expired with its newest");
        CacheProbe.checkEquals(null, c.get("k"), "all tickets expired");
    }

    static void pullRemoveAccept(boolean soft) {
        Cache<String, String> c = CacheProbe.newCache(soft, 0, 0, 5,
                new CacheProbe.ManualClock(0));
        c.put("k", "t1", true);
        c.put("k", "t2", true);
        CacheProbe.checkEquals(Map.of("k", "t1"), CacheProbe.entries(c),
                "accept shows the oldest ticket");
        CacheProbe.checkEquals(Map.of("k", "t1"), CacheProbe.entries(c),
                "and does not consume it");
        CacheProbe.checkEquals("t1", c.pull("k"), "pull hands out the oldest");
        CacheProbe.checkEquals(null, c.get("k"), "pull removed the key");
        c.put("k", "t3", true);
        c.put("k", "t4", true);
        c.remove("k");
        CacheProbe.checkEquals(null, c.get("k"), "remove drops the queue");
        CacheProbe.checkEquals(0, c.size(), "empty");
    }

    static void keysCountAgainstCapacity(boolean soft) {
        Cache<String, String> c = CacheProbe.newCache(soft, 2, 0, 5,
                new CacheProbe.ManualClock(0));
        c.put("a", "a1", true);
        c.put("b", "b1", true);
        c.put("a", "a2", true);         // a becomes the newest key
        c.put("c", "c1", true);         // so b goes
        CacheProbe.checkEquals(2, c.size(), "capacity counts keys");
        CacheProbe.checkEquals(null, c.get("b"), "b evicted");
        CacheProbe.checkEquals("a1", c.get("a"), "a kept both tickets");
        CacheProbe.checkEquals("a2", c.get("a"), "a2 second");
    }
}
