/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Keys with one hash code cost a bounded number of equals calls per
 *          operation, not one per colliding key; String
 *          and EqualByteArray floods stay correct through table growth,
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

    static void equalsCallsBounded() {
        int n = 1 << BLOCKS;
        Cache<CountingKey, Integer> c = Cache.newHardMemoryCache(0, 3600);
        CountingKey.calls = 0;
        for (int i = 0; i < n; i++) {
            c.put(new CountingKey(bytes(i, 0)), i);
        }
        long perPut = CountingKey.calls / n;
        check(perPut <= 8, "equals calls per put: " + perPut);
        CountingKey.calls = 0;
        for (int i = 0; i < n; i++) {
            Integer v = c.get(new CountingKey(bytes(i, 0)));
            check(v != null && v == i, "get " + i + ": " + v);
        }
        long perGet = CountingKey.calls / n;
        check(perGet <= 8, "equals calls per get: " + perGet);
        CountingKey.calls = 0;
        for (int i = 0; i < 1000; i++) {
            check(c.get(new CountingKey(bytes(i, 1))) == null, "absent " + i);
            c.remove(new CountingKey(bytes(i, 2)));
        }
        check(CountingKey.calls <= 8 * 2000, "equals calls for 1000 misses"
                + " and 1000 removes of absent keys: " + CountingKey.calls);
        CountingKey.calls = 0;
        for (int i = 0; i < n; i += 2) {
            c.remove(new CountingKey(bytes(i, 0)));
        }
        check(CountingKey.calls <= 8L * n / 2, "equals calls for removes: "
                + CountingKey.calls);
        check(c.size() == n / 2, "size after removes: " + c.size());
        for (int i = 0; i < n; i++) {
            Integer v = c.get(new CountingKey(bytes(i, 0)));
            check(i % 2 == 0 ? v == null : v != null && v == i, "after removes "
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
            for (int i = 0; i < n; i++) {
                check(values.get(i).equals(c.get(string(i))), "get " + i);
            }
            for (int i = 0; i < n; i += 3) {
                check(values.get(i).equals(c.pull(string(i))), "pull " + i);
            }
            for (int i = 1; i < n; i += 3) {
                c.remove(string(i));
            }
            Set<String> left = new HashSet<>();
            c.accept(m -> left.addAll(m.keySet()));
            for (int i = 0; i < n; i++) {
                boolean expected = i % 3 == 2;
                check(left.contains(string(i)) == expected, "kept " + i);
                check((c.get(string(i)) != null) == expected, "get after " + i);
                check(values.get(i).equals(c.get("other" + i)), "other " + i);
            }
            c.clear();
            check(c.size() == 0, "cleared");
        }
    }

    static void byteArraysWithEviction() {
        int n = 1 << BLOCKS;
        Cache<Cache.EqualByteArray, Integer> c = Cache.newSoftMemoryCache(1000);
        Integer[] values = new Integer[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
            c.put(new Cache.EqualByteArray(bytes(i, 0)), values[i]);
        }
        check(c.size() == 1000, "size " + c.size());
        for (int i = 0; i < n; i++) {
            Integer v = c.get(new Cache.EqualByteArray(bytes(i, 0)));
            check(i >= n - 1000 ? v == values[i] : v == null, "evicted " + i);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
