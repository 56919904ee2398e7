/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary The contract of each method of sun.security.util.Cache, for the
 *          hard, soft and null caches the factories return
 * @modules java.base/sun.security.util:+open
 * @run main ContractTest
 */

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import sun.security.util.Cache;

public class ContractTest {

    public static void main(String[] args) throws Exception {
        // the values are held strongly by the test, so soft ones stay
        List<IntFunction<Cache<String, String>>> factories = List.of(
                Cache::newHardMemoryCache,
                n -> Cache.newHardMemoryCache(n, 3600),
                Cache::newSoftMemoryCache,
                n -> Cache.newSoftMemoryCache(n, 3600),
                n -> Cache.newSoftMemoryQueue(n, 3600, 4));
        for (IntFunction<Cache<String, String>> f : factories) {
            putGetReplace(f.apply(10));
            removeAndPull(f.apply(10));
            sizeAndClear(f.apply(10));
            capacity(f.apply(3));
            accept(f.apply(10));
            canQueueWithoutQueue(f);
        }
        nullCache();
        equalByteArray();
        System.out.println("passed");
    }

    static void putGetReplace(Cache<String, String> c) {
        CacheProbe.checkEquals(null, c.get("a"), "get of an absent key");
        c.put("a", "1");
        CacheProbe.checkEquals("1", c.get("a"), "get after put");
        CacheProbe.checkEquals("1", c.get("a"), "get does not consume");
        c.put("a", "2");
        CacheProbe.checkEquals("2", c.get("a"), "put replaces");
        CacheProbe.checkEquals(1, c.size(), "one key, one entry");
    }

    static void removeAndPull(Cache<String, String> c) {
        c.put("a", "1");
        c.put("b", "2");
        c.remove("a");
        CacheProbe.checkEquals(null, c.get("a"), "get after remove");
        c.remove("a");          // removing an absent key is harmless
        CacheProbe.checkEquals("2", c.pull("b"), "pull returns the value");
        CacheProbe.checkEquals(null, c.get("b"), "pull removes");
        CacheProbe.checkEquals(null, c.pull("b"), "pull of an absent key");
        CacheProbe.checkEquals(0, c.size(), "all gone");
    }

    static void sizeAndClear(Cache<String, String> c) {
        for (int i = 0; i < 7; i++) {
            c.put("k" + i, "v" + i);
        }
        CacheProbe.checkEquals(7, c.size(), "size counts entries");
        c.clear();
        CacheProbe.checkEquals(0, c.size(), "clear empties");
        CacheProbe.checkEquals(null, c.get("k3"), "clear forgets values");
        c.put("k3", "again");
        CacheProbe.checkEquals("again", c.get("k3"), "usable after clear");
        CacheProbe.checkEquals(1, c.size(), "size after clear and put");
    }

    static void capacity(Cache<String, String> c) {
        for (int i = 0; i < 5; i++) {
            c.put("k" + i, "v" + i);
        }
        CacheProbe.checkEquals(3, c.size(), "capacity bounds size");
        CacheProbe.checkEquals(Map.of("k2", "v2", "k3", "v3", "k4", "v4"),
                CacheProbe.entries(c), "the oldest went first");
        c.setCapacity(1);
        CacheProbe.checkEquals(Map.of("k4", "v4"), CacheProbe.entries(c),
                "setCapacity keeps the newest");
        c.setCapacity(0);
        for (int i = 0; i < 100; i++) {
            c.put("n" + i, "v");
        }
        CacheProbe.checkEquals(101, c.size(), "capacity 0 is unbounded");
    }

    static void accept(Cache<String, String> c) throws Exception {
        c.put("a", "1");
        c.put("b", "2");
        Map<String, String> seen = CacheProbe.entries(c);
        CacheProbe.checkEquals(Map.of("a", "1", "b", "2"), seen, "visited");
        // The snapshot belongs to the visitor: changing it changes nothing.
        c.accept(m -> m.clear());
        CacheProbe.checkEquals(2, c.size(), "snapshot is a copy");
        // The visitor may use the cache (the lock is reentrant).
        c.accept(m -> c.put("c", "3"));
        CacheProbe.checkEquals("3", c.get("c"), "put from inside visit");
    }

    static void canQueueWithoutQueue(IntFunction<Cache<String, String>> f) {
        Cache<String, String> c = f.apply(10);
        c.put("a", "1", false);
        c.put("a", "2", false);
        CacheProbe.checkEquals("2", c.get("a"), "canQueue=false replaces");
        CacheProbe.checkEquals("2", c.get("a"), "and is not consumed");
    }

    static void nullCache() {
        Cache<String, String> c = Cache.newNullCache();
        c.put("a", "1");
        c.put("a", "1", true);
        CacheProbe.checkEquals(null, c.get("a"), "null cache get");
        CacheProbe.checkEquals(null, c.pull("a"), "null cache pull");
        CacheProbe.checkEquals(0, c.size(), "null cache size");
        c.setCapacity(5);
        c.setTimeout(5);
        c.remove("a");
        c.clear();
        c.accept(m -> {
            throw new AssertionError("null cache visited " + m);
        });
        CacheProbe.check((Object) Cache.newNullCache() == c, "one null cache");
    }

    static void equalByteArray() {
        byte[] a = {1, 2, 3};
        Cache.EqualByteArray x = new Cache.EqualByteArray(a);
        Cache.EqualByteArray y = new Cache.EqualByteArray(a.clone());
        Cache.EqualByteArray z = new Cache.EqualByteArray(new byte[] {1, 2});
        CacheProbe.check(x.equals(y) && y.equals(x), "equal contents");
        CacheProbe.checkEquals(x.hashCode(), y.hashCode(), "equal hashes");
        CacheProbe.check(!x.equals(z), "different contents");
        CacheProbe.check(!x.equals(null) && !x.equals("x"), "other types");
        CacheProbe.check(new Cache.EqualByteArray(new byte[0])
                .equals(new Cache.EqualByteArray(new byte[0])), "empty");
        Cache<Object, String> c = Cache.newSoftMemoryCache(10);
        c.put(x, "v");
        CacheProbe.checkEquals("v", c.get(y), "usable as a key");
    }
}
