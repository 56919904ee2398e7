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
 * Entries put under a shorter lifetime expire before older entries put
 * under a longer one, so put order is not expiry order. Lifetimes are 1 s
 * and 1 hour: the test waits until the short ones have certainly expired,
 * and the long ones cannot.
 */
public class ExpiryOrder {

    public static void main(String[] args) throws Exception {
        for (boolean soft : new boolean[] {false, true}) {
            Cache<String, String> cache = soft
                    ? Cache.newSoftMemoryCache(3, 3600)
                    : Cache.newHardMemoryCache(3, 3600);
            String live = "live";
            cache.put("live", live);
            cache.setTimeout(1);
            cache.put("short1", "short1");
            cache.put("short2", "short2");
            cache.setTimeout(3600);
            Thread.sleep(1500);

            // "live" is the least recently used entry; the two expired
            // ones must go first
            cache.put("new", "new");
            cache.put("new2", "new2");
            check(cache.get("live") == live, soft, "live entry evicted");
            check(cache.get("short1") == null, soft, "expired entry returned");
            check(cache.size() == 3, soft, "size " + cache.size());
        }
    }

    private static void check(boolean ok, boolean soft, String what) {
        if (!ok) {
            throw new RuntimeException((soft ? "soft" : "hard") + ": " + what);
        }
    }
}
