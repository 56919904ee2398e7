/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @key randomness
 * @summary Hash buckets stay short whatever the keys: keys put in an order
 *          that crowds a bucket of a small table (a stride that is a
 *          multiple of its length), keys whose hash codes HashMap's spread
 *          puts in one bucket (which switch the table to its keyed layout),
 *          and pairs of keys whose hash codes differ in one bit, which
 *          share a bucket in the identity layout and by chance only in the
 *          keyed one (by its keyed mix); keys with one hash
 *          code share their bucket, at most MAX_SAME_HASH of them. Reads
 *          the table by reflection: its shape is observable no other way
 *          than by timing
 * @modules java.base/sun.security.util:+open
 * @run main BucketShapeTest
 */

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import sun.security.util.Cache;

public class BucketShapeTest {

    /** The most keys of one hash code the cache keeps (MAX_SAME_HASH). */
    static final int CROWD = 8;

    /**
     * The most nodes in one bucket of keys with different hash codes. At a
     * load of at most 3/4, scattered keys fill buckets like random throws:
     * a bucket of more than 16 practically never happens (below 1e-12 per
     * cache of these sizes).
     */
    static final int LONGEST = 16;

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            strideFill(soft, 20_480);
            strideFill(soft, 204_800);
            spreadIndex(soft);
            equalHashes(soft);
            pairsApart(soft, 14, false);
            pairsApart(soft, 14, true);
            pairsApart(soft, 15, true);
        }
        System.out.println("passed");
    }

    static <K,V> Cache<K,V> newCache(boolean soft, int size) {
        return soft ? Cache.newSoftMemoryCache(size)
                : Cache.newHardMemoryCache(size);
    }

    /**
     * Integer keys put in column order, 512 columns: while the table has
     * at most 512 buckets, HashMap's spread would put a column's keys in
     * one bucket.
     */
    static void strideFill(boolean soft, int size) {
        int columns = 512;
        int rows = size / columns;
        Cache<Integer, Integer> c = newCache(soft, size);
        for (int column = 0; column < columns; column++) {
            for (int row = 0; row < rows; row++) {
                Integer k = row * columns + column;
                c.put(k, k);
            }
            if (column % 64 == 0) {
                checkLongest(c, "stride fill of " + size + ", column "
                        + column);
            }
        }
        checkLongest(c, "stride fill of " + size);
        for (int i = 0; i < size; i++) {
            CacheProbe.checkEquals(i, c.get(i), "get " + i);
        }
    }

    /**
     * Keys whose hash codes differ but which HashMap's spread (h ^ h>>>16)
     * puts in bucket 0 of any table of up to 2^16 buckets: hashCode
     * j * 0x10001. They switch the table to the keyed layout.
     */
    static void spreadIndex(boolean soft) {
        int n = 4_000;
        Cache<Integer, Integer> c = newCache(soft, 0);
        Integer[] keys = new Integer[n];
        for (int j = 0; j < n; j++) {
            keys[j] = j * 0x10001;
            c.put(keys[j], keys[j]);
            if (j % 500 == 0) {
                checkLongest(c, (j + 1) + " keys j * 0x10001");
            }
        }
        checkLongest(c, n + " keys j * 0x10001");
        CacheProbe.checkEquals(true, TableProbe.state(c, "keyed"),
                "the keyed layout after " + n + " keys j * 0x10001");
        for (int j = 0; j < n; j++) {
            CacheProbe.checkEquals(keys[j], c.get(keys[j]), "get " + j);
        }
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
     * Keys with one hash code share a bucket whatever the table, at most
     * CROWD of them: the newest ones.
     */
    static void equalHashes(boolean soft) {
        Cache<String, String> c = newCache(soft, 0);
        List<String> keys = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            keys.add(collider(i, 4));
            values.add("v" + i);        // strongly held for the soft cache
            c.put(keys.get(i), values.get(i));
            CacheProbe.checkEquals(Math.min(i + 1, CROWD),
                    TableProbe.longest(c),
                    "the bucket of " + (i + 1) + " colliding keys");
        }
        for (int i = 0; i < keys.size(); i++) {
            CacheProbe.checkEquals(i >= 16 - CROWD ? values.get(i) : null,
                    c.get(keys.get(i)), "get " + i);
        }
        for (int i = 16 - CROWD; i < keys.size(); i++) {
            c.remove(keys.get(i));
            CacheProbe.checkEquals(15 - i, TableProbe.longest(c),
                    "the bucket after " + (i - 15 + CROWD) + " removes");
        }
        CacheProbe.checkEquals(0, c.size(), "size");
    }

    /** A key with a chosen hash code. */
    record HashKey(int hash) {
        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * Switches the cache's table to the keyed layout: 9 keys whose hash
     * codes HashMap's spread puts in bucket 0 of any table of up to 2^16
     * buckets, the last of which finds 8 others in its bucket, then a put
     * that starts the switch.
     */
    static void switchLayout(Cache<Object, Integer> c) {
        for (int j = 1; j <= 10; j++) {
            c.put(new HashKey(j * 0x10001), j);
        }
        CacheProbe.checkEquals(true, TableProbe.state(c, "keyed"),
                "the keyed layout after a crowd");
    }

    /**
     * Pairs of keys whose hash codes differ in bit {@code bit} alone, in a
     * table of fewer than 2^bit buckets. In the identity layout (HashMap's
     * spread) each pair shares a bucket, 2 nodes, until the growth past
     * 2^bit buckets splits it. In the keyed layout a mix that kept the
     * distances of the low 16 bits (or a mix of the high bits alone) would
     * do the same, so that crowds of such keys, which the keyed layout no
     * longer counts, would all move in the put that splits their bucket;
     * there a pair shares a bucket with the chance of any two keys, 1 in
     * the table's length.
     */
    static void pairsApart(boolean soft, int bit, boolean keyed) {
        int pairs = 64;
        Cache<Object, Integer> c = newCache(soft, 0);
        Integer value = 1;
        if (keyed) {
            switchLayout(c);
        }
        HashKey[][] keys = new HashKey[pairs][2];
        for (int p = 0; p < pairs; p++) {
            int h = p * 0x9E3779B9;
            keys[p][0] = new HashKey(h);
            keys[p][1] = new HashKey(h ^ (1 << bit));
            c.put(keys[p][0], value);
            c.put(keys[p][1], value);
        }
        // 8,192 other keys: a table of 16,384 buckets, fewer than 2^14
        for (int i = 0; i < 8_192 - 2 * pairs; i++) {
            c.put(i, value);
        }
        Map<Object, Object> bucket = TableProbe.buckets(c);
        int shared = 0;
        for (int p = 0; p < pairs; p++) {
            Object b0 = bucket.get(keys[p][0]);
            Object b1 = bucket.get(keys[p][1]);
            CacheProbe.check(b0 != null && b1 != null, "pair " + p
                    + " is in the table");
            if (b0 == b1) {
                shared++;
            }
        }
        CacheProbe.checkEquals(keyed, TableProbe.state(c, "keyed"),
                "keyed layout");
        if (keyed) {
            // expected 64 / 16,384 pairs; 5 or more below 1e-13
            CacheProbe.check(shared <= 4, shared + " of " + pairs
                    + " pairs differing in bit " + bit + " share a bucket");
        } else {
            CacheProbe.checkEquals(pairs, shared, "pairs differing in bit "
                    + bit + " sharing a bucket in the identity layout");
        }
        checkLongest(c, "pairs differing in bit " + bit);
    }

    static void checkLongest(Cache<?,?> c, String what) {
        int longest = TableProbe.longest(c);
        CacheProbe.check(longest <= LONGEST, what + ": a bucket of "
                + longest + " nodes");
    }
}
