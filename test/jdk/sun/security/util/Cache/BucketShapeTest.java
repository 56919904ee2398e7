/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A hash bucket is a tree only while it holds more than a few
 *          nodes: keys that crowd a bucket of a small table (a stride
 *          that is a multiple of its length) are spread by the growth,
 *          and removals shrink a tree back to a chain; otherwise every
 *          later lookup in those buckets pays for a tree. Keys with
 *          different hash codes chosen to share one index under
 *          HashMap's spread do not crowd a bucket here (the keyed mix),
 *          so a growth never splits a crowd of them
 * @modules java.base/sun.security.util:+open
 * @build CacheProbe
 * @run main BucketShapeTest
 */

import java.util.ArrayList;
import java.util.List;

import sun.security.util.Cache;

public class BucketShapeTest {

    // MemoryCache.TREEIFY and MemoryCache.UNTREEIFY
    static final int TREEIFY = 8;
    static final int UNTREEIFY = 6;

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            strideFill(soft, 20_480);
            strideFill(soft, 204_800);
            equalHashes(soft);
            spreadIndex(soft);
        }
        System.out.println("passed");
    }

    /**
     * Integer keys put in column order, {@code 512} columns: while the
     * table has at most 512 buckets, a column's keys share one bucket, so
     * buckets become trees; once the table is large enough every bucket
     * holds about one key, and none may still be a tree.
     */
    static void strideFill(boolean soft, int size) {
        int columns = 512;
        int rows = size / columns;
        Cache<Integer, Integer> c = soft ? Cache.newSoftMemoryCache(size, 3600)
                : Cache.newHardMemoryCache(size, 3600);
        for (int column = 0; column < columns; column++) {
            for (int row = 0; row < rows; row++) {
                Integer k = row * columns + column;
                c.put(k, k);
            }
        }
        // also while a growth is still in progress (both tables checked)
        int bins = CacheProbe.checkBuckets(c, TREEIFY, UNTREEIFY)
                .treeBins();
        CacheProbe.checkEquals(0, bins, "tree bins after a stride fill of "
                + size + " (soft " + soft + ")");
        for (int i = 0; i < size; i++) {
            CacheProbe.checkEquals(i, c.get(i), "get " + i);
        }
    }

    /**
     * Keys whose hash codes differ but which HashMap's spread (h ^ h>>>16)
     * puts in bucket 0 of any table of up to 2^16 buckets: hashCode
     * j * 0x10001. An attacker who knows the spread could crowd a bucket
     * with them, and a growth would then move half of the crowd in one
     * put; the cache's keyed mix of the high bits must scatter them.
     */
    static void spreadIndex(boolean soft) {
        int n = 4_000;
        Cache<Integer, Integer> c = soft ? Cache.newSoftMemoryCache(0)
                : Cache.newHardMemoryCache(0);
        Integer[] keys = new Integer[n];
        for (int j = 0; j < n; j++) {
            keys[j] = j * 0x10001;
            c.put(keys[j], keys[j]);
            if (j % 500 == 0) {
                checkSpread(c, j + 1);
            }
        }
        checkSpread(c, n);
        for (int j = 0; j < n; j++) {
            CacheProbe.checkEquals(keys[j], c.get(keys[j]), "get " + j);
        }
    }

    /**
     * Scattered keys fill buckets like random throws at a load of at most
     * 3/4: a bucket of 8 happens now and then (and is rightly a tree), one
     * of more than 16 practically never (below 1e-12 per cache); without
     * the mix all the keys share one bucket.
     */
    static void checkSpread(Cache<Integer, Integer> c, int keys) {
        int largest = CacheProbe.checkBuckets(c, TREEIFY, UNTREEIFY)
                .largest();
        CacheProbe.check(largest <= 16, "a bucket of " + largest
                + " nodes among " + keys + " keys");
    }

    /** The i-th of 2^blocks Strings with one hashCode ("Aa" and "BB"). */
    static String collider(int i, int blocks) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < blocks; j++) {
            sb.append((i >>> j & 1) != 0 ? "BB" : "Aa");
        }
        return sb.toString();
    }

    /**
     * Keys with one hash code share a bucket whatever the table: the
     * bucket becomes a tree when it reaches TREEIFY nodes and a chain
     * again when removals leave UNTREEIFY.
     */
    static void equalHashes(boolean soft) {
        Cache<String, String> c = soft ? Cache.newSoftMemoryCache(0)
                : Cache.newHardMemoryCache(0);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            keys.add(collider(i, 4));
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            values.add("v" + i);        // strongly held for the soft cache
            c.put(keys.get(i), values.get(i));
            int bins = CacheProbe.checkBuckets(c, TREEIFY, UNTREEIFY)
                    .treeBins();
            CacheProbe.checkEquals(i + 1 >= TREEIFY ? 1 : 0, bins,
                    "tree bins with " + (i + 1) + " colliding keys");
        }
        for (int i = keys.size() - 1; i >= 0; i--) {
            c.remove(keys.get(i));
            int bins = CacheProbe.checkBuckets(c, TREEIFY, UNTREEIFY)
                    .treeBins();
            CacheProbe.checkEquals(i > UNTREEIFY ? 1 : 0, bins,
                    "tree bins with " + i + " colliding keys left");
            for (int j = 0; j < keys.size(); j++) {
                CacheProbe.checkEquals(j < i ? values.get(j) : null,
                        c.get(keys.get(j)), "get " + j + " of " + i);
            }
        }
        CacheProbe.checkEquals(0, c.size(), "size");
    }
}
