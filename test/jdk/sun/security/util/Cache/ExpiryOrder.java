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

import sun.security.util.Cache;

/*
 * Entries put under a shorter lifetime expire before an older entry put
 * under a longer one, so put order is not expiry order. Lifetimes are 1 s
 * and 1 hour: the test waits until the short ones have certainly expired,
 * and the long ones cannot. More entries expire than one put removes.
 */
public class ExpiryOrder {

    private static final int CAPACITY = 8;

    public static void main(String[] args) throws Exception {
        for (boolean soft : new boolean[] {false, true}) {
            Cache<String, String> cache = soft
                    ? Cache.newSoftMemoryCache(CAPACITY, 3600)
                    : Cache.newHardMemoryCache(CAPACITY, 3600);
            String live = "live";
            cache.put(live, live);
            cache.setTimeout(1);
            for (int i = 1; i < CAPACITY; i++) {
                cache.put("short" + i, "short");
            }
            cache.setTimeout(3600);
            Thread.sleep(1500);

            // "live" is the least recently used entry; every expired one
            // must go first
            for (int i = 1; i < CAPACITY; i++) {
                cache.put("new" + i, "new");
            }
            check(cache.get(live) == live, soft, "live entry evicted");
            for (int i = 1; i < CAPACITY; i++) {
                check(cache.get("new" + i) != null, soft, "new evicted");
                check(cache.get("short" + i) == null, soft, "short returned");
            }
            check(cache.size() == CAPACITY, soft, "size " + cache.size());
        }
    }

    private static void check(boolean ok, boolean soft, String what) {
        if (!ok) {
            throw new RuntimeException((soft ? "soft" : "hard") + ": " + what);
        }
    }
}
