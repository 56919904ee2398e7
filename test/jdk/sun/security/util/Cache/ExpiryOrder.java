/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary A full Cache drops expired entries before live ones
 * @modules java.base/sun.security.util
 * @run main/othervm -Xmx32m ExpiryOrder
 */

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.IntConsumer;

import sun.security.util.Cache;

/*
 * A full cache drops every expired entry before it evicts a live one. Most
 * cases need no clock: entries put without a lifetime count as expired once
 * one is set. Each first has entries leave the cache in one way, more often
 * than a put removes expired entries, which must leave no trace.
 */
public class ExpiryOrder {

    private static final int CAPACITY = 8;
    private static final int TIMEOUT = 3600;
    private static final int TIMES = 2 * CAPACITY;

    private enum Kind { HARD, SOFT, QUEUE }

    public static void main(String[] args) {
        List<Kind> entries = List.of(Kind.HARD, Kind.SOFT);
        List<Kind> queues = List.of(Kind.QUEUE);
        check("1 s lifetimes", 1, entries, ExpiryOrder::live);
        check("removed", 0, entries, leaving(false, Cache::remove));
        check("pulled", 0, entries, leaving(false, Cache::pull));
        check("replaced", 0, entries, c -> {
            repeat(i -> c.put("x", "x" + i));
            c.remove("x");
            return live(c);
        });
        check("expired", 0, entries, c -> {
            repeat(i -> {
                c.setTimeout(0);
                c.put("x" + i, "x");
                c.setTimeout(TIMEOUT);
                c.get("x" + i);
            });
            return live(c);
        });
        // without a lifetime, nothing is removed as expired first
        check("evicted", 0, entries, c -> {
            c.setTimeout(0);
            repeat(i -> c.put("x" + i, "x"));
            repeat(i -> c.remove("x" + i));
            c.setTimeout(TIMEOUT);
            return live(c);
        });
        check("capacity", 0, entries, c -> {
            c.setTimeout(0);
            repeat(i -> {
                c.put("x" + i, "x");
                c.setCapacity(1);
                c.setCapacity(CAPACITY);
            });
            c.remove("x" + (TIMES - 1));
            c.setTimeout(TIMEOUT);
            return live(c);
        });
        check("collected", 0, List.of(Kind.SOFT), c -> {
            c.put("old", "old");    // stops the walk of its list
            c.put("soft", new String("soft"));
            while (c.size() != 1) {
                clearSoftReferences();
                LockSupport.parkNanos(10_000_000);
            }
            c.remove("old");
            c.put("soft", "soft");
            return List.of("soft");
        });
        check("queue relinked", 0, queues, replacing(true, true));
        check("queue replaces entry", 0, queues, replacing(false, true));
        check("entry replaces queue", 0, queues, replacing(true, false));
        check("queue emptied", 0, queues, leaving(true, Cache::get));
        check("queue pulled", 0, queues, leaving(true, Cache::pull));
        check("queue accepted", 0, queues, leaving(true, (c, k) -> {
            c.accept(m -> { });
            c.get(k);
        }));
    }

    // An entry put, then made to leave, again and again
    private static Function<Cache<String, String>, List<String>> leaving(
            boolean queued, BiConsumer<Cache<String, String>, String> leave) {
        return c -> {
            repeat(i -> {
                c.put("x" + i, "x", queued);
                leave.accept(c, "x" + i);
            });
            return live(c);
        };
    }

    // An entry put without a lifetime, replaced under one
    private static Function<Cache<String, String>, List<String>> replacing(
            boolean queued, boolean thenQueued) {
        return c -> {
            c.setTimeout(0);
            c.put("q", "0", queued);
            c.setTimeout(TIMEOUT);
            c.put("q", "1", thenQueued);
            return List.of("q");
        };
    }

    // before leaves only the live entries it returns: the cache is filled
    // with entries put under the lifetime given (none: 0), which must then
    // go before any live one, and every entry left must leave cleanly
    private static void check(String what, int lifetime, List<Kind> kinds,
            Function<Cache<String, String>, List<String>> before) {
        for (Kind kind : kinds) {
            Cache<String, String> c = switch (kind) {
                case HARD -> Cache.newHardMemoryCache(CAPACITY, TIMEOUT);
                case SOFT -> Cache.newSoftMemoryCache(CAPACITY, TIMEOUT);
                case QUEUE -> Cache.newSoftMemoryQueue(CAPACITY, TIMEOUT, 2);
            };
            List<String> live = before.apply(c);
            c.setTimeout(lifetime);
            for (int i = 0; c.size() < CAPACITY; i++) {
                c.put("expiring" + i, "expiring");
            }
            c.setTimeout(TIMEOUT);
            for (long end = System.nanoTime() + lifetime * 1_500_000_000L;
                    System.nanoTime() - end < 0; ) {
                LockSupport.parkNanos(end - System.nanoTime());
            }
            for (int i = live.size(); i < CAPACITY; i++) {
                c.put("new" + i, "new");
            }
            int size = c.size();
            List<String> lost = live.stream().filter(k -> c.get(k) == null).toList();
            if (!lost.isEmpty() || size != CAPACITY) {
                throw new RuntimeException(what + ", " + kind + ": live "
                        + lost + " evicted, size " + size);
            }
            live.forEach(c::remove);
        }
    }

    private static List<String> live(Cache<String, String> c) {
        c.put("live", "live");
        return List.of("live");
    }

    private static void repeat(IntConsumer action) {
        for (int i = 0; i < TIMES; i++) {
            action.accept(i);
        }
    }

    // Soft references are cleared before an OutOfMemoryError is thrown
    private static void clearSoftReferences() {
        List<long[]> heap = new ArrayList<>();
        try {
            while (true) {
                heap.add(new long[1 << 20]);
            }
        } catch (OutOfMemoryError expected) {
            heap.clear();
        }
    }
}
