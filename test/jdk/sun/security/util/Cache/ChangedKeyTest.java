/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A key changed while cached (an EqualByteArray whose array is
 *          overwritten, among keys with one hash code) can no longer be
 *          found, but the cache keeps working: later puts succeed, and
 *          its entry is evicted like any other, by capacity and among the
 *          keys of its hash code
 * @modules java.base/sun.security.util
 * @run main ChangedKeyTest
 */

import java.util.HashMap;
import java.util.Map;

import sun.security.util.Cache;

public class ChangedKeyTest {

    static final int BLOCKS = 5;        // 32 arrays with one hash code
    static final int CAPACITY = 16;

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            byCapacity(soft);
            bySameHash(soft);
        }
        System.out.println("passed");
    }

    /**
     * The i-th of 2^BLOCKS byte arrays with one Arrays.hashCode: each block
     * is {0, 31} or {1, 0}, and 31 * 0 + 31 == 31 * 1 + 0.
     */
    static byte[] bytes(int i) {
        byte[] b = new byte[2 * BLOCKS];
        for (int j = 0; j < BLOCKS; j++) {
            boolean one = (i >>> j & 1) != 0;
            b[2 * j] = (byte) (one ? 1 : 0);
            b[2 * j + 1] = (byte) (one ? 0 : 31);
        }
        return b;
    }

    static Cache<Cache.EqualByteArray, String> newCache(boolean soft) {
        return soft ? Cache.newSoftMemoryCache(CAPACITY)
                : Cache.newHardMemoryCache(CAPACITY);
    }

    /**
     * Puts CAPACITY colliding keys, then changes the array of the oldest
     * one still cached (found by get, which does not reorder), keeping its
     * hash code (EqualByteArray computes it once).
     *
     * @return the changed key
     */
    static Cache.EqualByteArray fillAndChange(
            Cache<Cache.EqualByteArray, String> c, String[] values) {
        byte[][] arrays = new byte[CAPACITY][];
        Cache.EqualByteArray[] keys = new Cache.EqualByteArray[CAPACITY];
        for (int i = 0; i < CAPACITY; i++) {
            arrays[i] = bytes(i);
            keys[i] = new Cache.EqualByteArray(arrays[i]);
            check(keys[i].hashCode() == keys[0].hashCode(), "one hash code");
            c.put(keys[i], values[i]);
        }
        int oldest = 0;
        while (c.get(new Cache.EqualByteArray(bytes(oldest))) == null) {
            oldest++;
        }
        // contents no other key has; its hash code, computed once, stays
        arrays[oldest][0] = 7;
        check(c.get(new Cache.EqualByteArray(bytes(oldest))) == null,
                "its old contents are not found");
        return keys[oldest];
    }

    /** Ordinary keys fill the cache: every entry before them goes. */
    static void byCapacity(boolean soft) {
        Cache<Cache.EqualByteArray, String> c = newCache(soft);
        String[] values = values(CAPACITY);
        Cache.EqualByteArray changed = fillAndChange(c, values);
        Map<Cache.EqualByteArray, String> expected = new HashMap<>();
        for (int i = 0; i < 2 * CAPACITY; i++) {
            Cache.EqualByteArray k = new Cache.EqualByteArray(
                    new byte[] {(byte) i, 42});
            c.put(k, values[i % CAPACITY]);         // must not throw
            if (i >= CAPACITY) {
                expected.put(k, values[i % CAPACITY]);
            }
        }
        check(expected.equals(entries(c)), "entries " + entries(c));
        check(c.size() == CAPACITY, "size " + c.size());
        check(!entries(c).containsKey(changed), "the changed key stays");
        c.remove(changed);
        check(c.size() == CAPACITY, "size after a remove " + c.size());
    }

    /**
     * More keys of the changed key's hash code: the cache makes room among
     * them, the changed key included, and keeps working.
     */
    static void bySameHash(boolean soft) {
        Cache<Cache.EqualByteArray, String> c = newCache(soft);
        String[] values = values(1 << BLOCKS);
        fillAndChange(c, values);
        for (int i = CAPACITY; i < 1 << BLOCKS; i++) {
            c.put(new Cache.EqualByteArray(bytes(i)), values[i]);
        }
        // the newest keys stay, and all of them can be found
        Map<Cache.EqualByteArray, String> entries = entries(c);
        check(entries.size() == c.size(), "size " + c.size() + ", entries "
                + entries.size());
        check(c.size() > 0 && c.size() <= CAPACITY, "size " + c.size());
        int newest = (1 << BLOCKS) - 1;
        for (int i = newest; i > newest - c.size(); i--) {
            String v = c.get(new Cache.EqualByteArray(bytes(i)));
            check(values[i].equals(v), "get " + i + ": " + v);
        }
        c.clear();
        check(c.size() == 0, "cleared");
    }

    static String[] values(int n) {
        String[] values = new String[n];
        for (int i = 0; i < n; i++) {
            values[i] = "v" + i;            // held here for the soft cache
        }
        return values;
    }

    static <K,V> Map<K,V> entries(Cache<K,V> c) {
        Map<K,V> copy = new HashMap<>();
        c.accept(copy::putAll);
        return copy;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
