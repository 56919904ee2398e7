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
 *          puts in one bucket, and pairs of keys whose hash codes differ in
 *          one bit share a bucket by chance only (the keyed mix of all 32
 *          bits); keys with one hash code share their bucket, at most
 *          MAX_SAME_HASH of them. Reads the table by reflection: its shape
 *          is observable no other way than by timing
 * @modules java.base/sun.security.util:+open
 * @run main BucketShapeTest
 */

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
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
            pairsApart(soft, 14);
            pairsApart(soft, 15);
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
     * j * 0x10001.
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
            CacheProbe.checkEquals(Math.min(i + 1, CROWD), longest(c),
                    "the bucket of " + (i + 1) + " colliding keys");
        }
        for (int i = 0; i < keys.size(); i++) {
            CacheProbe.checkEquals(i >= 16 - CROWD ? values.get(i) : null,
                    c.get(keys.get(i)), "get " + i);
        }
        for (int i = 16 - CROWD; i < keys.size(); i++) {
            c.remove(keys.get(i));
            CacheProbe.checkEquals(15 - i, longest(c),
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
     * Pairs of keys whose hash codes differ in bit {@code bit} alone, in a
     * table of fewer than 2^bit buckets: a mix that kept the distances of
     * the low 16 bits (as HashMap's spread does, or a mix of the high bits
     * alone) would put each pair in one bucket, and the growth past 2^bit
     * buckets would split every such bucket, whole crowds of keys with
     * these hash codes in one put. Here a pair shares a bucket with the
     * chance of any two keys, 1 in the table's length.
     */
    static void pairsApart(boolean soft, int bit) {
        int pairs = 64;
        Cache<Object, Integer> c = newCache(soft, 0);
        HashKey[][] keys = new HashKey[pairs][2];
        Integer value = 1;
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
        Map<Object, Object> bucket = buckets(c);
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
        // expected 64 / 16,384 pairs; 5 or more below 1e-13
        CacheProbe.check(shared <= 4, shared + " of " + pairs
                + " pairs differing in bit " + bit + " share a bucket");
        checkLongest(c, "pairs differing in bit " + bit);
    }

    static void checkLongest(Cache<?,?> c, String what) {
        int longest = longest(c);
        CacheProbe.check(longest <= LONGEST, what + ": a bucket of "
                + longest + " nodes");
    }

    // ---- the table, by reflection

    /** The number of nodes in the longest bucket. */
    static int longest(Cache<?,?> c) {
        int[] longest = new int[1];
        walk(c, (bucket, n) -> longest[0] = Math.max(longest[0], n));
        return longest[0];
    }

    /**
     * The bucket of every key: an object per bucket (its first node),
     * identical for the keys of one bucket.
     */
    static Map<Object, Object> buckets(Cache<?,?> c) {
        Map<Object, Object> buckets = new IdentityHashMap<>();
        walk(c, null, buckets);
        return buckets;
    }

    interface BucketVisitor {
        void visit(Object first, int nodes);
    }

    static void walk(Cache<?,?> c, BucketVisitor visitor) {
        walk(c, visitor, null);
    }

    /**
     * Visits every bucket of the cache's table and, during a growth, of its
     * old table; each table is an array of segments of buckets, and each
     * bucket a chain of nodes linked by their {@code chain} field.
     */
    static void walk(Cache<?,?> c, BucketVisitor visitor,
            Map<Object, Object> keys) {
        try {
            synchronized (c) {
                for (String name : new String[] {"table", "oldTable"}) {
                    Field f = c.getClass().getDeclaredField(name);
                    f.setAccessible(true);
                    Object[][] table = (Object[][]) f.get(c);
                    if (table == null) {
                        continue;
                    }
                    for (Object[] segment : table) {
                        if (segment == null) {
                            continue;
                        }
                        for (Object first : segment) {
                            int nodes = 0;
                            for (Object n = first; n != null;
                                    n = field(n, "chain")) {
                                nodes++;
                                if (keys != null) {
                                    keys.put(field(n, "key"), first);
                                }
                            }
                            if (visitor != null && nodes > 0) {
                                visitor.visit(first, nodes);
                            }
                        }
                    }
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Object field(Object o, String name)
            throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }
}
