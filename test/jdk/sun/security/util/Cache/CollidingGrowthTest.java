/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Two floods of keys, each of one hash code, the two codes
 *          differing in one low bit b, never make one put do work in
 *          proportion to the floods: the cache must not keep them in one
 *          bucket until its table grows past 2^b buckets and then move
 *          half of them in the put that splits that bucket. Observed as
 *          the bytes each put allocates
 * @modules java.base/sun.security.util
 *          jdk.management
 * @run main/othervm CollidingGrowthTest
 */

import sun.security.util.Cache;

public class CollidingGrowthTest {

    static final int BLOCKS = 14;       // 2^14 Strings with one hash code
    static final int BIT = 15;          // the bit in which the floods differ
    // 3 puts each, 2 flood keys and another key: enough for a table that
    // keeps the floods in one bucket to grow past 2^BIT buckets and move
    // every bucket of its old table
    static final int ROUNDS = 11_000;

    /** The i-th of 2^BLOCKS Strings with one hashCode ("Aa" and "BB"). */
    static String collider(int i) {
        StringBuilder sb = new StringBuilder(2 * BLOCKS + 1);
        for (int j = 0; j < BLOCKS; j++) {
            sb.append((i >>> j & 1) != 0 ? "BB" : "Aa");
        }
        return sb.toString();
    }

    /**
     * Two suffixes {@code q} and {@code q + 2^BIT} such that the hash
     * codes of collider(i) + q, 31 * C + q for the colliders' hash code C,
     * differ in bit BIT alone: bit BIT of 31 * C + q is 0, so adding 2^BIT
     * carries into no other bit.
     */
    static char[] suffixes() {
        int base = 31 * collider(0).hashCode();
        for (char q = 'a'; ; q++) {
            if (((base + q) & (1 << BIT)) == 0) {
                return new char[] {q, (char) (q + (1 << BIT))};
            }
        }
    }

    public static void main(String[] args) {
        char[] q = suffixes();
        String a = collider(0) + q[0];
        String b = collider(0) + q[1];
        if ((a.hashCode() ^ b.hashCode()) != 1 << BIT) {
            throw new AssertionError("hash codes " + a.hashCode() + ", "
                    + b.hashCode());
        }
        for (boolean soft : new boolean[] {false, true}) {
            allocation(soft, q);
        }
        System.out.println("passed");
    }

    static void allocation(boolean soft, char[] q) {
        AllocationMeter meter = new AllocationMeter();
        // The most bytes one put may allocate: a node, two table segments
        // of 8192 references each (a growth splits a bucket into two,
        // which may be in two segments) and a little more. Moving half of
        // the floods in one put costs an object or more per moved key,
        // several times this.
        long start = meter.bytes();
        Object[] segment = new Object[8192];
        long limit = 2 * (meter.bytes() - start) + 4096;
        if (segment.length == 0) {
            throw new AssertionError();     // keeps the array alive
        }
        // every key made before the puts, so that only the cache allocates
        String[] keys = new String[3 * ROUNDS];
        for (int i = 0; i < ROUNDS; i++) {
            keys[3 * i] = collider(i) + q[0];
            keys[3 * i + 1] = collider(i) + q[1];
            keys[3 * i + 2] = "other" + i;
        }
        Cache<String, String> c = soft ? Cache.newSoftMemoryCache(0)
                : Cache.newHardMemoryCache(0, 3600);
        long max = 0;
        int at = -1;
        for (int i = 0; i < keys.length; i++) {
            String k = keys[i];
            long before = meter.bytes();
            c.put(k, k);
            long bytes = meter.bytes() - before;
            if (bytes > max) {
                max = bytes;
                at = i;
            }
        }
        String what = soft ? "soft" : "hard";
        System.out.println(what + ": largest put " + max + " bytes, put #"
                + at + "; limit " + limit);
        if (max > limit) {
            throw new AssertionError(what + ": put #" + at + " allocated "
                    + max + " bytes");
        }
        // the other keys are all there: the floods took nothing from them
        for (int i = 0; i < ROUNDS; i++) {
            String k = "other" + i;
            if (!k.equals(c.get(k))) {
                throw new AssertionError(what + ": lost " + k);
            }
        }
    }
}
