/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A flood of keys with one hash code costs a bounded number of
 *          equals calls per operation, not one per colliding key: the
 *          cache keeps only the newest few keys of one hash code, forgets
 *          the older ones, and keeps every other key; String and
 *          EqualByteArray floods stay correct through table growth,
 *          removal, pull and eviction
 * @modules java.base/sun.security.util
 * @run main CollidingKeysTest
 */

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import sun.security.util.Cache;

public class CollidingKeysTest {

    static final int BLOCKS = 14;               // 2^14 = 16,384 keys

    /** The most keys of one hash code the cache keeps (MAX_SAME_HASH). */
    static final int CROWD = 8;

    /** An EqualByteArray that counts the calls of its equals. */
    static final class CountingKey extends Cache.EqualByteArray {
        static long calls;

        CountingKey(byte[] b) {
            super(b);
        }

        @Override
        public boolean equals(Object o) {
            calls++;
            return super.equals(o);
        }

        @Override
        public int hashCode() {
            return super.hashCode();
        }
    }

    public static void main(String[] args) {
        equalsCallsBounded();
        strings();
        byteArraysWithEviction();
        System.out.println("passed");
    }

    /**
     * The i-th of 2^BLOCKS byte arrays with one Arrays.hashCode: each block
     * is {0, 31} or {1, 0}, and 31 * 0 + 31 == 31 * 1 + 0.
     */
    static byte[] bytes(int i, int salt) {
        byte[] b = new byte[2 * BLOCKS + 2];
        for (int j = 0; j < BLOCKS; j++) {
            boolean one = (i >>> j & 1) != 0;
            b[2 * j] = (byte) (one ? 1 : 0);
            b[2 * j + 1] = (byte) (one ? 0 : 31);
        }
        // a trailing {salt, 0} block: same hash for every i, per salt
        b[2 * BLOCKS] = (byte) salt;
        return b;
    }

    /** The i-th of 2^BLOCKS Strings with one hashCode ("Aa" and "BB"). */
    static String string(int i) {
        StringBuilder sb = new StringBuilder(2 * BLOCKS);
        for (int j = 0; j < BLOCKS; j++) {
            sb.append((i >>> j & 1) != 0 ? "BB" : "Aa");
        }
        return sb.toString();
    }

    /**
     * Every put, get and remove calls equals at most CROWD times (only
     * keys with the same hash code are compared), and the newest CROWD
     * keys of the flood are the ones kept.
     */
    static void equalsCallsBounded() {
        int n = 1 << BLOCKS;
        Cache<CountingKey, Integer> c = Cache.newHardMemoryCache(0, 3600);
        Integer[] values = new Integer[n];
        long most = 0;
        for (int i = 0; i < n; i++) {
            values[i] = i;
            long before = CountingKey.calls;
            c.put(new CountingKey(bytes(i, 0)), values[i]);
            most = Math.max(most, CountingKey.calls - before);
            // ordinary keys alongside, so that the table grows
            c.put(new CountingKey(new byte[] {(byte) i, (byte) (i >> 8)}),
                    values[i]);
        }
        check(most <= CROWD, "equals calls in one put: " + most);
        check(c.size() == CROWD + n, "size " + c.size());
        most = 0;
        for (int i = 0; i < n; i++) {
            long before = CountingKey.calls;
            Integer v = c.get(new CountingKey(bytes(i, 0)));
            most = Math.max(most, CountingKey.calls - before);
            check(i >= n - CROWD ? v == values[i] : v == null, "get " + i
                    + ": " + v);
            v = c.get(new CountingKey(new byte[] {(byte) i, (byte) (i >> 8)}));
            check(v == values[i], "ordinary key " + i + ": " + v);
        }
        check(most <= CROWD, "equals calls in one get: " + most);
        most = 0;
        for (int i = 0; i < 1000; i++) {
            long before = CountingKey.calls;
            check(c.get(new CountingKey(bytes(i, 1))) == null, "absent " + i);
            c.remove(new CountingKey(bytes(i, 2)));
            c.remove(new CountingKey(bytes(i, 0)));
            most = Math.max(most, CountingKey.calls - before);
        }
        check(most <= 3 * CROWD, "equals calls in a miss and two removes: "
                + most);
        check(c.size() == CROWD + n, "size after removing absent keys: "
                + c.size());
        for (int i = n - CROWD; i < n; i += 2) {
            c.remove(new CountingKey(bytes(i, 0)));
        }
        check(c.size() == CROWD / 2 + n, "size after removes: " + c.size());
        for (int i = n - CROWD; i < n; i++) {
            Integer v = c.get(new CountingKey(bytes(i, 0)));
            check(i % 2 == 0 ? v == null : v == values[i], "after removes "
                    + i + ": " + v);
        }
    }

    static void strings() {
        int n = 1 << BLOCKS;
        for (boolean soft : new boolean[] {false, true}) {
            Cache<String, String> c = soft ? Cache.newSoftMemoryCache(0)
                    : Cache.newHardMemoryCache(0);
            List<String> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String k = string(i);
                check(k.hashCode() == string(0).hashCode(), "collides");
                String v = "v" + i;
                values.add(v);
                c.put(k, v);
                // plus ordinary keys, so that the flood shares the table
                c.put("other" + i, v);
            }
            // the newest CROWD colliding keys, and every other key
            for (int i = 0; i < n; i++) {
                String v = c.get(string(i));
                check(i >= n - CROWD ? values.get(i).equals(v) : v == null,
                        "get " + i + ": " + v);
            }
            int first = n - CROWD;
            for (int i = first; i < n; i += 3) {
                check(values.get(i).equals(c.pull(string(i))), "pull " + i);
            }
            for (int i = first + 1; i < n; i += 3) {
                c.remove(string(i));
            }
            Set<String> left = new HashSet<>();
            c.accept(m -> left.addAll(m.keySet()));
            for (int i = 0; i < n; i++) {
                boolean expected = i >= first && (i - first) % 3 == 2;
                check(left.contains(string(i)) == expected, "kept " + i);
                check((c.get(string(i)) != null) == expected, "get after " + i);
                check(values.get(i).equals(c.get("other" + i)), "other " + i);
            }
            // room for new colliding keys again, up to CROWD
            for (int i = 0; i < CROWD; i++) {
                c.put(string(i), values.get(i));
            }
            for (int i = 0; i < CROWD; i++) {
                check(values.get(i).equals(c.get(string(i))), "again " + i);
            }
            c.clear();
            check(c.size() == 0, "cleared");
        }
    }

    /**
     * A flood in a full cache: the oldest entries go, by capacity and by
     * hash code; the cache ends with the newest keys of the flood and the
     * newest ordinary keys.
     */
    static void byteArraysWithEviction() {
        int n = 1 << BLOCKS;
        int capacity = 1000;
        Cache<Cache.EqualByteArray, Integer> c =
                Cache.newSoftMemoryCache(capacity);
        Integer[] values = new Integer[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
            c.put(new Cache.EqualByteArray(bytes(i, 0)), values[i]);
            c.put(new Cache.EqualByteArray(new byte[] {(byte) i,
                    (byte) (i >> 8)}), values[i]);
        }
        check(c.size() == capacity, "size " + c.size());
        for (int i = 0; i < n; i++) {
            Integer v = c.get(new Cache.EqualByteArray(bytes(i, 0)));
            // the newest flood keys, but the oldest of those went by
            // capacity: CROWD flood keys put among the last capacity puts
            check(i >= n - CROWD ? v == values[i] : v == null, "flood " + i
                    + ": " + v);
            v = c.get(new Cache.EqualByteArray(new byte[] {(byte) i,
                    (byte) (i >> 8)}));
            check(i >= n - (capacity - CROWD) ? v == values[i] : v == null,
                    "ordinary " + i + ": " + v);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
