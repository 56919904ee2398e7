/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary A full Cache drops expired entries before live ones after setTimeout
 * @modules java.base/sun.security.util
 * @run main ExpiryOrder
 */

import java.util.function.Consumer;

import sun.security.util.Cache;

/*
 * A full cache must drop every expired entry before it evicts a live one,
 * more of them than one put removes, also when entries put under a shorter
 * lifetime expire before older ones put under a longer one. Entries put
 * without a lifetime count as expired once one is set: most checks need
 * no clock. The first waits for 1 s lifetimes to run out; the others have
 * entries leave the cache in each way first, which must leave no trace.
 */
public class ExpiryOrder {

    private static final int CAPACITY = 8;

    public static void main(String[] args) throws Exception {
        check("1 s lifetimes", c -> { }, c -> {
            c.setTimeout(1);
            fill(c, "short");
            c.setTimeout(3600);
            sleep();
        });
        Consumer<Cache<String, String>> expireAll = c -> {
            c.setTimeout(0);
            fill(c, "none");
            c.setTimeout(3600);
        };
        check("removed", c -> {
            fill(c, "x");
            for (int i = 1; i < CAPACITY; i++) {
                c.remove("x" + i);
            }
        }, expireAll);
        check("pulled", c -> {
            fill(c, "x");
            for (int i = 1; i < CAPACITY; i++) {
                c.pull("x" + i);
            }
        }, expireAll);
        check("replaced", c -> {
            for (int i = 0; i < CAPACITY; i++) {
                c.put("x", "x" + i);
            }
            c.remove("x");
        }, expireAll);
        check("expired", c -> {
            expireAll.accept(c);
            for (int i = 1; i < CAPACITY; i++) {
                c.get("none" + i);
            }
        }, expireAll);
    }

    // "live" is put between the two steps, so it is the least recently
    // used entry; every expired one must go first
    private static void check(String what,
            Consumer<Cache<String, String>> before,
            Consumer<Cache<String, String>> expire) {
        for (boolean soft : new boolean[] {false, true}) {
            Cache<String, String> cache = soft
                    ? Cache.newSoftMemoryCache(CAPACITY, 3600)
                    : Cache.newHardMemoryCache(CAPACITY, 3600);
            before.accept(cache);
            String live = "live";
            cache.put(live, live);
            expire.accept(cache);
            fill(cache, "new");
            if (cache.get(live) != live || cache.size() != CAPACITY) {
                throw new RuntimeException(what + (soft ? ", soft" : ", hard")
                        + ": live entry evicted, size " + cache.size());
            }
        }
    }

    private static void fill(Cache<String, String> cache, String prefix) {
        for (int i = 1; i < CAPACITY; i++) {
            cache.put(prefix + i, prefix);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(1500);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }
}
